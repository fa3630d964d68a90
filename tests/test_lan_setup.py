"""A LAN match from a set-up position (PDN's FEN): the match entry carries the start as the
record keeps it (docs/PROTOCOL.md §5), every peer builds the first state from it, the
records both peers save replay from it; a guest refuses a start that is no position, and
the client hosts from a position chosen in a replay."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import msgpack
import pytest

from game.rules import MatchRecord, variant
from game.rules.fen import fen_of
from net import records
from net.identity import Identity
from net.matchlog import MatchLog, Rejected, placed, signed
from net.messages import MessageError, validate_entry
from net.testing.peer_process import ROOT
from tests.lan import guest, host
from tests.test_lan import _welcome_as_host

FEN = "W:W18,22,K30:B6,11,12"
"""White to move, a king and two men against three men: a game of a few dozen plies."""


def _opening(identity: Identity, **fields) -> dict:
    """The first entry of a Dama match ``identity`` hosts, with ``fields`` (a ``start``)."""
    opening = {"k": "match", "id": "ab" * 16, "setup": variant("dama").to_fields(),
               "seats": ["", ""], "code": False, "host": identity.peer, "name": "Host",
               "chain": 64, "key": identity.key, **fields}  # fmt: skip
    return placed(None, identity, signed(None, identity, opening, 1))


def _verified(path: Path) -> dict:
    result = subprocess.run([sys.executable, "-m", "net", "verify", str(path)],
                            capture_output=True, text=True, cwd=ROOT, check=False)  # fmt: skip
    report = json.loads(result.stdout)
    assert result.returncode == 0 and report["ok"], report
    return report


def test_the_match_entry_carries_the_start_as_the_record_keeps_it() -> None:
    me = Identity.fresh()
    log = MatchLog(_opening(me, start=FEN))
    assert log.record.setup == FEN and fen_of(log.state) == FEN
    assert MatchLog(_opening(me)).record.setup is None  # without it: the game's own start
    refused = {
        "W:W18,18:B11": "no position of dama:classic: two pieces on square 18",
        "W:W22,18,K30:B6,11,12": "is not written as a record writes it",
        "W:W21-32:B1-12": "the game's own: the field is left out for it",
        "B:W18:B": "the game is already over in the start position",
        "W:W35:B1": "square 35 is not on the 8×8 board",
    }
    for fen, reason in refused.items():
        with pytest.raises(Rejected, match=reason):
            MatchLog(_opening(me, start=fen))
    for bad in (42, "", None, "W:W18\x00:B11", "W" * 201):
        with pytest.raises((MessageError, Rejected)):
            validate_entry(_opening(me, start=bad))
            MatchLog(_opening(me, start=bad))
    mulino = {**_opening(me), "setup": variant("mulino").to_fields(), "start": FEN}
    with pytest.raises(Rejected, match="mulino:classic has no set-up positions"):
        MatchLog(placed(None, me, signed(None, me, mulino, 1)))


@pytest.mark.slow
def test_two_peers_play_from_a_fen_agree_and_their_records_replay_from_it(
    tmp_path: Path,
) -> None:
    server, port = host(
        tmp_path, "dama", "--ai", "easy", "--fen", "W:W22,18,K30:B12,11,6"
    )  # any order
    other = guest(tmp_path, port, "anna", "--ai", "easy")
    assert other.finish() == 0, other.tail()
    assert server.finish() == 0, server.tail()
    digest = other.last("over")["digest"]
    assert server.last("over")["digest"] == digest
    first, second = _verified(tmp_path / "host.rec"), _verified(tmp_path / "anna.rec")
    assert first["start"] == second["start"] == FEN  # the FEN given, as a record writes it
    assert first["moves"] == second["moves"] and first["digest"] == second["digest"] == digest
    record = MatchRecord.from_notation(variant("dama"), first["moves"], FEN)
    assert record.replay().digest() == digest and record.replay().is_terminal()
    (opening, *_) = records.load(tmp_path / "anna.rec")
    assert opening["k"] == "match" and opening["start"] == FEN


def test_an_older_record_without_a_start_still_verifies(tmp_path: Path) -> None:
    me = Identity.fresh()
    path = tmp_path / "old.rec"
    path.write_bytes(msgpack.packb({"tavolo-net-record": 3, "entries": [_opening(me)]}))
    report = records.verify(records.load(path))
    assert report["ok"] and "start" not in report and report["moves"] == []
    with_start = tmp_path / "new.rec"
    records.save(with_start, MatchLog(_opening(me, start=FEN)))
    assert records.verify(records.load(with_start))["start"] == FEN


def test_the_host_command_refuses_a_fen_that_is_no_position(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "net", "host", "dama", "--fen", "W:W18,18:B11",
         "--interface", "127.0.0.1", "--no-advertise", "--identity", str(tmp_path / "h.id")],
        capture_output=True, text=True, cwd=ROOT, check=False, timeout=30,
    )  # fmt: skip
    assert result.returncode == 2 and "two pieces on square 18" in result.stderr


@pytest.mark.parametrize(
    ("start", "said"),
    [
        ("W:W18,18:B11", "the host's match cannot be played here: the start position is no "
         "position of dama:classic: two pieces on square 18"),
        (42, "field 'start' must be a set-up start position in FEN"),
    ],
)  # fmt: skip
def test_a_guest_refuses_a_match_whose_start_is_no_position(
    tmp_path: Path, start: object, said: str
) -> None:
    """A host (played by the test, with a real key) opens a match whose start position is
    illegal, or not even text: the guest refuses it with the reason and exits; no crash."""
    from net.connection import Connection

    cheat = Identity.fresh()

    async def scenario() -> None:
        async def serve(reader, writer) -> None:
            connection = Connection(reader, writer)
            await _welcome_as_host(connection, cheat, "ab" * 16, seq=1)
            connection.send({"t": "entry", "seq": 0, "e": _opening(cheat, start=start)})
            try:
                while True:
                    await connection.receive(20)
            except Exception:
                return

        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        anna = guest(tmp_path, port, "anna", "--ai", "easy")
        assert await asyncio.to_thread(anna.finish) == 1, anna.tail()
        error = anna.last("error")["text"]
        assert said in error, error
        assert "Traceback" not in "".join(anna.tail()), anna.tail()
        server.close()

    asyncio.run(asyncio.wait_for(scenario(), 60))


@pytest.mark.slow
def test_the_client_hosts_a_match_from_a_position_chosen_in_a_replay(tmp_path: Path) -> None:
    """An imported problem (its FEN) in the replay → *Play from here* → the setup, which
    offers hosting it on the LAN → the LAN's setup → the room; a guest joins, the match is
    played from the position on both sides, and the record the client keeps replays from it."""
    from tests.client_driver import Driver

    drive = Driver(tmp_path, size=(1024, 600))
    drive.app.settings.lan_interface = "127.0.0.1"
    drive.app.settings.player_name = "Carla"
    folder = drive.app.paths.data / "import"
    folder.mkdir(parents=True)
    (folder / "problem.pdn").write_text(f'[GameType "Dama"]\n[FEN "{FEN}"]\n\n1. 30-26 6-9 *\n')
    drive.press("finished")
    drive.press("import")
    drive.press_and_read("file problem.pdn")
    assert type(drive.scene).__name__ == "ReplayScene"
    drive.press("start")  # back to the position the problem sets
    drive.press("play from here")
    setup = drive.scene
    assert type(setup).__name__ == "SetupScene" and setup.start == FEN
    assert setup.picture is not None  # the position it starts from, under the buttons
    assert {"start", "host lan", "back"} <= {t.name for t in setup.targets}
    drive.press("host lan")
    assert type(drive.scene).__name__ == "LanSetupScene" and drive.scene.start == FEN
    assert "host lan" not in {t.name for t in drive.scene.targets}
    drive.press("start")
    drive.wait_for_scene("RoomScene")
    drive.until(lambda: drive.scene.link.view().port)
    assert drive.scene.link.view().start == FEN
    anna = guest(tmp_path, drive.scene.link.view().port, "anna", "--ai", "easy")
    drive.until(lambda: drive.scene.view.can_start, anna)
    drive.press("start")
    drive.wait_for_scene("PlayScene")
    assert fen_of(drive.scene.control.match.record.initial_state()) == FEN
    drive.play_lan_to_the_end()
    assert anna.finish() == 0, anna.tail()
    (saved,) = (tmp_path / "data" / "lan").glob("*.tavolo-net")
    report = records.verify(records.load(saved))
    assert report["ok"] and report["start"] == FEN
    assert report["digest"] == anna.last("over")["digest"]
    drive.app.close()


def test_a_position_chosen_is_played_here_too_and_the_end_of_a_game_is_no_start(
    tmp_path: Path,
) -> None:
    from game.client.scenes.title import TitleScene
    from tests.client_driver import Driver

    drive = Driver(tmp_path)
    folder = drive.app.paths.data / "import"
    folder.mkdir(parents=True)
    (folder / "won.pdn").write_text('[FEN "W:W18:B15"]\n\n1. 18x11 1-0\n')
    drive.press("finished")
    drive.press("import")
    drive.press_and_read("file won.pdn")
    replay = drive.scene
    assert not replay.can_play_from_here()  # the game is over here
    drive.press("play from here")
    assert drive.scene is replay
    drive.press("start")
    drive.press("play from here")
    assert drive.scene.start == "W:W18:B15"
    drive.press("start")  # played here, from the position
    drive.wait_for_scene("PlayScene")
    assert drive.scene.control.match.record.setup == "W:W18:B15"
    drive.app.reset(TitleScene(drive.app))
    drive.press("new game")
    drive.press("dama:classic")
    assert type(drive.scene).__name__ == "SetupScene" and drive.scene.start is None
    assert "host lan" not in {t.name for t in drive.scene.targets}
    drive.app.close()


@pytest.mark.slow
def test_the_client_joins_a_match_from_a_set_up_position_and_keeps_its_record(
    tmp_path: Path,
) -> None:
    """A guest at the client: the match screen starts from the host's position, and the
    record the client keeps of it replays from there."""
    from tests.client_driver import Driver
    from tests.test_client_lan import _join_on_the_keypad

    drive = Driver(tmp_path)
    drive.app.settings.lan_interface = "127.0.0.1"
    drive.app.settings.player_name = "Carla"
    server, port = host(tmp_path, "dama", "--ai", "easy", "--fen", FEN)
    _join_on_the_keypad(drive, port, server)
    drive.press("ready")
    drive.wait_for_scene("PlayScene")
    assert drive.scene.control.match.record.setup == FEN
    drive.play_lan_to_the_end()
    assert server.finish() == 0, server.tail()
    assert drive.scene.match.state.digest() == server.last("over")["digest"]
    (saved,) = (tmp_path / "data" / "lan").glob("*.tavolo-net")
    report = records.verify(records.load(saved))
    assert report["ok"] and report["start"] == FEN
    drive.app.close()
