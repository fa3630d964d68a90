"""Importing games (game/session/importing.py): every record Tavolo exports reads back as the
same record, games written by hand in PDN or as Mulino move lists read as people write them,
and a broken or illegal record is refused with its line and the reason."""

from __future__ import annotations

import random

import pygame
import pytest

from game.rules import VARIANTS, resign_action, variant
from game.session.export import export_text
from game.session.importing import RecordImportError, import_record
from game.session.match import Match
from game.session.seats import Seat


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_exported_record_reads_back_as_the_same_record(name: str) -> None:
    game = variant(name)
    for seed in range(8):
        match = Match.new(game, [Seat()] * game.players, seed)
        rng = random.Random(seed)
        match.play_randomly(rng, None if seed % 4 == 0 else rng.randrange(3, 80))
        if not match.state.is_terminal() and seed % 4 == 1:
            seat = match.state.to_move if match.state.to_move >= 0 else 0
            match.play(resign_action(seat))
        if not match.state.is_terminal() and seed % 4 == 2 and game.spec.agreed_draws:
            match.play(match.state.parse_action("draw"))
        record = import_record(export_text(match))
        assert record.variant == match.record.variant
        assert record.actions == match.record.actions


def test_pdn_as_people_write_it() -> None:
    text = """[Event "Club night"]
[White "Ada"]
[Black "Bea"]
[GameType "Dama"]
[Result "0-1"]

1. 22-18 {a quiet start} 11-15 2.18x11 8x15
3... 21-17 *
"""
    record = import_record(text)
    assert record.variant.name == "dama:classic"
    assert record.notation() == ("22-18", "11-15", "18x11", "8x15", "21-17")  # "*": unfinished
    resigned = import_record(text.replace(" *", ""))  # the Result tag: Ada resigned
    assert resigned.notation()[-1] == "resign1"
    with pytest.raises(RecordImportError) as refused:
        import_record(text.replace("21-17 *", "21-17 9-14 10-14"))
    assert refused.value.line == 8 and "'10-14'" in str(refused.value)


def test_a_result_the_moves_do_not_reach_is_a_resignation_or_an_agreed_draw() -> None:
    moves = "1. 22-18 11-15 2. 18x11 8x15"
    assert import_record(f'[GameType "Dama"]\n\n{moves} 1-0').notation()[-1] == "resign2"
    assert import_record(f'[GameType "Dama"]\n\n{moves} 0-1').notation()[-1] == "resign1"
    assert import_record(f'[GameType "Dama"]\n\n{moves} 1/2-1/2').notation()[-1] == "draw"
    assert import_record(f'[GameType "Dama"]\n\n{moves} *').notation()[-1] == "8x15"


def test_a_mulino_move_list_in_a1_g7_notation() -> None:
    placing = "a1 d7 g1 d6 d1"  # white's mill a1-d1-g1 closes: remove d7
    record = import_record(f"{placing} xd7\n")
    assert record.variant.name == "mulino:classic" and record.notation()[-1] == "xd7"
    numbered = import_record("1. a1 d7 2. g1 d6 3. d1xd7 # the mill\n")
    assert numbered.actions == record.actions


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        ("", 0, "empty"),
        ('[GameType "Chess"]\n\n1. 11-15 *', 1, "not a game of Tavolo"),
        ('[GameType "Dama"\n\n1. 22-18', 1, "a tag must read"),
        ('[GameType "Dama"]\n\n1. 22-18 11-15\n2. 18-14 *', 4, "'18-14'"),
        ('[GameType "Dama"]\n\n1. 22-18 {never closed\n2. 11-15', 3, "never closed"),
        ('[GameType "Dama"]\n\n1. 22-18 1-0 11-15', 3, "after the result"),
        ('[GameType "Dama"]\n[Option "flying=maybe"]\n\n1. 22-18', 2, "flying"),
        ("a1 d7\ng1 a1\n", 2, "'a1'"),
        ("a1 d7 g1 d6 d1 g7\n", 1, "'g7'"),  # a mill closed: a removal must come first
        ('[Variant "numeri"]\n[Players "two"]\n', 2, "Players must be a number"),
        ('[Variant "ausgeblockt"]\n\nfirst1 =11134 stop a9\n', 3, "'a9'"),
        ('[GameType "Lupo e pecore"]\n\n{wolf1} {@18} 1. 29-25 1/2-1/2', 3, "no draw by agreement"),
    ],
)
def test_a_broken_record_is_refused_with_its_line_and_reason(
    text: str, line: int, reason: str
) -> None:
    with pytest.raises(RecordImportError) as refused:
        import_record(text)
    assert refused.value.line == line, str(refused.value)
    assert reason in str(refused.value)


def test_a_game_imported_by_paste_or_file_opens_in_the_replay(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from game.client.scenes import import_game
    from tests.client_driver import Driver

    drive = Driver(tmp_path)
    folder = drive.app.paths.data / "import"
    folder.mkdir(parents=True)
    (folder / "club.pdn").write_text('[GameType "Dama"]\n[White "Anna Rossi"]\n[Black "Ben"]\n\n'
                                     "1. 22-18 11-15 2. 18x11 8x15 1-0\n")  # fmt: skip
    (folder / "broken.txt").write_text("a1 d7\ng1 a1\n")
    (folder / "binary.pdn").write_bytes(b"\xff\xfe\x00garbage")
    drive.press("finished")
    drive.press("import")
    assert type(drive.scene).__name__ == "ImportScene"
    names = [t.name for t in drive.scene.targets]
    assert {"paste", "file club.pdn", "file broken.txt", "file binary.pdn", "back"} <= set(names)
    drive.press("file broken.txt")
    assert drive.scene.problem == "This game cannot be read — line 2: 'a1': point a1 is taken"
    drive.press("file binary.pdn")
    assert drive.scene.problem == "binary.pdn is not text."
    monkeypatch.setattr(import_game, "clipboard_text", lambda: "   ")
    drive.press("paste")
    assert "copy a game first" in drive.scene.problem
    monkeypatch.setattr(import_game, "clipboard_text", lambda: "1. a1 d7 2. g1 d6 3. d1xd7\n")
    drive.press("paste")  # legal in classic and in misto: the screen asks which
    assert type(drive.scene).__name__ == "WhichMillScene"
    assert [t.name for t in drive.scene.targets] == ["mulino:classic", "mulino:misto", "back"]
    drive.press("mulino:misto")
    assert type(drive.scene).__name__ == "ReplayScene"
    assert drive.scene.match.variant.name == "mulino:misto"
    assert drive.scene.match.record.notation()[-1] == "xd7"
    drive.key(pygame.K_ESCAPE)
    monkeypatch.setattr(import_game, "clipboard_text", lambda: "a1 d7 d1 d6 g1 b2\n")
    drive.press("paste")  # a placing mill and another placing: only ceylonese, not asked
    assert drive.scene.match.variant.name == "mulino:ceylonese"
    drive.key(pygame.K_ESCAPE)
    drive.press("file club.pdn")
    assert drive.scene.match.record.notation() == ("22-18", "11-15", "18x11", "8x15", "resign2")
    assert drive.scene.players() == "White: Anna Rossi · Black: Ben"  # the PDN's names
    drive.app.close()
