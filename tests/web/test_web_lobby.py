"""The lobby and invitations over the API (issue 26), on SQLite and PostgreSQL: open
seeks that fill and start a game with every member seated on their account, the
quick-match queue (two waiters paired; a lone waiter offered the computer once the
injected clock passes the wait), friends invited straight into a game or a rematch;
and the hostile cases: full, cancelled and other accounts' seeks, no CSRF header,
guests, floods, strangers and blocked friends."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from tests.helpers import eventually
from tests.web.helpers import CSRF, Browser, befriend, conforms, get, person, post
from tests.web.test_web_accounts import CHEAP
from tests.web.test_web_api import act, next_action, view, wait_for_person
from yatzy.web.app import create_app
from yatzy.web.deps import get_lobby
from yatzy.web.limits import Limits, Rate
from yatzy.web.routes.lobby import InvitationsView, LobbyView, QuickView, SeekView


@pytest.fixture(scope="module")
def app_client(db_url: str) -> Iterator[TestClient]:
    """One app per backend, with cheap password hashing and bots without delay."""
    with TestClient(create_app(db_url, win_chances=False, hasher=CHEAP, bot_delay=0.0)) as c:
        yield c


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 26, 12, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def seats_of(browser: Browser, gid: str) -> list[int]:
    with browser as c:
        seats: list[int] = view(c, gid)["you"]["seats"]
    return seats


# -- seeks ----------------------------------------------------------------------------------


def test_a_seek_fills_and_its_game_seats_everyone(client: TestClient) -> None:
    anna, anna_name = person(client, "Anna")
    bo, bo_name = person(client, "Bo")
    cy, cy_name = person(client, "Cy")
    clock = {"mode": "live", "seconds": 60}
    r = post(anna, "/api/lobby/seeks", {"rules": "maxi", "players": 3, "time_control": clock})
    assert r.status_code == 201, r.text
    seek = r.json()
    conforms(SeekView, seek)
    assert (seek["by"], seek["seated"], seek["mine"], seek["time_control"]) == (
        anna_name,
        [anna_name],
        True,
        clock,
    )
    # a guest sees the seek (and may not join it)
    client.cookies.clear()
    listing = client.get("/api/lobby?lang=sv").json()
    conforms(LobbyView, listing)
    shown = next(s for s in listing["seeks"] if s["id"] == seek["id"])
    assert shown["title"] and not shown["joined"] and listing["signed_in"] is False
    assert (
        client.post(f"/api/lobby/seeks/{seek['id']}/join", json={}, headers=CSRF).status_code == 401
    )

    r = post(bo, f"/api/lobby/seeks/{seek['id']}/join")
    assert r.status_code == 200, r.text
    assert r.json()["seated"] == [anna_name, bo_name] and r.json()["game"] is None
    r = post(cy, f"/api/lobby/seeks/{seek['id']}/join")
    assert r.status_code == 200, r.text
    gid = r.json()["game"]
    assert gid and r.json()["state"] == "started"
    # every member is sent to the game, seated there on the account
    for browser, seat in ((anna, 0), (bo, 1), (cy, 2)):
        started = get(browser, "/api/lobby").json()["started"]
        assert {"seek": seek["id"], "game": gid} in started
        assert seats_of(browser, gid) == [seat]
    with anna as c:
        game = view(c, gid)
    assert [p["name"] for p in game["players"]] == [anna_name, bo_name, cy_name]
    assert game["rules"].startswith("maxi")
    # the seek's time control is the game's clock, running now that everyone is seated
    assert (game["clock"]["mode"], game["clock"]["seconds"]) == ("live", 60)
    assert game["clock"]["phase"] == "running" and game["clock"]["deadline"] is not None
    # the started seek is no longer listed
    assert seek["id"] not in {s["id"] for s in get(bo, "/api/lobby").json()["seeks"]}


def test_hostile_seek_requests_are_refused(client: TestClient) -> None:
    anna, _ = person(client, "Ada")
    bo, _ = person(client, "Ben")
    cy, _ = person(client, "Cid")
    seek = post(anna, "/api/lobby/seeks", {"players": 2}).json()
    sid = seek["id"]
    # no CSRF header, a foreign origin
    with bo as c:
        assert c.post(f"/api/lobby/seeks/{sid}/join", json={}).status_code == 403
        foreign = {**CSRF, "Origin": "https://evil.example"}
        assert c.post(f"/api/lobby/seeks/{sid}/join", json={}, headers=foreign).status_code == 403
        assert c.post("/api/lobby/seeks", json={}).status_code == 403
    # another's seek cannot be cancelled
    r = post(bo, f"/api/lobby/seeks/{sid}/cancel")
    assert r.status_code == 403, r.text
    # full: the game started; a third is refused and nothing changes
    gid = post(bo, f"/api/lobby/seeks/{sid}/join").json()["game"]
    r = post(cy, f"/api/lobby/seeks/{sid}/join")
    assert r.status_code == 409, r.text
    assert seats_of(cy, gid) == []
    # cancelled: nobody joins
    other = post(anna, "/api/lobby/seeks", {"players": 2}).json()["id"]
    assert post(anna, f"/api/lobby/seeks/{other}/cancel").status_code == 200
    assert post(cy, f"/api/lobby/seeks/{other}/join").status_code == 409
    assert post(anna, f"/api/lobby/seeks/{other}/cancel").status_code == 409
    # an unknown seek, a malformed id
    assert post(cy, f"/api/lobby/seeks/{'0' * 32}/join").status_code == 404
    assert post(cy, "/api/lobby/seeks/nope/join").status_code == 422


@pytest.mark.parametrize(
    "body",
    [
        {"rules": "nonsense+rule"},
        {"players": 1},
        {"players": 9},
        {"time_control": {"mode": "live", "seconds": 10}},
        {"time_control": {"mode": "live", "seconds": 601}},
        {"time_control": {"mode": "daily", "days": 8}},
        {"time_control": {"mode": "daily", "days": 2, "extra": 1}},
        {"time_control": {"mode": "blitz"}},
        {"time_control": "live"},
    ],
)
def test_bad_seeks_are_refused(client: TestClient, body: dict[str, Any]) -> None:
    anna, _ = person(client, "Bad")
    r = post(anna, "/api/lobby/seeks", body)
    assert r.status_code == 422, r.text
    mine = [s for s in get(anna, "/api/lobby").json()["seeks"] if s["mine"]]
    assert mine == []


def test_a_person_has_a_bounded_number_of_open_seeks(client: TestClient) -> None:
    anna, _ = person(client, "Flo")
    made = [post(anna, "/api/lobby/seeks", {"players": 2}) for _ in range(4)]
    assert [r.status_code for r in made] == [201, 201, 201, 429]
    # cancelling one makes room
    assert post(anna, f"/api/lobby/seeks/{made[0].json()['id']}/cancel").status_code == 200
    assert post(anna, "/api/lobby/seeks", {"players": 2}).status_code == 201


def test_a_member_leaves_a_seek(client: TestClient) -> None:
    anna, anna_name = person(client, "Lea")
    bo, _ = person(client, "Lev")
    sid = post(anna, "/api/lobby/seeks", {"players": 3}).json()["id"]
    assert post(bo, f"/api/lobby/seeks/{sid}/join").json()["joined"] is True
    r = post(bo, f"/api/lobby/seeks/{sid}/leave")
    assert r.status_code == 200 and r.json()["seated"] == [anna_name]


def test_seek_floods_hit_the_rate_limit(sqlite_url: str) -> None:
    limits = replace(Limits.off(), seek=Rate(1, 3))
    with TestClient(create_app(sqlite_url, hasher=CHEAP, limits=limits)) as client:
        anna, _ = person(client, "Rat")
        codes = [post(anna, "/api/lobby/quick", {"rules": "yatzy"}).status_code for _ in range(5)]
        assert codes[:3] == [200, 200, 200] and codes[-1] == 429


# -- play someone now ----------------------------------------------------------------------------


def test_two_waiting_people_are_paired(client: TestClient) -> None:
    anna, _ = person(client, "Qa")
    bo, _ = person(client, "Qb")
    rules = "yatzy+forced"  # a queue of its own in this module
    started = time.monotonic()
    first = post(anna, "/api/lobby/quick", {"rules": rules})
    assert first.status_code == 200, first.text
    conforms(QuickView, first.json())
    assert first.json()["state"] == "waiting"
    assert post(bo, "/api/lobby/quick", {"rules": rules}).json()["state"] == "matched"
    # anna's page polls once a second: its next poll finds the game
    found = eventually(
        lambda: get(anna, "/api/lobby/quick").json(),
        lambda q: q["game"] is not None,
        timeout=2.0,
        interval=0.1,
        what="the pairing",
    )
    latency = time.monotonic() - started
    print(f"quick match paired in {latency * 1000:.0f} ms")
    gid = found["game"]
    assert seats_of(anna, gid) == [0] and seats_of(bo, gid) == [1]
    assert get(bo, "/api/lobby/quick").json()["game"] == gid


def test_a_lone_waiter_is_offered_the_computer(client: TestClient) -> None:
    lobby = get_lobby(client)
    clock = Clock()
    lobby.clock = clock
    try:
        anna, anna_name = person(client, "Solo")
        rules = "yatzy+half_forced"
        assert post(anna, "/api/lobby/quick", {"rules": rules}).json()["state"] == "waiting"
        clock.now += timedelta(seconds=lobby.bot_wait - 1)
        assert get(anna, "/api/lobby/quick").json()["computer"] is False
        assert post(anna, "/api/lobby/quick/computer").status_code == 422
        clock.now += timedelta(seconds=1)
        state = get(anna, "/api/lobby/quick").json()
        assert state["computer"] is True and state["state"] == "waiting"
        r = post(anna, "/api/lobby/quick/computer")
        assert r.status_code == 200, r.text
        gid = r.json()["game"]
        with anna as c:
            game = view(c, gid)
        assert game["players"][0]["name"] == anna_name and game["players"][1]["bot"]
        assert game["you"]["seats"] == [0]
        assert get(anna, "/api/lobby/quick").json()["state"] == "none"
    finally:
        lobby.clock = lambda: datetime.now(UTC)


def test_a_silent_waiter_is_dropped(client: TestClient) -> None:
    lobby = get_lobby(client)
    clock = Clock()
    lobby.clock = clock
    try:
        anna, _ = person(client, "Gone")
        bo, _ = person(client, "Late")
        rules = "yahtzee"
        post(anna, "/api/lobby/quick", {"rules": rules})
        clock.now += timedelta(seconds=lobby.drop_after + 1)  # anna's page closed
        assert post(bo, "/api/lobby/quick", {"rules": rules}).json()["state"] == "waiting"
        assert get(anna, "/api/lobby/quick").json()["state"] == "none"
        assert post(bo, "/api/lobby/quick/leave").json()["state"] == "none"
    finally:
        lobby.clock = lambda: datetime.now(UTC)


def test_guests_may_look_but_not_wait(client: TestClient) -> None:
    client.cookies.clear()
    assert client.get("/api/lobby").status_code == 200
    assert client.get("/api/lobby/quick").status_code == 401
    assert client.post("/api/lobby/quick", json={}, headers=CSRF).status_code == 401
    assert client.post("/api/lobby/seeks", json={}, headers=CSRF).status_code == 401
    assert client.get("/api/invitations").status_code == 401
    page = client.get("/lobby")
    assert page.status_code == 200 and "lobby.js" in page.text


# -- invitations ---------------------------------------------------------------------------------


def test_a_friend_is_invited_straight_into_a_game(client: TestClient) -> None:
    anna, anna_name = person(client, "Ina")
    bo, bo_name = person(client, "Ivo")
    befriend(anna, anna_name, bo, bo_name)
    r = post(anna, "/api/invitations", {"rules": "yatzy", "friends": [bo_name], "lang": "fi"})
    assert r.status_code == 201, r.text
    gid = r.json()["game"]
    assert r.json()["invited"] == [bo_name]
    assert seats_of(anna, gid) == [0]
    listed = get(bo, "/api/invitations?lang=fi").json()
    conforms(InvitationsView, listed)
    (inv,) = listed["invitations"]
    assert (inv["game"], inv["by"], inv["players"]) == (gid, anna_name, [anna_name, bo_name])
    # anna sees none; another account cannot answer it
    assert get(anna, "/api/invitations").json()["invitations"] == []
    assert post(anna, f"/api/invitations/{inv['id']}/accept").status_code == 404
    r = post(bo, f"/api/invitations/{inv['id']}/accept")
    assert r.status_code == 200, r.text
    assert r.json()["game"] == gid
    assert seats_of(bo, gid) == [1]
    assert get(bo, "/api/invitations").json()["invitations"] == []
    assert post(bo, f"/api/invitations/{inv['id']}/accept").status_code == 409


def test_an_invitation_is_declined(client: TestClient) -> None:
    anna, anna_name = person(client, "Dee")
    bo, bo_name = person(client, "Dan")
    befriend(anna, anna_name, bo, bo_name)
    gid = post(anna, "/api/invitations", {"friends": [bo_name]}).json()["game"]
    (inv,) = get(bo, "/api/invitations").json()["invitations"]
    r = post(bo, f"/api/invitations/{inv['id']}/decline")
    assert r.status_code == 200 and r.json()["invitations"] == []
    assert post(bo, f"/api/invitations/{inv['id']}/accept").status_code == 409
    assert seats_of(bo, gid) == []


def test_a_friend_is_invited_into_a_daily_game(client: TestClient) -> None:
    """An invitation's game has the time control asked for; its clock starts once
    the friend joins; a bad time control is refused and makes nothing."""
    anna, anna_name = person(client, "Tia")
    bo, bo_name = person(client, "Tor")
    befriend(anna, anna_name, bo, bo_name)
    for bad in ({"mode": "daily", "days": 9}, {"mode": "live", "days": 1}, "daily"):
        r = post(anna, "/api/invitations", {"friends": [bo_name], "time_control": bad})
        assert r.status_code == 422, r.text
    assert get(bo, "/api/invitations").json()["invitations"] == []
    daily = {"mode": "daily", "days": 3}
    r = post(anna, "/api/invitations", {"friends": [bo_name], "time_control": daily})
    assert r.status_code == 201, r.text
    gid = r.json()["game"]
    with anna as c:
        clock = c.get(f"/api/games/{gid}").json()["clock"]
    assert (clock["mode"], clock["days"], clock["deadline"]) == ("daily", 3, None)
    (inv,) = get(bo, "/api/invitations").json()["invitations"]
    assert post(bo, f"/api/invitations/{inv['id']}/accept").status_code == 200
    with bo as c:
        clock = c.get(f"/api/games/{gid}").json()["clock"]
    assert clock["phase"] == "running" and clock["deadline"] is not None


def test_a_friends_game_has_computers_from_the_start(client: TestClient) -> None:
    """The start page's friends' game with computers: the host first, the friends
    invited to the next seats, the computers (each at its level) after them, seated
    from the start; the friend takes the seat the invitation names.  A level that
    does not exist, or more seats than a game has, is refused and makes nothing."""
    from yatzy.web.service import bot_levels

    anna, anna_name = person(client, "Cia")
    bo, bo_name = person(client, "Cib")
    befriend(anna, anna_name, bo, bo_name)
    levels = sorted(bot_levels())[:2]
    body = {"rules": "yatzy", "friends": [bo_name], "bots": levels, "lang": "sv"}
    r = post(anna, "/api/invitations", body)
    assert r.status_code == 201, r.text
    gid = r.json()["game"]
    with anna as c:
        players = view(c, gid)["players"]
    assert [p["bot"] for p in players] == [None, None, *levels]
    assert [p["name"] for p in players[:2]] == [anna_name, bo_name]
    assert all(p["name"].startswith("Dator") for p in players[2:])  # in the game's language
    assert [p["claimed"] for p in players] == [True, False, True, True]
    (inv,) = get(bo, "/api/invitations").json()["invitations"]
    assert post(bo, f"/api/invitations/{inv['id']}/accept").status_code == 200
    assert seats_of(bo, gid) == [1]
    with bo as c:
        assert all(p["claimed"] for p in view(c, gid)["players"])
    before = len(get(bo, "/api/invitations").json()["invitations"])
    for bad in ({**body, "bots": ["grandmaster"]}, {**body, "bots": [levels[0]] * 7}):
        refused = post(anna, "/api/invitations", bad)
        assert refused.status_code == 422, refused.text
    assert len(get(bo, "/api/invitations").json()["invitations"]) == before


def test_the_start_page_adds_computers_to_a_friends_game(client: TestClient) -> None:
    """A signed-in player's start page offers computers, each with a level, in the
    friends' setup (start-friends.js sends them as ``bots``)."""
    anna, _ = person(client, "Cic")
    page = get(anna, "/").text
    setup = page[page.index('id="friends-setup"') :]
    assert 'id="friend-add-bot"' in setup and 'id="friend-bots"' in setup
    row = page[page.index('id="friend-bot-row"') :]
    assert 'class="friend-bot-level"' in row and "<option value=" in row
    with Browser(client) as guest:
        assert 'id="friend-add-bot"' not in guest.get("/").text


