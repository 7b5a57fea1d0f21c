"""Heavy work as jobs of ``yatzy worker`` processes on PostgreSQL (yatzy.web.pg_jobs).

The bounds hold across processes (one job per key, a queue limit, a client's share),
a "busy" answer is a 503 with Retry-After in the viewer's language, a worker killed
with ``kill -9`` mid-job loses nothing (another worker runs the job again), and live
win chances computed by a worker reach the sockets of another server process.
"""

from __future__ import annotations

import os
import signal
import subprocess
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from tests import zygote
from tests.e2e.support import YATZY, Server, next_action
from tests.helpers import eventually, scaled
from tests.postgres import pg_or_skip, postgres_database
from yatzy.cli.main import main
from yatzy.errors import YatzyError
from yatzy.web import prepare
from yatzy.web.app import create_app
from yatzy.web.jobs import Busy, JobSpec
from yatzy.web.pg_jobs import JobFailed, PgBackend, PgJobs, conninfo, ensure_schema


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    """A fresh PostgreSQL database for the module."""
    pg_or_skip()
    with postgres_database() as url:
        yield url


class Worker:
    """``yatzy worker`` in a child process of its own group (killed at the end)."""

    def __init__(self, url: str, log: Path, cache: Path | None, *args: str) -> None:
        env = dict(os.environ)
        if cache is not None:
            env["XDG_CACHE_HOME"] = str(cache)
        self.proc = zygote.start(
            YATZY, ["worker", "--database-url", url, "--log-level", "info", *args], log=log, env=env
        )

    def kill(self) -> None:
        """``kill -9``: no clean-up, no goodbye to the database."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        """End it (SIGTERM, then SIGKILL)."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(scaled(20))
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def workers(pg_url: str, tmp_path: Path) -> Iterator[Callable[..., Worker]]:
    """Start ``yatzy worker`` processes on the module's database (stopped at the end);
    ``cache`` is their table directory's parent (default: the tests' own)."""
    started: list[Worker] = []

    def start(*args: str, cache: Path | None = None) -> Worker:
        worker = Worker(pg_url, tmp_path / f"worker{len(started)}.log", cache, *args)
        started.append(worker)
        return worker

    yield start
    for worker in started:
        worker.stop()


def _row(url: str, key: str) -> tuple[Any, ...] | None:
    with psycopg.connect(conninfo(url), autocommit=True) as conn:
        return conn.execute(
            "SELECT state, attempts, error FROM yatzy_jobs WHERE key = %s", (key,)
        ).fetchone()


