"""``kiosk.toml`` over sequences of what an operator does: changes from the service menu,
edits by hand (good values, typos, unknown keys, a new PIN, a weak one), restarts, a lost
file.  After every step: each key holds the file's value if it is good, else its last good
value; the last PIN set opens the menu and no other does; the file never holds a PIN in
clear after a start; the kiosk writes it for its owner only."""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from game.client import toml_lines
from game.client.kiosk_config import CHECKS, FILE, KioskConfig, _line, pin_weakness

from .examples import examples

GOOD = {
    "volume": st.sampled_from([0.0, 0.3, 1]),
    "attract_after": st.sampled_from([10, 60, 3600]),
    "countdown": st.sampled_from([5, 30.5, 120]),
    "games": st.sampled_from([["numeri"], ["dama:lupo", "mulino:misto"]]),
    "lan_hosting": st.booleans(),
    "opening_hours": st.sampled_from(["", "09:00-23:00", "18:00-02:00"]),
    "rotation": st.sampled_from([0, 90, 270]),
}
TYPOS = {
    "volume": ["0,5", "7", "'loud'"],
    "attract_after": ["9", "soon", "[60"],
    "countdown": ["121", '"15'],
    "games": ['["chess"]', '["numeri"'],
    "lan_hosting": ["yes", "1"],
    "opening_hours": ['"9-23"', '"25:00-26:00"'],
    "rotation": ["45", "true"],
}
PINS = ["0731", "730519", "86420135", "2931"]
WEAK = ["4455", "1234", "2580", "12", "7319O4"]


class OperatorEdits(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="kiosk-config-"))
        self.config = KioskConfig.load(self.folder)
        self.expected = {key: getattr(KioskConfig(), key) for key in GOOD}
        """What each key holds in the running kiosk."""
        self.pending: dict[str, object] = {}
        """Good values written by hand, read at the next start."""
        self.pin = "2580"
        """The PIN that opens the running kiosk's menu."""
        self.pending_pin: str | None = None
        """A good PIN written by hand, in use from the next start."""

    def teardown(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)

    @property
    def path(self) -> Path:
        return self.folder / FILE

    def _text(self) -> str:
        return self.path.read_text(encoding="utf-8") if self.path.exists() else ""

    def _write(self, text: str) -> None:
        self.path.write_text(text, encoding="utf-8")

    # -- the service menu -----------------------------------------------------------------

    @rule(data=st.data(), key=st.sampled_from(sorted(GOOD)))
    def menu_sets(self, data: st.DataObject, key: str) -> None:
        value = data.draw(GOOD[key])
        setattr(self.config, key, value)
        self.config.save(self.folder, {key})
        self.expected[key] = value
        self.pending.pop(key, None)  # its line is the menu's now

    @rule(pin=st.sampled_from(PINS))
    def menu_sets_the_pin(self, pin: str) -> None:
        assert pin_weakness(pin) is None
        self.config.set_pin(pin, self.folder)
        self.pin, self.pending_pin = pin, None

    # -- by hand ------------------------------------------------------------------------

    @rule(data=st.data(), key=st.sampled_from(sorted(GOOD)))
    def hand_writes_a_good_value(self, data: st.DataObject, key: str) -> None:
        value = data.draw(GOOD[key])
        self._write(toml_lines.replace(self._text(), key, _line(key, value)))
        self.pending[key] = value

    @rule(data=st.data(), key=st.sampled_from(sorted(TYPOS)))
    def hand_writes_a_typo(self, data: st.DataObject, key: str) -> None:
        typo = data.draw(st.sampled_from(TYPOS[key]))
        self._write(toml_lines.replace(self._text(), key, f"{key} = {typo}"))
        self.pending.pop(key, None)  # the key keeps its last good value

    @rule(pin=st.sampled_from(PINS), quoted=st.booleans())
    def hand_writes_a_pin(self, pin: str, quoted: bool) -> None:
        written = f'"{pin}"' if quoted else pin
        self._write(toml_lines.replace(self._text(), "pin", f"pin = {written}"))
        self.pending_pin = pin

    @rule(pin=st.sampled_from(WEAK))
    def hand_writes_a_weak_or_broken_pin(self, pin: str) -> None:
        self._write(toml_lines.replace(self._text(), "pin", f'pin = "{pin}"'))
        self.pending_pin = None

    @rule()
    def hand_writes_an_unknown_key(self) -> None:
        self._write(self._text() + "countdwn = 30\n# a note\n")

    @precondition(lambda self: self.path.exists())
    @rule()
    def the_file_is_lost(self) -> None:
        self.path.unlink()
        self.pending = {key: getattr(KioskConfig(), key) for key in GOOD}  # the defaults
        self.pending_pin = None  # the kept PIN stays

    @rule()
    def restart(self) -> None:
        self.config = KioskConfig.load(self.folder)
        self.expected.update(self.pending)
        self.pending = {}
        if self.pending_pin is not None:
            self.pin, self.pending_pin = self.pending_pin, None
        for key, value in self.expected.items():
            assert getattr(self.config, key) == value, (key, self._text())
        assert self.config.pin_matches(self.pin)
        if self.pin != "2580":
            assert not self.config.pin_matches("2580")  # the default never comes back
        text = self._text()
        if self.pin != "2580":  # the published PIN is no secret; any other is never in clear
            assert not re.search(rf'^pin = "?{self.pin}"?$', text, re.M), text
        if self.path.exists():
            assert self.path.stat().st_mode & 0o077 == 0

    # -- always -------------------------------------------------------------------------

    @invariant()
    def every_key_holds_a_good_value(self) -> None:
        for key in GOOD:
            assert CHECKS[key](getattr(self.config, key)), key
            assert getattr(self.config, key) == self.expected[key], key


OperatorEdits.TestCase.settings = settings(
    max_examples=examples(10), stateful_step_count=10, deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)  # fmt: skip
TestOperatorEdits = OperatorEdits.TestCase


class LongerOperatorEdits(OperatorEdits):
    """The same, longer (``-m slow``)."""


LongerOperatorEdits.TestCase.settings = settings(
    max_examples=examples(30), stateful_step_count=20, deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)  # fmt: skip
TestLongerOperatorEdits = pytest.mark.slow(LongerOperatorEdits.TestCase)
