"""Every playable variant, by the name used everywhere: ``dama:classic``, ``numeri`` …"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import replace
from itertools import product

import msgpack

from game.rules.ausgeblockt import AusgeblocktState
from game.rules.boards import default_track
from game.rules.core import ENCODING_VERSION, RulesError, State
from game.rules.dama import DamaState
from game.rules.lupo import LupoState
from game.rules.mulino import FLIES_WITH, MulinoState
from game.rules.numeri import NumeriState
from game.rules.variants import (
    HighScore,
    OptionSpec,
    Rule,
    Variant,
    VariantSpec,
    make_variant,
)


def _first_seat(players: int) -> tuple[int | str, ...]:
    return ("lot", *range(1, players + 1))


_FIRST = OptionSpec("first", "lot", _first_seat, "who begins: lot, or a seat number")
_WOLF = OptionSpec("wolf", "lot", _first_seat, "which seat plays the wolf: lot, 1 or 2")
_HUFFING = OptionSpec(
    "huffing",
    False,
    lambda _: (False, True),
    "a piece that fails to capture may be removed (huffed)",
)


def _dice_game(
    name: str, title: str, subtitle: str, players: tuple[int, ...], state_class: type[State],
    high_score: HighScore,
) -> VariantSpec:  # fmt: skip
    """A game the players roll dice in, who begins set up or drawn by lot; no agreed draw."""
    return VariantSpec(
        name, title, subtitle, players, (_FIRST,), state_class,
        agreed_draws=False, players_roll=True, two_colours=False, high_score=high_score,
    )  # fmt: skip


def _board_game(
    name: str, title: str, subtitle: str, options: tuple[OptionSpec, ...], state_class: type[State],
    *rules: Rule,
) -> VariantSpec:  # fmt: skip
    """A game of two on a board, White against Black, that players may agree to draw."""
    return VariantSpec(
        name, title, subtitle, (2,), options, state_class,
        agreed_draws=True, players_roll=False, two_colours=True,
        high_score=HighScore.FEWEST_TURNS_AGAINST_HARD, rules=frozenset(rules),
    )  # fmt: skip


def _mill_game(name: str, title: str, subtitle: str, *rules: Rule) -> VariantSpec:
    """A Mulino variant: a board game whose last three pieces fly."""
    spec = _board_game(name, title, subtitle, (), MulinoState, *rules)
    return replace(spec, flies_with=FLIES_WITH)


VARIANTS: dict[str, VariantSpec] = {
    spec.name: spec
    for spec in (
        _dice_game(
            "ausgeblockt", "Ausgeblockt", "Blocked out and ripped off!", (2,), AusgeblocktState,
            HighScore.FEWEST_TURNS,
        ),
        _dice_game(
            "numeri", "Numeri", "the numbers race", (2, 3, 4), NumeriState, HighScore.MOST_POINTS
        ),
        _board_game("dama:classic", "Dama", "draughts with flying kings", (_HUFFING,), DamaState),
        _board_game(
            "dama:mangia", "Mangia la dama", "losing draughts", (), DamaState, Rule.MISERE
        ),
        VariantSpec(
            "dama:lupo", "Lupo e pecore", "wolf and sheep", (2,), (_WOLF,), LupoState,
            agreed_draws=False, players_roll=False, two_colours=False,
            high_score=HighScore.FEWEST_TURNS_AGAINST_HARD,
        ),  # roles drawn by lot, and the game always ends in a result
        _mill_game("mulino:classic", "Mulino", "nine men's morris"),
        _mill_game(
            "mulino:misto", "Mulino misto", "morris: place or move", Rule.MOVE_WHILE_PLACING
        ),
        _mill_game(
            "mulino:ceylonese", "Mulino ceylonese", "morris with extra turns",
            Rule.EXTRA_ACTION_FOR_A_MILL_PLACED,
        ),
    )
}  # fmt: skip

_DEFAULT_VARIANT = {"dama": "dama:classic", "mulino": "mulino:classic"}


def find_variant(name: str) -> VariantSpec:
    """The variant called ``name`` (``dama`` alone means ``dama:classic``)."""
    key = name.strip().lower()
    key = _DEFAULT_VARIANT.get(key, key)
    try:
        return VARIANTS[key]
    except KeyError:
        known = ", ".join(VARIANTS)
        raise RulesError(f"unknown game {name!r}; the games are: {known}") from None


def variant(
    name: str, players: int | None = None, options: Mapping[str, object] | None = None
) -> Variant:
    """The checked :class:`Variant` for a name, a number of players and options."""
    return make_variant(find_variant(name), players, options or {})


def start(chosen: Variant) -> State:
    """The starting state of a set-up variant."""
    return find_variant(chosen.name).start(chosen)


def every_setup() -> list[Variant]:
    """Every variant for every number of players and every setting of its on/off options
    (other options at their defaults): what tests and benchmarks run through."""
    setups = []
    for spec in VARIANTS.values():
        switches = [o.name for o in spec.options if isinstance(o.default, bool)]
        for players in spec.players:
            for flags in product((False, True), repeat=len(switches)):
                setups.append(make_variant(spec, players, dict(zip(switches, flags, strict=True))))
    return setups


def new_game(name: str, players: int | None = None, **options: object) -> State:
    """The starting state of a game, e.g. ``new_game("numeri", players=3)`` or
    ``new_game("dama", huffing=True)``."""
    return start(variant(name, players, options))


RULES_REVISION = 2
"""Bumped whenever a rule's behaviour changes, so that peers running different rules never
play one match (a change of the state layout bumps ``ENCODING_VERSION`` instead).  Revision
2: a Dama or Mangia king capturing round a ring back to its own square stays on the board
(revision 1 took it off)."""


def fingerprint() -> str:
    """What two engines must share to replay each other's matches: the revision, the state
    encoding, every variant with its players and options, and the Numeri track — hashed
    (BLAKE2b-128, hex)."""
    specs = [
        [
            spec.name,
            list(spec.players),
            [[o.name, o.default, [list(o.choices(n)) for n in spec.players]] for o in spec.options],
        ]
        for spec in VARIANTS.values()
    ]
    track = default_track()
    data = [RULES_REVISION, ENCODING_VERSION, specs, list(track.values), list(track.barriers)]
    return hashlib.blake2b(msgpack.packb(data), digest_size=16).hexdigest()
