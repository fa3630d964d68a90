"""The seat agent (net/seat.py) in process: what a peer sends the match after every change —
ready, coaching, the start, dice, its decisions — and what it tells its screen, driven on
logs made by :class:`tests.net_helpers.Table`; a guest's requests land on a recorded line,
a host's are placed in its log.  No socket, no worker process, no wall clock."""

from __future__ import annotations

import asyncio
import types
from typing import Any

import pytest

import net.hosting
import net.seat
from game.rules import RulesError
from net.agent import Turn
from net.hosting import IN_TOUCH
from net.identity import Identity
from net.role import Role
from net.seat import SeatAgent
from tests.net_helpers import Table
from tests.role_fakes import Clock, Line, peer_at, relay, relay_requests


def _run(coroutine: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, 20))


def _lobby(game: str = "dama", players: int | None = None, logs: int | None = None) -> Table:
    """The host seated, the others joined, seated and not ready (``logs``: as Table)."""
    table = Table(game, players, seated=False, logs=logs)
    for n, identity in enumerate(table.identities):
        table.put(table.join_entry(identity, f"p{n + 1}", seat=n))
    return table


def _said(line: Line) -> list[dict[str, Any]]:
    """The requests on ``line`` but the dice (every peer commits to the lot in the lobby)."""
    return [e for e in line.requests() if e["k"] not in ("commit", "reveal")]


def _kinds(entries: list[dict[str, Any]]) -> list[str]:
    return [e["k"] for e in entries if e["k"] not in ("commit", "reveal")]


def _guest(table: Table, index: int = 1, **changes: Any):
    peer, seen = peer_at(table, index, **changes)
    line = Line(table.peers[0])
    peer.guest_side.upstream = line  # type: ignore[assignment]
    return peer, seen, line


# -- the lobby --------------------------------------------------------------------------


def test_a_headless_guest_allows_coaching_then_says_ready_once() -> None:
    table = _lobby()
    peer, _, line = _guest(table, autostart=True, allow_coaching=True)
    peer.seats.after_change()
    assert [(e["k"], e.get("allow"), e.get("ready")) for e in _said(line)] == [
        ("coach", True, None),
        ("ready", None, True),
    ]
    peer.seats.after_change()  # not in the log yet: nothing said twice
    assert len(_said(line)) == 2
    relay_requests(table, line)
    assert table.log.members[peer.me].ready and table.log.members[peer.me].coach
    relay(table, peer._signed({"k": "ready", "peer": peer.me, "ready": False}))
    peer.seats.after_change()  # made unready by hand: once a match, not again
    assert _said(line) == []


def test_a_headless_guest_that_does_not_allow_coaching_only_says_ready() -> None:
    table = _lobby()
    peer, _, line = _guest(table, autostart=True)
    peer.seats.after_change()
    assert [e["k"] for e in _said(line)] == ["ready"]


@pytest.mark.parametrize("why", ["no autostart", "spectator", "ready already", "hosting"])
def test_a_guest_says_ready_only_headless_seated_and_not_ready_yet(why: str) -> None:
    table = _lobby()
    if why == "spectator":
        table = Table("dama", seated=False)
        table.put(table.join_entry(table.identities[0], "p1", seat=0))
        table.put(table.join_entry(table.identities[1], "p2", role="spectator"))
    if why == "ready already":
        table.put({"k": "ready", "peer": table.peers[1], "ready": True})
    role = Role.CUT_OFF if why == "hosting" else None
    peer, _, line = _guest(table, autostart=why != "no autostart", role=role)
    peer.seats.after_change()
    assert [e["k"] for e in _said(line)] == []


def test_a_headless_host_allows_coaching_for_its_seat_once() -> None:
    table = _lobby(logs=1)
    host, _ = peer_at(table, 0, allow_coaching=True)
    host.seats.after_change()
    assert table.log.members[host.me].coach
    assert _kinds(table.log.entries[3:]) == ["coach"]
    relay(table, host._signed({"k": "coach", "peer": host.me, "allow": False}))
    host.seats.after_change()
    assert _kinds(table.log.entries[3:]) == ["coach", "coach"]  # once a match


