"""The tournament's page: standings and cross table as HTML that stands alone, in the
player's language, a player's typed name never read as markup."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from game.i18n import set_language
from game.rules import variant
from game.session.tournament_export import tournament_html
from game.tournament import Format, Player, Result, Tournament

R = Result


@pytest.fixture(autouse=True)
def english():
    yield
    set_language("en")


class _Cells(HTMLParser):
    """The page's table as rows of cell texts, and every tag met."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.tags: list[str] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs) -> None:
        self.tags.append(tag)
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append("".join(self._cell))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def _round_robin(names: list[str]) -> Tournament:
    """Berger 4: 1-4 2-3 / 4-3 1-2 / 2-4 3-1 — p1 beats p4, p2 beats p3, the rest drawn
    but p4 beats p2."""
    people = [Player(s, f"p{s}", name) for s, name in enumerate(names, start=1)]
    t = Tournament.create(variant("mulino", 2), Format.ROUND_ROBIN, people)
    results = [R.WHITE_WINS, R.WHITE_WINS, R.DRAW, R.DRAW, R.BLACK_WINS, R.DRAW]
    for number in (1, 2, 3):
        t = t.pair_next_round()
        for board in range(2):
            t = t.record(number, board, results.pop(0))
    return t


def _parsed(page: str) -> _Cells:
    cells = _Cells()
    cells.feed(page)
    return cells


def test_the_page_holds_the_standings_and_every_result_in_their_order() -> None:
    t = _round_robin(["Anna", "Bruno", "Carla", "Dario"])
    page = tournament_html(t, "Club night", "Mulino")
    rows = _parsed(page).rows
    assert rows[0] == ["Rank", "Player", "1", "2", "3", "4", "Points", "Sonneborn–Berger"]
    assert rows[1:] == [
        ["1", "1. Anna", "×", "1", "½", "½", "2", "2¾"],
        ["2", "2. Dario", "0", "×", "1", "½", "1½", "2"],
        ["3", "3. Bruno", "½", "0", "×", "1", "1½", "2"],
        ["4", "4. Carla", "½", "½", "0", "×", "1", "1¾"],
    ]
    assert page.startswith("<!DOCTYPE html>") and "<title>Club night · Mulino</title>" in page


def test_a_name_typed_as_markup_is_shown_as_typed_and_runs_nothing() -> None:
    evil = '<script>alert("x")</script><img src=x onerror=alert(1)>'
    t = _round_robin([evil, "Bruno & Co", "Carla", "Dario"])
    page = tournament_html(t, "</title><script>1</script>", "Mulino")
    cells = _parsed(page)
    assert "script" not in cells.tags and "img" not in cells.tags
    assert any(row[1] == f"1. {evil}" for row in cells.rows[1:])
    assert any(row[1].endswith("Bruno & Co") for row in cells.rows[1:])
    assert set(cells.tags) <= {"html", "head", "meta", "title", "style", "body", "h1", "p",
                               "table", "thead", "tbody", "tr", "th", "td"}  # fmt: skip


def test_the_page_is_in_the_players_language_with_the_swiss_tie_breaks() -> None:
    people = [Player(s, f"p{s}", f"P{s}") for s in range(1, 5)]
    t = Tournament.create(variant("mulino", 2), Format.SWISS, people).pair_next_round()
    t = t.record(1, 0, R.DRAW).record(1, 1, R.WHITE_WINS)
    set_language("it")
    head = _parsed(tournament_html(t, "Serata", "Mulino")).rows[0]
    assert head[:2] == ["Posizione", "Giocatore"] and head[-3:] == ["Punti", "Buchholz",
                                                                    "Buchholz meno 1"]  # fmt: skip
    assert '<html lang="it">' in tournament_html(t, "Serata", "Mulino")
    set_language("de")
    head = _parsed(tournament_html(t, "Abend", "Mühle")).rows[0]
    assert head[:2] == ["Rang", "Spieler"] and head[-1] == "Buchholz ohne 1"
