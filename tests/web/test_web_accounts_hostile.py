"""Hostile tests of the account routes: account enumeration, brute force against the
log-in limit, cross-site requests, session fixation, another account's data and
seats, a forged owner cookie, bad names and huge bodies."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from tests.web.test_web_accounts import CHEAP, CSRF, fresh_name, login, new_game, signup
from yatzy.web.app import create_app
from yatzy.web.limits import Limits, Rate


@pytest.fixture(scope="module")
def app_client(sqlite_url: str) -> Iterator[TestClient]:
    """One app over SQLite, nothing limited."""
    with TestClient(create_app(sqlite_url, win_chances=False, hasher=CHEAP)) as c:
        yield c


@pytest.fixture
def limited(sqlite_url: str) -> Iterator[TestClient]:
    """An app whose log-ins and sign-ups are limited to 3 at once (one a minute)."""
    limits = replace(Limits.off(), login=Rate(1, 3), signup=Rate(1, 3))
    with TestClient(create_app(sqlite_url, win_chances=False, hasher=CHEAP, limits=limits)) as c:
        yield c


def test_unknown_name_and_wrong_password_look_the_same(client: TestClient) -> None:
    """Unknown name and wrong password: the same status and body, and Argon2 checks a
    hash in both (no answer or timing tells whether the name exists)."""
    name = fresh_name("Enum")
    signup(TestClient(client.app), name)
    accounts = client.app.state.accounts  # type: ignore[attr-defined]
    verified: list[str] = []
    real = accounts.hasher

    class Counting:
        """The hasher, counting the hashes it verifies."""

        def __getattr__(self, name: str) -> Any:
            return getattr(real, name)

        def verify(self, stored: str, password: str) -> Any:
            verified.append(stored)
            return real.verify(stored, password)

    accounts.hasher = Counting()
    try:
        wrong = login(client, name, password="not the password")
        unknown = login(client, fresh_name("Nobody"), password="not the password")
    finally:
        accounts.hasher = real
    assert wrong.status_code == unknown.status_code == 403
    assert wrong.json() == unknown.json()
    assert len(verified) == 2
    assert "yz_session" not in wrong.headers.get("set-cookie", "")
    code = login(client, fresh_name("Nobody"), code="aaaa-bbbb-cccc-dddd")
    assert code.status_code == 403 and code.json() == wrong.json()


def test_brute_force_hits_the_limit(limited: TestClient) -> None:
    """Wrong passwords spend the client's log-in attempts: then 429 with Retry-After,
    even for the right password; another client guessing the same name is held up
    too (the name has a bucket of its own)."""
    name = fresh_name("Brute")
    signup(TestClient(limited.app), name)
    for _ in range(3):
        assert login(limited, name, password="guess guess").status_code == 403
    r = login(limited, name, password="correct horse")
    assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
    assert r.json()["error"] == "RateLimitedError"
    elsewhere = TestClient(limited.app, client=("203.0.113.9", 5000))
    assert login(elsewhere, name, password="correct horse").status_code == 429


def test_signups_are_limited(limited: TestClient) -> None:
    """The fourth sign-up in a row from one client: 429 with Retry-After."""
    answers = [
        limited.post(
            "/api/account/signup",
            json={"name": fresh_name("Spam"), "password": "correct horse"},
            headers=CSRF,
        )
        for _ in range(4)
    ]
    assert [a.status_code for a in answers[:3]] == [201, 201, 201]
    assert answers[3].status_code == 429 and "retry-after" in answers[3].headers


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"X-Yatzy-CSRF": "0"},
        {"X-Yatzy-CSRF": "1", "Origin": "https://evil.example"},
        {"X-Yatzy-CSRF": "1", "Sec-Fetch-Site": "cross-site"},
        {"X-Yatzy-CSRF": "1", "Sec-Fetch-Site": "same-site"},
    ],
)
def test_cross_site_requests_are_refused(client: TestClient, headers: dict[str, str]) -> None:
    """Without the CSRF header, or from a foreign origin: 403 for sign-up, log-in and
    every change of a signed-in account; nothing changes."""
    name = fresh_name("Csrf")
    r = client.post(
        "/api/account/signup", json={"name": name, "password": "correct horse"}, headers=headers
    )
    assert r.status_code == 403 and r.json()["error"] == "CrossSiteError"
    signed = TestClient(client.app)
    signup(signed, name)
    r = signed.post(
        "/api/account/login", json={"name": name, "password": "correct horse"}, headers=headers
    )
    assert r.status_code == 403
    for path, body in [
        ("/api/account/logout", None),
        ("/api/account/logout-everywhere", None),
        ("/api/account/recovery-codes", None),
        ("/api/account/delete", {"confirm": name}),
    ]:
        r = signed.post(path, json=body, headers=headers)
        assert r.status_code == 403, (path, r.text)
    assert signed.get("/api/account").json()["signed_in"]


def test_a_foreign_page_cannot_play_the_accounts_seat(client: TestClient) -> None:
    """The session alone holds the account's seats only from the app's own origin: an
    action sent from another origin with the browser's cookies is refused (403)."""
    name = fresh_name("Seat")
    signup(client, name)
    gid = client.post("/api/games", json={"seats": [{"name": name, "here": True}]}).json()["id"]
    browser = TestClient(client.app)
    assert login(browser, name, password="correct horse").status_code == 200
    foreign = {"Origin": "https://evil.example"}
    r = browser.post(f"/api/games/{gid}/actions", json={"action": {"roll": []}}, headers=foreign)
    assert r.status_code == 403, r.text
    r = browser.post(f"/api/games/{gid}/actions", json={"action": {"roll": []}}, headers=CSRF)
    assert r.status_code == 200, r.text


