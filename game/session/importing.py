"""Games from elsewhere, to replay and review: a Dama game in PDN, a Mulino game as a move
list in the a1–g7 notation, or a Tavolo record (docs/NOTATION.md) — each read back into the
record it was exported from (``export.py``), or refused with the line and the reason.

**PDN** (Dama, Mangia la dama, Lupo e pecore): tag pairs (``[GameType "Dama"]``, Tavolo's
``[Option "…"]``; other tags are kept out of the way), then move numbers (``12.``, ``12...``),
moves (``22-18``, ``22x15x6``), comments in braces — Lupo's lot and placing, which PDN has no
moves for, are exported as the comments ``{wolf1}`` ``{@18}`` and read back as actions — and
the result (``1-0``, ``0-1``, ``1/2-1/2``, ``*``).  A result the moves do not reach is a
resignation (``1-0``: Black's) or a draw agreed.  A ``GameType`` that is not one of
Tavolo's (English checkers is 21, Italian draughts 22: other rules) is refused.

**Mulino move lists**: optional ``[Variant …]`` / ``[Option …]`` headers, then placings
(``d2``), moves (``a1-a4``) and removals (``xd7``, also written straight after the move that
closed the mill: ``a1-a4xd7``), with or without move numbers; ``#`` starts a comment.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from game.rules import ActionError, MatchRecord, RulesError, State, resign_action, variant
from game.session.export import PDN_GAME_TYPE

GAME_OF_PDN_TYPE = {game_type: name for name, game_type in PDN_GAME_TYPE.items()}
_RESULTS = {"1-0": 1, "0-1": 0, "1/2-1/2": None, "*": None}
"""PDN results, with the seat that resigned when the moves do not end the game."""
_MOVE_NUMBER = re.compile(r"^\d+\.(\.\.)?$")
_NUMBERED = re.compile(r"^(\d+\.(?:\.\.)?)(\S+)$")
_TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]$')
_MILL_CAPTURE = re.compile(r"^([a-g][1-7](?:-[a-g][1-7])?)x([a-g][1-7])$")


class RecordImportError(RulesError):
    """A record that cannot be read: ``line`` (1-based, 0 for the whole text) and why."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}" if line else reason)
        self.line = line
        self.reason = reason


@dataclass(frozen=True, slots=True)
class _Token:
    text: str
    line: int


MILLS = ("mulino:classic", "mulino:misto", "mulino:ceylonese")
"""The variants a Mulino move list without a ``[Variant …]`` header may be written in."""


def import_record(text: str, mill: str = "mulino:classic") -> MatchRecord:
    """The record of the game written in ``text``: PDN for the Dama games, a Tavolo record
    or a Mulino move list otherwise (read as ``mill`` when no header names the variant: see
    :func:`mills_that_fit`).  Raises :class:`RecordImportError`."""
    if not text.strip():
        raise RecordImportError(0, "the text is empty")
    tags = _tags(text)
    if "Variant" in tags:
        return _tavolo(text, tags)
    if _is_pdn(text, tags):
        return _pdn(text, tags)
    return _mill_list(text, tags, mill)


def mills_that_fit(text: str) -> list[str]:
    """For a Mulino move list that does not say its variant: the variants whose rules its
    moves follow (the screen asks which when more than one does); [] for any other text."""
    if not text.strip():
        return []
    tags = _tags(text)
    if "Variant" in tags or _is_pdn(text, tags):
        return []
    fits = []
    for name in MILLS:
        try:
            _mill_list(text, tags, name)
        except RecordImportError:
            continue
        fits.append(name)
    return fits


def player_names(text: str, players: int) -> list[str]:
    """The players' names a PDN gives (``[White "…"]``, ``[Black "…"]``), by seat; "" where
    it gives none.  White is the first seat, as on Tavolo's boards."""
    tags = _tags(text)
    names = [tags.get(tag, ("", 0))[0].strip()[:40] for tag in ("White", "Black")]
    return [names[seat] if seat < 2 and names[seat] != "?" else "" for seat in range(players)]


def _is_pdn(text: str, tags: dict) -> bool:
    return "GameType" in tags or bool(re.search(r"\d+-\d+|\d+x\d+", text))


def _tags(text: str) -> dict[str, tuple[str, int]]:
    """The tag pairs at the head of ``text``, with their lines."""
    tags: dict[str, tuple[str, int]] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line.startswith("["):
            if line:
                break
            continue
        found = _TAG.match(line)
        if found is None:
            raise RecordImportError(number, f'a tag must read [Name "value"], not {line!r}')
        key, value = found.groups()
        if key == "Option":
            value = f"{tags.get('Option', ('', 0))[0]}\n{value}".strip()
        tags[key] = (value, number)
    return tags


def _options(tags: dict[str, tuple[str, int]]) -> dict[str, str]:
    options = {}
    text, line = tags.get("Option", ("", 0))
    for option in filter(None, text.split("\n")):
        key, equals, value = option.partition("=")
        if not equals:
            raise RecordImportError(line, f"an option must read key=value, not {option!r}")
        options[key] = value
    return options


