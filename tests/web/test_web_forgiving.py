"""Forgiving play against the computer: a person's write can be taken back until
they act again, so the computer's move (which begins with a roll) waits until the
person goes on or the undo grace passes; nobody ever sees new dice for a decision
that can still be undone."""

from __future__ import annotations

import time
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
from tests.web.test_web_api import act, create, view, wait_for_person
from yatzy.web.app import create_app


@pytest.fixture(scope="module")
def app_client(sqlite_url: str) -> Iterator[TestClient]:
    """An app whose computer waits up to 60 s on a write that may be taken back."""
    with TestClient(create_app(sqlite_url, bot_delay=0.0, undo_grace=60.0)) as client:
        yield client


def _written(client: TestClient) -> tuple[str, dict[str, Any], list[Any]]:
    """A game against the computer where Ann has just written her first box: its id,
    the view after the write, and the dice she wrote."""
    gid = create(client, [{"name": "Ann", "here": True}, {"name": "Bot", "bot": "greedy"}])["id"]
    v = wait_for_person(client, gid)
    assert act(client, gid, {"roll": []}).status_code == 200
    v = view(client, gid)
    dice = v["turn"]["dice"]
    box = v["turn"]["allowed"][0]
    r = act(client, gid, {"score": box})
    assert r.status_code == 200, r.text
    return gid, r.json(), dice


def test_the_computer_waits_while_a_write_can_be_taken_back(client: TestClient) -> None:
    gid, after, dice = _written(client)
    assert after["undo"]["seat"] == 0 and after["players"][after["turn"]["seat"]]["bot"]
    time.sleep(0.5)  # bots act without delay here: only the undo holds this one back
    now = view(client, gid)
    assert now["version"] == after["version"] and now["turn"]["dice"] is None
    # taken back: Ann's turn again, with the dice she had (nobody rolled meanwhile)
    r = act(client, gid, {"undo": True}, seat=0)
    assert r.status_code == 200, r.text
    back = r.json()
    assert back["turn"]["seat"] == 0 and back["turn"]["dice"] == dice and back["undo"] is None


def test_going_on_lets_the_computer_move_and_ends_the_undo(client: TestClient) -> None:
    gid, after, _ = _written(client)
    r = client.post(f"/api/games/{gid}/go-on")
    assert r.status_code == 200 and r.json() == {"version": after["version"]}, r.text
    moved = eventually(
        lambda: view(client, gid),
        lambda v: v["version"] > after["version"],
        what="the computer's move after going on",
    )
    assert moved["undo"] is None or moved["undo"]["seat"] == 1  # its roll ended Ann's undo
    refused = act(client, gid, {"undo": True}, seat=0)
    assert refused.status_code == 422 or refused.status_code == 409


def test_going_on_after_an_undo_and_a_new_write_lets_the_computer_move_at_once(
    client: TestClient,
) -> None:
    """The computer waited out the first write's whole grace (here 60 s) although its
    person had taken it back, written again and gone on."""
    gid, _, _ = _written(client)
    assert act(client, gid, {"undo": True}, seat=0).status_code == 200
    box = view(client, gid)["turn"]["allowed"][-1]
    again = act(client, gid, {"score": box})
    assert again.status_code == 200, again.text
    r = client.post(f"/api/games/{gid}/go-on")
    assert r.status_code == 200 and r.json() == {"version": again.json()["version"]}, r.text
    eventually(
        lambda: view(client, gid),
        lambda v: v["version"] > again.json()["version"],
        timeout=20,  # a third of the grace: only going on can have moved it
        what="the computer's move after going on",
    )


def test_go_on_is_refused_when_nothing_waits_or_for_another_seat(client: TestClient) -> None:
    gid, _, _ = _written(client)
    cookies = dict(client.cookies)
    client.cookies.clear()
    stranger = client.post(f"/api/games/{gid}/go-on")
    assert stranger.status_code == 403 and stranger.json()["error"] == "SeatError"
    client.cookies.update(cookies)
    assert act(client, gid, {"undo": True}, seat=0).status_code == 200
    nothing = client.post(f"/api/games/{gid}/go-on")
    assert nothing.status_code == 409 and nothing.json()["error"] == "NothingWaitsError"


