"""Real-world PDN, as draughts players and their programs write it (tests/data/pdn: English
checkers with GameType 21 and without any, Italian and Russian 8×8, international 10×10 with
and without GameType, Tavolo's Dama and Mangia with a byte-order mark and CRLF, variations,
NAGs, move marks, comments, an escape line, FEN set-ups, Latin-1 and CP-1252): each file is
read, or refused by name; and no variation of them, however mangled, crashes the reader — it
reads or it refuses."""

from __future__ import annotations

import contextlib
import random
import subprocess
import sys
from pathlib import Path

import pytest

from game.session.export import PDN_GAME_TYPE, export_text
from game.session.importing import (
    Imported,
    RecordImportError,
    decode_text,
    games_in,
    player_names,
    read_game,
)
from game.session.match import Match
from game.session.seats import Seat

CORPUS = Path(__file__).resolve().parent / "data" / "pdn"

READ = {
    # file: variant, set-up FEN, last action, marks by action, what the reader says
    "dama_club_bom_crlf.pdn": (
        "dama:classic", None, "resign2",
        {3: "!?", 4: "!", 8: "!", 10: "!!", 13: "?!", 20: "$14"}, [],
    ),
    "dama_problem_fen_latin1.pdn": (
        "dama:classic", "W:W19,22,K30:B6,11,12", "7x14", {0: "!", 2: "!!"}, [],
    ),
    "mangia_cp1252.pdn": ("dama:mangia", None, "1x10", {}, []),
    "dama_no_gametype.pdn": ("dama:classic", None, "6x13", {}, []),
    "dama_two_games.pdn": ("dama:classic", None, "6x13", {}, ["more than one game"]),
    "dama_tournament_four_games.pdn": (
        "dama:classic", None, "resign2", {}, ["more than one game"],
    ),
    "dama_result_contradicted.pdn": (
        "dama:classic", "W:W18:B15", "18x11", {},
        ["The Result tag says 1/2-1/2, the moves end with 0-1",
         "The file gives the result 0-1, but the moves end 1-0"],
    ),
    "russian_opening_algebraic.pdn": (
        "dama:classic", None, "9-13", {},
        ["Russian draughts (GameType 25) has other rules than Tavolo's Dama; these moves are "
         "all legal in Dama"],
    ),
    "mulino_misto_variant_line.txt": ("mulino:misto", None, "a7", {}, []),
}  # fmt: skip

REFUSED = {
    # file: line, the reason (naming the game where it is another game)
    "english_old_fourteenth.pdn": (
        7, "English checkers (GameType 21) has other rules than Tavolo's Dama, and its moves do "
        "not fit them: '11-15': no White piece on 11",
    ),
    "english_single_corner_no_gametype.pdn": (
        7, "'11-15': no White piece on 11 — without a GameType tag, a game Black begins from "
        "9–12 is probably English checkers",
    ),
    "italian_gametype22.pdn": (
        7, "Italian draughts (GameType 22) has other rules than Tavolo's Dama, and its moves do "
        "not fit them: '22-19'",
    ),
    "russian_backward_capture_fen.pdn": (
        7, "Russian draughts (GameType 25) has other rules than Tavolo's Dama, and its moves do "
        "not fit them: 'e5:c3'",
    ),
    "international_gametype20.pdn": (5, "international draughts 10×10 — Tavolo plays Dama on 8×8"),
    "international_no_gametype.pdn": (
        6, "international draughts 10×10 — Tavolo plays Dama on 8×8"
    ),
    "dama_unclosed_variation.pdn": (4, "a variation opened here is never closed"),
}  # fmt: skip


def _read(path: Path) -> Imported:
    return read_game(decode_text(path.read_bytes()))


def test_the_corpus_is_all_here() -> None:
    assert sorted(p.name for p in CORPUS.iterdir()) == sorted([*READ, *REFUSED])


@pytest.mark.parametrize("name", sorted(READ))
def test_a_corpus_file_is_read(name: str) -> None:
    game, setup, last, marks, notices = READ[name]
    imported = _read(CORPUS / name)
    assert imported.record.variant.name == game
    assert imported.record.setup == setup
    assert imported.record.notation()[-1] == last
    assert imported.marks == marks
    assert len(imported.notices) == len(notices)
    for said, expected in zip(imported.notices, notices, strict=True):
        assert expected in said


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_corpus_file_is_refused_by_name(name: str) -> None:
    line, reason = REFUSED[name]
    with pytest.raises(RecordImportError) as refused:
        _read(CORPUS / name)
    assert refused.value.line == line
    assert reason in refused.value.reason


