"""Live win chances in the API: every multi-seat game's view carries them once
computed (pending until then, computed off the event loop), spectators included,
over the WebSocket as ``{"type": "chances"}``; solo games and a server that switched
them off have none."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from tests.e2e.support import next_action
from tests.helpers import eventually
from yatzy.web.app import create_app


@pytest.fixture(scope="module")
def app_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One app over SQLite, on the suite's tables (tests/conftest.py).  Not a private,
    empty cache: there the first game's chances built Yatzy's tables again in the
    process's one table job, a build that
    ``test_a_failed_table_build_answers_unavailable_once`` joined (one job per key)
    when it came before the build ended: it then waited out its 60 s."""
    base = tmp_path_factory.mktemp("chances")
    with TestClient(create_app(f"sqlite:///{base / 'yatzy.db'}", bot_delay=0.0)) as client:
        yield client


@pytest.fixture
def client(app_client: TestClient) -> TestClient:
    app_client.cookies.clear()
    return app_client


def _create(client: TestClient, seats: list[dict[str, Any]], rules: str = "yatzy") -> str:
    r = client.post("/api/games", json={"rules": rules, "seats": seats})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def _settled(client: TestClient, gid: str, timeout: float = 300.0) -> dict[str, Any]:
    """The view once its win chances are computed for its version (bots may move)."""
    v: dict[str, Any] = eventually(
        lambda: client.get(f"/api/games/{gid}").json(),
        lambda v: v["win_chances"] is not None and not v["win_chances"].get("pending"),
        timeout=timeout,
        what="the win chances",
    )
    assert v["win_chances"]["version"] == v["version"]
    return v


def test_a_game_view_carries_every_seats_chance(client: TestClient) -> None:
    gid = _create(client, [{"name": "Ann", "here": True}, {"name": "Kim", "bot": "strong"}])
    first = client.get(f"/api/games/{gid}").json()
    assert first["win_chances"] is not None  # pending or computed, never missing
    assert first["win_chances"]["version"] == first["version"]
    v = _settled(client, gid)
    chances = v["win_chances"]
    seats = chances["seats"]
    assert [s["seat"] for s in seats] == [0, 1]
    # Ann has not played yet: counted at the middle level, said as assumed (issue 24)
    assert [s["level"] for s in seats] == ["casual", "strong"]
    assert chances["measured"]["0"]["assumed"] is True
    assert sum(s["chance"] for s in seats) == pytest.approx(1.0, abs=2e-4)
    assert chances["exact"] is False and chances["method"] == "simulation"
    assert 0 < chances["margin"] < 0.2
    assert seats[1]["method"] == "simulated" and seats[1]["games"] > 0
    # A spectator (no cookies) sees the same chances.
    client.cookies.clear()
    assert client.get(f"/api/games/{gid}").json()["win_chances"] == chances


@pytest.mark.slow
def test_chances_follow_the_moves_over_the_websocket(client: TestClient) -> None:
    gid = _create(client, [{"name": "Ann", "here": True}, {"name": "Bo", "here": True}])
    v = _settled(client, gid)
    with client.websocket_connect(f"/api/games/{gid}/ws?chances=1") as ws:
        assert ws.receive_json()["type"] == "state"
        ref = 1
        ws.send_json({"type": "act", "ref": ref, "action": next_action(v), "version": v["version"]})
        answer = ws.receive_json()
        assert answer["type"] == "state" and answer["ref"] == ref
        moved = answer["game"]
        assert moved["win_chances"] == {"version": moved["version"], "pending": True}
        message = ws.receive_json()
        assert message["type"] == "chances"
        assert message["version"] == moved["version"]
        got = message["win_chances"]
        assert got["version"] == moved["version"]
        assert sum(s["chance"] for s in got["seats"]) == pytest.approx(1.0, abs=2e-4)


def test_only_sockets_that_ask_get_chance_messages(client: TestClient) -> None:
    gid = _create(client, [{"name": "Ann", "here": True}, {"name": "Bo", "here": True}])
    v = _settled(client, gid)
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        assert ws.receive_json()["type"] == "state"
        for ref in (1, 2):
            ws.send_json(
                {"type": "act", "ref": ref, "action": next_action(v), "version": v["version"]}
            )
            answer = ws.receive_json()
            assert answer["type"] == "state" and answer["ref"] == ref  # never a chances message
            v = _settled(client, gid)


def test_solo_games_have_no_win_chances(client: TestClient) -> None:
    gid = _create(client, [{"name": "Ann", "here": True}])
    assert client.get(f"/api/games/{gid}").json()["win_chances"] is None


def test_a_finished_game_gives_the_result(tmp_path: Path) -> None:
    # An app of its own with a small budget: the chances of the game's every position
    # on the way (0.2 CPU-s each with the module's app, most of this test's cost) are
    # not what it checks; a finished game's are exact whatever the budget.
    app = create_app(f"sqlite:///{tmp_path / 'final.db'}", bot_delay=0.0, win_budget=0.005)
    with TestClient(app) as client:
        _a_finished_game_gives_the_result(client)


