"""The wheel: built without packaging warnings, carrying every asset, and, installed into a
fresh virtual environment outside the checkout, a game that starts to its first frame."""

from __future__ import annotations

import os
import shutil
import subprocess
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PACKAGING_WARNINGS = ("absent from the `packages` configuration", "would be ignored")


def _run(command: list, **options) -> subprocess.CompletedProcess:
    """``command`` run to its end, its output kept; never with the checkout on PYTHONPATH (the
    installed copy must stand alone)."""
    env = {k: v for k, v in options.pop("env", os.environ).items() if k != "PYTHONPATH"}
    return subprocess.run(command, capture_output=True, text=True, check=False, env=env, **options)


def _tracked_copy(into: Path) -> Path:
    """The files git tracks, as they are now, copied to ``into``: what a fresh clone holds,
    built without leaving build/ or *.egg-info in the checkout."""
    files = _run(["git", "ls-files", "-z"], cwd=ROOT, timeout=30).stdout.split("\0")
    for name in filter(None, files):
        if (ROOT / name).is_file():
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, into / name)
    return into


@pytest.mark.slow
def test_the_wheel_installs_anywhere_and_starts_the_game(tmp_path: Path) -> None:
    venv.create(tmp_path / "env", with_pip=True)
    python = tmp_path / "env" / "bin" / "python"
    pip = [python, "-m", "pip", "--disable-pip-version-check"]
    source = _tracked_copy(tmp_path / "source")
    built = _run([*pip, "wheel", "-v", "--no-deps", "-w", tmp_path / "dist", source], timeout=300)
    assert built.returncode == 0, built.stderr[-2000:]
    said = built.stdout + built.stderr
    assert not [w for w in PACKAGING_WARNINGS if w in said], said[-4000:]
    (wheel,) = (tmp_path / "dist").glob("tavolo-*.whl")
    shipped = set(zipfile.ZipFile(wheel).namelist())
    assets = _run(["git", "ls-files", "assets"], cwd=ROOT, timeout=30).stdout.split()
    assert assets and {"game/" + a for a in assets} <= shipped
    install = _run([*pip, "install", "-q", wheel], timeout=300)
    assert install.returncode == 0, install.stderr[-2000:]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    check = (
        "import game.rules, game.resources as r;"
        "assert 'site-packages' in str(r.asset_root()), r.asset_root();"
        "from game.rules import new_game;"
        "print(new_game('numeri').track.values[-1], new_game('ausgeblockt').starts(0));"
        "from game import i18n, names;"
        "print(i18n.set_language('de'), names.variant_subtitle('mulino:classic'));"
        "import os; os.environ['SDL_VIDEODRIVER'] = 'dummy';"
        "from game.client import sprites, theme;"
        "import pygame; pygame.init();"
        "print(sprites.sprite('die_cow', 64).get_size(), theme.font(20).size('Tavolo')[0] > 0)"
    )
    done = _run([python, "-c", check], cwd=elsewhere, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-3:] == ["30 (2, 27, 43)", "de Mühle", "(64, 64) True"]
    tavolo = tmp_path / "env" / "bin" / "tavolo"
    cli = _run([tavolo, "--help"], cwd=elsewhere, timeout=60)
    assert cli.returncode == 0 and "--fullscreen" in cli.stdout
    window = ["--windowed", "--size", "640x480", "--language", "it"]
    first = _run(
        [tavolo, *window, "--home", tmp_path / "home"],
        cwd=elsewhere,
        timeout=60,
        env=os.environ
        | {"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
        | {"TAVOLO_EXIT_AFTER_FIRST_FRAME": "1"},
    )
    assert first.returncode == 0 and first.stdout.strip() == "first frame", first.stderr
