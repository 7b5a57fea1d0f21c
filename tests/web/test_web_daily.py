"""The daily challenges through the API, on SQLite and PostgreSQL: the same dice for
everyone all day, one game per browser, the leaderboard only after playing, the seed
held back until the day is over and then every game of the day verifying; what the
optimal player scored on the same dice."""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator
from datetime import date, timedelta
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from tests.helpers import eventually
from tests.web.helpers import Browser
from tests.web.test_web_api import play_out, view
from yatzy.bots import GreedyBot
from yatzy.errors import RecordError
from yatzy.game import FairDice, Game, verify_record
from yatzy.web import daily as daily_module
from yatzy.web.daily import optimal_total

TODAY = "2031-05-17"
TOMORROW = (date.fromisoformat(TODAY) + timedelta(days=1)).isoformat()


@pytest.fixture
def clock(app_client: TestClient) -> Iterator[dict[str, str]]:
    """The service's day, set by the test (restored after)."""
    service = app_client.app.state.service  # type: ignore[attr-defined]
    now = {"day": TODAY}
    before = service.today
    service.today = lambda: now["day"]
    yield now
    service.today = before


def start(client: TestClient, rules: str = "yatzy", name: str = "Ann") -> Any:
    return client.post(f"/api/daily/{rules}", json={"name": name, "lang": "sv"})


def record(client: TestClient, gid: str) -> dict[str, Any]:
    data: dict[str, Any] = client.get(f"/api/games/{gid}/record").json()
    return data


def dice_seen(client: TestClient, gid: str) -> list[Any]:
    return [r["dice"] for t in record(client, gid)["turns"] for r in t.get("rolls", [])]


def test_everyone_plays_the_same_dice_once_and_the_seed_waits_for_the_day_to_end(
    client: TestClient, clock: dict[str, str]
) -> None:
    overview = client.get("/api/daily?lang=fi").json()
    assert overview["today"] == TODAY
    rules = [c["rules"] for c in overview["challenges"]]
    assert rules == ["yatzy", "yahtzee"]
    commitment = overview["challenges"][0]["commitment"]

    ann, bo = Browser(client), Browser(client)
    with ann as c:
        first = start(c)
        assert first.status_code == 201, first.text
        gid = first.json()["id"]
        again = start(c)  # the same browser carries on with its game
        assert again.status_code == 200 and again.json() == {
            "id": gid,
            "url": f"g/{gid}",
            "existing": True,
        }
        v = view(c, gid)
        assert v["dice"]["mode"] == "duplicate" and v["dice"]["hold_until"] == TODAY
        assert v["dice"]["commitment"] == commitment and not v["dice"]["contributions_open"]
        assert v["hints_switch"] is False
        refused = c.post(f"/api/games/{gid}/hints", json={"on": True})
        assert refused.status_code == 422 and "daily" in refused.json()["detail"]
        no = c.post(f"/api/games/{gid}/contribute", json={"text": "mine"})
        assert no.status_code == 409 and "same for everyone" in no.json()["detail"]
        assert c.get(f"/api/daily/{TODAY}/yatzy").status_code == 403  # play first

        end = play_out(c, gid)
        assert end["finished"] and end["dice"]["seed"] is None  # held all day
        with pytest.raises(RecordError, match="not revealed"):
            verify_record(record(c, gid))
        assert start(c).status_code == 409  # once a day

    with bo as c:
        assert c.get(f"/api/daily/{TODAY}/yatzy").status_code == 403
        bo_gid = start(c, name="Bo").json()["id"]
        bo_end = play_out(c, bo_gid)
        # the same choices (the test's player decides from what it sees) on the same dice
        assert dice_seen(c, bo_gid) == dice_seen(c, gid)
        assert bo_end["totals"] == end["totals"]

        board = c.get(f"/api/daily/{TODAY}/yatzy").json()
        assert [e["name"] for e in board["entries"]] == ["Ann", "Bo"]
        assert [e["place"] for e in board["entries"]] == [1, 1]  # a tie shares the place
        assert board["your_place"] == 1 and board["seed"] is None
        assert [e["yours"] for e in board["entries"]] == [False, True]
    mine = client.get("/api/daily?lang=en").json()["challenges"][0]
    assert mine["players"] >= 2 and mine["game_id"] is None  # a third browser: none yet

    clock["day"] = TOMORROW  # the day is over: its seed is shown, every game verifies
    with bo as c:
        past = c.get(f"/api/daily/{TODAY}/yatzy").json()
        assert past["seed"] and FairDice(bytes.fromhex(past["seed"])).commitment == commitment
        checked = verify_record(record(c, gid))
        assert checked.mode == "duplicate" and checked.commitment == commitment
        assert view(c, gid)["dice"]["seed"] == past["seed"]
        day = c.get("/api/daily").json()["challenges"][0]["calendar"][0]
        assert day["day"] == TODAY and day["players"] == 2 and day["yours"] == end["totals"][0]
        assert day["seed"] == past["seed"]
        # tomorrow's challenge is another one
        assert c.get("/api/daily").json()["challenges"][0]["commitment"] != commitment