def test_names_in_latin_1_and_cp_1252_read_as_written() -> None:
    latin = decode_text((CORPUS / "dama_problem_fen_latin1.pdn").read_bytes())
    assert player_names(latin, 2) == ["José Müller", "Ægidius Østergård"]
    windows = decode_text((CORPUS / "mangia_cp1252.pdn").read_bytes())
    assert player_names(windows, 2) == ["Renée", "Jürgen"]
    assert "Torneo “Primavera” – Mangia la dama" in windows and "5 €" in windows
    bom = decode_text((CORPUS / "dama_club_bom_crlf.pdn").read_bytes())
    assert player_names(bom, 2) == ["Niccolò Rossi", "Giulia Bianchi"]


def test_a_file_of_several_games_lists_each_read_or_refused_with_its_line() -> None:
    text = decode_text((CORPUS / "dama_tournament_four_games.pdn").read_bytes())
    games = games_in(text)
    assert [game.lines() for game in games] == [
        ("1. Campionato provinciale — Anna Ferri – Bruno Galli", "1-0 · round 1 · 2026.03.07"),
        ("2. Campionato provinciale — Carla Neri – Dario Conti", "unfinished · 2026"),
        ("3. Old Fourteenth, a friendly game after the round — Ed Walker – Fay Moss",
         "round 2 · cannot be read — line 31: English checkers (GameType 21) has "
         "other rules than Tavolo's Dama, and its moves do not fit them: '11-15': no White "
         "piece on 11"),
        ("4. Campionato provinciale — Bruno Galli – Anna Ferri", "1/2-1/2 · round 3 · 2026.03.08"),
    ]  # fmt: skip
    first, second, third, fourth = games
    assert first.game is not None and first.game.record == read_game(text).record
    assert second.game is not None and second.game.record.notation()[-1] == "8x15"
    assert third.game is None and third.refused is not None and third.refused.line == 31
    assert fourth.game is not None and fourth.game.record.notation()[-1] == "draw"
    assert not any(game.game.notices for game in games if game.game)  # each is one game
    assert player_names(fourth.text, 2) == ["Bruno Galli", "Anna Ferri"]
    alone = decode_text((CORPUS / "dama_problem_fen_latin1.pdn").read_bytes())
    assert [game.game == read_game(alone) for game in games_in(alone)] == [True]
    assert len(games_in(decode_text((CORPUS / "mulino_misto_variant_line.txt").read_bytes()))) == 1


def test_games_after_a_comment_or_a_variation_holding_a_bracket_are_not_split_there() -> None:
    text = (
        '[Event "A"]\n\n1. 22-18 {see [Event "B"] below} 11-15 (1... [x) *\n'
        '[Event "C"]\n\n1. 21-17 *\n'
    )
    assert [game.tag("Event") for game in games_in(text)] == ["A", "C"]
    assert games_in(text)[1].game is not None


def test_the_command_line_lists_the_games_and_reads_the_one_asked_for() -> None:
    path = CORPUS / "dama_tournament_four_games.pdn"
    command = [sys.executable, "-m", "game.session.importing", str(path)]
    listed = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    assert listed.splitlines()[1] == (
        "2. Campionato provinciale — Carla Neri – Dario Conti · unfinished · 2026"
    )
    assert len(listed.splitlines()) == 4 and "cannot be read — line 31" in listed
    second = subprocess.run([*command, "--game", "2"], capture_output=True, text=True)
    assert second.returncode == 0 and second.stdout.endswith("\n22-18 11-15 18x11 8x15\n")
    third = subprocess.run([*command, "--game", "3"], capture_output=True, text=True)
    assert third.returncode == 1 and "line 31: English checkers" in third.stderr
    none = subprocess.run([*command, "--game", "5"], capture_output=True, text=True)
    assert none.returncode == 2 and "holds 4 games" in none.stderr


# -- fuzzing -----------------------------------------------------------------------------

_PIECES = [
    "(", ")", "{", "}", ";", "$1", "$256", "!?", "??", "*", "1-0", "0-1", "2-0", "1/2-1/2", "x",
    "-", ":", "99", "0", "33", "\ufeff", "%", "[", "]", '"', "K", "W", "B", "\n", "\r\n", " ",
    '[FEN "W:W1:B2"]', '[FEN "B:WK9,c5:B1-4"]', '[SetUp "1"]', '[GameType "20"]',
    '[GameType "25"]', '[GameType "Lupo e pecore"]', '[GameType "Mangia la dama"]',
    '[Variant "mulino:ceylonese"]', '[Result "0-1"]', "c3-d4", "e5:c3", "22x15x6", "12...",
    "{wolf1}", "{@18}", "h22", "resign1", "draw", "a1-a4xd7", "\x00", "\x85", "é", "²", "٣",
    "9" * 5000, '[Players "3"]', '[Option "huffing=on"]', "first1", "wolf2",
]  # fmt: skip


