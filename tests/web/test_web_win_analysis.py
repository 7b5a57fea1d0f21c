"""The analysis in win chance through the web API: pending while computed in the
background, then the chart (every seat's chance turn by turn, starting at the
pre-game chances, ending at the result) and each person's decisions with the change
in chance beside the points, in the game's language; solo games by the chance of
beating the owner's earlier record."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from tests.helpers import eventually
from tests.web.helpers import conforms
from tests.web.test_web_insight import ENGLISH, create, play_out
from yatzy.web.app import create_app
from yatzy.web.models import PendingView, WinAnalysisView, WinUnavailableView


@pytest.fixture(scope="module")
def app_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """An app on SQLite whose analyses spend little CPU per position."""
    url = f"sqlite:///{tmp_path_factory.mktemp('win') / 'yatzy.db'}"
    with TestClient(create_app(url, bot_delay=0.0, win_budget=0.02)) as client:
        yield client


@pytest.fixture
def client(app_client: TestClient) -> TestClient:
    app_client.cookies.clear()
    return app_client


def ready(client: TestClient, gid: str, **params: str) -> tuple[dict[str, Any], bool]:
    """The answer once computed, and whether some answer before it was pending."""
    answers: list[dict[str, Any]] = []

    def answer() -> dict[str, Any]:
        r = client.get(f"/api/games/{gid}/win-analysis", params=params)
        assert r.status_code == 200, r.text
        # what the OpenAPI document says
        conforms(WinAnalysisView | WinUnavailableView | PendingView, r.json())
        answers.append(r.json())
        return answers[-1]

    data = eventually(
        answer,
        lambda d: not d.get("pending"),  # an estimate meanwhile is pending too
        timeout=300,
        interval=0.2,
        what="the analysis in win chance",
    )
    return data, len(answers) > 1


@pytest.mark.slow
def test_two_players_chart_and_decisions_in_swedish(client: TestClient) -> None:
    gid = create(
        client,
        [{"name": "Ann", "here": True}, {"name": "Bot", "bot": "greedy"}],
        rules="yatzy+forced",
        lang="sv",
    )
    done = play_out(client, gid)
    report, was_pending = ready(client, gid)
    assert was_pending, "the first answer comes before the computation ends"
    assert "error" not in report, report
    assert report["estimated"] is False  # the exact analysis took the estimate's place
    assert report["goal"] == "win" and report["lang"] == "sv"
    assert report["turns"] == list(range(31))
    ann, bot = report["lines"]
    assert ann["name"] == "Ann" and len(ann["chances"]) == 31 == len(bot["chances"])
    assert ann["chances"][0] + bot["chances"][0] == pytest.approx(100, abs=0.2)
    assert 0 < ann["chances"][0] < 100  # forced order: greedy plays nearly as well
    totals = done["totals"]
    expect = 100.0 if totals[0] > totals[1] else 0.0 if totals[0] < totals[1] else 50.0
    assert ann["chances"][-1] == expect
    assert report["label"].startswith("Chans att vinna tur för tur: Ann")
    (person,) = report["players"]  # people only
    assert person["name"] == "Ann" and len(person["decisions"]) == 30
    for d in person["decisions"]:
        assert d["cost"] >= 0 and d["points"] >= 0 and 1 <= d["turn"] <= 15
        assert d["better"] is None or d["cost"] > 0
    assert not ENGLISH.search(person["summary"]), person["summary"]
    if report["note"]:
        assert "procentenheter" in report["note"]
    english, _ = ready(client, gid, lang="en")
    assert english["label"].startswith("Chance of winning turn by turn: Ann")


@pytest.mark.slow  # two whole games played and analysed (about 12 CPU-s)
def test_solo_is_rated_against_the_earlier_record(client: TestClient) -> None:
    seats = [{"name": "Ann", "here": True}]
    first = create(client, seats, rules="yatzy+forced", lang="en")
    done = play_out(client, first)
    none, _ = ready(client, first)
    assert none["unavailable"] and "No record to beat yet" in none["explanation"]
    assert none["goal"] == "record"
    second = create(client, seats, rules="yatzy+forced", lang="en")
    final = play_out(client, second)["totals"][0]
    report, _ = ready(client, second)
    assert report["goal"] == "record" and report["record"] == done["totals"][0]
    assert str(done["totals"][0]) in report["title"]
    (line,) = report["lines"]
    assert 0 < line["chances"][0] <= 100
    assert line["chances"][-1] == (100.0 if final > done["totals"][0] else 0.0)
    assert len(line["chances"]) == 16 and len(report["players"][0]["decisions"]) == 30
    # Alone the level matters too (the chance of beating the record): said in words.
    assert report["people_note"] == (
        "Ann is counted as playing the best strategy (their play was not measured)."
    )


def test_unfinished_games_have_none(client: TestClient) -> None:
    gid = create(client, [{"name": "Ann", "here": True}, {"name": "Bo", "bot": "greedy"}])
    r = client.get(f"/api/games/{gid}/win-analysis")
    assert r.status_code == 422, r.text
    assert "not over" in r.json()["detail"]


def test_the_background_jobs_remember_answers_and_failures() -> None:
    from yatzy.web.win_jobs import WinAnalyses

    jobs = WinAnalyses(budget=0.1)
    calls: list[str] = []

    def ok() -> dict[str, Any]:
        calls.append("ok")
        return {"pending": False, "answer": 42}

    def broken() -> dict[str, Any]:
        raise ValueError("no table")

    assert jobs.get("a", ok) == {"pending": True}
    assert jobs.get("b", broken) == {"pending": True}
    assert jobs.wait_idle(30)
    assert jobs.get("a", ok) == {"pending": False, "answer": 42}
    assert jobs.get("b", broken) == {"pending": False, "error": "no table"}
    assert calls == ["ok"]  # computed once
    jobs.stop()
    assert not WinAnalyses(budget=0).enabled
    # The thread rests as long as it worked (a half share of a core).
    jobs.pace(0, 3)
    cpu = time.thread_time()
    while time.thread_time() - cpu < 0.05:
        pass
    wall = time.perf_counter()
    jobs.pace(1, 3)
    assert time.perf_counter() - wall >= 0.045


def test_the_analysis_a_person_waits_for_is_not_rested_like_the_background_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Issue 24: a finished game's win analysis rested as long as it worked (half a
    # core), doubling a player's wait; the background analyses still rest.
    import random

    from yatzy.bots import GreedyBot, play_turn
    from yatzy.errors import YatzyError
    from yatzy.game import Game
    from yatzy.rules import RuleSet
    from yatzy.web import hints, win_jobs
    from yatzy.web.win_jobs import WinAnalyses

    rests: list[float] = []
    monkeypatch.setattr(win_jobs.time, "sleep", rests.append)
    ticks = iter(range(1000))
    monkeypatch.setattr(win_jobs.time, "thread_time", lambda: float(next(ticks)))
    jobs = WinAnalyses(share=0.5)
    for done in range(3):
        jobs.pace_waited(done, 3)
    assert rests == []
    for done in range(3):
        jobs.pace(done, 3)
    assert rests and all(r > 0 for r in rests)

    # The page's analysis at the end is paced as one a person waits for.
    state = Game(RuleSet.parse("yatzy+forced"), ["A", "B"]).new_initial_state(starter=0)
    rng = random.Random(3)
    while not state.is_terminal():
        play_turn(state, GreedyBot(), rng)
    paced: list[object] = []

    def analyze_wins(*args: object, progress: object = None, **kw: object) -> object:
        paced.append(progress)
        raise YatzyError("recorded")

    monkeypatch.setattr(hints, "_status", lambda rules: None)
    monkeypatch.setattr(hints, "still_warming", lambda spec: False)
    monkeypatch.setattr("yatzy.strategy.win_analysis.analyze_wins", analyze_wins)
    monkeypatch.setattr(hints, "_estimate", lambda *a: None)
    assert hints.win_analysis(jobs, state, "en", key="g") == {"pending": True}
    assert jobs.wait_idle(30)
    assert paced == [jobs.pace_waited]


def test_while_the_tables_are_prepared_the_analyses_say_so_in_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Issue 24: anything longer than a second says in words what is happening; on a
    # fresh install the analyses wait a minute or more for the tables and kernels,
    # which "Computing the analysis…" did not say.
    import random

    from yatzy.bots import GreedyBot, play_turn
    from yatzy.game import Game
    from yatzy.rules import RuleSet
    from yatzy.web import hints
    from yatzy.web.i18n import ui_strings
    from yatzy.web.win_jobs import WinAnalyses

    state = Game(RuleSet.parse("yatzy+forced"), ["A", "B"]).new_initial_state(starter=0)
    rng = random.Random(4)
    while not state.is_terminal():
        play_turn(state, GreedyBot(), rng)
    preparing = {"pending": True, "preparing": True}
    monkeypatch.setattr(hints, "_status", lambda rules: {"pending": True})
    assert hints.analysis(state, "en", key="g") == preparing
    assert hints.win_analysis(WinAnalyses(), state, "en", key="g") == preparing
    monkeypatch.setattr(hints, "_status", lambda rules: None)
    monkeypatch.setattr(hints, "still_warming", lambda spec: True)
    monkeypatch.setattr(hints, "_estimate", lambda *a: None)  # none: words meanwhile
    assert hints.win_analysis(WinAnalyses(), state, "en", key="g") == preparing
    conforms(PendingView, preparing)
    for lang in ("en", "sv", "fi"):
        words = ui_strings(lang)
        for key in ("analysis_preparing", "wa_preparing"):
            assert words[key] and words[key] != words["analysis_pending"]
    assert "first time" in ui_strings("en")["analysis_preparing"]


def test_an_estimate_that_cannot_be_made_leaves_the_words(monkeypatch: pytest.MonkeyPatch) -> None:
    # The estimate is a courtesy while the exact analysis is computed: where it fails
    # (rules whose analysis it cannot follow), the answer stays "being prepared".
    import random

    from yatzy.bots import GreedyBot, play_turn
    from yatzy.errors import YatzyError
    from yatzy.game import Game
    from yatzy.rules import RuleSet
    from yatzy.strategy import win_estimate
    from yatzy.web import hints
    from yatzy.web.win_jobs import WinAnalyses

    state = Game(RuleSet.parse("yatzy+forced"), ["A", "B"]).new_initial_state(starter=0)
    rng = random.Random(5)
    while not state.is_terminal():
        play_turn(state, GreedyBot(), rng)

    def fails(*args: object, **kw: object) -> object:
        raise YatzyError("no estimate")

    monkeypatch.setattr(win_estimate, "estimate_wins", fails)
    monkeypatch.setattr(hints, "_status", lambda rules: None)
    monkeypatch.setattr(hints, "still_warming", lambda spec: True)
    preparing = {"pending": True, "preparing": True}
    assert hints.win_analysis(WinAnalyses(), state, "en", key="fails") == preparing
