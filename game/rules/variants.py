"""A game variant with its number of players and options: what a state is a state *of*."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

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
    return int(text) if text.isdigit() else text


@dataclass(frozen=True, slots=True)
class VariantSpec:
    """A playable game variant: its name, who can play it, its options and its start."""

    name: str
    title: str
    players: tuple[int, ...]
    options: tuple[OptionSpec, ...]
    start: Callable[[Variant], State] = field(repr=False)

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

    @property
    def game(self) -> str:
        return self.name.split(":")[0]

    def to_fields(self) -> list:
        return [self.name, self.players, [[k, v] for k, v in self.options]]

    def describe(self) -> str:
        opts = "".join(f" {k}={str(v).lower()}" for k, v in self.options)
        return f"{self.name} players={self.players}{opts}"


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


def variant_from_fields(fields: object, specs: Mapping[str, VariantSpec]) -> Variant:
    """The variant written by :meth:`Variant.to_fields`, checked against ``specs``."""
    try:
        name, players, options = fields  # type: ignore[misc]
        spec = specs[name]
        return make_variant(spec, players, {str(k): v for k, v in options})
    except (TypeError, ValueError, KeyError) as error:
        raise DecodeError(f"not a valid game variant: {fields!r} ({error})") from error
