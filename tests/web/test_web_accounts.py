"""Accounts through the API, on SQLite and PostgreSQL: sign-up with recovery codes,
log-in by password or code, the account's seats from two browsers, a guest's games
moving to the account, sessions listed and ended, export, deletion.

The hostile side (enumeration, brute force, CSRF, fixation, another account's
data) is tests/web/test_web_accounts_hostile.py.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from tests.web.helpers import CSRF, conforms, fresh_name
from yatzy.web.accounts import Hasher
from yatzy.web.app import create_app
from yatzy.web.models import AccountExport, AccountView, SessionView, SignedUpView

CHEAP = Hasher(time_cost=1, memory_cost=1024, parallelism=1)
"""Argon2id at its cheapest: the tests check the flows, not the cost."""


@pytest.fixture(scope="module")
def app_client(db_url: str) -> Iterator[TestClient]:
    """One app per backend, with cheap password hashing."""
    with TestClient(create_app(db_url, bot_delay=0.0, win_chances=False, hasher=CHEAP)) as c:
        yield c


@pytest.fixture
def other(client: TestClient) -> TestClient:
    """A second browser on the same app (cookies of its own)."""
    return TestClient(client.app)


def signup(client: TestClient, name: str, password: str = "correct horse") -> dict[str, Any]:
    """Sign ``client`` up as ``name``; the answer."""
    r = client.post("/api/account/signup", json={"name": name, "password": password}, headers=CSRF)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def login(client: TestClient, name: str, **secret: str) -> Any:
    """Log ``client`` in (``password=`` or ``code=``); the response."""
    return client.post("/api/account/login", json={"name": name, **secret}, headers=CSRF)


def new_game(client: TestClient, name: str) -> str:
    """A game of ``name`` (held here) against a person who has not joined; its id."""
    r = client.post("/api/games", json={"seats": [{"name": name, "here": True}, {"name": "Bo"}]})
    assert r.status_code == 201, r.text
    gid: str = r.json()["id"]
    return gid


def test_signup_gives_a_session_cookie_and_recovery_codes_once(client: TestClient) -> None:
    """Sign-up: 201, the account, ten distinct recovery codes; an HttpOnly, Lax
    session cookie for the whole app; the account is then who is signed in, and
    its codes are not shown again."""
    name = fresh_name()
    r = client.post(
        "/api/account/signup", json={"name": name, "password": "correct horse"}, headers=CSRF
    )
    assert r.status_code == 201, r.text
    data = r.json()
    conforms(SignedUpView, data)
    assert data["account"]["name"] == name and data["account"]["signed_in"]
    codes = data["recovery_codes"]
    assert len(set(codes)) == 10 and all(len(c) == 19 for c in codes)
    cookie = r.headers["set-cookie"].lower()
    assert "yz_session=" in cookie and "httponly" in cookie and "samesite=lax" in cookie
    assert "path=/" in cookie and "secure" not in cookie
    me = client.get("/api/account").json()
    conforms(AccountView, me)
    assert me["name"] == name and me["recovery_codes_left"] == 10
    assert not any(c in client.get("/api/account").text for c in codes)


def test_a_guest_is_a_guest(client: TestClient) -> None:
    """No session: ``signed_in`` false, and the account's own routes answer 401."""
    me = client.get("/api/account").json()
    assert me == {"signed_in": False, "name": None, "created": None, "recovery_codes_left": 0}
    assert client.get("/api/account/sessions").status_code == 401
    assert client.get("/api/account/export").status_code == 401
    r = client.post("/api/account/delete", json={"confirm": "x"}, headers=CSRF)
    assert r.status_code == 401 and r.json()["error"] == "NotSignedInError"


def test_secure_cookie_behind_https(db_url: str) -> None:
    """The session cookie is Secure when the app's cookies are (as the seat cookies)."""
    app = create_app(db_url, secure_cookies=True, win_chances=False, hasher=CHEAP)
    with TestClient(app) as c:
        r = c.post(
            "/api/account/signup",
            json={"name": fresh_name(), "password": "correct horse"},
            headers=CSRF,
        )
        assert r.status_code == 201
        assert "secure" in r.headers["set-cookie"].lower()


