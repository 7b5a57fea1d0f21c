"""The web API and WebSocket, against SQLite and against the local PostgreSQL.

Every test runs once per database.  Games are driven only through HTTP; the
actions are picked from the server's own view.
"""

from __future__ import annotations

import json
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from tests.e2e.support import next_action
from tests.helpers import eventually, join_all, scaled
from yatzy.game import from_record
from yatzy.web.app import create_app


def create(
    client: TestClient, seats: list[dict[str, Any]] | None = None, **kw: Any
) -> dict[str, Any]:
    body = {"rules": "yatzy", "seats": seats or [{"name": "Ann", "here": True}], **kw}
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def view(client: TestClient, gid: str) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}")
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def wait_for_person(client: TestClient, gid: str) -> dict[str, Any]:
    """Poll until a person is to act or the game is over (bots play in the background)."""
    return eventually(
        lambda: view(client, gid),
        lambda v: v["finished"] or not v["players"][v["turn"]["seat"]]["bot"],
        interval=0.005,
        what="the bots' moves",
    )


def act(client: TestClient, gid: str, action: dict[str, Any], **kw: Any) -> Any:
    return client.post(f"/api/games/{gid}/actions", json={"action": action, **kw})


def play_out(client: TestClient, gid: str, max_actions: int = 2000) -> dict[str, Any]:
    """Play every seat this client holds until the game is over."""
    for _ in range(max_actions):
        v = wait_for_person(client, gid)
        if v["finished"]:
            return v
        r = act(client, gid, next_action(v))
        assert r.status_code == 200, r.text
    raise AssertionError("the game did not end")


def stored_version(client: TestClient, gid: str) -> int:
    return int(view(client, gid)["version"])


# -- playing whole games ------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    "rules", ["yatzy", "maxi+saved_rolls", "dubbel", "yahtzee+joker=free", "yatzy+half_forced"]
)
def test_person_and_bot_play_a_whole_game(client: TestClient, rules: str) -> None:
    game = create(
        client, [{"name": "Ann", "here": True}, {"name": "Bot", "bot": "greedy"}], rules=rules
    )
    gid = game["id"]
    assert game["game"]["rolloff"], "two players roll off for the start"
    assert game["game"]["starter"] in (0, 1)
    final = play_out(client, gid)
    assert final["finished"] and final["winners"]
    assert final["totals"] == [s["final"] for s in final["sheets"]]
    assert all(e is not None for s in final["sheets"] for e in s["entries"].values())
    # The stored record is the event log: it replays to the same totals, and every
    # version has its stored move.
    record = client.get(f"/api/games/{gid}/record").json()
    assert from_record(record).totals() == final["totals"]
    moves = client.get(f"/api/games/{gid}/moves").json()
    assert [m["version"] for m in moves] == list(range(1, final["version"] + 1))
    assert {m["seat"] for m in moves} == {0, 1}
    # ...and the game is closed for good.
    r = act(client, gid, {"roll": []})
    assert r.status_code == 409 and "over" in r.json()["detail"]
    assert stored_version(client, gid) == final["version"]


def test_view_shows_rolls_previews_and_protocol_rows(client: TestClient) -> None:
    gid = create(client, rules="maxi+saved_rolls", lang="sv")["id"]
    v = view(client, gid)
    assert v["title"] == "Maxi-Yatzy" and v["lang"] == "sv"
    assert [b["id"] for b in v["boxes"]][:2] == ["ones", "twos"]
    assert v["boxes"][0]["name"] == "Ettor"
    assert v["labels"]["par"] == "Bonusläge"
    assert v["turn"]["rolls_left"] == 3 and v["turn"]["dice"] is None
    r = act(client, gid, {"roll": []})
    v = r.json()
    assert len(v["turn"]["dice"]) == 6 and v["turn"]["rolls_left"] == 2
    assert set(v["turn"]["preview"]) == {b["id"] for b in v["boxes"]}
    # stop after one roll: two rolls are saved for later turns
    box = max(v["turn"]["preview"], key=v["turn"]["preview"].get)
    v = act(client, gid, {"score": box}).json()
    assert v["sheets"][0]["saved_rolls"] == 2
    assert v["turn"]["max_rolls"] == 5
    assert v["you"]["seats"] == [0]


