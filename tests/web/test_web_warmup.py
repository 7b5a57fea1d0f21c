"""A fresh install's first game warms the kernels in a child process (issue 24: no
waiting at the end of a short first game): once per rule set, only where the table
is not built, never blocking the server, switched off by YATZY_WARM_KERNELS=0."""

from __future__ import annotations

import threading
import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from tests.helpers import record_table_builds
from tests.web.helpers import conforms
from tests.web.test_web_insight import create
from yatzy.rules import RuleSet
from yatzy.web import warm_children, warmup
from yatzy.web.app import create_app
from yatzy.web.jobs import Jobs, JobSpec
from yatzy.web.models import WinAnalysisView


class Spawned:
    """What a test's subprocess.Popen was asked to start."""

    def __init__(self) -> None:
        self.commands: list[list[str]] = []
        self.stopped: list[int] = []

    def __call__(self, command: list[str], **kw: Any) -> Any:
        self.commands.append(command)
        assert kw["stdin"] is not None and kw["start_new_session"]
        spawned = self

        class Child:
            pid = 4242

            def poll(self) -> int | None:
                return 0 if len(spawned.commands) > 1 else None

            def terminate(self) -> None:
                spawned.stopped.append(self.pid)

            def wait(self, timeout: float | None = None) -> int:
                return 0

        return Child()


@pytest.fixture
def spawned(monkeypatch: pytest.MonkeyPatch) -> Spawned:
    monkeypatch.setenv(warmup.WARM_ENV, "1")
    monkeypatch.setattr(warmup, "_started", set())
    monkeypatch.setattr(warmup, "_children", [])
    monkeypatch.setattr(warm_children, "_children", {})  # its stand-ins stay in the test
    found = Spawned()
    monkeypatch.setattr(warmup.subprocess, "Popen", found)
    return found


def _record_win_builds(monkeypatch: pytest.MonkeyPatch, child: Any) -> list[int | None]:
    """Stand in for the win tables', target tables' and winner bot's builds: each
    appends ``child.poll()`` (``None`` while the warm-up child still runs)."""
    from yatzy.strategy import target_play, win_chance, winbot

    built: list[int | None] = []
    monkeypatch.setattr(win_chance, "win_chances", lambda *a, **k: built.append(child.poll()))
    monkeypatch.setattr(target_play, "target_table_for", lambda *a, **k: built.append(child.poll()))
    monkeypatch.setattr(winbot, "win_tables", lambda *a, **k: built.append(child.poll()))
    monkeypatch.setattr(winbot, "winner_supported", lambda rules: True)
    return built


def test_the_first_game_of_unbuilt_rules_starts_one_warm_up(
    tmp_path: Path, spawned: Spawned, monkeypatch: pytest.MonkeyPatch
) -> None:
    unbuilt = {"yatzy", "yatzy+forced"}
    monkeypatch.setattr(warmup, "needs_warming", lambda rules: rules.spec in unbuilt)
    url = f"sqlite:///{tmp_path / 'yatzy.db'}"
    with TestClient(create_app(url, bot_delay=0.0)) as client:
        seats = [{"name": "Ann", "here": True}, {"name": "Bot", "bot": "greedy"}]
        create(client, seats, rules="yatzy")
        create(client, seats, rules="yatzy")  # the same rules again: not a second
        create(client, [{"name": "Ann", "here": True}], rules="yahtzee")  # built already
        alone = [{"name": "Ann", "here": True}]
        create(client, alone, rules="yatzy+forced", pad=True)  # a score pad: no kernels
    assert [c[-3:] for c in spawned.commands] == [["-m", "yatzy.web.warmup", "yatzy"]]
    assert spawned.stopped == [4242]  # the server's stop ends its warm-up child


def test_stopping_ends_a_running_child(monkeypatch: pytest.MonkeyPatch) -> None:
    # A real process standing in for a child that is still compiling: the server's
    # stop leaves nothing running behind it (the child is in its own session, so no
    # terminal's signal reaches it).
    import subprocess
    import sys

    child = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True
    )
    monkeypatch.setattr(warmup, "_children", [child])
    assert warmup.stop_children(wait=5.0) == 1
    assert child.poll() is not None
    assert warmup.stop_children() == 0  # nothing left to stop