def test_a_guests_games_move_to_the_account_at_signup_and_login(
    client: TestClient, other: TestClient
) -> None:
    """A browser's earlier games and statistics go with it into the account, at
    sign-up and at log-in; another device signed in sees them all."""
    name = fresh_name()
    first = new_game(client, name)
    signup(client, name)
    second = new_game(other, name)  # a guest game on the other browser
    assert login(other, name, password="correct horse").status_code == 200
    third = TestClient(client.app)
    assert login(third, name, password="correct horse").status_code == 200
    ids = {g["id"] for g in third.get("/api/history").json()}
    assert {first, second} <= ids
    assert third.get("/api/stats").status_code == 200


def test_one_seat_from_two_browsers(client: TestClient, other: TestClient) -> None:
    """A seat of the account is held in both browsers' views; a browser that is not
    signed in holds nothing, and the second browser acts over the WebSocket too."""
    name = fresh_name()
    signup(client, name)
    gid = new_game(client, name)
    assert login(other, name, password="correct horse").status_code == 200
    assert other.get(f"/api/games/{gid}").json()["you"]["seats"] == [0]
    assert client.get(f"/api/games/{gid}").json()["you"]["seats"] == [0]
    assert TestClient(client.app).get(f"/api/games/{gid}").json()["you"]["seats"] == []
    solo = client.post("/api/games", json={"seats": [{"name": name, "here": True}]}).json()
    with other.websocket_connect(f"/api/games/{solo['id']}/ws") as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "act", "ref": 1, "action": {"roll": []}})
        answer = ws.receive_json()
        while answer.get("ref") != 1:
            answer = ws.receive_json()
        assert answer["type"] == "state", answer
        assert answer["game"]["you"]["seats"] == [0]


