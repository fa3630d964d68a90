"""The strict type check's reach (``[tool.mypy]`` in pyproject.toml, run by ``.venv/bin/mypy``
in the README's test command): every package, so that no module is left out unnoticed."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_strict_type_check_covers_every_package() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert config["strict"] is True
    assert set(config["packages"]) == {"game", "net"}
    assert not config.get("modules")
