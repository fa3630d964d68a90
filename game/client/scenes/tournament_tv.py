"""The tournament's TV screen, for the big screen of the room (a kiosk's included): the
round's games as live boards side by side (each White's position as reported through the
director, or this person's own match), the standings, and at the end the winner with
confetti.

It reads the same link as the room it was opened from (:mod:`game.client.scenes.tournament`)
and leaves it to the room: closing the TV goes back to the room, the tournament going on —
and so does a game of the person's beginning, which the room takes to the board.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.client import theme
from game.client.particles import Particles
from game.client.scene import Scene
from game.client.scenes.picture import draw_position
from game.client.tournament_words import (
    draw_rows,
    format_name,
    game_state,
    pairing_cells,
    round_line,
    standing_cells,
    status_line,
    tie_break_name,
)
from game.client.widgets import button
from game.i18n import _
from game.names import variant_title
from game.rules import DecodeError, RulesError, State
from game.rules.codec import decode_state
from net.tournament_link import GameView, TournamentFeed, TournamentView

if TYPE_CHECKING:
    from game.client.app import App

CONFETTI = 320


class TournamentTvScene(Scene):
    """See the module's docstring."""

    holds_the_kiosk = True

    def __init__(self, app: App, link: TournamentFeed) -> None:
        super().__init__(app)
        self.link = link
        self.view: TournamentView = link.view()
        self.confetti = Particles(enabled=not app.settings.reduce_motion)
        self.celebrated = False
        """Whether the winner's confetti was thrown (once, when the tournament ends)."""
        self.seen = self.view.my_game
        """The person's game under way when the TV was opened (the room offers it)."""
        self.pictures: dict[int, tuple[tuple[bytes, int], pygame.Surface]] = {}
        """Each board's picture with the position and size it was drawn for: drawn again
        only when its game moves on (a picture costs a board view's whole drawing)."""
        self.positions: dict[bytes, State | None] = {}
        """Each reported position read once (None: not a position of this game), for the
        positions the view holds now."""

    def layout(self, size: tuple[int, int]) -> None:
        self.u = u = theme.unit(size)
        high = theme.row(u, 2.2)
        wide = theme.touch(9 * u)
        rect = pygame.Rect(size[0] - wide - u // 2, size[1] - high - u // 2, wide, high)
        self.set_targets([button(rect, lambda: _("Back"), self.back, self.palette, name="back")])

    def update(self, dt: float) -> None:
        super().update(dt)
        self.view = self.link.view()
        held = {game.position for game in self.view.games}
        self.positions = {k: v for k, v in self.positions.items() if k in held}
        game = self.view.my_game
        if game is not None and game != self.seen and self.link.game_link(game) is not None:
            self.seen = game
            self.app.pop()  # a game of the person's begins: the room takes them to it
            return
        self.confetti.update(dt * self.app.settings.animation_speed)
        if self.view.phase == "over" and not self.celebrated:
            self.celebrated = True
            colours = [self.palette.accent, *self.palette.seats, (255, 255, 255)]
            self.confetti.confetti(pygame.Rect((0, 0), self.app.size), colours, CONFETTI,
                                   max(6.0, self.u * 0.7))  # fmt: skip

    @property
    def animating(self) -> bool:
        return super().animating or self.confetti.active

    @property
    def waiting(self) -> bool:
        return True  # the games go on, and their news come from the network

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(self.palette.background)
        u, view, palette = self.u, self.view, self.palette
        width, height = surface.get_size()
        what = [view.name or _("Tournament")]
        if view.game:
            what.append(variant_title(view.game))
        if view.format:
            what.append(format_name(view.format))
        title = theme.fitted(" · ".join(what), round(2.4 * u), palette.accent, width - 2 * u, True)
        surface.blit(title, title.get_rect(midtop=(width // 2, u // 2)))
        y = u // 2 + title.get_height() + u // 2
        size = max(theme.SMALLEST, round(1.5 * u))
        if view.phase == "over" and view.winner:
            big = theme.fitted(_("Winner: {name}").format(name=view.winner), 5 * u,
                               palette.accent, width - 2 * u, True)  # fmt: skip
            surface.blit(big, big.get_rect(midtop=(width // 2, y)))
            y += big.get_height() + u
        else:
            line = f"{round_line(view)} · {status_line(view)}" if view.round else status_line(view)
            if view.error:
                line = status_line(view)
            colour = palette.warning if view.error else palette.text
            text = theme.fitted(line, size, colour, width - 2 * u)
            surface.blit(text, text.get_rect(midtop=(width // 2, y)))
            y += round(size * 1.6)
        bottom = self.targets[0].rect.top - u // 2 if self.targets else height - u
        area = pygame.Rect(u, y, width - 2 * u, bottom - y)
        over = view.phase == "over"
        games_between = not view.games or all(game.result for game in view.games)
        standings_first = over or games_between
        live = not standings_first and any(self._position(g) is not None for g in view.games)
        share = 0.6 if live else 0.5  # live boards take the larger part
        first = round((area.width - 2 * u) * share)
        left = pygame.Rect(area.x, area.y, first, area.height)
        right = pygame.Rect(
            left.right + 2 * u, area.y, area.right - left.right - 2 * u, area.height
        )
        standings_rect, games_rect = (left, right) if standings_first else (right, left)
        self._standings(surface, standings_rect, size)
        self._games(surface, games_rect, size)
        self.draw_targets(surface)
        self.confetti.draw(surface)

    def _standings(self, surface: pygame.Surface, rect: pygame.Rect, size: int) -> None:
        view, palette = self.view, self.palette
        caption = theme.fitted(_("Standings"), size, palette.accent, rect.width, True)
        surface.blit(caption, rect.topleft)
        pitch = round(size * 1.45)
        body = pygame.Rect(rect.x, rect.y + pitch, rect.width, rect.height - pitch)
        breaks = [tie_break_name(b) for b in view.tie_breaks[:1]]
        rows = [[_("#"), _("Player"), _("Points"), *breaks]]
        rows += [standing_cells(line)[: 3 + len(breaks)] for line in view.standings]
        if not view.standings:
            rows += [["", name, "", ""] for name in view.entrants]
        leader = [False, *(line.rank == 1 and view.phase == "over" for line in view.standings)]
        draw_rows(surface, body, rows, [1, 6, 2, 3][: 3 + len(breaks)], size, palette,
                  marked=leader)  # fmt: skip

    def _games(self, surface: pygame.Surface, rect: pygame.Rect, size: int) -> None:
        view, palette = self.view, self.palette
        words = round_line(view) if view.round else _("This round")
        caption = theme.fitted(words, size, palette.accent, rect.width, True)
        surface.blit(caption, rect.topleft)
        pitch = round(size * 1.45)
        body = pygame.Rect(rect.x, rect.y + pitch, rect.width, rect.height - pitch)
        if any(self._position(game) is not None for game in view.games):
            self._boards(surface, body, size)
            return
        rows = [[_("Board"), _("White"), _("Black"), _("State")]]
        rows += [pairing_cells(game) for game in view.games]
        rows += [[_("Bye: {name}").format(name=name)] for name in view.byes]
        draw_rows(surface, body, rows, [1.8, 4, 4, 4], size, palette)

    def _position(self, game: GameView) -> State | None:
        """The game's latest position, if it is played and what was reported reads as a
        position of this tournament's game (anything else is not drawn)."""
        if game.result is not None or game.position is None:
            return None
        if game.position not in self.positions:
            try:
                state: State | None = decode_state(game.position)
            except (DecodeError, RulesError):
                state = None
            readable = state is not None and state.variant.name == self.view.game
            self.positions[game.position] = state if readable else None
        return self.positions[game.position]

    def _boards(self, surface: pygame.Surface, area: pygame.Rect, size: int) -> None:
        """Every game of the round in a grid of equal cells — the pairing above, the live
        board below (a finished game: its result) — as many columns as make the boards
        largest."""
        games = self.view.games
        gap = max(2, self.u // 2)
        line = round(size * 1.4)
        best = (0, 1)
        for columns in range(1, len(games) + 1):
            rows = -(-len(games) // columns)
            width = (area.width - (columns - 1) * gap) // columns
            height = (area.height - (rows - 1) * gap) // rows - line
            best = max(best, (min(width, height), columns))
        side, columns = best
        if side < 4 * self.u:  # too many to draw: the list says it in words
            self.pictures.clear()
            rows_ = [[_("Board"), _("White"), _("Black"), _("State")]]
            rows_ += [pairing_cells(game) for game in games]
            draw_rows(surface, area, rows_, [1.8, 4, 4, 4], size, self.palette)
            return
        width = (area.width - (columns - 1) * gap) // columns
        for index, game in enumerate(games):
            row, column = divmod(index, columns)
            cell = pygame.Rect(area.x + column * (width + gap),
                               area.y + row * (side + line + gap), width, side + line)  # fmt: skip
            self._board(surface, cell, game, side, size)

    def _board(
        self, surface: pygame.Surface, cell: pygame.Rect, game: GameView, side: int, size: int
    ) -> None:
        palette = self.palette
        words = f"{game.board + 1} · {game.white} – {game.black} · {game_state(game)}"
        colour = palette.accent if game.mine else palette.text
        caption = theme.fitted(words, max(theme.SMALLEST, round(size * 0.8)), colour, cell.width)
        surface.blit(caption, caption.get_rect(midtop=(cell.centerx, cell.y)))
        place = pygame.Rect(0, 0, side, side)
        place.midtop = (cell.centerx, cell.y + round(size * 1.4))
        state = self._position(game)
        if state is None or game.position is None:
            self.pictures.pop(game.board, None)
            board = place.inflate(-side // 7, -side // 7)  # as large as a picture's board
            board.top = place.top
            pygame.draw.rect(surface, palette.panel, board, border_radius=self.u // 3)
            said = game.result or game_state(game)
            text = theme.fitted(said, round(2 * size), palette.text, board.width - self.u, True)
            surface.blit(text, text.get_rect(center=board.center))
            return
        key = (game.position, side)
        held = self.pictures.get(game.board)
        if held is None or held[0] != key:
            held = (key, draw_position(self.app, state, (side, side)))
            self.pictures[game.board] = held
        surface.blit(held[1], place)
