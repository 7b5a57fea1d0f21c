"""Accounts across two live server processes sharing PostgreSQL: sign up through one,
log in through the other, play one seat through both; a session ended through one
process is refused by the other at once; a guest's games move whichever process the
log-in goes through."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tests.e2e.support import Server, pg_or_skip, postgres_database

pytestmark = pytest.mark.slow  # live server processes over PostgreSQL

CSRF = {"X-Yatzy-CSRF": "1"}


def test_one_account_through_two_processes(tmp_path: Path) -> None:
    pg_or_skip()
    with (
        postgres_database() as url,
        Server(url, log=tmp_path / "a.log") as a,
        Server(url, log=tmp_path / "b.log") as b,
    ):
        phone = httpx.Client(base_url=a.url)
        laptop = httpx.Client(base_url=b.url)
        # a guest game on the laptop, before it logs in
        guest = laptop.post("/api/games", json={"seats": [{"name": "Siv", "here": True}]})
        assert guest.status_code == 201
        body = {"name": "Siv", "password": "correct horse"}
        assert phone.post("/api/account/signup", json=body, headers=CSRF).status_code == 201
        solo = phone.post("/api/games", json={"seats": [{"name": "Siv", "here": True}]}).json()
        gid = solo["id"]
        assert laptop.post("/api/account/login", json=body, headers=CSRF).status_code == 200
        # the laptop's guest game is the account's, seen through the other process
        assert guest.json()["id"] in {g["id"] for g in phone.get("/api/history").json()}
        # one seat, moves through both processes
        first = phone.post(f"/api/games/{gid}/actions", json={"action": {"roll": []}})
        assert first.status_code == 200, first.text
        second = laptop.post(f"/api/games/{gid}/actions", json={"action": {"score": "chance"}})
        assert second.status_code == 200, second.text
        assert second.json()["you"]["seats"] == [0]
        # the phone ends the laptop's session: the laptop's process refuses it at once
        sessions = phone.get("/api/account/sessions").json()
        theirs = next(s["id"] for s in sessions if not s["current"])
        r = phone.post("/api/account/sessions/revoke", json={"id": theirs}, headers=CSRF)
        assert r.status_code == 200
        assert laptop.get("/api/account").json()["signed_in"] is False
        refused = laptop.post(f"/api/games/{gid}/actions", json={"action": {"roll": []}})
        assert refused.status_code == 403, refused.text
