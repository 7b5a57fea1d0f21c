"""The store tests' fixtures: a fresh database of each backend (``url``) and the
store's repository over it (``repo``).  A module with a fixture of the same name
keeps its own."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.postgres import pg_or_skip, postgres_database
from yatzy.store import GameRepository


@pytest.fixture(params=["sqlite", "postgres"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database of each backend."""
    if request.param == "postgres":
        pg_or_skip()
        ctx: contextlib.AbstractContextManager[str] = postgres_database()
    else:
        ctx = contextlib.nullcontext(f"sqlite:///{tmp_path / 'store.db'}")
    with ctx as u:
        yield u


@pytest.fixture
def repo(url: str) -> Iterator[GameRepository]:
    """The store over a fresh database of each backend."""
    opened = GameRepository.open(url)
    yield opened
    opened.close()