def test_a_headless_host_starts_once_every_player_is_ready_and_not_before() -> None:
    table = _lobby(logs=1)
    host, _ = peer_at(table, 0, autostart=True)
    host.seats.after_change()
    assert table.log.phase == "lobby"  # p2 is not ready
    table.put({"k": "ready", "peer": table.peers[1], "ready": True})
    host.seats.after_change()
    assert table.log.phase == "playing"


def test_a_host_not_told_to_start_does_not_start() -> None:
    table = _lobby(logs=2)
    table.put({"k": "ready", "peer": table.peers[1], "ready": True})
    host, _ = peer_at(table, 0)
    host.seats.after_change()
    assert table.log.phase == "lobby"
    guest, _, line = _guest(table, autostart=True)
    guest.seats.after_change()  # a guest never asks for the start
    assert "start" not in [e["k"] for e in _said(line)]


# -- pauses, chance events, dice ------------------------------------------------------------


def test_the_screen_is_told_of_a_pause_with_whom_it_waits_for_and_of_the_resumption() -> None:
    table = Table("dama", logs=1)
    table.start()
    host, seen = peer_at(table, 0)
    host.seats.after_change()
    assert seen.of("paused") == [] and seen.of("resumed") == []
    table.put({"k": "leave", "peer": table.peers[1], "reason": "connection lost"})
    host.seats.after_change()
    host.seats.after_change()
    assert seen.of("paused") == [{"waiting": ["p2"]}]
    table.put(table.join_entry(table.identities[1], "p2"))
    host.seats.after_change()
    assert seen.of("resumed") == [{"waiting": []}]
    assert seen.kinds().count("paused") == 1


def test_a_guest_that_lost_its_host_shows_the_match_paused() -> None:
    table = Table("dama")
    table.start()
    guest, seen, _ = _guest(table, role=Role.SEEKING)
    guest.seats.after_change()
    assert seen.of("paused") == [{"waiting": ["p1"]}]


def test_an_open_chance_event_is_told_once_and_the_dice_owed_are_sent() -> None:
    table = Table("numeri", 3)
    table.start()
    guest, seen, line = _guest(table)
    event = table.log.pending_event
    assert event is not None
    guest.seats.after_change()
    guest.seats.after_change()
    assert seen.of("pending") == [{"number": event}]
    sent = relay_requests(table, line)
    assert sent and set(sent) <= {"commit", "reveal"}
    while table.dice():
        pass
    guest.seats.after_change()
    relay_requests(table, line)
    while table.dice():
        pass
    if table.log.pending_event is not None and table.log.pending_event != event:
        guest.seats.after_change()
        assert seen.of("pending")[-1] == {"number": table.log.pending_event}


def test_a_peer_that_will_not_reveal_again_says_why_once() -> None:
    table = Table("dama")
    table.start()
    guest, seen, _ = _guest(table)
    guest.agent.distrust = "the commitments changed after this peer revealed"
    guest.seats.after_change()
    guest.seats.after_change()
    assert guest.failure == "the commitments changed after this peer revealed"
    assert seen.of("error") == [{"text": guest.failure}]
    guest.failure = "something else first"
    guest.seats.after_change()
    assert guest.failure == "something else first"


def _others_dice(table: Table, but: int, kinds: tuple[str, ...] = ("commit", "reveal")) -> None:
    """The dice entries every peer but ``but`` owes now, of ``kinds``, logged."""
    for n, agent in enumerate(table.agents):
        if n != but:
            for request in agent.dice_requests(table.log):
                if request["k"] in kinds:
                    table.put({**request, "peer": agent.peer})


# -- decisions ----------------------------------------------------------------------------


def _playing_dama() -> Table:
    table = Table("dama")
    table.start()
    return table


def test_a_persons_turn_is_asked_once_and_the_decision_sent_with_its_digest() -> None:
    table = _playing_dama()
    table.act(table.log.state.action_to_str(table.log.state.legal_actions()[0]))
    guest, seen, line = _guest(table)  # p2 moves at ply 1
    guest.seats.after_change()
    guest.seats.after_change()
    assert seen.of("your_turn") == [{"seat": 1, "ply": 1}]
    assert guest.seats.waiting_turn == Turn(1, 1, "")
    state = guest.log.state
    text = state.action_to_str(state.legal_actions()[0])
    guest.decide(text)
    assert seen.of("sent") == [{"ply": 1, "seat": 1, "action": text}]
    (act,) = _said(line)
    after = state.apply(state.parse_action(text))
    assert (act["k"], act["seat"], act["ply"], act["a"], act["d"]) == (
        "act", 1, 1, text, after.digest(),
    )  # fmt: skip
    assert guest.seats.waiting_turn is None
    guest.seats.after_change()  # sent, not logged yet: not asked again
    assert len(seen.of("your_turn")) == 1
    relay_requests(table, line)
    assert table.log.ply == 2


