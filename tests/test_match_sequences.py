"""Nothing a player does loses a match: every sequence of play, roll, hint, odds, undo,
resign, draw, save, load, a kill between any two writes, resume and review leaves a save
that loads and equals the match (game.session.match and game.session.saves).

A hypothesis state machine takes the actions people take, over the eight variants and
every kind of seat (a person here, the computer, a player on the LAN).  The match is saved
as the client saves it, after every change; a kill can land at each step of a write.
After every step:

* every save on the disk opens (nothing is set aside) and no other match is there;
* the save equals the match in memory — record, seats, seed, hints, result — or, before
  anyone has moved, there is none; a finished match is among the finished ones only;
* a finished match opens for its replay and review: every state, the hints' seats, the
  turns, the export.

The quick loop runs a small budget; the slow marker a longer one, which prints what it
ran (docs/PERFORMANCE.md keeps the figures).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from game.ai.odds import roll_odds, turn_odds
from game.rules import AGREED_DRAW, VARIANTS, resign_action, variant
from game.rules.ausgeblockt import AusgeblocktState
from game.rules.numeri import NumeriState
from game.session import saves
from game.session.export import export_text
from game.session.match import Match
from game.session.saves import SaveStore
from game.session.seats import Seat, SeatKind

SEATS = (
    Seat(name="Anna"),
    Seat(),
    Seat(SeatKind.COMPUTER, "easy"),
    Seat(SeatKind.COMPUTER, "hard"),
    Seat(SeatKind.REMOTE, name="Luca"),
)
ACTIONS = (
    *("play",) * 6,
    *("hint", "undo") * 3,
    "odds",
    "leave_and_resume",
    "resign",
    "agree_a_draw",
    "killed_while_saving",
)
"""What a person does, as often as people do it (the draw picks uniformly among these)."""
KILLED_AT = ("before writing", "torn temporary file", "whole temporary file", "after renaming")
"""Where a kill can land in a write (game.files.atomic_write's steps)."""

ran: Counter[str] = Counter()
"""What the machine did, over every run: steps, saves written, kills, loads, variants."""


class Killed(BaseException):
    """The process dies here (a BaseException, as a kill is no error anyone catches)."""


class MatchSequences(RuleBasedStateMachine):
    variants: tuple[str, ...] = tuple(VARIANTS)
    """The variants a run draws from (one, to give each its share of a budget)."""

    def __init__(self) -> None:
        super().__init__()
        self.directory = Path(tempfile.mkdtemp(prefix="tavolo-sequences-"))
        self.store = SaveStore(self.directory)
        self.match: Match
        self.kill: str | None = None
        """Where the next write dies, if a kill is armed."""
        self.killed = False
        self.ended = 0
        """Matches finished before this one (their saves stay among the finished)."""
        self.seeds: set[int] = set()
        real_write = saves.atomic_write

        def write(path: Path, data: bytes, **kwargs: int) -> None:
            if self.kill is None:
                ran["saves"] += 1
                real_write(path, data, **kwargs)
                return
            self._die_writing(path, data)

        saves.atomic_write = write  # type: ignore[assignment]
        self._restore = lambda: setattr(saves, "atomic_write", real_write)

    def teardown(self) -> None:
        self._restore()
        shutil.rmtree(self.directory, ignore_errors=True)

    # -- the people ----------------------------------------------------------------------

    @initialize(data=st.data())
    def sit_down(self, data: st.DataObject) -> None:
        name = data.draw(st.sampled_from(self.variants), label="variant")
        spec = VARIANTS[name]
        players = data.draw(st.sampled_from(spec.players), label="players")
        seats = data.draw(st.lists(st.sampled_from(SEATS), min_size=players, max_size=players))
        seed = data.draw(st.integers(0, 2**62), label="seed")
        self._take(Match.new(variant(name, players), seats, seed))
        ran[f"variant {name}"] += 1

    @precondition(lambda self: self.match.state.is_terminal())
    @rule(data=st.data())
    def rematch(self, data: st.DataObject) -> None:
        """The results' Rematch: the same seats, a new match (its own seed)."""
        self.ended += 1
        seed = data.draw(st.integers(0, 2**62).filter(lambda n: n not in self.seeds))
        self._take(Match.new(self.match.variant, self.match.seats, seed))
        ran["rematch"] += 1

    def _take(self, match: Match) -> None:
        """Play ``match`` on, saved after every change as the client saves it."""
        self.match = match
        self.seeds.add(match.seed)
        match.on_change.append(self.store.save)

    @property
    def deciding(self) -> bool:
        state = self.match.state
        return not state.is_terminal() and not state.is_chance()

    @rule(kind=st.sampled_from(ACTIONS), data=st.data())
    def person_acts(self, kind: str, data: st.DataObject) -> None:
        """One thing a person at the screen does (the mix of :data:`ACTIONS`); what cannot
        be done now does nothing, as a greyed button."""
        getattr(self, kind)(data)
        ran[kind] += 1

    def play(self, data: st.DataObject) -> None:
        """A few moves, as people make between one button and the next (the computer's
        among them, and the dice thrown when they come)."""
        for _ in range(data.draw(st.integers(1, 6), label="moves")):
            state = self.match.state
            if state.is_terminal():
                break
            if state.is_chance():
                self.match.roll()
            else:
                self.match.play(data.draw(st.sampled_from(state.legal_actions())))
            ran["actions"] += 1

    def hint(self, data: st.DataObject | None = None) -> None:
        if self.deciding and self.match.seats[self.match.state.to_move].kind is not (
            SeatKind.COMPUTER  # the button is there for people only
        ):
            self.match.note_hint()

    def odds(self, data: st.DataObject) -> None:
        """The dice odds are read off the match and change nothing in it."""
        before = self.match.to_bytes()
        state = self.match.state
        if isinstance(state, NumeriState) and not state.is_terminal():
            roll_odds(state)
        elif isinstance(state, AusgeblocktState) and not state.is_terminal():
            turn_odds(state)
        assert self.match.to_bytes() == before

    def undo(self, data: st.DataObject | None = None) -> None:
        self.match.undo()

    def resign(self, data: st.DataObject) -> None:
        if not self.match.state.is_terminal():
            seat = data.draw(st.integers(0, len(self.match.seats) - 1), label="resigning")
            self.match.play(resign_action(seat))

    def agree_a_draw(self, data: st.DataObject) -> None:
        match = self.match
        people = all(seat.is_human for seat in match.seats)  # as the match screen offers it
        if not match.state.is_terminal() and match.variant.spec.agreed_draws and people:
            match.play(AGREED_DRAW)

    def leave_and_resume(self, data: st.DataObject) -> None:
        """Leave to the title and take the match up again from the list (or start it
        afresh, when nobody had moved in it and so nothing was kept)."""
        self.store.save(self.match)
        self._take(self._from_the_disk(self.match))

    def killed_while_saving(self, data: st.DataObject) -> None:
        """The process dies while writing the save of the next action; the match comes
        back from the disk, as it was before the action or after it, never another."""
        where = data.draw(st.sampled_from(KILLED_AT), label="killed")
        what = data.draw(st.sampled_from(("play", "roll", "undo", "hint", "resign")))
        before = Match.from_bytes(self.match.to_bytes())
        self.kill, self.killed = where, False
        try:
            if what == "play" and self.deciding:
                self.match.play(self.match.state.legal_actions()[0])
            elif what == "roll" and self.match.state.is_chance():
                self.match.roll()
            elif what == "undo":
                self.match.undo()
            elif what == "hint":
                self.hint()
            elif what == "resign" and not self.match.state.is_terminal():
                self.match.play(resign_action(0))  # the match ends: its save moves
        except Killed:
            pass
        finally:
            self.kill = None
        after = self.match
        self.match.on_change.clear()  # the process is gone
        self._take(self._from_the_disk(after))
        expected = after if not self.killed or where == "after renaming" else before
        if expected.begun or expected.state.is_terminal():
            assert self.match == expected
        else:  # nothing had been kept: a match nobody had moved in starts afresh
            assert not self.match.begun
        ran["kills"] += self.killed

    # -- the disk ------------------------------------------------------------------------

    def _die_writing(self, path: Path, data: bytes) -> None:
        self.killed = True
        where = self.kill
        if where == "before writing":
            raise Killed
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.deadbeef.tmp")
        temporary.write_bytes(data[: len(data) // 2] if where == "torn temporary file" else data)
        if where != "after renaming":
            raise Killed
        os.replace(temporary, path)
        raise Killed

    def _from_the_disk(self, match: Match) -> Match:
        """``match`` as a new process finds it: on the title's list, or among the finished
        ones; or, if nothing was kept, the same match not yet begun."""
        shelf = self.store.unfinished()
        assert shelf.problem is None, shelf.problem
        found = [u.match for u in shelf.matches if u.match.seed == match.seed]
        found += [f.match for f in self.store.finished() if f.match.seed == match.seed]
        assert len(found) <= 1, "one match, one save"
        if found:
            return found[0]
        return Match.new(match.variant, match.seats, match.seed)

    @invariant()
    def every_save_loads_and_equals_the_match(self) -> None:
        shelf = self.store.unfinished()
        assert shelf.problem is None and self.store.set_aside() == [], shelf.problem
        seed = self.match.seed
        unfinished = [u.match for u in shelf.matches if u.match.seed == seed]
        finished = [f.match for f in self.store.finished() if f.match.seed == seed]
        assert [u.match.seed for u in shelf.matches] == ([seed] if unfinished else [])
        assert len(self.store.finished()) == self.ended + self.match.state.is_terminal()
        match = self.match
        if match.state.is_terminal():
            assert unfinished == [] and finished == [match]
            assert finished[0].state.result() == match.state.result()
        elif match.begun:
            assert unfinished == [match] and finished == []
            assert unfinished[0].state.digest() == match.state.digest()
        else:
            assert unfinished == [] and finished == []

    @invariant()
    def a_finished_match_opens_for_its_replay_and_review(self) -> None:
        if not self.match.state.is_terminal():
            return
        (entry,) = [f for f in self.store.finished() if f.match.seed == self.match.seed]
        match = entry.match
        actions = len(match.record.actions)
        assert [match.state_at(i).digest() for i in range(actions + 1)] == [
            s.digest() for s in self.match.states
        ]
        assert len(match.turn_numbers()) == actions
        people = {i for i, seat in enumerate(match.seats) if seat.kind is not SeatKind.COMPUTER}
        assert set(match.hints_by_seat()) <= people
        assert export_text(match, entry.saved_at)


def _run(examples: int, steps: int, name: str | None = None, shrink: bool = False) -> None:
    """Run the machine; ``shrink``: make a failure's steps the fewest (minutes on a long
    run, so the quick loop reports the steps as found)."""
    machine = MatchSequences
    if name is not None:
        machine = type("MatchSequences", (MatchSequences,), {"variants": (name,)})
    run_state_machine_as_test(
        machine,
        settings=settings(
            max_examples=examples,
            stateful_step_count=steps,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
            phases=tuple(Phase) if shrink else (Phase.explicit, Phase.reuse, Phase.generate),
        ),
    )


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_sequence_of_play_leaves_a_save_that_loads_and_equals_the_match(name: str) -> None:
    _run(examples=3, steps=40, name=name)  # the quick loop's; the longer run below in CI


@pytest.mark.slow
@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_sequence_longer(name: str) -> None:
    ran.clear()
    _run(examples=20, steps=100, name=name, shrink=True)
    print(f"\nmatch sequences of {name}: {dict(sorted(ran.items()))}")
