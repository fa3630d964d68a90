"""The strict type check's reach (``[tool.mypy]`` in pyproject.toml, run by ``.venv/bin/mypy``):
a module added at the top of ``game/`` is checked from the start, not left out unnoticed."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_module_at_the_top_of_game_is_in_the_strict_check() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    modules = {"game" if p.stem == "__init__" else f"game.{p.stem}" for p in ROOT.glob("game/*.py")}
    assert modules - set(config.get("modules", [])) == set()
