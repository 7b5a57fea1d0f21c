"""Friends between accounts, on SQLite and PostgreSQL: a request and its acceptance,
two requests that meet, withdrawal, removal, blocks (unseen by the blocked), and the
refusals: unknown names, oneself, answers to requests never made, guests, cross-site
requests, the rate limit."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from tests.web.helpers import Browser, conforms
from tests.web.test_web_accounts import CHEAP, CSRF, fresh_name, signup
from yatzy.web.app import create_app
from yatzy.web.limits import Limits, Rate
from yatzy.web.models import FriendsView


@pytest.fixture(scope="module")
def app_client(db_url: str) -> Iterator[TestClient]:
    """One app per backend, with cheap password hashing."""
    with TestClient(create_app(db_url, win_chances=False, hasher=CHEAP)) as c:
        yield c


def person(client: TestClient, base: str) -> tuple[TestClient, str]:
    """A new browser signed up as a new account; the browser and the name."""
    browser = TestClient(client.app)
    name = fresh_name(base)
    signup(browser, name)
    return browser, name


def act(browser: TestClient, action: str, name: str) -> Any:
    """``POST /api/friends/<action>`` for ``name``; the response."""
    return browser.post(f"/api/friends/{action}", json={"name": name}, headers=CSRF)


def lists(browser: TestClient) -> dict[str, list[str]]:
    """The browser's account's friend lists."""
    r = browser.get("/api/friends")
    assert r.status_code == 200, r.text
    conforms(FriendsView, r.json())
    return ties(r.json())


def ties(answer: dict[str, list[str]]) -> dict[str, list[str]]:
    """The lists of ties, without the presence (who is online: see its own test)."""
    return {k: v for k, v in answer.items() if k not in ("online", "playing")}


EMPTY = {"friends": [], "incoming": [], "outgoing": [], "blocked": []}


def test_a_request_accepted_makes_friends_both_ways(client: TestClient) -> None:
    """Anna asks Bo (by his name in any case): her request is outgoing, his
    incoming; he accepts; both list the other as a friend; either may remove."""
    anna, anna_name = person(client, "Anna")
    bo, bo_name = person(client, "Bo")
    r = act(anna, "request", bo_name.upper())
    assert r.status_code == 200, r.text
    assert ties(r.json()) == {**EMPTY, "outgoing": [bo_name]}
    assert lists(bo) == {**EMPTY, "incoming": [anna_name]}
    assert ties(act(bo, "accept", anna_name).json()) == {**EMPTY, "friends": [anna_name]}
    assert lists(anna) == {**EMPTY, "friends": [bo_name]}
    assert ties(act(anna, "remove", bo_name).json()) == EMPTY
    assert lists(bo) == EMPTY


def test_two_requests_that_meet_make_friends(client: TestClient) -> None:
    """Each asks the other: friends, no answer needed."""
    a, a_name = person(client, "Cleo")
    b, b_name = person(client, "Dan")
    act(a, "request", b_name)
    assert act(b, "request", a_name).json()["friends"] == [a_name]
    assert lists(a)["friends"] == [b_name]


def test_a_request_withdrawn_or_declined_is_gone(client: TestClient) -> None:
    """Withdrawn by the asker, or declined: no trace either side."""
    a, a_name = person(client, "Eva")
    b, b_name = person(client, "Finn")
    act(a, "request", b_name)
    act(a, "remove", b_name)
    assert lists(b) == EMPTY
    act(a, "request", b_name)
    act(b, "remove", a_name)
    assert lists(a) == EMPTY and lists(b) == EMPTY


def test_a_block_ends_every_tie_and_the_blocked_is_not_told(client: TestClient) -> None:
    """Friends, then one blocks the other: the friendship ends both ways; the
    blocked one's new request waits unseen (its side shows it pending); the blocker
    cannot request before unblocking; after unblocking, the request is seen."""
    a, a_name = person(client, "Gun")
    b, b_name = person(client, "Hugo")
    act(a, "request", b_name)
    act(b, "accept", a_name)
    assert ties(act(a, "block", b_name).json()) == {**EMPTY, "blocked": [b_name]}
    assert lists(b) == EMPTY
    assert ties(act(b, "request", a_name).json()) == {**EMPTY, "outgoing": [a_name]}
    assert lists(a)["incoming"] == []
    refused = act(a, "request", b_name)
    assert refused.status_code == 422 and refused.json()["error"] == "BlockedFriendError"
    assert act(a, "accept", b_name).status_code == 404
    act(a, "unblock", b_name)
    assert lists(a)["incoming"] == [b_name]


@pytest.mark.parametrize(
    ("name", "status"), [("nobody-at-all", 404), ("", 422), ("x" * 41, 422), (7, 422)]
)
def test_unknown_or_bad_names_are_refused(client: TestClient, name: Any, status: int) -> None:
    """A name no account has: 404; empty, too long or not text: 422."""
    a, _ = person(client, "Ida")
    r = a.post("/api/friends/request", json={"name": name}, headers=CSRF)
    assert r.status_code == status, r.text
    assert lists(a) == EMPTY


def test_oneself_and_unmade_requests_are_refused(client: TestClient) -> None:
    """Befriending oneself: 404; accepting a request never made: 404; an action
    that is none: 422."""
    a, a_name = person(client, "Jon")
    _, b_name = person(client, "Kim")
    assert act(a, "request", a_name).status_code == 404
    r = act(a, "accept", b_name)
    assert r.status_code == 404 and r.json()["error"] == "NoFriendRequestError"
    assert act(a, "befriend-all", b_name).status_code == 422
    assert lists(a) == EMPTY


def test_guests_and_foreign_pages_cannot(client: TestClient) -> None:
    """A guest: 401; without the CSRF header or from another origin: 403."""
    _, b_name = person(client, "Lo")
    assert client.get("/api/friends").status_code == 401
    assert act(client, "request", b_name).status_code == 401
    a, _ = person(client, "Max")
    for headers in ({}, {**CSRF, "Origin": "https://evil.example"}):
        r = a.post("/api/friends/request", json={"name": b_name}, headers=headers)
        assert r.status_code == 403, r.text
    assert lists(a) == EMPTY


def test_deleting_an_account_ends_its_ties(client: TestClient) -> None:
    """A friend deletes the account: gone from the other's lists; the export of an
    account holds its friends."""
    a, a_name = person(client, "Nea")
    b, b_name = person(client, "Olle")
    act(a, "request", b_name)
    act(b, "accept", a_name)
    assert a.get("/api/account/export").json()["friends"]["friends"] == [b_name]
    assert b.post("/api/account/delete", json={"confirm": b_name}, headers=CSRF).status_code == 200
    assert lists(a) == EMPTY


def test_friend_actions_are_rate_limited(sqlite_url: str) -> None:
    """Past the client's friend actions: 429 with Retry-After."""
    limits = replace(Limits.off(), friend=Rate(1, 2))
    with TestClient(create_app(sqlite_url, win_chances=False, hasher=CHEAP, limits=limits)) as c:
        a, _ = person(c, "Pia")
        _, b_name = person(c, "Rut")
        assert act(a, "request", b_name).status_code == 200
        assert act(a, "remove", b_name).status_code == 200
        r = act(a, "request", b_name)
        assert r.status_code == 429 and "retry-after" in r.headers


