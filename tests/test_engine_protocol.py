"""The engine protocol over a real pipe: answers, errors, and an engine that keeps going."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path


def talk(*lines: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-m", "game.ai"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_hello_position_go_quit() -> None:
    out = talk(
        "hello",
        "isready",
        "position dama:classic moves 22-18 11-15",
        "go level hard",
        "quit",
        "go level hard",
    )
    assert out[:3] == ["id name Tavolo engine 1", "levels easy medium hard", "hellook"]
    assert out[3] == "readyok"
    assert out[4].startswith("info level hard depth ")
    assert out[5] == "bestmove 18x11"  # the capture is forced
    assert len(out) == 6  # nothing after quit


def test_dice_games_and_options() -> None:
    out = talk(
        "position numeri players 3 moves first2 d4",
        "legal",
        "go level easy",
        "position ausgeblockt option first=1 moves =CCCC1",
        "go level medium",
    )
    assert out[0] == "legal 4" and out[2] == "bestmove 4"
    assert out[4] in ("bestmove stop", "bestmove r1")


def test_malformed_commands_get_an_error_and_the_engine_goes_on() -> None:
    out = talk(
        "fly",
        "go",
        "position",
        "position chess",
        "position mulino moves a1 a1",
        "position numeri moves first1",
        "go",
        "position dama moves",
        "go level wizard",
        "go level",
        "go nodes many",
        "isready",
    )
    errors = [line for line in out if line.startswith("error ")]
    assert len(errors) == 9  # "position numeri moves first1" and "position dama moves" are fine
    assert "unknown command 'fly'" in errors[0] and "no position" in errors[1]
    assert "point a1 is taken" in errors[4] and "chance event" in errors[5]
    assert out[-1] == "readyok"


def test_same_seed_same_answer() -> None:
    script = ("seed 7", "position mulino:misto moves a1 g7 d1", "go level easy")
    assert talk(*script)[-1] == talk(*script)[-1]


def test_the_documented_example_is_what_the_engine_answers() -> None:
    text = (Path(__file__).parent.parent / "docs" / "ENGINE_PROTOCOL.md").read_text()
    example = text.split("## Example", 1)[1].split("```")[1].splitlines()
    asked = [line[2:] for line in example if line.startswith("> ")]
    answered = [line[2:] for line in example if line.startswith("< ")]
    without_time = [re.sub(r" time \d+", "", line) for line in talk(*asked)]
    assert without_time == [re.sub(r" time \d+", "", line) for line in answered]