def test_only_friends_are_invited(client: TestClient) -> None:
    anna, anna_name = person(client, "Oli")
    bo, bo_name = person(client, "Ola")
    _, stranger = person(client, "Str")
    befriend(anna, anna_name, bo, bo_name)
    assert post(anna, "/api/invitations", {"friends": [stranger]}).status_code == 403
    assert post(anna, "/api/invitations", {"friends": ["Nobody-at-all"]}).status_code == 404
    assert post(anna, "/api/invitations", {"friends": [anna_name]}).status_code == 404
    # an outstanding invitation is hidden once either blocks the other; no new one
    post(anna, "/api/invitations", {"friends": [bo_name]})
    assert len(get(bo, "/api/invitations").json()["invitations"]) == 1
    assert post(bo, "/api/friends/block", {"name": anna_name}).status_code == 200
    assert get(bo, "/api/invitations").json()["invitations"] == []
    assert post(anna, "/api/invitations", {"friends": [bo_name]}).status_code == 403
    assert get(bo, "/api/invitations").json()["invitations"] == []
    # no CSRF header
    with anna as c:
        assert c.post("/api/invitations", json={"friends": [bo_name]}).status_code == 403


def test_an_invitation_expires_after_a_day(client: TestClient) -> None:
    lobby = get_lobby(client)
    clock = Clock()
    clock.now = datetime.now(UTC)
    lobby.clock = clock
    try:
        anna, anna_name = person(client, "Exa")
        bo, bo_name = person(client, "Exb")
        befriend(anna, anna_name, bo, bo_name)
        post(anna, "/api/invitations", {"friends": [bo_name]})
        (inv,) = get(bo, "/api/invitations").json()["invitations"]
        clock.now += timedelta(days=1, seconds=1)
        assert get(bo, "/api/invitations").json()["invitations"] == []
        assert post(bo, f"/api/invitations/{inv['id']}/accept").status_code == 409
    finally:
        lobby.clock = lambda: datetime.now(UTC)


