"""Importing games (game/session/importing.py): every record Tavolo exports reads back as the
same record, games written by hand in PDN or as Mulino move lists read as people write them,
and a broken or illegal record is refused with its line and the reason."""

from __future__ import annotations

import random

import pygame
import pytest

from game.rules import VARIANTS, resign_action, variant
from game.session.export import export_text
from game.session.importing import (
    RecordImportError,
    import_record,
    mills_that_fit,
    player_names,
    read_game,
)
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
    drive.press_and_read("file broken.txt")
    assert drive.scene.problem == "This game cannot be read — line 2: 'a1': point a1 is taken"
    drive.press_and_read("file binary.pdn")
    assert drive.scene.problem == "binary.pdn is not text."
    monkeypatch.setattr(import_game, "clipboard_text", lambda: "   ")
    drive.press_and_read("paste")
    assert "copy a game first" in drive.scene.problem
    monkeypatch.setattr(import_game, "clipboard_text", lambda: "1. a1 d7 2. g1 d6 3. d1xd7\n")
    drive.press_and_read("paste")  # legal in classic and in misto: the screen asks which
    assert type(drive.scene).__name__ == "WhichMillScene"
    assert [t.name for t in drive.scene.targets] == ["mulino:classic", "mulino:misto", "back"]
    drive.press_and_read("mulino:misto")
    assert type(drive.scene).__name__ == "ReplayScene"
    assert drive.scene.match.variant.name == "mulino:misto"
    assert drive.scene.match.record.notation()[-1] == "xd7"
    drive.key(pygame.K_ESCAPE)
    monkeypatch.setattr(import_game, "clipboard_text", lambda: "a1 d7 d1 d6 g1 b2\n")
    drive.press_and_read("paste")  # a placing mill and another placing: only ceylonese, not asked
    assert drive.scene.match.variant.name == "mulino:ceylonese"
    drive.key(pygame.K_ESCAPE)
    drive.press_and_read("file club.pdn")
    assert drive.scene.match.record.notation() == ("22-18", "11-15", "18x11", "8x15", "resign2")
    assert drive.scene.players() == "White: Anna Rossi · Black: Ben"  # the PDN's names
    drive.app.close()


# -- PDN as draughts players write it (issue 29) ------------------------------------------


def test_a_set_up_position_is_where_the_game_starts() -> None:
    from game.rules.fen import fen_of

    text = '[SetUp "1"]\n[FEN "W:W18,22:B11,15"]\n\n1. 22-17 *\n'
    record = import_record(text)
    assert record.setup == "W:W18,22:B11,15" and record.notation() == ("22-17",)
    assert fen_of(record.initial_state()) == "W:W18,22:B11,15"
    assert fen_of(record.replay()) == "B:W17,18:B11,15"
    assert import_record(text.replace('"1"]', '"0"]', 1)).setup is None  # SetUp 0: no set-up
    usual = '[FEN "W:W21-32:B1-12"]\n\n1. 22-18 *'  # the usual start, written out
    assert import_record(usual) == import_record("1. 22-18 *")
    for game_type in ('[GameType "Dama"]\n', '[GameType "25"]\n', ""):  # as the FEN says
        with pytest.raises(RecordImportError) as refused:
            import_record(f'{game_type}[FEN "W:W18,18:B11"]\n\n1. 18-14 *')
        assert refused.value.reason == (
            "the FEN tag is not a position of Dama: two pieces on square 18"
        ), refused.value.reason


def test_a_byte_order_mark_and_several_tags_on_a_line_are_read() -> None:
    text = '\ufeff[Event "Club"] [GameType "Dama"]\r\n[White "Ada"]\r\n\r\n1. 22-18 11-15 *\r\n'
    assert import_record(text).notation() == ("22-18", "11-15")
    assert player_names(text, 2) == ["Ada", ""]
    assert mills_that_fit("\ufeffa1 d7 g1\n") == [
        "mulino:classic",
        "mulino:misto",
        "mulino:ceylonese",
    ]


