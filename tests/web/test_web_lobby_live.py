"""The lobby across server processes: two ``yatzy serve`` processes on one
PostgreSQL database.  Two people waiting for the same game, each through another
process, are paired into one game within seconds (the queue is the database's, not a
process's memory); a seek opened through one process fills through the other, and
its creator's process sends it to the game."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from tests.e2e.support import Server
from tests.helpers import eventually
from tests.postgres import pg_or_skip, postgres_database

HEADERS = {"X-Yatzy-CSRF": "1"}


def person(server: Server, name: str) -> httpx.Client:
    """A client of ``server`` signed up as ``name``."""
    client = httpx.Client(base_url=server.url, timeout=30)
    r = client.post(
        "/api/account/signup", json={"name": name, "password": "correct horse"}, headers=HEADERS
    )
    assert r.status_code == 201, r.text
    return client


@pytest.mark.slow
def test_two_processes_share_the_lobby(serve: Callable[..., Server]) -> None:
    pg_or_skip()
    with postgres_database() as url:
        one, two = serve(url), serve(url)
        anna, bo = person(one, "Anna"), person(two, "Bo")
        try:
            waiting = anna.post("/api/lobby/quick", json={"rules": "maxi"}, headers=HEADERS)
            assert waiting.json()["state"] == "waiting", waiting.text
            started = time.monotonic()
            paired = bo.post("/api/lobby/quick", json={"rules": "maxi"}, headers=HEADERS).json()
            assert paired["state"] == "matched" and paired["game"], paired
            found: dict[str, Any] = eventually(
                lambda: anna.get("/api/lobby/quick").json(),
                lambda q: q["game"] is not None,
                timeout=2.0,
                interval=0.1,
                what="the pairing seen by the other process",
            )
            print(f"paired across processes in {(time.monotonic() - started) * 1000:.0f} ms")
            gid = found["game"]
            assert gid == paired["game"]
            assert anna.get(f"/api/games/{gid}").json()["you"]["seats"] == [0]
            assert bo.get(f"/api/games/{gid}").json()["you"]["seats"] == [1]
            # a seek opened through one process, joined through the other
            seek = anna.post("/api/lobby/seeks", json={"players": 2}, headers=HEADERS).json()
            assert seek["id"] in {s["id"] for s in bo.get("/api/lobby").json()["seeks"]}
            joined = bo.post(f"/api/lobby/seeks/{seek['id']}/join", json={}, headers=HEADERS)
            game = joined.json()["game"]
            assert (
                game
                and {"seek": seek["id"], "game": game} in anna.get("/api/lobby").json()["started"]
            )
            assert anna.get(f"/api/games/{game}").json()["you"]["seats"] == [0]
        finally:
            anna.close()
            bo.close()
