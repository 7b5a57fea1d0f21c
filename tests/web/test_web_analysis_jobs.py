"""The analysis in points of a server without workers (SQLite, ``yatzy serve`` alone)
runs as a job of a bounded in-process pool, never in the request: the first answer
says "being computed", a later one has it."""

from __future__ import annotations

import threading
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from tests.helpers import eventually
from yatzy.web import hints, jobs
from yatzy.web.app import create_app


@pytest.fixture(scope="module")
def client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url, bot_delay=0.0)) as c:
        yield c


def test_the_analysis_is_a_job_not_the_requests_work(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    body = {"rules": "yatzy", "seats": [{"name": "Ann", "here": True}]}
    gid = client.post("/api/games", json=body).json()["id"]
    assert client.post(f"/api/games/{gid}/actions", json={"action": {"roll": []}}).is_success
    monkeypatch.setattr(hints, "_status", lambda rules: None)  # the strategy is ready
    release = threading.Event()
    ran_on: list[str] = []
    done = {"pending": False, "players": [], "note": "computed by the job"}

    def gated(args: dict[str, Any]) -> dict[str, Any]:
        ran_on.append(threading.current_thread().name)
        assert release.wait(30)
        return done

    jobs.register("analysis", gated)
    try:
        first = client.get(f"/api/games/{gid}/analysis")
        assert first.status_code == 200
        assert first.json() == {"pending": True}  # answered while the job runs
        eventually(lambda: ran_on, what="the job to start")
        assert ran_on[0].startswith("analysis")  # on the pool's thread
        release.set()
        answer = eventually(
            lambda: client.get(f"/api/games/{gid}/analysis").json(),
            lambda a: not a.get("pending"),
            what="the analysis",
        )
        assert answer["note"] == "computed by the job"
        assert len(ran_on) == 1  # computed once, then kept
    finally:
        release.set()
        jobs.register("analysis", hints._analysis_job)