def test_variations_and_comments_are_skipped_and_marks_and_nags_kept() -> None:
    text = """[GameType "Dama"]
% an escape line, for another program
1. 22-18! (1. 21-17 {another start} 9-13 (1... 10-14 2. 17x10) 2. 25-21) 11-15 $2
2. 18x11 ; a comment to the end of the line, 8x15 is not played here
8x15!? $18 3. 21-17 (3. 24-20?? ; never mind
) 9-13?! *
"""
    imported = read_game(text)
    assert imported.record.notation() == ("22-18", "11-15", "18x11", "8x15", "21-17", "9-13")
    assert imported.marks == {0: "!", 1: "?", 3: "!? $18", 5: "?!"}
    with pytest.raises(RecordImportError) as refused:
        import_record('[GameType "Dama"]\n\n1. 22-18 11-15 )\n')
    assert refused.value.line == 3 and refused.value.reason == (
        "a variation closed that was never opened"
    )


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        ('[GameType "20"]\n\n1. 32-28 18-23 *', 1,
         "international draughts 10×10 — Tavolo plays Dama on 8×8"),
        ('[GameType "40"]\n\n1. 32-28 *', 1, "Frisian draughts 10×10 — Tavolo plays Dama on 8×8"),
        ('[Event "Open"]\n\n1. 32-28 18-23 2. 37-32 *', 3,
         "international draughts 10×10 — Tavolo plays Dama on 8×8"),
        ('[Event "Open"]\n\n1. 23-18 10-15 2. 18x11 *', 3,
         "without a GameType tag this is probably international draughts 10×10"),
        ('[FEN "W:W31,46:B5"]\n\n1. 46-41 *', 1,
         "international draughts 10×10 — Tavolo plays Dama on 8×8"),
        ('[Event "ACF"]\n\n1. 11-15 23-19 *', 3,
         "without a GameType tag, a game Black begins from 9–12 is probably English checkers"),
        ('[GameType "21"]\n\n1. 11-15 23-19 *', 3,
         "English checkers (GameType 21) has other rules than Tavolo's Dama"),
        ('[GameType "Lupo e pecore"]\n[FEN "W:W29:B1"]\n\n1. 29-25 *', 2,
         "the FEN tag is not a position of Lupo e pecore"),
    ],
)  # fmt: skip
def test_a_game_of_other_rules_is_refused_by_name(text: str, line: int, reason: str) -> None:
    with pytest.raises(RecordImportError) as refused:
        import_record(text)
    assert refused.value.line == line, str(refused.value)
    assert reason in refused.value.reason


def test_an_eight_by_eight_game_of_other_rules_is_read_when_every_move_is_dama() -> None:
    imported = read_game('[GameType "25"]\n\n1. c3-d4 f6-g5 2. b2-c3 *')
    assert imported.record.notation() == ("22-18", "11-16", "25-22")
    assert imported.notices == (
        "Russian draughts (GameType 25) has other rules than Tavolo's Dama; these moves are all "
        "legal in Dama, and the game is shown as Dama.",
    )


def test_a_result_the_moves_contradict_is_said() -> None:
    fen = '[FEN "W:W18:B15"]\n[Result "{tag}"]\n\n1. 18x11 {moves}\n'
    assert read_game(fen.format(tag="1-0", moves="1-0")).notices == ()
    assert read_game(fen.format(tag="1-0", moves="*")).notices == ()
    assert read_game(fen.format(tag="0-0", moves="0-0")).notices == ()  # a double forfeit
    said = read_game(fen.format(tag="1/2-1/2", moves="")).notices
    assert said == (
        "The file gives the result 1/2-1/2, but the moves end 1-0: the moves are kept.",
    )
    said = read_game(fen.format(tag="0-1", moves="1-0")).notices
    assert said == ("The Result tag says 0-1, the moves end with 1-0: the moves are kept.",)
    going = read_game('[GameType "Dama"]\n[Result "1-0"]\n\n1. 22-18 0-1\n')
    assert (
        going.record.notation()[-1] == "resign1" and "The Result tag says 1-0" in going.notices[0]
    )


def test_latin_1_and_cp_1252_files_are_text_and_binary_files_are_not() -> None:
    from game.session.importing import decode_text

    text = '[White "José Müller"]\n[Event "“Coppa” 5 €"]\n'
    assert decode_text(text.encode("cp1252")) == text
    assert decode_text(text.replace("“", '"').replace("”", '"').replace(" €", "").encode(
        "latin-1")) == text.replace("“", '"').replace("”", '"').replace(" €", "")  # fmt: skip
    assert decode_text(("\ufeff" + text).encode("utf-8")) == text
    for binary in (b"\xff\xfe\x00garbage", b"[Event \x01\x02]", b"[Event \x81]"):
        with pytest.raises(ValueError):
            decode_text(binary)