def test_session_fixation(client: TestClient) -> None:
    """A session id planted in a browser before log-in is worth nothing after it: the
    log-in sets a new id and ends the planted one (here: the attacker's own session)."""
    attacker = TestClient(client.app)
    signup(attacker, fresh_name("Mallory"))
    planted = attacker.cookies.get("yz_session")
    victim = TestClient(client.app)
    victim.cookies.set("yz_session", planted or "", domain="testserver.local")
    name = fresh_name("Victim")
    signup(TestClient(client.app), name)
    assert login(victim, name, password="correct horse").status_code == 200
    now = victim.cookies.get("yz_session")
    assert now and now != planted
    spy = TestClient(client.app)
    spy.cookies.set("yz_session", planted or "", domain="testserver.local")
    assert spy.get("/api/account").json()["signed_in"] is False
    made_up = TestClient(client.app)
    made_up.cookies.set("yz_session", "x" * 43)
    assert made_up.get("/api/account").json()["signed_in"] is False


def test_another_accounts_data_is_out_of_reach(client: TestClient) -> None:
    """B cannot end A's session, see A's games in its export or history, or play
    A's seat; A is untouched."""
    a, b = TestClient(client.app), TestClient(client.app)
    a_name = fresh_name("Alice")
    signup(a, a_name)
    signup(b, fresh_name("Bob"))
    gid = new_game(a, a_name)
    a_session = next(s["id"] for s in a.get("/api/account/sessions").json())
    r = b.post("/api/account/sessions/revoke", json={"id": a_session}, headers=CSRF)
    assert r.status_code == 200 and a_session not in {s["id"] for s in r.json()}
    assert a.get("/api/account").json()["signed_in"]
    assert gid not in b.get("/api/account/export").text
    assert gid not in {g["id"] for g in b.get("/api/history").json()}
    assert b.get(f"/api/games/{gid}").json()["you"]["seats"] == []
    r = b.post(f"/api/games/{gid}/actions", json={"action": {"roll": []}, "seat": 0})
    assert r.status_code == 403


def test_an_owner_cookie_cannot_name_an_account(client: TestClient) -> None:
    """``yz_owner=account.<id>`` (the form of an account's own owner token) is
    ignored: it shows none of the account's games."""
    a = TestClient(client.app)
    name = fresh_name("Owned")
    signup(a, name)
    gid = new_game(a, name)
    account_id = a.app.state.accounts.store.by_name(name.casefold()).id  # type: ignore[attr-defined]
    forger = TestClient(client.app)
    forger.cookies.set("yz_owner", f"account.{account_id}")
    assert gid not in {g["id"] for g in forger.get("/api/history").json()}


