"""The translation catalogue: complete for every text in the code, compiled, and safe."""

from __future__ import annotations

import ast
import logging
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from game import i18n
from game.names import reason_text, result_headline, variant_title
from game.rules import VARIANTS, Outcome, Result

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "assets" / "locale"
TRANSLATED = [code for code in i18n.LANGUAGES if code != i18n.DEFAULT_LANGUAGE]
REASONS = [
    "connected",
    "both_blocked",
    "end_spaces",
    "no_moves",
    "no_pieces",
    "breakthrough",
    "pieces",
    "repetition",
    "quiet_plies",
    "agreement",
    "resignation",
]


def texts_in_code() -> set[str]:
    """Every literal passed to ``_()`` anywhere under ``game/``."""
    found = set()
    for path in (ROOT / "game").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "_"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                found.add(node.args[0].value)
    return found


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    i18n.set_language("en")


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_text_in_the_code_is_translated(language: str) -> None:
    with (LOCALE / language / "LC_MESSAGES" / "tavolo.po").open("rb") as source:
        catalog = read_po(source)
    translated = {m.id for m in catalog if m.id and m.string and not m.fuzzy}
    missing = texts_in_code() - translated
    assert not missing, f"untranslated in {language}: {sorted(missing)}"


def test_compiled_catalogues_are_up_to_date() -> None:
    from tools.build_catalogues import main

    assert main(["--check"]) == 0, "run: python tools/build_catalogues.py"


def test_switching_language_translates_names_and_results() -> None:
    assert i18n.set_language("it") == "it"
    assert variant_title("ausgeblockt") == "Bloccato e pelato!"
    assert reason_text("breakthrough") == "Il lupo ha superato le pecore."
    assert i18n.set_language("de") == "de"
    assert variant_title("mulino:classic") == "Mühle"
    result = Result((Outcome.WIN, Outcome.LOSS), "no_moves")
    assert result_headline(result, ["Anna", "Ben"]) == "Sieger: Anna"
    i18n.set_language("en")
    assert result_headline(Result((Outcome.WIN,) * 2, "end_spaces"), ["A", "B"]) == (
        "Shared win: A, B"
    )


def test_every_variant_and_reason_has_a_name() -> None:
    for language in i18n.LANGUAGES:
        i18n.set_language(language)
        assert all(variant_title(name) for name in VARIANTS)
        assert all(reason_text(reason) for reason in REASONS)


def test_unknown_language_or_missing_catalogue_falls_back_to_english(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    with caplog.at_level(logging.WARNING):
        assert i18n.set_language("xx") == "en"
    assert "unknown language" in caplog.text
    monkeypatch.setattr(i18n, "catalogue_path", lambda language: "locale/none/none.mo")
    with caplog.at_level(logging.WARNING):
        assert i18n.set_language("it") == "en"
    assert "no Italiano catalogue" in caplog.text
    assert variant_title("dama:classic") == "Dama"


def test_history_lines_tell_the_dice_games_in_words() -> None:
    from game.names import action_text
    from game.rules import new_game

    sheet = new_game("ausgeblockt", first=1)
    assert action_text(sheet, sheet.parse_action("=1123C")) == "rolls 1 1 2 3 cow"
    numeri = new_game("numeri", first=1)
    assert action_text(numeri, numeri.parse_action("d*")) == "rolls ★"
    dama = new_game("dama")
    assert action_text(dama, dama.parse_action("22-18")) == "22-18"
    i18n.set_language("de")
    assert action_text(sheet, sheet.parse_action("=CCCCC")) == ("würfelt Kuh Kuh Kuh Kuh Kuh")
