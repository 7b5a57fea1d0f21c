"""Rated games over the API (issue 27), on SQLite and PostgreSQL: made only between
signed-in people; hints, undo and the analysis refused to everyone while the game
runs and the analysis given after; the ratings updated once although two processes
see the game end; the analysis kept for the skill index; the leaderboard."""

from __future__ import annotations

import threading
import warnings
from collections.abc import Iterator
from typing import Any

import orjson
import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from tests.e2e.support import next_action
from tests.helpers import eventually
from tests.web.helpers import Browser
from tests.web.test_web_turns import signed_up
from yatzy.game import from_record
from yatzy.store import GameRepository
from yatzy.web.app import create_app
from yatzy.web.rated import RatedGames
from yatzy.web.service import GameService

CHEAP_APP: dict[str, Any] = {"win_chances": False, "bot_delay": 0.0}


@pytest.fixture(scope="module")
def app_client(db_url: str) -> Iterator[TestClient]:
    """One app per backend, with cheap password hashing."""
    from tests.web.test_web_accounts import CHEAP

    with TestClient(create_app(db_url, hasher=CHEAP, **CHEAP_APP)) as c:
        yield c


def view(c: TestClient, gid: str) -> dict[str, Any]:
    r = c.get(f"/api/games/{gid}")
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def rated_duel(client: TestClient) -> tuple[Browser, Browser, dict[str, Any], str, str]:
    """Two signed-in people in a rated game: Anna made it in seat 0, Bo joined seat 1."""
    anna, anna_name = signed_up(client, "Ann")
    bo, bo_name = signed_up(client, "Bo")
    with anna as c:
        r = c.post(
            "/api/games",
            json={"rated": True, "seats": [{"name": anna_name, "here": True}, {"name": bo_name}]},
        )
        assert r.status_code == 201, r.text
        game: dict[str, Any] = r.json()
    with bo as c:
        r = c.post(f"/api/games/{game['id']}/join", json={"invite": game["invite"], "seat": 1})
        assert r.status_code == 200, r.text
    return anna, bo, game, anna_name, bo_name


def play_both(players: dict[int, Browser], gid: str, until_writes: int | None = None) -> None:
    """Play the game's seats, each with the browser that holds it, until it is over
    (or ``until_writes`` boxes were written)."""
    writes = 0
    for _ in range(3000):
        with players[0] as c:
            v = view(c, gid)
        if v["finished"] or (until_writes is not None and writes >= until_writes):
            return
        action = next_action(v)
        with players[v["turn"]["seat"]] as c:
            r = c.post(f"/api/games/{gid}/actions", json={"action": action})
            assert r.status_code == 200, r.text
        writes += "score" in action or "scratch" in action
    raise AssertionError("the game did not end")


def test_rated_games_are_between_signed_in_people(client: TestClient) -> None:
    anna, name = signed_up(client, "Ann")
    seats = [{"name": name, "here": True}, {"name": "Other"}]
    with Browser(client) as c:  # a guest
        r = c.post("/api/games", json={"rated": True, "seats": seats})
        assert (r.status_code, r.json()["error"]) == (403, "RatedAccountError")
    with anna as c:
        for refused in (
            [{"name": name, "here": True}, {"name": "B", "bot": "greedy"}],  # a bot
            [{"name": name, "here": True}],  # alone
            [{"name": name, "here": True}, {"name": "Me again", "here": True}],  # two seats
        ):
            r = c.post("/api/games", json={"rated": True, "seats": refused})
            assert (r.status_code, r.json()["error"]) == (422, "RatedSetupError"), refused
        r = c.post("/api/games", json={"rated": True, "hints": True, "seats": seats})
        assert r.status_code == 422
        game = c.post("/api/games", json={"rated": True, "seats": seats}).json()
        assert game["game"]["rated"] is True
        # Always timed: 3 days a turn when made without a clock; a chosen clock is kept.
        assert (game["game"]["clock"]["mode"], game["game"]["clock"]["days"]) == ("daily", 3)
        live = {"mode": "live", "seconds": 120}
        kept = c.post("/api/games", json={"rated": True, "seats": seats, "clock": live}).json()
        assert (kept["game"]["clock"]["mode"], kept["game"]["clock"]["seconds"]) == ("live", 120)
        again = c.post(f"/api/games/{game['id']}/join", json={"invite": game["invite"], "seat": 1})
        assert again.status_code == 403  # one seat per account
    with Browser(client) as c:  # a guest may not take the other seat
        r = c.post(f"/api/games/{game['id']}/join", json={"invite": game["invite"], "seat": 1})
        assert (r.status_code, r.json()["error"]) == (403, "RatedAccountError")
        assert view(c, game["id"])["players"][1]["claimed"] is False


