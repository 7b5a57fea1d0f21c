"""Timed games (issue 26), on SQLite and PostgreSQL, with the server's clock injected
and advanced by the tests (no test sleeps for it): a live game whose player runs out
of time and the other chooses the computer (which finishes the seat, the game ends
normally) or the end of the game; a player who comes back; two app instances on one
database acting once on the same overdue game; a daily game across days; and
hostile requests (bad clock values, choices by strangers, choosing twice)."""

from __future__ import annotations

import threading
import warnings
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from tests.e2e.support import next_action
from tests.helpers import eventually
from tests.web.helpers import Browser, conforms
from tests.web.test_web_accounts import CHEAP, CSRF
from yatzy.store.retention import prune
from yatzy.web.app import create_app
from yatzy.web.clocks import GRACE, SettableClock
from yatzy.web.models import GameView

CLOCK = SettableClock(datetime.fromisoformat("2026-11-26T12:00:00+00:00"))


@pytest.fixture(scope="module")
def app_client(db_url: str) -> Iterator[TestClient]:
    """One app per backend on the module's settable clock (the computer that stands
    in plays greedily: no strategy table to build in a test)."""
    app = create_app(
        db_url, bot_delay=0.0, win_chances=False, hasher=CHEAP, clock=CLOCK, stand_in="greedy"
    )
    with TestClient(app) as c:
        yield c


class Duel:
    """A timed game of two people on their own devices: Ann (seat 0) and Bo (seat 1)."""

    def __init__(self, client: TestClient, clock: dict[str, Any], **kw: Any) -> None:
        self.client = client
        self.ann, self.bo = Browser(client), Browser(client)
        with self.ann as c:
            r = c.post(
                "/api/games",
                json={
                    "seats": [{"name": "Ann", "here": True}, {"name": "Bo"}],
                    "clock": clock,
                    **kw,
                },
            )
            assert r.status_code == 201, r.text
            self.created = r.json()
            self.id: str = self.created["id"]
        with self.bo as c:
            r = c.post(
                f"/api/games/{self.id}/join", json={"invite": self.created["invite"], "seat": 1}
            )
            assert r.status_code == 200, r.text

    def browser(self, seat: int) -> Browser:
        return self.ann if seat == 0 else self.bo

    def view(self, seat: int = 0) -> dict[str, Any]:
        with self.browser(seat) as c:
            r = c.get(f"/api/games/{self.id}")
            assert r.status_code == 200, r.text
            conforms(GameView, r.json())
            data: dict[str, Any] = r.json()
            return data

    def choose(self, seat: int, choice: str, headers: dict[str, str] | None = None) -> Any:
        with self.browser(seat) as c:
            return c.post(
                f"/api/games/{self.id}/clock",
                json={"choice": choice},
                headers=CSRF if headers is None else headers,
            )

    def act(self, seat: int, action: dict[str, Any]) -> Any:
        with self.browser(seat) as c:
            return c.post(f"/api/games/{self.id}/actions", json={"action": action})

    def person_to_move(self) -> dict[str, Any]:
        """The view once no computer is to move (they play in the background)."""

        def settled(v: dict[str, Any]) -> bool:
            turn = v["turn"]
            return v["finished"] or turn["seat"] not in v["clock"]["computer"]

        return eventually(lambda: self.view(), settled, interval=0.005, what="the computer")

    def play_turn(self, seat: int) -> dict[str, Any]:
        """Play ``seat``'s whole turn (to its write); the view after it."""
        v = self.view(seat)
        assert v["turn"]["seat"] == seat
        while True:
            r = self.act(seat, next_action(v))
            assert r.status_code == 200, r.text
            v = r.json()
            if v["finished"] or v["turn"]["seat"] != seat or v["turn"]["rolls_used"] == 0:
                return v