def _variant(name: str, players: int | None, tags: dict, line: int):
    try:
        return variant(name, players, _options(tags))
    except RecordImportError:
        raise
    except RulesError as error:
        if "option" in str(error) and "Option" in tags:
            line = tags["Option"][1]
        raise RecordImportError(line, str(error)) from error


def _tavolo(text: str, tags: dict) -> MatchRecord:
    name, line = tags["Variant"]
    players = tags.get("Players", ("", 0))[0]
    if players and not players.isdigit():
        raise RecordImportError(tags["Players"][1], f"Players must be a number, not {players!r}")
    game = _variant(name, int(players) if players else None, tags, line)
    return _replayed(game, _body_tokens(text), None)


def _pdn(text: str, tags: dict) -> MatchRecord:
    game_type, line = tags.get("GameType", ("Dama", 0))
    name = GAME_OF_PDN_TYPE.get(game_type)
    if name is None:
        known = ", ".join(f'"{t}"' for t in GAME_OF_PDN_TYPE)
        raise RecordImportError(line, f'GameType "{game_type}" is not a game of Tavolo ({known})')
    game = _variant(name, None, tags, line)
    tokens, result = [], None
    for token in _body_tokens(text, comments_as_moves=True):
        if token.text in _RESULTS:
            result = token
            continue
        if result is not None:
            raise RecordImportError(token.line, f"{token.text!r} after the result {result.text}")
        tokens.append(token)
    declared = tags.get("Result", (None, 0))[0]
    if result is None and declared in _RESULTS:
        result = _Token(declared, tags["Result"][1])
    return _replayed(game, tokens, result)


def _mill_list(text: str, tags: dict, mill: str = "mulino:classic") -> MatchRecord:
    game = _variant(mill, None, tags, 0)
    tokens = []
    for token in _body_tokens(text):
        found = _MILL_CAPTURE.match(token.text)
        if found:  # a move and the removal it earned, written as one
            tokens += [_Token(found[1], token.line), _Token(f"x{found[2]}", token.line)]
        else:
            tokens.append(token)
    return _replayed(game, tokens, None)


def _body_tokens(text: str, comments_as_moves: bool = False) -> list[_Token]:
    """The words after the tags, without move numbers and comments (``{…}`` in PDN; a
    comment holding one of Lupo's actions is that action if ``comments_as_moves``)."""
    tokens: list[_Token] = []
    in_comment, comment, comment_line = False, "", 0
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line.startswith("[") and not tokens and not in_comment:
            continue
        if not comments_as_moves:
            line = line.split("#", 1)[0]
        for word in re.findall(r"\{|\}|[^\s{}]+", line):
            if in_comment:
                if word == "}":
                    in_comment = False
                    note = comment.strip()
                    if re.fullmatch(r"wolf[12]|@\d+", note):
                        tokens.append(_Token(note, comment_line))
                else:
                    comment += " " + word
                continue
            if word == "{":
                in_comment, comment, comment_line = True, "", number
                continue
            if word == "}":
                raise RecordImportError(number, "a comment closed that was never opened")
            if _MOVE_NUMBER.match(word):
                continue
            numbered = _NUMBERED.match(word)
            tokens.append(_Token(numbered[2] if numbered else word, number))
    if in_comment:
        raise RecordImportError(comment_line, "a comment opened here is never closed")
    return tokens


def _replayed(game, tokens: list[_Token], result: _Token | None) -> MatchRecord:
    """The record of ``tokens`` played from the start of ``game``, each checked by the
    rules; ``result`` adds the resignation or agreed draw the moves do not show."""
    record = MatchRecord(game)
    state: State = record.initial_state()
    actions: list[int] = []
    for token in tokens:
        if state.is_terminal():
            raise RecordImportError(token.line, f"{token.text!r} after the end of the game")
        try:
            action = state.parse_action(token.text)
            after = state.apply(action)
        except ActionError as error:
            raise RecordImportError(token.line, f"{token.text!r}: {error.reason}") from error
        actions.append(action)
        state = after
    if result is not None and not state.is_terminal() and result.text != "*":
        seat = _RESULTS[result.text]
        ending = resign_action(seat) if seat is not None else None
        text = state.action_to_str(ending) if ending is not None else "draw"
        try:
            concluding = state.parse_action(text)
            state = state.apply(concluding)
        except RulesError as error:
            raise RecordImportError(result.line, f"the result {result.text}: {error}") from error
        actions.append(concluding)
    elif result is not None and state.is_terminal() and result.text in ("1-0", "0-1"):
        winners = state.result().winners()
        if winners != (1 - _RESULTS[result.text],):
            raise RecordImportError(
                result.line, f"the result {result.text} is not how the moves end the game"
            )
    return MatchRecord(game, tuple(actions))