# -- the command ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--database-url", "sqlite:///x.db"], "needs --database-url postgresql://"),
        (["--database-url", "postgresql://u@h/d", "--queues", "tables,nope"], "the pools are"),
        (["--database-url", "postgresql://u@h/d", "--concurrency", "0"], "less than 1"),
        (["--database-url", "postgresql://u@h/d", "--stalled-after", "0"], "not positive"),
        (["--database-url", "postgresql://u@h/d", "--log-level", "loud"], "--log-level"),
        (["--database-url", "postgresql://u@h/d", "--nice", "20"], "--nice 20 is not in 0-19"),
        (["--database-url", "postgresql://u@h/d", "--nice", "-1"], "--nice -1 is not in 0-19"),
    ],
)
def test_the_worker_command_refuses_bad_settings_in_one_line(
    args: list[str], says: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The command's own entry point in this process: each refusal comes before the
    # command touches logging or a database, and a `yatzy` process costs about a
    # CPU-second to start; the test below runs the real command.
    monkeypatch.delenv("YATZY_DATABASE_URL", raising=False)
    code = main(["worker", *args])
    out, err = capsys.readouterr()
    assert code != 0
    assert says in err and len(err.strip().splitlines()) == 1, err
    assert not out


def test_the_worker_process_refuses_a_database_it_cannot_use_in_one_line() -> None:
    env = {k: v for k, v in os.environ.items() if k != "YATZY_DATABASE_URL"}
    done = subprocess.run(
        [YATZY, "worker", "--database-url", "postgresql://u@127.0.0.1:1/d"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode != 0
    assert "cannot use the database" in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert not done.stdout


def test_sqlite_keeps_its_jobs_in_the_server(tmp_path: Path) -> None:
    with pytest.raises(YatzyError, match="PostgreSQL"):
        create_app(f"sqlite:///{tmp_path / 'x.db'}", jobs="workers")
    done = subprocess.run(
        [YATZY, "serve", "--database-url", f"sqlite:///{tmp_path / 'x.db'}", "--jobs", "workers"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0 and "--jobs workers needs" in done.stderr, done.stderr
    assert not (tmp_path / "x.db").exists()  # refused before anything started


# -- the bounds, across processes --------------------------------------------------------------


@pytest.mark.pg
def test_one_job_per_key_a_queue_limit_and_a_client_share_over_every_process(
    pg_url: str,
) -> None:
    # Two back ends are two processes' links to the jobs (no worker runs: all wait).
    one, two = PgBackend(pg_url), PgBackend(pg_url)
    try:
        a = PgJobs(one, "tables", queue_limit=2, per_client=1, name="table")
        b = PgJobs(two, "tables", queue_limit=2, per_client=1, name="table")
        job = JobSpec("strategy", {"spec": "yatzy+bonus_points=51"})
        a.submit(job, client="ann")
        b.submit(job, client="bo")  # the same key: joined, not queued twice
        assert a.load() == {"queued": 1, "running": 0} == b.load()
        assert a.status(job) == ("queued", None) == b.status(job)
        with pytest.raises(Busy, match="under way"):  # ann's share is 1
            b.submit(JobSpec("strategy", {"spec": "yatzy+bonus_points=52"}), client="ann")
        b.submit(JobSpec("strategy", {"spec": "yatzy+bonus_points=52"}), client="bo")
        with pytest.raises(Busy, match="busy"):  # 2 waiting over both processes
            a.submit(JobSpec("strategy", {"spec": "yatzy+bonus_points=53"}))
        with psycopg.connect(conninfo(pg_url), autocommit=True) as conn:
            deferred = conn.execute(
                "SELECT count(*) FROM procrastinate_jobs WHERE queue_name = 'tables'"
            ).fetchone()
        assert deferred == (2,)  # one procrastinate job per key
    finally:
        one.stop()
        two.stop()


@pytest.mark.pg
def test_a_busy_queue_is_a_503_with_retry_after_in_the_viewers_language(
    pg_url: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # A table queue that takes nothing more: every game that needs a table is "busy".
    # No table on disk or known ready in this process either (another test of this
    # test process may have built or loaded Yatzy's).
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(prepare, "_ready", set())
    app = create_app(pg_url, bot_delay=0.0, jobs="workers")
    with TestClient(app) as client:
        full = PgJobs(PgBackend(pg_url), "tables", queue_limit=0, name="table")
        monkeypatch.setattr(prepare, "table_jobs", lambda: full)
        r = client.post(
            "/api/games",
            json={"rules": "yatzy", "lang": "sv", "seats": [{"name": "Ann", "here": True}]},
        )
        assert r.status_code == 201, r.text
        gid = r.json()["id"]
        for _ in range(3):  # roll, roll, write: one turn to analyse
            view = client.get(f"/api/games/{gid}").json()
            moved = client.post(f"/api/games/{gid}/actions", json={"action": next_action(view)})
            assert moved.status_code == 200, moved.text
        r = client.get(f"/api/games/{gid}/analysis")
        assert r.status_code == 503, r.text
        assert int(r.headers["Retry-After"]) >= 1
        body = r.json()
        assert body["error"] == "Busy" and body["detail"] == prepare.BUSY["sv"]
        full.backend.stop()


# -- a worker killed mid-job -------------------------------------------------------------------


@pytest.mark.pg
@pytest.mark.slow
def test_a_job_of_a_worker_killed_mid_job_is_run_by_another(
    pg_url: str, workers: Callable[..., Worker], tmp_path: Path
) -> None:
    cache = tmp_path / "cache"  # no table yet: the job builds one (seconds)
    backend = PgBackend(pg_url)
    try:
        jobs = PgJobs(backend, "tables", name="table")
        first = workers("--stalled-after", "2", cache=cache)
        job = JobSpec("strategy", {"spec": "yatzy+bonus_points=49"})
        done = jobs.submit(job)
        eventually(
            lambda: _row(pg_url, job.key),
            lambda row: row is not None and row[0] == "running",
            timeout=120,
            what="the first worker starting the job",
        )
        first.kill()  # mid-job: its heartbeat stops, the job stays "doing"
        assert not done.done()
        workers("--stalled-after", "2", cache=cache)
        assert done.result(scaled(600)) is None  # built (a strategy job returns nothing)
        state, attempts, error = _row(pg_url, job.key) or ()
        assert (state, attempts, error) == ("done", 2, None)
        assert list((cache / "yatzy" / "solver").iterdir())  # the table is on disk
        # Asked again by any process: done at once, never built twice.
        again = PgJobs(PgBackend(pg_url), "tables").submit(job)
        assert again.done() and again.result() is None
    finally:
        backend.stop()


@pytest.mark.pg
@pytest.mark.slow
def test_a_job_written_but_never_deferred_is_queued_again_by_a_worker(
    pg_url: str, workers: Callable[..., Worker]
) -> None:
    # A web process that died between writing a job's row and deferring it.
    key = '["strategy", {"spec": "yatzy"}]'
    ensure_schema(conninfo(pg_url))
    with psycopg.connect(conninfo(pg_url), autocommit=True) as conn:
        conn.execute(
            "INSERT INTO yatzy_jobs (key, pool, kind, args, state, updated) VALUES "
            "(%s, 'tables', 'strategy', '{\"spec\": \"yatzy\"}', 'queued', "
            "now() - interval '5 minutes') ON CONFLICT (key) DO NOTHING",
            (key,),
        )
    workers("--queues", "tables", "--stalled-after", "2")
    row = eventually(
        lambda: _row(pg_url, key),
        lambda row: row is not None and row[0] == "done",
        timeout=600,
        interval=0.5,
        what="the orphaned job done",
    )
    assert row == ("done", 1, None)


@pytest.mark.pg
@pytest.mark.slow
def test_a_failing_job_keeps_its_reason(pg_url: str, workers: Callable[..., Worker]) -> None:
    backend = PgBackend(pg_url)
    try:
        worker = workers("--queues", "analyses", "--stalled-after", "2")
        jobs = PgJobs(backend, "analyses", name="analysis")
        broken = JobSpec("analysis", {"record": {"rules": "nonsense"}, "lang": "en"}, name="x")
        with pytest.raises(JobFailed):
            jobs.submit(broken).result(scaled(120))
        # Background work: the worker runs at a lower CPU priority than the servers.
        assert os.getpriority(os.PRIO_PROCESS, worker.proc.pid) == os.getpriority(
            os.PRIO_PROCESS, 0
        ) + min(10, 19 - os.getpriority(os.PRIO_PROCESS, 0))
        assert jobs.status(broken)[0] == "failed"
        assert (_row(pg_url, "x") or ())[0] == "failed"
    finally:
        backend.stop()


# -- results reach every server process --------------------------------------------------------


@pytest.mark.pg
@pytest.mark.slow
def test_live_chances_from_a_worker_reach_another_server_process(
    pg_url: str, workers: Callable[..., Worker], serve: Callable[..., Server]
) -> None:
    import asyncio
    import json

    import websockets

    a = serve(pg_url, args=["--jobs", "workers", "--no-limits"])
    b = serve(pg_url, args=["--jobs", "workers", "--no-limits"])
    workers("--queues", "chances,tables")
    r = httpx.post(
        a.url + "/api/games",
        json={"rules": "yatzy", "seats": [{"name": n, "here": True} for n in ("Ann", "Bo")]},
    )
    assert r.status_code == 201, r.text
    gid, cookies = r.json()["id"], dict(r.cookies)
    ws_url = b.url.replace("http", "ws") + f"/api/games/{gid}/ws?chances=1"

    async def follow() -> dict[str, Any]:
        async with websockets.connect(ws_url) as ws:
            view = httpx.get(f"{a.url}/api/games/{gid}", cookies=cookies).json()
            moved = httpx.post(
                f"{a.url}/api/games/{gid}/actions",
                json={"action": next_action(view)},
                cookies=cookies,
            )
            assert moved.status_code == 200, moved.text
            version = view["version"] + 1
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), scaled(300)))
                if message["type"] == "chances" and message["version"] >= version:
                    chances = message["win_chances"]
                    if not chances.get("pending"):
                        return dict(chances)

    chances = asyncio.run(follow())
    assert "unavailable" not in chances, chances
    assert len(chances["seats"]) == 2
    assert sum(s["chance"] for s in chances["seats"]) == pytest.approx(1, abs=0.05)
    # The other process reads the same answer from its view, computed once.
    view = httpx.get(f"{b.url}/api/games/{gid}").json()
    assert view["win_chances"]["version"] == view["version"]


@pytest.mark.pg
@pytest.mark.slow
def test_analyses_of_a_finished_game_come_from_a_worker(
    pg_url: str, workers: Callable[..., Worker]
) -> None:
    workers("--queues", "tables,analyses", "--stalled-after", "5")
    app = create_app(pg_url, bot_delay=0.0, jobs="workers", win_budget=0.05)
    with TestClient(app) as client:
        r = client.post(
            "/api/games",
            json={"rules": "yatzy", "seats": [{"name": n, "here": True} for n in ("Ann", "Bo")]},
        )
        assert r.status_code == 201, r.text
        gid = r.json()["id"]
        view = client.get(f"/api/games/{gid}").json()
        while not view["finished"]:
            moved = client.post(f"/api/games/{gid}/actions", json={"action": next_action(view)})
            assert moved.status_code == 200, moved.text
            view = client.get(f"/api/games/{gid}").json()
        for path in ("analysis", "win-analysis"):
            done = eventually(
                lambda path=path: client.get(f"/api/games/{gid}/{path}"),
                lambda r: r.status_code != 200 or not r.json().get("pending"),
                timeout=600,
                interval=0.5,
                what=f"the {path} from a worker",
            )
            assert done.status_code == 200, done.text
            assert "error" not in done.json(), done.json()
        analysis = client.get(f"/api/games/{gid}/analysis").json()
        assert {p["name"] for p in analysis["players"]} == {"Ann", "Bo"}
        win = client.get(f"/api/games/{gid}/win-analysis").json()
        assert len(win["players"]) == 2
    with psycopg.connect(conninfo(pg_url), autocommit=True) as conn:
        kinds = conn.execute(
            "SELECT kind, state FROM yatzy_jobs WHERE key LIKE %s", (f"%analysis:{gid}:%",)
        ).fetchall()
    assert sorted(kinds) == [("analysis", "done"), ("win_analysis", "done")]  # run once each


def test_the_live_chances_job_stops_at_the_live_margin(monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 25: a worker's live chances stop simulating once every seat's chance is
    # within LIVE_MARGIN, rather than spend the whole budget on every version.
    from yatzy.game import Game, Player, to_record
    from yatzy.strategy import win_chance
    from yatzy.web.chances import LIVE_MARGIN, _chances

    asked: dict[str, Any] = {}

    def fake(state: Any, levels: Any, **kwargs: Any) -> Any:
        asked.update(kwargs)
        raise win_chance.TablesNotReady("not here")

    monkeypatch.setattr(win_chance, "win_chances", fake)
    state = Game("yatzy", [Player("Ann"), Player("Bot", "greedy")]).new_initial_state(starter=0)
    args = {"record": to_record(state), "levels": [None, "greedy"], "version": 1, "budget": 0.2}
    assert _chances(args) == {"version": 1, "unavailable": "not here"}
    assert asked["margin"] == LIVE_MARGIN and 0 < LIVE_MARGIN <= 0.02
