"""A game variant with its number of players and options: what a state is a state *of*."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any

from game.rules.core import DecodeError, RulesError

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from game.rules.core import State

OptionValue = bool | int | str


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One rule option a player can switch in the setup."""

    name: str
    default: OptionValue
    choices: Callable[[int], tuple[OptionValue, ...]]
    """The allowed values for a given number of players."""
    help: str

    def coerce(self, value: object, players: int) -> OptionValue:
        """``value`` as one of the allowed values; text (from a command line) is read too."""
        if isinstance(value, str):
            value = _read_option_text(value.strip().lower(), self.default)
        for choice in self.choices(players):
            if type(choice) is type(value) and choice == value:
                return choice
        shown = ", ".join(str(c).lower() for c in self.choices(players))
        raise RulesError(f"option {self.name}: {value!r} is not one of {shown}")


_BOOL_WORDS = {"on": True, "true": True, "yes": True, "off": False, "false": False, "no": False}


def _read_option_text(text: str, default: OptionValue) -> OptionValue:
    if isinstance(default, bool) and text in _BOOL_WORDS:
        return _BOOL_WORDS[text]
    return int(text) if text.isdecimal() and len(text) < 10 else text


class Rule(Enum):
    """A rule that sets a variant apart from the others of its family (RULES.md): what the
    engine, the computer players and the screens ask of a variant instead of its name."""

    MISERE = "misere"
    """Mangia la dama: the result turned round — a player left without a piece or a legal
    move at their turn wins."""
    MOVE_WHILE_PLACING = "move while placing"
    """Mulino misto: a turn may move a piece on the board while pieces are still in hand."""
    EXTRA_ACTION_FOR_A_MILL_PLACED = "extra action for a mill placed"
    """Mulino ceylonese: a mill closed while placing earns another placement (or a pass)
    instead of a removal, and whoever still has pieces keeps placing."""

    __hash__ = object.__hash__  # asked in the engine's inner loops: Enum's own hash is slow


class HighScore(Enum):
    """What a variant's high-score board ranks (the results a person there can set)."""

    MOST_POINTS = "points"
    """The points of a finished match (Numeri)."""
    FEWEST_TURNS = "turns"
    """The turns a win took (Ausgeblockt)."""
    FEWEST_TURNS_AGAINST_HARD = "turns against hard"
    """The turns a win against the computer on *hard* took (the board games of skill: a
    win against an easier opponent sets no record)."""


@dataclass(frozen=True, slots=True)
class VariantSpec:
    """A playable game variant and what it can do: its name, who can play it, its options,
    its states, and the capabilities the client, the computer players and the network ask
    about instead of testing the variant's name (as OpenSpiel's ``GameType`` does)."""

    name: str
    title: str
    """The game's proper name, the same in every language: "Mangia la dama"."""
    subtitle: str
    """A few words on what the game is, in English: the catalogue key the client translates."""
    players: tuple[int, ...]
    options: tuple[OptionSpec, ...]
    state_class: type[State] = field(repr=False)
    agreed_draws: bool
    """Whether the players may end a running game as a draw by agreement (RULES.md §3, §4);
    the engine refuses :data:`~game.rules.core.AGREED_DRAW` where they may not."""
    players_roll: bool
    """Whether the players throw dice in turn (a chance event with a
    :attr:`~game.rules.core.State.roller`), not only a lot drawn at the start."""
    two_colours: bool
    """Whether the two seats are the board's White and Black (the board games but Lupo e
    pecore, whose roles are drawn)."""
    high_score: HighScore
    rules: frozenset[Rule] = frozenset()
    """What sets this variant's rules apart from its family's first variant."""
    flies_with: int = 0
    """How few pieces a player must have left for them to fly to any free point (Mulino: 3,
    RULES.md §4); 0 where pieces never fly so (a Dama king's long move is not this)."""

    def start(self, chosen: Variant) -> State:
        """The starting state of ``chosen``, a set-up variant of this spec."""
        return self.state_class.initial(chosen)

    def option(self, name: str) -> OptionSpec:
        for spec in self.options:
            if spec.name == name:
                return spec
        known = ", ".join(o.name for o in self.options) or "none"
        raise RulesError(f"{self.name} has no option {name!r} (options: {known})")


@dataclass(frozen=True, slots=True)
class Variant:
    """A variant as set up for one match: e.g. ``dama:classic`` for 2 with huffing on."""

    name: str
    players: int
    options: tuple[tuple[str, OptionValue], ...] = ()

    def option(self, name: str) -> OptionValue:
        for key, value in self.options:
            if key == name:
                return value
        raise KeyError(name)

    def has(self, rule: Rule) -> bool:
        """Whether this variant plays by ``rule`` (asked in the engine's inner loops: cached
        by name, as a variant's rules never change)."""
        return rule in _rules_of(self.name)

    @property
    def game(self) -> str:
        return self.name.split(":")[0]

    @property
    def spec(self) -> VariantSpec:
        """What this variant's game is and can do."""
        from game.rules.registry import VARIANTS  # here: every game imports this module

        return VARIANTS[self.name]

    def to_fields(self) -> list[Any]:
        return [self.name, self.players, [[k, v] for k, v in self.options]]

    def describe(self) -> str:
        opts = "".join(f" {k}={str(v).lower()}" for k, v in self.options)
        return f"{self.name} players={self.players}{opts}"


@functools.cache
def _rules_of(name: str) -> frozenset[Rule]:
    from game.rules.registry import VARIANTS  # here: every game imports this module

    return VARIANTS[name].rules


def options_from_text(texts: list[str]) -> dict[str, str]:
    """Options written ``NAME=VALUE`` (as on a command line), not yet checked."""
    options = {}
    for text in texts:
        name, equals, value = text.partition("=")
        if not equals:
            raise RulesError(f"an option is NAME=VALUE, not {text!r}")
        options[name.strip()] = value
    return options


def make_variant(spec: VariantSpec, players: int | None, options: Mapping[str, object]) -> Variant:
    """The :class:`Variant` of ``spec`` for ``players`` with ``options`` checked and completed
    with defaults, in a canonical order."""
    if players is None:
        players = spec.players[0]
    if players not in spec.players:
        allowed = ", ".join(map(str, spec.players))
        raise RulesError(f"{spec.name} is played by {allowed} players, not {players}")
    for name in options:
        spec.option(name)
    chosen = tuple(
        (o.name, o.coerce(options[o.name], players) if o.name in options else o.default)
        for o in spec.options
    )
    return Variant(spec.name, players, chosen)


def variant_from_fields(fields: Any, specs: Mapping[str, VariantSpec]) -> Variant:
    """The variant written by :meth:`Variant.to_fields` (fields as unpacked, not yet trusted),
    checked against ``specs``."""
    try:
        name, players, options = fields
        spec = specs[name]
        return make_variant(spec, players, {str(k): v for k, v in options})
    except (TypeError, ValueError, KeyError) as error:
        raise DecodeError(f"not a valid game variant: {fields!r} ({error})") from error
