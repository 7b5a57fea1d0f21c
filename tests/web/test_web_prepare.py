"""Which rule sets a server prepares tables for, and heavy work as bounded jobs
(issue 25, "Heavy work as jobs"; issue 24, "No waiting").

The server builds tables only for the specs of ``--prepare-specs`` (default: the start
page's presets with their on/off house rules and own bonus values); other specs are
played greedily, without hints, analyses or win chances, and the view says so in
words.  Table builds run as jobs of a bounded pool (one per table, a queue limit with
a "busy" answer, a per-client share); while a bot's tables are prepared it plays the
greedy strategy instead of keeping the game waiting.
"""

from __future__ import annotations

import threading
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
from tests.helpers import eventually, scaled
from tests.web.test_web_api import create, view
from yatzy import table_cache
from yatzy.bots import AdvisedBot, GreedyBot
from yatzy.cli.main import main
from yatzy.rules import RuleSet
from yatzy.web import jobs as web_jobs
from yatzy.web import prepare
from yatzy.web.app import create_app
from yatzy.web.jobs import Busy, Jobs, JobSpec, register
from yatzy.web.prepare import PREPARE_ENV, PreparePolicy, PrepareSettingError


@pytest.fixture
def cache_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """An empty table cache of the test's own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("YATZY_CACHE_BUDGET", raising=False)
    return tmp_path / "xdg" / "yatzy" / "solver"


# -- the policy -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec",
    [
        "yatzy",
        "yatzy+lenient+last_resort",
        "yatzy+forced+yatzy_pip_bonus",
        "yatzy+half_forced",
        "maxi+lenient",
        "maxi+saved_rolls+forced",
        "dubbel+yatzy_pip_bonus",
        "yahtzee+forced",
    ],
)
def test_the_presets_with_on_off_house_rules_are_prepared(spec: str) -> None:
    assert PreparePolicy().allows(RuleSet.parse(spec))


@pytest.mark.parametrize(
    "spec",
    [
        "yatzy+bonus_points=40",
        "yatzy+bonus_threshold=60",
        "maxi+bonus_points=51",
        "maxi+saved_rolls=next",
        "yahtzee+joker=free",
        "dubbel+extra=chance",
        "dubbel+scoring=strict",
    ],
)
def test_other_numbers_and_choices_are_not(spec: str) -> None:
    rules = RuleSet.parse(spec)
    assert not PreparePolicy().allows(rules)
    assert PreparePolicy("all").allows(rules)
    assert PreparePolicy(f"presets, {spec}").allows(rules)
    assert not PreparePolicy("yatzy").allows(rules)


def test_none_prepares_nothing_and_bad_settings_say_why() -> None:
    assert not PreparePolicy("none").allows(RuleSet.parse("yatzy"))
    for bad, why in (("", "empty"), ("none,yatzy", "alone"), ("presets,yatzy+wild", "wild")):
        with pytest.raises(PrepareSettingError, match=why):
            PreparePolicy(bad)


def test_serve_refuses_a_bad_setting_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--prepare-specs", "presets,yatzy+wild"]) == 2
    err = capsys.readouterr().err
    assert "--prepare-specs" in err and "wild" in err and len(err.strip().splitlines()) == 1


# -- the job pool ---------------------------------------------------------------------------


@pytest.fixture
def gate() -> Iterator[threading.Event]:
    """Jobs of kind ``test-wait`` run until the event is set (released at the end)."""
    event = threading.Event()
    register("test-wait", lambda args: event.wait(scaled(60)) and args["n"])
    yield event
    event.set()


def test_one_job_per_key_and_a_clear_busy_answer(gate: threading.Event) -> None:
    jobs = Jobs(workers=1, queue_limit=1, per_client=10, name="test")
    first = jobs.submit(JobSpec("test-wait", {"n": 1}))
    eventually(lambda: jobs.load()["running"] == 1, what="the first job running")
    assert jobs.submit(JobSpec("test-wait", {"n": 1})) is first  # joined, not queued again
    second = jobs.submit(JobSpec("test-wait", {"n": 2}))
    assert jobs.status(JobSpec("test-wait", {"n": 2}))[0] == "queued"
    with pytest.raises(Busy, match="busy"):
        jobs.submit(JobSpec("test-wait", {"n": 3}))
    gate.set()
    assert first.result(scaled(30)) == 1 and second.result(scaled(30)) == 2
    assert jobs.wait_idle(scaled(30)) and jobs.load() == {"queued": 0, "running": 0}
    assert jobs.status(JobSpec("test-wait", {"n": 1})) == (None, None)
    jobs.stop()


def test_a_client_gets_its_share_only(gate: threading.Event) -> None:
    jobs = Jobs(workers=1, queue_limit=10, per_client=2, name="test")
    for n in (1, 2):
        jobs.submit(JobSpec("test-wait", {"n": n}), client="ann")
    with pytest.raises(Busy, match="under way"):
        jobs.submit(JobSpec("test-wait", {"n": 3}), client="ann")
    jobs.submit(JobSpec("test-wait", {"n": 3}), client="bo")  # others still get in
    gate.set()
    assert jobs.wait_idle(scaled(30))
    jobs.stop()


def test_a_failed_job_keeps_its_reason_and_runs_again_when_asked() -> None:
    calls: list[int] = []

    def fail(args: dict[str, Any]) -> None:
        calls.append(1)
        raise ValueError("no such table")

    register("test-fail", fail)
    jobs = Jobs(name="test")
    ended: list[BaseException | None] = []
    future = jobs.submit(JobSpec("test-fail"), then=lambda _, error: ended.append(error))
    assert isinstance(future.exception(scaled(30)), ValueError)
    assert jobs.status(JobSpec("test-fail")) == ("failed", "no such table")
    assert len(ended) == 1 and isinstance(ended[0], ValueError)
    jobs.submit(JobSpec("test-fail")).exception(scaled(30))
    assert len(calls) == 2
    jobs.stop()


# -- rules the server does not prepare ------------------------------------------------------


@pytest.fixture
def unprepared_client(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, cache_home: Path
) -> Iterator[TestClient]:
    """An app that prepares the presets only, on an empty table cache."""
    monkeypatch.setenv(PREPARE_ENV, "presets")
    url = f"sqlite:///{tmp_path / 'yatzy.db'}"
    with TestClient(create_app(url, bot_delay=0.0)) as client:
        yield client


def test_a_game_of_unprepared_rules_is_played_greedily_and_says_so(
    unprepared_client: TestClient, cache_home: Path
) -> None:
    client = unprepared_client
    seats = [{"name": "Ann", "here": True}, {"name": "Bot", "bot": "optimal"}]
    gid = create(client, seats, rules="yatzy+bonus_points=40", hints=True, lang="sv")["id"]
    words = prepare.not_prepared_words("sv")
    bot_notes: set[str] = set()
    deadline = time.monotonic() + scaled(120)
    while time.monotonic() < deadline:
        v = view(client, gid)
        if v["finished"]:
            break
        turn = v["turn"]
        if v["players"][turn["seat"]]["bot"]:
            bot_notes.add(turn.get("bot_note", ""))
            assert not turn["preparing"]
            time.sleep(0.002)  # the bot moves on the server's thread
            continue
        assert turn["hint"]["note"] == words and not turn["hint"]["options"]
        chances = v["win_chances"]
        assert chances.get("pending") or chances.get("unavailable"), chances
        r = client.post(f"/api/games/{gid}/actions", json={"action": next_action(v)})
        assert r.status_code == 200, r.text
    assert v["finished"]
    assert bot_notes <= {words}  # seen whenever the bot was caught about to act
    # Nothing was built for these rules: the cache is empty.
    assert table_cache.tables(cache_home) == []
    r = client.get(f"/api/games/{gid}/analysis")
    assert r.status_code == 422 and "strategitabeller" in r.text


def test_a_bot_plays_greedily_while_its_tables_are_prepared(
    monkeypatch: pytest.MonkeyPatch, cache_home: Path, gate: threading.Event
) -> None:
    """The job is held back (the test's gate) so the table stays missing."""
    monkeypatch.setenv(PREPARE_ENV, "presets")
    monkeypatch.setattr(prepare, "TABLE_JOBS", Jobs(name="test"))
    monkeypatch.setattr(prepare, "_ready", set())
    held = prepare.TABLE_JOBS
    # The strategy job's runner held at the gate for this test only (put back after it,
    # its registered wait included: re-registering it without one lost the wait for
    # the tests after this one in the same process).
    monkeypatch.setitem(web_jobs._RUNNERS, "strategy", lambda args: gate.wait(scaled(60)))
    rules = RuleSet.parse("yatzy+lenient+yatzy_pip_bonus+last_resort")
    bot, stands_in = prepare.bot_for("optimal", rules)
    assert isinstance(bot, GreedyBot) and stands_in
    assert prepare.bot_plan("optimal", rules) == "preparing"
    assert prepare.plan_words("preparing", "fi") == prepare.preparing_words("fi")
    assert held.load()["queued"] + held.load()["running"] == 1  # its tables' job
    prepare.bot_for("optimal", rules)
    assert held.load()["queued"] + held.load()["running"] == 1  # the same job, once
    gate.set()
    assert held.wait_idle(scaled(30))
    # Unprepared rules: greedy for good, and no job.
    bot, stands_in = prepare.bot_for("optimal", RuleSet.parse("yatzy+bonus_points=40"))
    assert isinstance(bot, GreedyBot) and stands_in
    assert prepare.bot_plan("optimal", RuleSet.parse("yatzy+bonus_points=40")) == "not_prepared"
    assert prepare.bot_for("greedy", rules)[1] is False


@pytest.mark.slow
def test_once_the_tables_are_built_the_bot_plays_its_own_strategy(
    monkeypatch: pytest.MonkeyPatch, cache_home: Path
) -> None:
    monkeypatch.setenv(PREPARE_ENV, "presets")
    monkeypatch.setattr(prepare, "TABLE_JOBS", Jobs(name="test"))
    monkeypatch.setattr(prepare, "_ready", set())
    # The first answer does not wait for the job: a table this process has solved before
    # (the test above builds the same rules) would be ready within the usual second.
    monkeypatch.setattr(prepare, "STAND_IN_AFTER", 0.0)
    rules = RuleSet.parse("yatzy+lenient+yatzy_pip_bonus+last_resort")
    bot, _ = prepare.bot_for("optimal", rules)
    assert isinstance(bot, GreedyBot)
    assert prepare.TABLE_JOBS.wait_idle(scaled(600))
    bot, stands_in = prepare.bot_for("optimal", rules)
    assert isinstance(bot, AdvisedBot) and not stands_in
    assert prepare.bot_plan("optimal", rules) == "own"
    assert [t.spec for t in table_cache.tables(cache_home)] == [rules.spec]


def test_stopping_drops_the_queued_jobs_and_tells_their_callers(gate: threading.Event) -> None:
    jobs = Jobs(workers=1, queue_limit=5, name="test")
    running = jobs.submit(JobSpec("test-wait", {"n": 1}))
    eventually(lambda: jobs.load()["running"] == 1, what="the first job running")
    ended: list[BaseException | None] = []
    queued = jobs.submit(JobSpec("test-wait", {"n": 2}), then=lambda _, e: ended.append(e))
    jobs.stop()
    assert queued.cancelled() and len(ended) == 1 and ended[0] is not None
    gate.set()
    assert running.result(scaled(30)) == 1  # the running one finishes
    assert jobs.wait_idle(scaled(30)) and jobs.load() == {"queued": 0, "running": 0}


def test_only_a_bots_first_move_waits_for_its_tables_job(monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 24 (the computer's move within 3 s): every action of a computer's turn once
    # waited a second for a table job under way, 3-4 s a turn for as long as it built.
    from concurrent.futures import Future

    waits: list[float | None] = []

    class Building(Future[None]):
        def result(self, timeout: float | None = None) -> None:
            waits.append(timeout)
            raise TimeoutError("still building")

    class Jobs_:
        def status(self, spec: JobSpec) -> tuple[str | None, str | None]:
            return "running", None

        def submit(self, spec: JobSpec, **_: Any) -> Future[None]:
            return Building()

    monkeypatch.setenv(PREPARE_ENV, "presets")
    monkeypatch.setattr(prepare, "table_jobs", lambda: Jobs_())
    monkeypatch.setattr(prepare, "_ready", set())
    monkeypatch.setattr(prepare, "_waited", set(), raising=False)
    rules = RuleSet.parse("yatzy")
    for _ in range(4):  # a turn: roll, keep, keep, write
        bot, stands_in = prepare.bot_for("optimal", rules)
        assert isinstance(bot, GreedyBot) and stands_in
    assert waits == [prepare.STAND_IN_AFTER, 0.0, 0.0, 0.0]
