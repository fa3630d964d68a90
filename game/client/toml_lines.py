"""A flat TOML file read key by key and edited line by line, for files people write by hand.

``tomllib`` reads a file whole or not at all: one typo (``pin = 0731``, an unclosed quote)
and every other setting is lost with it.  Here each top-level ``key = value`` statement is
read on its own — a statement is the line that names its key and the lines after it up to
the next key, section header or the end, so a list spread over several lines is one
statement — and a statement that is not TOML costs only its own key.  Edits replace the
lines of one statement and leave every other line, comments and mistakes included, as the
person wrote it.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from typing import Any

_KEY = re.compile(r"^\s*([A-Za-z0-9_-]+)\s*=")
_SECTION = re.compile(r"^\s*\[")
_QUIET = re.compile(r"^\s*(#.*)?$")
"""A blank line or a comment: belongs to no statement."""


@dataclass(frozen=True, slots=True)
class Statement:
    key: str
    first: int
    """Index of the line that names the key."""
    last: int
    """Index of its last line (inclusive)."""
    text: str
    value: Any = None
    error: str = ""
    """Why the statement is not TOML ("" when ``value`` holds what it says)."""
    section: str = ""
    """The ``[section]`` it stands under ("" at the top level, where settings belong)."""

    @property
    def line(self) -> int:
        """The 1-based line number people see in an editor."""
        return self.first + 1


def read(text: str) -> list[Statement]:
    """Every statement of ``text``, in order, each read on its own."""
    lines = text.splitlines(keepends=True)
    starts = [i for i, line in enumerate(lines) if _KEY.match(line) or _SECTION.match(line)]
    statements: list[Statement] = []
    section = ""
    for n, first in enumerate(starts):
        if _SECTION.match(lines[first]):
            section = lines[first].strip().split("]")[0].lstrip("[").strip() or "?"
            continue
        end = starts[n + 1] if n + 1 < len(starts) else len(lines)
        while end - 1 > first and _QUIET.match(lines[end - 1]):
            end -= 1
        statements.append(_statement(lines, first, end - 1, section))
    return statements


def _statement(lines: list[str], first: int, last: int, section: str) -> Statement:
    match = _KEY.match(lines[first])
    assert match is not None
    key = match.group(1)
    text = "".join(lines[first : last + 1])
    try:
        value = tomllib.loads(text)[key]
    except tomllib.TOMLDecodeError as error:
        return Statement(key, first, last, text, error=_first_line(error), section=section)
    except KeyError:  # a quoted or dotted key that means another name
        return Statement(key, first, last, text, error="not a plain key", section=section)
    return Statement(key, first, last, text, value, section=section)


def _first_line(error: Exception) -> str:
    """The parser's reason, without its "(at line 1, column 11)": that counts within the
    statement, not the file, whose line the caller names."""
    text = str(error).splitlines()[0] if str(error) else type(error).__name__
    return re.sub(r"\s*\(at line \d+, column (\d+)\)", r" (column \1)", text)[:120]


def raw_value(statement: Statement) -> str:
    """What follows ``=`` on the statement's first line, its comment left off: the words
    as the person wrote them, for a value TOML cannot read (``pin = 0731``)."""
    after = statement.text.split("=", 1)[1].splitlines()[0]
    return after.split("#", 1)[0].strip()


def replace(text: str, key: str, line: str | None) -> str:
    """``text`` with the top-level statements of ``key`` replaced by ``line`` (one
    ``key = value`` line) where the first of them stood — or ``line`` added before the first
    section, or at the end — or, with ``line`` None, removed.  Every other line is kept."""
    lines = text.splitlines(keepends=True)
    found = [s for s in read(text) if s.key == key and not s.section]
    keep = set(range(len(lines)))
    for statement in found:
        keep -= set(range(statement.first, statement.last + 1))
    new = [] if line is None else [line if line.endswith("\n") else line + "\n"]
    if found:
        at = found[0].first
    else:
        sections = [i for i, old in enumerate(lines) if _SECTION.match(old)]
        at = sections[0] if sections else len(lines)
        if at == len(lines) and lines and not lines[-1].endswith("\n"):
            lines[-1] += "\n"
    before = [lines[i] for i in range(at) if i in keep]
    after = [lines[i] for i in range(at, len(lines)) if i in keep]
    return "".join(before + new + after)
