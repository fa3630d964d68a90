"""``tavolo --install-kiosk``: run this very ``tavolo`` as the kiosk of this account, started
at every login and again after a crash (docs/kiosk.md).

Three files, all checked by the test suite with the tools the desktop uses to read them
(``systemd-analyze verify``, ``desktop-file-validate``):

* a systemd user service, ``~/.config/systemd/user/tavolo-kiosk.service``, that runs the
  kiosk with the absolute path of the Python this command runs under — no clone at a fixed
  place, nothing that must be on PATH — and restarts it after a crash, at most ten times a
  minute.  "Quit Tavolo" in the operator menu and ``systemctl --user stop tavolo-kiosk`` end
  it with status 0, so it stays stopped until the next login;
* its rescue, ``tavolo-kiosk-rescue.service`` beside it, which systemd starts when it gives
  up restarting the kiosk (``OnFailure=``): a still "out of order" screen for a minute
  (:mod:`game.client.out_of_order`, which needs nothing of the game that keeps crashing)
  instead of a black desktop until the next login, then the kiosk again, its failures
  forgotten — ten more tries, and the screen again if they fail too;
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
RESCUE = "tavolo-kiosk-rescue.service"
AUTOSTART = "tavolo-kiosk.desktop"
RESCUE_SECONDS = 60
"""How long the "out of order" screen shows before the kiosk is tried again."""

UNIT = """\
[Unit]
Description=Tavolo public games table
# Never a tight crash loop: at most 10 starts a minute, then systemd gives up and starts
# the rescue: an "out of order" screen, then this service again a minute later.
StartLimitIntervalSec=60
StartLimitBurst=10
OnFailure={rescue}

[Service]
ExecStart={command}
# After a crash or a kill. "Quit Tavolo" in the operator menu and
# "systemctl --user stop tavolo-kiosk" end it with status 0: stopped until the next login.
Restart=on-failure
RestartSec=2
"""

RESCUE_UNIT = """\
[Unit]
Description=Tavolo out of order screen, then the kiosk again
# Started by {service} (OnFailure=) when systemd gave up restarting it.

[Service]
Type=oneshot
# The still screen; "-": even a screen that could not open must not keep the kiosk from
# being tried again (one that cannot draw still waits out its seconds).
ExecStart=-{screen}
# The kiosk's failures forgotten, and ten more tries; --no-block: this service does not
# wait for the kiosk, which may start it again.
ExecStart=systemctl --user reset-failed {service}
ExecStart=systemctl --user start --no-block {service}
TimeoutStartSec={timeout}
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


def rescue_command(python: str | None = None) -> str:
    """The rescue's first ``ExecStart``: this Python showing the "out of order" screen."""
    screen = [python or sys.executable, "-m", "game.client.out_of_order"]
    return shlex.join([*screen, "--seconds", str(RESCUE_SECONDS)])


def files(config_home: Path, python: str | None = None) -> dict[Path, str]:
    """Each file the kiosk needs under ``config_home``, and its text."""
    units = config_home / "systemd" / "user"
    rescue = RESCUE_UNIT.format(
        service=SERVICE, screen=rescue_command(python), timeout=RESCUE_SECONDS + 60
    )
    return {
        units / SERVICE: UNIT.format(command=command(python), rescue=RESCUE),
        units / RESCUE: rescue,
        config_home / "autostart" / AUTOSTART: ENTRY.format(service=SERVICE),
    }


def install(config_home: Path | None = None, python: str | None = None) -> list[str]:
    """Write the services and the autostart entry; what was done, line by line.  A file
    already there with other content is kept beside the new one as ``*.old``."""
    home = config_home or Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    done = []
    for path, text in files(home, python).items():
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists() and path.read_text(encoding="utf-8") != text:
            old = path.with_name(path.name + ".old")
            path.replace(old)
            done.append(f"kept the earlier {path.name} as {old}")
        path.write_text(text, encoding="utf-8")
        done.append(f"wrote {path}")
    done.append(f"when systemd gives up restarting the kiosk, {RESCUE} shows 'out of "
                f"order' for {RESCUE_SECONDS} s, then tries the kiosk again")  # fmt: skip
    done.append("the kiosk starts at the next login; to start it now from the desktop: "
                f"systemctl --user daemon-reload && systemctl --user start {SERVICE}")  # fmt: skip
    return done