def play_both(players: dict[int, Browser], gid: str) -> None:
    """Play the game out, each seat by its own browser."""
    first = next(iter(players.values()))
    for _ in range(400):
        with first as c:
            v = view(c, gid)
        if v["finished"]:
            return
        with players[v["turn"]["seat"]] as c:
            v = view(c, gid)
            r = act(c, gid, next_action(v))
            assert r.status_code == 200, r.text
    raise AssertionError("the game did not end")


@pytest.mark.slow
def test_a_rematch_invites_the_same_players(client: TestClient) -> None:
    anna, anna_name = person(client, "Rea")
    bo, bo_name = person(client, "Reb")
    befriend(anna, anna_name, bo, bo_name)
    daily = {"mode": "daily", "days": 2}
    body = {"friends": [bo_name], "rules": "yatzy", "time_control": daily}
    gid = post(anna, "/api/invitations", body).json()["game"]
    (inv,) = get(bo, "/api/invitations").json()["invitations"]
    post(bo, f"/api/invitations/{inv['id']}/accept")
    assert post(anna, f"/api/games/{gid}/rematch").status_code == 409  # not over yet
    play_both({0: anna, 1: bo}, gid)
    stranger, _ = person(client, "Rec")
    assert post(stranger, f"/api/games/{gid}/rematch").status_code == 403
    assert post(Browser(client), f"/api/games/{gid}/rematch").status_code == 401
    r = post(anna, f"/api/games/{gid}/rematch")
    assert r.status_code == 201, r.text
    again = r.json()["game"]
    assert again != gid and r.json()["invited"] == [bo_name]
    (inv,) = get(bo, "/api/invitations").json()["invitations"]
    assert inv["game"] == again
    post(bo, f"/api/invitations/{inv['id']}/accept")
    with bo as c:
        game = view(c, again)
    assert [p["name"] for p in game["players"]] == [anna_name, bo_name]
    assert game["you"]["seats"] == [1]
    assert (game["clock"]["mode"], game["clock"]["days"]) == ("daily", 2)  # the same clock


