"""The games that wait for a signed-in player's move (``/api/account/turns``), on
SQLite and PostgreSQL: listed while it is their turn in any game, in their language,
the longest waiting first; not the others' turns, not a bot's, not a finished game."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from tests.helpers import eventually
from tests.web.helpers import Browser, conforms
from tests.web.test_web_accounts import CHEAP, CSRF, fresh_name
from tests.web.test_web_api import play_out, view
from yatzy.web.app import create_app
from yatzy.web.models import TurnsView


@pytest.fixture(scope="module")
def app_client(db_url: str) -> Iterator[TestClient]:
    """One app per backend, with cheap password hashing."""
    with TestClient(create_app(db_url, win_chances=False, hasher=CHEAP, bot_delay=0.0)) as c:
        yield c


def signed_up(client: TestClient, base: str) -> tuple[Browser, str]:
    browser = Browser(client)
    name = fresh_name(base)
    with browser as c:
        r = c.post(
            "/api/account/signup", json={"name": name, "password": "pw pw pw pw"}, headers=CSRF
        )
        assert r.status_code == 201, r.text
    return browser, name


def waiting(c: TestClient, lang: str = "en") -> list[dict[str, Any]]:
    r = c.get(f"/api/account/turns?lang={lang}")
    assert r.status_code == 200, r.text
    conforms(TurnsView, r.json())
    games: list[dict[str, Any]] = r.json()["games"]
    return games


def test_the_games_that_wait_for_my_move(client: TestClient) -> None:
    anna, anna_name = signed_up(client, "Ann")
    bo, bo_name = signed_up(client, "Bo")
    with anna as c:
        assert waiting(c) == []
        solo = c.post("/api/games", json={"seats": [{"name": anna_name, "here": True}]}).json()
        duel = c.post(
            "/api/games", json={"seats": [{"name": anna_name, "here": True}, {"name": bo_name}]}
        ).json()
        bot = c.post(
            "/api/games",
            json={"seats": [{"name": anna_name, "here": True}, {"name": "B", "bot": "random"}]},
        ).json()
    with bo as c:
        joined = c.post(f"/api/games/{duel['id']}/join", json={"invite": duel["invite"], "seat": 1})
        assert joined.status_code == 200, joined.text
    first = duel["game"]["starter"]
    with anna as c:
        # The computer plays its turn at once when it starts the game (bot_delay 0):
        # the list is read once the game waits for Anna again.  Read before that, a
        # turn the computer ended between the list and the view made them disagree
        # (PostgreSQL, under load).
        eventually(
            lambda: view(c, bot["id"]),
            lambda v: not v["players"][v["turn"]["seat"]]["bot"],
            what="the computer's turn to end",
        )
        mine = {g["id"] for g in waiting(c)}
        assert solo["id"] in mine
        assert (duel["id"] in mine) == (first == 0)
        assert bot["id"] in mine
        sv = waiting(c, "sv")
        assert next(g for g in sv if g["id"] == solo["id"])["title"] == "Yatzy"
        assert next(g for g in sv if g["id"] == solo["id"])["players"] == [anna_name]
    with bo as c:
        assert {g["id"] for g in waiting(c)} == ({duel["id"]} if first == 1 else set())
    with anna as c:
        play_out(c, solo["id"])  # finished: no longer waits
        assert solo["id"] not in {g["id"] for g in waiting(c)}


def test_guests_are_not_signed_in(client: TestClient) -> None:
    with Browser(client) as c:
        assert c.get("/api/account/turns").status_code == 401


def test_the_list_reads_its_games_in_a_few_queries(client: TestClient) -> None:
    """The list costs as many database statements for 12 waiting games as for 2:
    the games are read together, not one by one."""
    from sqlalchemy import event

    from yatzy.web.accounts import name_key

    app: Any = client.app
    service = app.state.service
    anna, anna_name = signed_up(client, "Qry")
    owner = app.state.accounts.store.by_name(name_key(anna_name)).owner
    statements: list[str] = []

    def counted(*args: Any) -> None:
        # The statements that read games: the server's background work (the analysis
        # ahead, notifications, sessions) shares the engine and, under load, ran a
        # statement of its own during a listing (6 counted against 5).
        if "game" in str(args[2]).lower():
            statements.append(args[2])

    def listing() -> tuple[int, int]:
        statements.clear()
        event.listen(service.repo.engine, "before_cursor_execute", counted)
        try:
            games = client.portal.call(service.turns_of, owner)  # type: ignore[union-attr]
        finally:
            event.remove(service.repo.engine, "before_cursor_execute", counted)
        return len(games), len(statements)

    with anna as c:
        for n in (2, 12):
            while len(waiting(c)) < n:
                r = c.post("/api/games", json={"seats": [{"name": anna_name, "here": True}]})
                assert r.status_code == 201, r.text
            assert listing()[0] == n
            if n == 2:
                few = listing()[1]
    assert listing() == (12, few) and few <= 8
