""" "Your turn" pushes over two server processes (two app instances sharing a store:
Redis over one SQLite database, or PostgreSQL with ``shared_limits``): a player whose
socket on the game is held by one process is told nothing of a move made through the
other; once that socket closes, the next turn is pushed."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from tests.helpers import eventually
from tests.postgres import pg_or_skip, postgres_database
from tests.web.helpers import Browser
from tests.web.push_service import PushService
from tests.web.test_web_accounts import CHEAP
from tests.web.test_web_push import arrived, duel, play_turn, settled, signed_up, subscribed
from tests.web.test_web_shared_caps import REDIS, _prefix, _redis_or_skip
from yatzy.web.app import create_app
from yatzy.web.hub import WATCHING, Hub
from yatzy.web.notifications import watching_anywhere
from yatzy.web.shared_caps import RedisCaps, SharedCounts


@pytest.fixture(scope="module")
def push() -> Iterator[PushService]:
    """The push service of the module's tests."""
    with PushService() as service:
        yield service


@pytest.fixture(params=["redis", "postgres"])
def two_apps(
    request: pytest.FixtureRequest, tmp_path: object
) -> Iterator[tuple[TestClient, TestClient]]:
    """Two app instances (two server processes' worth) over one database, sharing
    a store of counts, taking loopback push endpoints."""
    kw: dict[str, Any] = {
        "win_chances": False,
        "hasher": CHEAP,
        "bot_delay": 0.0,
        "push_loopback": True,
    }
    if request.param == "redis":
        _redis_or_skip()
        prefix = _prefix()
        url = f"sqlite:///{tmp_path}/yatzy.db"
        apps = [create_app(url, redis_url=REDIS, **kw) for _ in "ab"]
        for app in apps:
            app.state.shared_counts.store.prefix = prefix  # this test's keys alone
        with TestClient(apps[0]) as a, TestClient(apps[1]) as b:
            yield a, b
        return
    pg_or_skip()
    with postgres_database() as url:
        apps = [create_app(url, shared_limits=True, **kw) for _ in "ab"]
        with TestClient(apps[0]) as a, TestClient(apps[1]) as b:
            yield a, b


@pytest.mark.slow  # two server processes
def test_no_push_to_a_player_watching_through_another_process(
    two_apps: tuple[TestClient, TestClient], push: PushService
) -> None:
    a, b = two_apps
    anna, anna_name = signed_up(a, "Anna")
    bo, bo_name = signed_up(a, "Bo")
    phones = {0: push.device("anna-" + anna_name), 1: push.device("bo-" + bo_name)}
    subscribed(anna, phones[0])
    subscribed(bo, phones[1])
    game = duel(anna, anna_name, bo, bo_name)
    gid = game["id"]
    first = game["game"]["starter"]
    mover = {0: anna, 1: bo}[first]
    watcher = {0: bo, 1: anna}[first]
    watcher_phone, mover_phone = phones[1 - first], phones[first]
    on_b = Browser(b)  # the watcher's page, served by the other process
    on_b.jar = dict(watcher.jar)
    hub_b: Hub = b.app.state.hub  # type: ignore[attr-defined]
    counts_a: SharedCounts = a.app.state.shared_counts  # type: ignore[attr-defined]
    with on_b as c, c.websocket_connect(f"/api/games/{gid}/ws") as ws:
        assert ws.receive_json()["type"] == "state"
        (key,) = [k for k in hub_b.watched() if k.startswith(gid + ":")]
        assert counts_a.elsewhere(WATCHING, key) == 1  # published before the first state
        play_turn(mover, gid)  # through process a, which holds no socket of the game
        settled(a)
        assert push.to(watcher_phone) == []
    # the socket closed: process a learns it, and the next turn is pushed
    eventually(lambda: counts_a.elsewhere(WATCHING, key), lambda n: n == 0, what="unwatched")
    play_turn(watcher, gid)
    (told,) = arrived(a, push, mover_phone, "turn")
    assert told["game"] == gid
    play_turn(mover, gid)
    (turn,) = arrived(a, push, watcher_phone, "turn")
    assert turn["game"] == gid


def test_a_store_that_does_not_answer_counts_as_nobody_watching() -> None:
    """The push thread asks the store; one that does not answer (nothing listens on
    the port) gives no answer, and the push then goes out (only this process's own
    sockets hold it back)."""
    counts = SharedCounts(RedisCaps("redis://127.0.0.1:1/0"))
    assert counts.elsewhere(WATCHING, "g1:owner") is None

    def elsewhere(game: str, owner: str) -> int | None:
        return counts.elsewhere(WATCHING, f"{game}:{owner}")

    here = {("g1", "anna")}
    watching = watching_anywhere(lambda g, o: (g, o) in here, elsewhere)
    assert watching("g1", "anna") and not watching("g1", "bo")
