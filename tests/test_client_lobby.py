"""The LAN list and the room as a player sees them: matches waiting for players first, every
row with its host's key, look-alikes marked, a flood a page away; the room's host key the
same on every screen.  Announcements come from a browser that holds still (no network);
the rooms are real, over loopback."""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path

import pytest

from game.client import theme
from game.client.scenes import lobby
from net import link as link_module
from net.discovery import SERVICE, Listing, decode
from net.identity import Identity, fingerprint
from net.link import LanBrowser
from net.testing.peer_process import PeerProcess
from tests.client_driver import Driver
from tests.lan import host

TEMPLATE = decode(
    f"x.{SERVICE}",
    {
        b"v": b"2", b"rules": b"-", b"game": b"dama:classic", b"players": b"2", b"free": b"1",
        b"code": b"0", b"state": b"lobby", b"host": b"-", b"match": b"-", b"key": b"0" * 64,
    },
    ["10.0.0.2"],
    40000,
)  # fmt: skip


def announced(host: str, state: str, free: int, secret: int, match: str = "") -> Listing:
    assert TEMPLATE is not None
    key = Identity(bytes([secret]) * 32).key
    return replace(
        TEMPLATE, name=f"{host} {secret}", host=host, state=state, free=free, compatible=True,
        match=match or f"{secret:032x}", key=key.hex(), fingerprint=fingerprint(key),
    )  # fmt: skip


REAL = announced("Corner table", "lobby", 1, 1)
COPY = announced("Corner table", "lobby", 1, 2, match=REAL.match)  # another key, same match
UNDER_WAY = announced("Anna", "playing", 0, 3)
FAKES = [announced(f"Abandoned {n}", "abandoned", 0, 10 + n) for n in range(8)]


class StillBrowser(LanBrowser):
    """The real list (its order included) of announcements that never change."""

    def __init__(self, interface: str = "", on_change=None) -> None:
        self._listings = {item.name: item for item in [*FAKES, UNDER_WAY, COPY, REAL]}
        self._lock = threading.Lock()
        self.error = ""

    def close(self) -> None:
        pass


@pytest.fixture
def lan_driver(tmp_path: Path):
    driver = Driver(tmp_path)
    driver.app.settings.lan_interface = "127.0.0.1"
    driver.app.settings.player_name = "Carla"
    yield driver
    driver.app.close()


def drawn(driver: Driver) -> list[str]:
    """The texts one frame draws with ``theme.fitted`` and ``theme.text``, in order."""
    seen: list[str] = []
    with pytest.MonkeyPatch.context() as patch:
        for name in ("fitted", "text"):
            original = getattr(theme, name)

            def spy(message: str, *args, original=original, **kwargs):
                seen.append(message)
                return original(message, *args, **kwargs)

            patch.setattr(theme, name, spy)
        driver.frame()
    return seen


def rows(texts: list[str]) -> list[tuple[str, str]]:
    """The LAN list's rows as drawn: (the match, the host's key line)."""
    return [(texts[n - 1], text) for n, text in enumerate(texts) if text.startswith("Host key ")]


def test_the_list_puts_waiting_matches_first_with_every_hosts_key_and_marks_look_alikes(
    lan_driver: Driver, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lobby, "LanBrowser", StillBrowser)
    lan_driver.press("lan")
    lan_driver.frame(8)  # the list is looked at twice a second
    first = rows(drawn(lan_driver))
    assert lan_driver.scene.subtitle() == "⚠ Look-alikes: ask the host for their key"
    assert len(first) == lobby.ROWS - 1  # and a row to turn the page
    assert [match for match, _key in first[:2]] == ["Dama · Corner table · 1 seat free"] * 2
    keys = {key.split()[2] for _match, key in first[:2]}
    assert keys == {REAL.fingerprint, COPY.fingerprint}  # both there, told apart
    assert all(key.endswith("⚠ look-alike") for _match, key in first[:2])
    assert first[2] == ("Dama · Anna · under way: watch", f"Host key {UNDER_WAY.fingerprint}")
    seen = {key for _match, key in first}
    for _ in range(2):
        lan_driver.press("more")
        seen |= {key for _match, key in rows(drawn(lan_driver))}
    everyone = [REAL, COPY, UNDER_WAY, *FAKES]
    assert {key.split()[2] for key in seen} == {item.fingerprint for item in everyone}
    assert lan_driver.scene._more_label() == "More matches: page 3 of 3"


