"""Crash-safe saves: atomic writes, checksums, damaged files set aside, never a crash; every
unfinished match kept until it ends or its players delete it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from game.files import atomic_write
from game.rules import variant
from game.session import saves
from game.session.match import Match
from game.session.saves import MAGIC, SaveStore, seal
from game.session.seats import Seat

HUMANS = [Seat(), Seat()]


def started(seed: int = 3, name: str = "mulino") -> Match:
    match = Match.new(variant(name), HUMANS, seed=seed)
    for text in ("a1", "g7", "d1") if name == "mulino" else ():
        match.play(match.state.parse_action(text))
    return match


def saved_at(store: SaveStore, match: Match, when: float) -> None:
    """Save ``match`` as if it was last played at ``when`` (seconds since the epoch)."""
    store.save(match)
    os.utime(store.path_of(match), (when, when))


def test_autosave_after_every_action_resumes_exactly(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    match = started()
    match.on_change.append(store.save)
    match.play(match.state.parse_action("b2"))
    shelf = store.unfinished()
    assert shelf.problem is None and shelf.total == 1
    [resumed] = shelf.matches
    assert resumed.match.record == match.record
    assert resumed.match.state.digest() == match.state.digest()
    assert not list(tmp_path.rglob(".*.tmp"))


def test_nothing_saved_is_nothing_to_resume(tmp_path: Path) -> None:
    shelf = SaveStore(tmp_path / "new").unfinished()
    assert shelf.matches == () and shelf.total == 0 and shelf.problem is None
    assert not SaveStore(tmp_path / "new").has_finished()


def test_starting_a_second_match_keeps_the_first(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    first, second = started(seed=3), started(seed=4, name="dama")
    saved_at(store, first, 1_000_000)
    second.play(second.state.parse_action("22-18"))
    saved_at(store, second, 2_000_000)
    shelf = store.unfinished()
    assert [u.match.record for u in shelf.matches] == [second.record, first.record]  # newest first
    assert [u.saved_at for u in shelf.matches] == [2_000_000, 1_000_000]
    first.play(first.state.parse_action("b2"))
    store.save(first)  # playing on touches only its own file
    assert [u.match.record for u in store.unfinished().matches] == [first.record, second.record]


def test_a_finished_match_leaves_the_unfinished_ones(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    match, other = started(seed=3), started(seed=4)
    store.save(match)
    store.save(other)
    match.play(-1)  # a draw by agreement ends it
    store.save(match)
    assert [u.match.seed for u in store.unfinished().matches] == [4]
    assert not store.path_of(match).exists()
    [finished] = store.finished()
    assert finished.match.state.result().reason == "agreement"
    assert store.has_finished()


def test_discard_deletes_that_match_alone(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    kept, dropped = started(seed=3), started(seed=4)
    store.save(kept)
    store.save(dropped)
    store.discard(dropped)
    store.discard(dropped)  # twice is harmless
    assert [u.match.seed for u in store.unfinished().matches] == [3]


def test_the_newest_are_read_and_the_others_only_counted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = SaveStore(tmp_path)
    for seed in range(5):
        saved_at(store, started(seed=seed), 1_000_000 + seed)
    reads = []
    real_read = saves._read
    monkeypatch.setattr(saves, "_read", lambda path: reads.append(path) or real_read(path))
    shelf = store.unfinished(limit=2)
    assert shelf.total == 5 and [u.match.seed for u in shelf.matches] == [4, 3]
    assert len(reads) == 2


def test_finished_matches_are_counted_without_reading_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = SaveStore(tmp_path)
    match = started()
    match.play(-1)
    store.save(match)
    monkeypatch.setattr(saves, "_read", lambda path: pytest.fail(f"{path} was read"))
    assert store.has_finished()


def test_the_autosave_of_an_earlier_version_is_picked_up(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    legacy, newer = started(seed=3), started(seed=4)
    (tmp_path / "current.tavolo").write_bytes(seal(legacy.to_bytes()))
    os.utime(tmp_path / "current.tavolo", (1_000_000, 1_000_000))
    saved_at(store, newer, 2_000_000)
    shelf = store.unfinished()
    assert shelf.problem is None
    assert [(u.match.record, u.saved_at) for u in shelf.matches] == [
        (newer.record, 2_000_000),
        (legacy.record, 1_000_000),  # when it was last played, not when it was found
    ]
    assert not (tmp_path / "current.tavolo").exists()
    store.discard(shelf.matches[1].match)  # it is now a match like the others
    assert [u.match.seed for u in store.unfinished().matches] == [4]


def test_torn_save_is_set_aside_with_a_message(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    match, other = started(seed=3), started(seed=4)
    store.save(match)
    store.save(other)
    path = store.path_of(match)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    shelf = store.unfinished()
    assert [u.match.seed for u in shelf.matches] == [4]
    assert shelf.problem == "A match could not be opened and was put aside."
    assert path.with_name(f"{path.name}.damaged-1").exists()
    assert not path.exists()
    assert store.unfinished().problem is None  # and the next start is clean


@pytest.mark.parametrize("where", ["unfinished/0000000000000003.tavolo", "current.tavolo"])
def test_foreign_and_forged_files_are_refused(tmp_path: Path, where: str) -> None:
    store = SaveStore(tmp_path)
    path = tmp_path / where
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(b"not a save at all")
    assert store.unfinished().matches == ()
    path.write_bytes(seal(b"\xc1 checksum right, content wrong"))
    assert store.unfinished().problem == "A match could not be opened and was put aside."
    assert len(list(path.parent.glob(f"{path.name}.damaged-*"))) == 2


def test_atomic_write_replaces_whole_files(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "file"
    atomic_write(target, MAGIC)
    atomic_write(target, b"second")
    assert target.read_bytes() == b"second"
    assert [p.name for p in target.parent.iterdir()] == ["file"]


def _finished_match(seed: int) -> Match:
    import random

    from game.rules.chance import random_action

    match = Match.new(variant("dama:classic"), HUMANS, seed=seed)
    rng = random.Random(seed)
    while not match.state.is_terminal():
        state = match.state
        match.play(
            random_action(state, rng) if state.is_chance() else rng.choice(state.legal_actions())
        )
    return match


def test_a_kiosk_keeps_the_newest_finished_matches_within_their_days(tmp_path: Path) -> None:
    store = SaveStore(tmp_path, saves.Keep(count=100, days=90))
    finished = tmp_path / saves.FINISHED
    finished.mkdir()
    now = 2_000_000_000.0
    for number in range(2_000):  # weeks of visitors: only names and times are looked at
        path = finished / f"{number:016x}-9.tavolo"
        path.write_bytes(b"x")
        when = now - 3600 * number if number < 1_800 else now - 86400 * 100  # some very old
        os.utime(path, (when, when))
    assert store.prune(now) == 1_900
    kept = sorted(finished.iterdir())
    assert len(kept) == 100 and kept[0].name == f"{0:016x}-9.tavolo"
    assert all(now - p.stat().st_mtime <= 3600 * 99 for p in kept)  # the newest 100
    store.save(_finished_match(7))  # finishing a match prunes as well
    assert len(list(finished.iterdir())) == 100
    assert SaveStore(tmp_path).prune() == 0  # a player's own store keeps everything


def test_the_title_never_reads_finished_matches(tmp_path: Path, monkeypatch) -> None:
    from tests.client_driver import Driver

    driver = Driver(tmp_path)
    try:
        match = _finished_match(3)
        driver.app.saves.store.save(match)
        [first] = (driver.app.saves.store.directory / saves.FINISHED).iterdir()
        for number in range(10_000):
            os.link(first, first.with_name(f"{number:016x}-1.tavolo"))
        reads = []
        real_read = saves._read
        monkeypatch.setattr(saves, "_read", lambda path: reads.append(path) or real_read(path))
        from game.client.scenes.title import TitleScene

        driver.app.reset(TitleScene(driver.app))
        driver.frame()
        assert "finished" in [t.name for t in driver.scene.targets]  # offered, not read
        assert not [path for path in reads if saves.FINISHED in path.parts]
    finally:
        driver.app.close()


def test_damaged_saves_are_told_in_words_counted_never_named_and_logged_in_full(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A kiosk's title is a public screen: no file name, and one line however many."""
    store = SaveStore(tmp_path)
    for seed in (3, 4, 5):
        store.save(started(seed=seed))
        path = store.path_of(started(seed=seed))
        path.write_bytes(path.read_bytes()[:-1])
    problem = store.unfinished().problem
    assert problem == "3 matches could not be opened and were put aside."
    assert ".tavolo" not in problem and "damaged" not in problem
    logged = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert len(logged) == 3 and all(".tavolo is damaged" in line for line in logged)
    assert all("set aside as" in line and ".damaged-1" in line for line in logged)
    assert [a.path.name[-10:] for a in store.set_aside()] == [".damaged-1"] * 3


