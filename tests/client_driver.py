"""Drive the real client headlessly with synthetic pygame events, as a player would."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import random
import time
from pathlib import Path

import pygame

from game.client.app import App, Paths
from game.client.scenes.title import TitleScene
from game.client.views.base import Step
from game.rules import State
from game.rules.ausgeblockt import PASS as SHEET_PASS
from game.rules.ausgeblockt import REROLL_BASE, STOP, dice_of
from game.rules.checkerboard import SQUARES, decode_path
from game.rules.mulino import MOVE_BASE, PASS, REMOVE_BASE

FRAME = 0.1


def played(state: State, moves: str) -> tuple[State, tuple[Step, ...]]:
    """``state`` after ``moves`` (in notation), and the steps that took it there (what a
    board view's ``show_last_turn`` is given)."""
    steps = []
    for text in moves.split():
        action = state.parse_action(text)
        after = state.apply(action)
        steps.append(Step(state, action, after))
        state = after
    return state, tuple(steps)


class Driver:
    """An app on the dummy video driver, and hands to tap, click and type on it."""

    def __init__(
        self, home: Path, size: tuple[int, int] = (1280, 720), seed: int = 1, kiosk=None
    ) -> None:
        self.app = App(
            Paths(home / "config", home / "data"), size=size, fullscreen=False, kiosk=kiosk
        )
        self.app.push(TitleScene(self.app))
        self.rng = random.Random(seed)
        self.inputs = ("mouse", "touch", "keyboard")
        self.frames = 0

    # -- low level ------------------------------------------------------------------------

    @property
    def scene(self):
        return self.app.scene

    def frame(self, count: int = 1) -> None:
        for _ in range(count):
            self.app.frame(FRAME)
            self.frames += 1

    def step(self) -> None:
        """A frame; then, if the screen waits for word from outside (the computer's answer,
        the network's news: :attr:`App.wakeup`) and nothing on it moves, wait for the word
        as the app does, a frame's time at most."""
        mark = self.app.wakeup.mark()
        self.frame()
        if self.scene.waiting and not self.busy:
            self.app.wakeup.wait(mark, FRAME)

    def until(self, condition, *peers, seconds: float = 30.0) -> None:
        """Run frames until ``condition()``, waiting for word from outside while the screen
        rests; fail with what ``peers`` (LAN processes) said if it never comes."""
        deadline = time.monotonic() + seconds
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out; the peers: {[p.tail() for p in peers]}")
            mark = self.app.wakeup.mark()
            self.frame()
            if not self.busy and not condition():
                self.app.wakeup.wait(mark, FRAME)

    @property
    def busy(self) -> bool:
        """Something the player waits for is moving (the title's drifting pieces never
        stop, and nobody waits for them)."""
        if self.app.transitioning:
            return True
        return self.scene.animating and not isinstance(self.scene, TitleScene)

    def settle(self, limit: int = 400, seconds: float = 60.0) -> None:
        """Run frames until nothing moves and nothing is awaited (lots drawn, animations
        over, computers done): at most ``limit`` frames of motion — an animation that never
        ends — and ``seconds`` in all, for the frames that wait for the computer's word
        (their number depends on how loaded the machine is, not on the code)."""
        deadline = time.monotonic() + seconds
        moving = 0
        while time.monotonic() < deadline:
            mark = self.app.wakeup.mark()
            self.frame()
            if not self.busy and not self.scene.waiting:
                return
            if self.busy:
                moving += 1
                if moving > limit:
                    break
            else:  # the computer thinks (or works out odds) in its process
                self.app.wakeup.wait(mark, FRAME)
        raise AssertionError(f"{type(self.scene).__name__} still busy")

    def click(self, pos: tuple[int, int]) -> None:
        for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            pygame.event.post(pygame.event.Event(kind, pos=pos, button=1, touch=False))
        self.frame()

    def touch(self, pos: tuple[int, int], finger: int = 3) -> None:
        """A tap as a touch screen reports it: finger events and SDL's mouse copies."""
        width, height = self.app.size
        x, y = pos[0] / width, pos[1] / height
        events = [
            pygame.event.Event(
                pygame.FINGERDOWN, x=x, y=y, dx=0, dy=0, finger_id=finger, touch_id=1, pressure=1.0
            ),
            pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=True),
            pygame.event.Event(
                pygame.FINGERUP, x=x, y=y, dx=0, dy=0, finger_id=finger, touch_id=1, pressure=0.0
            ),
            pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=True),
        ]
        for event in events:
            pygame.event.post(event)
        self.frame()

    def key(self, key: int) -> None:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=""))
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=0, unicode=""))
        self.frame()

    def tap(self, pos: tuple[int, int]) -> None:
        """Tap with the mouse, a finger, or the arrow keys and Enter, at random."""
        way = self.rng.choice(self.inputs)
        target = self.scene.target_at(pos)
        if way == "keyboard" and target is not None and target.enabled():
            self.keyboard_to(target)
        elif way == "touch":
            self.touch(pos)
        else:
            self.click(pos)

    def keyboard_to(self, goal) -> None:
        """Move the focus to ``goal`` with the arrow keys, or with Tab where no arrow leads
        to it (the arrows go by where things are), then press Enter."""
        from game.client.widgets import nearest

        keys = {
            (1, 0): pygame.K_RIGHT,
            (-1, 0): pygame.K_LEFT,
            (0, 1): pygame.K_DOWN,
            (0, -1): pygame.K_UP,
        }
        if self.scene.focus not in self.scene.targets:
            self.key(pygame.K_DOWN)  # the first arrow puts the focus on the first target
            goal = self.target(goal.name)  # that frame may have laid the screen out anew
        start = self.scene.focus
        paths, frontier = {id(start): []}, [start]
        while frontier and id(goal) not in paths:
            current = frontier.pop(0)
            for step, key in keys.items():
                after = nearest(self.scene.targets, current, *step)
                if after is not None and id(after) not in paths:
                    paths[id(after)] = [*paths[id(current)], key]
                    frontier.append(after)
        if id(goal) in paths:
            for key in paths[id(goal)]:
                self.key(key)
        else:
            for _ in range(len(self.scene.targets)):
                if self.scene.focus is goal:
                    break
                self.key(pygame.K_TAB)
        assert self.scene.focus is goal, f"{goal.name} cannot be reached by keyboard"
        self.key(pygame.K_RETURN)

    def target(self, name: str):
        for target in self.scene.targets:
            if target.name == name:
                return target
        names = [t.name for t in self.scene.targets]
        raise AssertionError(f"no target {name!r} on {type(self.scene).__name__}: {names}")

    def press(self, name: str) -> None:
        self.tap(self.target(name).rect.center)

    def press_and_read(self, name: str) -> None:
        """Press ``name`` on the import screen, and wait till the text it read is read (off
        the frame loop) and what came of it is on screen."""
        self.press(name)
        self.until(lambda: getattr(self.scene, "reading", None) is None)

    # -- a whole match --------------------------------------------------------------------

    def start(
        self,
        variant: str,
        players: int | None = None,
        options: dict | None = None,
        computers: dict[int, str] | None = None,
    ) -> None:
        """Set up a match from the title screen through the setup's choices; ``computers``
        maps seats to levels, every other seat is a person here."""
        self.press("new game")
        self.press(variant)
        if players is not None:
            self.press(f"players {players}")
        for option, value in (options or {}).items():
            shown = ("on" if value else "off") if isinstance(value, bool) else value
            self.press(f"{option} {shown}")
        self.press("opponents people")
        for seat, level in (computers or {}).items():
            self.choose_level(seat, level)
        self.press("start")
        self.settle()

    def choose_level(self, seat: int, level: str) -> None:
        """In the setup, the computer at ``level`` for ``seat`` (from 0): its segment, then
        a level weaker or stronger at a time."""
        from game.levels import rung

        self.press(f"seat {seat + 1} computer")
        setup = self.scene
        for _ in range(8):
            now = setup.seats[seat].level
            if now == level:
                return
            self.press(f"seat {seat + 1} {'weaker' if rung(level) < rung(now) else 'stronger'}")
        raise AssertionError(f"seat {seat + 1} never reached {level}")

    def play_one(self) -> None:
        """Make the next decision of the match by tapping, as a player would."""
        play = self.scene
        state = play.state
        seat = play.actor(state)
        if seat is None or not play.control.here(seat):  # a lot, or the computer's turn
            self.settle()
            return
        if state.is_chance():
            self.press("roll")
            self.settle()
            return
        action = self.choose(state)
        for step in self.taps(play, state, action):
            if isinstance(step, str):
                self.press(step)
            else:
                self.tap(step)
        self.settle()

    def choose(self, state) -> int:
        legal = state.legal_actions()
        if state.variant.name == "ausgeblockt":  # finish in reasonable time: mark when able
            marks = [a for a in legal if a < SHEET_PASS]
            if marks:
                return self.rng.choice(marks)
            rerolls = [a for a in legal if a >= REROLL_BASE]
            return self.rng.choice(rerolls) if rerolls and self.rng.random() < 0.7 else STOP
        return self.rng.choice(legal)

    def taps(self, play, state, action: int) -> list:
        """The taps (positions) and button presses (names) that make ``action``."""
        view, game = play.view, state.variant.game
        if game == "dama":
            if action < SQUARES:
                return [view.square_center(action)]
            path, capture = decode_path(action)
            if capture and len(path) > 2 and self.rng.random() < 0.5:
                others = [decode_path(a)[0] for a in state.legal_actions() if a >= SQUARES]
                ends = [p for p in others if p[0] == path[0] and p[-1] == path[-1]]
                steps = [p for p in others if p[0] == path[0] and p[1] == path[-1]]
                if len(ends) == 1 and not steps:
                    return [view.square_center(path[0]), view.square_center(path[-1])]
            return [view.square_center(s) for s in path]
        if game == "mulino":
            if action == PASS:
                return ["pass"]
            if action >= REMOVE_BASE:
                return [view.point_center(action - REMOVE_BASE)]
            if action >= MOVE_BASE:
                a, b = divmod(action - MOVE_BASE, 24)
                return [view.point_center(a), view.point_center(b)]
            return [view.point_center(action)]
        if game == "ausgeblockt":
            if action == STOP:
                return ["stop"]
            if action == SHEET_PASS:
                return ["pass"]
            if action >= REROLL_BASE:
                kept = list(state.dice)
                for face in dice_of(action - REROLL_BASE):
                    kept.remove(face)
                aside = set()
                for slot, face in enumerate(view.slots):
                    if face in kept:
                        kept.remove(face)
                        aside.add(slot)
                changes = sorted(aside ^ view.held)  # tap to set aside, or to take back
                return [*(view.die_rect(slot).center for slot in changes), "roll"]
            return [view.cell_center(action)]
        if action > 9:  # numeri: a split, from the panel or by tapping both pawns
            if self.rng.random() < 0.5:
                return [f"split {action // 10}+{action % 10}"]
            first, second = divmod(action, 10)
            return [
                view.pawn_rect(state.side, first).center,
                view.pawn_rect(state.side, second).center,
            ]
        return [view.pawn_rect(state.side, action).center]

    def play_to_the_end(self, limit: int = 3000) -> None:
        """Play until the results show; a high score's name is not given (cancelled)."""
        for _ in range(limit):
            if type(self.scene).__name__ == "TextEntryScene":  # a high score: no name
                self.press("cancel")
            if type(self.scene).__name__ == "ResultsScene":
                return
            self.play_one()
        raise AssertionError(f"no result after {limit} decisions")

    def wait_for_scene(self, name: str, seconds: float = 30.0) -> None:
        """Run frames (the network works meanwhile) until the scene is ``name``."""
        deadline = time.monotonic() + seconds
        while type(self.scene).__name__ != name:
            if time.monotonic() > deadline:
                raise AssertionError(f"still on {type(self.scene).__name__}, not {name}")
            self.step()

    def in_lan_match(self) -> bool:
        from game.client.net_control import NetControl

        return isinstance(getattr(self.scene, "control", None), NetControl)

    def play_lan_to_the_end(self, seconds: float = 120.0) -> None:
        """In a LAN match: wait for this player's turns and make each move by tapping."""
        deadline = time.monotonic() + seconds

        def my_turn(play) -> bool:
            return not play.locked and play.state.to_move == play.control.net.my_seat

        while self.in_lan_match():
            if time.monotonic() > deadline:
                raise AssertionError("the LAN match did not end")
            play = self.scene
            if my_turn(play):
                for step in self.taps(play, play.state, self.choose(play.state)):
                    if isinstance(step, str):
                        self.press(step)
                    else:
                        self.tap(step)
                continue
            mark = self.app.wakeup.mark()
            self.frame()
            if not self.busy and self.in_lan_match() and not my_turn(play):
                self.app.wakeup.wait(mark, FRAME)  # the others' turn: their move wakes us