def test_bad_clock_values_are_refused_with_reasons(client: TestClient) -> None:
    seats = [{"name": "Ann", "here": True}, {"name": "Bo"}]
    bad: list[tuple[Any, str]] = [
        ({"mode": "live", "seconds": 29}, "greater than or equal to 30"),
        ({"mode": "live", "seconds": 601}, "less than or equal to 600"),
        ({"mode": "daily", "days": 0}, "greater than or equal to 1"),
        ({"mode": "daily", "days": 8}, "less than or equal to 7"),
        ({"mode": "blitz", "seconds": 60}, "'live' or 'daily'"),
        ({"mode": "live", "days": 2}, "a live clock takes seconds"),
        ({"mode": "live", "seconds": 60, "days": 2}, "a live clock takes seconds"),
        ({"mode": "daily", "seconds": 60}, "a daily clock takes days"),
        ({"mode": "live", "seconds": "60"}, "valid integer"),
        ({"mode": "live", "seconds": 60.5}, "valid integer"),
        ({"mode": "live", "seconds": 60, "extra": 1}, "Extra inputs"),
        ("live", "valid dictionary"),
    ]
    before = client.app.state.service.repo.count()  # type: ignore[attr-defined]
    for clock, reason in bad:
        r = client.post("/api/games", json={"seats": seats, "clock": clock})
        assert r.status_code == 422, (clock, r.text)
        assert reason in r.text, (clock, r.text)
    r = client.post(
        "/api/games", json={"seats": seats, "pad": True, "clock": {"mode": "live", "seconds": 60}}
    )
    assert r.status_code == 422 and r.json()["error"] == "ClockError", r.text
    assert client.app.state.service.repo.count() == before  # type: ignore[attr-defined]
    # null and absent: today's untimed games
    for body in ({"seats": seats, "clock": None}, {"seats": seats}):
        r = client.post("/api/games", json=body)
        assert r.status_code == 201, r.text
        assert r.json()["game"]["clock"] is None


def test_the_deadline_runs_once_everyone_is_seated(client: TestClient) -> None:
    ann = Browser(client)
    with ann as c:
        r = c.post(
            "/api/games",
            json={
                "seats": [{"name": "Ann", "here": True}, {"name": "Bo"}],
                "clock": {"mode": "live", "seconds": 45},
            },
        )
        created = r.json()
        clock = created["game"]["clock"]
        assert clock["mode"] == "live" and clock["seconds"] == 45 and clock["days"] is None
        assert clock["deadline"] is None  # Bo is not here yet: nobody's time runs
    CLOCK.advance(seconds=600)
    with ann as c:
        assert c.get(f"/api/games/{created['id']}").json()["clock"]["phase"] == "running"
    bo = Browser(client)
    with bo as c:
        c.post(f"/api/games/{created['id']}/join", json={"invite": created["invite"], "seat": 1})
        v = c.get(f"/api/games/{created['id']}").json()
    clock = v["clock"]
    assert clock["seat"] == v["turn"]["seat"]
    assert clock["seconds_left"] == 45
    assert datetime.fromisoformat(clock["deadline"]) == CLOCK.advance(seconds=45)
    CLOCK.advance(seconds=-45)