def test_another_sites_poll_keeps_no_wait_alive(client: TestClient) -> None:
    lobby = get_lobby(client)
    clock = Clock()
    lobby.clock = clock
    try:
        anna, _ = person(client, "Xs")
        assert post(anna, "/api/lobby/quick", {"rules": "dubbel"}).status_code == 200
        clock.now += timedelta(seconds=lobby.drop_after - 1)
        with anna as c:
            foreign = c.get("/api/lobby/quick", headers={"Sec-Fetch-Site": "cross-site"})
        assert foreign.json()["state"] == "waiting"
        clock.now += timedelta(seconds=2)  # not seen since the arrival: dropped
        bo, _ = person(client, "Xt")
        post(bo, "/api/lobby/quick", {"rules": "dubbel"})
        assert get(anna, "/api/lobby/quick").json()["state"] == "none"
    finally:
        lobby.clock = lambda: datetime.now(UTC)


def _bot_to_start(client: TestClient, anna: Browser, friends: list[str]) -> tuple[str, int]:
    """A friends' game of Anna's with ``friends`` invited and two computers, made
    anew until a computer is the one to start (the starter is drawn); its id and
    version then."""
    body = {"rules": "yatzy", "friends": friends, "bots": ["random", "greedy"], "lang": "en"}
    for _ in range(60):
        r = post(anna, "/api/invitations", body)
        assert r.status_code == 201, r.text
        gid: str = r.json()["game"]
        with anna as c:
            game = view(c, gid)
        if game["turn"] is not None and game["players"][game["turn"]["seat"]]["bot"]:
            return gid, game["version"]
    raise AssertionError("no computer started in 60 games")


