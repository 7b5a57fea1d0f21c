"""Tournaments through the API, on SQLite and PostgreSQL: creating, joining and
cancelling (and every hostile way of doing them), a tournament of two rounds played to
the end through the games' normal action route, its standings and podium; duplicate
dice (the same keeps get the same dice at every table, the seed held back until the
round is over); a round's deadline; the clock is the test's."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from tests.e2e.support import next_action
from tests.web.helpers import Browser, conforms
from tests.web.test_web_accounts import CHEAP, CSRF, fresh_name
from tests.web.test_web_api import play_out, view
from yatzy.game import verify_record
from yatzy.web.app import create_app
from yatzy.web.tournament_models import TournamentListView, TournamentView

NOW = datetime(2031, 5, 17, 12, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def app_client(db_url: str) -> Iterator[TestClient]:
    """One app per backend, with cheap password hashing."""
    with TestClient(create_app(db_url, win_chances=False, hasher=CHEAP, bot_delay=0.0)) as c:
        yield c


@pytest.fixture
def clock(app_client: TestClient) -> Iterator[dict[str, datetime]]:
    """The tournaments' clock, set by the test."""
    tournaments = app_client.app.state.tournaments  # type: ignore[attr-defined]
    now = {"t": NOW}
    before = tournaments.clock
    tournaments.clock = lambda: now["t"]
    yield now
    tournaments.clock = before


def person(client: TestClient, base: str) -> Browser:
    browser = Browser(client)
    with browser as c:
        r = c.post(
            "/api/account/signup",
            json={"name": fresh_name(base), "password": "pw pw pw pw"},
            headers=CSRF,
        )
        assert r.status_code == 201, r.text
    return browser


def settings(**kw: Any) -> dict[str, Any]:
    return {
        "name": "Spring cup",
        "rules": "yatzy",
        "lang": "en",
        "starts_at": (NOW + timedelta(hours=1)).isoformat(),
        "rounds": 2,
        "table_size": 2,
        "duplicate": True,
        "public": True,
        "round_minutes": 60,
        **kw,
    }


def create(c: TestClient, **kw: Any) -> dict[str, Any]:
    r = c.post("/api/tournaments", json=settings(**kw), headers=CSRF)
    assert r.status_code == 201, r.text
    conforms(TournamentView, r.json())
    data: dict[str, Any] = r.json()
    return data


def get(c: TestClient, tid: str) -> dict[str, Any]:
    r = c.get(f"/api/tournaments/{tid}")
    assert r.status_code == 200, r.text
    conforms(TournamentView, r.json())
    data: dict[str, Any] = r.json()
    return data


def join(c: TestClient, tid: str) -> Any:
    return c.post(f"/api/tournaments/{tid}/join", headers=CSRF)


