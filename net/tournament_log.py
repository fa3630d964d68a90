"""The tournament log: what a tournament's director writes and every participant replays, so
that no result can be invented — not by a player, not by the director.

Pure like :mod:`net.matchlog`: no I/O, no clock, no randomness.  Every entry carries its
position (``at``) and the head of the log before it (``prev``) and is signed by the director
(*tournament*, docs/PROTOCOL.md's TOURNAMENT LOG); the head chains over every entry, so two
participants holding the same head hold the same tournament.  The director decides nothing
the others cannot check:

* ``open`` — the tournament: its id, the director's key, the game (``Variant.describe()``),
  the format, the rounds, the name, the time a round may take, the computer's level for the
  seats it fills.
* ``joined`` — a player, with the player's own signature (*entrant*) over this tournament's
  opening, its director and the player's name: nobody, the director included, can enter
  someone else.  A computer player is an identity the director holds and signs for.
* ``round`` — the pairings, White first, and the byes: accepted only if they are exactly the
  system's (:func:`game.tournament.check_round`, then the board order).
* ``result`` — a game's result with the SHA-256 of its match's final signed record, whose
  match id is bound to the tournament, round and board (:func:`net.signing.tournament_match`):
  the record must verify, be of that pairing — its two players in their colours, White in seat
  1 —, hold no fork proof and give that result.  A forfeit without a record is taken only
  against a player who has withdrawn.
* ``withdrawn`` — a player is paired no more.  ``over`` — the tournament ended by its rules.

:class:`TournamentLog` judges; :func:`seal` and :func:`entrant_proof` write.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from game.levels import LEVELS
from game.rules import Outcome, RulesError, Variant, variant
from game.tournament import (
    Format,
    Pairing,
    PairingImpossibleError,
    Player,
    Result,
    Round,
    Standing,
    Tournament,
    TournamentError,
    check_round,
)
from net import records
from net.entries import Rejected, require
from net.fairdice import digest
from net.identity import Identity, peer_id, verify
from net.matchlog import ABANDONED, OVER, MatchLog, replay
from net.messages import BOOL, ID, KEY, REASON, SIGNATURE, Field
from net.signing import NO_HEAD, entrant_payload, packed, tournament_match, tournament_payload

__all__ = [
    "FORMATS",
    "Entrant",
    "Rejected",
    "TournamentLog",
    "entrant_proof",
    "joined",
    "judge_record",
    "record_digest",
    "replay_tournament",
    "seal",
]

MOST_PLAYERS = 64
FORMATS = ("round-robin", "swiss", "knockout")
RESULTS = tuple(r.value for r in Result)


def _text(longest: int) -> Field:
    return Field(
        f"text of at most {longest} characters",
        lambda v: isinstance(v, str) and len(v) <= longest and v.isprintable(),
    )


def _int(low: int, high: int) -> Field:
    return Field(f"whole number {low}–{high}", lambda v: type(v) is int and low <= v <= high)


def _one_of(*choices: str) -> Field:
    return Field("one of " + ", ".join(choices), lambda v: v in choices)


def _ids(most: int, size: int) -> Field:
    """A list of at most ``most`` ids, or of ``[white, black]`` pairs of ids for ``size`` 2."""

    def one(value: object) -> bool:
        if size == 1:
            return ID.check(value)
        return isinstance(value, list) and len(value) == size and all(map(ID.check, value))

    what = "ids" if size == 1 else "[white, black] pairs of ids"
    return Field(
        f"a list of at most {most} {what}",
        lambda v: isinstance(v, list) and len(v) <= most and all(map(one, v)),
    )


HEAD = Field("16 bytes", lambda v: isinstance(v, bytes) and len(v) == 16)
DIGEST = Field("32 bytes", lambda v: isinstance(v, bytes) and len(v) == 32)
OPTIONAL_DIGEST = Field("32 bytes or nil", lambda v: v is None or DIGEST.check(v))
ROUND = _int(1, 1024)

SCHEMAS: dict[str, dict[str, Field]] = {
    "open": {
        "id": ID,
        "director": KEY,
        "game": _text(120),
        "format": _one_of(*FORMATS),
        "double": BOOL,
        "rounds": _int(0, MOST_PLAYERS),
        "name": _text(40),
        "time": _int(0, 86400),
        "level": _one_of("", *LEVELS),
    },
    "joined": {"player": ID, "key": KEY, "name": _text(40), "computer": BOOL, "proof": SIGNATURE},
    "round": {
        "round": ROUND,
        "pairings": _ids(MOST_PLAYERS // 2, 2),
        "byes": _ids(MOST_PLAYERS, 1),
    },
    "result": {
        "round": ROUND,
        "board": _int(0, MOST_PLAYERS),
        "result": _one_of(*RESULTS),
        "match": ID,
        "record": OPTIONAL_DIGEST,
    },
    "withdrawn": {"player": ID, "reason": REASON},
    "over": {},
}
"""Tournament-log entries by kind (``"k"``); every one also has :data:`CHAINED`."""
CHAINED: dict[str, Field] = {"at": _int(0, 2**31), "prev": HEAD, "sig": SIGNATURE}
"""Its position, the head of the log before it, the director's signature."""


