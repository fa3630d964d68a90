"""Names and sentences players see for the engine's codes: variants, sides, results.

The rules engine speaks in codes (``dama:lupo``, ``no_moves``); this module turns them into
text in the player's language through the catalogue.
"""

from __future__ import annotations

import re

from game.i18n import _, ngettext
from game.rules import VARIANTS, Outcome, Reason, Result, State
from game.rules.ausgeblockt import AusgeblocktState
from game.rules.dama import DamaState
from game.rules.lupo import LupoState
from game.rules.mulino import MulinoState
from game.rules.numeri import NumeriState


def variant_title(name: str) -> str:
    """A game's proper name, the same in every language: "Mangia la dama", "Mulino"."""
    return VARIANTS[name].title


def variant_subtitle(name: str) -> str:
    """A few words in the player's language on what the game is: "losing draughts"."""
    return _(VARIANTS[name].subtitle)


def reason_text(reason: Reason) -> str:
    """Why a game ended, as one short sentence."""
    reasons = {
        Reason.CONNECTED: _("The three start cells are joined."),
        Reason.BOTH_BLOCKED: _("Both players are blocked."),
        Reason.END_SPACES: _("The three yellow end spaces are taken."),
        Reason.NO_MOVES: _("No legal move was left."),
        Reason.NO_PIECES: _("No piece was left."),
        Reason.BREAKTHROUGH: _("The wolf broke through."),
        Reason.PIECES: _("Fewer than three pieces were left."),
        Reason.REPETITION: _("The same position came up a third time."),
        Reason.QUIET_PLIES: _("Too many moves went by without a capture or progress."),
        Reason.AGREEMENT: _("The players agreed a draw."),
        Reason.RESIGNATION: _("A player resigned."),
    }
    return reasons[reason]


def review_reason(reason: str, move: str, pieces: int = 0) -> str:
    """Why a move of a reviewed match lost (:data:`game.ai.review.REASONS`), in a line; ""
    for no reason or one this version does not know."""
    if reason == "loses_material":
        return ngettext(
            "loses {count} piece after {move}", "loses {count} pieces after {move}", pieces
        ).format(count=pieces, move=move)
    if reason == "costs_kings":
        return ngettext(
            "costs {count} king after {move}", "costs {count} kings after {move}", pieces
        ).format(count=pieces, move=move)
    texts = {
        "allows_capture": _("allows {move}"),
        "allows_mill": _("lets a mill close: {move}"),
        "misses_win": _("misses a forced win with {move}"),
        "loses": _("walks into a forced loss"),
        "won_to_drawn": _("turns an endgame the tables call won into a draw ({move} wins)"),
        "won_to_lost": _("turns an endgame the tables call won into a loss ({move} wins)"),
        "drawn_to_lost": _(
            "turns an endgame the tables call drawn into a loss ({move} holds the draw)"
        ),
    }
    return texts[reason].format(move=move) if reason in texts else ""


def result_headline(result: Result, seat_names: list[str]) -> str:
    """One line for the results screen: who won, or that it is a draw."""
    winners = result.winners()
    if not winners:
        return _("Draw")
    if len(winners) == 1:
        return _("Winner: {name}").format(name=seat_names[winners[0]])
    return _("Shared win: {names}").format(names=", ".join(seat_names[w] for w in winners))


def outcome_for(result: Result, sides: list[str], people: list[int], names: list[str]) -> str:
    """A finished match's result as the people at this machine read it: "You won as
    White" when one person played (against the computer or the LAN), who won by name and
    side when several did, and who resigned; :func:`result_headline` when nobody here did.
    ``sides`` are the seats' sides, ``names`` the names the people gave ("" for none)."""
    outcomes = result.outcomes
    resigned = ""
    if result.reason is Reason.RESIGNATION and len(outcomes) == 2 and result.winners():
        loser = 1 - result.winners()[0]
        resigned = _("you resigned") if people == [loser] else _("{side} resigned").format(
            side=sides[loser])  # fmt: skip
    if len(people) == 1:
        you, side = people[0], sides[people[0]]
        text = {
            Outcome.WIN: _("You won as {side}"),
            Outcome.LOSS: _("You lost as {side}"),
            Outcome.DRAW: _("Draw: you played {side}"),
        }[outcomes[you]].format(side=side)
    elif people:
        who = [f"{names[s]} ({sides[s]})" if names[s] else sides[s] for s in range(len(sides))]
        text = result_headline(result, who)
    else:
        text = result_headline(result, sides)
    return f"{text} · {resigned}" if resigned else text


def seat_names(state: State) -> list[str]:
    """What each seat is called in this game: its colour, its mark or its role."""
    state = state.last_position
    if isinstance(state, AusgeblocktState):
        return [_("Crosses"), _("Circles")]
    if isinstance(state, NumeriState):
        colours = [_("Red"), _("Blue"), _("Green"), _("Yellow")]
        return colours[: state.players]
    if isinstance(state, LupoState):
        wolf = state.wolf_seat
        if wolf is None:
            return [_("Player 1"), _("Player 2")]
        return [_("Wolf") if seat == wolf else _("Sheep") for seat in range(2)]
    return [_("White"), _("Black")]


