"""The per-process cache of live game states never lets a stale state through.

Two services (two server processes) share one database; each keeps the states it
has seen in memory and acts on them without a freshness query, relying on the
guarded ``UPDATE ... WHERE version = v`` of the commit.  These tests move a game
through one and act or look through the other.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest

from tests.postgres import pg_or_skip, postgres_database
from yatzy.errors import YatzyError
from yatzy.game import Roll, action_to_json, from_record
from yatzy.store import ConflictError, GameRepository
from yatzy.web.service import Created, GameService, SeatRequest

ROLL: dict[str, Any] = {"roll": []}


class Blocking:
    """A :class:`GameService` driven by these synchronous tests: each of its
    coroutines runs to completion on one event loop, as in the server (asyncpg
    commits on PostgreSQL); anything else is the service's own."""

    def __init__(self, service: GameService, runner: asyncio.Runner) -> None:
        self.service = service
        self.runner = runner

    def __getattr__(self, name: str) -> Any:
        found = getattr(self.service, name)
        if not inspect.iscoroutinefunction(found):
            return found

        def run(*args: Any, **kw: Any) -> Any:
            return self.runner.run(found(*args, **kw))

        return run


@pytest.fixture(params=["sqlite", "postgres"])
def two_services(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Any, Any]]:
    """Two services with repositories of their own over one fresh database."""
    with contextlib.ExitStack() as stack:
        if request.param == "sqlite":
            url = f"sqlite:///{tmp_path / 'shared.db'}"
        else:
            pg_or_skip()
            url = stack.enter_context(postgres_database())
        repos = [GameRepository.open(url), GameRepository.open(url)]
        runner = stack.enter_context(asyncio.Runner())
        yield Blocking(GameService(repos[0]), runner), Blocking(GameService(repos[1]), runner)
        for repo in repos:
            runner.run(repo.aclose())
            repo.close()


def _solo(service: Any) -> Created:
    return service.create("yatzy", "en", [SeatRequest("Ann", here=True)])


def _stored_state_matches(service: Any, game_id: str) -> None:
    """The stored record replays to the state the service holds, moves 1..version."""
    stored = service.repo.get(game_id)
    _, state = service.load(game_id)
    assert from_record(orjson.loads(stored.record)) == state
    assert [m["version"] for m in service.repo.moves(game_id)] == list(range(1, stored.version + 1))


def test_action_on_a_stale_cached_state_is_judged_on_the_stored_one(
    two_services: tuple[Any, Any],
) -> None:
    a, b = two_services
    game = _solo(a)
    gid, tokens = game.game_id, game.tokens
    assert b.view(gid, tokens)["version"] == 0  # b now holds version 0 in memory
    a.act(gid, ROLL, tokens)
    a.act(gid, ROLL, tokens)
    assert b.cached_version(gid) == 0
    # b's action was based on version 0: the commit refuses it, b reads version 2 and
    # applies the roll there -- the third and last of the turn, not a second one.
    stored, state = b.act(gid, ROLL, tokens)
    assert stored.version == 3 and state.rolls_used == 3
    assert b.cached_version(gid) == 3
    _stored_state_matches(a, gid)
    # and a, whose cache is now the stale one, sees b's move (no stale view)
    assert a.view(gid, tokens)["turn"]["rolls_used"] == 3


def test_a_stale_cache_never_lets_an_illegal_action_through(
    two_services: tuple[Any, Any],
) -> None:
    a, b = two_services
    game = _solo(a)
    gid, tokens = game.game_id, game.tokens
    b.view(gid, tokens)
    for _ in range(3):
        a.act(gid, ROLL, tokens)  # the turn's three rolls, through a
    # In b's cached version 0 a roll is legal; in the stored version 3 it is not.
    with pytest.raises(YatzyError, match="roll"):
        b.act(gid, ROLL, tokens)
    assert a.repo.version(gid) == 3
    _stored_state_matches(b, gid)