def test_a_revoked_session_stops_acting_over_an_open_socket(
    client: TestClient, other: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A socket opened while signed in acts for the account's seat; once that session
    is revoked from another device, its next action is refused (the socket reads the
    session again: at once here, within ``SESSION_RECHECK`` seconds in general)."""
    from yatzy.web import sockets

    monkeypatch.setattr(sockets, "SESSION_RECHECK", 0.0)
    name = fresh_name()
    signup(client, name)
    assert login(other, name, password="correct horse").status_code == 200
    solo = client.post("/api/games", json={"seats": [{"name": name, "here": True}]}).json()

    def act(ws: Any, ref: int, action: dict[str, Any]) -> dict[str, Any]:
        ws.send_json({"type": "act", "ref": ref, "action": action})
        answer: dict[str, Any] = ws.receive_json()
        while answer.get("ref") != ref:
            answer = ws.receive_json()
        return answer

    with other.websocket_connect(f"/api/games/{solo['id']}/ws") as ws:
        assert ws.receive_json()["type"] == "state"
        assert act(ws, 1, {"roll": []})["type"] == "state"
        sessions = client.get("/api/account/sessions").json()
        theirs = next(s["id"] for s in sessions if not s["current"])
        r = client.post("/api/account/sessions/revoke", json={"id": theirs}, headers=CSRF)
        assert r.status_code == 200
        refused = act(ws, 2, {"score": "chance"})
        assert (refused["type"], refused["status"]) == ("error", 403), refused
    assert client.get(f"/api/games/{solo['id']}").json()["turn"]["rolls_left"] == 2  # unchanged


def test_a_solo_game_played_from_both_browsers(client: TestClient, other: TestClient) -> None:
    """A one-seat game: the first browser rolls, the second (signed in elsewhere)
    scores, the first rolls again: each move lands, whoever made it."""
    name = fresh_name()
    signup(client, name)
    r = client.post("/api/games", json={"seats": [{"name": name, "here": True}]})
    gid = r.json()["id"]
    assert login(other, name, password="correct horse").status_code == 200
    a = client.post(f"/api/games/{gid}/actions", json={"action": {"roll": []}})
    assert a.status_code == 200, a.text
    b = other.post(f"/api/games/{gid}/actions", json={"action": {"score": "chance"}})
    assert b.status_code == 200, b.text
    assert b.json()["version"] == a.json()["version"] + 1
    c = client.post(f"/api/games/{gid}/actions", json={"action": {"roll": []}})
    assert c.status_code == 200, c.text


def test_recovery_code_logs_in_once(client: TestClient, other: TestClient) -> None:
    """A recovery code logs in (typed in capitals, without dashes) and is then
    spent; the others still work."""
    name = fresh_name()
    codes = signup(client, name)["recovery_codes"]
    typed = codes[0].replace("-", " ").upper()
    r = login(other, name, code=typed)
    assert r.status_code == 200, r.text
    assert r.json()["recovery_codes_left"] == 9
    again = login(TestClient(client.app), name, code=codes[0])
    assert again.status_code == 403
    assert login(TestClient(client.app), name, code=codes[1]).status_code == 200


def test_new_recovery_codes_replace_the_old(client: TestClient) -> None:
    """New codes: ten of them, shown once; the old ones stop working."""
    name = fresh_name()
    old = signup(client, name)["recovery_codes"]
    r = client.post("/api/account/recovery-codes", headers=CSRF)
    assert r.status_code == 200
    new = r.json()["recovery_codes"]
    assert len(new) == 10 and not set(new) & set(old)
    assert login(TestClient(client.app), name, code=old[2]).status_code == 403
    assert login(TestClient(client.app), name, code=new[0]).status_code == 200


def test_sessions_listed_and_revoked(client: TestClient, other: TestClient) -> None:
    """Two sessions are listed (this one marked); revoking the other signs that
    browser out at once; log out everywhere ends this one too."""
    name = fresh_name()
    signup(client, name)
    assert login(other, name, password="correct horse").status_code == 200
    listed = client.get("/api/account/sessions").json()
    for s in listed:
        conforms(SessionView, s)
    assert len(listed) == 2 and [s["current"] for s in listed].count(True) == 1
    theirs = next(s for s in listed if not s["current"])
    left = client.post("/api/account/sessions/revoke", json={"id": theirs["id"]}, headers=CSRF)
    assert left.status_code == 200 and len(left.json()) == 1
    assert other.get("/api/account").json()["signed_in"] is False
    assert client.post("/api/account/logout-everywhere", headers=CSRF).status_code == 200
    assert client.get("/api/account").json()["signed_in"] is False


def test_logout_ends_the_session(client: TestClient) -> None:
    """Log-out ends the session server-side: the old cookie, sent again, is nobody."""
    name = fresh_name()
    signup(client, name)
    session = client.cookies.get("yz_session")
    assert client.post("/api/account/logout", headers=CSRF).status_code == 200
    assert client.get("/api/account").json()["signed_in"] is False
    client.cookies.set("yz_session", session or "")
    assert client.get("/api/account").json()["signed_in"] is False


def test_export_and_delete(client: TestClient, other: TestClient) -> None:
    """Export holds the account, its sessions and games; deletion keeps the games
    (the account's name in them made anonymous), ends every session, and frees
    the name."""
    name = fresh_name()
    signup(client, name)
    gid = new_game(client, name)
    exported = client.get("/api/account/export")
    assert exported.status_code == 200
    assert "attachment" in exported.headers["content-disposition"]
    data = exported.json()
    conforms(AccountExport, data)
    assert data["account"]["name"] == name and gid in {g["id"] for g in data["games"]}
    assert login(other, name, password="correct horse").status_code == 200
    wrong = client.post("/api/account/delete", json={"confirm": "someone"}, headers=CSRF)
    assert wrong.status_code == 403 and client.get("/api/account").json()["signed_in"]
    r = client.post("/api/account/delete", json={"confirm": name.upper()}, headers=CSRF)
    assert r.status_code == 200
    assert other.get("/api/account").json()["signed_in"] is False
    assert login(other, name, password="correct horse").status_code == 403
    record = client.get(f"/api/games/{gid}/record").json()
    assert record["players"][0]["name"] == "Anonymous"
    view = client.get(f"/api/games/{gid}").json()
    assert [p["name"] for p in view["players"]] == ["Anonymous", "Bo"]
    assert view["you"]["seats"] == [0]  # the seat cookie still holds it: the game stays
    signup(other, name)  # the name is free again


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("", "ValidationError"),
        ("   ", "BadAccountNameError"),
        ("a" * 41, "ValidationError"),
        ("Ann\u202eA", "BadAccountNameError"),
        ("Ann\x07", "BadAccountNameError"),
        ("Admin", "BadAccountNameError"),
        ("ANONYM", "BadAccountNameError"),
        ("greedy", "BadAccountNameError"),
    ],
)
def test_bad_names_are_refused(client: TestClient, name: str, why: str) -> None:
    """Names checked as player names are, and reserved words refused: 422, nothing
    stored."""
    r = client.post(
        "/api/account/signup", json={"name": name, "password": "correct horse"}, headers=CSRF
    )
    assert r.status_code == 422, r.text
    assert r.json()["error"] == why
    assert "yz_session" not in r.headers.get("set-cookie", "")


def test_names_are_unique_whatever_their_case(client: TestClient, other: TestClient) -> None:
    """``Anna`` taken: ``ANNA`` and the full-width ``Ａｎｎａ`` are too (409)."""
    name = fresh_name("Berit")
    signup(client, name)
    for same in (name.upper(), "".join(chr(ord(c) + 0xFEE0) if c.isalnum() else c for c in name)):
        r = other.post(
            "/api/account/signup", json={"name": same, "password": "correct horse"}, headers=CSRF
        )
        assert r.status_code == 409, (same, r.text)
    assert login(other, name.lower(), password="correct horse").status_code == 200


@pytest.mark.parametrize("password", ["short", "x" * 257])
def test_bad_passwords_are_refused(client: TestClient, password: str) -> None:
    """Too short, too long: 422."""
    r = client.post(
        "/api/account/signup", json={"name": fresh_name(), "password": password}, headers=CSRF
    )
    assert r.status_code == 422, r.text


def test_the_password_may_not_be_the_name(client: TestClient) -> None:
    """A password that is the account's name: 422."""
    name = fresh_name("Passwordy")
    r = client.post("/api/account/signup", json={"name": name, "password": name}, headers=CSRF)
    assert r.status_code == 422 and r.json()["error"] == "BadPasswordError"


@pytest.mark.parametrize("lang", ["sv", "fi", "en"])
def test_account_pages_in_every_language(client: TestClient, lang: str) -> None:
    """Sign-up, log-in and account pages in each language: no English sentence on a
    Swedish or Finnish page, the header names the signed-in account (a guest gets
    the log-in link), and no inline script, style or handler (the strict CSP)."""
    import re

    from yatzy.web.account_words import account_words

    mine, en = account_words(lang), account_words("en")  # type: ignore[arg-type]
    english = {v for k, v in en.items() if v != mine[k] and len(v.split()) >= 2}

    def text(html: str) -> str:
        return re.sub(r"<[^>]+>", " ", html)

    pages = {p: client.get(f"{p}?lang={lang}").text for p in ("/signup", "/login", "/account")}
    assert f'href="login" class="account-link">{mine["login"]}<' in pages["/signup"]
    name = fresh_name("Sida")
    signup(client, name)
    pages["/account (signed in)"] = client.get(f"/account?lang={lang}").text
    pages["/ (signed in)"] = client.get(f"/?lang={lang}").text
    assert f">{name}</a>" in pages["/ (signed in)"]
    assert mine["title"] in pages["/account (signed in)"]
    for path, html in pages.items():
        leaked = [e for e in english if e in text(html)]
        assert leaked == [], (path, leaked)
        assert not re.search(r"<script(?![^>]*\bsrc=)", html), path
        assert not re.search(r"\sstyle=", html), path
        assert not re.search(r"\son[a-z]+=", html), path
