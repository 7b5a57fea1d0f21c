"""Caps that hold across server processes (yatzy.web.shared_caps): with Redis (or
PostgreSQL) configured, a client's open games, sockets and connections count over every
process; a killed process's counts stop counting by themselves.  Redis on 127.0.0.1:6379
(skipped where none answers), PostgreSQL through tests/postgres.py."""

from __future__ import annotations

import asyncio
import secrets
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from starlette.testclient import WebSocketDenialResponse

from tests.e2e.support import Server
from tests.helpers import eventually
from tests.postgres import pg_or_skip, postgres_database
from yatzy.web import shared_caps
from yatzy.web.app import create_app
from yatzy.web.limits import ConnectionShare, Limits
from yatzy.web.shared_caps import PgCaps, RedisCaps, SharedCounts

REDIS = "redis://127.0.0.1:6379/0"
BODY = {"rules": "yatzy", "seats": [{"name": "Ann", "here": True}]}


def _redis_or_skip() -> None:
    import redis

    try:
        redis.Redis.from_url(REDIS, socket_connect_timeout=1).ping()
    except Exception as exc:
        pytest.skip(f"no Redis at {REDIS}: {exc}")


def _prefix() -> str:
    return f"yatzy-test:{secrets.token_hex(4)}:cap:"


def _counts_of_two(make: object) -> tuple[SharedCounts, SharedCounts]:
    assert callable(make)
    return SharedCounts(make(), "proc-a"), SharedCounts(make(), "proc-b")


def _share_and_expire(a: SharedCounts, b: SharedCounts) -> None:
    """Process a holds 3 connections of a client; b learns it, admits up to the share
    of 5 and refuses the sixth; once a stops publishing (killed), its 3 stop counting."""
    held_a = {"10.0.0.7": 3}
    a.sources["connections"] = lambda: dict(held_a)
    share = ConnectionShare(5)
    share.others = lambda key: b.other("connections", key)
    b.sources["connections"] = lambda: dict(share.open)
    asyncio.run(a.sync())
    assert asyncio.run(b.learn("connections", "10.0.0.7")) == 3
    keys = [share.admit(("10.0.0.7", 1000 + i)) for i in range(3)]
    assert keys == ["10.0.0.7", "10.0.0.7", None]  # 3 there + 2 here: the share of 5
    assert share.admit(("10.0.0.8", 1)) == "10.0.0.8"  # another client: its own share
    asyncio.run(b.sync())
    asyncio.run(a.sync())
    assert a.others["connections"] == {"10.0.0.7": 2}  # a learns b's two as well

    # a is killed: it publishes no more, and after the TTL b no longer counts its 3
    def after_a_died() -> int:
        asyncio.run(b.sync())
        return b.other("connections", "10.0.0.7")

    eventually(after_a_died, lambda n: n == 0, what="a dead process's count to expire")
    assert share.admit(("10.0.0.7", 2000)) == "10.0.0.7"


def test_connections_count_over_two_processes_through_redis() -> None:
    _redis_or_skip()
    prefix = _prefix()
    a, b = _counts_of_two(lambda: RedisCaps(REDIS, prefix, ttl=1.0))
    _share_and_expire(a, b)


@pytest.mark.pg
def test_connections_count_over_two_processes_through_postgres() -> None:
    pg_or_skip()
    with postgres_database() as url:
        a, b = _counts_of_two(lambda: PgCaps(url, ttl=1.0))
        _share_and_expire(a, b)
        store = a.store
        store.add_game("10.0.0.7", "g1")
        store.add_game("10.0.0.7", "g2")
        assert b.store.games("10.0.0.7") == ["g1", "g2"]
        b.store.keep_games("10.0.0.7", ["g2"])
        assert store.games("10.0.0.7") == ["g2"]


def test_a_store_that_does_not_answer_leaves_the_process_counting_alone() -> None:
    counts = SharedCounts(RedisCaps("redis://127.0.0.1:1/0"))  # nobody there
    counts.sources["sockets"] = lambda: {"10.0.0.1": 4}
    asyncio.run(counts.sync())
    assert asyncio.run(counts.learn("sockets", "10.0.0.1")) == 0
    assert counts.other("sockets", "10.0.0.1") == 0


