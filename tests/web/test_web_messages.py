"""Free text between friends in a game, on SQLite and PostgreSQL: a line reaches the
writer's friends among the players (by ``GET`` and a socket nudge) and nobody else —
not a spectator, not a non-friend player, not the game's view, moves, record or
protocol; the refusals (guests, spectators, no friend, bad text, no CSRF header, the
rate limit); a block hides the old lines and stops new ones; the data export holds
the text and a deleted account's text goes; a game keeps its latest lines only."""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from tests.web.helpers import Browser, conforms
from tests.web.test_web_accounts import CHEAP, CSRF, fresh_name
from yatzy.store import messages as message_store
from yatzy.web.app import create_app
from yatzy.web.limits import Limits, Rate
from yatzy.web.messages import MAX_TEXT, MessagesView

SECRET = "<script>alert('psst')</script> meet at the lake"


@pytest.fixture(scope="module")
def app_client(db_url: str) -> Iterator[TestClient]:
    """One app per backend, with cheap password hashing and no live chances."""
    with TestClient(create_app(db_url, bot_delay=0.0, win_chances=False, hasher=CHEAP)) as c:
        yield c


def person(client: TestClient, base: str) -> tuple[Browser, str]:
    """A new browser signed up as a new account; the browser and the name."""
    browser, name = Browser(client), fresh_name(base)
    with browser as c:
        r = c.post(
            "/api/account/signup", json={"name": name, "password": "correct horse"}, headers=CSRF
        )
        assert r.status_code == 201, r.text
    return browser, name


def befriend(a: Browser, a_name: str, b: Browser, b_name: str) -> None:
    with a as c:
        assert (
            c.post("/api/friends/request", json={"name": b_name}, headers=CSRF).status_code == 200
        )
    with b as c:
        assert c.post("/api/friends/accept", json={"name": a_name}, headers=CSRF).status_code == 200


def write(browser: Browser, gid: str, text: Any, headers: dict[str, str] | None = None) -> Any:
    with browser as c:
        return c.post(
            f"/api/games/{gid}/messages",
            json={"text": text},
            headers=CSRF if headers is None else headers,
        )


def read(browser: Browser, gid: str, after: int = 0) -> Any:
    with browser as c:
        return c.get(f"/api/games/{gid}/messages", params={"after": after})


def texts(browser: Browser, gid: str) -> list[str]:
    r = read(browser, gid)
    assert r.status_code == 200, r.text
    conforms(MessagesView, r.json())
    return [line["text"] for line in r.json()["lines"]]


@contextlib.contextmanager
def table(client: TestClient) -> Iterator[dict[str, Any]]:
    """A game of three signed-up players: Ann (who made it) and Bo are friends, Cy
    is a friend of neither; a signed-up spectator and a guest look on."""
    ann, ann_name = person(client, "Ann")
    bo, bo_name = person(client, "Bo")
    cy, _ = person(client, "Cy")
    spy, spy_name = person(client, "Spy")
    befriend(ann, ann_name, bo, bo_name)
    befriend(ann, ann_name, spy, spy_name)  # a friend, but not a player
    with ann as c:
        r = c.post(
            "/api/games",
            json={"seats": [{"name": ann_name, "here": True}, {"name": "B"}, {"name": "C"}]},
        )
        assert r.status_code == 201, r.text
        game = r.json()
    for seat, who in ((1, bo), (2, cy)):
        with who as c:
            joined = c.post(
                f"/api/games/{game['id']}/join", json={"invite": game["invite"], "seat": seat}
            )
            assert joined.status_code == 200, joined.text
    yield {
        "gid": game["id"],
        "ann": ann,
        "bo": bo,
        "cy": cy,
        "spy": spy,
        "guest": Browser(client),
        "ann_name": ann_name,
        "bo_name": bo_name,
    }


def until_state(ws: Any, phrase: str) -> list[dict[str, Any]]:
    """Every message of ``ws`` up to the view in which ``phrase`` was said."""
    seen = []
    while True:
        message = ws.receive_json()
        seen.append(message)
        talk = message.get("game", {}).get("talk", []) if message["type"] == "state" else []
        if any(line["phrase"] == phrase for line in talk):
            return seen