def test_refusals(client: TestClient, clock: dict[str, str]) -> None:
    assert start(client, rules="maxi").status_code == 404
    assert client.get(f"/api/daily/{TOMORROW}/yatzy").status_code == 404
    assert client.get("/api/daily/2031-02-30/yatzy").status_code == 422
    assert client.get("/api/daily/2031-5-1/yatzy").status_code == 422
    assert client.get("/api/daily/2020-01-01/yatzy").status_code == 404  # nobody played
    for name in ("", "x" * 41):
        assert start(client, name=name).status_code == 422
    r = start(client, name="=HYPERLINK(1)")
    assert r.status_code in (201, 422)  # names are checked as everywhere else


def test_the_optimal_players_score_on_the_same_dice(
    client: TestClient, clock: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Standing in for the optimal bot (whose tables a test does not build): the
    # greedy player, which must score what it scores on the same dice stream.
    monkeypatch.setattr(daily_module, "bot_for", lambda level, rules: (GreedyBot(), False))
    seed = bytes(range(32))
    total = optimal_total("yatzy", seed)
    state = Game("yatzy", ["G"]).new_initial_state()
    dealer, rng, bot = FairDice(seed, "duplicate"), random.Random(0), GreedyBot()
    while not state.is_terminal():
        if state.is_chance_node():
            state.roll(dealer)
        else:
            state.apply(bot.choose(state, rng))
    assert total == state.totals()[0]
    monkeypatch.setattr(daily_module, "bot_for", lambda level, rules: (GreedyBot(), True))
    assert optimal_total("yatzy", seed) is None  # its tables are being prepared

    monkeypatch.setattr(daily_module, "bot_for", lambda level, rules: (GreedyBot(), False))
    with Browser(client) as c:
        gid = start(c, rules="yahtzee", name="Cy").json()["id"]
        play_out(c, gid)
        board = eventually(
            lambda: c.get(f"/api/daily/{TODAY}/yahtzee").json(),
            lambda b: b["optimal_total"] is not None,
            what="the optimal player's score",
        )
        assert board["optimal_total"] > 0
        page = c.get(f"/daily?day={TODAY}&rules=yahtzee&lang=sv")
        assert page.status_code == 200
        assert f"{board['optimal_total']}\u00a0poäng med samma tärningar" in page.text


def test_an_account_takes_the_browsers_challenges_along_and_leaves_them_anonymous(
    client: TestClient, clock: dict[str, str]
) -> None:
    csrf = {"X-Yatzy-CSRF": "1"}
    with Browser(client) as c:
        gid = start(c, rules="yahtzee", name="Dana").json()["id"]
        play_out(c, gid)
        signed = c.post(
            "/api/account/signup", json={"name": "Dana", "password": "correct horse"}, headers=csrf
        )
        assert signed.status_code == 201, signed.text
        # the account holds the browser's challenge: played once, its leaderboard open
        assert start(c, rules="yahtzee", name="Dana").status_code == 409
        board = c.get(f"/api/daily/{TODAY}/yahtzee").json()
        assert [e["name"] for e in board["entries"] if e["yours"]] == ["Dana"]
        gone = c.post("/api/account/delete", json={"confirm": "Dana"}, headers=csrf)
        assert gone.status_code == 200, gone.text
    clock["day"] = TOMORROW
    with Browser(client) as c:
        past = c.get(f"/api/daily/{TODAY}/yahtzee").json()
        names = [e["name"] for e in past["entries"]]
        assert "Dana" not in names and "Anonym" in names  # the game was in Swedish
        assert not any(e["yours"] for e in past["entries"])