def test_create_join_cancel_and_the_hostile_ways(
    client: TestClient, clock: dict[str, datetime]
) -> None:
    ann, bo, cy = person(client, "Ann"), person(client, "Bo"), person(client, "Cy")
    with Browser(client) as guest:
        assert guest.post("/api/tournaments", json=settings(), headers=CSRF).status_code == 401
    with ann as c:
        assert c.post("/api/tournaments", json=settings()).status_code == 403  # no CSRF header
        foreign = {**CSRF, "Origin": "https://evil.example"}
        assert c.post("/api/tournaments", json=settings(), headers=foreign).status_code == 403
        for bad in (
            {"rules": "yatzy+no_such_rule"},
            {"starts_at": (NOW - timedelta(minutes=1)).isoformat()},
            {"starts_at": "2031-05-17T13:00:00"},  # no zone
            {"starts_at": "tomorrow at noon"},
            {"rounds": 11},
            {"rounds": 0},
            {"table_size": 7},
            {"name": ""},
            {"name": "bad\u202ename"},
            {"cap": 1001},
        ):
            r = c.post("/api/tournaments", json=settings(**bad), headers=CSRF)
            assert r.status_code == 422, (bad, r.text)
        assert client.get("/api/tournaments").json()["tournaments"] == []
        t = create(c, rules="maxi+saved_rolls")
        hidden = create(c, public=False)
        small = create(c, cap=1)
    tid = t["id"]
    assert t["state"] == "open" and t["rules"] == "maxi+saved_rolls" and t["players"] == []
    assert t["you"]["creator"] and t["you"]["can_cancel"] and t["you"]["can_join"]
    listed = client.get("/api/tournaments?lang=sv").json()
    conforms(TournamentListView, listed)
    assert {x["id"] for x in listed["tournaments"]} == {tid, small["id"]}  # not the hidden
    assert get(client, hidden["id"])["name"] == "Spring cup"  # by its link
    lobby = client.get("/lobby?lang=fi").text  # the lobby lists the public ones to join
    assert f'href="tournaments/{tid}"' in lobby and f'href="tournaments/{small["id"]}"' in lobby
    assert hidden["id"] not in lobby and "Turnaukset" in lobby
    with bo as c:
        assert c.post(f"/api/tournaments/{tid}/join").status_code == 403  # no CSRF header
        r = join(c, tid)
        assert r.status_code == 200, r.text
        assert r.json()["you"]["joined"] and not r.json()["you"]["can_join"]
        assert join(c, tid).status_code == 409  # twice
        r = c.post(f"/api/tournaments/{tid}/cancel", headers=CSRF)
        assert r.status_code == 403, r.text  # someone else's
        assert join(c, small["id"]).status_code == 200
    with cy as c:
        assert join(c, small["id"]).status_code == 409  # over the cap
        assert c.get(f"/api/tournaments/{small['id']}").json()["you"]["can_join"] is False
    with Browser(client) as guest:
        assert join(guest, tid).status_code == 401
        assert guest.get(f"/api/tournaments/{'0' * 32}").status_code == 404
    with ann as c:
        r = c.post(f"/api/tournaments/{hidden['id']}/cancel", headers=CSRF)
        assert r.status_code == 200 and r.json()["state"] == "cancelled"
        assert join(c, hidden["id"]).status_code == 409
    clock["t"] = NOW + timedelta(hours=1, seconds=1)
    with cy as c:
        assert join(c, tid).status_code == 409  # after the start
    with ann as c:
        assert c.post(f"/api/tournaments/{tid}/cancel", headers=CSRF).status_code == 409
    assert get(client, tid)["players"] == [get(client, tid)["players"][0]]


def seated(people: list[Browser], tid: str) -> dict[str, dict[int, Browser]]:
    """The round's games, each with the browser that holds each seat."""
    out: dict[str, dict[int, Browser]] = {}
    for p in people:
        with p as c:
            gid = get(c, tid)["you"]["game_id"]
            [seat] = view(c, gid)["you"]["seats"]
        out.setdefault(gid, {})[seat] = p
    return out


def play_table(gid: str, seats: dict[int, Browser], max_actions: int = 2000) -> None:
    """Play a table's game to its end, each seat by its own browser."""
    for _ in range(max_actions):
        with next(iter(seats.values())) as c:
            v = view(c, gid)
        if v["finished"]:
            return
        with seats[v["turn"]["seat"]] as c:
            r = c.post(f"/api/games/{gid}/actions", json={"action": next_action(view(c, gid))})
            assert r.status_code == 200, r.text
    raise AssertionError("the game did not end")


def keeps_and_dice(record: dict[str, Any]) -> list[list[Any]]:
    """Each turn's rolls as (kept positions, dice), in order."""
    return [[(r["keep"], r["dice"]) for r in turn["rolls"]] for turn in record["turns"]]