def test_a_line_reaches_friends_among_the_players_only(client: TestClient) -> None:
    """Ann writes: Bo (her friend, a player) reads it by GET and his socket is
    nudged; Cy (a player, no friend), a spectator who is Ann's friend, and a guest
    are never nudged and never read it, in no view, move, record or protocol."""
    with table(client) as t, contextlib.ExitStack() as stack:
        gid = t["gid"]
        sockets = {}
        for who in ("ann", "bo", "cy", "spy", "guest"):
            with t[who] as c:
                sockets[who] = stack.enter_context(c.websocket_connect(f"/api/games/{gid}/ws"))
                assert sockets[who].receive_json()["type"] == "state"
        first = read(t["ann"], gid).json()
        assert first["can_write"] and first["friends"] == [t["bo_name"]]
        assert first["max_length"] == MAX_TEXT and first["lines"] == []
        r = write(t["ann"], gid, f"  {SECRET} \u00a0")
        assert r.status_code == 201, r.text
        assert [(ln["text"], ln["mine"], ln["name"], ln["seat"]) for ln in r.json()["lines"]] == [
            (SECRET, True, t["ann_name"], 0)
        ]
        with t["ann"] as c:  # a public phrase after it: every socket gets that view
            assert c.post(f"/api/games/{gid}/say", json={"phrase": "hello"}).status_code == 200
        heard = {who: until_state(ws, "hello") for who, ws in sockets.items()}
        for who, seen in heard.items():
            nudged = [m for m in seen if m["type"] == "messages"]
            assert nudged == (
                [{"type": "messages", "game": gid}] if who in ("ann", "bo") else []
            ), who
            assert "psst" not in str(seen), who
        bo = read(t["bo"], gid).json()
        assert [(ln["text"], ln["mine"], ln["name"]) for ln in bo["lines"]] == [
            (SECRET, False, t["ann_name"])
        ]
        assert bo["can_write"] and bo["friends"] == [t["ann_name"]]
        line_id = bo["lines"][0]["id"]
        assert read(t["bo"], gid, after=line_id).json()["lines"] == []
        cy = read(t["cy"], gid)  # a player without a friend in the game reads nothing
        assert cy.status_code == 200 and cy.json()["lines"] == [] and not cy.json()["can_write"]
        for who in ("spy", "guest"):
            refused = read(t[who], gid)
            assert refused.status_code == 403, who
            assert "player" in refused.json()["detail"] or "sign" in refused.json()["detail"]
        for who in ("cy", "spy", "guest", "bo"):
            with t[who] as c:
                for path in ("", "/moves", "/record", "/protocol.xlsx", "/protocol.pdf"):
                    got = c.get(f"/api/games/{gid}{path}")
                    assert got.status_code == 200, (who, path)
                    assert b"psst" not in got.content, (who, path)
                assert "psst" not in c.get("/api/history").text


def test_who_may_not_write_and_what_may_not_be_written(client: TestClient) -> None:
    """A guest, a spectator and a player with no friend in the game get 403 with the
    reason; empty, too long and control-character lines 422; a missing CSRF header
    403; another game's or no game's id 403/404: nothing is stored."""
    with table(client) as t:
        gid = t["gid"]
        guest_game = t["guest"]
        with guest_game as c:  # a guest's own seat: still no free text
            own = c.post("/api/games", json={"seats": [{"name": "G", "here": True}, {"name": "H"}]})
            mine = own.json()["id"]
        for who, where, why in (
            ("guest", mine, "sign"),
            ("guest", gid, "sign"),
            ("spy", gid, "player"),
            ("cy", gid, "friend"),
        ):
            r = write(t[who], where, "hello")
            assert r.status_code == 403, (who, r.text)
            assert why in r.json()["detail"], (who, r.json())
        other = write(t["ann"], mine, "hello")  # a game she does not play in
        assert other.status_code == 403 and "player" in other.json()["detail"]
        assert write(t["ann"], "f" * 32, "hello").status_code == 404
        assert read(t["ann"], "f" * 32).status_code == 404
        for bad, why in (
            ("", "empty"),
            ("   \u3000 ", "empty"),
            ("x" * (MAX_TEXT + 1), "more than"),
            ("a\nb", "control character"),
            ("bell\x07", "control character"),
            ("evil\u202etxt", "bidirectional"),
        ):
            r = write(t["ann"], gid, bad)
            assert r.status_code == 422, (bad, r.text)
            assert why in r.json()["detail"], (bad, r.json())
        assert write(t["ann"], gid, 7).status_code == 422
        assert write(t["ann"], gid, "x" * 3000).status_code == 422
        cross = write(t["ann"], gid, "hello", headers={})
        assert cross.status_code == 403 and "x-yatzy-csrf" in cross.json()["detail"]
        foreign = write(t["ann"], gid, "hello", headers={**CSRF, "Origin": "https://evil.example"})
        assert foreign.status_code == 403
        assert texts(t["ann"], gid) == [] and texts(t["bo"], gid) == []
        composed = "Cafe\u0301 " + "é" * (MAX_TEXT - 5)  # NFC: 200 characters
        assert write(t["ann"], gid, composed).status_code == 201
        assert texts(t["bo"], gid) == ["Café " + "é" * (MAX_TEXT - 5)]