def test_keep_dice_keeps_their_faces(client: TestClient) -> None:
    gid = create(client)["id"]
    first = act(client, gid, {"roll": []}).json()["turn"]["dice"]
    second = act(client, gid, {"roll": [0, 2]}).json()["turn"]["dice"]
    assert second[0] == first[0] and second[2] == first[2]


# -- illegal actions change nothing -----------------------------------------------------------


def test_illegal_actions_get_a_reason_and_change_nothing(client: TestClient) -> None:
    gid = create(client)["id"]
    before = client.get(f"/api/games/{gid}/record").json()
    cases: list[tuple[dict[str, Any], int, str]] = [
        ({"score": "ones"}, 422, "roll"),
        ({"roll": [0]}, 422, "keep"),
        ({"score": "no_such_box"}, 422, "no_such_box"),
    ]
    for action, status, word in cases:
        r = act(client, gid, action)
        assert r.status_code == status, (action, r.text)
        assert word in r.json()["detail"]
    act(client, gid, {"roll": []})
    r = act(client, gid, {"roll": [0, 0]})
    assert r.status_code == 422 and "twice" in r.json()["detail"]
    act(client, gid, {"roll": []})
    act(client, gid, {"roll": []})
    middle = client.get(f"/api/games/{gid}/record").json()
    more: list[tuple[dict[str, Any], int, str]] = [
        ({"roll": []}, 422, "no rolls left"),
        ({"score": "ones", "drop": 3}, 422, "drops no die"),
        ({"dice": [1, 2, 3, 4, 5]}, 422, "score pad"),
        ({"write": "ones", "points": 3}, 422, "score pad"),
    ]
    for action, status, word in more:
        r = act(client, gid, action)
        assert r.status_code == status, (action, r.text)
        assert word in r.json()["detail"], r.text
    assert client.get(f"/api/games/{gid}/record").json() == middle != before


def test_malformed_and_oversized_bodies_are_refused(client: TestClient) -> None:
    gid = create(client)["id"]
    version = stored_version(client, gid)
    url = f"/api/games/{gid}/actions"
    hdr = {"Content-Type": "application/json"}
    assert client.post(url, content=b"{not json", headers=hdr).status_code == 422
    assert client.post(url, json={"action": {"roll": "all"}}).status_code == 422
    assert client.post(url, json={"action": {"roll": [True]}}).status_code == 422
    assert client.post(url, json={"action": {"roll": []}, "evil": 1}).status_code == 422
    assert client.post(url, json={"action": {}}).status_code == 422
    assert client.post(url, json=[1, 2]).status_code == 422
    big = json.dumps({"action": {"roll": []}, "pad": "x" * 100_000}).encode()
    assert client.post(url, content=big, headers=hdr).status_code == 413

    def chunks() -> Iterator[bytes]:  # no Content-Length: the size shows while reading
        for i in range(0, len(big), 4096):
            yield big[i : i + 4096]

    assert client.post(url, content=chunks(), headers=hdr).status_code == 413
    one_chunk = iter([json.dumps({"action": {"roll": []}}).encode()])
    assert client.post(url, content=one_chunk, headers=hdr).status_code == 200
    version += 1  # that one was a legal roll
    r = client.post(
        "/api/games", content=b'{"seats": [' + b'{"name": "a"},' * 5000 + b"]}", headers=hdr
    )
    assert r.status_code == 413
    r = client.post("/api/games", content=iter([b'{"seats": [', b'{"name": "a"},' * 5000]))
    assert r.status_code == 413
    assert client.post("/api/games", json={"seats": []}).status_code == 422
    assert (
        client.post(
            "/api/games", json={"rules": "yatzy+nope", "seats": [{"name": "a"}]}
        ).status_code
        == 422
    )
    assert (
        client.post("/api/games", json={"seats": [{"name": "a", "bot": "wizard"}]}).status_code
        == 422
    )
    assert (
        client.post("/api/games", json={"seats": [{"name": "a"}, {"name": "A"}]}).status_code == 422
    )
    assert client.get("/api/games/" + "0" * 32).status_code == 404
    assert client.get("/api/games/not-an-id").status_code == 422
    assert stored_version(client, gid) == version


