"""Rated games over the API (issue 27), on SQLite and PostgreSQL: made only between
signed-in people; hints, undo and the analysis refused to everyone while the game
runs and the analysis given after; the ratings updated once although two processes
see the game end; the analysis kept for the skill index; the leaderboard."""

from __future__ import annotations

import threading
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from tests.e2e.support import next_action
from tests.helpers import eventually
from tests.web.helpers import Browser
from tests.web.test_web_turns import signed_up
from yatzy.store import GameRepository
from yatzy.web.app import create_app
from yatzy.web.rated import RatedGames
from yatzy.web.service import GameService

CHEAP_APP: dict[str, Any] = {"win_chances": False, "bot_delay": 0.0}


@pytest.fixture(scope="module")
def app_client(db_url: str) -> Iterator[TestClient]:
    """One app per backend, with cheap password hashing."""
    from tests.web.test_web_accounts import CHEAP

    with TestClient(create_app(db_url, hasher=CHEAP, **CHEAP_APP)) as c:
        yield c


def view(c: TestClient, gid: str) -> dict[str, Any]:
    r = c.get(f"/api/games/{gid}")
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def rated_duel(client: TestClient) -> tuple[Browser, Browser, dict[str, Any], str, str]:
    """Two signed-in people in a rated game: Anna made it in seat 0, Bo joined seat 1."""
    anna, anna_name = signed_up(client, "Ann")
    bo, bo_name = signed_up(client, "Bo")
    with anna as c:
        r = c.post(
            "/api/games",
            json={"rated": True, "seats": [{"name": anna_name, "here": True}, {"name": bo_name}]},
        )
        assert r.status_code == 201, r.text
        game: dict[str, Any] = r.json()
    with bo as c:
        r = c.post(f"/api/games/{game['id']}/join", json={"invite": game["invite"], "seat": 1})
        assert r.status_code == 200, r.text
    return anna, bo, game, anna_name, bo_name


def play_both(players: dict[int, Browser], gid: str, until_writes: int | None = None) -> None:
    """Play the game's seats, each with the browser that holds it, until it is over
    (or ``until_writes`` boxes were written)."""
    writes = 0
    for _ in range(3000):
        with players[0] as c:
            v = view(c, gid)
        if v["finished"] or (until_writes is not None and writes >= until_writes):
            return
        action = next_action(v)
        with players[v["turn"]["seat"]] as c:
            r = c.post(f"/api/games/{gid}/actions", json={"action": action})
            assert r.status_code == 200, r.text
        writes += "score" in action or "scratch" in action
    raise AssertionError("the game did not end")


def test_rated_games_are_between_signed_in_people(client: TestClient) -> None:
    anna, name = signed_up(client, "Ann")
    seats = [{"name": name, "here": True}, {"name": "Other"}]
    with Browser(client) as c:  # a guest
        r = c.post("/api/games", json={"rated": True, "seats": seats})
        assert (r.status_code, r.json()["error"]) == (403, "RatedAccountError")
    with anna as c:
        for refused in (
            [{"name": name, "here": True}, {"name": "B", "bot": "greedy"}],  # a bot
            [{"name": name, "here": True}],  # alone
            [{"name": name, "here": True}, {"name": "Me again", "here": True}],  # two seats
        ):
            r = c.post("/api/games", json={"rated": True, "seats": refused})
            assert (r.status_code, r.json()["error"]) == (422, "RatedSetupError"), refused
        r = c.post("/api/games", json={"rated": True, "hints": True, "seats": seats})
        assert r.status_code == 422
        game = c.post("/api/games", json={"rated": True, "seats": seats}).json()
        assert game["game"]["rated"] is True
        again = c.post(f"/api/games/{game['id']}/join", json={"invite": game["invite"], "seat": 1})
        assert again.status_code == 403  # one seat per account
    with Browser(client) as c:  # a guest may not take the other seat
        r = c.post(f"/api/games/{game['id']}/join", json={"invite": game["invite"], "seat": 1})
        assert (r.status_code, r.json()["error"]) == (403, "RatedAccountError")
        assert view(c, game["id"])["players"][1]["claimed"] is False


def test_no_hints_undo_or_analysis_while_it_runs_then_ratings_once(
    client: TestClient, db_url: str
) -> None:
    anna, bo, game, _, _ = rated_duel(client)
    gid = game["id"]
    players = {0: anna, 1: bo}
    play_both(players, gid, until_writes=1)
    for who in (anna, bo, Browser(client)):  # both players and a spectator
        with who as c:
            v = view(c, gid)
            assert v["rated"] and v["hints_switch"] is False and v["undo"] is None
            r = c.get(f"/api/games/{gid}/analysis")
            assert (r.status_code, r.json()["error"]) == (409, "RatedGameError")
    with anna as c:
        r = c.post(f"/api/games/{gid}/hints", json={"on": True}, headers={"X-Yatzy-CSRF": "1"})
        assert (r.status_code, r.json()["error"]) == (409, "RatedGameError")
        r = c.post(f"/api/games/{gid}/actions", json={"action": {"undo": True}})
        assert (r.status_code, r.json()["error"]) == (409, "RatedGameError")
    play_both(players, gid)
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    # A second process sees the same game end at the same time.
    other = GameService(GameRepository.open(db_url))
    state = other.repo.get(gid)
    assert state.finished
    from yatzy.game import from_record

    final = from_record(__import__("orjson").loads(state.record))
    racers = [
        threading.Thread(target=r.settle_now, args=(gid, final))
        for r in (other.rated, RatedGames(GameRepository.open(db_url)))
    ]
    for t in racers:
        t.start()
    for t in racers:
        t.join(60)
    service.rated.wait(300)
    other.rated.wait(300)
    rated = service.rated.store.rated_game(gid)
    assert rated is not None and rated.rated
    for seat, account in rated.seats.items():
        (mine,) = service.rated.store.ratings_of(account)
        assert mine.games == 1  # rated once
        assert len(service.rated.store.history(account, "yatzy")) == 1
        won = final.totals()[seat] > final.totals()[1 - seat]
        assert (mine.mu > 25) == won or final.totals()[0] == final.totals()[1]
    with Browser(client) as c:  # after the game: the analysis for everyone
        r = c.get(f"/api/games/{gid}/analysis")
        assert r.status_code == 200, r.text
    kept = eventually(
        lambda: service.rated.store.skill_games(rated.seats[0]),
        lambda games: len(games) == 1,
        timeout=300,
        interval=0.2,
        what="the rated game's analysis",
    )
    assert kept[0].decisions > 0 and kept[0].exact
