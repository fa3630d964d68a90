"""``tavolo --install-kiosk``: the files the desktop reads, checked by the desktop's own tools."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from game.kiosk_setup import AUTOSTART, SERVICE, install


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
