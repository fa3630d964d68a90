"""The README's promise to a newcomer: its first two commands are what they say."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _commands() -> list[str]:
    readme = (ROOT / "README.md").read_text()
    return re.findall(r"```sh\n(.+?)\n```", readme.split("\n---\n")[0])


def test_the_readme_starts_with_a_launch_and_a_test_command() -> None:
    launch, test = _commands()[:2]
    assert launch.endswith(".venv/bin/tavolo")
    assert "pip install -q -e '.[test]'" in test and "-m pytest" in test


def test_ci_runs_the_readmes_test_command_verbatim() -> None:
    test = _commands()[1]
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert test in ci, ".ci/run must run the README's test command, as it is written there"
