"""The rules of each game as players read them on the rules screen, in their language.
(The binding text is RULES.md; these are its short, friendly form.)"""

from __future__ import annotations

from game.i18n import _


def rules_text(name: str) -> str:
    """Paragraphs separated by newlines."""
    game = name.split(":")[0]
    paragraphs = {
        "ausgeblockt": [
            _(
                "Crosses try to join their three start crosses, circles their three start "
                "circles, with one unbroken chain of their own cells. Cells touch across sides "
                "and corners."
            ),
            _(
                "On your turn roll all five dice, then up to twice more roll again any dice you "
                "like (tap them), or stop."
            ),
            _(
                "Two cows or exactly three equal numbers let you mark one free cell with that "
                "symbol. Four or five of a kind let you mark and play again at once — but the "
                "next mark must touch the one just made."
            ),
            _("Blocking is allowed. When neither player can still connect, the game is a draw."),
        ],
        "numeri": [
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
        ],
        "dama": [
            _(
                "Men move one square diagonally forward. Capturing is compulsory: jump an "
                "adjacent piece onto the empty square behind it, and keep jumping while you "
                "can. Men never capture backwards."
            ),
            _(
                "A man reaching the far row becomes a king: it moves any distance diagonally, "
                "forwards or backwards, and captures from a distance, landing right behind the "
                "piece it takes."
            ),
            _(
                "A player who cannot move, or has no pieces left, loses. The same position three "
                "times, or 80 moves without a capture or a man moving, is a draw."
            ),
        ],
        "mulino": [
            _(
                "Each player places nine pieces, one at a time, then moves them along the lines "
                "to a free neighbouring point. With three pieces left, a player may fly to any "
                "free point."
            ),
            _(
                "Three in a row along a line is a mill: remove one opponent piece that is not in "
                "a mill."
            ),
            _("A player left with two pieces, or unable to move, loses."),
        ],
    }[game]
    variants = {
        "dama:mangia": _(
            "Mangia la dama: the same moves, but whoever loses all pieces or cannot move wins."
        ),
        "dama:lupo": _(
            "Lupo e pecore: four sheep step forward only; the wolf steps one square "
            "either way. The wolf wins by getting past every sheep; the sheep win "
            "by trapping the wolf."
        ),
        "mulino:misto": _(
            "Misto: while you still have pieces in hand you may place one or move one."
        ),
        "mulino:ceylonese": _(
            "Ceylonese: a mill made while placing gives one more placement "
            "instead of a removal; a mill made while moving removes a piece "
            "and gives one more move, which you may decline."
        ),
    }
    if name == "dama:lupo":
        return "\n".join(
            [
                variants[name],
                _(
                    "The sheep start on the four dark squares of the first row. The wolf's side "
                    "places the wolf on any free dark square; then the sheep move first, one side "
                    "after the other."
                ),
            ]
        )
    if name in variants:
        paragraphs = [variants[name], *paragraphs]
    return "\n".join(paragraphs)
