"""Rate limits that hold across server processes: with ``--redis-url`` (or
``--shared-limits`` on PostgreSQL) two ``yatzy serve`` processes share one bucket per
client and kind (yatzy.web.shared_limits); otherwise each process counts alone.  The
Redis tests need the Redis on 127.0.0.1:6379 (skipped where none answers)."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from tests.e2e.support import Server
from tests.postgres import pg_or_skip, postgres_database
from yatzy.web.limits import Limits, Rate, RateLimitedError, RateLimiter
from yatzy.web.shared_limits import PgStore, RedisStore

REDIS = "redis://127.0.0.1:6379/0"


def _redis_or_skip() -> None:
    import redis

    try:
        redis.Redis.from_url(REDIS, socket_connect_timeout=1).ping()
    except Exception as exc:
        pytest.skip(f"no Redis at {REDIS}: {exc}")


def test_two_limiters_share_one_bucket_through_redis() -> None:
    _redis_or_skip()
    prefix = f"yatzy-test:{secrets.token_hex(4)}:"
    limits = Limits(create=Rate(1, 3))
    one = RateLimiter(limits, RedisStore(REDIS, prefix))
    two = RateLimiter(limits, RedisStore(REDIS, prefix))
    one.check("create", "10.0.0.1")
    two.check("create", "10.0.0.1")
    one.check("create", "10.0.0.1")
    with pytest.raises(RateLimitedError) as refused:  # the burst of 3, spent over both
        two.check("create", "10.0.0.1")
    assert 1 < refused.value.retry_after <= 60  # 1 a minute: the next token within a minute
    two.check("create", "10.0.0.2")  # another client has its own bucket
    alone = RateLimiter(limits)  # without Redis: a process counts alone
    for _ in range(3):
        alone.check("create", "10.0.0.1")


def test_redis_away_leaves_each_process_counting_alone() -> None:
    limits = Limits(create=Rate(1, 2))
    limiter = RateLimiter(limits, RedisStore("redis://127.0.0.1:1/0"))  # nobody there
    limiter.check("create", "10.0.0.1")
    limiter.check("create", "10.0.0.1")
    with pytest.raises(RateLimitedError):
        limiter.check("create", "10.0.0.1")


def test_two_limiters_share_one_bucket_through_postgres() -> None:
    pg_or_skip()
    with postgres_database() as url:
        limits = Limits(create=Rate(1, 3))
        one, two = RateLimiter(limits, PgStore(url)), RateLimiter(limits, PgStore(url))
        for limiter in (one, two, one):
            limiter.check("create", "10.0.0.1")
        with pytest.raises(RateLimitedError) as refused:
            two.check("create", "10.0.0.1", spend=False)  # a look, then the refusal
        assert 1 < refused.value.retry_after <= 60
        with pytest.raises(RateLimitedError):
            one.check("create", "10.0.0.1")
        two.check("create", "10.0.0.2")


def _share_the_create_limit(
    serve: Callable[..., Server], database_url: str, shared: list[str]
) -> None:
    """Two ``yatzy serve`` processes with ``shared`` options: one client's burst of 10
    games is spent over both."""
    # One game in 100 minutes beyond the burst: a loaded machine that takes a minute
    # over the twelve requests must not earn the client a token back (at one a minute,
    # a run at load 8 saw the eleventh create pass).
    args = [*shared, "--trusted-proxies", "127.0.0.1", "--limit-create", "0.01"]
    a = serve(database_url, args=args)
    b = serve(database_url, args=args)
    # A client address of this test alone (its bucket is new), told by the trusted proxy.
    client = f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.{secrets.randbelow(250)}"
    headers = {"X-Forwarded-For": client}
    body = {"rules": "yatzy", "seats": [{"name": "Ann", "here": True}]}

    def create(server: Server) -> httpx.Response:
        return httpx.post(server.url + "/api/games", json=body, headers=headers, timeout=30)

    codes = [create(server).status_code for server in (a, b) * 5]  # the burst: 10
    assert codes == [201] * 10
    refused = [create(server) for server in (a, b)]
    assert [r.status_code for r in refused] == [429, 429]  # each alone would allow 10 more
    assert all(int(r.headers["Retry-After"]) >= 1 for r in refused)
    # Another client is not held back by this one.
    other = {"X-Forwarded-For": "10.255." + client.split(".", 2)[2]}
    assert httpx.post(a.url + "/api/games", json=body, headers=other).status_code == 201


@pytest.mark.slow
def test_two_server_processes_share_the_create_limit_through_redis(
    sqlite_url: str, serve: Callable[..., Server]
) -> None:
    _redis_or_skip()
    _share_the_create_limit(serve, sqlite_url, ["--redis-url", REDIS])


@pytest.mark.slow
def test_two_server_processes_share_the_create_limit_through_postgres(
    serve: Callable[..., Server],
) -> None:
    pg_or_skip()
    with postgres_database() as url:
        _share_the_create_limit(serve, url, ["--shared-limits", "--jobs", "server"])


def test_a_hanging_store_never_stalls_the_event_loop() -> None:
    """The PostgreSQL check is asked from a thread and given up after the timeout:
    meanwhile the event loop runs, and the process's own bucket answers."""

    class Hanging(PgStore):
        def run(self, sql: str, params: dict[str, Any]) -> Any:
            time.sleep(3)  # a database that does not answer (psycopg blocks so)
            return (True, 1.0)

    limiter = RateLimiter(Limits(create=Rate(1, 2)), Hanging("postgresql://nowhere/x"))

    async def main() -> int:
        ticks = 0

        async def tick() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        ticker = asyncio.create_task(tick())
        await limiter.acheck("create", "10.0.0.1")
        await limiter.acheck("create", "10.0.0.1")
        with pytest.raises(RateLimitedError):  # the in-process bucket of 2 stood in
            await limiter.acheck("create", "10.0.0.1")
        seen = ticks
        ticker.cancel()
        return seen

    assert asyncio.run(main()) >= 10  # the loop ran while the store hung
