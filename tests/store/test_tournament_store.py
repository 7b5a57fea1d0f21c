"""The tournaments' tables: migration 0012 on SQLite and PostgreSQL (the schema the
models describe, down and up again), and the store's conditional updates: a join only
while open, before the start, under the cap and once; the start and a round's close
once; a cancellation by the creator before the start only."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from tests.store.support import alembic, schema_diff, table_names
from yatzy.store import GameRepository
from yatzy.store.errors import NotFoundError
from yatzy.store.tournaments import (
    NotCancellableError,
    NotCreatorError,
    NotJoinableError,
    Seating,
    Tournament,
    TournamentStore,
)

NOW = datetime(2031, 5, 17, 12, 0, tzinfo=UTC)


@pytest.fixture
def store(url: str) -> Iterator[TournamentStore]:
    repo = GameRepository.open(url)
    try:
        yield TournamentStore(repo)
    finally:
        repo.close()


def made(store: TournamentStore, **kw: object) -> Tournament:
    values: dict[str, object] = {
        "id": secrets.token_hex(16),
        "name": "Cup",
        "rules": "yatzy",
        "lang": "en",
        "creator_id": "c" * 32,
        "created_at": NOW,
        "starts_at": NOW + timedelta(hours=1),
        "rounds": 2,
        "table_size": 2,
        "duplicate": True,
        "public": True,
        "cap": 3,
        "round_minutes": 60,
        "state": "open",
        "round": 0,
        "players": 0,
        "secret": secrets.token_hex(32),
    }
    values.update(kw)
    t = Tournament(**values)  # type: ignore[arg-type]
    store.create(t)
    return t


def test_migration_0012_matches_the_models_and_goes_down(url: str) -> None:
    alembic(url, ("upgrade", "head"))
    tables = {"tournaments", "tournament_players", "tournament_rounds", "tournament_seats"}
    assert schema_diff(url) == []
    assert tables <= table_names(url)
    alembic(url, ("downgrade", "0011"))
    assert not tables & table_names(url)
    alembic(url, ("upgrade", "head"))


def test_join_only_while_open_under_the_cap_and_once(store: TournamentStore) -> None:
    t = made(store)
    assert store.get(t.id).starts_at == t.starts_at
    store.join(t.id, "a" * 32, "Ann", NOW)
    with pytest.raises(NotJoinableError, match="already"):
        store.join(t.id, "a" * 32, "Ann", NOW)
    store.join(t.id, "b" * 32, "Bo", NOW)
    store.join(t.id, "d" * 32, "Di", NOW)
    with pytest.raises(NotJoinableError, match="full"):
        store.join(t.id, "e" * 32, "Ed", NOW)
    assert store.get(t.id).players == 3
    assert [p.name for p in store.players(t.id)] == ["Ann", "Bo", "Di"]
    late = made(store)
    with pytest.raises(NotJoinableError, match="begun"):
        store.join(late.id, "a" * 32, "Ann", late.starts_at)
    assert store.players(late.id) == [] and store.get(late.id).players == 0
    with pytest.raises(NotFoundError):
        store.get("f" * 32)


def test_cancel_by_the_creator_before_the_start(store: TournamentStore) -> None:
    t = made(store)
    with pytest.raises(NotCreatorError):
        store.cancel(t.id, "a" * 32)
    store.cancel(t.id, t.creator_id)
    assert store.get(t.id).state == "cancelled"
    with pytest.raises(NotCancellableError):
        store.cancel(t.id, t.creator_id)
    with pytest.raises(NotJoinableError):
        store.join(t.id, "a" * 32, "Ann", NOW)
    empty = made(store)
    assert store.cancel_empty(empty.id) and store.get(empty.id).state == "cancelled"


def test_the_start_and_each_close_happen_once(store: TournamentStore) -> None:
    t = made(store, rounds=2)
    store.join(t.id, "a" * 32, "Ann", NOW)
    store.join(t.id, "b" * 32, "Bo", NOW)
    seats = [Seating("a" * 32, 0, "1" * 32, 0), Seating("b" * 32, 0, "1" * 32, 1)]
    later = NOW + timedelta(hours=1)
    deadline = later + timedelta(hours=1)
    assert store.begin(t.id, seats, later, deadline)
    assert not store.begin(t.id, seats, later, deadline)  # another process: nothing
    assert store.due(later) == [t.id]
    assert store.get(t.id).state == "running" and store.get(t.id).round == 1
    with pytest.raises(NotCancellableError):
        store.cancel(t.id, t.creator_id)
    assert store.missing_games(t.id, 1) == ["1" * 32]
    assert store.unfinished(t.id, 1) == 2
    assert not store.round_closed(t.id, 1)
    results = {"a" * 32: (250, 1), "b" * 32: (200, 0)}
    second = [Seating("a" * 32, 0, "2" * 32, 0), Seating("b" * 32, 0, "2" * 32, 1)]
    assert store.close(t.id, 1, results, later, second, deadline)
    assert not store.close(t.id, 1, results, later, second, deadline)
    assert store.round_closed(t.id, 1) and store.get(t.id).round == 2
    assert store.close(t.id, 2, {"a" * 32: (100, 0), "b" * 32: (150, 1)}, later, None)
    assert store.get(t.id).state == "finished"
    rows = store.seats(t.id)
    assert [(s.round, s.name, s.score, s.points) for s in rows] == [
        (1, "Ann", 250, 1),
        (1, "Bo", 200, 0),
        (2, "Ann", 100, 0),
        (2, "Bo", 150, 1),
    ]
    assert [r.round for r in store.rounds(t.id)] == [1, 2]
    assert store.due(later) == []


def test_listed_public_only_the_coming_first(store: TournamentStore) -> None:
    soon = made(store, starts_at=NOW + timedelta(hours=1))
    later = made(store, starts_at=NOW + timedelta(hours=5))
    made(store, public=False)
    gone = made(store)
    store.cancel(gone.id, gone.creator_id)
    assert [t.id for t in store.listed()] == [soon.id, later.id]