@pytest.fixture
def two_apps(
    tmp_path: object, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[TestClient, TestClient]]:
    """Two app instances (two server processes' worth) over one SQLite database,
    sharing Redis, with 2 open games and 2 sockets per client.  The store's calls may
    take 10 s (not 4 x 0.5): under the whole suite's load a call once took longer, the
    socket's count was not published and the other app, counting alone as designed,
    admitted a third socket."""
    _redis_or_skip()
    monkeypatch.setattr(shared_caps, "TIMEOUT", 2.5)
    url = f"sqlite:///{tmp_path}/yatzy.db"
    limits = Limits(open_games=2, sockets_per_client=2)
    prefix = _prefix()
    apps = [create_app(url, bot_delay=0.0, limits=limits, redis_url=REDIS) for _ in "ab"]
    for app in apps:
        app.state.shared_counts.store.prefix = prefix  # this test's keys alone
    with TestClient(apps[0]) as a, TestClient(apps[1]) as b:
        yield a, b


def test_open_games_count_over_two_app_instances(
    two_apps: tuple[TestClient, TestClient],
) -> None:
    a, b = two_apps
    assert a.post("/api/games", json=BODY).status_code == 201
    assert b.post("/api/games", json=BODY).status_code == 201
    refused = a.post("/api/games", json=BODY)  # alone, a would allow one more
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) >= 1
    assert b.post("/api/games", json=BODY).status_code == 429


def test_sockets_count_over_two_app_instances(
    two_apps: tuple[TestClient, TestClient],
) -> None:
    a, b = two_apps
    game = a.post("/api/games", json=BODY).json()["id"]
    path = f"/api/games/{game}/ws"
    with a.websocket_connect(path) as one, a.websocket_connect(path) as two:
        assert one.receive_json()["type"] == two.receive_json()["type"] == "state"
        # b asks the store about this client before its first socket: a holds 2
        with pytest.raises(WebSocketDenialResponse) as refused, b.websocket_connect(path):
            pass
        assert refused.value.status_code == 429


@pytest.mark.slow
def test_two_server_processes_share_a_clients_sockets_and_games_through_redis(
    sqlite_url: str, serve: Callable[..., Server]
) -> None:
    """Two ``yatzy serve`` processes with ``--redis-url``: a client's 2 sockets and 2
    open games are its share over both (each alone would allow 2 more)."""
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    _redis_or_skip()
    args = [
        "--redis-url",
        REDIS,
        "--trusted-proxies",
        "127.0.0.1",
        "--max-sockets-per-client",
        "2",
        "--max-open-games",
        "2",
    ]
    a, b = serve(sqlite_url, args=args), serve(sqlite_url, args=args)
    client = f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.{secrets.randbelow(250)}"
    headers = {"X-Forwarded-For": client}
    made = [httpx.post(s.url + "/api/games", json=BODY, headers=headers) for s in (a, b)]
    assert [r.status_code for r in made] == [201, 201]
    refused = httpx.post(a.url + "/api/games", json=BODY, headers=headers)
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    game = made[0].json()["id"]

    def socket(server: Server) -> Any:
        url = server.url.replace("http", "ws") + f"/api/games/{game}/ws"
        return connect(url, additional_headers=headers, open_timeout=30)

    with socket(a) as one, socket(b) as two:
        assert one.recv(timeout=30) and two.recv(timeout=30)
        with pytest.raises(InvalidStatus) as full:
            socket(a).close()
        assert full.value.response.status_code == 429


@pytest.mark.slow
@pytest.mark.pg
def test_two_server_processes_share_a_clients_open_games_through_postgres(
    serve: Callable[..., Server],
) -> None:
    """``--shared-limits`` on PostgreSQL: the open games' cap holds over both processes."""
    pg_or_skip()
    args = ["--shared-limits", "--jobs", "server", "--trusted-proxies", "127.0.0.1"]
    with postgres_database() as url:
        a = serve(url, args=[*args, "--max-open-games", "2"])
        b = serve(url, args=[*args, "--max-open-games", "2"])
        headers = {"X-Forwarded-For": "10.1.2.3"}
        made = [httpx.post(s.url + "/api/games", json=BODY, headers=headers) for s in (a, b)]
        assert [r.status_code for r in made] == [201, 201]
        refused = httpx.post(b.url + "/api/games", json=BODY, headers=headers)
        assert refused.status_code == 429
        other = httpx.post(b.url + "/api/games", json=BODY, headers={"X-Forwarded-For": "10.9.9.9"})
        assert other.status_code == 201
