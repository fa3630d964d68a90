"""The architecture holds: the rules engine stays pure (no pygame, no network, no clock, no
randomness, no I/O), and the import graph of the code is the one docs/ARCHITECTURE.md draws."""

from __future__ import annotations

import ast
import functools
import re
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
# The command line sits at the edge of the package on purpose.
EDGE = {"__main__.py"}


@functools.cache
def _tree(path: Path) -> ast.Module:
    """``path`` parsed, once for all the checks (each reads every module of the code)."""
    return ast.parse(path.read_text())


def _imports(path: Path) -> list[str]:
    """Every module ``path`` imports by its absolute name."""
    names = []
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


@pytest.mark.parametrize("path", sorted(RULES.glob("*.py")), ids=lambda p: p.name)
def test_rules_modules_import_nothing_impure(path: Path) -> None:
    if path.name in EDGE:
        return
    for name in _imports(path):
        assert name.split(".")[0] not in FORBIDDEN, f"{path.name} imports {name}"
        assert not name.startswith("game.") or name.startswith(("game.rules", "game.resources"))


ROOT = RULES.parent.parent


def _unit(module: str) -> str | None:
    """The unit of the architecture a module belongs to: a package under game/ (a layer), a
    module of game/ alone, or ``net``; None outside Tavolo's code."""
    parts = module.split(".")
    if parts[0] == "net":
        return "net"
    if parts[0] != "game" or len(parts) == 1 or parts[1] == "assets":
        return None
    return parts[1]


def import_graph() -> dict[str, set[str]]:
    """Which unit imports which, read from the code."""
    graph: dict[str, set[str]] = {}
    for path in sorted([*(ROOT / "game").rglob("*.py"), *(ROOT / "net").rglob("*.py")]):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        unit = _unit(module)
        if unit is None or (path.name == "__init__.py" and path.parent.name == "game"):
            continue
        graph.setdefault(unit, set())
        for name in _imports(path):
            used = _unit(name)
            if used is not None and used != unit:
                graph[unit].add(used)
    return graph


def drawn_graph() -> dict[str, set[str]]:
    """Which unit may import which, read from the table in docs/ARCHITECTURE.md."""
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text()
    table = re.search(r"<!-- layers:.*?-->(.*?)<!-- /layers -->", text, re.S)
    assert table, "docs/ARCHITECTURE.md has no layers table"
    graph = {}
    for row in table.group(1).strip().splitlines()[2:]:
        unit, uses = (cell.strip() for cell in row.strip("|").split("|"))
        graph[unit.strip("`")] = {u.strip().strip("`") for u in uses.split(",") if u.strip()}
    return graph


def test_the_imports_are_the_architecture_drawn() -> None:
    code, drawn = import_graph(), drawn_graph()
    assert set(code) == set(drawn), "units in the code and in the table differ"
    for unit in sorted(code):
        unexpected, unused = code[unit] - drawn[unit], drawn[unit] - code[unit]
        assert not unexpected, f"{unit} imports {sorted(unexpected)}, which the picture forbids"
        assert not unused, f"the picture has {unit} use {sorted(unused)}, which no code does"


def test_no_layer_below_the_client_imports_pygame() -> None:
    for package in ("game/rules", "game/ai", "game/session", "net"):
        for path in sorted((ROOT / package).rglob("*.py")):
            imported = [n for n in _imports(path) if n.split(".")[0] == "pygame"]
            assert not imported, f"{path.relative_to(ROOT)} imports pygame"


def test_the_check_catches_an_import_against_the_picture(tmp_path: Path) -> None:
    """The graph test is only as good as its reading of imports: a session module that
    imported a computer player would be caught."""
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text("from game.ai.players import choose\nimport pygame\n")
    assert {_unit(n) for n in _imports(sneaky)} == {"ai", None}
    assert "ai" not in drawn_graph()["session"]


