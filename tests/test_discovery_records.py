"""Announcements as the lobby reads them, without a network: what a host's TXT record says,
that nothing heard over multicast makes the reading raise, and the order matches are listed
in — waiting for players first, each host key's together, floods kept down."""

from __future__ import annotations

import asyncio
import socket
from dataclasses import replace
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from zeroconf.asyncio import AsyncServiceInfo

from game.rules import variant
from net import discovery
from net.discovery import SERVICE, Browser, Listing, decode, ordered, rank, twins, txt_record
from net.identity import Identity, fingerprint
from net.tournament_log import TournamentLog
from tests.test_tournament_log import Night

from .examples import examples

HOST = Identity(bytes(range(32)))
NAME = f"Corner table 1a2b3c.{SERVICE}"


def stand_in_log(**changes) -> SimpleNamespace:
    """What ``txt_record`` reads of a match log: a Dama match waiting for its second player."""
    fields = {
        "phase": "lobby",
        "paused": False,
        "variant": variant("dama:classic", 2),
        "free_seats": lambda: 1,
        "code_required": False,
        "name": "Corner table",
        "match_id": "1a2b3c4d" * 4,
        "host": HOST.peer,
        "keys": {HOST.peer: HOST.key},
    }
    return SimpleNamespace(**(fields | changes))


def wire(txt: dict[str, str]) -> dict[bytes, bytes | None]:
    """A TXT record as a browser receives it: packed by zeroconf, unpacked again."""
    return dict(AsyncServiceInfo(SERVICE, NAME, properties=txt).properties)


GOOD = wire(txt_record(stand_in_log()))


def test_a_hosts_record_reads_back_with_its_key_and_fingerprint() -> None:
    listing = decode(NAME, GOOD, ["198.18.77.1"], 40000)
    assert listing is not None
    assert listing.key == HOST.key.hex() and len(listing.key) == 64
    assert listing.fingerprint == fingerprint(HOST.key)
    assert (listing.host, listing.game, listing.free, listing.state) == (
        "Corner table", "dama:classic", 1, "lobby",
    )  # fmt: skip
    assert listing.compatible and listing.waiting and rank(listing) == 0
    assert listing.name == "Corner table 1a2b3c"
    assert listing.to_json()["fingerprint"] == fingerprint(HOST.key)


@given(host=st.text(st.characters(codec="utf-8"), max_size=40).filter(str.isprintable))
@settings(max_examples=examples(200), deadline=None)
def test_every_name_a_host_can_have_reads_back(host: str) -> None:
    listing = decode(NAME, wire(txt_record(stand_in_log(name=host))), ["10.0.0.2"], 1)
    assert listing is not None and listing.host == host


def _with(**fields: bytes | None) -> dict[bytes, bytes | None]:
    return {**GOOD, **{k.encode(): v for k, v in fields.items()}}


def _without(field: str) -> dict[bytes, bytes | None]:
    return {k: v for k, v in GOOD.items() if k != field.encode()}


@pytest.mark.parametrize(
    ("name", "properties", "addresses", "port"),
    [
        (NAME, {**GOOD, b"\xff\xfe": b"1"}, ["10.0.0.2"], 1),  # a key that is not UTF-8
        (NAME, _with(host=b"Corner \xc3("), ["10.0.0.2"], 1),  # a value that is not UTF-8
        (NAME, _with(host=b"Corner\x1b[2J"), ["10.0.0.2"], 1),  # a terminal escape
        (NAME, _with(host=b"Corner\x00table"), ["10.0.0.2"], 1),
        (NAME, _with(host="Corner \u202etable".encode()), ["10.0.0.2"], 1),  # bidi override
        (NAME, _with(host=b"C" * 41), ["10.0.0.2"], 1),
        (NAME, _with(players=b"9" * 5000), ["10.0.0.2"], 1),
        (NAME, _with(players="٣".encode()), ["10.0.0.2"], 1),  # a digit, but not 0-9
        (NAME, _with(players=b" 2"), ["10.0.0.2"], 1),
        (NAME, _with(players=b"0", free=b"0"), ["10.0.0.2"], 1),
        (NAME, _with(free=b"3"), ["10.0.0.2"], 1),  # more free seats than seats
        (NAME, _with(free=b"-1"), ["10.0.0.2"], 1),
        (NAME, _with(code=b"yes"), ["10.0.0.2"], 1),
        (NAME, _with(match=b""), ["10.0.0.2"], 1),
        (NAME, _with(state=b""), ["10.0.0.2"], 1),
        (NAME, _with(key=HOST.key.hex().upper().encode()), ["10.0.0.2"], 1),
        (NAME, _with(key=HOST.key.hex()[:62].encode()), ["10.0.0.2"], 1),
        (NAME, _with(key=b"g" * 64), ["10.0.0.2"], 1),
        (NAME, _with(key=None), ["10.0.0.2"], 1),  # "key" without "="
        (NAME, _without("key"), ["10.0.0.2"], 1),  # a host of before keys
        (NAME, _without("host"), ["10.0.0.2"], 1),
        (NAME, GOOD, [], 1),
        (NAME, GOOD, ["10.0.0.2"], 0),
        (NAME, GOOD, ["10.0.0.2"], 65536),
        (NAME, GOOD, ["10.0.0.2"], None),
        ("Corner table._other._tcp.local.", GOOD, ["10.0.0.2"], 1),
        (f"Corner\x07table.{SERVICE}", GOOD, ["10.0.0.2"], 1),
        (f"{'x' * 81}.{SERVICE}", GOOD, ["10.0.0.2"], 1),
        (f".{SERVICE}", GOOD, ["10.0.0.2"], 1),
    ],
)
def test_an_announcement_that_is_not_plainly_a_tavolo_match_is_skipped(
    name: str, properties: dict, addresses: list[str], port: int | None
) -> None:
    assert decode(NAME, GOOD, ["10.0.0.2"], 1) is not None  # only the change is wrong
    assert decode(name, properties, addresses, port) is None


