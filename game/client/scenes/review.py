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
from concurrent.futures import Future

import pygame

from game.ai.review import Judged, Review, review_from_bytes, review_to_bytes
from game.client import theme
from game.client.scenes.replay import ReplayScene
from game.client.scenes.saved import fitted
from game.client.widgets import button
from game.files import atomic_write
from game.i18n import _, ngettext
from game.names import seat_names
from game.session.saves import Finished

log = logging.getLogger(__name__)

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
    move = judged.reason_move
    return {
        "allows_capture": _("allows {move}").format(move=move),
        "allows_mill": _("lets a mill close: {move}").format(move=move),
        "misses_win": _("misses a forced win with {move}").format(move=move),
        "loses": _("walks into a forced loss"),
    }.get(judged.reason, "")


class ReviewScene(ReplayScene):
    """A finished match stepped through with the computer's judgement of each move."""

    def __init__(self, app, entry: Finished) -> None:
        super().__init__(app, entry)
        self.step = 0
        self.preview.state = self.match.state_at(0)
        self.people = {i for i, seat in enumerate(self.match.seats) if seat.is_human}
        self.review: Review | None = self._kept()
        self._future: Future | None = None
        if self.review is None:
            self._future = app.thinker.review(self.match.record, self.people)
        self.graph = pygame.Rect(0, 0, 0, 0)
        self.verdict_top = 0

    @classmethod
    def of_match(cls, app, match) -> ReviewScene:  # type: ignore[override]
        replay = ReplayScene.of_match(app, match)
        return cls(app, replay.entry)

    # -- the review's life ----------------------------------------------------------------

    def cache_path(self):
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
        wide = pygame.Rect(self.panel.x + u, bottom.y, self.panel.width - 2 * u, bottom.height)
        targets.append(button(wide, lambda: _("Back"), self._leave, self.palette, name="back"))
        if size[0] < size[1]:  # portrait: beside the title, where the panel has room
            half = self.panel.width // 2
            self.graph = pygame.Rect(self.panel.x + half, self.panel.y + u, half - u, 6 * u)
        else:  # above the Back button
            self.graph = pygame.Rect(self.panel.x + u, bottom.y - 7 * u,
                                     self.panel.width - 2 * u, 6 * u)  # fmt: skip
            self.moves_bottom = self.graph.y - u
        self.verdict_top = self.moves_top  # under the buttons, above the moves
        self.moves_top += round(4.4 * u)
        self.set_targets(targets)

    def tap_elsewhere(self, pos: tuple[int, int]) -> None:
        """A tap on the graph goes to that moment of the match."""
        if self.review is not None and self.graph.collidepoint(pos):
            self.go_to_x(pos[0])

    def go_to_x(self, x: int) -> None:
        """Jump to the move under ``x`` on the graph."""
        total = len(self.match.record.actions)
        share = (x - self.graph.x) / max(1, self.graph.width)
        self.go(round(max(0.0, min(1.0, share)) * total))

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
            surface.blit(theme.text(text, round(0.8 * u), palette.text), (x, bar.bottom + u // 3))
            return
        judged = self.judged()
        summary = fitted(self.summary(judged), round(0.75 * u), False, self.panel.width - 2 * u)
        surface.blit(theme.text(summary, round(0.75 * u), palette.muted),
                     (x, y + round(2.4 * u)))  # fmt: skip
        if judged is None:
            return
        line = _("{move}: {label}").format(move=judged.played, label=label_text(judged.label))
        colour = palette.accent if judged.label in ("mistake", "blunder") else palette.text
        surface.blit(theme.text(line, round(0.9 * u), colour, True), (x, y))
        if judged.label != "best":
            better = _("better: {move}").format(move=judged.best)
            reason = reason_text(judged)
            text = f"{reason} — {better}" if reason else better
            if judged.chances:
                chances = _("winning chances −{n}%").format(n=judged.chances)
                text = f"{text} · {chances}"
            surface.blit(theme.text(text, round(0.8 * u), palette.text), (x, y + round(1.1 * u)))

    def _draw_graph(self, surface: pygame.Surface) -> None:
        """The first seat's advantage over the match, the move in hand marked."""
        if self.review is None or not self.graph.width:
            return
        palette, graph = self.palette, self.graph
        pygame.draw.rect(surface, palette.background, graph)
        middle = graph.centery
        pygame.draw.line(surface, palette.muted, (graph.x, middle), (graph.right - 1, middle))
        values = self.review.advantage
        last = max(1, len(values) - 1)
        points = [
            (graph.x + round(i * (graph.width - 1) / last),
             middle - round(max(-GRAPH_CLAMP, min(GRAPH_CLAMP, v)) * (graph.height // 2 - 2)
                            / GRAPH_CLAMP))
            for i, v in enumerate(values)
        ]  # fmt: skip
        if len(points) > 1:
            pygame.draw.lines(surface, palette.accent, False, points, 2)
        x = graph.x + round(self.step * (graph.width - 1) / last)
        pygame.draw.line(surface, palette.text, (x, graph.y), (x, graph.bottom - 1), 2)