def test_a_mulino_list_names_its_variant_as_players_do() -> None:
    moves = "\n1. a1 d7 2. g1 d6 3. d1xd7\n"
    for name in ("mulino:misto", "misto", "Mulino misto"):
        assert import_record(f'[Variant "{name}"]{moves}').variant.name == "mulino:misto"
    assert mills_that_fit(moves) == ["mulino:classic", "mulino:misto"]  # else asked


@pytest.mark.parametrize("name", ["dama:classic", "dama:mangia"])
def test_a_match_from_a_set_up_position_reads_back_as_the_same_record(name: str) -> None:
    from game.rules import MatchRecord
    from game.rules.fen import SET_UP_GAMES, fen_of, position_from_fen

    assert name in SET_UP_GAMES
    game = variant(name)
    for seed in range(20):
        rng = random.Random(seed)
        squares = rng.sample(range(1, 33), rng.randint(2, 12))
        half = len(squares) // 2
        white = [f"{'K' if rng.random() < 0.3 or s <= 4 else ''}{s}" for s in squares[:half]]
        black = [f"{'K' if rng.random() < 0.3 or s >= 29 else ''}{s}" for s in squares[half:]]
        fen = f"{rng.choice('WB')}:W{','.join(white)}:B{','.join(black)}"
        setup = fen_of(position_from_fen(game, fen))
        match = Match(MatchRecord(game, (), setup), [Seat(), Seat()], seed)
        match.play_randomly(rng, None if seed % 3 == 0 else rng.randrange(0, 30))
        if not match.state.is_terminal() and seed % 3 == 1:
            match.play(resign_action(match.state.to_move))
        exported = export_text(match)
        assert import_record(exported) == match.record, exported
        assert MatchRecord.from_text(match.record.to_text()) == match.record
        assert import_record(match.record.to_text()) == match.record


def test_an_imported_game_shows_its_marks_its_set_up_start_and_what_the_reading_said(
    tmp_path,
) -> None:
    from game.rules.fen import fen_of
    from tests.client_driver import Driver

    drive = Driver(tmp_path)
    folder = drive.app.paths.data / "import"
    folder.mkdir(parents=True)
    (folder / "study.pdn").write_bytes(
        '\ufeff[White "Niccolò"]\n[FEN "W:W18,22:B11,15"]\n[Result "0-1"]\n\n'
        "1. 22-17!? 15x22 $4 (1... 11-16) 1-0\n".encode()
    )
    drive.press("finished")
    drive.press("import")
    drive.press_and_read("file study.pdn")
    scene = drive.scene
    assert type(scene).__name__ == "ReplayScene", getattr(scene, "problem", "")
    assert fen_of(scene.match.state_at(0)) == "W:W18,22:B11,15"
    assert scene.marks == {0: "!?", 1: "??"}
    assert scene._move_line(0).endswith("!?") and "??" in scene._move_line(1)
    assert scene.notice == "The Result tag says 0-1, the moves end with 1-0: the moves are kept."
    drive.press("export")  # written back as it was read: the set-up start and the marks
    (exported,) = (drive.app.paths.data / "exports").iterdir()
    text = exported.read_text(encoding="utf-8")
    assert '[FEN "W:W18,22:B11,15"]' in text and "1. 22-17!? 15x22??" in text
    drive.app.close()


def test_refusals_and_notices_are_in_the_players_language() -> None:
    from game import i18n

    try:
        assert i18n.set_language("it") == "it"
        with pytest.raises(RecordImportError) as refused:
            import_record('[GameType "20"]\n\n1. 32-28 *')
        assert refused.value.reason == "dama internazionale 10×10 — Tavolo gioca a Dama su 8×8"
        with pytest.raises(RecordImportError) as refused:
            import_record('[GameType "Dama"]\n\n1. 22-18 {mai chiuso\n')
        assert refused.value.reason == "un commento aperto qui non viene mai chiuso"
        said = read_game('[FEN "W:W18:B15"]\n[Result "0-1"]\n\n1. 18x11\n').notices
        assert said == (
            "Il file dà il risultato 0-1, ma le mosse finiscono 1-0: si tengono le mosse.",
        )
        assert i18n.set_language("de") == "de"
        with pytest.raises(RecordImportError) as refused:
            import_record('[GameType "25"]\n\n1. c3-b2 *')
        assert refused.value.reason.startswith("russische Dame (GameType 25) hat andere Regeln")
    finally:
        i18n.set_language("en")