def checked(entry: object) -> dict[str, Any]:
    """``entry`` if it has exactly the fields of its kind, each well formed; else
    :class:`Rejected` naming the first one that is not."""
    require(isinstance(entry, dict), "an entry is a map")
    assert isinstance(entry, dict)
    kind = entry.get("k")
    schema = SCHEMAS.get(kind) if isinstance(kind, str) else None
    if schema is None:
        raise Rejected(f"unknown tournament entry kind {kind!r}")
    schema = {**schema, **CHAINED}
    extra = sorted(map(str, set(entry) - set(schema) - {"k"}))
    if extra:
        raise Rejected(f"{kind} entry: unexpected field {extra[0]!r}")
    for name, field in schema.items():
        require(name in entry, f"{kind} entry: missing field {name!r}")
        require(field.check(entry[name]), f"{kind} entry: field {name!r} must be {field.kind}")
    return entry


def head_after(previous: bytes, entry: dict[str, Any]) -> bytes:
    """The head of a log ending in ``entry`` whose earlier part had ``previous`` (b"" for
    none): BLAKE2b over it and the whole entry, its signature included, keys in order."""
    return digest(previous + packed(entry))[:16]


def record_digest(data: bytes) -> bytes:
    """What a ``result`` names a match record by: the SHA-256 of its bytes as kept."""
    return hashlib.sha256(data).digest()


def variant_of(text: str) -> Variant:
    """The variant :meth:`Variant.describe` wrote as ``text`` (``mulino:classic
    players=2``), checked to describe itself the same way."""
    name, *fields = text.split(" ")
    pairs = [field.partition("=") for field in fields]
    try:
        options = {key: value for key, equals, value in pairs if equals and key != "players"}
        players = next(int(value) for key, _, value in pairs if key == "players")
        chosen = variant(name, players, options)
    except (RulesError, StopIteration, ValueError) as error:
        raise Rejected(f"open: {text!r} is no game of Tavolo") from error
    require(chosen.describe() == text, f"open: the game is written {chosen.describe()!r}")
    return chosen


@dataclass(frozen=True)
class Entrant:
    """A player as the ``joined`` entry entered them."""

    id: str
    key: bytes
    name: str
    computer: bool