def test_a_block_hides_old_lines_and_stops_new_ones(client: TestClient) -> None:
    """Bo blocks Ann: neither reads the other's lines any more (old ones included),
    neither may write (no friend left in the game); each still reads their own.  The
    block nudges both their sockets.  Friends again, they read only the new lines."""
    with table(client) as t:
        gid = t["gid"]
        assert write(t["ann"], gid, "from Ann").status_code == 201
        assert write(t["bo"], gid, "from Bo").status_code == 201
        assert texts(t["ann"], gid) == ["from Ann", "from Bo"] == texts(t["bo"], gid)
        with contextlib.ExitStack() as stack:
            with t["ann"] as c:
                ws = stack.enter_context(c.websocket_connect(f"/api/games/{gid}/ws"))
                assert ws.receive_json()["type"] == "state"
            with t["bo"] as b:
                r = b.post("/api/friends/block", json={"name": t["ann_name"]}, headers=CSRF)
                assert r.status_code == 200
            assert ws.receive_json() == {"type": "messages", "game": gid}
        assert texts(t["ann"], gid) == ["from Ann"]
        assert texts(t["bo"], gid) == ["from Bo"]
        for who in ("ann", "bo"):
            refused = write(t[who], gid, "still there?")
            assert refused.status_code == 403 and "friend" in refused.json()["detail"]
        with t["bo"] as b:  # unblocked, but no longer friends: still nothing
            b.post("/api/friends/unblock", json={"name": t["ann_name"]}, headers=CSRF)
        assert texts(t["bo"], gid) == ["from Bo"]
        with contextlib.ExitStack() as stack:  # friends again: the new friendship's lines
            with t["bo"] as c:
                ws = stack.enter_context(c.websocket_connect(f"/api/games/{gid}/ws"))
                assert ws.receive_json()["type"] == "state"
            befriend(t["ann"], t["ann_name"], t["bo"], t["bo_name"])
            assert ws.receive_json() == {"type": "messages", "game": gid}  # the page reads
        assert write(t["ann"], gid, "friends again").status_code == 201
        assert texts(t["bo"], gid) == ["from Bo", "friends again"]  # the old line stays hidden


def test_export_holds_the_text_and_deletion_removes_it(client: TestClient) -> None:
    """Ann's export lists her lines; once her account is deleted they are gone for
    Bo too, and the game stays."""
    with table(client) as t:
        gid = t["gid"]
        assert write(t["ann"], gid, SECRET).status_code == 201
        with t["ann"] as c:
            exported = c.get("/api/account/export").json()
            assert [(m["game"], m["text"], m["seat"]) for m in exported["messages"]] == [
                (gid, SECRET, 0)
            ]
            gone = c.post("/api/account/delete", json={"confirm": t["ann_name"]}, headers=CSRF)
            assert gone.status_code == 200
        assert texts(t["bo"], gid) == []
        with t["bo"] as c:
            assert c.get(f"/api/games/{gid}").status_code == 200
            assert c.get("/api/account/export").json()["messages"] == []


def test_a_game_keeps_its_latest_lines(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the cap the oldest lines go (the cap made small here)."""
    monkeypatch.setattr(message_store, "KEPT", 3)
    with table(client) as t:
        gid = t["gid"]
        for n in range(5):
            assert write(t["ann"], gid, f"line {n}").status_code == 201
        assert texts(t["bo"], gid) == ["line 2", "line 3", "line 4"]


def test_writing_is_rate_limited(tmp_path: Path) -> None:
    """The ``text`` limit: a few lines in a row, then 429 with Retry-After (and the
    refused line is not stored)."""
    limits = replace(Limits.off(), text=Rate(1, 3))
    app = create_app(f"sqlite:///{tmp_path / 'text.db'}", limits=limits, hasher=CHEAP)
    with TestClient(app) as client, table(client) as t:
        gid = t["gid"]
        answers = [write(t["ann"], gid, f"line {n}").status_code for n in range(4)]
        assert answers == [201, 201, 201, 429]
        refused = write(t["ann"], gid, "one more")
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
        assert texts(t["bo"], gid) == ["line 0", "line 1", "line 2"]