@pytest.mark.slow  # a rated game played out and analysed (about 7 CPU-s)
def test_no_hints_undo_or_analysis_while_it_runs_then_ratings_once(
    client: TestClient, db_url: str
) -> None:
    anna, bo, game, _, _ = rated_duel(client)
    gid = game["id"]
    players = {0: anna, 1: bo}
    play_both(players, gid, until_writes=1)
    for who in (anna, bo, Browser(client)):  # both players and a spectator
        with who as c:
            v = view(c, gid)
            assert v["rated"] and v["hints_switch"] is False and v["undo"] is None
            r = c.get(f"/api/games/{gid}/analysis")
            assert (r.status_code, r.json()["error"]) == (409, "RatedGameError")
    with anna as c:
        r = c.post(f"/api/games/{gid}/hints", json={"on": True}, headers={"X-Yatzy-CSRF": "1"})
        assert (r.status_code, r.json()["error"]) == (409, "RatedGameError")
        r = c.post(f"/api/games/{gid}/actions", json={"action": {"undo": True}})
        assert (r.status_code, r.json()["error"]) == (409, "RatedGameError")
    play_both(players, gid)
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    # A second process sees the same game end at the same time.
    other = GameService(GameRepository.open(db_url))
    state = other.repo.get(gid)
    assert state.finished
    final = from_record(orjson.loads(state.record))
    racers = [
        threading.Thread(target=r.settle_now, args=(gid, final))
        for r in (other.rated, RatedGames(GameRepository.open(db_url)))
    ]
    for t in racers:
        t.start()
    for t in racers:
        t.join(60)
    service.rated.wait(300)
    other.rated.wait(300)
    rated = service.rated.store.rated_game(gid)
    assert rated is not None and rated.rated
    for seat, account in rated.seats.items():
        (mine,) = service.rated.store.ratings_of(account)
        assert mine.games == 1  # rated once
        assert len(service.rated.store.history(account, "yatzy")) == 1
        won = final.totals()[seat] > final.totals()[1 - seat]
        assert (mine.mu > 25) == won or final.totals()[0] == final.totals()[1]
    with Browser(client) as c:  # after the game: the analysis for everyone
        r = c.get(f"/api/games/{gid}/analysis")
        assert r.status_code == 200, r.text
    kept = eventually(
        lambda: service.rated.store.skill_games(rated.seats[0]),
        lambda games: len(games) == 1,
        timeout=300,
        interval=0.2,
        what="the rated game's analysis",
    )
    assert kept[0].decisions > 0 and kept[0].exact


def account_id(client: TestClient, name: str) -> str:
    """The id of the account called ``name``."""
    from yatzy.web.accounts import name_key

    found = client.app.state.accounts.store.by_name(name_key(name))  # type: ignore[attr-defined]
    assert found is not None
    return str(found.id)


