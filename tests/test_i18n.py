"""The translation catalogue: complete for every text in the code, compiled, and safe."""

from __future__ import annotations

import ast
import functools
import logging
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from game import i18n
from game.client.rules_text import rules_text
from game.names import reason_text, result_headline, variant_subtitle, variant_title
from game.rules import VARIANTS, Outcome, Reason, Result, every_setup, variant

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "assets" / "locale"
TRANSLATED = [code for code in i18n.LANGUAGES if code != i18n.DEFAULT_LANGUAGE]


@functools.cache
def texts_in_code() -> frozenset[str]:
    """Every literal passed to ``_()`` or ``i18n.in_language()`` anywhere under ``game/``, and
    the variants' subtitles (catalogue keys the client translates); read once for every
    language."""
    found = set()
    for path in (ROOT / "game").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name in ("_", "in_language") and isinstance(node.args[0], ast.Constant):
                found.add(node.args[0].value)
    return frozenset(found | {spec.subtitle for spec in VARIANTS.values()})


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
    check = subprocess.run(
        [sys.executable, ROOT / "tools" / "build_catalogues.py", "--check"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert check.returncode == 0, f"run: python tools/build_catalogues.py\n{check.stdout}"


def test_switching_language_translates_subtitles_and_results() -> None:
    assert i18n.set_language("it") == "it"
    assert variant_subtitle("ausgeblockt") == "Bloccato e pelato!"
    assert reason_text("breakthrough") == "Il lupo ha superato le pecore."
    assert i18n.set_language("de") == "de"
    assert variant_subtitle("mulino:classic") == "Mühle"
    assert variant_subtitle("dama:mangia") == "Schlagdame"
    result = Result((Outcome.WIN, Outcome.LOSS), "no_moves")
    assert result_headline(result, ["Anna", "Ben"]) == "Sieger: Anna"
    i18n.set_language("en")
    assert result_headline(Result((Outcome.WIN,) * 2, "end_spaces"), ["A", "B"]) == (
        "Shared win: A, B"
    )


def test_every_variant_and_reason_has_a_name() -> None:
    for language in i18n.LANGUAGES:
        i18n.set_language(language)
        assert all(variant_title(name) and variant_subtitle(name) for name in VARIANTS)
        assert all(reason_text(reason) for reason in Reason)


def test_games_keep_their_italian_names_in_every_language() -> None:
    names = [
        "Ausgeblockt",
        "Numeri",
        "Dama",
        "Mangia la dama",
        "Lupo e pecore",
        "Mulino",
        "Mulino misto",
        "Mulino ceylonese",
    ]
    for language in i18n.LANGUAGES:
        i18n.set_language(language)
        assert [variant_title(name) for name in VARIANTS] == names
    i18n.set_language("en")
    assert variant_subtitle("dama:mangia") == "losing draughts"


def test_dama_rules_follow_the_huffing_option() -> None:
    compulsory = rules_text(variant("dama:classic"))
    assert "Capturing is compulsory" in compulsory and "huffing" not in compulsory.lower()
    huffing = rules_text(variant("dama:classic", options={"huffing": True}))
    assert "compulsory" not in huffing and "Huffing is on: you need not capture" in huffing
    index = rules_text(variant("dama:classic"), with_options=True).split("\n")
    assert "Capturing is compulsory" in index[1] and "switch on huffing" in index[-1]
    assert "not Italian dama" in compulsory and "80 moves in a row, counting both" in compulsory


def test_rules_texts_say_what_rules_md_says() -> None:
    mangia = rules_text(variant("dama:mangia"))
    assert "no pieces left or no legal move wins" in mangia and "loses" not in mangia
    assert "Sheep that cannot move lose: the wolf wins" in rules_text(variant("dama:lupo"))
    assert "any one may be removed" in rules_text(variant("mulino:classic"))
    assert "a mill closed with the 100th move still removes" in rules_text(variant("mulino"))
    assert "no flying while you still have pieces" in rules_text(variant("mulino:misto"))
    ceylonese = rules_text(variant("mulino:ceylonese"))
    assert "move one more if your hand is empty" in ceylonese
    assert "Every extra placement or move may be declined" in ceylonese
    assert "the Roll button rolls the dice not kept" in rules_text(variant("ausgeblockt"))
    assert "equal totals share the win" in rules_text(variant("numeri"))


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_rules_paragraph_is_translated_for_every_setup(language: str) -> None:
    english = {chosen: rules_text(chosen, True).split("\n") for chosen in every_setup()}
    i18n.set_language(language)
    for chosen, paragraphs in english.items():
        shown = rules_text(chosen, True).split("\n")
        assert len(shown) == len(paragraphs), chosen.describe()
        assert not set(shown) & set(paragraphs), chosen.describe()


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
    assert action_text(sheet, sheet.parse_action("=1123C")) == "throws 1 1 2 3 cow"
    numeri = new_game("numeri", first=1)
    assert action_text(numeri, numeri.parse_action("d*")) == "rolls ★"
    dama = new_game("dama")
    assert action_text(dama, dama.parse_action("22-18")) == "22-18"
    i18n.set_language("de")
    assert action_text(sheet, sheet.parse_action("=CCCCC")) == "wirft Kuh Kuh Kuh Kuh Kuh"