def test_a_persons_illegal_decision_is_reported_and_the_turn_stays_open() -> None:
    table = _playing_dama()
    host, seen = peer_at(table, 0)
    host.seats.after_change()
    host.decide("not a move")
    with pytest.raises(RulesError) as caught:
        table.log.state.parse_action("not a move")
    assert seen.of("rejected") == [{"kind": "act", "reason": str(caught.value)}]
    assert table.log.ply == 0 and host.seats.waiting_turn == Turn(0, 0, "")
    state = table.log.state
    host.decide(state.action_to_str(state.legal_actions()[0]))
    assert table.log.ply == 1


def test_a_decision_for_a_turn_that_has_passed_is_dropped() -> None:
    table = _playing_dama()
    host, seen = peer_at(table, 0)
    host.seats.after_change()
    turn = host.seats.waiting_turn
    assert turn is not None
    host.decide(table.log.state.action_to_str(table.log.state.legal_actions()[0]))
    state = table.log.state
    host.seats.send_action(turn, state.action_to_str(state.legal_actions()[0]))
    assert table.log.ply == 1 and len(seen.of("sent")) == 1
    host.log = None
    host.seats.send_action(turn, "anything")  # no match: nothing
    host.decide("anything")
    assert len(seen.of("sent")) == 1


def test_a_refused_action_is_owed_again_and_a_refused_reveal_sent_again() -> None:
    table = _playing_dama()
    host, _seen = peer_at(table, 0)
    guest, gseen, line = _guest(table)
    host.seats.after_change()
    state = table.log.state
    text = state.action_to_str(state.legal_actions()[0])
    guest.seats._decided.add((0, 0))
    guest.seats.rejected("act", "out of sequence")
    assert (0, 0) not in guest.seats._decided
    assert gseen.of("rejected") == [{"kind": "act", "reason": "out of sequence"}]
    host.decide(text)
    assert table.log.ply == 1

    dice = Table("numeri", 3)
    dice.start()
    guest, _, line = _guest(dice)
    while not dice.log.needs_reveal(guest.me):  # every commitment in: reveals are owed
        guest.seats.after_change()
        relay_requests(dice, line)
        _others_dice(dice, 1)
    guest.seats.after_change()
    reveals = [e for e in line.requests() if e["k"] == "reveal"]
    assert len(reveals) == 1
    guest.seats.rejected("commit", "whatever")
    assert [e["k"] for e in line.requests()].count("reveal") == 1  # only a reveal is sent again
    guest.seats.rejected("reveal", "the event opened otherwise")
    again = [e for e in line.requests() if e["k"] == "reveal"]
    assert len(again) == 2 and again[1]["event"] == reveals[0]["event"]


def _owing_reveal() -> tuple[Table, Any, Line]:
    """A Numeri match of three where the guest (seat 1) owes its reveal."""
    table = Table("numeri", 3)
    table.start()
    guest, _, line = _guest(table)
    while not table.log.needs_reveal(guest.me):
        guest.seats.after_change()
        relay_requests(table, line)
        _others_dice(table, 1)
    return table, guest, line


