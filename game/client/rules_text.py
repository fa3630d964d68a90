"""The rules of each game as players read them on the rules screen, in their language.
(The binding text is RULES.md; these are its short, friendly form, written for the options
of the match at hand.)"""

from __future__ import annotations

from collections.abc import Callable

from game.i18n import _
from game.rules import Rule, Variant


def rules_text(chosen: Variant, with_options: bool = False) -> str:
    """The rules of ``chosen``, as it was set up, in paragraphs separated by newlines.

    ``with_options`` adds a line on each rule option the setup offers, for the rules index,
    where no match has chosen them yet (``chosen`` then carries the defaults).
    """
    paragraphs = _GAMES[chosen.name](chosen)
    if with_options and "huffing" in dict(chosen.options):
        paragraphs.append(
            _(
                "When setting up the match you can switch on huffing: capturing is then not "
                "compulsory, but a piece that could have captured and did not may be removed "
                "by the opponent."
            )
        )
    return "\n".join(paragraphs)


def _who_begins() -> str:
    return _("Who begins is drawn by lot or chosen when setting up the match.")


def _ausgeblockt(chosen: Variant) -> list[str]:
    return [
        _(
            "Crosses try to join their three start crosses, circles their three start "
            "circles, with one unbroken chain of their own cells. Cells touch across sides "
            "and corners."
        ),
        _(
            "Your turn starts with a roll of all five dice. Tap a die to keep it; the Roll "
            "button rolls the dice not kept (up to two more times); Stop ends rolling."
        ),
        _(
            "Two cows or exactly three equal numbers let you mark one free cell with that "
            "symbol. Four or five of a kind let you mark and play again at once — but the "
            "next mark must touch the one just made."
        ),
        _("Blocking is allowed. When neither player can still connect, the game is a draw."),
        _who_begins(),
    ]


def _numeri(chosen: Variant) -> list[str]:
    return [
        _(
            "Roll the die and move the pawn with that number to the next free space ahead; "
            "occupied spaces are skipped. The star moves any one of your pawns."
        ),
        _(
            "Once any pawn has passed the red barrier, a 3, 4 or 5 may be split between two "
            "pawns: 1+2, 1+3, 1+4 or 2+3, in either order."
        ),
        _("A new row of three or more of your pawns side by side earns another roll."),
        _(
            "The game ends when the three yellow spaces are taken. Each pawn scores its "
            "number times its space; a pawn still waiting scores its number times −5."
        ),
        _(
            "The highest total wins; equal totals share the win. Who begins is drawn by lot "
            "or chosen when setting up the match (the leaflet lets the youngest begin)."
        ),
    ]


def _dama(chosen: Variant) -> list[str]:
    """Dama and Mangia la dama: the same moves, opposite results."""
    huffing = dict(chosen.options).get("huffing") is True
    moves = [
        _(
            "Men move one square diagonally forward. A man captures by jumping an adjacent "
            "piece, man or king, onto the empty square right behind it, and keeps jumping "
            "while it can; men never capture backwards."
        ),
        _(
            "Huffing is on: you need not capture. But if you could have captured and did not, "
            "your opponent may first remove one of your pieces that could have captured, "
            "then make their move."
        )
        if huffing
        else _("Capturing is compulsory; when several captures are possible, you choose any."),
        _(
            "A man reaching the far row becomes a king: it moves any distance diagonally, "
            "forwards or backwards, and captures from a distance, landing right behind the "
            "piece it takes."
        ),
    ]
    draws_and_origin = [
        _(
            "The same position for the third time, or 80 moves in a row, counting both "
            "players' moves, without a capture or a man moving, is a draw."
        ),
        _(
            "These are the leaflet's rules, not Italian dama: kings fly, men may capture "
            "kings, any capture may be chosen."
        ),
    ]
    if chosen.has(Rule.MISERE):
        turned = _(
            "Mangia la dama: the same moves, but the result is turned round: a player who, at "
            "their turn, has no pieces left or no legal move wins."
        )
        return [turned, *moves, *draws_and_origin]
    loses = _("A player who, at their turn, cannot move or has no pieces left, loses.")
    return [*moves, loses, *draws_and_origin]


def _lupo(chosen: Variant) -> list[str]:
    return [
        _(
            "Lupo e pecore: four sheep step diagonally forward only; the wolf steps one "
            "square diagonally, forwards or backwards. Nobody captures."
        ),
        _(
            "The sheep start on the four dark squares of the first row. The wolf's side "
            "places the wolf on any free dark square; then the sheep move first, one side "
            "after the other."
        ),
        _(
            "The wolf wins once it has got past every sheep. Sheep that cannot move lose: "
            "the wolf wins. The sheep win by trapping the wolf so that it cannot move."
        ),
        _("Who plays the wolf is drawn by lot or chosen when setting up the match."),
    ]


def _mulino(chosen: Variant) -> list[str]:
    variant_lines = {
        "mulino:misto": [
            _(
                "Misto: while you still have pieces in hand, each turn you may place one or "
                "move one along a line; no flying while you still have pieces in hand."
            )
        ],
        "mulino:ceylonese": [
            _(
                "Ceylonese: a mill made while pieces are still being placed removes nothing; "
                "instead you may place one more piece, or move one more if your hand is "
                "empty. A mill made once every piece is placed removes a piece and gives one "
                "more move."
            ),
            _(
                "Every extra placement or move may be declined, and one that makes a mill "
                "earns another. A player whose hand is empty waits while the other still "
                "places."
            ),
        ],
    }
    return [
        *variant_lines.get(chosen.name, []),
        _(
            "Each player places nine pieces, one at a time, then moves them along the lines "
            "to a free neighbouring point. With three pieces left, a player may fly to any "
            "free point."
        ),
        _(
            "Three in a row along a line is a mill: remove one opponent piece that is not in "
            "a mill; if every opponent piece is in a mill, any one may be removed."
        ),
        _("A player left with two pieces, or unable to move, loses."),
        _(
            "The same position for the third time, or 100 moves in a row, counting both "
            "players' moves, without a removal once every piece is placed, is a draw; a mill "
            "closed with the 100th move still removes a piece."
        ),
    ]


_GAMES: dict[str, Callable[[Variant], list[str]]] = {
    "ausgeblockt": _ausgeblockt,
    "numeri": _numeri,
    "dama:classic": _dama,
    "dama:mangia": _dama,
    "dama:lupo": _lupo,
    "mulino:classic": _mulino,
    "mulino:misto": _mulino,
    "mulino:ceylonese": _mulino,
}
