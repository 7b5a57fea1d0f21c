"""Free text between friends across live server processes sharing PostgreSQL: a line
written through one process nudges the friend's socket on the other (and only his),
who then reads it from the database."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from tests.e2e.support import Server, pg_or_skip, postgres_database

pytestmark = pytest.mark.slow  # two live server processes over PostgreSQL

CSRF = {"X-Yatzy-CSRF": "1"}


def _signup(client: httpx.Client, name: str) -> None:
    r = client.post(
        "/api/account/signup", json={"name": name, "password": "correct horse"}, headers=CSRF
    )
    assert r.status_code == 201, r.text


def _until(ws: Any, kind: str) -> list[dict[str, Any]]:
    """The socket's messages up to the first of type ``kind``."""
    seen = []
    while True:
        message = json.loads(ws.recv(timeout=60))
        seen.append(message)
        if message["type"] == kind:
            return seen


def test_a_line_through_one_process_reaches_a_friend_on_another(tmp_path: Path) -> None:
    pg_or_skip()
    with (
        postgres_database() as url,
        Server(url, log=tmp_path / "a.log", args=["--no-limits"]) as a,
        Server(url, log=tmp_path / "b.log", args=["--no-limits"]) as b,
    ):
        ann = httpx.Client(base_url=a.url)
        bo = httpx.Client(base_url=b.url)
        cy = httpx.Client(base_url=b.url)
        _signup(ann, "Ann")
        _signup(bo, "Bo")
        _signup(cy, "Cy")
        assert (
            ann.post("/api/friends/request", json={"name": "Bo"}, headers=CSRF).status_code == 200
        )
        assert bo.post("/api/friends/accept", json={"name": "Ann"}, headers=CSRF).status_code == 200
        game = ann.post(
            "/api/games",
            json={"seats": [{"name": "Ann", "here": True}, {"name": "B"}, {"name": "C"}]},
        ).json()
        gid = game["id"]
        for seat, who in ((1, bo), (2, cy)):
            r = who.post(f"/api/games/{gid}/join", json={"invite": game["invite"], "seat": seat})
            assert r.status_code == 200, r.text
        ws_url = b.url.replace("http", "ws") + f"/api/games/{gid}/ws"
        with (
            connect(ws_url, open_timeout=5, additional_headers={"Cookie": _cookies(bo)}) as bo_ws,
            connect(ws_url, open_timeout=5, additional_headers={"Cookie": _cookies(cy)}) as cy_ws,
        ):
            assert json.loads(bo_ws.recv(timeout=5))["type"] == "state"
            assert json.loads(cy_ws.recv(timeout=5))["type"] == "state"
            r = ann.post(f"/api/games/{gid}/messages", json={"text": "over here"}, headers=CSRF)
            assert r.status_code == 201, r.text
            # only the NOTIFY between the processes brings the nudge to process B
            assert _until(bo_ws, "messages")[-1] == {"type": "messages", "game": gid}
            said = ann.post(f"/api/games/{gid}/say", json={"phrase": "hello"})
            assert said.status_code == 200
            seen = [json.loads(cy_ws.recv(timeout=60))]
            while not any(t["phrase"] == "hello" for t in seen[-1].get("game", {}).get("talk", [])):
                seen.append(json.loads(cy_ws.recv(timeout=60)))
            assert all(m["type"] != "messages" for m in seen)
        lines = bo.get(f"/api/games/{gid}/messages").json()["lines"]
        assert [(ln["name"], ln["text"]) for ln in lines] == [("Ann", "over here")]
        assert cy.get(f"/api/games/{gid}/messages").json()["lines"] == []


def _cookies(client: httpx.Client) -> str:
    return "; ".join(f"{k}={v}" for k, v in client.cookies.items())
