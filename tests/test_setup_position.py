"""A match that starts from a set-up position (PDN's ``[SetUp "1"]`` ``[FEN "…"]``): the
record keeps the position (record version 3), replays, saves, undoes and exports from it;
older saves still read; the engine protocol's ``position … fen …`` sets it up."""

from __future__ import annotations

import io

import msgpack
import pytest

from game.ai.__main__ import Engine
from game.rules import DecodeError, MatchRecord, RulesError, variant
from game.rules.fen import FenError, fen_of, position_from_fen
from game.session.export import export_text
from game.session.importing import import_record
from game.session.match import Match
from game.session.seats import Seat

FEN = "W:W18,22:B11,15"

OLD_SAVE = bytes.fromhex(
    "9503c429930293ac64616d613a636c6173736963029192a768756666696e67c294cd04d0cd03f4cd02fbcd03ef"
    "9293a568756d616ec0a341646193a568756d616ec0a34265610790"
)
"""A match saved by the code before set-up positions (22-18 11-15 18x11 8x15, Ada and Bea,
seed 7): ``Match.to_bytes()`` at commit d440c29."""


def test_a_record_replays_from_its_set_up_position() -> None:
    game = variant("dama")
    record = MatchRecord.from_notation(game, ("22-17", "15x22"), FEN)
    first, *_, last = record.states()
    assert fen_of(first) == FEN and record.setup == FEN
    assert fen_of(last) == "W:W17:B11,22"
    assert record.first(1) == MatchRecord(game, record.actions[:1], FEN)
    with pytest.raises(RulesError):  # from the usual start, 22-17 15x22 is no game
        MatchRecord.from_notation(game, ("22-17", "15x22"))


def test_the_set_up_position_is_kept_in_record_version_3_and_older_records_still_read() -> None:
    game = variant("dama")
    record = MatchRecord.from_notation(game, ("22-17",), FEN)
    data = record.encode()
    assert msgpack.unpackb(data)[0] == 3 and msgpack.unpackb(data)[3] == FEN
    assert MatchRecord.decode(data) == record
    usual = MatchRecord.from_notation(game, ("22-18",))
    assert msgpack.unpackb(usual.encode())[0] == 2  # as before: older versions read it
    assert MatchRecord.decode(usual.encode()).setup is None
    bad = msgpack.packb([3, game.to_fields(), [], "W:W35:B1"])
    with pytest.raises(DecodeError, match="square 35"):
        MatchRecord.decode(bad)
    with pytest.raises(DecodeError):
        MatchRecord.decode(msgpack.packb([3, game.to_fields(), []]))  # version 3 without it


def test_an_old_format_save_still_reads() -> None:
    match = Match.from_bytes(OLD_SAVE)
    assert match.record.notation() == ("22-18", "11-15", "18x11", "8x15")
    assert match.record.setup is None and [s.name for s in match.seats] == ["Ada", "Bea"]
    assert Match.from_bytes(match.to_bytes()) == match
    assert match.to_bytes() == OLD_SAVE  # a match from the start is saved as it always was


def test_a_match_from_a_set_up_position_saves_undoes_and_exports_from_it() -> None:
    game = variant("dama")
    match = Match(MatchRecord(game, (), FEN), [Seat(), Seat()], 3)
    match.play(match.state.parse_action("22-17"))
    match.play(match.state.parse_action("15x22"))
    again = Match.from_bytes(match.to_bytes())
    assert again == match and again.record.setup == FEN
    match.undo()
    assert match.record.setup == FEN and match.record.notation() == ("22-17",)
    text = export_text(match)
    assert '[SetUp "1"]' in text and f'[FEN "{FEN}"]' in text
    assert import_record(text) == match.record


def test_black_to_move_is_numbered_as_pdn_writes_it() -> None:
    game = variant("dama")
    match = Match(MatchRecord(game, (), "B:W18,22:B11,15"), [Seat(), Seat()], 3)
    for move in ("11-16", "18x11", "16-20"):
        match.play(match.state.parse_action(move))
    text = export_text(match)
    assert "1... 11-16 2. 18x11 16-20" in text
    assert import_record(text) == match.record


@pytest.mark.parametrize(
    ("fen", "reason"),
    [
        ("W:W18,18:B1", "two pieces on square 18"),
        ("X:W18:B1", "W or B"),
        ("W:W2:B11", "crowning row"),
        ("W:W12-8:B1", "backwards"),
        ("W:Wz9:B1", "'z9' is not a square"),
        ("W:W18:W19", "given twice"),
    ],
)
def test_a_fen_that_is_no_position_is_refused_with_the_reason(fen: str, reason: str) -> None:
    with pytest.raises(FenError, match=reason):
        position_from_fen(variant("dama"), fen)


def test_fen_reads_ranges_kings_names_and_the_move_clock() -> None:
    state = position_from_fen(variant("dama"), "B:W21-32:BK1,c5:H0:F1.")
    assert fen_of(state) == "B:W21,22,23,24,25,26,27,28,29,30,31,32:BK1,14"
    with pytest.raises(FenError, match="no set-up positions"):
        position_from_fen(variant("dama:lupo"), "W:W29:B1")


def test_the_engine_protocol_sets_up_a_position_by_fen() -> None:
    out = io.StringIO()
    engine = Engine(out)
    engine.handle(f"position dama fen {FEN} moves 22-17")
    engine.handle("legal")
    engine.handle("position mulino fen W:W1")
    lines = out.getvalue().splitlines()
    assert lines == ["legal 15x22", "error FEN 'W:W1': mulino:classic has no set-up positions"]


def test_a_match_from_a_set_up_position_is_reviewed_from_it() -> None:
    from game.ai.review import review, review_from_bytes, review_to_bytes

    game = variant("dama")
    record = MatchRecord.from_notation(game, ("22-17", "15x22"), FEN)
    found = review(record, {0, 1})
    assert found is not None and len(found.advantage) == 3
    assert [j.played for j in found.decisions] == ["22-17", "15x22"]
    kept = review_to_bytes(found, record)
    assert review_from_bytes(kept, record) == found
    assert review_from_bytes(kept, MatchRecord.from_notation(game, ("22-18",))) is None