def test_friends_online_and_in_a_game(client: TestClient) -> None:
    """A friend with a live session is online; one whose game moves is in a game; a
    friend who logged out everywhere and plays nothing is neither; strangers never show."""
    anna, anna_name = person(client, "Ada")
    bo, bo_name = person(client, "Bob")
    cy, cy_name = person(client, "Cyd")
    act(anna, "request", bo_name)
    act(bo, "accept", anna_name)
    act(anna, "request", cy_name)
    act(cy, "accept", anna_name)
    seen = anna.get("/api/friends").json()
    assert seen["online"] == sorted([bo_name, cy_name], key=str.casefold)
    assert seen["playing"] == []
    playing = Browser(client)  # Bo's cookies on the app's own client (its event loop)
    playing.jar = dict(bo.cookies.items())
    with playing as c:
        game = c.post("/api/games", json={"seats": [{"name": bo_name, "here": True}]})
        assert game.status_code == 201, game.text
        gid = game.json()["id"]
        assert c.post(f"/api/games/{gid}/actions", json={"action": {"roll": []}}).status_code == 200
    assert cy.post("/api/account/logout-everywhere", headers=CSRF).status_code == 200
    seen = anna.get("/api/friends").json()
    assert seen["online"] == [bo_name] and seen["playing"] == [bo_name]
    # presence is for friends only
    stranger, _ = person(client, "Dee")
    assert stranger.get("/api/friends").json()["online"] == []