class TournamentLog:
    """One tournament's log, applied entry by entry: the state machine every participant
    runs, and ``python -m net verify`` over a saved tournament record."""

    def __init__(self, opening: object) -> None:
        entry = checked(opening)
        require(entry["k"] == "open", "a tournament log begins with an open entry")
        self.id: str = entry["id"]
        self.director: bytes = entry["director"]
        self.game = variant_of(entry["game"])
        require(self.game.players == 2, "open: a tournament's games are for two players")
        require(
            not entry["double"] or entry["format"] == "round-robin",
            "open: only a round robin is played double",
        )
        require(
            not entry["rounds"] or entry["format"] == "swiss",
            "open: only a Swiss sets its number of rounds",
        )
        self.format = Format.DOUBLE_ROUND_ROBIN if entry["double"] else Format(entry["format"])
        self.rounds_asked: int | None = entry["rounds"] or None
        self.name: str = entry["name"]
        self.time: int = entry["time"]
        self.level: str = entry["level"]
        self.entries: list[dict[str, Any]] = []
        self.heads: list[bytes] = []
        """``heads[n]`` fingerprints the first n + 1 entries."""
        self.entrants: dict[str, Entrant] = {}
        self.waiting: list[Player] = []
        """The players entered before the first round (the tournament is made at it)."""
        self.withdrawn_early: list[str] = []
        self.tournament: Tournament | None = None
        self.scored: dict[tuple[int, int], bytes | None] = {}
        """Each game scored, (round, board), with the digest of its record (None: a forfeit
        against a withdrawn player)."""
        self.over = False
        self._append(entry)

    # -- reading -------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.entries)

    @property
    def head(self) -> str:
        """The head of the whole log, in hex: participants compare tournaments by it."""
        return self.heads[-1].hex()

    @property
    def opened(self) -> bytes:
        """The head of the opening entry, which a player's entry proof signs."""
        return self.heads[0]

    def next_round(self) -> dict[str, Any]:
        """The content of the ``round`` entry the system pairs next: what the director
        announces (:class:`Rejected` if no round can be paired now)."""
        tournament = self.tournament if self.tournament is not None else self._created()
        try:
            paired = tournament.expected_round()
        except (TournamentError, PairingImpossibleError) as error:
            raise Rejected(f"round: {error}") from error
        return {
            "k": "round",
            "round": paired.number,
            "pairings": [list(pairing.players) for pairing in paired.pairings],
            "byes": list(paired.byes),
        }

    def standings(self) -> list[Standing]:
        return self.tournament.standings() if self.tournament is not None else []

    # -- applying ------------------------------------------------------------------------

    def apply(self, entry: object, record: bytes | None = None) -> None:
        """Apply ``entry`` if it follows from the log — with ``record``, the bytes of the
        match record a ``result`` names; raise :class:`Rejected` and change nothing if not."""
        entry = checked(entry)
        kind = entry["k"]
        require(kind != "open", "a tournament log has one open entry, the first")
        require(not self.over, f"{kind}: the tournament is over")
        self._authenticate(entry)
        handlers: dict[str, Callable[[dict[str, Any]], None]] = {
            "joined": self._on_joined,
            "round": self._on_round,
            "withdrawn": self._on_withdrawn,
            "over": self._on_over,
        }
        if kind == "result":
            self._on_result(entry, record)
        else:
            handlers[kind](entry)
        self._append(entry)

    def _append(self, entry: dict[str, Any]) -> None:
        if not self.entries:
            self._authenticate(entry)
        self.entries.append(entry)
        self.heads.append(head_after(self.heads[-1] if self.heads else b"", entry))

    def _authenticate(self, entry: dict[str, Any]) -> None:
        """Refuse ``entry`` unless it is placed next (its ``at``), after this very log (its
        ``prev``: the chain), and signed there by the director."""
        position = len(self.entries)
        previous = self.heads[-1] if self.heads else NO_HEAD
        kind = entry["k"]
        require(
            entry["at"] == position, f"{kind}: entry {entry['at'] + 1} placed at {position + 1}"
        )
        require(entry["prev"] == previous, f"{kind}: a broken chain (not after this log's head)")
        payload = tournament_payload(self.id, position, previous, entry)
        require(
            verify(self.director, payload, entry["sig"]),
            f"forged entry: the {kind} is not signed by the director",
        )

    def _on_joined(self, entry: dict[str, Any]) -> None:
        player, key, name, computer = (
            entry["player"],
            entry["key"],
            entry["name"],
            entry["computer"],
        )
        require(peer_id(key) == player, "joined: the player id is not its key's")
        require(player not in self.entrants, f"joined: {name} is in the tournament already")
        require(
            not computer or bool(self.level),
            "joined: this tournament fills no seat with the computer",
        )
        proof = entrant_payload(self.id, self.director, self.opened, name, computer)
        require(verify(key, proof, entry["proof"]), "joined: the player did not sign the entry")
        require(len(self.entrants) < MOST_PLAYERS, f"joined: {MOST_PLAYERS} players at most")
        if self.tournament is None:
            self.waiting.append(Player(len(self.waiting) + 1, player, name))
        else:
            self.tournament = self._changed(lambda t: t.add_player(player, name), "joined")
        self.entrants[player] = Entrant(player, key, name, computer)

    def _on_withdrawn(self, entry: dict[str, Any]) -> None:
        player = entry["player"]
        require(player in self.entrants, "withdrawn: no such player in the tournament")
        if self.tournament is None:
            require(player not in self.withdrawn_early, "withdrawn: has withdrawn already")
            self.withdrawn_early.append(player)
        else:
            self.tournament = self._changed(lambda t: t.withdraw(player), "withdrawn")

    def _on_round(self, entry: dict[str, Any]) -> None:
        tournament = self.tournament
        if tournament is None:
            tournament = self._created()
        pairings = tuple(Pairing(white, black) for white, black in entry["pairings"])
        proposed = Round(entry["round"], pairings, tuple(entry["byes"]))
        try:
            faults = check_round(tournament, proposed)
            expected = None if faults else tournament.expected_round()
        except (TournamentError, PairingImpossibleError) as error:
            raise Rejected(f"round: {error}") from error
        require(expected is not None, f"round: not the system's pairing: {'; '.join(faults)}")
        assert expected is not None
        require(
            (expected.pairings, expected.byes) == (pairings, proposed.byes),
            "round: not the system's board order: "
            + " ".join(map(str, expected.pairings))
            + "".join(f", bye {bye}" for bye in expected.byes),
        )
        self.tournament = tournament.start_round(proposed)

    def _created(self) -> Tournament:
        """The tournament of the players entered, seeded in the order they joined, those
        withdrawn before the first round withdrawn from it."""
        try:
            made = Tournament.create(self.game, self.format, self.waiting, self.rounds_asked)
            for player in self.withdrawn_early:
                made = made.withdraw(player)
        except TournamentError as error:
            raise Rejected(f"round: {error}") from error
        return made

    def _changed(self, change: Callable[[Tournament], Tournament], kind: str) -> Tournament:
        assert self.tournament is not None
        try:
            return change(self.tournament)
        except TournamentError as error:
            raise Rejected(f"{kind}: {error}") from error

    def _on_over(self, entry: dict[str, Any]) -> None:
        require(
            self.tournament is not None and self.tournament.over,
            "over: the tournament has rounds or results to come",
        )
        self.over = True

    def _on_result(self, entry: dict[str, Any], record: bytes | None) -> None:
        number, board = entry["round"], entry["board"]
        result = Result(entry["result"])
        rounds = self.tournament.rounds if self.tournament is not None else ()
        require(number <= len(rounds), f"result: round {number} has not been paired")
        games = rounds[number - 1].pairings
        where = f"round {number} board {board + 1}"
        require(board < len(games), f"result: {where} is no pairing the system made")
        require((number, board) not in self.scored, f"result: {where} is already scored")
        match = tournament_match(self.id, number, board)
        require(entry["match"] == match, f"result: {entry['match']} is not {where}'s match id")
        pairing = games[board]
        if entry["record"] is None:
            self._forfeit_without_record(pairing, result, where)
        else:
            require(record is not None, f"result: {where}'s match record is missing")
            assert record is not None
            require(
                record_digest(record) == entry["record"],
                f"result: the record given is not the one {where}'s result names",
            )
            scored = judge_record(record, self.game, pairing, match)
            require(
                scored is result,
                f"result: {where} is entered {result.value}, its record says {scored.value}",
            )
        self.tournament = self._changed(lambda t: t.record(number, board, result), "result")
        self.scored[number, board] = entry["record"]

    def _forfeit_without_record(self, pairing: Pairing, result: Result, where: str) -> None:
        if result is Result.DRAW and self.time:  # the round's time ran out (the director's word)
            return
        loser = {Result.WHITE_FORFEITS: pairing.white, Result.BLACK_FORFEITS: pairing.black}
        gone = loser.get(result)
        require(gone is not None, f"result: {where} has no match record")
        assert gone is not None and self.tournament is not None
        require(
            self.tournament.withdrawn_from(gone) is not None,
            f"result: {where} is a forfeit without a record against a player still in",
        )