def test_a_player_times_out_and_the_other_chooses_the_computer(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    duel = Duel(client, {"mode": "live", "seconds": 30})
    v = duel.view()
    away = v["turn"]["seat"]
    here = 1 - away
    # the computer plays at the absent player's measured level (here: as if measured)
    clocks = client.app.state.service.clocks  # type: ignore[attr-defined]
    monkeypatch.setattr(clocks, "levels", lambda gid: {away: "random"} if gid == duel.id else {})
    CLOCK.advance(seconds=20)
    assert duel.view()["clock"]["seconds_left"] == 10
    # nothing to choose before the time is out
    assert duel.choose(here, "computer").status_code == 409
    CLOCK.advance(seconds=11)
    v = duel.view(here)
    assert v["clock"]["phase"] == "paused" and v["clock"]["seat"] == away
    assert v["clock"]["timed_out"] == [away]
    assert v["clock"]["choose_left"] == GRACE["live"]
    # the absent player cannot choose for the others
    r = duel.choose(away, "computer")
    assert r.status_code == 403 and r.json()["error"] == "NotAPlayerError", r.text
    r = duel.choose(here, "computer")
    assert r.status_code == 200, r.text
    assert r.json()["clock"]["computer"] == [away]
    # choosing twice: the choice was made
    r = duel.choose(here, "end")
    assert r.status_code == 409 and r.json()["error"] == "NothingToChooseError", r.text
    # the computer plays the absent seat's turns, the other player their own
    for _ in range(200):
        v = duel.person_to_move()
        if v["finished"]:
            break
        assert v["turn"]["seat"] == here
        duel.play_turn(here)
    assert v["finished"] and v["phase"] == "over"
    clock = v["clock"]
    played = [turn for seat, turn in clock["computer_turns"] if seat == away]
    assert len(played) == 15  # every turn of the absent seat (Yatzy: 15 boxes)
    moves = client.get(f"/api/games/{duel.id}/moves").json()
    marks = [m["action"] for m in moves if "clock" in m["action"]]
    assert [m["clock"] for m in marks] == ["timeout", "computer"]
    assert marks[1]["by"] == here and marks[1]["level"] == "random"


def test_a_player_times_out_and_the_other_ends_the_game(client: TestClient) -> None:
    duel = Duel(client, {"mode": "live", "seconds": 60})
    away = duel.view()["turn"]["seat"]
    here = 1 - away
    CLOCK.advance(seconds=61)
    r = duel.choose(here, "end")
    assert r.status_code == 200, r.text
    v = r.json()
    assert v["finished"] and v["turn"] is None
    assert v["clock"]["phase"] == "ended" and v["clock"]["ended_by"] == away
    # over: no more actions, no second choice, and not waiting in anyone's list
    r = duel.act(away, {"roll": []})
    assert r.status_code == 409, r.text
    assert duel.choose(here, "computer").status_code == 409
    assert duel.choose(away, "back").status_code == 409
    assert duel.view(away)["finished"]
    # the ended game is in the players' history and statistics like any finished one
    with duel.browser(here) as c:
        history = c.get("/api/history").json()
        assert next(h for h in history if h["id"] == duel.id)
        assert c.get("/api/stats").status_code == 200


def test_a_player_who_comes_back_gets_the_seat_back(client: TestClient) -> None:
    duel = Duel(client, {"mode": "live", "seconds": 30})
    away = duel.view()["turn"]["seat"]
    here = 1 - away
    # timed out, and back before anyone chose: acting is coming back
    CLOCK.advance(seconds=31)
    assert duel.view()["clock"]["phase"] == "paused"
    r = duel.act(away, {"roll": []})
    assert r.status_code == 200, r.text
    clock = r.json()["clock"]
    assert clock["phase"] == "running" and clock["seconds_left"] == 30
    duel.play_turn(away)
    duel.play_turn(here)
    # timed out again; the computer takes over by default after the grace
    CLOCK.advance(seconds=31)
    assert duel.view(here)["clock"]["phase"] == "paused"
    service = client.app.state.service  # type: ignore[attr-defined]
    bots = client.app.state.bots  # type: ignore[attr-defined]
    delay, bots.delay = bots.delay, 3600.0  # the computer's moves are made here by hand
    try:
        CLOCK.advance(seconds=GRACE["live"] + 1)
        v = duel.view(here)
        assert v["clock"]["computer"] == [away] and v["clock"]["timed_out"] == [away, away]
        # the absent player's actions are refused while the computer plays the seat
        with duel.browser(away) as c:
            r = c.post(f"/api/games/{duel.id}/actions", json={"action": {"roll": []}, "seat": away})
        assert r.status_code == 409 and r.json()["error"] == "ComputerPlaysError", r.text
        # the computer finishes the turn; then the absent player asks for the seat back
        while duel.view()["turn"]["seat"] == away:
            client.portal.call(service.bot_step, duel.id)  # type: ignore[union-attr]
    finally:
        bots.delay = delay
    r = duel.choose(away, "back")
    assert r.status_code == 200, r.text
    assert r.json()["clock"]["computer"] == []
    # a stranger's "back" is refused, as is a second one
    assert duel.choose(away, "back").status_code == 409
    duel.play_turn(here)
    v = duel.view(away)
    assert v["turn"]["seat"] == away and v["clock"]["seconds_left"] == 30
    duel.play_turn(away)  # theirs again
    turns = v["clock"]["computer_turns"]
    assert turns == [[away, 3]]


def test_back_during_the_computers_turn_waits_for_its_end(client: TestClient) -> None:
    """The computer stops at the next turn boundary: "back" asked mid-turn is noted,
    and the seat is its person's again when that turn ends."""
    service = client.app.state.service  # type: ignore[attr-defined]
    duel = Duel(client, {"mode": "live", "seconds": 30})
    away = duel.view()["turn"]["seat"]
    here = 1 - away
    CLOCK.advance(seconds=31)
    # the computer is stopped from moving here: "back" must come mid-turn
    bots = client.app.state.bots  # type: ignore[attr-defined]
    delay, bots.delay = bots.delay, 3600.0
    try:
        assert duel.choose(here, "computer").status_code == 200
        # the computer's first roll, made here by hand (as the bot runner would)
        client.portal.call(service.bot_step, duel.id)  # type: ignore[union-attr]
        assert duel.view()["turn"]["rolls_used"] == 1
        r = duel.choose(away, "back")
        assert r.status_code == 200, r.text
        assert r.json()["clock"]["computer"] == [away]
        assert r.json()["clock"]["returning"] == [away]
        while duel.view()["turn"]["seat"] == away:
            client.portal.call(service.bot_step, duel.id)  # type: ignore[union-attr]
    finally:
        bots.delay = delay
    clock = duel.view()["clock"]
    assert clock["computer"] == [] and clock["returning"] == []
    assert clock["computer_turns"] == [[away, 1]]
    duel.play_turn(here)
    assert duel.view(away)["clock"]["seat"] == away
    duel.play_turn(away)


def test_choices_by_strangers_and_without_the_header(client: TestClient) -> None:
    duel = Duel(client, {"mode": "live", "seconds": 30})
    here = 1 - duel.view()["turn"]["seat"]
    CLOCK.advance(seconds=31)
    stranger = Browser(client)
    with stranger as c:
        r = c.post(f"/api/games/{duel.id}/clock", json={"choice": "end"}, headers=CSRF)
        assert r.status_code == 403, r.text
        r = c.post(f"/api/games/{duel.id}/clock", json={"choice": "back"}, headers=CSRF)
        assert r.status_code == 409, r.text
    r = duel.choose(here, "end", headers={})
    assert r.status_code == 403 and r.json()["error"] == "CrossSiteError", r.text
    r = duel.choose(here, "resign")
    assert r.status_code == 422, r.text
    assert duel.view()["clock"]["phase"] == "paused"  # nothing changed
    with Browser(client) as c:  # an untimed game has nothing to choose
        g = c.post("/api/games", json={"seats": [{"name": "A", "here": True}, {"name": "B"}]})
        r = c.post(f"/api/games/{g.json()['id']}/clock", json={"choice": "end"}, headers=CSRF)
        assert r.status_code == 409, r.text
    assert duel.choose(here, "end").status_code == 200


def test_two_app_instances_act_once_on_the_same_overdue_game(
    client: TestClient, db_url: str
) -> None:
    """Two servers on one database look for overdue clocks at the same moment: the
    time-out is made once (one move), the computer takes over once."""
    duel = Duel(client, {"mode": "live", "seconds": 30})
    away = duel.view()["turn"]["seat"]
    other = create_app(db_url, bot_delay=0.0, win_chances=False, clock=CLOCK, stand_in="greedy")
    with TestClient(other) as second:
        mine = client.app.state.service.clocks  # type: ignore[attr-defined]
        theirs = other.state.service.clocks
        for step in (31, GRACE["live"] + 1):
            CLOCK.advance(seconds=step)
            start = threading.Barrier(2)

            def sweep(portal: Any, clocks: Any, start: threading.Barrier = start) -> None:
                start.wait(timeout=30)
                portal.call(clocks.sweep)

            threads = [
                threading.Thread(target=sweep, args=(client.portal, mine)),  # type: ignore[attr-defined]
                threading.Thread(target=sweep, args=(second.portal, theirs)),
            ]
            for t in threads:
                t.start()
            for t in threads:
                t.join(timeout=60)
        moves = client.get(f"/api/games/{duel.id}/moves").json()
    marks = [m["action"]["clock"] for m in moves if "clock" in m["action"]]
    assert marks == ["timeout", "computer"]
    assert duel.view()["clock"]["computer"] == [away]


def test_a_daily_game_across_days(client: TestClient) -> None:
    from tests.web.test_web_turns import signed_up, waiting

    anna, anna_name = signed_up(client, "Dag")
    bo, _ = signed_up(client, "Natt")
    with anna as c:
        r = c.post(
            "/api/games",
            json={
                "seats": [{"name": anna_name, "here": True}, {"name": "B"}],
                "clock": {"mode": "daily", "days": 3},
            },
        )
        created = r.json()
        gid = created["id"]
        assert created["game"]["clock"]["days"] == 3
    with bo as c:
        c.post(f"/api/games/{gid}/join", json={"invite": created["invite"], "seat": 1})
        v = c.get(f"/api/games/{gid}").json()
    first = v["turn"]["seat"]
    player = anna if first == 0 else bo
    with player as c:
        entry = next(g for g in waiting(c) if g["id"] == gid)
        assert entry["days_left"] == 3 and entry["deadline"] == v["clock"]["deadline"]
    CLOCK.advance(days=1, seconds=1)
    with player as c:
        assert next(g for g in waiting(c) if g["id"] == gid)["days_left"] == 2
        assert c.get(f"/api/games/{gid}").json()["clock"]["phase"] == "running"
    # a daily game is kept while untouched for longer than the retention
    repo = client.app.state.service.repo  # type: ignore[attr-defined]
    with Browser(client) as c:
        stale = c.post("/api/games", json={"seats": [{"name": "A", "here": True}, {"name": "B"}]})
    prune(repo, 1e-9)
    assert client.get(f"/api/games/{stale.json()['id']}").status_code == 404
    assert client.get(f"/api/games/{gid}").status_code == 200
    CLOCK.advance(days=2)
    with player as c:
        v = c.get(f"/api/games/{gid}").json()
        assert v["clock"]["phase"] == "paused" and v["clock"]["seat"] == first
        assert v["clock"]["choose_left"] == GRACE["daily"]
    # nobody chooses: a day later the computer plays the seat
    CLOCK.advance(days=1, seconds=1)
    v = eventually(
        lambda: client.get(f"/api/games/{gid}").json(),
        lambda v: v["turn"]["seat"] != first and v["clock"]["seconds_left"] is not None,
        interval=0.005,
        what="the computer's turn",
    )
    assert v["clock"]["computer"] == [first]
    assert v["clock"]["computer_turns"] == [[first, 1]]
    assert v["clock"]["seconds_left"] == 3 * 86_400  # the other's turn: three days
    with player as c:
        assert gid not in {g["id"] for g in waiting(c)}


def test_a_restarted_server_resumes_the_computer_of_an_absent_player(
    client: TestClient, db_url: str
) -> None:
    duel = Duel(client, {"mode": "live", "seconds": 30})
    away = duel.view()["turn"]["seat"]
    bots = client.app.state.bots  # type: ignore[attr-defined]
    delay, bots.delay = bots.delay, 3600.0  # this server's computer never gets to move
    try:
        CLOCK.advance(seconds=31)
        assert duel.choose(1 - away, "computer").status_code == 200
    finally:
        bots.delay = delay
    assert duel.view()["turn"]["rolls_used"] == 0
    restarted = create_app(db_url, bot_delay=0.0, win_chances=False, clock=CLOCK, stand_in="greedy")
    with TestClient(restarted) as second:
        eventually(
            lambda: second.get(f"/api/games/{duel.id}/moves").json(),
            lambda moves: any(m["seat"] == away and "score" in m["action"] for m in moves),
            interval=0.01,
            what="the restarted server's computer",
        )