def test_leftovers_older_than_a_week_are_deleted_and_nothing_else(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    match = started()
    store.save(match)
    home = store.path_of(match)
    now = 2_000_000_000.0
    old, recent = now - 8 * 86400, now - 6 * 86400
    files = {
        home.with_name(home.name + ".damaged-1"): old,
        home.with_name(home.name + ".damaged-2"): recent,
        home.with_name(f".{home.name}.0a1b2c3d.tmp"): old,
        tmp_path / saves.FINISHED / ".x.tavolo.00000000.tmp": old,
        tmp_path / ".settings.json.ffffffff.tmp": old,
        home: old,  # a match not played for weeks is still a match
    }
    for path, when in files.items():
        path.parent.mkdir(exist_ok=True)
        if not path.exists():
            path.write_bytes(b"x")
        os.utime(path, (when, when))
    assert store.tidy(now) == 4
    assert sorted(p.name for p in (tmp_path / saves.UNFINISHED).iterdir()) == [
        home.name, home.name + ".damaged-2"]  # fmt: skip
    assert store.tidy(now) == 0


def test_a_set_aside_save_that_opens_now_is_put_back(tmp_path: Path) -> None:
    """Hint then Undo made saves an older version refused and set aside: they come back."""
    import msgpack

    store = SaveStore(tmp_path)
    match = started(seed=9)
    fields = msgpack.unpackb(match.to_bytes())
    older = seal(msgpack.packb([2, *fields[1:4], [len(match.record.actions) + 2]]))
    aside = store.path_of(match).with_name(store.path_of(match).name + ".damaged-1")
    aside.parent.mkdir(parents=True)
    aside.write_bytes(older)
    torn = aside.with_name("0000000000000001.tavolo.damaged-1")
    torn.write_bytes(older[:-3])
    assert store.recover() == 1
    (back,) = store.unfinished().matches
    assert back.match.record == match.record and back.match.hints_by_seat() == {1: 1}
    assert [a.path for a in store.set_aside()] == [torn]  # what still does not open stays


def test_a_match_nobody_has_moved_in_is_not_kept(tmp_path: Path) -> None:
    """The same from every way into a match: a lot drawn is no move; an undo back to the
    start takes the save away."""
    store = SaveStore(tmp_path)
    numeri = Match.new(variant("numeri", 2), HUMANS, seed=11)
    numeri.on_change.append(store.save)
    while numeri.state.is_chance():
        numeri.roll()
    assert store.unfinished().matches == ()
    mulino = Match.new(variant("mulino"), HUMANS, seed=12)
    mulino.on_change.append(store.save)
    mulino.play(mulino.state.parse_action("a1"))
    assert [u.match for u in store.unfinished().matches] == [mulino]
    assert mulino.undo()
    assert store.unfinished().matches == ()


def test_a_save_set_aside_is_kept_a_week_from_when_it_was_set_aside(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    match = started()
    store.save(match)
    path = store.path_of(match)
    path.write_bytes(path.read_bytes()[:-2])
    month_ago = path.stat().st_mtime - 30 * 86400
    os.utime(path, (month_ago, month_ago))  # a match left for a month, then found damaged
    store.unfinished()
    (aside,) = store.set_aside()
    assert store.tidy() == 0 and aside.path.exists()