@pytest.mark.parametrize(
    "body",
    [
        {"name": "x" * 10_000, "password": "correct horse"},
        {"name": "Ann", "password": "p" * 100_000},
        {"name": "Ann", "password": "correct horse", "extra": 1},
        {"name": 7, "password": "correct horse"},
        {"name": "Ann\ud800", "password": "correct horse"},
    ],
)
def test_bad_bodies_are_refused(client: TestClient, body: dict[str, Any]) -> None:
    """Oversized, extra, mistyped or unencodable fields: a 4xx with a reason, no
    account, no session."""
    r = client.post(
        "/api/account/signup",
        content=json.dumps(body).encode(),  # ASCII: a lone surrogate goes as \ud800
        headers={**CSRF, "Content-Type": "application/json"},
    )
    assert 400 <= r.status_code < 500, r.text
    assert r.json()["error"]
    assert "yz_session" not in r.headers.get("set-cookie", "")


def test_a_huge_body_is_refused_before_it_is_read(client: TestClient) -> None:
    """A body over the app's size limit: 413."""
    r = client.post(
        "/api/account/login",
        content=b'{"name": "' + b"x" * 2_000_000 + b'"}',
        headers={**CSRF, "Content-Type": "application/json"},
    )
    assert r.status_code == 413


def test_login_with_password_and_code_at_once_is_refused(client: TestClient) -> None:
    """Both the password and a code, or neither: 403, no session."""
    name = fresh_name("Both")
    signup(TestClient(client.app), name)
    r = login(client, name, password="correct horse", code="aaaa")
    assert r.status_code == 403
    assert login(client, name).status_code == 403


# -- passkeys (the ceremony itself is tests/e2e/test_accounts_browser.py's, with
# chromium's virtual authenticator) ---------------------------------------------------------


def test_passkey_routes_refuse_guests_foreign_pages_and_forged_answers(client: TestClient) -> None:
    """Adding a passkey needs a session and the CSRF header; a made-up credential, an
    unknown ceremony or one answered already is refused (403), and nothing is kept;
    a forged passkey log-in looks exactly like a wrong password."""
    assert client.get("/api/account/passkeys").status_code == 401
    assert client.post("/api/account/passkeys/options", headers=CSRF).status_code == 401
    a = TestClient(client.app)
    name = fresh_name("Key")
    signup(a, name)
    assert a.post("/api/account/passkeys/options").status_code == 403  # no CSRF header
    begun = a.post("/api/account/passkeys/options", headers=CSRF)
    assert begun.status_code == 200, begun.text
    options = json.loads(begun.json()["options"])
    assert options["rp"]["id"] == "testserver" and options["user"]["name"] == name
    assert options["authenticatorSelection"]["residentKey"] == "required"
    forged = {"id": "AAAA", "rawId": "AAAA", "type": "public-key", "response": {}}
    body = {"ceremony": begun.json()["ceremony"], "credential": forged}
    r = a.post("/api/account/passkeys", json=body, headers=CSRF)
    assert r.status_code == 403 and r.json()["error"] == "PasskeyError"
    again = a.post("/api/account/passkeys", json=body, headers=CSRF)  # the ceremony is spent
    assert again.status_code == 403 and "used" in again.json()["detail"]
    unknown = {"ceremony": "nope", "credential": forged}
    assert a.post("/api/account/passkeys", json=unknown, headers=CSRF).status_code == 403
    assert a.get("/api/account/passkeys").json() == []
    # a log-in: another account's registration ceremony cannot be used, nor a forgery
    login_begun = client.post("/api/account/passkey-login/options", headers=CSRF).json()
    wrong_password = login(client, name, password="not the password").json()
    for ceremony in (login_begun["ceremony"], begun.json()["ceremony"], "nope"):
        r = client.post(
            "/api/account/passkey-login",
            json={"ceremony": ceremony, "credential": forged},
            headers=CSRF,
        )
        assert r.status_code == 403 and r.json() == wrong_password
        assert "yz_session" not in r.headers.get("set-cookie", "")


def test_passkeys_of_another_account_cannot_be_removed(client: TestClient) -> None:
    """Deleting a passkey by an id the account does not own changes nothing (the
    answer is the caller's own list)."""
    a = TestClient(client.app)
    signup(a, fresh_name("Own"))
    r = a.post("/api/account/passkeys/delete", json={"id": "someone-elses"}, headers=CSRF)
    assert r.status_code == 200 and r.json() == []