@pytest.mark.slow  # two whole rounds of four players (about 30 CPU-s)
def test_two_rounds_to_the_podium_with_duplicate_dice(
    client: TestClient, clock: dict[str, datetime]
) -> None:
    people = [person(client, n) for n in ("Di", "Ed", "Fy", "Gus")]
    with people[0] as c:
        t = create(c, rounds=2, table_size=2, duplicate=True)
    tid = t["id"]
    for p in people:
        with p as c:
            assert join(c, tid).status_code == 200
    assert get(client, tid)["state"] == "open"
    clock["t"] = NOW + timedelta(hours=1)
    with people[0] as c:
        first = get(c, tid)  # the check on view starts it
    assert first["state"] == "running" and first["round"] == 1
    assert [len(x["players"]) for x in first["tables"]] == [2, 2]
    [r1] = first["round_info"]
    assert r1["commitment"] and r1["seed"] is None and not r1["closed"] and r1["tables"] == []
    # a second look makes nothing new; with duplicate dice nobody sees another
    # table's game while the round is played (it would show the dice of the same keeps)
    assert [x["game_id"] for x in first["tables"]].count(None) == 1
    assert [x["game_id"] for x in get(client, tid)["tables"]] == [None, None]
    games = set()
    for p in people:
        with p as c:
            games |= {x["game_id"] for x in get(c, tid)["tables"]} - {None}
    assert len(games) == 2
    for p in people[:2]:
        with p as c:
            mine = get(c, tid)["you"]["game_id"]
            assert mine in games
            v = view(c, mine)
            assert v["dice"]["mode"] == "duplicate_seat" and v["dice"]["hold_for"]
            assert v["dice"]["commitment"] == r1["commitment"]
            assert not v["dice"]["contributions_open"] and v["hints_switch"] is False
            assert c.post(f"/api/games/{mine}/hints", json={"on": True}).status_code >= 400
            # fair play: no chances and no analysis while the table plays
            assert v["win_chances"] is None
            refused = c.get(f"/api/games/{mine}/analysis")
            assert (refused.status_code, refused.json()["error"]) == (409, "RatedGameError")
    # every person plays their seat by the same rule through the normal action route
    by_game = seated(people, tid)
    first_game, other_game = sorted(by_game)
    play_table(first_game, by_game[first_game])
    rec = client.get(f"/api/games/{first_game}/record").json()
    assert rec["totals"] and "seed" not in rec["dice"]  # the other table plays these dice
    assert get(client, tid)["round"] == 1
    play_table(other_game, by_game[other_game])
    records = [client.get(f"/api/games/{g}/record").json() for g in sorted(games)]
    # the same keeps at the same point of a round (the same place in its order) got
    # the same dice at both tables; the two players of a table, other dice
    a, b = (keeps_and_dice(r) for r in records)
    assert a == b and len(a) == 2 * 15
    assert any(a[i] != a[i + 1] for i in range(0, len(a), 2))
    second = get(client, tid)
    assert second["round"] == 2 and second["state"] == "running"
    r1 = second["round_info"][0]
    assert r1["closed"] and r1["seed"]
    assert {x["game_id"] for x in r1["tables"]} == games  # the round over: every table
    assert second["round_info"][1]["tables"] == []  # the round being played: not yet
    for rec_id in sorted(games):  # revealed, and every die is the seed's
        rec = client.get(f"/api/games/{rec_id}/record").json()
        assert rec["dice"]["seed"] == r1["seed"]
        verify_record(rec)
    totals = {}
    for rec in records:
        for player, total in zip(rec["players"], rec["totals"], strict=True):
            totals[player["name"] if isinstance(player, dict) else player] = total
    lines = {s["name"]: s for s in second["standings"]}
    assert {n: s["rounds"][0] for n, s in lines.items()} == totals
    assert all(s["total"] == s["rounds"][0] for s in lines.values())
    # round 2 seats the leaders together
    order = [s["name"] for s in second["standings"]]
    assert set(second["tables"][0]["players"]) == set(order[:2])
    again_seated = seated(people, tid)
    assert not set(again_seated) & games
    for gid, table in again_seated.items():
        play_table(gid, table)
    done = get(client, tid)
    assert done["state"] == "finished" and done["tables"] == []
    standings = done["standings"]
    for s in standings:
        assert s["total"] == sum(x for x in s["rounds"] if x is not None) and s["live"] is None
    keyed = [(s["total"], s["points"]) for s in standings]
    assert keyed == sorted(keyed, reverse=True)
    assert standings[0]["place"] == 1
    assert done["podium"] == [s for s in standings if s["place"] <= 3]
    assert 3 <= len(done["podium"]) <= 4


