"""``tavolo --install-kiosk``: the files the desktop reads, checked by the desktop's own tools."""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from game import kiosk_setup
from game.kiosk_setup import AUTOSTART, RESCUE, SERVICE, install
from tests.xdisplay import require, root_property, watching, x_display


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        if os.environ.get("CI"):
            pytest.fail(f"CI must provide {name} (.ci/run installs it)")
        pytest.skip(f"needs {name}")
    return path


def test_the_installed_services_and_autostart_entry_validate(tmp_path: Path) -> None:
    said = install(tmp_path)
    service = tmp_path / "systemd" / "user" / SERVICE
    rescue = service.with_name(RESCUE)
    entry = tmp_path / "autostart" / AUTOSTART
    assert all(f"wrote {path}" in said for path in (service, rescue, entry)), said
    checked = subprocess.run(
        [_tool("systemd-analyze"), "verify", str(service), str(rescue)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    # systemd-analyze exits 0 over a key in the wrong section; it only says so: nothing may be said.
    assert checked.returncode == 0 and not checked.stderr.strip(), checked.stderr
    text = service.read_text()
    assert f"ExecStart={sys.executable} -m game --kiosk" in text  # no clone path, no PATH
    unit, _, rest = text.partition("[Service]")
    assert "StartLimitIntervalSec=60" in unit and "StartLimitBurst=10" in unit
    # verify does not look for OnFailure='s unit: it must be the one written beside it.
    assert f"\nOnFailure={RESCUE}\n" in unit
    assert "Restart=on-failure" in rest  # "Quit Tavolo" (status 0) stays quit
    screen = _service_lines(rescue, "ExecStart")[0]
    assert screen == f"-{sys.executable} -m game.client.out_of_order --seconds 60", screen
    # Its minute is part of a oneshot's start, which systemd would cut short after 90 s.
    assert 70 <= float(_service_lines(rescue, "TimeoutStartSec")[0]) <= 300
    validated = subprocess.run(
        [_tool("desktop-file-validate"), str(entry)], capture_output=True, text=True, check=False
    )
    assert validated.returncode == 0 and not validated.stdout.strip(), validated.stdout
    assert "import-environment DISPLAY" in entry.read_text()


def _service_lines(path: Path, key: str) -> list[str]:
    return [
        line.partition("=")[2]
        for line in path.read_text().splitlines()
        if line.startswith(f"{key}=")
    ]


def test_the_rescue_shows_the_screen_then_starts_the_kiosk_again(tmp_path: Path) -> None:
    """Its commands run as systemd runs a oneshot's (in order; "-": a failure goes on):
    the screen for its seconds, then the kiosk's failures forgotten and the kiosk started."""
    rescue = tmp_path / "systemd" / "user" / RESCUE
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(kiosk_setup, "RESCUE_SECONDS", 0.5)
        install(tmp_path)
    assert _service_lines(rescue, "Type") == ["oneshot"]
    fake = tmp_path / "bin" / "systemctl"
    fake.parent.mkdir()
    fake.write_text('#!/bin/sh\necho "$*" >> "$HOME/systemctl-calls"\n')
    fake.chmod(0o755)
    env = {**os.environ, "HOME": str(tmp_path), "SDL_VIDEODRIVER": "dummy",
           "PATH": f"{fake.parent}{os.pathsep}{os.environ['PATH']}"}  # fmt: skip
    start = time.monotonic()
    for line in _service_lines(rescue, "ExecStart"):
        ran = subprocess.run(shlex.split(line.removeprefix("-")), env=env, timeout=30, check=False)
        assert ran.returncode == 0 or line.startswith("-"), line
    assert time.monotonic() - start >= 0.5  # the screen's seconds before the kiosk
    assert (tmp_path / "systemctl-calls").read_text().splitlines() == [
        f"--user reset-failed {SERVICE}",
        f"--user start --no-block {SERVICE}",
    ]


def test_installing_again_keeps_an_edited_file_beside_the_new_one(tmp_path: Path) -> None:
    install(tmp_path)
    service = tmp_path / "systemd" / "user" / SERVICE
    service.write_text(service.read_text() + "Nice=5\n")  # the operator's own change
    said = install(tmp_path)
    assert (service.parent / (SERVICE + ".old")).read_text().endswith("Nice=5\n")
    assert any("kept the earlier" in line for line in said)
    assert not any("kept the earlier" in line for line in install(tmp_path))  # unchanged


def test_the_command_line_installs_without_opening_a_window(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path)}
    env.pop("DISPLAY", None)
    done = subprocess.run(
        [sys.executable, "-m", "game", "--install-kiosk"],
        capture_output=True, text=True, env=env, check=False, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "systemd" / "user" / SERVICE).exists()
    assert "systemctl --user start tavolo-kiosk.service" in done.stdout
    assert (tmp_path / "systemd" / "user" / RESCUE).exists()
    assert f"{RESCUE} shows 'out of order'" in done.stdout


MANUAL = Path(__file__).resolve().parents[1] / "docs" / "kiosk.md"
RC = MANUAL.with_name("kiosk-openbox-rc.xml")


def test_the_manuals_apt_line_brings_pyxdg() -> None:
    """openbox runs ~/.config/autostart only through openbox-xdg-autostart, which exits
    with "requires PyXDG" without it: a kiosk installed from the manual never started."""
    apt = [line.split() for line in MANUAL.read_text().splitlines() if line.startswith("apt ")]
    assert len(apt) == 1, apt
    assert apt[0][:2] == ["apt", "install"] and "python3-xdg" in apt[0][2:]
    assert "openbox" in apt[0] and "lightdm" in apt[0]


FAKE_SYSTEMCTL = """\
#!/bin/sh
# No user systemd here: say what was asked, and do what "restart" would: run the unit's
# ExecStart (an absolute Python's command line, quoted for a shell).
echo "$*" >> "$HOME/systemctl-calls"
if [ "$*" = "--user restart {service}" ]; then
  command=$(sed -n 's/^ExecStart=//p' "$XDG_CONFIG_HOME/systemd/user/{service}")
  eval "exec $command" > "$HOME/kiosk.log" 2>&1 &
  echo $! > "$HOME/kiosk.pid"
fi
"""


def _pyxdg_for_openbox() -> None:
    """Skip (fail in CI) unless openbox's XDG autostart can run: its script and PyXDG for
    the Python it names on its first line."""
    scripts = sorted(Path("/usr/lib").glob("*/openbox-xdg-autostart"))
    reason = None
    if not scripts:
        reason = "openbox's openbox-xdg-autostart"
    else:
        python = scripts[0].read_text().splitlines()[0].removeprefix("#!").split()
        found = subprocess.run([*python, "-c", "import xdg.DesktopEntry"], check=False)
        reason = None if found.returncode == 0 else f"PyXDG for {python} (python3-xdg)"
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(f"CI must provide {reason} (.ci/run installs it)")
        pytest.skip(f"needs {reason}")


def _home_as_the_manual_leaves_it(home: Path) -> dict[str, str]:
    """The kiosk account's files after the manual's steps (``--install-kiosk``, its rc.xml
    and autostart), a fake ``systemctl`` first on PATH, and that account's environment."""
    config = home / ".config"
    install(config)
    (config / "openbox").mkdir(parents=True)
    (config / "openbox" / "rc.xml").write_text(RC.read_text())
    (config / "openbox" / "autostart").write_text("xset s off -dpms s noblank\n")
    fake = home / "bin" / "systemctl"
    fake.parent.mkdir()
    fake.write_text(FAKE_SYSTEMCTL.format(service=SERVICE))
    fake.chmod(0o755)
    (home / "system-xdg").mkdir()
    return {
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(config),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        # The system's own autostart entries (accessibility bus, user dirs) stay out.
        "XDG_CONFIG_DIRS": str(home / "system-xdg"),
        "PATH": f"{fake.parent}{os.pathsep}{os.environ['PATH']}",
    }


@pytest.mark.slow
def test_an_openbox_session_starts_the_installed_kiosk(tmp_path: Path) -> None:
    """The login as lightdm makes it: ``openbox-session`` (openbox, then its autostart: the
    account's script, then every XDG autostart entry) — the kiosk's window comes up."""
    require(("Xvfb", "openbox", "openbox-session", "xdotool", "xprop"), "xvfb openbox x11-utils")
    _pyxdg_for_openbox()
    home = tmp_path / "kiosk"
    account = _home_as_the_manual_leaves_it(home)
    session = ["env", "-u", "TAVOLO_HOME", "-u", "SDL_VIDEO_X11_WMCLASS"]
    session += [f"{name}={value}" for name, value in account.items()]
    keeper = ("xprop", "-root", "-spy", "_NET_SUPPORTING_WM_CHECK")
    with x_display(":87") as env, watching(env, *keeper) as connected:
        # A client connected first (it says the property is not set yet): openbox-session's
        # first client is a one-off xprop, and Xvfb resets itself when its last client leaves.
        assert connected.wait(lambda: len(connected) > 0, 10), "xprop never connected"
        desktop = subprocess.Popen([*session, "openbox-session"], env=env, stderr=subprocess.PIPE)
        try:
            managed = root_property(env, "_NET_CLIENT_LIST", 30, lambda line: "0x" in line)
            assert managed is not None, _what_happened(home, desktop)
            found = subprocess.run(
                ["xdotool", "search", "--class", "^tavolo$"],
                env=env, capture_output=True, text=True, check=False,
            )  # fmt: skip
            window = int(managed.split("#")[1].split(",")[0], 16)
            assert found.stdout.split() == [str(window)], found
        finally:
            kiosk = home / "kiosk.pid"
            if kiosk.exists():
                _end(int(kiosk.read_text()))
            desktop.terminate()
            desktop.wait(timeout=10)
    assert (home / "systemctl-calls").read_text().splitlines() == [
        "--user import-environment DISPLAY XAUTHORITY WAYLAND_DISPLAY",
        "--user daemon-reload",
        f"--user restart {SERVICE}",
    ]


def _what_happened(home: Path, desktop: subprocess.Popen) -> str:
    """What the session, the fake systemctl and the kiosk said, for a failure's message."""
    desktop.terminate()
    _, said = desktop.communicate(timeout=10)
    parts = [f"openbox-session: {said.decode(errors='replace')}"]
    for name in ("systemctl-calls", "kiosk.log"):
        path = home / name
        parts.append(f"{name}: {path.read_text() if path.exists() else '(none)'}")
    return "\n".join(parts)


def _end(pid: int) -> None:
    """SIGTERM to the kiosk the fake ``systemctl`` started, and a wait for it to go."""
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    for _ in range(100):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    os.kill(pid, signal.SIGKILL)


SCREEN = [sys.executable, "-m", "game.client.out_of_order"]


def _screen(seconds: float, driver: str = "dummy") -> subprocess.Popen:
    env = {**os.environ, "SDL_VIDEODRIVER": driver, "SDL_AUDIODRIVER": "dummy"}
    return subprocess.Popen(
        [*SCREEN, "--seconds", str(seconds)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def test_the_out_of_order_screen_shows_for_its_seconds_then_ends() -> None:
    start = time.monotonic()
    screen = _screen(0.3)
    out, err = screen.communicate(timeout=30)
    assert screen.returncode == 0, err
    assert "shown on dummy" in out
    assert 0.3 <= time.monotonic() - start < 15


def test_the_out_of_order_screen_ends_at_once_on_sigterm() -> None:
    screen = _screen(60)
    assert screen.stdout is not None
    assert "shown on dummy" in screen.stdout.readline()  # drawn, and waiting
    stopped = time.monotonic()
    screen.send_signal(signal.SIGTERM)
    assert screen.wait(timeout=10) == 0
    assert time.monotonic() - stopped < 2


def test_the_out_of_order_screen_waits_its_seconds_even_when_it_cannot_show() -> None:
    """The rescue service counts on its pause: no screen must not mean no pause."""
    start = time.monotonic()
    screen = _screen(0.5, driver="no-such-driver")
    out, err = screen.communicate(timeout=30)
    assert screen.returncode == 0, err
    assert "nothing shown" in err and "shown on" not in out
    assert time.monotonic() - start >= 0.5


def test_the_out_of_order_screen_says_so_in_every_language() -> None:
    from game.client.out_of_order import lines

    said = lines()
    assert said[0] == "Out of order — back in a minute"
    assert len(said) == len(set(said)) == 3  # English, Italian, German, each translated
