"""Verifiable dice in the web app, on SQLite and PostgreSQL: the commitment in every
view before the first roll, the players' contributions, the seed revealed only when
the game is over, and the finished record verifying die by die."""

from __future__ import annotations

import copy
import hashlib
import warnings
from typing import Any

import orjson
import pytest
from sqlalchemy import text as sql

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from tests.web.helpers import Browser
from tests.web.test_web_api import act, create, play_out, view, wait_for_person
from yatzy.errors import RecordError
from yatzy.game import verify_record
from yatzy.game.fair_dice import SCHEME, DiceMismatchError


def record(client: TestClient, gid: str) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}/record")
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def contribute(client: TestClient, gid: str, text: str) -> Any:
    return client.post(f"/api/games/{gid}/contribute", json={"text": text})


def test_a_game_against_the_computer_verifies_die_by_die(client: TestClient) -> None:
    game = create(
        client,
        [{"name": "Ann", "here": True}, {"name": "Bot", "bot": "greedy"}],
        entropy="Ann's phone: 4f9a2c",
    )
    gid = game["id"]
    dice = game["game"]["dice"]
    assert dice["scheme"] == SCHEME and dice["mode"] == "standard"
    assert dice["contributions"] == ["Ann's phone: 4f9a2c"]
    assert dice["seed"] is None and len(dice["commitment"]) == 64
    # the roll-off is dealt already, yet contributions stay open until the first roll
    assert game["game"]["rolloff"] and dice["contributions_open"]
    secret = record(client, gid)
    assert "seed" not in secret["dice"] and secret["dice"]["commitment"] == dice["commitment"]
    with pytest.raises(RecordError, match="not revealed"):
        verify_record(secret)

    end = play_out(client, gid)
    revealed = end["dice"]
    assert revealed["commitment"] == dice["commitment"]  # what was promised at the start
    assert hashlib.sha256(bytes.fromhex(revealed["seed"])).hexdigest() == dice["commitment"]
    assert not revealed["contributions_open"]
    data = record(client, gid)
    checked = verify_record(data)
    assert checked.commitment == dice["commitment"] and checked.dice >= 15 * 5
    # one die changed anywhere is named
    tampered = copy.deepcopy(data)
    roll = tampered["turns"][3]["rolls"][0]
    roll["dice"][0] = roll["dice"][0] % 6 + 1
    with pytest.raises(DiceMismatchError, match="turn 4"):
        verify_record(tampered)


def test_each_player_adds_to_the_dice_once_before_the_first_roll(client: TestClient) -> None:
    game = create(client, [{"name": "Ann", "here": True}, {"name": "Bo"}])
    gid, invite = game["id"], game["invite"]
    assert game["game"]["dice"]["contributions"] == []
    ann, bo, spectator = Browser(client), Browser(client), Browser(client)
    ann.jar = dict(client.cookies.items())
    with spectator as c:
        r = contribute(c, gid, "not a player")
        assert r.status_code == 403 and "player" in r.json()["detail"]
    with bo as c:
        joined = c.post(f"/api/games/{gid}/join", json={"invite": invite, "seat": 1})
        assert joined.status_code == 200
        r = contribute(c, gid, "Bo's laptop 77")
        assert r.status_code == 200, r.text
        assert r.json()["dice"]["contributions"] == ["Bo's laptop 77"]
        again = contribute(c, gid, "twice")
        assert again.status_code == 409 and "already" in again.json()["detail"]
    with ann as c:
        for bad in ("", "x" * 65, "bell\a"):
            assert contribute(c, gid, bad).status_code == 422
    with spectator as c:
        assert view(c, gid)["dice"]["contributions"] == ["Bo's laptop 77"]
    with ann as c:
        assert contribute(c, gid, "Ann 1").status_code == 200
    with spectator as c:
        shown = view(c, gid)["dice"]
        assert shown["contributions"] == ["Bo's laptop 77", "Ann 1"]
        first = view(c, gid)
    # the first roll closes them
    roller, other = (ann, bo) if first["turn"]["seat"] == 0 else (bo, ann)
    with roller as c:
        assert act(c, gid, {"roll": []}).status_code == 200
    with other as c:
        late = contribute(c, gid, "late")
        assert late.status_code == 409 and "first die" in late.json()["detail"]
    with spectator as c:
        assert not view(c, gid)["dice"]["contributions_open"]
        # the moves log shows who added what
        moves = c.get(f"/api/games/{gid}/moves").json()
    added = [(m["seat"], m["action"]["contribute"]) for m in moves if "contribute" in m["action"]]
    assert added == [(1, "Bo's laptop 77"), (0, "Ann 1")]