def test_a_match_of_a_game_this_version_does_not_know_is_listed_as_another_version() -> None:
    unknown = decode(NAME, _with(game=b"scacchi"), ["10.0.0.2"], 1)
    too_many = decode(NAME, _with(players=b"4", free=b"3"), ["10.0.0.2"], 1)
    assert unknown is not None and not unknown.compatible and rank(unknown) == 2
    assert too_many is not None and not too_many.compatible  # Dama has two players


_bytes = st.binary(max_size=300)
_names = st.one_of(
    st.text(max_size=120).map(lambda s: f"{s}.{SERVICE}"),
    st.text(max_size=120),
    st.binary(max_size=120).map(lambda b: b.decode("utf-8", "surrogateescape") + "." + SERVICE),
)


@pytest.mark.slow
@given(
    name=_names,
    properties=st.dictionaries(
        st.sampled_from([k.encode() for k in discovery._LIMITS]) | _bytes,
        st.none() | _bytes | st.sampled_from(list(GOOD.values())),
        max_size=14,
    ),
    addresses=st.lists(st.ip_addresses(v=4).map(str), max_size=2),
    port=st.none() | st.integers(-(2**70), 2**70),
)
@settings(max_examples=examples(1500), deadline=None)
def test_decoding_never_raises_and_keeps_only_plain_text(
    name: str, properties: dict, addresses: list[str], port: int | None
) -> None:
    listing = decode(name, {**GOOD, **properties}, addresses, port)
    if listing is not None:
        texts = [listing.name, listing.game, listing.state, listing.host, listing.match]
        assert all(text.isprintable() and len(text) <= 80 for text in texts)
        assert listing.fingerprint == fingerprint(bytes.fromhex(listing.key))
        assert 0 <= listing.free <= listing.players and 0 < listing.port < 65536


class Answered(AsyncServiceInfo):
    async def async_request(self, *args, **kwargs) -> bool:
        return True


GOOD_TEXT = AsyncServiceInfo(SERVICE, NAME, properties=txt_record(stand_in_log())).text


@pytest.mark.slow
@given(
    name=_names | st.just(NAME),
    text=st.binary(max_size=600) | st.binary(max_size=100).map(lambda junk: GOOD_TEXT + junk),
)
@settings(max_examples=examples(1000), deadline=None)
def test_a_browser_resolving_any_name_and_record_never_raises(name: str, text: bytes) -> None:
    """Whatever zeroconf hands over — an instance name (which zeroconf itself may refuse)
    and the raw bytes of a TXT record — is listed as a match or skipped, never raised."""

    def heard(service: str, instance: str) -> AsyncServiceInfo:  # as if it had answered
        address = [socket.inet_aton("10.0.0.2")]
        return Answered(service, instance, addresses=address, port=40000, properties=text)

    found: list[Listing] = []
    browser = Browser(on_change=lambda change, listing: found.append(listing))
    browser._zc = SimpleNamespace(zeroconf=None)
    discovery.AsyncServiceInfo = heard
    try:
        asyncio.run(browser._resolve(name))
    finally:
        discovery.AsyncServiceInfo = AsyncServiceInfo
    assert len(found) + browser.skipped == 1
    if name == NAME and text == GOOD_TEXT:
        assert found and found[0].fingerprint == fingerprint(HOST.key)


# -- the order of the list -------------------------------------------------------------------


def listing(host: str, state: str = "lobby", free: int = 1, key: str = "", **fields) -> Listing:
    base = decode(NAME, GOOD, ["10.0.0.2"], 40000)
    assert base is not None
    key = key or Identity(host.encode().ljust(32, b".")[:32]).key.hex()
    return replace(
        base, name=fields.pop("name", f"{host} {state}"), host=host, state=state, free=free,
        key=key, fingerprint=fingerprint(bytes.fromhex(key)), **fields,
    )  # fmt: skip