def test_seat_tokens_guard_the_seats(client: TestClient) -> None:
    g1 = create(client, [{"name": "Ann", "here": True}, {"name": "Bo"}])
    g2 = create(client, [{"name": "Cy", "here": True}])
    gid, other = g1["id"], g2["id"]
    mine = client.cookies.get(f"yz_{gid}_0")
    theirs = client.cookies.get(f"yz_{other}_0")
    assert mine and theirs and len(mine) >= 22  # >= 128 bits, URL-safe base64
    version = stored_version(client, gid)
    stranger = TestClient(client.app)
    seat = 0 if g1["game"]["starter"] == 0 else 1
    refusals = [
        ({}, None),  # a spectator
        ({f"yz_{gid}_{seat}": "forged-" + "A" * 40}, None),  # a forged cookie
        ({f"yz_{gid}_{seat}": theirs}, None),  # the token of another game
        ({f"yz_{gid}_{1 - seat}": mine if seat == 1 else "x" * 43}, None),  # another seat
    ]
    for cookies, _ in refusals:
        stranger.cookies.clear()
        for k, v in cookies.items():
            stranger.cookies.set(k, v)
        r = stranger.post(f"/api/games/{gid}/actions", json={"action": {"roll": []}, "seat": seat})
        assert r.status_code == 403, (cookies, r.text)
        assert "do not hold" in r.json()["detail"]
    # the header form checks the token just as well
    r = stranger.post(
        f"/api/games/{gid}/actions",
        json={"action": {"roll": []}, "seat": 0},
        headers={"X-Seat-Token": f"0:{theirs}"},
    )
    assert r.status_code == 403
    assert stored_version(client, gid) == version
    # a spectator sees the game read-only
    stranger.cookies.clear()
    seen = stranger.get(f"/api/games/{gid}").json()
    assert seen["you"]["seats"] == [] and seen["version"] == version
    # the seat holder may play (after the bot-free roll-off, whoever starts)
    holder_turn = view(client, gid)["turn"]["seat"] == 0
    r = act(client, gid, {"roll": []}, seat=0)
    assert r.status_code == (200 if holder_turn else 409)


def test_invite_claims_each_seat_once(client: TestClient) -> None:
    game = create(
        client, [{"name": "Ann", "here": True}, {"name": "Bo"}, {"name": "Bot", "bot": "random"}]
    )
    gid, invite = game["id"], game["invite"]
    assert game["invite_url"].endswith(f"/g/{gid}?invite={invite}")
    bo = TestClient(client.app)
    assert bo.post(f"/api/games/{gid}/join", json={"invite": "wrong", "seat": 1}).status_code == 403
    assert bo.post(f"/api/games/{gid}/join", json={"invite": invite, "seat": 0}).status_code == 403
    assert bo.post(f"/api/games/{gid}/join", json={"invite": invite, "seat": 2}).status_code == 403
    r = bo.post(f"/api/games/{gid}/join", json={"invite": invite, "seat": 1})
    assert r.status_code == 200 and r.json()["you"]["seats"] == [1]
    cookie_header = r.headers["set-cookie"]
    assert "HttpOnly" in cookie_header and "samesite=strict" in cookie_header.lower()
    late = TestClient(client.app)
    r = late.post(f"/api/games/{gid}/join", json={"invite": invite, "seat": 1})
    assert r.status_code == 403 and "taken" in r.json()["detail"]
    assert all(p["claimed"] for p in view(client, gid)["players"])


@pytest.mark.slow
def test_hotseat_one_browser_plays_every_seat(client: TestClient) -> None:
    game = create(client, [{"name": "Ann", "here": True}, {"name": "Bo", "here": True}])
    assert game["game"]["you"]["seats"] == [0, 1]
    final = play_out(client, game["id"])
    assert final["finished"]


def test_stale_version_gets_409_and_changes_nothing(client: TestClient) -> None:
    gid = create(client)["id"]
    v0 = stored_version(client, gid)
    assert act(client, gid, {"roll": []}, version=v0).status_code == 200
    r = act(client, gid, {"roll": []}, version=v0)
    assert r.status_code == 409
    assert stored_version(client, gid) == v0 + 1