def test_a_stale_expected_version_is_a_conflict_whatever_the_cache(
    two_services: tuple[Any, Any],
) -> None:
    a, b = two_services
    game = _solo(a)
    gid, tokens = game.game_id, game.tokens
    b.view(gid, tokens)
    a.act(gid, ROLL, tokens)
    # b's cache says 0 like the client, but the stored game is at 1: refused
    with pytest.raises(ConflictError):
        b.act(gid, ROLL, tokens, expected_version=0)
    # the stored version is accepted although b's cache had another one
    stored, _ = b.act(gid, ROLL, tokens, expected_version=1)
    assert stored.version == 2
    with pytest.raises(ConflictError):
        a.act(gid, ROLL, tokens, expected_version=1)
    assert a.repo.version(gid) == 2
    _stored_state_matches(a, gid)


def test_a_race_lost_inside_one_process_is_a_conflict(
    two_services: tuple[Any, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, _ = two_services
    game = _solo(a)
    gid, tokens = game.game_id, game.tokens
    a.view(gid, tokens)
    real_commit_async = a.repo.commit_async
    rivals: list[int] = []

    async def rival_commits() -> None:
        # Another request of this same process, based on the same cached version,
        # commits between this one's read and its commit.
        rivals.append(-1)
        stored, state = await a.service.load(gid)
        decided = a.service._apply(stored, state, Roll(()), 0)
        rivals[0] = (await a.service._store(decided))[0].version

    async def rival_first_async(game_id: str, based_on: int, **kw: Any) -> int:
        if not rivals:
            await rival_commits()
        return await real_commit_async(game_id, based_on, **kw)

    monkeypatch.setattr(a.repo, "commit_async", rival_first_async)
    # Based on version 0, which this process itself moved past: refused (409), not
    # replayed on the rival's state.
    with pytest.raises(ConflictError):
        a.act(gid, ROLL, tokens)
    assert rivals == [1] and a.repo.version(gid) == 1
    _stored_state_matches(a, gid)


def test_forget_drops_only_older_cached_states(
    two_services: tuple[Any, Any],
) -> None:
    a, _ = two_services
    game = _solo(a)
    gid, tokens = game.game_id, game.tokens
    a.act(gid, ROLL, tokens)
    a.forget(gid, older_than=1)  # a notification of the version it holds
    assert a.cached_version(gid) == 1
    a.forget(gid, older_than=2)  # another process is ahead
    assert a.cached_version(gid) is None
    assert a.view(gid, tokens)["version"] == 1


def test_a_failed_autocommit_statement_gives_the_pool_back_a_transactional_connection(
    tmp_path: Path,
) -> None:
    """The one-statement action path switches a pooled PostgreSQL connection to
    autocommit; an error must not leave it so for the multi-statement writes."""
    import psycopg

    pg_or_skip()
    with postgres_database() as url:
        repo = GameRepository.open(url)
        try:
            with pytest.raises(psycopg.errors.DivisionByZero):
                repo._pg_one("SELECT 1 / 0", ())
            pool: Any = repo.engine.pool
            raws = [repo.engine.raw_connection() for _ in range(pool.checkedin())]
            drivers: list[Any] = [r.driver_connection for r in raws]
            assert drivers and not any(d.autocommit for d in drivers)
            for r in raws:
                r.close()
        finally:
            repo.close()


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["yatzy", "dubbel", "maxi+saved_rolls"])
def test_a_cached_state_catches_up_on_the_moves_of_another_process(
    two_services: tuple[Any, Any], monkeypatch: pytest.MonkeyPatch, rules: str
) -> None:
    """A process whose cached state is behind replays the stored moves on it (the
    dice from the move rows) instead of the whole record, and gets the stored state."""
    import random

    a, b = two_services
    game = a.create(rules, "en", [SeatRequest("Ann", here=True)])
    gid, tokens = game.game_id, game.tokens
    b.view(gid, tokens)  # b holds version 0
    rng = random.Random(7)
    for _ in range(12):  # rolls, keeps and written boxes, over several turns
        _, state = a.load(gid)
        a.act(gid, action_to_json(rng.choice(state.legal_actions())), tokens)

    def no_reload(game_id: str) -> None:
        raise AssertionError("the record was read again")

    monkeypatch.setattr(b.repo, "get", no_reload)
    stored, state = b.load(gid)
    monkeypatch.undo()
    assert stored.version == 12 == b.cached_version(gid)
    assert state == from_record(orjson.loads(a.repo.get(gid).record))
    _stored_state_matches(b, gid)
