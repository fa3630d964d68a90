"""Move lists for keeping and sharing: PDN for Dama games, records for the others."""

from __future__ import annotations

from game.rules import variant
from game.session.export import export_text
from game.session.match import Match
from game.session.seats import Seat


def played(name: str, moves: str, options: dict | None = None) -> Match:
    match = Match.new(variant(name, options=options), [Seat(), Seat()], seed=1)
    for text in moves.split():
        match.play(match.state.parse_action(text))
    return match


def test_dama_exports_pdn_with_numbered_moves_and_result() -> None:
    match = played("dama:classic", "22-18 11-15 18x11 8x15 resign1")
    text = export_text(match, when=0)
    assert text.startswith('[Event "Tavolo"]\n[Date "1970.01.01"]')
    assert '[Result "0-1"]' in text and '[Option "huffing=false"]' in text
    assert text.rstrip().endswith("1. 22-18 11-15 2. 18x11 8x15 0-1")


def test_lupo_keeps_lot_and_placing_as_comments() -> None:
    match = played("dama:lupo", "wolf2 @18 29-25 resign1")
    text = export_text(match, when=0)
    assert "{wolf2} {@18} 1. 29-25 0-1" in text


def test_other_games_export_their_record_and_result() -> None:
    match = played("mulino:classic", "a1 g7 draw")
    text = export_text(match)
    assert text.startswith('[Variant "mulino:classic"]') and "a1 g7 draw" in text
    assert text.endswith("[agreement]\n")
