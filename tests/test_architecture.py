"""The rules engine stays pure: no pygame, no network, no clock, no randomness, no I/O."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parent.parent / "game" / "rules"
FORBIDDEN = {
    "pygame",
    "net",
    "random",
    "secrets",
    "time",
    "datetime",
    "socket",
    "threading",
    "asyncio",
    "os",
    "subprocess",
    "io",
}
# The command line and the board-data loader sit at the edge of the package on purpose.
EDGE = {"__main__.py"}


@pytest.mark.parametrize("path", sorted(RULES.glob("*.py")), ids=lambda p: p.name)
def test_rules_modules_import_nothing_impure(path: Path) -> None:
    if path.name in EDGE:
        return
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        else:
            continue
        for name in names:
            assert name.split(".")[0] not in FORBIDDEN, f"{path.name} imports {name}"
            assert not name.startswith("game.") or name.startswith(("game.rules", "game.resources"))


ROOT = RULES.parent.parent
LAYERS = {
    "game/ai": ("pygame", "net", "game.client", "game.session"),
    "game/session": ("pygame", "net", "game.client"),
    "net": ("pygame", "game.client", "game.session"),
}
"""Layers point one way: rules ← ai ← session ← client, and net plugs in beside."""


def _imports(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
    return names


@pytest.mark.parametrize("layer", sorted(LAYERS))
def test_layers_import_only_what_lies_beneath(layer: str) -> None:
    for path in sorted((ROOT / layer).glob("*.py")):
        for name in _imports(path):
            banned = [b for b in LAYERS[layer] if name == b or name.startswith(b + ".")]
            assert not banned, f"{path.relative_to(ROOT)} imports {name}"