def test_the_warm_up_is_off_by_the_environment(
    spawned: Spawned, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(warmup, "needs_warming", lambda rules: True)
    monkeypatch.setenv(warmup.WARM_ENV, "0")
    assert warmup.warm_soon(RuleSet.parse("yatzy")) is None
    monkeypatch.setenv(warmup.WARM_ENV, "1")
    assert warmup.warm_soon(RuleSet.parse("yatzy")) is not None
    # One child at a time: another rule set waits for a later game.
    assert warmup.warm_soon(RuleSet.parse("yahtzee")) is None
    assert len(spawned.commands) == 1


def test_rules_without_tables_here_or_built_need_no_warming(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from yatzy.strategy import advisor

    monkeypatch.setattr(advisor, "strategy_ready", lambda rules: False)
    assert warmup.needs_warming(RuleSet.parse("yatzy"))
    assert not warmup.needs_warming(RuleSet.parse("yatzy+bonus_points=40"))  # not prepared
    monkeypatch.setattr(advisor, "strategy_ready", lambda rules: True)
    marker = tmp_path / "warmed" / "yatzy"
    monkeypatch.setattr(warmup, "warmed_marker", lambda spec: marker)
    # A table at hand (built, or shipped with the package) whose kernels no child has
    # compiled yet is warmed: the win analysis would compile them in the server.
    assert warmup.needs_warming(RuleSet.parse("yatzy"))
    marker.parent.mkdir()
    marker.touch()
    assert not warmup.needs_warming(RuleSet.parse("yatzy"))


def test_the_childs_work_runs_through() -> None:
    # The child's own work, here in the test's process (its tables and kernels are
    # cached by the other tests: seconds): the table, the analysis, the win analysis.
    warmup.warm("yatzy+forced")
    assert warmup.warmed_marker("yatzy+forced").exists()  # the next server need not


def test_the_table_job_waits_for_the_warm_up_child_of_its_rules(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Issue 24: the server's own table job once compiled the same kernels beside the
    # warm-up child (twice the CPU of a fresh install, and numba's compile holding the
    # server's interpreter); it now waits for the child and loads what it cached.
    import subprocess
    import sys

    from yatzy.strategy import advisor
    from yatzy.web import prepare

    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(0.5)"])
    monkeypatch.setattr(warm_children, "_children", {})
    warm_children.warming("yatzy+forced", child)
    assert not warm_children.wait_for_warming("yatzy")  # another rule set's child: no wait
    assert child.poll() is None
    advised: list[int | None] = []
    here = threading.current_thread()

    def advise(state: Any) -> None:
        # Only this test's own calls: the process's table pool may still run an
        # earlier test's job, which advises through the same (patched) function.
        if threading.current_thread() is here:
            advised.append(child.poll())

    monkeypatch.setattr(advisor, "advise", advise)
    monkeypatch.setattr(prepare, "load_kernels", lambda rules: None)
    JobSpec("strategy", {"spec": "yatzy+forced"}).run()  # as a worker process runs it
    assert advised == [0]  # advised only once the child had ended
    assert not warm_children.wait_for_warming("yatzy+forced")  # ended: nothing to wait for


def test_the_table_job_loads_a_bots_move_and_the_analysis_before_it_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Issue 24: the job advised a turn's start only; a keep after a roll and the
    # analysis read other kernels, which the exact computer's first move then loaded
    # in its own turn (4.3 s).  The job loads them before the computer plays by it.
    from yatzy.strategy import advisor
    from yatzy.strategy import analyze as analyze_module
    from yatzy.web import prepare

    monkeypatch.setattr(warm_children, "_children", {})
    real = advisor.advise
    advised: list[bool] = []

    def advise(state: Any) -> Any:
        advised.append(state.dice is not None)
        return real(state)

    analysed: list[int] = []
    monkeypatch.setattr(advisor, "advise", advise)
    monkeypatch.setattr(
        analyze_module, "analyze", lambda state, *a, **k: analysed.append(len(state.log))
    )
    prepare._strategy({"spec": "yatzy+forced"})
    assert advised[0] is False and any(advised[1:])  # a turn's start, then a keep
    assert analysed == [1]  # the bot's turn analysed


def test_the_table_job_waits_for_the_childs_first_stage_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Issue 24: a short first game's analysis waited for the whole warm-up (the win
    # chances' kernels too); the table job now goes on once the child says the table
    # is cached, and the win analysis waits for the rest.
    import subprocess
    import sys
    import threading

    script = (
        "import sys; print('noise', flush=True);"
        f" print({warm_children.ANALYSIS_READY!r}, flush=True); sys.stdin.readline()"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert child.stdin is not None
    monkeypatch.setattr(warm_children, "_children", {})
    warm_children.warming("yatzy+forced", child)
    waited: list[bool] = []
    waiter = threading.Thread(
        target=lambda: waited.append(warm_children.wait_for_warming("yatzy+forced", 120))
    )
    waiter.start()
    waiter.join(60)
    try:
        assert waited == [True]  # it went on while the child still ran
        assert child.poll() is None and warm_children.still_warming("yatzy+forced")
        assert not warm_children.wait_for_warming("yatzy+forced")  # past its first stage
    finally:
        child.stdin.write(b"\n")
        child.stdin.close()
        child.wait(60)
        waiter.join(60)
    assert not warm_children.still_warming("yatzy+forced")


def test_the_win_analysis_waits_while_the_child_compiles_its_kernels(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from yatzy.bots import GreedyBot, play_turn
    from yatzy.game import Game
    from yatzy.web import hints
    from yatzy.web.ahead import Ahead
    from yatzy.web.win_jobs import WinAnalyses

    class Jobs(WinAnalyses):
        def get(self, *args: Any, **kw: Any) -> dict[str, Any]:
            raise AssertionError("queued beside the warm-up child")

    import random

    state = Game(RuleSet.parse("yatzy+forced"), ["A", "B"]).new_initial_state(starter=0)
    rng = random.Random(2)
    while not state.is_terminal():
        play_turn(state, GreedyBot(), rng)
    monkeypatch.setattr(hints, "_status", lambda rules: None)
    monkeypatch.setattr(hints, "still_warming", lambda spec: spec == "yatzy+forced")
    # Meanwhile an estimate from the points, at once, said to be one (issue 24: the
    # win analysis within 10 s of the last box); still pending: the exact one follows.
    found = hints.win_analysis(Jobs(), state, "en", key="g")
    assert found["pending"] and found.get("estimated") is True, found
    conforms(WinAnalysisView, found)
    assert "estimate" in found["note"] and found["turns"] == list(range(31))
    assert found["lines"][0]["chances"][0] == pytest.approx(50, abs=0.1)
    again = hints.win_analysis(Jobs(), state, "en", key="g")
    assert again is found  # made once per game and language
    for lang in ("sv", "fi"):
        note = hints.win_analysis(Jobs(), state, lang, key="g")["note"]
        assert note and note != found["note"]
    # Where no estimate can be made, it says in words what is happening.
    monkeypatch.setattr(hints, "_estimate", lambda *a: None)
    preparing = {"pending": True, "preparing": True}
    assert hints.win_analysis(Jobs(), state, "en", key="g2") == preparing
    # Nor does the analysis ahead rate turns then (the end does, after the child).
    from yatzy.web import ahead as ahead_module

    monkeypatch.setattr(ahead_module, "strategy_status", lambda rules: None)
    monkeypatch.setattr(ahead_module, "still_warming", lambda spec: True)
    rated: list[object] = []
    monkeypatch.setattr("yatzy.strategy.win_analysis.analyze_wins", lambda *a, **k: rated.append(a))
    Ahead(WinAnalyses())._rate("g", state, None)
    assert rated == []


def test_the_child_says_the_analysis_is_ready_once_the_table_is_built(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Issue 24: the analysis comes first, and needs only the table (a turn's values
    # come from numpy until their kernel is compiled); the kernels after it: a turn's
    # (compiled, not numpy), then the win chances' (one compile serves the greedy
    # computer too: tests/strategy/test_win_chance.py), then the win analysis'.
    from yatzy.strategy import analyze, win_analysis, win_chance
    from yatzy.web.warm_children import ANALYSIS_READY

    done = record_table_builds(monkeypatch)
    monkeypatch.setattr(analyze, "analyze", lambda state, *a, **k: done.append("analysis"))
    monkeypatch.setattr(
        win_chance,
        "win_chances",
        lambda state, levels=None, **k: done.append(("chances", tuple(levels or ()))),
    )
    monkeypatch.setattr(win_analysis, "analyze_wins", lambda *a, **k: done.append("wins"))
    warmup.warm("yatzy+forced", done.append)
    assert done[:4] == ["table", ANALYSIS_READY, ("turn kernel", True), "analysis"]
    assert done[4:] == [("chances", ()), "wins"]


@pytest.mark.parametrize("job", ["win_chances", "target", "winner"])
def test_the_win_tables_jobs_wait_for_the_whole_warm_up(
    job: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The strategy job now goes on after the child's first stage; the jobs that use the
    # win chances' kernels (compiled by the child last) still wait for its end rather
    # than compile them beside it, holding the server's interpreter.
    import subprocess
    import sys

    from yatzy.web import chances, prepare

    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(0.5)"])
    monkeypatch.setattr(warm_children, "_children", {})
    warm_children.warming("yatzy", child)
    built = _record_win_builds(monkeypatch, child)
    assert chances and prepare  # their jobs' kinds registered
    JobSpec(job, {"spec": "yatzy"}).run()  # as a worker process runs it: waits here
    assert built == [0]  # built only once the child had ended


def test_a_failure_loading_the_kernels_does_not_fail_the_table_job(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The table is ready once advised: the kernels' loading is a head start only.
    from yatzy.errors import YatzyError
    from yatzy.strategy import advisor
    from yatzy.web import prepare

    def fails(rules: RuleSet) -> None:
        raise YatzyError("no bot move here")

    monkeypatch.setattr(warm_children, "_children", {})
    monkeypatch.setattr(advisor, "advise", lambda state: None)
    monkeypatch.setattr(prepare, "load_kernels", fails)
    prepare._strategy({"spec": "yatzy+forced"})  # no error: the job is done


def test_the_live_chances_wait_while_the_child_compiles(monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 24: late in a first game the live chances solved a sub-game in the server,
    # compiling the solve kernel there beside the child (numba holding the server's
    # interpreter: the analysis after the last box waited minutes).  While the child
    # runs they wait for it, as the win tables' job does; after it they are computed.
    import random

    from yatzy.bots import GreedyBot, play_turn
    from yatzy.game import Game
    from yatzy.strategy import win_chance
    from yatzy.web import chances

    state = Game(RuleSet.parse("yatzy"), ["A", "B"]).new_initial_state(starter=0)
    rng = random.Random(3)
    while len(state.sheets[1].open_boxes) > 2:
        play_turn(state, GreedyBot(), rng)
    computed: list[object] = []
    waiting: list[str] = []

    def win_chances(*args: object, **kw: object) -> None:
        computed.append(args)
        raise RuntimeError("computed here")

    monkeypatch.setattr(win_chance, "win_chances", win_chances)
    monkeypatch.setattr(
        chances.LiveChances, "_wait_for_tables", lambda self, game_id, *a: waiting.append(game_id)
    )
    queued: list[str] = []
    monkeypatch.setattr(chances, "strategy_status", lambda rules: queued.append(rules.spec))
    live = chances.LiveChances(budget=0.05, share=1.0)
    monkeypatch.setattr(chances, "still_warming", lambda spec: spec == "yatzy")
    assert live._compute("g", 5, state, [None, None]) is None
    # The strategy table's job is queued before the win tables' (which waits for the
    # child's end in the one table worker): the analysis waits for the table only.
    assert queued == ["yatzy"] and waiting == ["g"] and computed == []
    monkeypatch.setattr(chances, "still_warming", lambda spec: False)
    answer = live._compute("g", 5, state, [None, None])
    assert answer == {"version": 5, "unavailable": "computed here"}
    assert len(computed) == 1 and waiting == ["g"]


@pytest.mark.parametrize("job", ["winner", "target", "win_chances"])
def test_a_job_waiting_for_the_warm_up_leaves_the_table_worker_free(
    job: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The jobs of the win chances' kernels wait for the warm-up child's end (minutes on
    # a fresh install): they once waited in the one table worker, and every other
    # table job (another rule set's strategy table) queued behind them.  They now wait
    # aside, still queued (asked again, the same job: one builder per table), and are
    # built once, after the child.
    import subprocess
    import sys

    from yatzy.strategy import advisor
    from yatzy.web import chances, prepare

    child = subprocess.Popen(
        [sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE
    )
    assert child.stdin is not None and chances  # the win tables' job registered
    monkeypatch.setattr(warm_children, "_children", {})
    warm_children.warming("yatzy", child)
    built = _record_win_builds(monkeypatch, child)
    advised: list[str] = []

    def advise(state: Any) -> None:
        if threading.current_thread().name.startswith("table-test"):  # this pool's only
            advised.append(state.rules.spec)

    monkeypatch.setattr(advisor, "advise", advise)
    monkeypatch.setattr(prepare, "load_kernels", lambda rules: None)
    pool = Jobs(workers=1, name="table-test")
    waiting = JobSpec(job, {"spec": "yatzy"})
    try:
        first = pool.submit(waiting)
        other = pool.submit(JobSpec("strategy", {"spec": "yatzy+forced"}))
        other.result(120)  # the other rules' table, while the child still runs
        assert advised == ["yatzy+forced"] and child.poll() is None
        assert pool.status(waiting) == ("queued", None) and built == []
        assert pool.submit(waiting) is first  # the same job, not a second builder
        child.stdin.close()  # the child ends
        first.result(120)
        assert built == [0]  # built once, after the child
    finally:
        if not child.stdin.closed:
            child.stdin.close()
        child.wait(60)
        pool.stop()


def test_the_strategy_job_waits_for_the_childs_table_outside_the_worker(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The strategy job waits for the child's first stage (the table) aside too; once
    # the child says the table is cached it loads it, the child still running.
    import subprocess
    import sys

    from yatzy.strategy import advisor
    from yatzy.web import prepare

    script = (
        f"import sys; sys.stdin.readline(); print({warm_children.ANALYSIS_READY!r}, flush=True);"
        " sys.stdin.readline()"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert child.stdin is not None
    monkeypatch.setattr(warm_children, "_children", {})
    warm_children.warming("yatzy", child)
    advised: list[tuple[str, int | None]] = []

    def advise(state: Any) -> None:
        # Only this pool's calls (the process's own table pool may still run an
        # earlier test's job, advising through the same patched function).
        if threading.current_thread().name.startswith("table-test"):
            advised.append((state.rules.spec, child.poll()))

    monkeypatch.setattr(advisor, "advise", advise)
    monkeypatch.setattr(prepare, "load_kernels", lambda rules: None)
    pool = Jobs(workers=1, name="table-test")
    try:
        first = pool.submit(JobSpec("strategy", {"spec": "yatzy"}))
        pool.submit(JobSpec("strategy", {"spec": "yatzy+forced"})).result(120)
        assert advised == [("yatzy+forced", None)]  # the other rules' table went first
        child.stdin.write(b"table\n")  # the child says its table is cached
        child.stdin.flush()
        first.result(120)
        assert advised[1:] == [("yatzy", None)]  # loaded with the child still running
    finally:
        child.stdin.close()
        child.wait(60)
        pool.stop()


def test_stopping_the_pool_drops_a_job_waiting_aside(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading
    from concurrent.futures import CancelledError

    from yatzy.web import jobs

    entered, release = threading.Event(), threading.Event()
    ran: list[object] = []

    def wait(args: dict[str, Any]) -> Any:
        return lambda: (entered.set(), release.wait(60))

    monkeypatch.setitem(jobs._RUNNERS, "aside-test", ran.append)
    monkeypatch.setitem(jobs._WAITERS, "aside-test", wait)
    pool = Jobs(workers=1, name="table-test")
    job = JobSpec("aside-test", {"n": 1})
    future = pool.submit(job)
    assert entered.wait(60)  # waiting aside
    assert pool.status(job) == ("queued", None)
    pool.stop()
    release.set()
    with pytest.raises(CancelledError):
        future.result(60)
    assert pool.status(job) == (None, None) and ran == []  # never run for a stopped pool