def test_tests_run_the_tools_rather_than_import_them() -> None:
    """A tool is tested through its command line, as people run it; what tests and tools
    share lives in net/testing."""
    for path in sorted((ROOT / "tests").glob("*.py")):
        if "tools" not in path.read_text():
            continue  # no import of it can be in a file without the word (and parsing is slow)
        reaching = [n for n in _imports(path) if n.split(".")[0] == "tools"]
        assert not reaching, f"{path.name} imports {reaching}"


NET_MODULE_MOST = 700
"""Lines a module of the network layer may have (issue 28): one that outgrows it is split
along a seam, as net/matchlog.py (its dice rules, an entry's making) and net/peer.py (one
module per role) were; the harnesses of net/testing/ too (the fuzz's strangers)."""


def test_no_module_of_the_network_layer_outgrows_its_limit() -> None:
    for path in sorted((ROOT / "net").rglob("*.py")):
        lines = len(path.read_text().splitlines())
        assert lines <= NET_MODULE_MOST, f"{path.relative_to(ROOT)} has {lines} lines"


VARIANT_NAME = r"\"(?:ausgeblockt|numeri|dama|mulino|lupo)(?::\w+)?\""
ASKS_A_NAME = re.compile(
    rf"(?:==|!=|\bin|\bnot in)\s*[(\[{{]?\s*{VARIANT_NAME}"  # variant == "dama:mangia"
    rf"|{VARIANT_NAME}\s*(?:==|!=)"  # "numeri" == variant
    rf"|\.game\s*(?:==|!=|\bin\b)"  # state.variant.game == …
    r"|startswith\(\s*\"(?:ausgeblockt|numeri|dama|mulino)"  # name.startswith("mulino")
)


def test_callers_ask_a_variants_capabilities_never_its_name() -> None:
    """ARCHITECTURE's rule: code branches on what a variant can do (its spec's rules,
    high score, two colours …, or its state's kind), never on its name; tables keyed by
    name (assets, lessons) are data and allowed, comparisons are not."""
    offenders = []
    for path in sorted([*(ROOT / "game").rglob("*.py"), *(ROOT / "net").rglob("*.py")]):
        if path.name == "registry.py":  # where the names are given their capabilities
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if ASKS_A_NAME.search(line.split("#")[0]):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not offenders, "\n".join(offenders)


CLIENT = ROOT / "game" / "client"


def _client_module(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def _runtime_imports(tree: ast.Module, modules: set[str]) -> set[str]:
    """The client modules a module imports when it loads (its top level, not the imports
    read only by the type checker under ``if TYPE_CHECKING:``)."""
    found = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        found |= {name for name in names if name in modules}
    return found


def test_the_client_has_no_import_circle() -> None:
    """Screens meet through the navigator: no module of the client imports one that
    imports it back, however far round (ARCHITECTURE's client graph)."""
    paths = sorted(CLIENT.rglob("*.py"))
    modules = {_client_module(path) for path in paths}
    graph = {_client_module(path): _runtime_imports(_tree(path), modules) for path in paths}

    def reaches(start: str, goal: str) -> list[str] | None:
        seen, todo = {start}, [[start]]
        while todo:
            way = todo.pop()
            for after in sorted(graph[way[-1]]):
                if after == goal:
                    return [*way, after]
                if after not in seen:
                    seen.add(after)
                    todo.append([*way, after])
        return None

    circles = [way for module in sorted(graph) if (way := reaches(module, module))]
    assert not circles, " -> ".join(circles[0])


def test_no_client_module_imports_inside_a_function() -> None:
    """An import inside a function hides a dependency from the reader and from this test's
    circle check: a screen asks the navigator instead (optional dependencies excepted)."""
    late = {}
    for path in sorted(CLIENT.rglob("*.py")):
        tree = _tree(path)
        count = sum(
            isinstance(node, ast.ImportFrom) and (node.module or "").startswith("game.client")
            for function in ast.walk(tree)
            if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef)
            for node in ast.walk(function)
        )
        if count:
            late[str(path.relative_to(ROOT))] = count
    assert not late, late