def test_a_round_deadline_counts_what_each_has(
    client: TestClient, clock: dict[str, datetime]
) -> None:
    hal, ivy = person(client, "Hal"), person(client, "Ivy")
    with hal as c:
        t = create(c, rounds=1, table_size=1, duplicate=False, round_minutes=5)
    tid = t["id"]
    for p in (hal, ivy):
        with p as c:
            join(c, tid)
    clock["t"] = NOW + timedelta(hours=1)
    with hal as c:
        play_out(c, get(c, tid)["you"]["game_id"])
    running = get(client, tid)
    assert running["state"] == "running"  # Ivy never moved
    hal_line = next(s for s in running["standings"] if s["name"].startswith("Hal"))
    assert hal_line["live"] and hal_line["live"] > 0 and hal_line["total"] == 0
    clock["t"] = NOW + timedelta(hours=1, minutes=5)
    over = get(client, tid)
    assert over["state"] == "finished"
    lines = {s["name"][:3]: s for s in over["standings"]}
    assert lines["Ivy"]["total"] == 0 and lines["Hal"]["total"] > 0
    assert lines["Hal"]["place"] == 1 and lines["Ivy"]["place"] == 2
    assert lines["Hal"]["points"] == 0  # alone at a table: no placement points
    with ivy as c:  # a deleted account keeps its place, under no name
        name = next(s["name"] for s in over["standings"] if s["name"].startswith("Ivy"))
        r = c.post("/api/account/delete", json={"confirm": name}, headers=CSRF)
        assert r.status_code == 200, r.text
    names = [s["name"] for s in get(client, tid)["standings"]]
    assert names[1] == "Anonymous" and not any(n.startswith("Ivy") for n in names)


def test_nobody_joined_cancels_at_the_start(client: TestClient, clock: dict[str, datetime]) -> None:
    with person(client, "Jo") as c:
        t = create(c)
    clock["t"] = NOW + timedelta(hours=2)
    tournaments = client.app.state.tournaments  # type: ignore[attr-defined]
    client.portal.call(tournaments.tick)  # type: ignore[union-attr]  # the periodic task's step
    listed = client.get("/api/tournaments").json()["tournaments"]
    assert t["id"] not in {x["id"] for x in listed}  # cancelled: no longer listed
    assert get(client, t["id"])["state"] == "cancelled"


def test_making_tournaments_has_a_rate_limit(sqlite_url: str) -> None:
    from yatzy.web.limits import Limits, Rate

    limits = replace(Limits.off(), tournament=Rate(1, 2))
    with TestClient(create_app(sqlite_url, hasher=CHEAP, win_chances=False, limits=limits)) as c:
        r = c.post(
            "/api/account/signup", json={"name": "Lim", "password": "pw pw pw pw"}, headers=CSRF
        )
        assert r.status_code == 201, r.text
        start = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
        made = [
            c.post("/api/tournaments", json=settings(starts_at=start), headers=CSRF).status_code
            for _ in range(3)
        ]
        assert made == [201, 201, 429]


def test_two_processes_on_one_postgres_make_a_round_once() -> None:
    """Two app instances (each its own repository, service and tournaments) on one
    PostgreSQL database advance the same tournament at once, twice over: its round 1
    has its tables and games once."""
    import asyncio

    from sqlalchemy import text

    from tests.postgres import pg_or_skip, postgres_database
    from yatzy.store import GameRepository
    from yatzy.store.accounts import AccountStore
    from yatzy.web.service import GameService
    from yatzy.web.tournament_models import CreateTournamentIn
    from yatzy.web.tournaments import TournamentService

    pg_or_skip()
    with postgres_database() as url:

        async def run() -> None:
            repos = [await asyncio.to_thread(GameRepository.open, url) for _ in range(2)]
            try:
                one, two = (TournamentService(GameService(r), clock=lambda: NOW) for r in repos)
                people = AccountStore(repos[0])
                made = [people.create(f"{i:032x}", f"P{i}", f"p{i}", "x", []) for i in range(7)]
                t = await one.create(made[0], CreateTournamentIn(**settings(table_size=3)))
                for account in made:
                    await one.join(t.id, account)
                later = NOW + timedelta(hours=1)
                one.clock = two.clock = lambda: later
                for _ in range(2):
                    await asyncio.gather(one.advance(t.id), two.advance(t.id))
                with repos[0].engine.connect() as conn:
                    games = conn.execute(text("SELECT count(*) FROM games")).scalar_one()
                    seats = conn.execute(text("SELECT count(*) FROM tournament_seats")).scalar_one()
                    rounds = conn.execute(
                        text("SELECT count(*) FROM tournament_rounds")
                    ).scalar_one()
                assert (games, seats, rounds) == (3, 7, 1)  # tables of 3, 2 and 2
                view = await two.view(t.id, made[1], "en")
                assert sorted(len(x["players"]) for x in view["tables"]) == [2, 2, 3]
            finally:
                for r in repos:
                    await r.aclose()
                    r.close()

        asyncio.run(run())