def test_simultaneous_actions_never_lose_an_update(client: TestClient) -> None:
    """Racing requests on one game: each applied action is a version, none is lost."""
    gid = create(client, [{"name": "Ann", "here": True}, {"name": "Bo", "here": True}])["id"]
    start = stored_version(client, gid)
    statuses: list[int] = []
    barrier = threading.Barrier(6)

    def racer() -> None:
        barrier.wait(scaled(60))
        for _ in range(3):
            r = act(client, gid, {"roll": []}, version=start)
            statuses.append(r.status_code)

    threads = [threading.Thread(target=racer) for _ in range(6)]
    for t in threads:
        t.start()
    join_all(threads, what="the racing requests")
    assert statuses.count(200) == 1, statuses
    assert set(statuses) <= {200, 409}
    assert stored_version(client, gid) == start + 1
    moves = client.get(f"/api/games/{gid}/moves").json()
    assert len(moves) == start + 1


def test_racing_without_versions_applies_each_action_exactly_once(client: TestClient) -> None:
    gid = create(client)["id"]
    ok: list[int] = []
    barrier = threading.Barrier(4)

    def racer() -> None:
        barrier.wait(scaled(60))
        for _ in range(3):
            r = act(client, gid, {"roll": []})
            assert r.status_code in (200, 409, 422), r.text
            if r.status_code == 200:
                ok.append(1)

    threads = [threading.Thread(target=racer) for _ in range(4)]
    for t in threads:
        t.start()
    join_all(threads, what="the racing requests")
    v = view(client, gid)
    # Every successful roll is one version and one roll of the turn, never more than
    # the three a turn allows; the others were refused (409 lost race, 422 no rolls).
    assert 1 <= len(ok) == v["version"] == v["turn"]["rolls_used"] <= 3


# -- live updates ------------------------------------------------------------------------------


def test_websocket_receives_every_change(client: TestClient) -> None:
    game = create(client, [{"name": "Ann", "here": True}, {"name": "Bot", "bot": "greedy"}])
    gid = game["id"]
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        first = json.loads(ws.receive_text())
        assert first["type"] == "state" and first["game"]["id"] == gid
        v = wait_for_person(client, gid)
        act(client, gid, {"roll": []})
        msg = eventually(
            lambda: json.loads(ws.receive_text()),
            lambda m: m["game"]["version"] == v["version"] + 1,
            interval=0,
            what="the broadcast of the roll",
        )
        assert msg["game"]["turn"]["dice"] is not None
        assert "you" not in msg["game"]  # the broadcast carries no viewer secrets