def test_a_score_pad_has_no_dealt_dice(client: TestClient) -> None:
    game = create(client, [{"name": "Ann", "here": True}], pad=True)
    assert game["game"]["dice"] is None
    seats = [{"name": "A", "here": True}]
    r = client.post("/api/games", json={"pad": True, "seats": seats, "entropy": "x"})
    assert r.status_code == 422 and "pad" in r.json()["detail"]
    assert contribute(client, game["id"], "x").status_code == 422


def test_a_game_stored_before_verifiable_dice_plays_on(client: TestClient) -> None:
    service = client.app.state.service  # type: ignore[attr-defined]
    game = create(client, [{"name": "Ann", "here": True}, {"name": "Bot", "bot": "random"}])
    gid = game["id"]
    # as an older server stored it: a record without a dice block, no seed row
    with service.repo.engine.begin() as conn:
        conn.exec_driver_sql(f"DELETE FROM dice_seeds WHERE game_id = '{gid}'")
        row = conn.exec_driver_sql(f"SELECT record FROM games WHERE id = '{gid}'").scalar_one()
    data = orjson.loads(row)
    del data["dice"]
    _bump(service, gid, orjson.dumps(data).decode())
    v = wait_for_person(client, gid)
    assert v["dice"] is None
    end = play_out(client, gid)
    assert end["finished"] and end["dice"] is None
    with pytest.raises(RecordError, match="no dice proof"):
        verify_record(record(client, gid))


def _bump(service: Any, gid: str, text: str) -> None:
    """Rewrite a game's record as stored and bump its version, so every process reloads it."""
    with service.repo.engine.begin() as conn:
        conn.execute(
            sql("UPDATE games SET record = :r, version = version + 1 WHERE id = :id"),
            {"r": text, "id": gid},
        )
    service.forget(gid, 10**9)


def test_a_missing_seed_is_refused_not_replaced(client: TestClient) -> None:
    service = client.app.state.service  # type: ignore[attr-defined]
    game = create(client, [{"name": "Ann", "here": True}, {"name": "Bot", "bot": "random"}])
    gid = game["id"]
    wait_for_person(client, gid)
    with service.repo.engine.begin() as conn:
        conn.exec_driver_sql(f"DELETE FROM dice_seeds WHERE game_id = '{gid}'")
    service.forget(gid, 10**9)
    service._dealers.pop(gid, None)  # as in a process that never saw it
    r = act(client, gid, {"roll": []})
    assert r.status_code == 422 and "seed" in r.json()["detail"]


def test_duplicate_dice_give_everyone_the_same_rolls_for_the_same_keeps(
    client: TestClient,
) -> None:
    seats = [{"name": "Ann", "here": True}, {"name": "Bo", "here": True}]
    game = create(client, seats, dice="duplicate")
    gid = game["id"]
    assert game["game"]["dice"]["mode"] == "duplicate"
    seen: list[list[Any]] = []
    for _ in range(2):  # each seat's first turn: roll, keep the sixes, roll again
        v = view(client, gid)
        assert act(client, gid, {"roll": []}).status_code == 200
        first = view(client, gid)["turn"]["dice"]
        sixes = [i for i, d in enumerate(first) if d == 6][:4]  # never all five
        assert act(client, gid, {"roll": sixes}).status_code == 200
        second = view(client, gid)["turn"]["dice"]
        seen.append([first, second])
        assert v["turn"] is not None
        assert act(client, gid, {"scratch": "chance"}).status_code == 200
    assert seen[0] == seen[1]
    end = play_out(client, gid)
    assert verify_record(record(client, gid)).mode == "duplicate"
    assert end["dice"]["mode"] == "duplicate"
    r = client.post("/api/games", json={"seats": seats, "dice": "loaded"})
    assert r.status_code == 422
    r = client.post("/api/games", json={"seats": seats, "dice": "duplicate", "pad": True})
    assert r.status_code == 422 and "pad" in r.json()["detail"]