def test_a_guest_refused_again_and_again_waits_longer_each_time_instead_of_flooding() -> None:
    """A host cut off from most of the match refuses every request and tells nobody when
    it is back.  The guest asks again at once after the first refusal, then after 0.05,
    0.1, 0.2 … seconds: in half a second of refusals answered at once it sends its reveal
    a handful of times, not as fast as the line answers (a slow machine only sends fewer);
    an entry logged meanwhile sends it at once."""
    table, guest, line = _owing_reveal()
    cut_off = "the host is cut off from most of the players: the match waits"

    def reveals() -> int:
        return sum(e["k"] == "reveal" for e in line.requests())

    async def refused_for(seconds: float) -> int:
        answered = 0
        loop = asyncio.get_running_loop()
        end = loop.time() + seconds
        while loop.time() < end:
            for _ in range(answered, reveals()):  # the host refuses each within a millisecond
                answered += 1
                guest.seats.rejected("reveal", cut_off)
            await asyncio.sleep(0.001)
        return reveals()

    async def scene() -> None:
        guest.seats.after_change()
        assert reveals() == 1
        sent = await refused_for(0.5)
        assert 2 <= sent <= 6, sent  # 1, at once, then after 0.05 0.1 0.2 (0.35 s in all)
        while reveals() == sent:  # and it does go on asking (at most 2 s later)
            await asyncio.sleep(0.01)
        logged = len(table.log)
        watcher = table.join_entry(Identity.fresh(), "watcher", role="spectator")
        table.put(watcher)  # the match moved on: a spectator came
        assert len(table.log) == logged + 1
        before = reveals()
        guest.seats.rejected("reveal", cut_off)  # the first refusal since: sent at once
        assert reveals() == before + 1
        for task in list(guest._tasks):
            task.cancel()

    _run(scene())


def test_a_host_cut_off_asks_for_its_own_reveal_once_and_again_once_back_in_touch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A host woken from a freeze between the entry that opened a chance event and its own
    reveal of it finds itself cut off: it refuses its own reveal, once — asking again within
    the refusal recursed until the stack ran out — and sends it once it is back in touch."""
    clock = Clock()
    monkeypatch.setattr(net.hosting, "time", clock.namespace())
    table = Table("numeri", 3)
    table.start()
    _others_dice(table, 0, ("commit",))
    (commit,) = table.agents[0].dice_requests(table.log)
    table.put({**commit, "peer": table.peers[0]})
    host, seen = peer_at(table, 0)
    lines = {p: Line(p, heard_at=clock.now - IN_TOUCH - 13) for p in table.peers[1:]}
    host.host_side.clients = lines  # type: ignore[assignment]
    assert table.log.needs_reveal(host.me) and not host.host_side.holds_majority()
    host.seats.after_change()
    cut_off = "the host is cut off from most of the players: the match waits"
    assert seen.of("rejected") == [{"kind": "reveal", "reason": cut_off}]
    assert table.log.needs_reveal(host.me)
    lines[table.peers[1]].heard_at = clock.now  # in touch with two of three again
    host.seats.after_change()
    assert host.me in table.log.reveals and len(seen.of("rejected")) == 1


def test_after_a_host_change_only_the_decisions_of_the_current_ply_are_owed_again() -> None:
    table = _playing_dama()
    host, _ = peer_at(table, 0)
    agent = host.seats
    agent._decided = {(0, 0), (1, 1), (0, 2)}
    table.act(table.log.state.action_to_str(table.log.state.legal_actions()[0]))
    table.act(table.log.state.action_to_str(table.log.state.legal_actions()[0]))
    assert table.log.ply == 2
    host.agent._sent.add(("commit", 1))
    agent.resend_after_host_change()
    assert agent._decided == {(0, 0), (1, 1)}
    assert host.agent._sent == set()
    host.log = None
    agent.resend_after_host_change()  # no log: nothing to keep or drop
    assert agent._decided == {(0, 0), (1, 1)}


class _Thinker:
    """The worker process's stand-in: the first legal action, or an error."""

    def __init__(self, error: Exception | None = None, gives_up: bool = False) -> None:
        self.asked: list[tuple[str, int]] = []
        self.error, self.gives_up = error, gives_up
        self.closed = False

    async def decide(self, state: Any, level: str, seed: int) -> int | None:
        self.asked.append((level, seed))
        if self.error is not None:
            raise self.error
        return None if self.gives_up else state.legal_actions()[0]

    async def aclose(self) -> None:
        self.closed = True


def test_the_computer_decides_a_computer_seat_with_its_level_and_a_seed_of_the_match() -> None:
    table = Table("dama", seats=["", "hard"], seated=False, logs=1)
    table.put(table.join_entry(table.identities[0], "p1", seat=0))
    table.start()
    table.act(table.log.state.action_to_str(table.log.state.legal_actions()[0]))

    async def scenario() -> None:
        host, seen = peer_at(table, 0)  # its own seat is its person's
        thinker = _Thinker()
        host.seats._thinker = thinker  # type: ignore[assignment]
        host.seats.after_change()
        host.seats.after_change()  # already thinking: once
        for _ in range(5):
            await asyncio.sleep(0)
        assert thinker.asked == [("hard", int(table.log.match_id[:8], 16) + 1)]
        assert table.log.ply == 2 and seen.of("sent")[0]["seat"] == 1
        assert host.seats._thinking == {}

    _run(scenario())


