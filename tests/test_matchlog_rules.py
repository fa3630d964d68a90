"""Every rule of the match log pinned by a dishonest member pushing the entry it forbids
(issue 28: "every rule of the log and every limit has a test that fails without it").

Each test is the attack an outside review found the suite blind to: the rule taken out of
``net/matchlog.py`` by hand (or by ``mutmut``, docs/TESTING.md) and every other test still
passed.  Each entry here is signed by its author and placed by an honest host, so that the
log's own rule, not a signature, is what refuses it; and each test then shows what the rule
protects (a seat left without its person, a draw nobody agreed to, a host change on votes
for no log).
"""

from __future__ import annotations

import pytest

from net.matchlog import MatchLog, Rejected
from net.signing import vote_payload
from tests.net_helpers import MATCH, Table


def _refused_everywhere(table: Table, entry: dict, reason: str) -> None:
    """``entry`` (bare: sealed here by its author and the host) refused by every log of
    ``table`` for ``reason``, each log unchanged."""
    sealed = table.seal(entry)
    for log in table.logs:
        head, length = log.heads[-1], len(log)
        with pytest.raises(Rejected, match=reason):
            log.apply(dict(sealed))
        assert (log.heads[-1], len(log)) == (head, length)


def _owners(log: MatchLog) -> list[str | None]:
    return [seat.owner for seat in log.seats]


# -- seats only before the start ------------------------------------------------------------


def _four_with_a_computer(seat: int = 3) -> Table:
    """Numeri for four in the lobby: three persons seated and ready, seat ``seat`` + 1
    given to the computer by the host."""
    table = Table("numeri", 4)
    table.put({"k": "seat", "peer": table.peers[3], "seat": -1})
    table.put({"k": "computer", "peer": table.peers[0], "seat": seat, "level": "hard"})
    return table


@pytest.mark.parametrize("wanted", [-1, 0, 2, 3])
def test_a_player_cannot_stand_up_or_change_seats_once_the_match_has_started(wanted: int) -> None:
    """Mid-match, a guest that stands up (-1) would leave her seat with nobody to play it
    and the match stuck; one that moves to another's seat (0, 2) or the computer's (3)
    would play a seat nobody gave her.  Every log refuses each; the seats stay as they
    started, each person's with its person."""
    table = _four_with_a_computer()
    table.start()
    guest = table.peers[1]
    owners = _owners(table.log)
    entry = {"k": "seat", "peer": guest, "seat": wanted}
    _refused_everywhere(table, entry, "seats are chosen before the match starts")
    for log in table.logs:
        assert _owners(log) == owners
        assert log.seat_of(guest) == 1 and log.actor(1) == guest
        assert all(seat.owner is not None for seat in log.seats if seat.human)


def test_a_player_cannot_stand_up_after_the_match_is_over() -> None:
    table = Table("dama")
    table.start()
    table.put(table.act_entry("resign2", seat=1))
    assert table.log.phase == "over"
    _refused_everywhere(
        table, {"k": "seat", "peer": table.peers[1], "seat": -1}, "before the match starts"
    )
    assert table.log.seat_of(table.peers[1]) == 1


def test_in_the_lobby_a_player_may_stand_up_and_sit_down_again() -> None:
    """The same entries before the start: accepted (the refusal above is the phase's)."""
    table = _four_with_a_computer()
    guest = table.peers[1]
    table.put({"k": "seat", "peer": guest, "seat": -1})
    assert table.log.seat_of(guest) is None and not table.log.members[guest].ready
    table.put({"k": "seat", "peer": guest, "seat": 1})
    assert table.log.seat_of(guest) == 1


# -- a draw offer counts at its own ply only ------------------------------------------------


def _dama_after_two_moves() -> Table:
    table = Table("dama")
    table.start()
    table.act("22-18")
    table.act("11-15")
    return table


@pytest.mark.parametrize("ply", [0, 1, 3, 4])
def test_a_stale_or_early_draw_offer_is_refused_and_agrees_no_draw(ply: int) -> None:
    """White offers a draw at ply 2; black, losing nothing by it, pushes an offer made for
    another position (an earlier ply, or one ahead): were it counted, the two offers would
    agree a draw white offered for this position and black for another one."""
    table = _dama_after_two_moves()
    white, black = table.peers
    table.put({"k": "offer", "peer": white, "ply": 2})
    _refused_everywhere(
        table, {"k": "offer", "peer": black, "ply": ply}, f"offer at ply {ply}, ply 2 is next"
    )
    for log in table.logs:
        assert log.phase == "playing" and log.ply == 2
    table.put({"k": "offer", "peer": black, "ply": 2})  # the offer at this ply agrees it
    assert table.log.phase == "over" and table.log.record.notation()[-1] == "draw"


def test_an_offer_lapses_with_the_move_after_it() -> None:
    """Black offered at ply 1 and white moved instead of taking it: black's offer is gone,
    so white's offer at ply 2 alone agrees nothing."""
    table = Table("dama")
    table.start()
    white, black = table.peers
    table.act("22-18")
    table.put({"k": "offer", "peer": black, "ply": 1})
    table.act("11-15")
    table.put({"k": "offer", "peer": white, "ply": 2})
    assert table.log.phase == "playing"


# -- a vote holds at least one entry of the log --------------------------------------------


def _vote_at(table: Table, voter: int, candidate: int, at: int) -> list:
    log = table.log
    payload = vote_payload(MATCH, log.host, table.peers[candidate], at, log.head_bytes(at))
    return [table.peers[voter], at, table.identities[voter].sign(payload)]


def test_a_vote_that_holds_no_entry_of_the_log_is_refused() -> None:
    """A vote at position 0 signs no head: it names no log, so it would hold for every
    branch a dishonest host shows and for every later host of the match id.  A guest that
    signed such a vote (or whoever kept one) cannot use it to change the host."""
    table = Table("numeri", 3)
    table.start()
    zero = _vote_at(table, 2, 1, 0)
    entry = {"k": "host", "peer": table.peers[1], "addr": "", "votes": [table.vote(1, 1), zero]}
    _refused_everywhere(table, entry, "host: a vote holding 0 entries")
    assert table.log.host == table.peers[0]
    beyond = [*_vote_at(table, 2, 1, len(table.log))[:1], len(table.log) + 1, bytes(64)]
    entry = {"k": "host", "peer": table.peers[1], "addr": "", "votes": [table.vote(1, 1), beyond]}
    _refused_everywhere(table, entry, "more than this log")
    first = _vote_at(table, 2, 1, 1)  # the least a vote may hold: the match entry
    table.put({"k": "host", "peer": table.peers[1], "addr": "", "votes": [table.vote(1, 1), first]})
    assert all(log.host == table.peers[1] for log in table.logs)


def test_a_vote_at_position_zero_alone_cannot_replace_a_lobby_host() -> None:
    """In the lobby, with a signed-at-zero vote the only one besides the candidate's."""
    table = Table("numeri", 3)
    entry = {
        "k": "host", "peer": table.peers[1], "addr": "",
        "votes": [_vote_at(table, 1, 1, len(table.log)), _vote_at(table, 2, 1, 0)],
    }  # fmt: skip
    _refused_everywhere(table, entry, "a vote holding 0 entries")
