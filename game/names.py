"""Names and sentences players see for the engine's codes: variants, sides, results.

The rules engine speaks in codes (``dama:lupo``, ``no_moves``); this module turns them into
text in the player's language through the catalogue.
"""

from __future__ import annotations

from game.i18n import _
from game.rules import Result, State


def variant_title(name: str) -> str:
    titles = {
        "ausgeblockt": _("Ausgeblockt"),
        "numeri": _("Numeri"),
        "dama:classic": _("Dama"),
        "dama:mangia": _("Mangia la dama"),
        "dama:lupo": _("Lupo e pecore"),
        "mulino:classic": _("Mulino"),
        "mulino:misto": _("Mulino misto"),
        "mulino:ceylonese": _("Mulino ceylonese"),
    }
    return titles[name]


def reason_text(reason: str) -> str:
    """Why a game ended, as one short sentence."""
    reasons = {
        "connected": _("The three start cells are joined."),
        "both_blocked": _("Both players are blocked."),
        "end_spaces": _("The three yellow end spaces are taken."),
        "no_moves": _("No legal move was left."),
        "no_pieces": _("No piece was left."),
        "breakthrough": _("The wolf broke through."),
        "pieces": _("Fewer than three pieces were left."),
        "repetition": _("The same position came up a third time."),
        "quiet_plies": _("Too many moves went by without a capture or progress."),
        "agreement": _("The players agreed a draw."),
        "resignation": _("A player resigned."),
    }
    return reasons[reason]


def result_headline(result: Result, seat_names: list[str]) -> str:
    """One line for the results screen: who won, or that it is a draw."""
    winners = result.winners()
    if not winners:
        return _("Draw")
    if len(winners) == 1:
        return _("Winner: {name}").format(name=seat_names[winners[0]])
    return _("Shared win: {names}").format(names=", ".join(seat_names[w] for w in winners))


def seat_names(state: State) -> list[str]:
    """What each seat is called in this game: its colour, its mark or its role."""
    state = getattr(state, "before", state)  # a concluded game keeps the last position
    game = state.variant.name
    if game == "ausgeblockt":
        return [_("Crosses"), _("Circles")]
    if game == "numeri":
        colours = [_("Red"), _("Blue"), _("Green"), _("Yellow")]
        return colours[: state.players]
    if game == "dama:lupo":
        wolf = getattr(state, "wolf_seat", None)
        if wolf is None:
            return [_("Player 1"), _("Player 2")]
        return [_("Wolf") if seat == wolf else _("Sheep") for seat in range(2)]
    return [_("White"), _("Black")]


def action_text(state: State, action: int) -> str:
    """An action as the history panel tells it: the dice games in words, the board games in
    their usual notation."""
    notation = state.action_to_str(action)
    game = state.variant.game
    if notation == "draw":
        return _("draw agreed")
    if notation.startswith("resign"):
        return _("resigns")
    if game == "ausgeblockt":
        if notation.startswith(("=", "r")):
            faces = " ".join(_("cow") if f == "C" else f for f in notation[1:])
            return (_("rolls {faces}") if notation[0] == "=" else _("rolls again {faces}")).format(
                faces=faces
            )
        if notation in ("stop", "pass"):
            return _("stops rolling") if notation == "stop" else _("passes")
        if notation.startswith("first"):
            return _("begins")
        return _("marks {cell}").format(cell=notation)
    if game == "numeri":
        if notation.startswith("first"):
            return _("begins")
        if notation.startswith("d"):
            return _("rolls {face}").format(face="★" if notation == "d*" else notation[1:])
        if "+" in notation:
            first, second = notation.split("+")
            return _("moves pawns {first} and {second}").format(first=first, second=second)
        return _("moves pawn {n}").format(n=notation)
    return notation