def test_tables_placement_points_and_shared_places() -> None:
    from yatzy.store.tournaments import Player, SeatResult
    from yatzy.web.tournaments import placement_points, split, standings, tables_of

    assert split(10, 4) == [4, 3, 3] and split(7, 3) == [3, 2, 2] and split(5, 1) == [1] * 5
    assert split(0, 4) == [] and split(2, 6) == [2]
    assert tables_of(list("abcdefg"), 3) == [["a", "b", "c"], ["d", "e"], ["f", "g"]]
    assert placement_points([250, 300, 250, 100]) == [2, 3, 2, 0]  # shared 2nd
    assert placement_points([200]) == [0]
    from yatzy.game.fair_dice import die_label

    assert die_label("duplicate_seat", 5, 0, 2, 1, 2) == "round/2/order/1/die/2/draw/1"
    assert die_label("duplicate_seat", 5, 0, 2, 1, 3) == "round/1/order/2/die/2/draw/1"
    t = type("T", (), {"rounds": 2})()
    players = [Player(a, a.upper(), NOW) for a in "abcd"]

    def seat(r: int, a: str, score: int, points: int) -> SeatResult:
        return SeatResult(r, a, a.upper(), 0, "g" * 32, 0, score, points, None, None)

    seats = [
        seat(1, "a", 200, 1),
        seat(1, "b", 250, 0),
        seat(1, "c", 260, 1),
        seat(1, "d", 200, 0),
        seat(2, "a", 260, 1),
        seat(2, "b", 210, 0),
        seat(2, "c", 200, 0),
        seat(2, "d", 260, 1),
    ]
    lines = standings(t, players, seats)  # type: ignore[arg-type]
    # all four total 460: the table points part them, C and D share second place
    assert [(s.name, s.total, s.points, s.place) for s in lines] == [
        ("A", 460, 2, 1),
        ("C", 460, 1, 2),
        ("D", 460, 1, 2),
        ("B", 460, 0, 4),
    ]


@pytest.mark.parametrize("lang", ["sv", "fi", "en"])
def test_the_pages_in_each_language(
    client: TestClient, clock: dict[str, datetime], lang: str
) -> None:
    from yatzy.web.tournament_words import tournament_words

    words = tournament_words(lang)  # type: ignore[arg-type]
    page = client.get(f"/tournaments?lang={lang}")
    assert page.status_code == 200 and words["title"] in page.text
    assert words["login_first"] in page.text  # a guest: no form
    with person(client, "Kim") as c:
        t = create(c, name="Page cup")
        page = c.get(f"/tournaments/{t['id']}?lang={lang}")
        assert page.status_code == 200 and "Page cup" in page.text
        assert words["join"] in page.text and words["cancel"] in page.text
    assert client.get(f"/tournaments/{'0' * 32}").status_code == 404


@pytest.mark.parametrize("lang", ["sv", "fi", "en"])
def test_the_page_asks_only_guests_to_sign_in(client: TestClient, lang: str) -> None:
    """The tournaments page's intro says to sign in to join to a guest, not to a
    signed-in player (who gets the form to make one instead)."""
    from yatzy.web.tournament_words import tournament_words

    tw = tournament_words(lang)  # type: ignore[arg-type]
    with Browser(client) as guest:
        page = guest.get(f"/tournaments?lang={lang}").text
        assert tw["intro_guest"] in page and tw["login_first"] in page
    with person(client, "Tin") as c:
        page = c.get(f"/tournaments?lang={lang}").text
        assert tw["intro"] in page and 'id="tournament-create"' in page
        assert tw["intro_guest"] not in page and tw["login_first"] not in page