def _room_lines(driver: Driver) -> list[str]:
    """The room's key lines, each once: a frame during the wipe into the room draws the
    screen twice (the part uncovered before and the strip uncovered now)."""
    return list(dict.fromkeys(t for t in drawn(driver) if t.startswith("Host key ")))


@pytest.mark.slow
def test_a_guests_room_shows_the_key_of_the_host_it_reached(
    lan_driver: Driver, tmp_path: Path
) -> None:
    server, port = host(tmp_path, "dama")
    lan_driver.press("lan")
    lan_driver.press("address")
    for char in f"127.0.0.1:{port}":
        lan_driver.press(f"key {char}")
    lan_driver.press("ok")
    lan_driver.press("ok")  # no join code
    lan_driver.wait_for_scene("RoomScene")
    lan_driver.until(lambda: lan_driver.scene.view.host_fingerprint, server)
    expected = fingerprint(Identity.load(tmp_path / "host.id").key)
    assert _room_lines(lan_driver) == [f"Host key {expected}"]
    server.kill()


def test_the_hosts_own_room_shows_its_own_key(lan_driver: Driver, tmp_path: Path) -> None:
    lan_driver.press("lan")
    lan_driver.press("host")
    lan_driver.press("dama:classic")
    lan_driver.press("start")
    assert type(lan_driver.scene).__name__ == "RoomScene"
    lan_driver.until(lambda: lan_driver.scene.view.host_fingerprint)
    mine = fingerprint(Identity.load(lan_driver.app.paths.data / "identity").key)
    assert _room_lines(lan_driver) == [f"Host key {mine}"]


def test_the_live_list_wakes_the_app_when_a_match_comes_or_goes(monkeypatch) -> None:
    """The lobby sleeps between frames: each change the browser hears must ring the app's
    wakeup (here through a browser that hears only what the test says, no network)."""
    heard = []

    class QuietBrowser:
        def __init__(self, interface: str, changed) -> None:
            heard.append(changed)

        async def start(self) -> None:
            pass

        async def stop(self) -> None:
            pass

    monkeypatch.setattr(link_module, "Browser", QuietBrowser)
    rung = []
    browser = LanBrowser("127.0.0.1", lambda: rung.append(len(browser.listings())))
    try:
        (changed,) = heard
        changed("added", REAL)
        changed("gone", REAL)
        assert rung == [1, 0]
    finally:
        browser.close()


def test_a_tournament_on_the_list_is_entered_with_the_directors_announced_key(
    lan_driver: Driver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A director announcing a tournament: its row names it, its game, format and places
    and the director's key; pressing it asks who plays this person's games, and the person
    is entered — by a player demanding the announced key."""
    director = PeerProcess.net(
        "tournament", "host", "mulino", "--players", "2", "--format", "swiss", "--name", "Sera",
        "--interface", "127.0.0.1", "--no-advertise", "--record", str(tmp_path / "d"), cwd=tmp_path,
    )  # fmt: skip
    try:
        port = director.wait_for("listening")["port"]
        key = Identity.load(tmp_path / "d" / "director.id").key
        listing = replace(
            announced("Sera", "entering", 2, 40), kind="tournament", format="swiss", round=0,
            address="127.0.0.1", port=port, game="mulino:classic", key=key.hex(),
            fingerprint=fingerprint(key),
        )  # fmt: skip

        class Announcing(StillBrowser):
            def __init__(self, interface: str = "", on_change=None) -> None:
                super().__init__(interface, on_change)
                self._listings = {listing.name: listing}

        monkeypatch.setattr(lobby, "LanBrowser", Announcing)
        lan_driver.press("lan")
        lan_driver.frame(8)
        texts = drawn(lan_driver)
        row = "Tournament Sera · Mulino · Swiss · 2 places free"
        assert row in texts and texts[texts.index(row) + 1] == f"Director key {fingerprint(key)}"
        lan_driver.press("match 1")
        assert type(lan_driver.scene).__name__ == "JoinLevelScene"
        lan_driver.press("level easy")
        lan_driver.wait_for_scene("TournamentRoomScene")
        assert lan_driver.scene.link.config.director == key
        entered = director.wait_for("entered", 30.0)
        assert entered["name"] == "Carla" and not entered["computer"]
    finally:
        director.kill()
