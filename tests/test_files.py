"""Atomic writes: the old file or the new one, whole, and nothing left beside them."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from game.files import atomic_write


def test_a_write_replaces_the_file_and_leaves_nothing_beside_it(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "save.bin"
    atomic_write(path, b"old")
    atomic_write(path, b"new")
    assert path.read_bytes() == b"new"
    assert [p.name for p in path.parent.iterdir()] == ["save.bin"]


def test_a_secret_is_the_owners_alone(tmp_path: Path) -> None:
    path = tmp_path / "identity"
    atomic_write(path, b"secret\n", mode=0o600)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_write_that_fails_leaves_the_old_file_whole(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    atomic_write(path, b'{"language": "it"}')
    with pytest.raises(TypeError):
        atomic_write(path, "not bytes")  # type: ignore[arg-type]  # fails mid-write
    assert path.read_bytes() == b'{"language": "it"}'
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]
