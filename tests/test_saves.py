"""Crash-safe saves: atomic writes, checksums, damaged files set aside, never a crash."""

from __future__ import annotations

from pathlib import Path

from game.rules import variant
from game.session.match import Match
from game.session.saves import MAGIC, SaveStore, atomic_write, seal
from game.session.seats import Seat

HUMANS = [Seat(), Seat()]


def started(seed: int = 3) -> Match:
    match = Match.new(variant("mulino"), HUMANS, seed=seed)
    for text in ("a1", "g7", "d1"):
        match.play(match.state.parse_action(text))
    return match


def test_autosave_after_every_action_resumes_exactly(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    match = started()
    match.on_change.append(store.save)
    match.play(match.state.parse_action("b2"))
    resumed = store.resume()
    assert resumed.problem is None and resumed.match is not None
    assert resumed.match.record == match.record
    assert resumed.match.state.digest() == match.state.digest()
    assert not list(tmp_path.glob(".*.tmp"))


def test_nothing_saved_is_nothing_to_resume(tmp_path: Path) -> None:
    assert SaveStore(tmp_path / "new").resume().match is None


def test_torn_save_is_set_aside_with_a_message(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    store.save(started())
    data = store.current_path.read_bytes()
    store.current_path.write_bytes(data[: len(data) // 2])
    resumed = store.resume()
    assert resumed.match is None and "damaged" in resumed.problem
    assert (tmp_path / "current.tavolo.damaged-1").exists()
    assert not store.current_path.exists()
    assert store.resume().problem is None  # and the next start is clean


def test_foreign_and_forged_files_are_refused(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    store.current_path.write_bytes(b"not a save at all")
    assert store.resume().match is None
    store.current_path.write_bytes(seal(b"\xc1 checksum right, content wrong"))
    assert "damaged" in store.resume().problem
    assert len(list(tmp_path.glob("current.tavolo.damaged-*"))) == 2


def test_a_finished_match_moves_to_the_finished_ones(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    match = started()
    store.save(match)
    match.play(-1)  # a draw by agreement ends it
    store.save(match)
    assert not store.current_path.exists()
    [finished] = store.finished()
    assert finished.match.state.result().reason == "agreement"


def test_atomic_write_replaces_whole_files(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "file"
    atomic_write(target, MAGIC)
    atomic_write(target, b"second")
    assert target.read_bytes() == b"second"
    assert [p.name for p in target.parent.iterdir()] == ["file"]
