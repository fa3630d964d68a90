"""A finished match as a move list to keep or share: PDN for the Dama games, the Tavolo
record format (docs/NOTATION.md) with its result for the others."""

from __future__ import annotations

import re
import time
import unicodedata
from datetime import UTC, datetime
from pathlib import Path

from game.rules import VARIANTS, Outcome, Variant
from game.rules.dama import DamaState
from game.rules.lupo import LupoState
from game.session.match import Match
from game.session.seats import Seat, SeatKind

PDN_GAME_TYPE = {
    name: spec.title
    for name, spec in VARIANTS.items()
    if issubclass(spec.state_class, DamaState | LupoState)
}
"""PDN's GameType tag of each game on the checkerboard: its proper name."""


def export_suffix(chosen: Variant) -> str:
    """The file name suffix of an exported match of ``chosen``."""
    return ".pdn" if chosen.name in PDN_GAME_TYPE else ".txt"


def export_name(match: Match, when: float) -> str:
    """A file name that says what the export is: the game, who played, when it ended —
    ``dama-classic_anna-vs-computer-hard_2026-11-27-1432.pdn`` — in letters, digits and
    dashes only (any file system, any shell)."""
    players = "-vs-".join(_seat_slug(seat) for seat in match.seats)
    day = time.strftime("%Y-%m-%d-%H%M", time.localtime(when))
    game = match.variant.name.replace(":", "-")
    return f"{game}_{players}_{day}{export_suffix(match.variant)}"


def free_path(folder: Path, name: str) -> Path:
    """``folder / name``, or with ``-2``, ``-3``… before the suffix if that is taken."""
    path = folder / name
    stem, suffix = path.stem, path.suffix
    number = 2
    while path.exists():
        path = folder / f"{stem}-{number}{suffix}"
        number += 1
    return path


def _seat_slug(seat: Seat) -> str:
    if seat.kind is SeatKind.COMPUTER:
        return f"computer-{seat.level}"
    folded = unicodedata.normalize("NFKD", seat.name).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", folded.lower()).strip("-")
    return slug or ("lan" if seat.kind is SeatKind.REMOTE else "player")


def export_text(
    match: Match, when: float | None = None, marks: dict[int, str] | None = None
) -> str:
    """The move list of ``match``; ``when`` (epoch seconds) dates it; ``marks`` are the move
    marks and NAGs of an imported game's actions, by index (``"!?"``, ``"!? $18"``), written
    back with their moves in PDN."""
    if match.variant.name in PDN_GAME_TYPE:
        return _pdn(match, when, marks or {})
    result = match.state.result()
    tail = f"# result: {result}\n" if result else ""
    return match.record.to_text() + tail


def _pdn(match: Match, when: float | None, marks: dict[int, str]) -> str:
    result = match.state.result()
    score = "*"
    if result is not None:
        scores: dict[tuple[Outcome, ...], str] = {
            (Outcome.WIN, Outcome.LOSS): "1-0",
            (Outcome.LOSS, Outcome.WIN): "0-1",
            (Outcome.DRAW, Outcome.DRAW): "1/2-1/2",
        }
        score = scores.get(result.outcomes, "*")
    date = "????.??.??" if when is None else datetime.fromtimestamp(when, UTC).strftime("%Y.%m.%d")
    headers = [
        '[Event "Tavolo"]',
        f'[Date "{date}"]',
        '[White "White"]',
        '[Black "Black"]',
        f'[Result "{score}"]',
        f'[GameType "{PDN_GAME_TYPE[match.variant.name]}"]',
        *(f'[Option "{k}={str(v).lower()}"]' for k, v in match.variant.options),
    ]
    if match.record.setup is not None:  # a set-up start: PDN's way of saying where
        headers += ['[SetUp "1"]', f'[FEN "{match.record.setup}"]']
    moves, number = [], 1
    # A draw by agreement or a resignation shows in the result, not among the moves.
    actions = [
        _marked(match.state_at(i).action_to_str(a), marks.get(i, ""))
        for i, a in enumerate(match.record.actions)
        if a >= 0
    ]
    while actions and actions[0].startswith(("wolf", "@")):  # Lupo: lot and placing, as notes
        moves.append(f"{{{actions.pop(0)}}}")
    if actions and match.state_at(0).to_move == 1:  # a set-up position with Black to move
        moves.append(f"{number}... {actions.pop(0)}")
        number += 1
    for index in range(0, len(actions), 2):
        pair = " ".join(actions[index : index + 2])
        moves.append(f"{number}. {pair}")
        number += 1
    moves.append(score)
    lines, line = [], ""
    for word in " ".join(moves).split(" "):
        if len(line) + len(word) + 1 > 79:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    lines.append(line)
    return "\n".join([*headers, "", *lines]) + "\n"


def _marked(move: str, marks: str) -> str:
    """``move`` with its marks as PDN writes them: ``22-18!?``, ``22-18 $18``."""
    for mark in marks.split():
        move += f" {mark}" if mark.startswith("$") else mark
    return move
