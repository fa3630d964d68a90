"""The review of a finished match: each move of the people judged by *hard* — best, good,
inaccuracy, mistake, blunder — with the better move on the board and the reason, and the
advantage along the match as a graph to tap.

The review is worked out in the worker process (a progress bar meanwhile; Back cancels it)
and kept beside the match's save (``<save>.review``) so it is made once.  The board shows
the position before the move in hand: the move played ringed in grey and, when a better one
existed, that one in the accent colour with its path.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from game.ai.review import Judged, Review, review_from_bytes, review_to_bytes
from game.client import theme
from game.client.navigator import Screen, make
from game.client.scenes.replay import ReplayScene
from game.client.scenes.saved import fitted
from game.client.widgets import button, fixed
from game.files import atomic_write
from game.i18n import _, ngettext
from game.names import review_reason, seat_names
from game.session.match import Match
from game.session.saves import Finished
from game.session.seats import Seat, SeatKind

if TYPE_CHECKING:
    from game.client.app import App

log = logging.getLogger(__name__)

MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
"""How the move list marks a move, as chess players write it."""
GRAPH_CLAMP = 1000
"""The graph's scale: an advantage of this much (ten pieces; a forced result) fills it."""


def label_text(label: str) -> str:
    return {
        "best": _("best"),
        "good": _("good"),
        "inaccuracy": _("inaccuracy"),
        "mistake": _("mistake"),
        "blunder": _("blunder"),
    }[label]


def reason_text(judged: Judged) -> str:
    """Why the move lost, in a line (empty when the engine cannot say)."""
    return review_reason(judged.reason, judged.reason_move, judged.pieces)