def mutated(rng: random.Random, data: bytes) -> bytes:
    """``data`` changed one to four times: a piece of PDN (or of trouble) put in, a span cut,
    doubled or moved, a byte flipped, the tail cut off, the text re-encoded."""
    for _ in range(rng.randint(1, 4)):
        size = len(data)
        at, span = rng.randrange(size + 1), rng.randint(1, 40)
        kind = rng.randrange(7)
        if kind == 0:
            piece = rng.choice(_PIECES).encode(rng.choice(["utf-8", "utf-8", "utf-16-le"]))
            data = data[:at] + piece + data[at:]
        elif kind == 1:
            data = data[:at] + data[at + span :]
        elif kind == 2:
            data = data[:at] + data[at : at + span] * rng.randint(2, 5) + data[at:]
        elif kind == 3 and size:
            where = rng.randrange(size)
            data = data[:where] + bytes([rng.randrange(256)]) + data[where + 1 :]
        elif kind == 4:
            data = data[: rng.randrange(size + 1)]
        elif kind == 5:
            other = rng.randrange(size + 1)
            chunk = data[at : at + span]
            rest = data[:at] + data[at + span :]
            data = rest[:other] + chunk + rest[other:]
        else:
            with contextlib.suppress(UnicodeDecodeError):
                data = data.decode("utf-8").encode(rng.choice(["latin-1", "cp1252"]), "replace")
    return data


def _fuzz(count: int, seed: int) -> int:
    """Read ``count`` variations of the corpus: each is read or refused, never a crash, and
    one that is read is exported as what reads back the same; returns how many were read."""
    files = sorted(CORPUS.iterdir())
    originals = [path.read_bytes() for path in files]
    rng = random.Random(seed)
    read = 0
    for number in range(count):
        data = mutated(rng, rng.choice(originals))
        try:
            text = decode_text(data)
        except ValueError:
            continue
        for listed in games_in(text):  # every game of it read or refused, never a crash
            listed.lines()
        try:
            imported = read_game(text)
            player_names(text, 2)
        except RecordImportError:
            continue
        except Exception as error:  # a crash: say which variation
            raise AssertionError(f"variation {number} (seed {seed}) crashed: {data!r}") from error
        read += 1
        # and what was read exports as what reads back the same
        record = imported.record
        match = Match(record, [Seat()] * record.variant.players, 0)
        again = read_game(export_text(match, None, imported.marks))
        assert again.record == record, f"variation {number} (seed {seed}): {data!r}"
        if record.variant.name in PDN_GAME_TYPE:
            assert again.marks == imported.marks, f"variation {number} (seed {seed}): {data!r}"
    return read


def test_a_quick_share_of_fuzzed_variations_reads_or_is_refused() -> None:
    assert _fuzz(1000, seed=29) > 100


@pytest.mark.slow
def test_ten_thousand_fuzzed_variations_read_or_are_refused() -> None:
    assert _fuzz(10_000, seed=2026) > 1000


@pytest.mark.parametrize(
    "text",
    [
        '[GameType "Dama"]\n\n1. 22-18 2\u00b9-18 *',
        '[GameType "Dama"]\n\n1. 22-18 resign\u00b9 *',
        '[GameType "Dama"]\n\n1. 22-18 22-' + "1" * 5000 + " *",
        '[Variant "numeri"]\n\nfirst\u00b2',
        '[Variant "numeri"]\n[Players "' + "2" * 5000 + '"]\n\nfirst1',
    ],
)
def test_what_fuzzing_found_crashing_the_engine_is_refused(text: str) -> None:
    """Superscript digits and numbers longer than int() reads raised ValueError from the
    engine's parse_action (and the record's Players) instead of a refusal that says why."""
    with pytest.raises(RecordImportError):
        read_game(text)


def test_every_game_refuses_superscripts_and_endless_numbers_by_its_notation() -> None:
    from game.rules import RulesError, every_setup, start

    words = [
        "2\u00b9-18",
        "resign\u00b9",
        "first\u00b2",
        "wolf\u00b2",
        "1" * 5000,
        "1-" + "2" * 5000,
    ]
    for setup in every_setup():
        for word in words:
            with pytest.raises(RulesError):
                start(setup).parse_action(word)


def test_a_nag_of_any_length_is_kept() -> None:
    nag = "$" + "1" * 5000
    assert read_game(f'[GameType "Dama"]\n\n1. 22-18 {nag} *').marks == {0: nag}
