"""``tavolo --install-kiosk``: run this very ``tavolo`` as the kiosk of this account, started
at every login and again after a crash (docs/kiosk.md).

Two files, both checked by the test suite with the tools the desktop uses to read them
(``systemd-analyze verify``, ``desktop-file-validate``):

* a systemd user service, ``~/.config/systemd/user/tavolo-kiosk.service``, that runs the
  kiosk with the absolute path of the Python this command runs under — no clone at a fixed
  place, nothing that must be on PATH — and restarts it after a crash, at most ten times a
  minute.  "Quit Tavolo" in the operator menu and ``systemctl --user stop tavolo-kiosk`` end
  it with status 0, so it stays stopped until the next login;
* an XDG autostart entry, ``~/.config/autostart/tavolo-kiosk.desktop``, with which the
  desktop session hands the service its display and starts it: a user service cannot know
  the display by itself, and ``graphical-session.target`` is never reached on many X
  sessions.
"""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

SERVICE = "tavolo-kiosk.service"
AUTOSTART = "tavolo-kiosk.desktop"

UNIT = """\
[Unit]
Description=Tavolo public games table
# Never a tight crash loop: at most 10 starts a minute, then systemd gives up.
StartLimitIntervalSec=60
StartLimitBurst=10

[Service]
ExecStart={command}
# After a crash or a kill. "Quit Tavolo" in the operator menu and
# "systemctl --user stop tavolo-kiosk" end it with status 0: stopped until the next login.
Restart=on-failure
RestartSec=2
"""

ENTRY = """\
[Desktop Entry]
Type=Application
Name=Tavolo kiosk
Comment=Starts the Tavolo games table of this account
Exec=sh -c "systemctl --user import-environment DISPLAY XAUTHORITY WAYLAND_DISPLAY; \
systemctl --user daemon-reload; systemctl --user restart {service}"
NoDisplay=true
X-GNOME-Autostart-enabled=true
"""


def command(python: str | None = None) -> str:
    """The service's ``ExecStart``: this Python running the game in kiosk mode."""
    return shlex.join([python or sys.executable, "-m", "game", "--kiosk"])


def install(config_home: Path | None = None, python: str | None = None) -> list[str]:
    """Write the service and the autostart entry; what was done, line by line.  A file
    already there with other content is kept beside the new one as ``*.old``."""
    home = config_home or Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    files = {
        home / "systemd" / "user" / SERVICE: UNIT.format(command=command(python)),
        home / "autostart" / AUTOSTART: ENTRY.format(service=SERVICE),
    }
    done = []
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists() and path.read_text(encoding="utf-8") != text:
            old = path.with_name(path.name + ".old")
            path.replace(old)
            done.append(f"kept the earlier {path.name} as {old}")
        path.write_text(text, encoding="utf-8")
        done.append(f"wrote {path}")
    done.append("the kiosk starts at the next login; to start it now from the desktop: "
                f"systemctl --user daemon-reload && systemctl --user start {SERVICE}")  # fmt: skip
    return done
