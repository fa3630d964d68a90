"""The board data under assets/: equal to RULES.md, and bad data refused with a reason."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from game.resources import MissingAssetError, asset_text
from game.rules import RulesError
from game.rules.boards import SYMBOL_LETTERS, Sheet, Track, default_sheet, default_track

RULES_MD = Path(__file__).resolve().parent.parent.parent / "shared" / "RULES.md"
needs_rules = pytest.mark.skipif(  # CI has ../shared beside the clone: there, absent fails
    not RULES_MD.exists() and not os.environ.get("CI"), reason="../shared/RULES.md is absent"
)


@needs_rules
def test_sheet_asset_is_the_sheet_of_rules_md() -> None:
    rows = re.findall(r"^\s+([1-7])((?:\s+[1-5CXO]){7})\s*$", RULES_MD.read_text(), re.M)
    assert len(rows) == 7
    text = "\n".join(f"{row} {cells}" for row, cells in rows)
    assert Sheet.parse(text) == default_sheet()
    assert set(default_sheet().symbols) == set(SYMBOL_LETTERS.values())


@needs_rules
def test_track_asset_is_the_track_of_rules_md() -> None:
    text = RULES_MD.read_text()
    values = []
    for line in re.findall(r"^value:(.*)$", text, re.M):
        values += [0 if v == "·" else int(v) for v in line.split()]
    assert list(default_track().values) == values
    barriers = re.findall(r"(\d) players: between (?:spaces )?(\d+)", text)
    assert len(barriers) == 3
    for players, after in barriers:
        assert default_track().barrier(int(players)) == int(after)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("7 2 X 3 2 O 3", "row number and 7 symbols"),
        ("9 2 X 3 2 O 3 2", "out of place"),
        ("7 2 X 3 2 O 3 Q", "unknown symbol"),
        ("7 2 X 3 2 O 3 2", "rows 1 to 7"),
    ],
)
def test_bad_sheets_are_refused_with_a_reason(text: str, reason: str) -> None:
    with pytest.raises(RulesError, match=reason):
        Sheet.parse(text)


def test_bad_tracks_are_refused_with_a_reason() -> None:
    with pytest.raises(RulesError, match="track line 1"):
        Track.parse("0 minus-three")
    with pytest.raises(RulesError, match="barrier"):
        Track.parse("\n".join(f"{i} 1" for i in range(37)))


def test_a_missing_asset_says_which_and_what_to_do() -> None:
    with pytest.raises(MissingAssetError, match=r"rules/nothing\.txt.*reinstall"):
        asset_text("rules/nothing.txt")
