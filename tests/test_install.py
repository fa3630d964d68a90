"""A regular (non-editable) install, run from another directory, finds its board data."""

from __future__ import annotations

import subprocess
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_installed_copy_runs_from_anywhere(tmp_path: Path) -> None:
    venv.create(tmp_path / "env", with_pip=True)
    python = tmp_path / "env" / "bin" / "python"
    install = subprocess.run(
        [python, "-m", "pip", "install", "-q", "--disable-pip-version-check", str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
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
    done = subprocess.run(
        [python, "-c", check],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-3:] == ["30 (2, 27, 43)", "de Mühle", "(64, 64) True"]
    cli = subprocess.run(
        [tmp_path / "env" / "bin" / "tavolo", "--help"],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert cli.returncode == 0 and "--fullscreen" in cli.stdout
