"""The store tests' fixtures: a fresh, empty database of each backend (``url``), a
migrated one (``migrated_url``) and the store's repository over that (``repo``).  A
module with a fixture of the same name keeps its own."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import sqlite_copy
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


@pytest.fixture(params=["sqlite", "postgres"])
def migrated_url(
    request: pytest.FixtureRequest, tmp_path: Path, migrated_sqlite: Path
) -> Iterator[str]:
    """A fresh database of each backend already at the store's newest revision (a copy
    of one migrated database per process and backend: ``url`` is the empty one)."""
    if request.param == "postgres":
        pg_or_skip()
        ctx: contextlib.AbstractContextManager[str] = postgres_database(migrated=True)
    else:
        ctx = contextlib.nullcontext(sqlite_copy(migrated_sqlite, tmp_path))
    with ctx as u:
        yield u


@pytest.fixture
def repo(migrated_url: str) -> Iterator[GameRepository]:
    """The store over a fresh, migrated database of each backend."""
    opened = GameRepository.open(migrated_url)
    yield opened
    opened.close()