class ReviewScene(ReplayScene):
    """A finished match stepped through with the computer's judgement of each move."""

    def __init__(self, app: App, entry: Finished) -> None:
        super().__init__(app, entry)
        self.step = 0
        self.preview.state = self.match.state_at(0)
        self.people = {i for i, seat in enumerate(self.match.seats) if seat.is_human}
        self.rated = set(range(self.match.variant.players))
        """Every seat is judged, the computer's too (its moves teach as well)."""
        self.review: Review | None = self._kept()
        self._future: Future[Review | None] | None = None
        if self.review is None:
            self._future = app.thinker.review(self.match.record, self.rated)
        self.graph = pygame.Rect(0, 0, 0, 0)
        self.verdict_top = 0

    @classmethod
    def of_match(
        cls,
        app: App,
        match: Match,
        marks: dict[int, str] | None = None,
        notices: tuple[str, ...] = (),
    ) -> ReviewScene:
        """The review of a match just finished (a review shows no marks or notices: it
        makes its own judgements)."""
        replay = ReplayScene.of_match(app, match)
        return cls(app, replay.entry)

    # -- the review's life ----------------------------------------------------------------

    def cache_path(self) -> Path:
        return self.entry.path.with_name(self.entry.path.name + ".review")

    def _kept(self) -> Review | None:
        try:
            data = self.cache_path().read_bytes()
        except OSError:
            return None
        return review_from_bytes(data, self.match.record)

    def update(self, dt: float) -> None:
        super().update(dt)
        future = self._future
        if future is None or not future.done():
            return
        self._future = None
        try:
            self.review = future.result()
        except Exception as error:  # a worker that died: say so, the replay still works
            log.error("the review failed: %s", error)
            self.notice = _("The review could not be made.")
            return
        if self.review is not None and self.entry.path.exists():
            try:
                atomic_write(self.cache_path(), review_to_bytes(self.review, self.match.record))
            except OSError as error:
                log.warning("the review could not be kept: %s", error)

    @property
    def working(self) -> bool:
        """True while the review is being worked out (the progress bar moves)."""
        return self._future is not None

    @property
    def waiting(self) -> bool:
        return self.working

    def back(self) -> None:
        self._leave()

    def _leave(self) -> None:
        if self._future is not None:
            self.app.thinker.cancel()
            self._future = None
        self.app.pop()

    def discard(self) -> None:
        if self._future is not None:
            self.app.thinker.cancel()
            self._future = None

    # -- layout and moving ----------------------------------------------------------------

    def layout(self, size: tuple[int, int]) -> None:
        super().layout(size)
        u = self.u
        back = next(t for t in self.targets if t.name == "back")
        targets = [t for t in self.targets if t.name not in ("export", "review", "back")]
        bottom = back.rect
        x, inner = self.panel.x + u, self.panel.width - 2 * u
        # the mistake arrows as narrow as a finger allows, the words wider (German's
        # "Noch einmal" in two lines of 12 px or more at 1024x600)
        arrow = min(theme.touch(2.6 * u), (inner - 3 * u // 2) // 4)
        wide = (inner - 3 * u // 2 - 2 * arrow) // 2
        row = [
            ("◀ ?", lambda: self.go_to_mistake(-1), "previous mistake", self._has_mistake(-1)),
            ("? ▶", lambda: self.go_to_mistake(+1), "next mistake", self._has_mistake(+1)),
            (_("Try again"), self.try_again, "try again", self.can_try_again),
            (_("Back"), self._leave, "back", lambda: True),
        ]
        left = x
        for k, (label, action, name, enabled) in enumerate(row):
            rect = pygame.Rect(left, bottom.y, arrow if k < 2 else wide, bottom.height)
            left = rect.right + u // 2
            targets.append(button(rect, fixed(label), action, self.palette, enabled, name))
        if size[0] < size[1]:  # portrait: beside the title, where the panel has room
            half = self.panel.width // 2
            self.graph = pygame.Rect(self.panel.x + half, self.panel.y + u, half - u, 6 * u)
        else:  # above the Back button
            self.graph = pygame.Rect(self.panel.x + u, bottom.y - 7 * u,
                                     self.panel.width - 2 * u, 6 * u)  # fmt: skip
            self.moves_bottom = self.graph.y - u
        self.verdict_top = self.moves_top  # under the buttons, above the moves
        self.moves_top += round(5.2 * u)
        self.set_targets(targets)

    # -- the moves in hand ----------------------------------------------------------------

    def current(self) -> int | None:
        """The move about to be played on the board: the one judged."""
        return self.step if self.step < len(self.match.record.actions) else None

    def _judged_at(self, ply: int) -> Judged | None:
        if self.review is None:
            return None
        return next((j for j in self.review.decisions if j.ply == ply), None)

    def _move_line(self, index: int) -> str:
        judged = self._judged_at(index)
        text = super()._move_line(index)
        return f"{text} {MARKS[judged.label]}" if judged and judged.label in MARKS else text

    def _line_colour(self, index: int) -> tuple[int, int, int]:
        judged = self._judged_at(index)
        if judged is not None and judged.label in MARKS:
            return self._label_colour(judged.label)
        return self.palette.text if index == self.current() else self.palette.muted

    def _label_colour(self, label: str) -> tuple[int, int, int]:
        return {"blunder": self.palette.warning, "mistake": self.palette.accent,
                "inaccuracy": self.palette.focus}.get(label, self.palette.text)  # fmt: skip

    def _mistakes(self) -> list[int]:
        if self.review is None:
            return []
        return sorted(j.ply for j in self.review.decisions if j.label in MARKS)

    def _has_mistake(self, direction: int) -> Callable[[], bool]:
        def has() -> bool:
            plies = self._mistakes()
            return any(p < self.step for p in plies) if direction < 0 else any(
                p > self.step for p in plies)  # fmt: skip

        return has

    def go_to_mistake(self, direction: int) -> None:
        """To the previous or next move judged an inaccuracy, a mistake or a blunder."""
        plies = [p for p in self._mistakes() if (p < self.step if direction < 0 else p > self.step)]
        if not plies:
            self.gentle_cue()
            return
        self.go(plies[-1] if direction < 0 else plies[0])

    def can_try_again(self) -> bool:
        judged = self.judged()
        return judged is not None and judged.label != "best"

    def try_again(self) -> None:
        """A match from the position before the move in hand, the player at its seat, the
        computer at the others (at the level last chosen), on fresh dice."""
        judged = self.judged()
        if judged is None:
            self.gentle_cue()
            return
        record = self.match.record.first(self.step)
        level = self.app.settings.last_level
        seats = [Seat() if seat == judged.seat else Seat(SeatKind.COMPUTER, level)
                 for seat in range(self.match.variant.players)]  # fmt: skip
        match = Match(record, seats, random.SystemRandom().getrandbits(62))
        self.discard()
        self.app.reset(make(Screen.TITLE, self.app))
        self.app.push(make(Screen.MATCH, self.app, match))

    def tap_elsewhere(self, pos: tuple[int, int]) -> None:
        """A tap on the graph goes to that moment of the match."""
        if self.review is not None and self.graph.collidepoint(pos):
            self.go_to_x(pos[0])

    def go_to_x(self, x: int) -> None:
        """Jump to the judged move nearest ``x`` on the graph (a throw of the dice is not
        judged: the label would be missing)."""
        total = len(self.match.record.actions)
        share = (x - self.graph.x) / max(1, self.graph.width)
        ply = round(max(0.0, min(1.0, share)) * total)
        plies = [j.ply for j in self.review.decisions] if self.review is not None else []
        self.go(min(plies, key=lambda p: abs(p - ply)) if plies else ply)

    def summary(self, judged: Judged | None) -> str:
        """How the seat of the move in hand (else the first person) played, in counts."""
        assert self.review is not None
        seat = judged.seat if judged is not None else min(self.people, default=0)
        counts = self.review.label_counts(seat)
        text = _("{name}: best {best} · good {good} · inaccuracies {inaccuracy} · "
                 "mistakes {mistake} · blunders {blunder}").format(
            name=seat_names(self.match.state)[seat], **counts)  # fmt: skip
        hints = self.match.hints_by_seat().get(seat, 0)
        if hints:
            used = ngettext("{n} hint used", "{n} hints used", hints).format(n=hints)
            text = f"{text} · {used}"
        return text

    def judged(self) -> Judged | None:
        """The judgement of the move about to be played on the board, if it was judged."""
        if self.review is None:
            return None
        return next((j for j in self.review.decisions if j.ply == self.step), None)

    # -- drawing --------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        self._draw_marks(surface)
        self._draw_verdict(surface)
        self._draw_graph(surface)

    def _draw_marks(self, surface: pygame.Surface) -> None:
        """The move played in grey and, when a better one existed, that one in the accent
        colour."""
        judged = self.judged()
        if judged is None:
            return
        state = self.preview.state
        marks = [(judged.played, self.palette.muted)]
        if judged.label != "best":
            marks.append((judged.best, self.palette.accent))
        for text, colour in marks:
            self.view.draw_move(surface, state, state.parse_action(text), colour, self.u)

    def _draw_verdict(self, surface: pygame.Surface) -> None:
        u, palette = self.u, self.palette
        x, y = self.panel.x + u, self.verdict_top
        if self.review is None:
            done, of = self.app.thinker.review_progress()
            bar = pygame.Rect(x, y, self.panel.width - 2 * u, round(0.6 * u))
            pygame.draw.rect(surface, palette.muted, bar, 1)
            if of:
                pygame.draw.rect(surface, palette.accent,
                                 (bar.x, bar.y, bar.width * done // of, bar.height))  # fmt: skip
            text = _("Reviewing: {done} of {of} moves").format(done=done, of=of or "…")
            shown = theme.text(text, theme.small(0.8 * u), palette.text)
            surface.blit(shown, (x, bar.bottom + u // 3))
            return
        judged = self.judged()
        size = theme.small(0.75 * u)
        lines = theme.wrap(self.summary(judged), theme.font(size), self.panel.width - 2 * u)[:2]
        for n, text in enumerate(lines):  # whole, on two lines if it needs them
            surface.blit(theme.text(text, size, palette.muted), (x, y + round((2.4 + n) * u)))
        if judged is None:
            return
        line = _("{move}: {label}").format(move=judged.played, label=label_text(judged.label))
        colour = self._label_colour(judged.label) if judged.label in MARKS else palette.text
        surface.blit(theme.text(line, theme.small(0.9 * u), colour, True), (x, y))
        if judged.label != "best":
            better = _("better: {move}").format(move=judged.best)
            reason = reason_text(judged)
            text = f"{reason} — {better}" if reason else better
            if judged.chances:
                chances = _("winning chances −{n}%").format(n=judged.chances)
                text = f"{text} · {chances}"
            text = fitted(text, theme.small(0.8 * u), False, self.panel.width - 2 * u)
            shown = theme.text(text, theme.small(0.8 * u), palette.text)
            surface.blit(shown, (x, y + round(1.1 * u)))

    def _draw_graph(self, surface: pygame.Surface) -> None:
        """The first seat's advantage over the match in its colour, above the zero line
        when it leads; the mistakes as dots in their colours; the move in hand marked; the
        axis says who is ahead where."""
        if self.review is None or not self.graph.width:
            return
        palette, graph, u = self.palette, self.graph, self.u
        pygame.draw.rect(surface, palette.background, graph)
        middle = graph.centery
        pygame.draw.line(surface, palette.muted, (graph.x, middle), (graph.right - 1, middle))
        names = seat_names(self.match.state)
        ahead = _("{name} ahead")
        small = theme.small(0.6 * u)
        top = theme.text(ahead.format(name=names[0]), small, palette.muted)
        surface.blit(top, (graph.x + u // 4, graph.y + 1))
        if len(names) == 2:
            low = theme.text(ahead.format(name=names[1]), small, palette.muted)
            surface.blit(low, (graph.x + u // 4, graph.bottom - low.get_height() - 1))
        values = self.review.advantage
        last = max(1, len(values) - 1)
        points = [
            (graph.x + round(i * (graph.width - 1) / last),
             middle - round(max(-GRAPH_CLAMP, min(GRAPH_CLAMP, v)) * (graph.height // 2 - 2)
                            / GRAPH_CLAMP))
            for i, v in enumerate(values)
        ]  # fmt: skip
        if len(points) > 1:
            pygame.draw.lines(surface, self.view.seat_colour(0), False, points, 2)
        for judged in self.review.decisions:
            if judged.label in MARKS and judged.ply < len(points):
                colour = self._label_colour(judged.label)
                pygame.draw.circle(surface, colour, points[judged.ply], max(3, u // 4))
        x = graph.x + round(self.step * (graph.width - 1) / last)
        pygame.draw.line(surface, palette.text, (x, graph.y), (x, graph.bottom - 1), 2)