def test_against_the_computer_it_waits_past_the_grace_until_you_go_on(sqlite_url: str) -> None:
    # Issue 24: a write can be taken back until your next action. Where every person
    # plays on one device (against the computer, pass and play) nobody else waits, so
    # the computer waits for the person to go on, however long: not the grace.
    with TestClient(create_app(sqlite_url, bot_delay=0.0, undo_grace=0.3)) as client:
        gid, after, _ = _written(client)
        time.sleep(1.0)  # three graces
        now = view(client, gid)
        assert now["version"] == after["version"] and now["undo"]["seat"] == 0
        assert client.post(f"/api/games/{gid}/go-on").status_code == 200
        eventually(
            lambda: view(client, gid),
            lambda v: v["version"] > after["version"],
            what="the computer's move after going on",
        )


def test_with_people_on_several_devices_the_grace_passes_without_going_on(
    sqlite_url: str,
) -> None:
    # An absent person never holds the others up: with a friend on another device the
    # computer moves after the grace.
    with TestClient(create_app(sqlite_url, bot_delay=0.0, undo_grace=0.3)) as client:
        seats = [{"name": "Ann", "here": True}, {"name": "Bot", "bot": "greedy"}, {"name": "Bo"}]
        game = create(client, seats)
        gid = game["id"]
        bo = TestClient(client.app)
        joined = bo.post(f"/api/games/{gid}/join", json={"invite": game["invite"], "seat": 2})
        assert joined.status_code == 200, joined.text
        v = wait_for_person(client, gid)
        while v["turn"]["seat"] != 0:  # Bo's turns (on his device) until Ann's
            acted = act(bo, gid, next_action(v))
            assert acted.status_code == 200, acted.text
            v = wait_for_person(client, gid)
        assert act(client, gid, {"roll": []}).status_code == 200
        box = view(client, gid)["turn"]["allowed"][0]
        after = act(client, gid, {"score": box})
        assert after.status_code == 200 and after.json()["undo"]["seat"] == 0
        moved = eventually(
            lambda: view(client, gid),
            lambda v: v["version"] > after.json()["version"],
            what="the computer's move after the grace",
        )
        assert moved["undo"] is None or moved["undo"]["seat"] == 1


# -- hints switched during the game -----------------------------------------------------------


@pytest.mark.slow  # the first hint warms the strategy
def test_a_player_switches_hints_on_and_off_during_the_game(client: TestClient) -> None:
    gid = create(client, [{"name": "Ann", "here": True}])["id"]
    before = view(client, gid)
    assert before["hints"] is False and before["hints_switch"] is True
    on = client.post(f"/api/games/{gid}/hints", json={"on": True})
    assert on.status_code == 200, on.text
    assert on.json()["hints"] is True and on.json()["version"] == before["version"] + 1
    assert act(client, gid, {"roll": []}).status_code == 200
    assert "hint" in view(client, gid)["turn"]
    off = client.post(f"/api/games/{gid}/hints", json={"on": False})
    assert off.status_code == 200 and off.json()["hints"] is False
    assert "hint" not in view(client, gid)["turn"]
    moves = client.get(f"/api/games/{gid}/moves").json()
    assert [m["action"] for m in moves if m["seat"] is None][-2:] == [
        {"hints": True},
        {"hints": False},
    ]


def test_hints_switch_refusals(client: TestClient) -> None:
    pad = create(client, [{"name": "Ann", "here": True}], pad=True)["id"]
    assert view(client, pad)["hints_switch"] is False
    refused = client.post(f"/api/games/{pad}/hints", json={"on": True})
    assert refused.status_code == 422 and refused.json()["error"] == "HintsUnavailableError"
    gid = create(client, [{"name": "Ann", "here": True}])["id"]
    client.cookies.clear()
    spectator = client.post(f"/api/games/{gid}/hints", json={"on": True})
    assert spectator.status_code == 403 and spectator.json()["error"] == "SeatError"
    assert view(client, gid)["hints"] is False


def _to_the_last_box(client: TestClient, gid: str) -> dict[str, Any]:
    """Play Ann's solo game through to its last turn, the dice rolled; the view.
    Every earlier turn's write is refused a preview (it does not end the game)."""
    for _ in range(200):
        v = view(client, gid)
        turn = v["turn"]
        if turn["ends_game"] and turn["dice"] is not None:
            return v
        action = next_action(v, 1)
        if "score" in action:
            assert not turn["ends_game"]
            early = client.post(f"/api/games/{gid}/preview", json={"action": action})
            assert early.status_code == 422 and "ends the game" in early.json()["detail"]
        assert act(client, gid, action).status_code == 200
    raise AssertionError("the game never reached its last box")