def _bots_idle(client: TestClient) -> None:
    portal = client.portal  # type: ignore[attr-defined]
    portal.call(client.app.state.bots.idle)  # type: ignore[attr-defined]


def test_the_computers_wait_for_the_invited_friends(client: TestClient) -> None:
    """A friends' game whose computer is to start makes no move while an invited
    friend has not joined (its view names the friend awaited); once the friend
    takes the seat, the computers play."""
    anna, anna_name = person(client, "Wia")
    bo, bo_name = person(client, "Wib")
    befriend(anna, anna_name, bo, bo_name)
    gid, version = _bot_to_start(client, anna, [bo_name])
    _bots_idle(client)
    with anna as c:
        game = view(c, gid)
    assert game["version"] == version and game["waiting_for"] == [bo_name]
    assert game["players"][game["turn"]["seat"]]["bot"]  # the computer's turn, unplayed
    (inv,) = [i for i in get(bo, "/api/invitations").json()["invitations"] if i["game"] == gid]
    assert post(bo, f"/api/invitations/{inv['id']}/accept").status_code == 200
    with bo as c:
        game = wait_for_person(c, gid)
    assert game["version"] > version + 1 and game["waiting_for"] == []  # seated, played


def test_a_declined_or_lapsed_invitation_lets_the_computers_play(client: TestClient) -> None:
    """Declined, the friend is awaited no more: the computers play, and the seat waits
    for the game's invite link as before.  Unanswered for a day, the same."""
    anna, anna_name = person(client, "Wic")
    bo, bo_name = person(client, "Wid")
    befriend(anna, anna_name, bo, bo_name)
    gid, version = _bot_to_start(client, anna, [bo_name])
    (inv,) = [i for i in get(bo, "/api/invitations").json()["invitations"] if i["game"] == gid]
    assert post(bo, f"/api/invitations/{inv['id']}/decline").status_code == 200
    with anna as c:
        game = wait_for_person(c, gid)
    assert game["version"] > version and game["waiting_for"] == []
    assert not game["players"][1]["claimed"]  # Bo's seat: open for the invite link
    lapsing, version = _bot_to_start(client, anna, [bo_name])
    _bots_idle(client)
    with anna as c:
        waiting = view(c, lapsing)
    assert (waiting["version"], waiting["waiting_for"]) == (version, [bo_name])
    invited = client.app.state.service.invited  # type: ignore[attr-defined]
    try:
        invited.clock = lambda: datetime.now(UTC) + timedelta(days=1, seconds=1)
        client.portal.call(client.app.state.bots.kick, lapsing)  # type: ignore[attr-defined]
        with anna as c:
            game = wait_for_person(c, lapsing)
        assert game["version"] > version and game["waiting_for"] == []
    finally:
        invited.clock = lambda: datetime.now(UTC)