def judge_record(data: bytes, game: Variant, pairing: Pairing, match: str) -> Result:
    """The result the match record ``data`` gives the game ``pairing`` of the tournament
    plays under ``match``; :class:`Rejected` if it does not verify or is not of that pairing.
    A record whose fork proof holds — one of the two players signed two different logs of
    the match — gives a double forfeit: the game cannot be decided, and is not scored."""
    try:
        version, entries, fork = records.parse(data, "the match record")
    except records.RecordError as error:
        raise Rejected(f"result: {error}") from error
    require(version == records.RECORD_VERSION, "result: a record of an older protocol")
    if fork is not None:
        report = records.verify(entries, version, fork)
        if "fork" not in report:
            raise Rejected(f"result: the match record does not verify: {report['error']}")
    try:
        log = replay(entries, records.READABLE[version])
    except Rejected as error:
        raise Rejected(f"result: the match record does not verify: {error.reason}") from error
    require(log.match_id == match, "result: the record is of another match (another pairing's)")
    require(log.variant == game, f"result: the record is of {log.variant.describe()}")
    require(log.record.setup is None, "result: the match did not start from the game's start")
    owners = tuple(seat.owner for seat in log.seats)
    require(
        owners == pairing.players,
        "result: the record's players are not the pairing's, White in seat 1",
    )
    require(log.entries[0]["host"] in pairing.players, "result: the match's host did not play it")
    if fork is not None:
        signers = {log.keys[player] for player in pairing.players if player in log.keys}
        require(fork["key"] in signers, "result: the match forked by neither of its players")
        return Result.DOUBLE_FORFEIT
    return _result_of(log, pairing)


