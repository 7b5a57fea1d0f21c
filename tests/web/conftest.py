"""The web tests' fixtures, one set for every module: a database per backend, the app
and its test client, and live ``yatzy serve`` processes.

``db_url`` is parametrized over SQLite and PostgreSQL, so a module whose tests take it
(or ``app_client``/``client``) runs once per backend; a module that needs one app on
SQLite only overrides ``app_client`` with ``sqlite_url``.  PostgreSQL is the server on
127.0.0.1:5432 or a throwaway cluster (tests/postgres.py); those runs carry the ``pg``
marker (tests/conftest.py).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from tests.conftest import sqlite_copy
from tests.e2e.support import LIVE_WIN_BUDGET, Server
from tests.helpers import scaled
from tests.postgres import pg_or_skip, postgres_database
from yatzy.web.app import create_app

WS_RECEIVE_TIMEOUT = 60.0
"""Seconds (scaled, see tests/helpers.py) a test client's WebSocket waits for a message."""


def _bound_test_client_receives() -> None:
    """Starlette's ``TestClient`` waits for a WebSocket message without a deadline: a
    server that never answers would hang the test (and, before pytest-timeout, the
    whole run).  Every ``receive``/``receive_json``/``receive_text`` of a test client's
    socket fails the test after :data:`WS_RECEIVE_TIMEOUT` seconds instead."""
    import anyio
    from starlette.testclient import WebSocketTestSession

    unbounded = WebSocketTestSession.receive

    def receive(self: Any) -> Any:
        messages = getattr(self, "_send_rx", None)
        if messages is None:  # another Starlette than the one this was written for
            return unbounded(self)

        async def within_the_deadline() -> Any:
            with anyio.fail_after(scaled(WS_RECEIVE_TIMEOUT)):
                return await messages.receive()

        try:
            return self.portal.call(within_the_deadline)
        except TimeoutError:
            raise AssertionError(
                "the test client's WebSocket received nothing within "
                f"{scaled(WS_RECEIVE_TIMEOUT):.0f} s"
            ) from None

    WebSocketTestSession.receive = receive  # type: ignore[method-assign]


_bound_test_client_receives()


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def db_url(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    migrated_sqlite: Path,
) -> Iterator[str]:
    """A fresh database per module and backend, already migrated (a copy of one
    migrated database per process and backend)."""
    if request.param == "sqlite":
        yield sqlite_copy(migrated_sqlite, tmp_path_factory.mktemp("web"))
        return
    pg_or_skip()
    with postgres_database(migrated=True) as url:
        yield url


@pytest.fixture(scope="module")
def sqlite_url(tmp_path_factory: pytest.TempPathFactory, migrated_sqlite: Path) -> str:
    """A fresh SQLite database per module, already migrated."""
    return sqlite_copy(migrated_sqlite, tmp_path_factory.mktemp("web"))


@pytest.fixture(scope="module")
def app_client(db_url: str) -> Iterator[TestClient]:
    """One running app per module and database (bots act without delay; live win
    chances sampled for :data:`LIVE_WIN_BUDGET` CPU-s an update, as the live servers':
    every version of a game of two seats or more is computed, and at the default 0.2
    that sampling was the most CPU of these tests' apps)."""
    with TestClient(create_app(db_url, bot_delay=0.0, win_budget=LIVE_WIN_BUDGET)) as client:
        yield client


@pytest.fixture
def client(app_client: TestClient) -> TestClient:
    """The app's client with no cookies (a new browser)."""
    app_client.cookies.clear()
    return app_client


@pytest.fixture
def serve() -> Iterator[Callable[..., Server]]:
    """Start live ``yatzy serve`` processes (``Server``'s arguments), each stopped at the
    end of the test."""
    started: list[Server] = []

    def start(database_url: str, **kw: Any) -> Server:
        server = Server(database_url, **kw).start()
        started.append(server)
        return server

    yield start
    for server in reversed(started):
        server.stop()