def test_matches_waiting_for_players_come_first_then_under_way_then_the_rest() -> None:
    fakes = [listing(f"Abandoned {n}", "abandoned", 0) for n in range(8)]
    shown = ordered(
        [
            *fakes,
            listing("Zoe", "playing", 0),
            listing("Anna", "over", 0),
            listing("Bruno", "lobby", 0),  # full: watch it start
            listing("Carla", "lobby", 1, compatible=False),
            listing("Wendy", "lobby", 1),
            listing("Marco", "paused", 0),
            listing("dora", "lobby", 2),
        ]
    )
    assert [item.host for item in shown[:6]] == ["dora", "Wendy", "Bruno", "Marco", "Zoe", "Carla"]
    assert {item.state for item in shown[6:]} == {"abandoned", "over"}


def test_one_hosts_listings_stay_together_and_a_copy_under_another_key_is_marked() -> None:
    real = listing("Corner table")
    again = listing("Corner table", name="Corner table 2", match="f" * 32)  # same key
    copy = listing("Corner table", key="ab" * 32, name="Corner table-2")
    other = listing("Corner table two", match="e" * 32)
    shown = ordered([copy, other, real, again])
    mine = [n for n, item in enumerate(shown) if item.key == real.key]
    assert len(mine) == 2 and mine[1] == mine[0] + 1
    assert {item.name for item in shown} == {real.name, again.name, copy.name, other.name}
    assert twins(shown) == {real.name, again.name, copy.name}
    assert real.fingerprint != copy.fingerprint
    match_copy = listing("Somebody else", key="cd" * 32, match=real.match)
    assert twins([real, match_copy]) == {real.name, match_copy.name}
    assert twins([real, other]) == frozenset()


def test_a_flood_under_one_key_cannot_push_a_waiting_match_down() -> None:
    flood = [listing("Aaron", key="ee" * 32, name=f"Aaron {n}") for n in range(50)]
    real = listing("Zoe")
    shown = ordered([*flood, real])
    assert shown.index(real) == discovery.PER_KEY  # after the flooder's first two, not fifty


def test_a_full_table_takes_a_waiting_match_in_place_of_an_abandoned_one() -> None:
    changes: list[tuple[str, str]] = []
    browser = Browser(on_change=lambda change, item: changes.append((change, item.name)))
    for n in range(discovery.MAX_LISTINGS):
        browser._keep(f"fake {n}", listing(f"Fake {n}", "abandoned", 0, name=f"fake {n}"))
    changes.clear()
    browser._keep("another fake", listing("Fake", "abandoned", 0, name="another fake"))
    assert changes == [] and browser.skipped == 1
    browser._keep("real", listing("Zoe", name="real"))
    assert len(browser.listings) == discovery.MAX_LISTINGS and "real" in browser.listings
    assert [change for change, _name in changes] == ["gone", "found"]


# -- a tournament's announcement --------------------------------------------------------------


def _tournament_listing(log: TournamentLog, wanted: int, code: bool = False) -> Listing:
    txt = discovery.tournament_txt(log, wanted, code)
    listing = decode(f"Sera 0a0b0c.{SERVICE}", wire(txt), ["198.18.77.1"], 41000)
    assert listing is not None and listing.tournament and listing.compatible
    return listing


def test_a_tournament_reads_back_as_one_with_its_places_its_round_and_its_end() -> None:
    night = Night(4, "swiss")
    entering = _tournament_listing(night.log, 4, code=True)
    assert (entering.state, entering.free, entering.round) == ("entering", 4, 0)
    assert entering.players == 4 and entering.format == "swiss"
    assert entering.code and entering.waiting and rank(entering) == 0
    assert entering.key == night.log.director.hex() and entering.match == night.log.id
    assert entering.host == "Sera"
    night.enter_all()
    night.pair()
    swiss = _tournament_listing(night.log, 4)
    assert (swiss.state, swiss.round, swiss.free) == ("under way", 1, 60)  # late joiners: to 64
    assert swiss.waiting and rank(swiss) == 0
    round_robin = Night(4, "round-robin")
    round_robin.run()
    over = _tournament_listing(round_robin.log, 4)
    assert (over.state, over.free, over.round) == ("over", 0, 3) and rank(over) == 3
    under_way = replace(over, state="under way")
    assert not under_way.waiting and rank(under_way) == 1  # a round robin takes nobody late


@pytest.mark.parametrize(
    "change",
    [{b"kind": b"cup"}, {b"format": b"arena"}, {b"round": b"x"}, {b"round": b"1000"}],
)
def test_a_tournament_announcement_with_a_field_wrong_is_skipped(change: dict) -> None:
    txt = wire(discovery.tournament_txt(Night(4, "swiss").log, 4, False))
    assert decode(NAME, txt, ["10.0.0.2"], 1) is not None
    assert decode(NAME, {**txt, **change}, ["10.0.0.2"], 1) is None
    assert decode(NAME, {k: v for k, v in txt.items() if k != b"format"}, ["10.0.0.2"], 1) is None