def _rated_rows(service: GameService, accounts: list[str], games: int) -> None:
    """``games`` finished rated games among ``accounts``, the first always first
    (straight into the store, as the server writes them)."""
    import secrets

    from yatzy.analysis.rating import update_ratings
    from yatzy.store import SeatInfo, StoredGame
    from yatzy.store.ratings import SkillGame

    store = service.rated.store
    for _ in range(games):
        gid = secrets.token_hex(16)
        seats = [SeatInfo(i, f"P{i}") for i in range(len(accounts))]
        service.repo.insert(
            StoredGame.new(gid, "yatzy", "en", False, False, "x" * 64, "{}", True, seats)
        )
        store.mark_rated(gid, "yatzy", dict(enumerate(accounts)))
        results = [(a, 300 - 50 * i) for i, a in enumerate(accounts)]
        store.settle(gid, results, lambda before, r=results: update_ratings("yatzy", before, r))
        store.record_analysis(
            gid,
            [SkillGame(a, gid, 40, 3.0 + 20 * i, 30 - 5 * i, True) for i, a in enumerate(accounts)],
        )


def test_leaderboards_and_profiles(client: TestClient) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    people = [signed_up(client, base) for base in ("Lea", "Max", "Nea")]
    ids = [account_id(client, name) for _, name in people]
    _rated_rows(service, ids[:2], 10)  # Lea beats Max ten times
    _rated_rows(service, [ids[2], ids[0]], 1)  # Nea: one game, under every minimum
    names = [n for _, n in people]
    for by in ("rating", "skill"):
        r = client.get("/api/leaderboard", params={"family": "yatzy", "by": by, "period": "all"})
        assert r.status_code == 200, r.text
        rows = [row["name"] for row in r.json()["rows"] if row["name"] in names]
        assert rows == names[:2], (by, r.json())  # the stronger first, Nea left out
        top = next(row for row in r.json()["rows"] if row["name"] == names[0])
        assert top["games"] == 11 and top["rating"] > 1500
    today = client.get("/api/leaderboard", params={"period": "day", "by": "skill"}).json()
    assert today["min_games"] == 3 and names[0] in [row["name"] for row in today["rows"]]
    assert client.get("/api/leaderboard", params={"by": "luck"}).status_code == 422
    me = client.get(f"/api/players/{names[0]}", params={"lang": "sv"}).json()
    assert me["ratings"][0]["games"] == 11 and not me["ratings"][0]["provisional"]
    assert me["skill"]["band"] == "strong" and "Stark" in me["skill"]["words"]
    assert client.get("/api/players/nobody-at-all").status_code == 404
    assert client.get("/api/account/ratings").status_code == 401
    with people[2][0] as c:
        mine = c.get("/api/account/ratings").json()
        assert mine["ratings"][0]["provisional"] is True
        page = c.get("/account?lang=fi").text
        assert "Taitoindeksi" in page
    for lang, word in (("sv", "Topplistor"), ("fi", "Tulostaulut"), ("en", "Leaderboards")):
        page = client.get(f"/leaderboard?lang={lang}&by=skill&period=month")
        assert page.status_code == 200 and word in page.text
        assert names[0] in page.text and names[2] not in page.text
    assert names[0] in client.get(f"/players/{names[0]}").text


@pytest.mark.slow  # twenty analysed rated games (about 10 CPU-s)
def test_a_player_who_plays_like_the_solver_is_flagged_for_review(client: TestClient) -> None:
    """Ten rated games' analyses of the optimal bot (the server's own job) flag its
    account for review; a Casual player's do not.  Nothing is shown publicly."""
    import random

    from yatzy.bots import make_bot
    from yatzy.game import Game
    from yatzy.store.ratings import SkillGame
    from yatzy.web.rated import rated_analysis_job

    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    people = [signed_up(client, base) for base in ("Opt", "Cas")]
    ids = [account_id(client, name) for _, name in people]
    rng = random.Random(7)
    bots = [make_bot("optimal"), make_bot("casual")]
    _rated_rows(service, ids, 0)
    for _ in range(10):
        import secrets

        from yatzy.game import to_record
        from yatzy.store import SeatInfo, StoredGame

        state = Game("yatzy", ["A", "B"]).new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.roll(rng)
            else:
                state.apply(bots[state.current_player()].choose(state, rng))
        result = rated_analysis_job({"record": to_record(state)})
        gid = secrets.token_hex(16)
        service.repo.insert(
            StoredGame.new(
                gid,
                "yatzy",
                "en",
                False,
                False,
                "x" * 64,
                "{}",
                True,
                [SeatInfo(0, "A"), SeatInfo(1, "B")],
            )
        )
        service.rated.store.mark_rated(gid, "yatzy", {0: ids[0], 1: ids[1]})
        service.rated.store.record_analysis(
            gid,
            [
                SkillGame(ids[s], gid, p["decisions"], p["total_loss"], p["best"], True)
                for s, p in ((int(k), v) for k, v in result["players"].items())
            ],
        )
    assert service.rated.review(ids[0], "yatzy") is True
    assert service.rated.review(ids[1], "yatzy") is False
    flagged = {f.account_id for f in service.rated.store.flags()}
    assert ids[0] in flagged and ids[1] not in flagged
    name = people[0][1]
    assert "review" not in client.get(f"/api/players/{name}").text


