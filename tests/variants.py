"""Every variant and option set the property tests run through."""

from __future__ import annotations

CASES: list[tuple[str, int | None, dict[str, object]]] = [
    ("ausgeblockt", None, {}),
    ("numeri", 2, {}),
    ("numeri", 3, {}),
    ("numeri", 4, {}),
    ("dama:classic", None, {}),
    ("dama:classic", None, {"huffing": True}),
    ("dama:mangia", None, {}),
    ("dama:lupo", None, {}),
    ("mulino:classic", None, {}),
    ("mulino:misto", None, {}),
    ("mulino:ceylonese", None, {}),
]


def case_id(case: tuple[str, int | None, dict[str, object]]) -> str:
    name, players, options = case
    extra = "".join(f"-{k}" for k, v in options.items() if v)
    return f"{name}{f'-{players}p' if players else ''}{extra}"