def test_websocket_of_unknown_game_is_closed(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    with (
        pytest.raises(WebSocketDisconnect),
        client.websocket_connect("/api/games/" + "a" * 32 + "/ws") as ws,
    ):
        ws.receive_text()


# -- actions over the WebSocket --------------------------------------------------------------


def socket_act(ws: Any, ref: int | None, action: Any, **kw: Any) -> dict[str, Any]:
    """Send an action over the game's socket; its answer."""
    ws.send_text(json.dumps({"type": "act", "ref": ref, "action": action, **kw}))
    answer: dict[str, Any] = json.loads(ws.receive_text())
    return answer


def test_socket_action_answers_the_actor_and_reaches_the_others(client: TestClient) -> None:
    gid = create(client)["id"]
    cookies = dict(client.cookies)
    client.cookies.clear()  # the spectator's socket opens without the seat's cookie
    with client.websocket_connect(f"/api/games/{gid}/ws") as spectator:
        json.loads(spectator.receive_text())
        for name, value in cookies.items():
            client.cookies.set(name, value)
        with client.websocket_connect(f"/api/games/{gid}/ws") as player:
            v = json.loads(player.receive_text())["game"]["version"]
            answer = socket_act(player, 1, {"roll": []}, version=v)
            assert answer["type"] == "state" and answer["ref"] == 1
            game = answer["game"]
            assert game["version"] == v + 1 and game["turn"]["dice"] is not None
            assert game["you"]["seats"] == [0]  # the actor's answer, as POST gives it
            # the others get the same game without the viewer's part
            public = {k: value for k, value in game.items() if k != "you"}
            assert json.loads(spectator.receive_text()) == {"type": "state", "game": public}
            # the actor is not sent its own move again: the next message is the next answer
            answer = socket_act(player, 2, {"roll": [0]}, version=v + 1)
            assert answer["ref"] == 2 and answer["game"]["version"] == v + 2
            assert json.loads(spectator.receive_text())["game"]["version"] == v + 2
            # a spectator's socket holds no seat
            refused = socket_act(spectator, 7, {"roll": []})
            assert refused["type"] == "error" and refused["status"] == 403
            assert "do not hold" in refused["detail"]
    assert stored_version(client, gid) == v + 2
    moves = client.get(f"/api/games/{gid}/moves").json()
    assert [m["action"]["roll"] for m in moves] == [[], [0]]


def test_socket_actions_refused_change_nothing(client: TestClient) -> None:
    gid = create(client)["id"]
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        v = json.loads(ws.receive_text())["game"]["version"]
        refusals: list[tuple[Any, int, str]] = [
            ({"type": "act", "ref": 1, "action": {"score": "nonsense"}}, 422, "unknown box"),
            ({"type": "act", "ref": 2, "action": {"roll": []}, "version": v + 5}, 409, ""),
            ({"type": "act", "ref": 3, "action": {"roll": "all"}}, 422, "action.roll"),
            ({"type": "act", "ref": 4, "action": {"roll": []}, "extra": 1}, 422, "extra"),
            ({"type": "hello", "ref": 5}, 422, "type"),
            ({"type": "act", "ref": -1, "action": {"roll": []}}, 422, "ref"),
            ("not json", 422, "JSON"),
            ([1, 2], 422, ""),
        ]
        for message, status, words in refusals:
            ws.send_text(message if isinstance(message, str) else json.dumps(message))
            answer = json.loads(ws.receive_text())
            assert answer["type"] == "error" and answer["status"] == status, (message, answer)
            assert words in answer["detail"], (message, answer)
            quoted = message.get("ref") if isinstance(message, dict) else None
            assert answer["ref"] == (quoted if quoted != -1 else None)
        # ...and the socket still serves the game
        assert socket_act(ws, 9, {"roll": []})["game"]["version"] == v + 1
    assert stored_version(client, gid) == v + 1


def test_socket_of_another_origin_may_watch_but_not_act(client: TestClient) -> None:
    gid = create(client)["id"]
    url = f"/api/games/{gid}/ws"
    with client.websocket_connect(url, headers={"origin": "https://evil.example"}) as ws:
        v = json.loads(ws.receive_text())["game"]["version"]
        answer = socket_act(ws, 1, {"roll": []})
        assert answer["status"] == 403 and "another origin" in answer["detail"]
    assert stored_version(client, gid) == v
    with client.websocket_connect(url, headers={"origin": "http://testserver"}) as ws:
        json.loads(ws.receive_text())
        assert socket_act(ws, 1, {"roll": []})["game"]["version"] == v + 1


def test_socket_acts_with_the_seat_token_header(client: TestClient) -> None:
    gid = create(client)["id"]
    token = client.cookies.get(f"yz_{gid}_0")
    client.cookies.clear()
    url = f"/api/games/{gid}/ws"
    with client.websocket_connect(url, headers={"x-seat-token": f"0:{token}"}) as ws:
        v = json.loads(ws.receive_text())["game"]["version"]
        answer = socket_act(ws, None, {"roll": []})
        assert answer["ref"] is None and answer["game"]["version"] == v + 1
        assert answer["game"]["you"]["seats"] == [0]


# -- score pad ----------------------------------------------------------------------------------


def test_score_pad_refuses_impossible_points(client: TestClient) -> None:
    game = create(client, [{"name": "Ann", "here": True}], pad=True)
    gid = game["id"]
    assert game["game"]["pad"] is True
    before = stored_version(client, gid)
    r = act(client, gid, {"write": "ones", "points": 7})
    assert r.status_code == 422 and "not a possible" in r.json()["detail"]
    r = act(client, gid, {"write": "yatzy", "points": 40})
    assert r.status_code == 422
    assert act(client, gid, {"roll": []}).status_code == 422  # no rolls in a pad game
    assert stored_version(client, gid) == before
    v = act(client, gid, {"write": "ones", "points": 3}).json()
    assert v["sheets"][0]["entries"]["ones"]["points"] == 3
    v = act(client, gid, {"dice": [6, 6, 6, 2, 2]}).json()
    assert v["turn"]["preview"]["full_house"] == 22
    v = act(client, gid, {"score": "full_house"}).json()
    assert v["sheets"][0]["entries"]["full_house"]["points"] == 22
    assert act(client, gid, {"dice": [7, 1, 1, 1, 1]}).status_code == 422
    # Typed dice are read by the library's notation, never guessed.
    for typed, reason in (
        ("-1 2 3 4 5", "die '-1' is not a face 1-6"),
        ("1-2-3-4-", "is not a face"),
        ("", "no dice"),
        ("1 2 3 4 5 6", "needs 5 dice"),
    ):
        r = act(client, gid, {"dice": typed})
        assert r.status_code == 422 and reason in r.json()["detail"], typed
    v = act(client, gid, {"dice": "3,3,3 6-6"}).json()
    assert v["turn"]["dice"] == [3, 3, 3, 6, 6]
    assert (
        client.post(
            "/api/games",
            json={
                "pad": True,
                "seats": [{"name": "a", "here": True}, {"name": "b", "bot": "greedy"}],
            },
        ).status_code
        == 422
    )


def test_last_resort_view_and_refusals_come_from_the_core(client: TestClient) -> None:
    gid = create(client, [{"name": "Ann", "here": True}], pad=True, rules="yatzy+last_resort")["id"]
    v = act(client, gid, {"dice": [6, 6, 6, 2, 4]}).json()
    assert v["last_resort"] is True
    assert v["turn"]["allowed"] == ["twos", "fours", "sixes", "one_pair", "three_of_a_kind"]
    assert v["turn"]["zero_allowed"] is False
    before = stored_version(client, gid)
    r = act(client, gid, {"score": "chance"})
    assert r.status_code == 422 and "box chance may be used only when" in r.json()["detail"]
    r = act(client, gid, {"scratch": "yatzy"})
    assert r.status_code == 422 and "box yatzy may not be written with 0" in r.json()["detail"]
    assert stored_version(client, gid) == before
    v = act(client, gid, {"score": "sixes"}).json()
    assert v["sheets"][0]["entries"]["sixes"]["points"] == 18
    # Points written without dice cannot be judged: accepted.
    v = act(client, gid, {"write": "chance", "points": 24}).json()
    assert v["sheets"][0]["entries"]["chance"]["points"] == 24
    assert v["turn"]["zero_allowed"] is True


def test_saved_rolls_next_in_the_view(client: TestClient) -> None:
    gid = create(client, [{"name": "Ann", "here": True}], rules="maxi+saved_rolls=next")["id"]
    v = act(client, gid, {"roll": []}).json()
    assert v["saved_rolls_rule"] is True and v["saved_rolls_mode"] == "next"
    v = act(client, gid, {"scratch": "ones"}).json()
    assert v["sheets"][0]["saved_rolls"] == 2 and v["turn"]["max_rolls"] == 5


def test_score_pad_dubbel_writes_two_results(client: TestClient) -> None:
    gid = create(client, [{"name": "Ann", "here": True}], pad=True, rules="dubbel")["id"]
    r = act(
        client,
        gid,
        {"inner": {"write": "chance", "points": 2}, "outer": {"write": "ones", "points": 5}},
    )
    assert r.status_code == 422
    v = act(
        client,
        gid,
        {"inner": {"write": "chance", "points": 20}, "outer": {"write": "ones", "points": 5}},
    ).json()
    assert v["sheets"][0]["entries"]["ones"]["points"] == 5


# -- solo records and history -------------------------------------------------------------------


@pytest.mark.slow
def test_solo_record_and_history(client: TestClient) -> None:
    first = create(client, rules="yatzy+forced")
    assert first["game"]["you"]["solo_record"] is None
    done = play_out(client, first["id"])
    second = create(client, rules="yatzy+forced")
    assert second["game"]["you"]["solo_record"] == done["totals"][0]
    finished = play_out(client, second["id"])
    assert finished["you"]["solo_record"] == done["totals"][0]
    assert finished["you"]["beats_record"] == (finished["totals"][0] > done["totals"][0])
    other_rules = create(client, rules="yatzy")
    assert other_rules["game"]["you"]["solo_record"] is None
    history = client.get("/api/history").json()
    ids = [h["id"] for h in history]
    assert {first["id"], second["id"], other_rules["id"]} <= set(ids)
    entry = next(h for h in history if h["id"] == first["id"])
    assert entry["finished"] and entry["totals"] == done["totals"] and entry["yours"] == [0]
    page = client.get("/history")
    assert page.status_code == 200 and "forced (boxes are filled top to bottom)" in page.text
    assert TestClient(client.app).get("/api/history").json() == []


# -- documents and pages ---------------------------------------------------------------------------


def test_openapi_and_pages(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    assert "/api/games/{game_id}/actions" in doc["paths"]
    assert client.get("/").status_code == 200
    gid = create(client)["id"]
    page = client.get(f"/g/{gid}")
    assert page.status_code == 200 and f'data-game="{gid}"' in page.text
    rules = client.get("/api/rules").json()
    assert set(rules["variants"]) == {"yatzy", "yahtzee", "maxi", "dubbel"}
    assert {"random", "greedy"} <= set(rules["bots"])


def test_migrations_are_idempotent(db_url: str) -> None:
    from yatzy.store import GameRepository

    repo = GameRepository.open(db_url)
    again = GameRepository.open(db_url)
    assert repo.count() == again.count()
    repo.engine.dispose()
    again.engine.dispose()


def test_bots_resume_after_restart(db_url: str, tmp_path: Path) -> None:
    """A game left with a bot to act is continued by the next server start."""
    from yatzy.game import Game, Player, to_record
    from yatzy.store import GameRepository, SeatInfo, StoredGame

    repo = GameRepository.open(db_url)
    state = Game("yatzy", [Player("Bot", "greedy"), Player("Ann")]).new_initial_state(starter=0)
    import secrets

    gid = secrets.token_hex(16)
    repo.insert(
        StoredGame.new(
            game_id=gid,
            rules="yatzy",
            lang="en",
            pad=False,
            hints=False,
            invite_hash="x",
            record=json.dumps(to_record(state)),
            finished=False,
            seats=[SeatInfo(0, "Bot", "greedy"), SeatInfo(1, "Ann")],
        )
    )
    repo.engine.dispose()
    with TestClient(create_app(db_url, bot_delay=0.0)) as fresh:
        eventually(
            lambda: fresh.get(f"/api/games/{gid}").json()["turn"]["seat"],
            lambda seat: seat != 0,
            interval=0.01,
            what="the bot's move after the restart",
        )
        assert fresh.get(f"/api/games/{gid}").json()["sheets"][0]["total"] >= 0


@pytest.mark.slow
def test_hints_come_from_the_strategy_advisor(client: TestClient) -> None:
    r = client.post(
        "/api/games", json={"hints": True, "pad": True, "seats": [{"name": "A", "here": True}]}
    )
    assert r.status_code == 422 and "score pad" in r.json()["detail"]
    gid = create(client, rules="yatzy+forced", hints=True)["id"]
    hint = eventually(
        lambda: view(client, gid)["turn"]["hint"],
        lambda h: not h.get("pending"),
        timeout=300,
        interval=0.2,
        what="the strategy's hint",
    )
    assert not hint["approximate"] and hint["options"][0]["keep"] == []
    v = act(client, gid, {"roll": []}).json()
    options = v["turn"]["hint"]["options"]
    assert options[0]["loss"] == 0 and options[0]["value"] >= options[-1]["value"]
    # the advice is a legal action: applying it works
    best = options[0]
    action = {"roll": best["keep"]} if best["keep"] is not None else {"score": best["box"]}
    assert act(client, gid, action).status_code == 200


@pytest.mark.slow
def test_post_game_analysis_against_optimal_play(client: TestClient) -> None:
    gid = create(
        client,
        [{"name": "Ann", "here": True}, {"name": "Bot", "bot": "greedy"}],
        rules="yatzy+forced",
    )["id"]
    play_out(client, gid)
    report = eventually(
        lambda: client.get(f"/api/games/{gid}/analysis").json(),
        lambda r: not r.get("pending"),
        timeout=300,
        interval=0.2,
        what="the post-game analysis",
    )
    (ann,) = report["players"]  # people only
    # Ann rolls twice and writes the best-looking box each turn: 15 keeps and 15 boxes
    assert ann["decisions"] == 30 and ann["turns"] == 15
    assert ann["total_loss"] >= 0 and all(w["loss"] > 0 for w in ann["costliest"])
    assert len(ann["costliest"]) <= 5 and report["exact"]
    pad = create(client, pad=True)["id"]
    answer = client.get(f"/api/games/{pad}/analysis")
    assert answer.status_code == 200 and answer.json()["scope"] == "none"


# -- undo ----------------------------------------------------------------------------------------


def test_undo_by_the_writer_until_the_next_roll(client: TestClient) -> None:
    game = create(client, [{"name": "Ann", "here": True}, {"name": "Bo", "here": True}])
    gid = game["id"]
    first = game["game"]["turn"]["seat"]
    second = 1 - first
    v = act(client, gid, {"roll": []}).json()
    dice = v["turn"]["dice"]
    v = act(client, gid, {"scratch": "chance"}).json()
    assert v["undo"] == {"seat": first, "box": "chance", "boxes": ["chance"]}
    assert v["turn"]["seat"] == second
    before = stored_version(client, gid)
    # a browser holding no seat may not; the other seat may not: not its write
    r = TestClient(client.app).post(f"/api/games/{gid}/actions", json={"action": {"undo": True}})
    assert r.status_code == 403, r.text
    r = act(client, gid, {"undo": True}, seat=second)
    assert r.status_code == 409 and "only" in r.json()["detail"], r.text
    assert stored_version(client, gid) == before
    # the writer may, though the turn has passed; the turn comes back with the same dice
    v = act(client, gid, {"undo": True}, seat=first).json()
    assert v["undo"] is None
    assert v["turn"]["seat"] == first and v["turn"]["dice"] == dice
    assert v["sheets"][first]["entries"]["chance"] is None
    r = act(client, gid, {"undo": True}, seat=first)
    assert r.status_code == 422 and "nothing to undo" in r.json()["detail"]
    v = act(client, gid, {"score": "chance"}).json()
    assert v["undo"]["seat"] == first
    # over the WebSocket too
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        json.loads(ws.receive_text())
        answer = socket_act(ws, 3, {"undo": True}, seat=first)
        assert answer["type"] == "state" and answer["game"]["undo"] is None
        answer = socket_act(ws, 4, {"score": "chance"})
        assert answer["game"]["undo"]["seat"] == first
        refused = socket_act(ws, 5, {"undo": True}, seat=second)
        assert refused["type"] == "error" and refused["status"] == 409
    # refused once the next player has rolled
    act(client, gid, {"roll": []})
    for seat in (first, second):
        r = act(client, gid, {"undo": True}, seat=seat)
        assert r.status_code == 422 and "nothing to undo" in r.json()["detail"], r.text
    record = client.get(f"/api/games/{gid}/record").json()
    undone = [t for t in record["turns"] if "undone" in t]
    assert [u["box"] for u in undone[0]["undone"]] == ["chance", "chance"]
    assert undone[0]["box"] == "chance" and "scratch" not in undone[0]


def test_view_names_boxes_as_the_variants_sheet(client: TestClient) -> None:
    v = create(client, rules="yahtzee", lang="en")["game"]
    names = {b["id"]: b["name"] for b in v["boxes"]}
    assert names["yatzy"] == "Yahtzee" and v["labels"]["yatzy_bonus"] == "Yahtzee bonus"
    v = create(client, rules="maxi", lang="sv")["game"]
    names = {b["id"]: b["name"] for b in v["boxes"]}
    assert (names["one_pair"], names["small_straight"]) == ("1 par", "Liten straight")
    v = create(client, rules="yatzy", lang="fi")["game"]
    names = {b["id"]: b["name"] for b in v["boxes"]}
    assert (names["fives"], names["sixes"], names["four_of_a_kind"]) == (
        "Vitoset",
        "Kutoset",
        "Nelosluku",
    )


@pytest.mark.parametrize(
    ("rules", "options"),
    [
        ("yatzy+forced+half_forced", ["forced", "half_forced"]),
        ("yatzy+bonus_threshold=99999", ["bonus_threshold"]),
        ("nosuch", []),
    ],
)
def test_a_refused_rules_spec_names_its_options(
    client: TestClient, rules: str, options: list[str]
) -> None:
    # Issue 24: the start page names the refused house rules as it writes them: the
    # refusal says which options it concerns (their ids; the page has their names).
    r = client.post("/api/games", json={"rules": rules, "seats": [{"name": "Ann"}]})
    assert r.status_code == 422, r.text
    body = r.json()
    assert body["error"] == "SpecError" and body["options"] == options