def test_marks_and_nags_are_exported_with_their_moves_and_read_back() -> None:
    text = '[GameType "Dama"]\n\n1. 22-18! 11-15 $2 2. 18x11 $18 8x15!? $146 3. 21-17?? 0-1\n'
    imported = read_game(text)
    match = Match(imported.record, [Seat(), Seat()], 0)
    exported = export_text(match, None, imported.marks)
    assert "1. 22-18! 11-15? 2. 18x11 $18 8x15!? $146 3. 21-17?? 0-1" in exported
    again = read_game(exported)
    assert again.record == imported.record and again.marks == imported.marks
    lupo = read_game('[GameType "Lupo e pecore"]\n\n{wolf1} $1 {@18} 1. 29-25! *')
    assert lupo.marks == {2: "!"}  # a NAG after Lupo's lot is no mark of a move
    lupo_match = Match(lupo.record, [Seat(), Seat()], 0)
    assert read_game(export_text(lupo_match, None, lupo.marks)).marks == lupo.marks


def test_a_file_of_several_games_lists_them_and_opens_the_one_chosen(tmp_path) -> None:
    from pathlib import Path

    from tests.client_driver import Driver

    drive = Driver(tmp_path, size=(1024, 600))
    folder = drive.app.paths.data / "import"
    folder.mkdir(parents=True)
    corpus = Path(__file__).resolve().parent / "data" / "pdn"
    (folder / "torneo.pdn").write_bytes((corpus / "dama_tournament_four_games.pdn").read_bytes())
    drive.press("finished")
    drive.press("import")
    drive.press_and_read("file torneo.pdn")
    scene = drive.scene
    assert type(scene).__name__ == "GamesScene", getattr(scene, "problem", "")
    assert [t.name for t in scene.targets if t.name.startswith("game")] == [
        "game 1", "game 2", "game 3", "game 4"
    ]  # fmt: skip
    assert scene.summary() == "4 games in this file · 1 cannot be read"
    assert all(t.rect.height >= 44 for t in scene.targets)
    drive.press("game 3")  # refused: the whole reason shown, the list stays
    assert drive.scene is scene
    assert scene.problem.startswith("Game 3: cannot be read — line 31: English checkers")
    drive.press("game 2")
    assert type(drive.scene).__name__ == "ReplayScene"
    assert drive.scene.match.record.notation() == ("22-18", "11-15", "18x11", "8x15")
    assert drive.scene.players() == "White: Carla Neri · Black: Dario Conti"
    drive.press("back")
    assert drive.scene is scene and scene.problem == ""
    drive.press("game 4")
    assert drive.scene.players() == "White: Bruno Galli · Black: Anna Ferri"
    assert drive.scene.notice == ""  # one game of the file: nothing said of the others
    drive.key(pygame.K_ESCAPE)
    drive.press("back")
    assert type(drive.scene).__name__ == "ImportScene"
    drive.app.close()


def test_a_long_file_is_read_off_the_frame_loop_and_one_text_at_a_time(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file of a thousand games takes seconds to read: the screen keeps drawing and says
    so meanwhile, a second paste is not taken, and the games come once the reading ends."""
    import threading

    from game.client.scenes import import_game
    from tests.client_driver import Driver

    drive = Driver(tmp_path)
    release, read = threading.Event(), []
    real_games_in = import_game.games_in

    def slow_games_in(text: str, *fits: str):
        read.append(text)
        assert release.wait(10), "the test never let the reading end"
        return real_games_in(text, *fits)

    monkeypatch.setattr(import_game, "games_in", slow_games_in)
    two_games = '[Event "A"]\n\n1. 22-18 *\n\n[Event "B"]\n\n1. 22-17 *\n'
    monkeypatch.setattr(import_game, "clipboard_text", lambda: two_games)
    drive.press("finished")
    drive.press("import")
    drive.press("paste")
    frames = drive.app._frames
    drive.frame(5)  # the loop goes on while the text is read
    assert drive.app._frames == frames + 5
    assert drive.scene.problem == "Reading…" and drive.scene.waiting
    drive.press("paste")  # a second text while the first is read: not taken
    release.set()
    drive.until(lambda: type(drive.scene).__name__ == "GamesScene")
    assert read == [two_games]
    assert len(drive.scene.games) == 2
    drive.app.close()
