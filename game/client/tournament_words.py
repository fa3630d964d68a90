"""What the tournament's screens (the room, the TV) say and how they draw a table: the
formats' names, a game's state, the standings' lines, and rows of cells fitted to their
columns (text shrunk to its cell, never clipped)."""

from __future__ import annotations

import time
from collections.abc import Sequence

import pygame

from game.client import theme
from game.i18n import _
from net.tournament_link import GameView, StandingView, TournamentView

FORMATS = ("round-robin", "swiss", "knockout", "double-round-robin")
"""The formats a tournament can be set up in, as the setup steps through them."""


def format_name(name: str) -> str:
    return {
        "round-robin": _("Round robin"),
        "double-round-robin": _("Double round robin"),
        "swiss": _("Swiss"),
        "knockout": _("Knockout"),
    }.get(name, name)


def tie_break_name(name: str) -> str:
    return {
        "Sonneborn–Berger": _("Sonneborn–Berger"),
        "Buchholz": _("Buchholz"),
        "Buchholz cut 1": _("Buchholz cut 1"),
        "matches won": _("matches won"),
    }.get(name, name)


_GLYPHS = {0.25: "¼", 0.5: "½", 0.75: "¾"}
"""Points are halves; a Sonneborn–Berger or Buchholz may be quarters."""


def points(value: float) -> str:
    whole = int(value)
    if value == whole:
        return str(whole)
    glyph = _GLYPHS.get(value - whole)
    return f"{whole or ''}{glyph}" if glyph else f"{value:g}"


def game_state(game: GameView) -> str:
    """How a game of the round stands: its result, under way (with its moves, for this
    player's own), or about to begin (its match not open yet, where the director knows)."""
    if game.result == "-/-":
        return _("-/- not scored")
    if game.result is not None:
        return game.result
    if game.playing:
        return _("under way · move {n}").format(n=game.moves + 1)
    if game.hosted is False:
        return _("about to begin")
    return _("under way")


def round_line(view: TournamentView) -> str:
    if not view.round:
        return _("Waiting for players")
    if view.rounds:
        line = _("Round {n} of {total}").format(n=view.round, total=view.rounds)
    else:
        line = _("Round {n}").format(n=view.round)
    if view.round_ends is not None:  # a time per round: when it runs out, by this clock
        ends = time.strftime("%H:%M", time.localtime(view.round_ends))
        line += " · " + _("ends at {time}").format(time=ends)
    return line


def status_line(view: TournamentView) -> str:
    """The one line that matters most to the person now."""
    if view.error:
        return _("No tournament: {reason}").format(reason=view.error)
    if view.phase == "connecting":
        return _("Connecting…")
    if view.phase == "over":
        return _("Winner: {name}").format(name=view.winner or "?")
    if view.phase == "waiting":
        if view.waiting_for:
            return _("Waiting for {n} more players").format(n=view.waiting_for)
        return _("Waiting for the first round")
    if view.next_opponent:
        return _("Your next opponent: {name}").format(name=view.next_opponent)
    return _("Your game of this round is over: waiting for the others")


def standing_cells(line: StandingView) -> list[str]:
    name = line.name + (" " + _("(computer)") if line.computer else "")
    if line.withdrawn:
        name += " " + _("(withdrawn)")
    return [str(line.rank), name, points(line.points), *(points(v) for v in line.tie_breaks)]


def pairing_cells(game: GameView) -> list[str]:
    return [str(game.board + 1), game.white, game.black, game_state(game)]


def draw_rows(
    surface: pygame.Surface,
    rect: pygame.Rect,
    rows: Sequence[Sequence[str]],
    shares: Sequence[float],
    size: int,
    palette: theme.Palette,
    *,
    heading: bool = True,
    marked: Sequence[bool] = (),
) -> int:
    """Draw ``rows`` (the first a heading, in the muted colour, if ``heading``) in columns
    of ``shares`` of ``rect``'s width, each cell's text shrunk to fit its column; as many
    rows as ``rect`` holds, the last of them saying how many more there are.  ``marked``
    rows are drawn in the accent colour (this player's).  Returns the rows drawn."""
    pitch = round(size * 1.45)
    fits = max(1, rect.height // pitch)
    shown = list(rows)
    if len(shown) > fits:
        more = len(shown) - fits + 1
        shown = [*shown[: fits - 1], [_("… and {n} more").format(n=more)]]
    total = sum(shares)
    gap = max(2, size // 3)
    for index, row in enumerate(shown):
        y = rect.y + index * pitch
        colour = palette.text
        if heading and index == 0:
            colour = palette.muted
        elif index < len(marked) and marked[index]:
            colour = palette.accent
        x = rect.x
        if len(row) == 1 and len(shares) > 1:  # a line across the columns
            cell = theme.fitted(row[0], size, colour, rect.width)
            surface.blit(cell, (x, y))
            continue
        for text, share in zip(row, shares, strict=False):
            width = round(rect.width * share / total)
            if text:
                cell = theme.fitted(text, size, colour, max(1, width - gap))
                surface.blit(cell, (x, y))
            x += width
    return len(shown)