def action_text(state: State, action: int) -> str:
    """An action as every list of moves tells it (the match panel, replay): the dice games
    and lots in words, the board games in the notation their boards show."""
    notation = state.action_to_str(action)
    if notation == "draw":
        return _("draw agreed")
    if notation.startswith("resign"):
        return _("resigns")
    if notation.startswith("first"):
        return _("{name} begins").format(name=seat_names(state)[action])
    if notation.startswith("wolf"):
        return _("{name} plays the wolf").format(name=_("Player {n}").format(n=action + 1))
    if notation == "pass":
        return _("passes")
    if isinstance(state, AusgeblocktState):
        return _sheet_text(notation)
    if isinstance(state, NumeriState):
        if notation.startswith("d"):
            return _("rolls {face}").format(face="★" if notation == "d*" else notation[1:])
        if "+" in notation:
            first, second = notation.split("+")
            return _("moves pawns {first} and {second}").format(first=first, second=second)
        return _("moves pawn {n}").format(n=notation)
    return notation


def hint_text(state: State, action: int) -> str:
    """What to do, as a coach says it: "Keep 2, 2 and 2; roll 3 and 5 again", "Capture
    18x11", "Place a piece on d2" — for a hint or a better move, never the log's words."""
    notation = state.action_to_str(action)
    checkers = isinstance(state, DamaState | LupoState)
    if notation == "pass":
        return _("Pass: there is nothing to do")
    if notation.startswith("resign"):
        return _("Resign")
    if isinstance(state, AusgeblocktState) and notation.startswith("r"):
        rolled = [FACE_WORDS.get(f, f) for f in notation[1:]]
        kept = _faces(state.dice)
        for face in rolled:
            kept.remove(face)
        if not kept:
            return _("Roll all the dice again")
        return _("Keep {kept}; roll {rolled} again").format(
            kept=_listed(kept), rolled=_listed(rolled)
        )
    if isinstance(state, AusgeblocktState):
        if notation == "stop":
            return _("Stop and keep this throw")
        if not notation.startswith(("=", "first", "pass")):
            return _("Mark {cell}").format(cell=notation)
    if isinstance(state, NumeriState) and not notation.startswith(("d", "first")):
        if "+" in notation:
            first, second = notation.split("+")
            return _("Move pawns {first} and {second}").format(first=first, second=second)
        return _("Move pawn {n}").format(n=notation)
    if checkers and re.fullmatch(r"\d+([-x]\d+)+", notation):
        if "x" in notation:
            return _("Capture {move}").format(move=notation)
        return _("Move {move}").format(move=notation)
    if checkers and notation.startswith("@"):
        return _("Place the wolf on {square}").format(square=notation[1:])
    if isinstance(state, MulinoState):
        if re.fullmatch(r"[a-g][1-7]", notation):
            return _("Place a piece on {point}").format(point=notation)
        if re.fullmatch(r"[a-g][1-7]-[a-g][1-7]", notation):
            start, end = notation.split("-")
            return _("Move from {start} to {end}").format(start=start, end=end)
        if re.fullmatch(r"x[a-g][1-7]", notation):
            return _("Remove the piece on {point}").format(point=notation[1:])
    return action_text(state, action)


FACE_WORDS = {"C": "cow"}


def _faces(dice: tuple[int, ...]) -> list[str]:
    from game.rules.ausgeblockt import FACE_LETTERS

    return [FACE_WORDS.get(FACE_LETTERS[f], FACE_LETTERS[f]) for f in sorted(dice)]


def _listed(faces: list[str]) -> str:
    """``["2", "2", "cow"]`` as "2, 2 and cow", the cow in the player's language."""
    words = [_("cow") if face == "cow" else face for face in sorted(faces, key=_face_order)]
    if len(words) == 1:
        return words[0]
    return _("{some} and {last}").format(some=", ".join(words[:-1]), last=words[-1])


def _face_order(face: str) -> tuple[int, str]:
    return (1, face) if face == "cow" else (0, face)


def _sheet_text(notation: str) -> str:
    if notation.startswith(("=", "r")):
        faces = " ".join(_("cow") if f == "C" else f for f in notation[1:])
        if notation[0] == "=":
            return _("throws {faces}").format(faces=faces)
        return _("rolls {faces} again").format(faces=faces)
    if notation == "stop":
        return _("stops rolling")
    return _("marks {cell}").format(cell=notation)


def percent(chance: float) -> str:
    """A probability as the players read it: whole per cent, never a certain 0 or 100 that
    is not one."""
    if 0 < chance < 0.005:
        text = "<1"
    elif 0.995 <= chance < 1:
        text = ">99"
    else:
        text = str(round(chance * 100))
    return _("{percent}%").format(percent=text)
