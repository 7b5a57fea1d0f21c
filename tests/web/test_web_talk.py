"""Preset phrases between players, on SQLite and PostgreSQL: said by a seat's holder
during the game and after it, refused to spectators and for unknown phrases, kept in
the moves, heard by another server process, and limited per client."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from tests.web.helpers import Browser
from tests.web.test_web_api import create, play_out, view
from tests.web.test_web_cache import two_services  # noqa: F401 - the fixture
from yatzy.web.app import create_app
from yatzy.web.limits import Limits
from yatzy.web.service import SeatRequest
from yatzy.web.talk import PHRASES


def say(client: TestClient, gid: str, phrase: str) -> Any:
    return client.post(f"/api/games/{gid}/say", json={"phrase": phrase})


def test_players_say_phrases_and_everyone_reads_them(client: TestClient) -> None:
    game = create(client, [{"name": "Ann", "here": True}, {"name": "Bo"}])
    gid, invite = game["id"], game["invite"]
    ann, bo, spectator = Browser(client), Browser(client), Browser(client)
    ann.jar = dict(client.cookies.items())
    with bo as c:
        assert (
            c.post(f"/api/games/{gid}/join", json={"invite": invite, "seat": 1}).status_code == 200
        )
    with ann as c:
        r = say(c, gid, "good_luck")
        assert r.status_code == 200, r.text
        assert [(t["seat"], t["phrase"]) for t in r.json()["talk"]] == [(0, "good_luck")]
    with bo as c:
        assert say(c, gid, "thanks").status_code == 200
        for bad in ("hurry_up", "GOOD_LUCK", "x" * 41, ""):
            assert say(c, gid, bad).status_code == 422
    with spectator as c:
        refused = say(c, gid, "hello")
        assert refused.status_code == 403 and "player" in refused.json()["detail"]
        talk = view(c, gid)["talk"]
        assert [(t["seat"], t["phrase"]) for t in talk] == [(0, "good_luck"), (1, "thanks")]
        moves = c.get(f"/api/games/{gid}/moves").json()
    said = [(m["seat"], m["action"]["say"]) for m in moves if "say" in m["action"]]
    assert said == [(0, "good_luck"), (1, "thanks")]
    with ann as c:  # the game goes on as before
        assert c.post(f"/api/games/{gid}/actions", json={"action": {"roll": []}}).status_code in (
            200,
            403,
        )


def test_after_the_game_and_the_solo_record_stays(client: TestClient) -> None:
    gid = create(client)["id"]
    end = play_out(client, gid)
    total = end["totals"][0]
    assert say(client, gid, "well_played").status_code == 200
    after = view(client, gid)
    assert after["finished"] and after["totals"] == [total]
    assert [t["phrase"] for t in after["talk"]] == ["well_played"]
    history = client.get("/api/history").json()
    assert any(g["id"] == gid and g["totals"] == [total] for g in history)


def test_another_process_hears_it(two_services: tuple[Any, Any]) -> None:  # noqa: F811
    a, b = two_services
    created = a.create("yatzy", "en", [SeatRequest("Ann", here=True), SeatRequest("Bo")])
    b.load(created.game_id)  # b holds the game in memory
    a.say(created.game_id, "hello", created.tokens)
    stored, _ = b.load(created.game_id)
    assert [(t["seat"], t["phrase"]) for t in b.talk.lines(created.game_id)] == [(0, "hello")]
    assert b.game_view(stored, b.load(created.game_id)[1])["talk"][0]["phrase"] == "hello"


def test_talk_is_limited_per_client(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'talk.db'}", limits=Limits(), bot_delay=0.0)
    with TestClient(app) as c:
        gid = create(c)["id"]
        answers = [say(c, gid, PHRASES[i % len(PHRASES)]).status_code for i in range(8)]
        assert answers[:4] == [200] * 4 and 429 in answers
        refused = say(c, gid, "hello")
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
