"""How many examples a property test tries: all of them in the whole suite (CI's run), a
quarter in the quick loop (``pytest -m "not slow"``), which is for the minute between two
edits — the same properties, searched less deep (tests/conftest.py says which run this is)."""

from __future__ import annotations

QUICK_SHARE = 4
QUICK_LEAST = 10
quick = False
"""Set by tests/conftest.py before any test module is imported."""


def examples(full: int) -> int:
    """``full`` examples in the whole suite; a quarter of them, at least ten, in the quick
    loop."""
    return max(min(full, QUICK_LEAST), full // QUICK_SHARE) if quick else full