def test_the_games_last_write_is_previewed_and_nothing_is_stored(client: TestClient) -> None:
    """The page holds the game's last write with Undo: the server shows the sheets as
    they would stand, stores nothing and tells nobody; only the action ends the game."""
    gid = create(client, rules="yatzy")["id"]
    before = _to_the_last_box(client, gid)
    (box,) = before["turn"]["allowed"]
    points = before["turn"]["preview"][box]
    r = client.post(f"/api/games/{gid}/preview", json={"action": {"score": box}})
    assert r.status_code == 200, r.text
    held = r.json()
    assert held["version"] == before["version"]
    assert held["sheets"][0]["entries"][box]["points"] == points
    assert held["totals"][0] >= before["totals"][0] + points  # the upper bonus may come too
    assert held["totals"][0] == held["sheets"][0]["final"]
    after = view(client, gid)
    assert after == before  # nothing stored, nothing moved
    # refusals as an action's, and nothing changes
    roll = client.post(f"/api/games/{gid}/preview", json={"action": {"roll": []}})
    assert roll.status_code == 422
    stale = client.post(f"/api/games/{gid}/preview", json={"action": {"score": box}, "version": 0})
    assert stale.status_code == 409
    filled = "chance" if box != "chance" else "ones"
    other = client.post(f"/api/games/{gid}/preview", json={"action": {"score": filled}})
    assert other.status_code == 422  # a filled box: the core's refusal
    cookies = dict(client.cookies)
    client.cookies.clear()
    stranger = client.post(f"/api/games/{gid}/preview", json={"action": {"score": box}})
    assert stranger.status_code == 403
    client.cookies.update(cookies)
    assert view(client, gid) == before
    # sent: the game is over, and its last write is final on the server
    done = act(client, gid, {"score": box})
    assert done.status_code == 200, done.text
    assert done.json()["finished"] and done.json()["totals"] == held["totals"]
    assert done.json()["undo"] is None
    refused = act(client, gid, {"undo": True}, seat=0)
    assert refused.status_code == 409 or refused.status_code == 422
    assert view(client, gid)["finished"]


def play_to_the_last_box(players: dict[int, Browser], gid: str) -> dict[str, Any]:
    """Play the game's seats, each with the browser that holds it, up to the write that
    ends the game (the dice rolled); the view there."""
    for _ in range(400):
        with players[0] as c:
            v = view(c, gid)
        turn = v["turn"]
        if turn["ends_game"] and turn["dice"] is not None:
            return v
        with players[turn["seat"]] as c:
            r = act(c, gid, next_action(v, 1))
            assert r.status_code == 200, r.text
    raise AssertionError("the game never reached its last box")


def test_on_several_devices_the_last_write_is_held_for_the_undo_grace(
    client: TestClient,
) -> None:
    """With people on several devices the page holds the game's last write for the
    server's undo grace only (``hold_for``), so one who leaves never holds the others
    up; on one device, however long the person takes."""
    ann, bo = Browser(client), Browser(client)
    with ann as c:
        game = create(c, [{"name": "Ann", "here": True}, {"name": "Bo"}])
    with bo as c:
        joined = c.post(f"/api/games/{game['id']}/join", json={"invite": game["invite"], "seat": 1})
        assert joined.status_code == 200, joined.text
    last = play_to_the_last_box({0: ann, 1: bo}, game["id"])
    assert last["turn"]["hold_for"] == 60.0  # this app's undo grace
    with ann as c:
        solo = create(c)["id"]
    alone = play_to_the_last_box({0: ann}, solo)
    assert alone["turn"]["ends_game"] and "hold_for" not in alone["turn"]


def test_a_score_pads_last_entry_typed_as_points_is_previewed(client: TestClient) -> None:
    """A score pad's last box, written as points by hand: held by the page like any
    last write (the preview judges the typed points by the rules, stores nothing)."""
    gid = create(client, pad=True)["id"]
    for _ in range(200):
        v = view(client, gid)
        still_open = [b for b, e in v["sheets"][0]["entries"].items() if e is None]
        if len(still_open) == 1:
            break
        assert not v["turn"]["ends_game"]
        assert act(client, gid, next_action(v)).status_code == 200
    (box,) = still_open
    assert v["turn"]["ends_game"] and v["turn"]["dice"] is None  # no dice entered
    typed = {"write": box, "points": 0}
    r = client.post(f"/api/games/{gid}/preview", json={"action": typed})
    assert r.status_code == 200, r.text
    assert r.json()["sheets"][0]["entries"][box]["points"] == 0
    impossible = client.post(
        f"/api/games/{gid}/preview", json={"action": {"write": box, "points": 999}}
    )
    assert impossible.status_code == 422  # points the box cannot hold: the core says so
    assert view(client, gid) == v
    done = act(client, gid, typed)
    assert done.status_code == 200 and done.json()["finished"], done.text