def _a_finished_game_gives_the_result(client: TestClient) -> None:
    gid = _create(client, [{"name": "Ann", "here": True}, {"name": "Bot", "bot": "random"}])
    for _ in range(400):
        v = client.get(f"/api/games/{gid}").json()
        if v["finished"]:
            break
        if v["players"][v["turn"]["seat"]]["bot"]:
            time.sleep(0.01)
            continue
        r = client.post(f"/api/games/{gid}/actions", json={"action": next_action(v)})
        assert r.status_code == 200, r.text
    v = _settled(client, gid)
    assert v["finished"]
    chances = v["win_chances"]
    assert chances["exact"] and chances["method"] == "final"
    share = 1 / len(v["winners"])
    assert [s["chance"] for s in chances["seats"]] == [
        round(share, 4) if i in v["winners"] else 0.0 for i in range(2)
    ]


def test_a_server_may_switch_them_off(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'off.db'}", win_chances=False)
    with TestClient(app) as client:
        gid = _create(client, [{"name": "Ann", "here": True}, {"name": "Bo", "here": True}])
        assert client.get(f"/api/games/{gid}").json()["win_chances"] is None


def test_a_failed_table_build_answers_unavailable_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A table that cannot be built (a broken installation, say) gives the game
    "unavailable" with the reason, and is not built again and again."""
    from types import SimpleNamespace

    import yatzy.strategy.win_chance as wc
    from yatzy.game import Game
    from yatzy.rules import RuleSet
    from yatzy.web import chances
    from yatzy.web.chances import LiveChances
    from yatzy.web.jobs import Jobs

    builds: list[bool] = []

    def broken(state: Any, levels: Any = None, *, budget: float, build: bool, **_: Any) -> Any:
        builds.append(build)
        if build:
            raise RuntimeError("no kernels today")
        raise wc.TablesNotReady("the table of yatzy is not built yet")

    monkeypatch.setattr(wc, "win_chances", broken)
    # A table pool of its own: the process's one table worker may still be busy with an
    # earlier test's build (under load this test once waited out its 60 s behind one).
    tables = Jobs(name="tables-of-this-test")
    monkeypatch.setattr(chances, "table_jobs", lambda: tables)
    live = LiveChances(budget=0.05, share=1.0)
    if not live.enabled:
        pytest.skip("numpy and numba are not installed")
    state = Game(RuleSet.parse("yatzy"), ["Ann", "Kim"]).new_initial_state(starter=0)
    seats = [SimpleNamespace(bot=None), SimpleNamespace(bot="strong")]
    for version in (0, 1):
        stored: Any = SimpleNamespace(id="g1", version=version, seats=seats)
        assert live.for_view(stored, state) == {"version": version, "pending": True}
        answer = eventually(
            lambda: live.answer("g1", version),  # noqa: B023 (called before the loop goes on)
            lambda a: a is not None,
            interval=0.01,
            what="the answer",
        )
        assert answer == {"version": version, "unavailable": "no kernels today"}
    live.stop()
    tables.stop()
    assert builds.count(True) == 1  # the second version did not build again


def test_a_table_built_after_the_stop_does_not_start_the_chances_again() -> None:
    # The table jobs' pool is the process's and outlives a server's stop: the end of a
    # win tables' job queued the games waiting for it and started the stopped live
    # chances' thread again (a stopped test server's chances then ran into the next
    # test's stand-ins).
    from yatzy.game import Game
    from yatzy.rules import RuleSet
    from yatzy.web.chances import LiveChances

    live = LiveChances(budget=0.05, share=1.0)
    rules = RuleSet.parse("yatzy")
    state = Game(rules, ["Ann", "Kim"]).new_initial_state(starter=0)
    live._waiting_for_tables["yatzy"] = {"g1": (0, state, [None, None])}
    live._building.add("yatzy")
    live.stop()
    live._built(rules, None)
    assert live._thread is None  # not started again
    assert "yatzy" not in live._building


def test_maxi_early_on_says_why_it_has_no_chances(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 24: the "–" of Maxi's (and DubbelYatzy's) chances early in the game is
    explained: the answer says why (``large``), and the page has the words for it in
    every language, naming the game."""
    from types import SimpleNamespace

    import yatzy.strategy.win_chance as wc
    from yatzy.game import Game
    from yatzy.rules import RuleSet
    from yatzy.web.chances import LiveChances
    from yatzy.web.i18n import ui_strings

    def not_ready(state: Any, levels: Any = None, *, budget: float, build: bool, **_: Any) -> Any:
        raise wc.TablesNotReady("the table of maxi is not built yet")

    monkeypatch.setattr(wc, "win_chances", not_ready)
    live = LiveChances(budget=0.05, share=1.0)
    if not live.enabled:
        pytest.skip("numpy and numba are not installed")
    state = Game(RuleSet.parse("maxi"), ["Ann", "Kim"]).new_initial_state(starter=0)
    stored: Any = SimpleNamespace(id="m1", version=0, seats=[SimpleNamespace(bot=None)] * 2)
    assert live.for_view(stored, state) == {"version": 0, "pending": True}
    answer = eventually(
        lambda: live.answer("m1", 0), lambda a: a is not None, interval=0.01, what="the answer"
    )
    live.stop()
    assert answer is not None and answer["why"] == "large" and answer["unavailable"]
    for lang, said in (
        ("en", "In Maxi Yatzy the chances to win appear in the last rounds"),
        ("sv", "I Maxi Yatzy syns vinstchanserna under de sista omgångarna"),
        ("fi", "Pelissä Maxi Yatzy voittomahdollisuudet näkyvät viimeisillä kierroksilla"),
    ):
        text = ui_strings(lang)["win_unavailable_large"].replace("{title}", "Maxi Yatzy")
        assert text.startswith(said)
