"""``tavolo --install-kiosk``: the files the desktop reads, checked by the desktop's own tools."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from game.kiosk_setup import AUTOSTART, SERVICE, install
from tests.xdisplay import require, root_property, watching, x_display


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        if os.environ.get("CI"):
            pytest.fail(f"CI must provide {name} (.ci/run installs it)")
        pytest.skip(f"needs {name}")
    return path


def test_the_installed_service_and_autostart_entry_validate(tmp_path: Path) -> None:
    said = install(tmp_path)
    service = tmp_path / "systemd" / "user" / SERVICE
    entry = tmp_path / "autostart" / AUTOSTART
    assert f"wrote {service}" in said and f"wrote {entry}" in said
    checked = subprocess.run(
        [_tool("systemd-analyze"), "verify", str(service)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    # systemd-analyze exits 0 over a key in the wrong section; it only says so: nothing may be said.
    assert checked.returncode == 0 and not checked.stderr.strip(), checked.stderr
    text = service.read_text()
    assert f"ExecStart={sys.executable} -m game --kiosk" in text  # no clone path, no PATH
    unit, _, rest = text.partition("[Service]")
    assert "StartLimitIntervalSec=60" in unit and "StartLimitBurst=10" in unit
    assert "Restart=on-failure" in rest  # "Quit Tavolo" (status 0) stays quit
    validated = subprocess.run(
        [_tool("desktop-file-validate"), str(entry)], capture_output=True, text=True, check=False
    )
    assert validated.returncode == 0 and not validated.stdout.strip(), validated.stdout
    assert "import-environment DISPLAY" in entry.read_text()


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
