"""A tournament's standings and cross table as a page to print or to put on a club's site.

One HTML file that stands alone (its style inline, no script, nothing fetched), in the
player's language, every name escaped — a player's name is whatever that player typed.  The
same table for a spreadsheet is :func:`game.tournament.cross_table_csv`.
"""

from __future__ import annotations

from fractions import Fraction
from html import escape

from game.i18n import _, language
from game.tournament import TIE_BREAKS, Tournament

_STYLE = (
    "body{font-family:sans-serif;margin:2em}"
    "table{border-collapse:collapse}"
    "th,td{border:1px solid #999;padding:.3em .6em;text-align:center}"
    "td.name{text-align:left}"
    "td.self{background:#ddd}"
)


def _tie_break_words() -> dict[str, str]:
    """The tie-breaks' names as players read them (asked at each export: the language may
    have changed)."""
    return {
        "Sonneborn–Berger": _("Sonneborn–Berger"),
        "Buchholz": _("Buchholz"),
        "Buchholz cut 1": _("Buchholz cut 1"),
        "matches won": _("matches won"),
    }


_GLYPHS = {Fraction(1, 4): "¼", Fraction(1, 2): "½", Fraction(3, 4): "¾"}
"""Points are halves; a Sonneborn–Berger or Buchholz may be quarters."""


def _points(value: Fraction) -> str:
    whole, part = divmod(value, 1)
    if part == 0:
        return str(whole)
    glyph = _GLYPHS.get(part)
    if glyph is None:  # not met with halves and quarters; written out all the same
        return f"{float(value):g}"
    return f"{whole}{glyph}" if whole else glyph


def tournament_html(tournament: Tournament, title: str, game: str) -> str:
    """The page of ``tournament``: ``title`` (its name) and ``game`` (the game's name as
    players read it) at the top, then every player in the order of the standings with
    their points, tie-breaks and the results against each other player."""
    lines = tournament.standings()
    table = tournament.cross_table()
    words = _tie_break_words()
    breaks = [words[name] for name in TIE_BREAKS[tournament.format]]
    numbers = "".join(f"<th>{column}</th>" for column in range(1, len(lines) + 1))
    head = (
        f"<tr><th>{escape(_('Rank'))}</th><th>{escape(_('Player'))}</th>{numbers}"
        f"<th>{escape(_('Points'))}</th>"
        + "".join(f"<th>{escape(name)}</th>" for name in breaks)
        + "</tr>"
    )
    rows = []
    for number, (line, cells) in enumerate(zip(lines, table.cells, strict=True), start=1):
        results = "".join(
            f'<td class="self">{escape(cell)}</td>'
            if column == number
            else f"<td>{escape(cell)}</td>"
            for column, cell in enumerate(cells, start=1)
        )
        rows.append(
            f'<tr><td>{line.rank}</td><td class="name">{number}. {escape(line.player.name)}</td>'
            f"{results}<td>{_points(line.points)}</td>"
            + "".join(f"<td>{_points(value)}</td>" for value in line.tie_breaks)
            + "</tr>"
        )
    heading = escape(f"{title} · {game}")
    return (
        f'<!DOCTYPE html>\n<html lang="{language()}">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{heading}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
        f"<h1>{escape(title)}</h1>\n<p>{escape(game)}</p>\n"
        f"<table>\n<thead>{head}</thead>\n<tbody>\n" + "\n".join(rows) + "\n</tbody>\n</table>\n"
        "</body>\n</html>\n"
    )