@pytest.mark.slow  # a rated game played out and a second app started (about 20 CPU-s)
def test_a_restarted_server_settles_a_rated_game_left_unrated(
    client: TestClient, db_url: str
) -> None:
    """A process that stopped between a rated game's last move and its rating: the
    next server's start rates and analyses it (once)."""
    from sqlalchemy import delete, update

    from tests.web.test_web_accounts import CHEAP
    from yatzy.store.ratings import HISTORY, RATED_GAMES, RATINGS, SKILL_GAMES

    anna, bo, game, _, _ = rated_duel(client)
    gid = game["id"]
    play_both({0: anna, 1: bo}, gid)
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    service.rated.wait(300)
    store = service.rated.store
    rated = store.rated_game(gid)
    assert rated is not None
    eventually(lambda: store.skill_games(rated.seats[0]), bool, timeout=300, what="the analysis")
    accounts = list(rated.seats.values())
    with service.repo.write_connection() as conn, conn.begin():  # as if never settled
        conn.execute(
            update(RATED_GAMES)
            .where(RATED_GAMES.c.game_id == gid)
            .values(rated_at=None, analysed_at=None)
        )
        for table in (HISTORY, SKILL_GAMES, RATINGS):
            conn.execute(delete(table).where(table.c.account_id.in_(accounts)))
    assert gid in store.unsettled()
    with TestClient(create_app(db_url, hasher=CHEAP, **CHEAP_APP)) as again:
        other: GameService = again.app.state.service  # type: ignore[attr-defined]
        other.rated.wait(300)
        eventually(
            lambda: [store.skill_games(a) for a in accounts],
            lambda found: all(len(f) == 1 for f in found),
            timeout=300,
            what="the analysis after the restart",
        )
    for account in accounts:
        assert store.ratings_of(account)[0].games == 1
    assert gid not in store.unsettled()


def test_a_rated_game_never_holds_its_last_write(client: TestClient) -> None:
    """A rated game takes nothing back: its last box ends it at once (no ``ends_game``
    for the page to hold it by)."""
    anna, bo, game, _, _ = rated_duel(client)
    gid = game["id"]
    players = {0: anna, 1: bo}
    for _ in range(400):
        with anna as c:
            v = view(c, gid)
        turn = v["turn"]
        assert not turn["ends_game"] and "hold_for" not in turn
        still_open = sum(e is None for sheet in v["sheets"] for e in sheet["entries"].values())
        if still_open == 1 and turn["dice"] is not None:  # the game's last box
            break
        action = next_action(v, 1)
        with players[turn["seat"]] as c:
            assert c.post(f"/api/games/{gid}/actions", json={"action": action}).status_code == 200
    else:
        raise AssertionError("the game never reached its last box")
    with players[turn["seat"]] as c:
        r = c.post(f"/api/games/{gid}/actions", json={"action": next_action(v, 1)})
        assert r.status_code == 200 and r.json()["finished"], r.text