def test_a_peers_own_seat_played_by_the_computer_at_its_level() -> None:
    table = _playing_dama()

    async def scenario() -> None:
        host, _ = peer_at(table, 0, level="easy")
        thinker = _Thinker()
        host.seats._thinker = thinker  # type: ignore[assignment]
        host.seats.after_change()
        for _ in range(5):
            await asyncio.sleep(0)
        assert thinker.asked == [("easy", int(table.log.match_id[:8], 16))]

    _run(scenario())


@pytest.mark.parametrize("gives_up", [False, True])
def test_a_computer_that_fails_or_gives_up_sends_nothing_and_the_error_is_told(
    gives_up: bool,
) -> None:
    table = _playing_dama()

    async def scenario() -> None:
        host, seen = peer_at(table, 0, level="easy")
        thinker = _Thinker(None if gives_up else RuntimeError("boom"), gives_up)
        host.seats._thinker = thinker  # type: ignore[assignment]
        host.seats.after_change()
        for _ in range(5):
            await asyncio.sleep(0)
        assert table.log.ply == 0 and host.seats._thinking == {}
        errors = [] if gives_up else [{"text": "the computer player failed: RuntimeError('boom')"}]
        assert seen.of("error") == errors

    _run(scenario())


def test_a_computer_decision_waits_for_the_pace(monkeypatch: pytest.MonkeyPatch) -> None:
    table = _playing_dama()
    slept: list[float] = []
    clock = [50.0]

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    fake = types.SimpleNamespace(
        sleep=sleep, get_running_loop=asyncio.get_running_loop, Task=asyncio.Task
    )
    monkeypatch.setattr(net.seat, "asyncio", fake)
    monkeypatch.setattr(net.seat, "time", types.SimpleNamespace(monotonic=lambda: clock[0]))

    async def scenario() -> None:
        host, _ = peer_at(table, 0, level="easy", pace=0.75)
        thinker = _Thinker()

        async def slow(state: Any, level: str, seed: int) -> int:
            clock[0] += 0.25  # it thought for a quarter of a second
            return state.legal_actions()[0]

        thinker.decide = slow  # type: ignore[method-assign]
        host.seats._thinker = thinker  # type: ignore[assignment]
        host.seats.after_change()
        for _ in range(5):
            await asyncio.sleep(0)
        assert slept == [0.5] and table.log.ply == 1

    _run(scenario())


def test_closing_gives_up_every_decision_under_way() -> None:
    async def scenario() -> None:
        table = _playing_dama()
        host, _ = peer_at(table, 0, level="easy")
        thinker = _Thinker()
        host.seats._thinker = thinker  # type: ignore[assignment]
        never = asyncio.get_running_loop().create_future()
        task = asyncio.get_running_loop().create_task(asyncio.wait_for(never, 100))
        host.seats._thinking[(0, 0)] = task
        await host.seats.close()
        await asyncio.sleep(0)
        assert task.cancelled() and thinker.closed

    _run(scenario())


# -- the end ------------------------------------------------------------------------------