def _result_of(log: MatchLog, pairing: Pairing) -> Result:
    if log.phase == ABANDONED:
        loser: dict[tuple[str, ...], Result] = {
            (pairing.white,): Result.WHITE_FORFEITS,
            (pairing.black,): Result.BLACK_FORFEITS,
        }
        return loser.get(log.forfeit, Result.DOUBLE_FORFEIT)  # both sides gone, or neither
    require(log.phase == OVER, "result: the match is not over in its record")
    ended = log.state.result()
    assert ended is not None
    outcomes: dict[tuple[Outcome, ...], Result] = {
        (Outcome.WIN, Outcome.LOSS): Result.WHITE_WINS,
        (Outcome.LOSS, Outcome.WIN): Result.BLACK_WINS,
        (Outcome.DRAW, Outcome.DRAW): Result.DRAW,
        (Outcome.WIN, Outcome.WIN): Result.DRAW,  # Numeri's equal totals share the win
    }
    scored = outcomes.get(ended.outcomes)
    require(scored is not None, f"result: the match ended {ended}, no result of two players")
    assert scored is not None
    return scored


def replay_tournament(
    entries: list[dict[str, Any]], match_records: Mapping[bytes, bytes]
) -> TournamentLog:
    """The log of ``entries``, each ``result`` judged with its record from
    ``match_records`` (by digest); :class:`Rejected` naming the first entry refused."""
    if not entries:
        raise Rejected("the tournament record has no entries")
    try:
        log = TournamentLog(entries[0])
    except Rejected as error:
        raise Rejected(f"entry 1 (open): {error.reason}") from error
    for number, entry in enumerate(entries[1:], 2):
        name = entry.get("record") if isinstance(entry, dict) else None
        record = match_records.get(name) if isinstance(name, bytes) else None
        try:
            log.apply(entry, record)
        except Rejected as error:
            kind = entry.get("k") if isinstance(entry, dict) else None
            raise Rejected(f"entry {number} ({kind}): {error.reason}") from error
    return log


# -- writing ---------------------------------------------------------------------------


def seal(log: TournamentLog | None, director: Identity, content: dict[str, Any]) -> dict[str, Any]:
    """``content`` as the director places it next in ``log`` (None: the opening): its
    position, the head before it, the director's signature."""
    position = len(log) if log is not None else 0
    previous = log.heads[-1] if log is not None else NO_HEAD
    tournament = log.id if log is not None else content["id"]
    entry = {**content, "at": position, "prev": previous}
    return {
        **entry,
        "sig": director.sign(tournament_payload(tournament, position, previous, entry)),
    }


def entrant_proof(player: Identity, log: TournamentLog, name: str, computer: bool) -> bytes:
    """``player``'s signature entering the tournament of ``log`` as ``name``."""
    return player.sign(entrant_payload(log.id, log.director, log.opened, name, computer))


def joined(player: Identity, log: TournamentLog, name: str, computer: bool) -> dict[str, Any]:
    """The content of a ``joined`` entry for ``player``, with the player's proof."""
    return {
        "k": "joined", "player": player.peer, "key": player.key, "name": name,
        "computer": computer, "proof": entrant_proof(player, log, name, computer),
    }  # fmt: skip
