"""The app's autosaves are written off the frame loop (game/client/save_writer.py): a move's
frame never waits for the disk, yet nothing handed over is lost, reordered, or brought back
after its match was thrown away."""

from __future__ import annotations

import threading
from pathlib import Path

from game.client.save_writer import SaveWriter
from game.rules import variant
from game.session.match import Match
from game.session.saves import SaveStore
from game.session.seats import Seat


def _match(seed: int, moves: int = 1) -> Match:
    match = Match.new(variant("mulino"), [Seat(), Seat()], seed)
    for _ in range(moves):
        match.play(match.state.legal_actions()[0])
    return match


class _HeldDisk(SaveStore):
    """A store whose writes wait until the test lets them go, and are counted."""

    def __init__(self, directory: Path) -> None:
        super().__init__(directory)
        self.go = threading.Event()
        self.writing = threading.Event()
        self.threads: list[str] = []
        self.written: list[int] = []

    def write(self, snapshot) -> None:
        self.threads.append(threading.current_thread().name)
        self.writing.set()
        assert self.go.wait(10)
        super().write(snapshot)
        self.written.append(len(snapshot.data or b""))


def test_saving_returns_at_once_and_the_write_happens_on_another_thread(tmp_path: Path) -> None:
    store = _HeldDisk(tmp_path)
    writer = SaveWriter(store)
    match = _match(1, 3)
    writer.save(match)  # returns although the disk holds every write
    assert store.writing.wait(5)
    assert not store.path_of(match).exists()
    store.go.set()
    assert writer.flush()
    assert store.threads == ["saves"]
    assert SaveStore(tmp_path).unfinished().matches[0].match.record.actions == (
        match.record.actions
    )


def test_only_the_newest_save_of_a_match_waits_and_each_match_keeps_its_own(
    tmp_path: Path,
) -> None:
    store = _HeldDisk(tmp_path)
    writer = SaveWriter(store)
    first, second = _match(1), _match(2, 1)
    writer.save(first)
    assert store.writing.wait(5)  # the first write is under way: the next ones wait
    for _ in range(4):
        first.play(first.state.legal_actions()[0])
        writer.save(first)
    writer.save(second)
    store.go.set()
    assert writer.flush()
    assert len(store.written) == 3  # the one under way, the newest of the first, the second
    on_disk = {
        u.match.seed: u.match.record.actions for u in SaveStore(tmp_path).unfinished().matches
    }
    assert on_disk == {1: first.record.actions, 2: second.record.actions}


def test_a_save_still_waiting_never_brings_back_a_match_thrown_away(tmp_path: Path) -> None:
    store = _HeldDisk(tmp_path)
    writer = SaveWriter(store)
    other, thrown = _match(1), _match(2, 2)
    writer.save(other)
    assert store.writing.wait(5)
    writer.save(thrown)
    writer.discard(thrown)  # its players walked away before the save was written
    store.go.set()
    assert [u.match.seed for u in writer.unfinished().matches] == [1]


def test_reading_the_saves_waits_for_the_writes_handed_over(tmp_path: Path) -> None:
    store = _HeldDisk(tmp_path)
    writer = SaveWriter(store)
    match = _match(3, 2)
    writer.save(match)
    threading.Timer(0.2, store.go.set).start()
    assert [u.match.seed for u in writer.unfinished().matches] == [3]


def test_a_disk_that_refuses_is_reported_and_one_that_hangs_does_not_hang_the_game(
    tmp_path: Path,
) -> None:
    store = _HeldDisk(tmp_path)
    writer = SaveWriter(store)
    refused: list[OSError] = []
    store.go.set()
    store.directory = tmp_path / "a file, not a folder"
    store.directory.write_text("")
    writer.save(_match(4), refused.append)
    assert writer.flush()
    assert refused and isinstance(refused[0], OSError)
    hung = _HeldDisk(tmp_path / "hung")
    slow = SaveWriter(hung)
    slow.save(_match(5))
    assert hung.writing.wait(5)
    assert slow.flush(timeout=0.2) is False  # the game goes on; the write lands later
    hung.go.set()
    assert slow.flush()


def test_closing_the_app_writes_what_was_handed_over(tmp_path: Path) -> None:
    from tests.client_driver import Driver

    driver = Driver(tmp_path)
    driver.start("dama:classic")
    driver.play_one()
    match = driver.scene.match
    driver.app.close()
    store = SaveStore(driver.app.saves.store.directory)
    assert store.unfinished().matches[0].match.record.actions == match.record.actions


def test_a_write_that_fails_unexpectedly_is_told_and_the_writer_goes_on(tmp_path: Path) -> None:
    """Not only the disk's refusals: whatever goes wrong in one write is reported and the
    next saves are still written (a dead writer would lose every later move)."""

    class Flaky(SaveStore):
        calls = 0

        def write(self, snapshot) -> None:
            Flaky.calls += 1
            if Flaky.calls == 1:
                raise ValueError("a bug in one write")
            super().write(snapshot)

    writer = SaveWriter(Flaky(tmp_path))
    refused: list[OSError] = []
    match = _match(1)
    writer.save(match, refused.append)
    assert writer.flush(5)
    assert len(refused) == 1 and "a bug in one write" in str(refused[0])
    match.play(match.state.legal_actions()[0])
    writer.save(match)
    assert writer.flush(5)
    assert SaveStore(tmp_path).unfinished().matches[0].match == match


def test_closing_ends_the_writer_and_it_keeps_no_match_alive(tmp_path: Path) -> None:
    """A kiosk restarted in one process (the soak, the tests) left every old app alive:
    the writer thread waited on with the last match (and through it, its app) in hand."""
    import gc
    import weakref

    writer = SaveWriter(SaveStore(tmp_path))
    match = _match(1)
    writer.save(match)
    assert writer.flush(5)
    gone = weakref.ref(match)
    del match
    gc.collect()
    assert gone() is None, "the waiting writer keeps the last match"
    thread = writer._thread
    assert thread is not None and writer.close(5)
    thread.join(5)
    assert not thread.is_alive() and writer._thread is None
    again = _match(2)
    writer.save(again)  # a save after close starts a writer again
    assert writer.flush(5)
    assert [u.match for u in SaveStore(tmp_path).unfinished().matches if u.match.seed == 2] == [
        again
    ]


def test_a_report_that_fails_does_not_stop_the_saves(tmp_path: Path) -> None:
    writer = SaveWriter(SaveStore(tmp_path))
    match = _match(1)

    def broken(error: OSError | None) -> None:
        raise RuntimeError("a bug in the listener")

    writer.save(match, broken)
    assert writer.flush(5)
    match.play(match.state.legal_actions()[0])
    writer.save(match, broken)
    assert writer.flush(5)
    assert SaveStore(tmp_path).unfinished().matches[0].match == match