@pytest.mark.parametrize("hosting", [True, False])
def test_the_end_is_told_once_with_the_result_and_the_peer_finishes(
    hosting: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    monkeypatch.setattr(
        net.seat, "asyncio", types.SimpleNamespace(sleep=sleep, Task=asyncio.Task,
                                                   get_running_loop=asyncio.get_running_loop)
    )  # fmt: skip

    async def scenario() -> None:
        table = _playing_dama()
        table.put({"k": "leave", "peer": table.peers[1], "reason": "connection lost"})
        table.put({"k": "end", "peer": table.peers[0], "reason": "a player left"})
        peer, seen = peer_at(table, 0, role=None if hosting else Role.FOLLOWING)
        peer.seats.after_change()
        peer.seats.after_change()
        assert seen.of("over") == [
            {"phase": "abandoned", "result": "a player left", "digest": table.log.state.digest(),
             "forfeit": ["p2"], "ply": 0, "entries": len(table.log)},
        ]  # fmt: skip
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert peer.finished.is_set()
        assert slept == [0.3 if hosting else 0]

    _run(scenario())


def test_a_match_played_out_is_told_with_its_result() -> None:
    table = _playing_dama()
    for peer in table.peers:
        table.put({"k": "offer", "peer": peer, "ply": 0})
    assert table.log.phase == "over"

    async def scenario() -> None:
        host, seen = peer_at(table, 0)
        host.seats.after_change()
        (over,) = seen.of("over")
        assert over["result"] == str(table.log.state.result()) and over["forfeit"] == []

    _run(scenario())


# -- missing players --------------------------------------------------------------------


def _missing_third() -> Table:
    """Numeri of three, its first event decided, the third player gone."""
    table = Table("numeri", 3)
    table.start()
    table.settle_dice()
    table.put({"k": "leave", "peer": table.peers[2], "reason": "connection lost"})
    assert table.log.paused
    return table


def test_the_missing_players_seats_are_handed_to_the_computer_at_the_level_asked() -> None:
    table = _missing_third()
    guest, _, line = _guest(table)
    assert guest.can_hand_over()
    guest.hand_over_the_missing("hard")
    assert [(e["k"], e["seat"], e["level"]) for e in line.requests()] == [("computer", 2, "hard")]
    guest.end_for_the_missing()
    assert line.requests()[-1]["k"] == "end"
    assert line.requests()[-1]["reason"] == "a player left and did not come back"
    guest.log = None
    assert not guest.can_hand_over()
    guest.hand_over_the_missing("hard")
    assert len(line.requests()) == 2


def test_a_seat_is_not_handed_over_while_its_player_owes_an_open_event_a_reveal() -> None:
    table = Table("numeri", 3)
    table.start()
    assert table.log.pending_event is not None
    for _ in range(4):
        _others_dice(table, -1, ("commit",))
    assert table.log.needs_reveal(table.peers[2])
    table.put({"k": "leave", "peer": table.peers[2], "reason": "connection lost"})
    guest, _, _ = _guest(table)
    assert not guest.can_hand_over()


class _Sleeps:
    """``asyncio`` for net/seat.py whose ``sleep`` records and runs ``then`` after each."""

    def __init__(self, then: Any = None) -> None:
        self.slept: list[float] = []
        self.then = then
        self.Task = asyncio.Task

    def get_running_loop(self) -> asyncio.AbstractEventLoop:
        return asyncio.get_running_loop()

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        await asyncio.sleep(0)
        if self.then is not None:
            self.then()


@pytest.mark.parametrize("on_drop", ["computer", "end"])
def test_after_the_drop_timeout_the_peer_does_as_it_was_told(
    on_drop: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = _missing_third()

    async def scenario() -> None:
        guest, _, line = _guest(table, on_drop=on_drop, drop_timeout=30.0, drop_level="easy")
        sleeps = _Sleeps(lambda: relay_requests(table, line) if len(sleeps.slept) > 1 else None)
        monkeypatch.setattr(net.seat, "asyncio", sleeps)
        guest.seats.after_change()
        watch = guest.seats._drop_watch
        assert watch is not None
        guest.seats.after_change()
        assert guest.seats._drop_watch is watch  # one watch
        await watch
        assert sleeps.slept[0] == pytest.approx(30.2)
        assert sleeps.slept[1:] == [1.0]
        kinds = [e["k"] for e in table.log.entries[-2:]]
        if on_drop == "end":
            assert table.log.phase == "abandoned" and "end" in kinds
        else:
            assert table.log.phase == "playing" and table.log.seats[2].computer == "easy"
        assert guest.seats._drop_watch is None

    _run(scenario())


def test_a_peer_told_to_wait_keeps_no_watch() -> None:
    table = _missing_third()

    async def scenario() -> None:
        guest, _, _ = _guest(table, on_drop="wait")
        guest.seats.after_change()
        assert guest.seats._drop_watch is None

    _run(scenario())


def test_a_watch_that_finds_the_match_going_on_again_does_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = _missing_third()

    async def scenario() -> None:
        guest, _, line = _guest(table, on_drop="end", drop_timeout=5.0)
        back = lambda: table.put(table.join_entry(table.identities[2], "p3"))  # noqa: E731
        monkeypatch.setattr(net.seat, "asyncio", _Sleeps(back))
        guest.seats.after_change()
        assert guest.seats._drop_watch is not None
        await guest.seats._drop_watch
        assert line.requests() == [] and guest.seats._drop_watch is None

    _run(scenario())


def test_an_agent_without_a_log_sends_nothing() -> None:
    table = Table("dama")
    peer, seen, line = _guest(table)
    peer.log = None
    SeatAgent(peer).after_change()
    assert line.sent == [] and seen.events == []


def test_a_move_that_opens_a_chance_event_is_followed_by_this_peers_reveal() -> None:
    """Every commitment in force: the reveal goes right behind the move, and the event does
    not wait for the move to come back from the host first."""
    table = Table("numeri", 3)
    table.start()
    table.settle_dice()
    table.act(table.log.state.action_to_str(table.log.state.legal_actions()[0]))
    table.settle_dice()
    state = table.log.state
    guest, _, line = _guest(table, state.to_move)
    guest.seats.after_change()
    text = state.action_to_str(state.legal_actions()[0])
    guest.decide(text)
    act, reveal = line.requests()
    assert (act["k"], act["a"], reveal["k"], reveal["event"]) == (
        "act", text, "reveal", table.log.next_event,
    )  # fmt: skip
    relay_requests(table, line)
    assert table.log.reveals[guest.me] == reveal["v"]  # taken: the value was fixed


def test_the_watch_asks_again_every_second_while_the_match_still_waits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = _missing_third()
    asked: list[str] = []

    async def scenario() -> None:
        guest, _, line = _guest(table, on_drop="end", drop_timeout=30.0)

        def answer() -> None:  # the host places the request only after a second one came
            if len(sleeps.slept) > 2:
                asked.extend(e["k"] for e in _said(line))
                relay(table, _said(line)[0])

        sleeps = _Sleeps(answer)
        monkeypatch.setattr(net.seat, "asyncio", sleeps)
        guest.seats.after_change()
        assert guest.seats._drop_watch is not None
        await guest.seats._drop_watch
        assert sleeps.slept[1:] == [1.0, 1.0]
        assert asked == ["end", "end"] and table.log.phase == "abandoned"

    _run(scenario())


def test_closing_cancels_the_computers_decision_under_way() -> None:
    table = _playing_dama()

    async def scenario() -> None:
        host, _ = peer_at(table, 0, level="easy")
        thinker = _Thinker()
        started = asyncio.Event()

        async def forever(state: Any, level: str, seed: int) -> int:
            started.set()
            await asyncio.get_running_loop().create_future()
            return 0

        thinker.decide = forever  # type: ignore[method-assign]
        host.seats._thinker = thinker  # type: ignore[assignment]
        host.seats.after_change()
        await started.wait()
        (task,) = host.seats._thinking.values()
        await host.seats.close()
        await asyncio.sleep(0)
        assert task.cancelled() and thinker.closed and table.log.ply == 0

    _run(scenario())


def test_the_computer_thinks_for_the_time_this_peer_was_given() -> None:
    table = Table("dama")
    peer, _ = peer_at(table, 0, think_seconds=2.5)
    assert peer.seats._thinker.seconds == 2.5  # type: ignore[union-attr]


@pytest.mark.parametrize("hosting", [False, True])
def test_a_headless_peer_that_readied_or_allowed_coaching_still_reports_the_end(
    hosting: bool,
) -> None:
    """Each thing a peer does once a match is its own: having said ready (a guest) or
    allowed coaching (a host) does not keep it from reporting the end."""

    async def scenario() -> None:
        table = _lobby(logs=1 if hosting else None)
        index = 0 if hosting else 1
        peer, seen = peer_at(table, index, autostart=True, allow_coaching=True)
        line = Line(table.peers[0])
        if not hosting:
            peer.guest_side.upstream = line  # type: ignore[assignment]
        peer.seats.after_change()
        relay_requests(table, line)
        if hosting:
            table.put({"k": "ready", "peer": table.peers[1], "ready": True})
        peer.seats.after_change()
        relay_requests(table, line)
        if not hosting:  # the host of the table starts it
            table.start()
        assert table.log.phase == "playing"
        for p in table.peers:
            table.put({"k": "offer", "peer": p, "ply": 0})
        peer.seats.after_change()
        assert len(seen.of("over")) == 1

    _run(scenario())
