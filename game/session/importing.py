"""Games from elsewhere, to replay and review: a Dama game in PDN, a Mulino game as a move
list in the a1–g7 notation, or a Tavolo record (docs/NOTATION.md) — each read back into the
record it was exported from (``export.py``), or refused with the line and the reason.

**Text**: files are read as UTF-8 (a byte-order mark, as Windows editors write one, is
skipped), else as CP-1252 or Latin-1, as older draughts programs write them
(:func:`decode_text`).

**PDN** (Dama, Mangia la dama, Lupo e pecore), read as the PDN 3.0 standard writes it and as
players write it: tag pairs (``[GameType "Dama"]``, Tavolo's ``[Option "…"]``; other tags are
kept out of the way), then move numbers (``12.``, ``12...``), moves (``22-18``, ``22x15x6``,
``22x6``; ``c3-d4`` in the algebraic names of the squares), comments in braces or after ``;``,
variations in parentheses (skipped: the main line is the game), move marks (``22-18!?``) and
NAGs (``$1``), kept with their move (:class:`Imported`), and the result (``1-0``, ``0-1``,
``1/2-1/2``, ``*``; ``2-0``, ``0-2``, ``1-1`` as 10×10 players write them).  Lupo's lot and
placing, which PDN has no moves for, are exported as the comments ``{wolf1}`` ``{@18}`` and
read back as actions.  A result the moves do not reach is a resignation (``1-0``: Black's) or
a draw agreed; a result the moves contradict is said (:attr:`Imported.notices`), the moves
are kept.  ``[SetUp "1"]`` with ``[FEN "W:W18,22:B11,15"]`` starts the match from that
position (:mod:`game.rules.fen`).

``GameType`` names the game: Tavolo's own by their names, any other draughts game by its
number, refused by name where it is not played on 8×8 ("international draughts 10×10 —
Tavolo plays Dama on 8×8"); an 8×8 game of other rules is read as Dama only if every move is
legal in Dama, and said so.  A PDN without GameType is international draughts by the
standard: it is tried as Dama, and if the moves do not fit, it is said to be probably that.
A file holding several games: :func:`games_in` lists them, each read or refused on its
own (``python -m game.session.importing FILE`` lists them, ``--game N`` reads one);
:func:`read_game` gives the first, and says there are more.

**Mulino move lists**: optional ``[Variant …]`` (``mulino:misto``, ``misto`` or ``Mulino
misto``) / ``[Option …]`` headers, then placings (``d2``), moves (``a1-a4``) and removals
(``xd7``, also written straight after the move that closed the mill: ``a1-a4xd7``), with or
without move numbers; ``#`` starts a comment.  Without a header the screen asks which
Mulino when the moves fit more than one (:func:`mills_that_fit`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from game.i18n import _
from game.rules import (
    VARIANTS,
    ActionError,
    MatchRecord,
    Outcome,
    Result,
    RulesError,
    State,
    resign_action,
    variant,
)
from game.rules.checkerboard import parse_square
from game.rules.fen import FenError, fen_squares, setup_of
from game.rules.variants import Variant
from game.session.export import PDN_GAME_TYPE

Tags = dict[str, tuple[str, int]]
"""A record's tag pairs: each value with its line."""
GAME_OF_PDN_TYPE = {game_type: name for name, game_type in PDN_GAME_TYPE.items()}
_RESULTS = {"1-0": 1, "0-1": 0, "1/2-1/2": None, "*": None}
"""PDN results, with the seat that resigned when the moves do not end the game."""
_SAME_RESULT = {"2-0": "1-0", "0-2": "0-1", "1-1": "1/2-1/2", "½-½": "1/2-1/2", "0-0": "*"}
"""Results as 10×10 players write them (two points a game), and the PDN result they mean
(``0-0``, both players lost by forfeit, is no result a game of Tavolo can end in)."""
_MOVE_NUMBER = re.compile(r"^\d+\.(\.\.|…)?$")
_NUMBERED = re.compile(r"^(\d+\.(?:\.\.|…)?)(\S+)$")
_TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]$')
_TAGS_ON_A_LINE = re.compile(r'\[\w+\s+"[^"]*"\]')
_MILL_CAPTURE = re.compile(r"^([a-g][1-7](?:-[a-g][1-7])?)x([a-g][1-7])$")
_PDN_WORD = re.compile(r"\{[^}]*\}|[{}()]|;[^\n]*|\$\d+|[^\s{}();$]+")
_MARK = re.compile(r"^(.+?)([!?]{1,2})$")
_ALGEBRAIC = re.compile(r"^[a-h][1-8](?:[-x:][a-h][1-8])+$")
NAG_MARKS = {1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!"}
"""The NAGs that are move marks, and the marks they stand for; others are shown as ``$n``."""
FOREIGN_GAMES = {
    20: ("international draughts", 10),
    21: ("English checkers", 8),
    22: ("Italian draughts", 8),
    23: ("American pool checkers", 8),
    24: ("Spanish draughts", 8),
    25: ("Russian draughts", 8),
    26: ("Brazilian draughts", 8),
    27: ("Canadian draughts", 12),
    28: ("Portuguese draughts", 8),
    29: ("Czech draughts", 8),
    30: ("Turkish draughts", 8),
    31: ("Thai draughts", 8),
    40: ("Frisian draughts", 10),
    41: ("Spantsiretti", 10),
}
"""PDN's GameType numbers of other draughts games: their names and the side of their board."""


def game_name(number: int) -> str:
    """The name of the draughts game of PDN GameType ``number``, in the player's language."""
    names = {
        20: _("international draughts"),
        21: _("English checkers"),
        22: _("Italian draughts"),
        23: _("American pool checkers"),
        24: _("Spanish draughts"),
        25: _("Russian draughts"),
        26: _("Brazilian draughts"),
        27: _("Canadian draughts"),
        28: _("Portuguese draughts"),
        29: _("Czech draughts"),
        30: _("Turkish draughts"),
        31: _("Thai draughts"),
        40: _("Frisian draughts"),
        41: _("Spantsiretti"),
    }
    return names.get(number, FOREIGN_GAMES.get(number, (str(number), 0))[0])


def decode_text(data: bytes) -> str:
    """The text of a file: UTF-8 (without its byte-order mark), else CP-1252, else Latin-1.
    Raises :class:`ValueError` for data that is not text (a zero byte, control characters)."""
    if b"\x00" in data:
        raise ValueError("a zero byte: not text")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError:  # bytes CP-1252 leaves undefined: Latin-1 has them all
            text = data.decode("latin-1")
    if any((ord(c) < 32 and c not in "\t\n\r\f\v") or 0x7F <= ord(c) < 0xA0 for c in text):
        raise ValueError("control characters: not text")
    return text


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
    marks: tuple[str, ...] = ()
    written: str = ""
    """The move as the file writes it, where it is read otherwise (``c3-d4`` is 22-18)."""

    def __str__(self) -> str:
        return repr(self.written or self.text)


@dataclass(frozen=True, slots=True)
class Imported:
    """A game read from a file: its record, the marks written with its moves and what the
    reading has to say."""

    record: MatchRecord
    marks: dict[int, str] = field(default_factory=dict)
    """The move marks and NAGs of action ``i`` of the record (``"!?"``, ``"$14"``)."""
    notices: tuple[str, ...] = ()
    """What the player should know about the reading (a result the moves contradict, a game
    of other rules read as Dama, more games in the file), in the player's language."""


MILLS = ("mulino:classic", "mulino:misto", "mulino:ceylonese")
"""The variants a Mulino move list without a ``[Variant …]`` header may be written in."""


def import_record(text: str, mill: str = "mulino:classic") -> MatchRecord:
    """The record of the game written in ``text``: PDN for the Dama games, a Tavolo record
    or a Mulino move list otherwise (read as ``mill`` when no header names the variant: see
    :func:`mills_that_fit`).  Raises :class:`RecordImportError`."""
    return read_game(text, mill).record


def read_game(text: str, mill: str = "mulino:classic") -> Imported:
    """The game written in ``text`` with its marks and notices (see :func:`import_record`)."""
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise RecordImportError(0, _("the text is empty"))
    tags = _tags(text)
    if "Variant" in tags:
        return Imported(_tavolo(text, tags))
    if _is_pdn(text, tags):
        return _pdn(text, tags)
    return Imported(_mill_list(text, tags, mill))


def mills_that_fit(text: str) -> list[str]:
    """For a Mulino move list that does not say its variant: the variants whose rules its
    moves follow (the screen asks which when more than one does); [] for any other text."""
    text = text.removeprefix("\ufeff")
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
    tags = _tags(text.removeprefix("\ufeff"))
    names = [tags.get(tag, ("", 0))[0].strip()[:40] for tag in ("White", "Black")]
    return [names[seat] if seat < 2 and names[seat] != "?" else "" for seat in range(players)]


@dataclass(frozen=True, slots=True)
class GameInFile:
    """One game of a text that may hold several (a PDN file of a tournament): its place,
    what its tags say of it, and its reading — the game, or why it cannot be read."""

    number: int
    """Its place in the file, counted from 1 as the listing numbers it."""
    text: str
    """Its own text, from its first tag to the next game's."""
    tags: dict[str, str]
    """Its tag pairs as written, read even where a tag is malformed (for the listing)."""
    game: Imported | None
    refused: RecordImportError | None
    """Why it cannot be read, its line counted in the whole file; None when it can."""

    def tag(self, name: str) -> str:
        """A tag's value; "" where it is not given or given as unknown (``?``)."""
        value = self.tags.get(name, "").strip()
        return "" if value.strip("?.") == "" else value

    def lines(self) -> tuple[str, str]:
        """The game in two lines, in the player's language: its number, event and players;
        then its result, round and date where given — or, for a game that cannot be read,
        its round and date and why."""
        event = self.tag("Event") or _("Game {n}").format(n=self.number)
        players = " – ".join(name or "?" for name in (self.tag("White"), self.tag("Black")))
        first = f"{self.number}. {event}"
        if players != "? – ?":
            first = f"{first} — {players}"
        facts = [_result_words(self.tag("Result")) if self.refused is None else ""]
        if self.tag("Round"):
            facts.append(_("round {round}").format(round=self.tag("Round")))
        if self.tag("Date"):  # "1998.??.??" as 1998
            facts.append(self.tag("Date").split("?", 1)[0].rstrip("."))
        if self.refused is not None:
            facts.append(self.refusal())
        return first, " · ".join(fact for fact in facts if fact)

    def refusal(self) -> str:
        """Why the game cannot be read, with its line in the file ("" if it can be)."""
        if self.refused is None:
            return ""
        where = _("line {line}: ").format(line=self.refused.line) if self.refused.line else ""
        return _("cannot be read — {where}{reason}").format(where=where, reason=self.refused.reason)


def _result_words(result: str) -> str:
    result = _SAME_RESULT.get(result, result)
    if result == "*":
        return _("unfinished")
    return result if result in _RESULTS else ""


_SPLIT_WORD = re.compile(
    r'\{[^}]*\}|\[\w+[ \t]+"(?:[^"\\\n]|\\.)*"\]|[{}()]|;[^\n]*|[^\s{}();\[]+|\['
)
"""The words that separate games: a comment (which may hold anything), a tag pair, a
parenthesis, a ``;`` comment, anything else."""


def games_in(text: str, mill: str = "mulino:classic") -> list[GameInFile]:
    """Every game of ``text``, each read (:func:`read_game`) or refused on its own: a PDN
    file may hold many, one after another, each with its tags.  Any other text is one game."""
    text = text.removeprefix("\ufeff")
    lines = text.splitlines()
    whole = "\n".join(lines)
    starts = [0]
    try:
        tags = _tags(whole)
    except RecordImportError:  # its reading will say why
        tags = {}
    if "Variant" not in tags and _is_pdn(whole, tags):  # a record or a Mulino list is one
        escaped = "\n".join(" " * len(line) if line.lstrip().startswith("%") else line
                            for line in lines)  # fmt: skip
        depth, moved = 0, False
        for found in _SPLIT_WORD.finditer(escaped):
            word = found[0]
            if word in ("(", ")"):
                depth = depth + 1 if word == "(" else max(0, depth - 1)
            elif depth:
                continue
            elif word.startswith("[") and word.endswith("]"):
                if moved:  # the tags of the next game
                    starts.append(found.start())
                moved = False
            elif word[0] not in "{};":
                moved = True
    games, before = [], 0
    for number, (first, end) in enumerate(zip(starts, [*starts[1:], len(whole)], strict=True), 1):
        games.append(_game_in_file(number, whole[first:end], before, mill))
        before += whole.count("\n", first, end)
    return games


def _game_in_file(number: int, text: str, before: int, mill: str) -> GameInFile:
    """Game ``number``, written in ``text`` after ``before`` lines of the file."""
    tags: dict[str, str] = {}
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith(("[", "%")):
            break
        for key, value in re.findall(r'\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]', line):
            tags[key] = value.replace('\\"', '"')
    try:
        return GameInFile(number, text, tags, read_game(text, mill), None)
    except RecordImportError as error:
        where = error.line + before if error.line else 0
        return GameInFile(number, text, tags, None, RecordImportError(where, error.reason))


def _is_pdn(text: str, tags: Tags) -> bool:
    return "GameType" in tags or "FEN" in tags or bool(re.search(r"\d+-\d+|\d+x\d+", text))


def _tags(text: str) -> Tags:
    """The tag pairs at the head of ``text``, with their lines (several may share a line)."""
    tags: Tags = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line.startswith("%"):  # PDN's escape: a line for other programs
            continue
        if not line.startswith("["):
            if line:
                break
            continue
        pairs = _TAGS_ON_A_LINE.findall(line)
        if len(pairs) < 2 or _TAGS_ON_A_LINE.sub("", line).strip():
            pairs = [line]
        for pair in pairs:
            found = _TAG.match(pair)
            if found is None:
                must = _('a tag must read [Name "value"], not {line}')
                raise RecordImportError(number, must.format(line=repr(line)))
            key, value = found.groups()
            value = value.replace('\\"', '"')
            if key == "Option":
                value = f"{tags.get('Option', ('', 0))[0]}\n{value}".strip()
            tags[key] = (value, number)
    return tags


def _options(tags: Tags) -> dict[str, str]:
    options = {}
    text, line = tags.get("Option", ("", 0))
    for option in filter(None, text.split("\n")):
        key, equals, value = option.partition("=")
        if not equals:
            must = _("an option must read key=value, not {option}")
            raise RecordImportError(line, must.format(option=repr(option)))
        options[key] = value
    return options


def _variant(name: str, players: int | None, tags: Tags, line: int) -> Variant:
    try:
        return variant(name, players, _options(tags))
    except RecordImportError:
        raise
    except RulesError as error:
        if "option" in str(error) and "Option" in tags:
            line = tags["Option"][1]
        raise RecordImportError(line, str(error)) from error


def _variant_named(name: str) -> str:
    """A variant by its name (``mulino:misto``), its name in its game (``misto``) or its
    title (``Mulino misto``); the name as given if none is."""
    key = name.strip().lower()
    for full, spec in VARIANTS.items():
        if key in (full, full.partition(":")[2], spec.title.lower()):
            return full
    return name


def _tavolo(text: str, tags: Tags) -> MatchRecord:
    name, line = tags["Variant"]
    players = tags.get("Players", ("", 0))[0]
    if players and not (players.isdecimal() and len(players) < 4):
        must = _("Players must be a number, not {players}")
        raise RecordImportError(tags["Players"][1], must.format(players=repr(players)))
    game = _variant(_variant_named(name), int(players) if players else None, tags, line)
    setup = _setup(game, tags)
    return _replayed(game, _body_tokens(text), None, setup)[0]


def _game_type(tags: Tags) -> tuple[str, int | None]:
    """The variant a PDN's GameType names, and the number of the other draughts game it is
    (None for Tavolo's own games; 20, international draughts, without a GameType)."""
    game_type, line = tags.get("GameType", ("", 0))
    if not game_type.strip():
        return "dama:classic", 20
    name = GAME_OF_PDN_TYPE.get(game_type.strip())
    if name is not None:
        return name, None
    number = re.match(r"\s*(\d{1,4})\b", game_type)
    if number is None or int(number[1]) not in FOREIGN_GAMES:
        known = ", ".join(f'"{t}"' for t in GAME_OF_PDN_TYPE)
        unknown = _('GameType "{game_type}" is not a game of Tavolo ({known})')
        raise RecordImportError(line, unknown.format(game_type=game_type, known=known))
    found = int(number[1])
    size = FOREIGN_GAMES[found][1]
    if size != 8:
        raise RecordImportError(line, _not_eight(found, size))
    return "dama:classic", found


def _not_eight(number: int, size: int) -> str:
    return _("{game} {size}×{size} — Tavolo plays Dama on 8×8").format(
        game=game_name(number), size=size
    )


def _setup(game: Variant, tags: Tags) -> str | None:
    """The set-up start position a PDN's ``FEN`` tag gives (unless ``SetUp`` is 0), as a
    FEN the way Tavolo writes it; None for the variant's start (written out or not)."""
    if "FEN" not in tags or tags.get("SetUp", ("1", 0))[0].strip() == "0":
        return None
    fen, line = tags["FEN"]
    try:
        return setup_of(game, fen)
    except FenError as error:
        if any(n > 32 for n in fen_squares(fen)):
            raise RecordImportError(line, _not_eight(20, 10)) from error
        raise RecordImportError(
            line, _("the FEN tag is not a position of {game}: {reason}").format(
                game=game.spec.title, reason=error.reason)
        ) from error  # fmt: skip


def _pdn(text: str, tags: Tags) -> Imported:
    name, foreign = _game_type(tags)
    line = tags.get("GameType", ("", 0))[1]
    game = _variant(name, None, tags, line)
    tokens: list[_Token] = []
    result: _Token | None = None
    notices: list[str] = []
    words, more_games = _pdn_body(text)
    for token in words:
        if token.text in _RESULTS:
            result = token
            continue
        if result is not None:
            late = _("{move} after the result {result}")
            raise RecordImportError(token.line, late.format(move=token, result=result.text))
        tokens.append(token)
    if more_games is not None:
        notices.append(_("The file holds more than one game: the first is shown."))
    declared, declared_line = tags.get("Result", ("", 0))
    declared = _SAME_RESULT.get(declared.strip(), declared.strip())
    if result is None and declared in _RESULTS:
        result = _Token(declared, declared_line)
    elif result is not None and declared in _RESULTS and declared != result.text != "*" != declared:
        said = _("The Result tag says {tag}, the moves end with {moves}: the moves are kept.")
        notices.append(said.format(tag=declared, moves=result.text))
    setup_given = tags.get("FEN")
    try:
        setup = _setup(game, tags)
        record, state, marks = _replayed(game, tokens, result, setup)
    except RecordImportError as error:
        if foreign is None or (setup_given is not None and error.line == setup_given[1]):
            raise  # Tavolo's own game, or a FEN that is no position (a 10×10 one said so)
        squares = [int(n) for t in tokens for n in re.findall(r"\d{1,4}", t.text)]
        if foreign == 20 and "GameType" not in tags:
            if any(n > 32 for n in squares):
                raise RecordImportError(error.line, _not_eight(20, 10)) from error
            probably = _(
                "{reason} — without a GameType tag this is probably international draughts "
                "10×10: Tavolo plays Dama on 8×8"
            )
            first = re.match(r"(\d+)[-x]", tokens[0].text) if tokens else None
            if first and 9 <= int(first[1]) <= 12 and setup_given is None:
                probably = _(
                    "{reason} — without a GameType tag, a game Black begins from 9–12 is "
                    "probably English checkers: other rules than Tavolo's Dama, where White "
                    "begins"
                )
            raise RecordImportError(error.line, probably.format(reason=error.reason)) from error
        other = _(
            "{game} (GameType {number}) has other rules than Tavolo's Dama, and its moves do "
            "not fit them: {reason}"
        )
        why = other.format(game=game_name(foreign), number=foreign, reason=error.reason)
        raise RecordImportError(error.line, why) from error
    if foreign is not None and "GameType" in tags:
        fits = _(
            "{game} (GameType {number}) has other rules than Tavolo's Dama; these moves are "
            "all legal in Dama, and the game is shown as Dama."
        )
        notices.append(fits.format(game=game_name(foreign), number=foreign))
    finished = state.result()
    if result is not None and result.text != "*" and finished is not None:
        ended = _score(finished)
        if ended != result.text:
            notices.append(
                _("The file gives the result {given}, but the moves end {ended}: the moves are "
                  "kept.").format(given=result.text, ended=ended)
            )  # fmt: skip
    return Imported(record, marks, tuple(notices))


def _score(result: Result) -> str:
    """The PDN result of a finished Dama game."""
    outcomes = result.outcomes
    if outcomes == (Outcome.WIN, Outcome.LOSS):
        return "1-0"
    if outcomes == (Outcome.LOSS, Outcome.WIN):
        return "0-1"
    return "1/2-1/2"


def _mill_list(text: str, tags: Tags, mill: str = "mulino:classic") -> MatchRecord:
    game = _variant(mill, None, tags, 0)
    return _replayed(game, _body_tokens(text), None, None)[0]


def _pdn_body(text: str) -> tuple[list[_Token], tuple[int, int] | None]:
    """The moves, Lupo notes and result of a PDN's main line, each with its marks and NAGs;
    and where another game follows the first in the text (its line, 1-based, and the column
    of its first tag's ``[``), None if none does.  Comments (``{…}``, ``; …``), variations
    (``( … )``, nested) and escape lines (``%…``) are skipped."""
    lines = text.splitlines()
    head = 0
    while head < len(lines) and (
        not lines[head].strip() or lines[head].lstrip().startswith(("[", "%"))
    ):
        head += 1
    body = "\n".join("" if line.lstrip().startswith("%") else line for line in lines[head:])
    tokens: list[_Token] = []
    depth, opened = 0, [0]
    more: tuple[int, int] | None = None
    number, counted = head + 1, 0
    for found in _PDN_WORD.finditer(body):
        word = found[0]
        number += body.count("\n", counted, found.start())
        counted = found.start()
        if word == "(":
            depth += 1
            opened.append(number)
            continue
        if word == ")":
            if not depth:
                raise RecordImportError(number, _("a variation closed that was never opened"))
            depth -= 1
            opened.pop()
            continue
        if word == "{":
            raise RecordImportError(number, _("a comment opened here is never closed"))
        if word == "}":
            raise RecordImportError(number, _("a comment closed that was never opened"))
        if depth or word.startswith(";"):
            continue
        if word.startswith("{"):
            note = word[1:-1].strip()
            if re.fullmatch(r"wolf[12]|@\d+", note):
                tokens.append(_Token(note, number, (), word))
            continue
        if word.startswith("["):  # the tags of the next game
            more = (number, found.start() - body.rfind("\n", 0, found.start()) - 1)
            break
        if word.startswith("$"):
            if tokens and not tokens[-1].written.startswith("{"):  # not Lupo's notes
                mark = NAG_MARKS.get(int(word[1:]), word) if len(word) < 6 else word
                tokens[-1] = replace(tokens[-1], marks=(*tokens[-1].marks, mark))
            continue
        if _MOVE_NUMBER.match(word):
            continue
        numbered = _NUMBERED.match(word)
        word = numbered[2] if numbered else word
        word = _SAME_RESULT.get(word, word)
        marked = _MARK.match(word)
        marks: tuple[str, ...] = ()
        if marked and word not in _RESULTS:
            word, marks = marked[1], (marked[2],)
        written = word if _ALGEBRAIC.match(word) else ""
        if written:
            word = _numbered_squares(word)
        tokens.append(_Token(word, number, marks, written))
    if depth:
        raise RecordImportError(opened[-1], _("a variation opened here is never closed"))
    return tokens, more


def _numbered_squares(move: str) -> str:
    """``c3-d4`` (``c3:e5``, ``c3xe5``) in square numbers: ``21-17``, ``21x14``."""
    capture = bool(re.search("[x:]", move))
    squares = re.split("[-x:]", move)
    numbers = [parse_square(square) for square in squares]
    if any(n is None for n in numbers):
        return move  # a light square: let the rules say why
    return ("x" if capture else "-").join(str(n + 1) for n in numbers if n is not None)


def _body_tokens(text: str) -> list[_Token]:
    """The words of a Tavolo record or a Mulino list after the tags, without move numbers
    and comments (``{…}``, ``#…``)."""
    tokens: list[_Token] = []
    in_comment, comment_line = False, 0
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line.startswith("[") and not tokens and not in_comment:
            continue
        line = line.split("#", 1)[0]
        for word in re.findall(r"\{|\}|[^\s{}]+", line):
            if in_comment:
                in_comment = word != "}"
                continue
            if word == "{":
                in_comment, comment_line = True, number
                continue
            if word == "}":
                raise RecordImportError(number, _("a comment closed that was never opened"))
            if _MOVE_NUMBER.match(word):
                continue
            numbered = _NUMBERED.match(word)
            word = numbered[2] if numbered else word
            found = _MILL_CAPTURE.match(word)
            if found:  # a Mulino move and the removal it earned, written as one
                tokens += [_Token(found[1], number), _Token(f"x{found[2]}", number)]
            else:
                tokens.append(_Token(word, number))
    if in_comment:
        raise RecordImportError(comment_line, _("a comment opened here is never closed"))
    return tokens


def _replayed(
    game: Variant, tokens: list[_Token], result: _Token | None, setup: str | None
) -> tuple[MatchRecord, State, dict[int, str]]:
    """The record of ``tokens`` played from the start of ``game`` (or the position
    ``setup``), each checked by the rules, with its final state and the marks of its
    actions; ``result`` adds the resignation or agreed draw the moves do not show."""
    record = MatchRecord(game, (), setup)
    state: State = record.initial_state()
    actions: list[int] = []
    marks: dict[int, str] = {}
    for token in tokens:
        if state.is_terminal():
            over = _("{move} after the end of the game")
            raise RecordImportError(token.line, over.format(move=token))
        try:
            action = state.parse_action(token.text)
            after = state.apply(action)
        except ActionError as error:
            raise RecordImportError(token.line, f"{token}: {error.reason}") from error
        if token.marks:
            marks[len(actions)] = " ".join(token.marks)
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
            why = _("the result {result}: {error}").format(result=result.text, error=error)
            raise RecordImportError(result.line, why) from error
        actions.append(concluding)
    return MatchRecord(game, tuple(actions), setup), state, marks


def main(argv: list[str] | None = None) -> int:
    """``python -m game.session.importing FILE [--game N]``: the games of a file, one a line
    (numbered, each readable or refused with the reason); with ``--game N`` (or for a file
    of one game) that game as a Tavolo record, what the reading said on standard error."""
    import argparse
    import sys
    from pathlib import Path

    parser = argparse.ArgumentParser(
        prog="python -m game.session.importing",
        description="List the games of a PDN file or a Mulino move list, or read one of them.",
    )
    parser.add_argument("file", type=Path)
    parser.add_argument("--game", type=int, metavar="N", help="read game N (from 1)")
    parser.add_argument("--mill", default="mulino:classic", help="a Mulino list's variant")
    args = parser.parse_args(argv)
    try:
        games = games_in(decode_text(args.file.read_bytes()), _variant_named(args.mill))
    except (OSError, ValueError) as error:
        print(f"{args.file}: {error}", file=sys.stderr)
        return 1
    if args.game is None and len(games) > 1:
        for listed in games:
            print(" · ".join(part for part in listed.lines() if part))
        return 0
    number = 1 if args.game is None else args.game
    if not 1 <= number <= len(games):
        print(_("{file} holds {n} games: there is no game {number}").format(
            file=args.file, n=len(games), number=number), file=sys.stderr)  # fmt: skip
        return 2
    chosen = games[number - 1]
    if chosen.game is None:
        print(f"{args.file}: {chosen.refusal()}", file=sys.stderr)
        return 1
    print(*chosen.game.notices, sep="\n", file=sys.stderr)
    print(chosen.game.record.to_text(), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
