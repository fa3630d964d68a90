"""The command lines — the rules engine's and ``tavolo`` itself — run as real subprocesses."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "game.rules", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.slow
def test_perft_prints_the_count_last() -> None:
    done = run("perft", "dama:classic", "5")
    assert done.returncode == 0 and done.stdout.splitlines()[-1] == "7361"
    divided = run("perft", "mulino", "2", "--divide")
    lines = divided.stdout.splitlines()
    assert len(lines) == 25 and lines[0] == "a1 23" and lines[-1] == "552"
    assert run("perft", "numeri", "2", "--players", "3").stdout.splitlines()[-1] == "18"


def test_perft_after_moves() -> None:
    done = run("perft", "dama", "1", "--moves", "22-18 11-15")
    assert done.stdout.splitlines()[-1] == "1"  # 18x11 is forced


@pytest.mark.slow
def test_legal_lists_actions_and_chance_outcomes() -> None:
    assert run("legal", "numeri", "--players", "3", "--moves", "first2 d4").stdout == "4\n"
    dice = run("legal", "numeri", "--moves", "first1").stdout.splitlines()
    assert dice == ["d1 1/6", "d2 1/6", "d3 1/6", "d4 1/6", "d5 1/6", "d* 1/6"]
    lots = run("legal", "dama:lupo").stdout.splitlines()
    assert lots == ["wolf1 1/2", "wolf2 1/2"]


def test_illegal_move_exits_non_zero_naming_it() -> None:
    done = run("legal", "dama", "--moves", "22-18 11-15 21-17")
    assert done.returncode == 1
    assert "'21-17'" in done.stderr and "compulsory" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.slow
def test_bad_arguments_get_a_clear_message() -> None:
    for args in (
        ("perft", "chess", "2"),
        ("perft", "numeri", "2", "--players", "7"),
        ("legal", "dama", "--option", "huffing=maybe"),
        ("perft", "dama", "x"),
    ):
        done = run(*args)
        assert done.returncode == 2 and "Traceback" not in done.stderr, args
        assert done.stderr.strip()


@pytest.mark.slow
def test_play_is_a_reproducible_playout_to_the_end() -> None:
    first = run("play", "mulino:misto", "--seed", "11")
    again = run("play", "mulino:misto", "--seed", "11")
    assert first.returncode == 0 and first.stdout == again.stdout
    assert first.stdout.startswith('[Variant "mulino:misto"]')
    assert first.stdout.splitlines()[-1].startswith("result: ")
    numeri = run("play", "numeri", "--players", "4", "--seed", "3").stdout
    assert "points" in numeri.splitlines()[-1]


@pytest.mark.slow
def test_tavolo_without_a_display_says_so_and_exits(tmp_path: Path) -> None:
    """Bug 7: with no display and no driver asked for, SDL drew off screen and the game ran
    where nobody could see it, for ever."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.pop("SDL_VIDEODRIVER", None)  # set to "dummy" for the tests: here none is asked for
    env.update(SDL_AUDIODRIVER="dummy", TAVOLO_HOME=str(tmp_path))
    done = subprocess.run(
        [sys.executable, "-m", "game"],
        env=env,
        capture_output=True,
        text=True,
        timeout=20,
        check=False,
    )
    assert done.returncode == 1
    assert "tavolo: no display found (is DISPLAY or WAYLAND_DISPLAY set?)" in done.stderr
    assert "Traceback" not in done.stderr
