"""Heavy work as jobs run by worker processes, on the server's PostgreSQL.

With PostgreSQL, the web process runs no table build, analysis, win analysis or live
win chance itself: :class:`PgJobs` (the :class:`yatzy.web.jobs.JobQueue` of this back
end) queues them as jobs of procrastinate, a task library on PostgreSQL, and
``yatzy worker`` processes (:mod:`yatzy.web.worker`), on this machine or others, run
them.  Two kinds of table hold them:

- ``yatzy_jobs``: one row per job key — its kind and JSON
  arguments, the client that asked, its state (``queued``, ``running``, ``done``,
  ``failed``), its result (JSON) or reason, its attempts.  Web processes read
  states and results here, workers write them (tables themselves land in the shared
  table directory, which every process reads);
- procrastinate's own tables: delivery to one worker, a ``lock`` per key (one job
  of a key runs at a time), the workers' heartbeats.

Both are made by the store's Alembic migration 0013 (PostgreSQL only), like every other
table: ``yatzy serve``, ``yatzy migrate`` and ``yatzy worker`` migrate first
(:func:`ensure_schema`).

The bounds hold across every process, as each admission takes one advisory lock:
one job per key (asking again joins it), a queue limit per pool (procrastinate
queue) with the answer :class:`yatzy.web.jobs.Busy`, and a per-client share.  Every
job's end is announced with ``NOTIFY yatzy_jobs, '<key>'``, like the moves on
``yatzy_games`` (:mod:`yatzy.web.hub`); each web process LISTENs (a thread of
:class:`PgBackend`), reads the rows of the jobs it waits for and finishes their
futures, whose ``then`` hands results to the process's sockets.  A notification
missed (a lost connection) is made up by a poll every :data:`POLL` seconds.

A worker killed mid-job loses nothing: its heartbeat stops, and the other workers
(or the same one restarted) find its jobs stalled and queue them again
(:func:`retry_stalled`); a job that took its worker down :data:`MAX_ATTEMPTS` times
is failed with that reason, which the view shows.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from yatzy.errors import YatzyError
from yatzy.web.jobs import Busy, JobSpec, JobState

log = logging.getLogger("yatzy.web")

JOBS_CHANNEL = "yatzy_jobs"
"""The PostgreSQL channel on which every job's end is announced (payload: its key)."""

TASK = "yatzy.job"
"""The one procrastinate task: run the ``yatzy_jobs`` row of a key."""

MAX_ATTEMPTS = 3
"""Starts of one job (each a worker that died during it) before it is failed."""

POLL = 2.0
"""Seconds between looks at the jobs a process waits for (besides notifications)."""

KEEP_DONE_HOURS = 24
"""Hours a finished job's row (its result) is kept; live chances 10 minutes."""

_ADMIT_LOCK = 0x7A7A_0B6  # advisory lock: one admission at a time (exact bounds)


class JobFailed(YatzyError):
    """A job ended without its result (the reason is the message)."""


class QueueUnavailable(Busy):
    """The jobs' database does not answer now: "busy" (503), try again later."""


def conninfo(url: str) -> str:
    """A libpq connection string from a SQLAlchemy or plain PostgreSQL URL."""
    for prefix in ("postgresql+psycopg://", "postgresql+asyncpg://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql://" + url[len(prefix) :]
    return url


def ensure_schema(dsn: str) -> None:
    """Bring the database to the store's newest migration, which makes procrastinate's
    schema and ``yatzy_jobs`` (migration 0013): one schema, made one way, whichever
    process (``yatzy serve``, ``yatzy migrate``, ``yatzy worker``) comes first."""
    from yatzy.store.db import make_engine, migrate

    engine = make_engine("postgresql+psycopg://" + conninfo(dsn).split("://", 1)[1])
    try:
        migrate(engine)
    finally:
        engine.dispose()


def procrastinate_app(dsn: str, run: Callable[[str], None] | None = None) -> Any:
    """The procrastinate app over ``dsn`` with the one task :data:`TASK`, which calls
    ``run(key)`` (in a worker; the web processes only defer it)."""
    import procrastinate

    app = procrastinate.App(connector=procrastinate.PsycopgConnector(conninfo=dsn))

    def job(key: str) -> None:
        if run is None:
            raise YatzyError("this process defers jobs; `yatzy worker` runs them")
        run(key)

    app.task(name=TASK, pass_context=False)(job)
    return app


# -- the web side ------------------------------------------------------------------------------


@dataclass
class _Waiting:
    future: Future[Any]
    state: JobState = "queued"
    since: float = field(default_factory=time.monotonic)


class PgBackend:
    """One process's link to the jobs on PostgreSQL: a connection for admissions and
    reads, procrastinate's app for deferring, and the thread that listens for the ends
    of the jobs this process waits for."""

    def __init__(self, dsn: str, *, retry_failed: float = 60.0) -> None:
        self.dsn = conninfo(dsn)
        self.retry_failed = retry_failed
        self._lock = threading.Lock()
        self._db_lock = threading.Lock()
        self._conn: Any = None
        self._app: Any = None
        self._waiting: dict[str, _Waiting] = {}
        self._failed: dict[str, tuple[str, float]] = {}
        self._listener: threading.Thread | None = None
        self._stopped = threading.Event()
        ensure_schema(self.dsn)

    # -- the database ---------------------------------------------------------------------

    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        import psycopg

        with self._db_lock:
            for attempt in (0, 1):
                try:
                    if self._conn is None or self._conn.closed:
                        self._conn = psycopg.connect(self.dsn, autocommit=True)
                    return list(self._conn.execute(sql, params).fetchall())
                except psycopg.OperationalError:
                    self._conn = None  # a lost connection: once more on a new one
                    if attempt:
                        raise
        raise AssertionError("unreachable")

    def _admit(self, queue: PgJobs, spec: JobSpec, client: str | None) -> bool:
        """Insert the job's row within the bounds (:class:`Busy` past them); whether a
        job is to be deferred (False: another process queued it meanwhile)."""
        import psycopg

        with self._db_lock:
            if self._conn is None or self._conn.closed:
                self._conn = psycopg.connect(self.dsn, autocommit=True)
            conn = self._conn
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (_ADMIT_LOCK,))
                waiting = conn.execute(
                    "SELECT count(*) FROM yatzy_jobs WHERE pool = %s AND state = 'queued'",
                    (queue.pool,),
                ).fetchone()[0]
                if waiting >= queue.queue_limit:
                    raise Busy(
                        f"the server is busy ({waiting} {queue.name} jobs waiting): "
                        "try again in a minute"
                    )
                if client is not None:
                    mine = conn.execute(
                        "SELECT count(*) FROM yatzy_jobs WHERE pool = %s AND client = %s "
                        "AND state IN ('queued', 'running')",
                        (queue.pool, client),
                    ).fetchone()[0]
                    if mine >= queue.per_client:
                        raise Busy(
                            f"you have {mine} {queue.name} jobs under way already: "
                            "try again when one is done"
                        )
                row = conn.execute(
                    "INSERT INTO yatzy_jobs (key, pool, kind, args, client, state) "
                    "VALUES (%s, %s, %s, %s, %s, 'queued') "
                    "ON CONFLICT (key) DO UPDATE SET state = 'queued', client = "
                    "EXCLUDED.client, error = NULL, result = NULL, attempts = 0, "
                    "updated = now() WHERE yatzy_jobs.state IN ('failed', 'done') "
                    "RETURNING key",
                    (spec.key, queue.pool, spec.kind, json.dumps(spec.args), client),
                ).fetchone()
        return row is not None

    def _defer(self, queue: PgJobs, key: str) -> None:
        from procrastinate.exceptions import AlreadyEnqueued

        with self._lock:
            if self._app is None:
                self._app = procrastinate_app(self.dsn).open()
            app = self._app
        # AlreadyEnqueued: the same key waits for a worker already
        with contextlib.suppress(AlreadyEnqueued):
            app.tasks[TASK].configure(queue=queue.pool, lock=key, queueing_lock=key).defer(key=key)

    # -- jobs -------------------------------------------------------------------------------

    def submit(
        self,
        queue: PgJobs,
        spec: JobSpec,
        client: str | None,
        then: Callable[[Any, BaseException | None], None] | None,
    ) -> Future[Any]:
        """See :meth:`PgJobs.submit`."""
        import psycopg

        key = spec.key
        with self._lock:
            found = self._waiting.get(key)
        if found is None:
            try:
                found = self._start(queue, spec, client)
            except psycopg.Error as exc:
                log.warning("job %s not queued: %s", key, exc)
                raise QueueUnavailable(
                    "the server cannot queue work now: try again in a minute"
                ) from None
        if then is not None:
            found.future.add_done_callback(lambda f: then(*outcome(f)))
        return found.future

    def _start(self, queue: PgJobs, spec: JobSpec, client: str | None) -> _Waiting:
        key = spec.key
        rows = self._query(
            "SELECT state, result, error, extract(epoch FROM now() - updated) "
            "FROM yatzy_jobs WHERE key = %s",
            (key,),
        )
        entry = _Waiting(Future())
        if rows:
            state, result, error, age = rows[0]
            if state == "done":
                entry.future.set_result(result)
                return entry
            if state == "failed" and float(age) < self.retry_failed:
                with self._lock:
                    self._failed[key] = (error or "failed", time.monotonic())
                entry.future.set_exception(JobFailed(error or "failed"))
                return entry
            if state in ("queued", "running"):
                entry.state = state
                return self._wait(key, entry)
        if self._admit(queue, spec, client):
            try:
                self._defer(queue, key)
            except Exception as exc:  # PostgreSQL went away: the row says why
                with contextlib.suppress(Exception):
                    self._query(
                        "UPDATE yatzy_jobs SET state = 'failed', error = %s, updated = now() "
                        "WHERE key = %s",
                        (f"not queued: {exc}", key),
                    )
                log.warning("job %s not deferred: %s", key, exc)
                raise QueueUnavailable(
                    "the server cannot queue work now: try again in a minute"
                ) from None
        return self._wait(key, entry)

    def _wait(self, key: str, entry: _Waiting) -> _Waiting:
        with self._lock:
            found = self._waiting.setdefault(key, entry)
            self._failed.pop(key, None)
            if self._listener is None or not self._listener.is_alive():
                self._stopped.clear()
                self._listener = threading.Thread(
                    target=self._listen, name="job-listener", daemon=True
                )
                self._listener.start()
        return found

    def status(self, spec: JobSpec) -> tuple[JobState | None, str | None]:
        """What this process knows of ``spec`` (no query: the event loop asks)."""
        key = spec.key
        with self._lock:
            found = self._waiting.get(key)
            if found is not None:
                return found.state, None
            failed = self._failed.get(key)
        if failed is not None and time.monotonic() - failed[1] < self.retry_failed:
            return "failed", failed[0]
        return None, None

    def load(self, pool: str) -> dict[str, int]:
        """How many jobs of ``pool`` wait and run, over every process."""
        rows = self._query(
            "SELECT state, count(*) FROM yatzy_jobs WHERE pool = %s "
            "AND state IN ('queued', 'running') GROUP BY state",
            (pool,),
        )
        counts = {str(state): int(n) for state, n in rows}
        return {"queued": counts.get("queued", 0), "running": counts.get("running", 0)}

    def waiting(self) -> int:
        """How many jobs this process waits for."""
        with self._lock:
            return len(self._waiting)

    def _listen(self) -> None:
        """The listener thread: settle the jobs waited for as their ends are announced
        (and every :data:`POLL` seconds), until none is waited for."""
        import psycopg

        last_poll = 0.0
        while not self._stopped.is_set():
            try:
                with psycopg.connect(self.dsn, autocommit=True) as conn:
                    conn.execute(f"LISTEN {JOBS_CHANNEL}")
                    while not self._stopped.is_set():
                        with self._lock:
                            if not self._waiting:
                                self._listener = None
                                return
                            watched = set(self._waiting)
                        heard = {
                            n.payload
                            for n in conn.notifies(timeout=0.5, stop_after=64)
                            if n.payload in watched
                        }
                        if time.monotonic() - last_poll >= POLL:
                            heard, last_poll = watched, time.monotonic()
                        if heard:
                            self._settle(sorted(heard))
            except Exception as exc:  # the database went away: again shortly
                log.warning("job listener: %s; reconnecting", exc)
                self._stopped.wait(1.0)

    def _settle(self, keys: list[str]) -> None:
        rows = self._query(
            "SELECT key, state, result, error FROM yatzy_jobs WHERE key = ANY(%s)", (keys,)
        )
        seen = set()
        for key, state, result, error in rows:
            seen.add(key)
            with self._lock:
                entry = self._waiting.get(key)
                if entry is None:
                    continue
                if state in ("queued", "running"):
                    entry.state = state
                    continue
                del self._waiting[key]
                if state == "failed":
                    self._failed[key] = (error or "failed", time.monotonic())
            if state == "done":
                entry.future.set_result(result)
            else:
                entry.future.set_exception(JobFailed(error or "failed"))
        for key in set(keys) - seen:  # pruned, or never written: asked for again later
            with self._lock:
                entry = self._waiting.pop(key, None)
            if entry is not None:
                entry.future.set_exception(JobFailed("the job is gone"))

    def wait_idle(self, timeout: float = 60.0) -> bool:
        """Wait until this process waits for no job (tests); False on timeout."""
        deadline = time.monotonic() + timeout
        while self.waiting():
            if time.monotonic() > deadline:
                return False
            time.sleep(0.05)
        return True

    def stop(self) -> None:
        """Stop listening and close the connections (the jobs go on in the workers)."""
        self._stopped.set()
        with self._lock:
            app, self._app = self._app, None
        if app is not None:
            app.close()
        with self._db_lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None


class PgJobs:
    """A pool of jobs on PostgreSQL (a procrastinate queue named ``pool``) with the
    bounds of :class:`yatzy.web.jobs.Jobs`: ``queue_limit`` waiting over every
    process, ``per_client`` queued or running per client, one job per key."""

    def __init__(
        self,
        backend: PgBackend,
        pool: str,
        *,
        queue_limit: int = 16,
        per_client: int = 4,
        name: str = "jobs",
    ) -> None:
        self.backend = backend
        self.pool = pool
        self.queue_limit = queue_limit
        self.per_client = per_client
        self.name = name

    def submit(
        self,
        spec: JobSpec,
        *,
        client: str | None = None,
        then: Callable[[Any, BaseException | None], None] | None = None,
    ) -> Future[Any]:
        """Queue ``spec`` for a worker unless the same key is queued, running or done
        (then its future, finished at once when done); :class:`Busy` past the
        bounds.  ``then(result, error)`` runs once it ends, in the listener thread."""
        return self.backend.submit(self, spec, client, then)

    def status(self, spec: JobSpec) -> tuple[JobState | None, str | None]:
        """``queued``/``running`` while this process waits for it, ``failed`` with its
        reason after failing lately, ``None`` otherwise."""
        return self.backend.status(spec)

    def load(self) -> dict[str, int]:
        """How many of this pool's jobs wait and run, over every process."""
        return self.backend.load(self.pool)

    def wait_idle(self, timeout: float = 60.0) -> bool:
        """Wait until this process waits for no job (tests); False on timeout."""
        return self.backend.wait_idle(timeout)

    def stop(self) -> None:
        """Nothing to stop per pool: :meth:`PgBackend.stop` ends the process's link."""


def outcome(future: Future[Any]) -> tuple[Any, BaseException | None]:
    """A finished future's ``(result, error)``."""
    if future.cancelled():
        return None, JobFailed("cancelled")
    error = future.exception()
    return (None, error) if error is not None else (future.result(), None)


# -- the worker side ---------------------------------------------------------------------------


class JobRunner:
    """Runs the ``yatzy_jobs`` row of a key in a worker (the procrastinate task's body):
    marks it running (one more attempt), runs its kind's function
    (:func:`yatzy.web.jobs.register`), stores the result or the reason, and
    announces the end on :data:`JOBS_CHANNEL`."""

    def __init__(self, dsn: str) -> None:
        self.dsn = conninfo(dsn)
        self._local = threading.local()  # a connection per thread that runs jobs

    def _connection(self) -> Any:
        import psycopg

        conn = getattr(self._local, "conn", None)
        if conn is None or conn.closed or conn.broken:
            conn = self._local.conn = psycopg.connect(self.dsn, autocommit=True)
        return conn

    def __call__(self, key: str) -> None:
        """Run the job of ``key`` (nothing if it is done already)."""
        import psycopg

        try:
            self._run(self._connection(), key)
        except psycopg.OperationalError:
            self._local.conn = None  # a lost connection: procrastinate retries or fails it
            raise

    def _run(self, conn: Any, key: str) -> None:
        row = conn.execute(
            "UPDATE yatzy_jobs SET state = 'running', attempts = attempts + 1, "
            "updated = now() WHERE key = %s AND state IN ('queued', 'running') "
            "RETURNING kind, args, attempts",
            (key,),
        ).fetchone()
        if row is None:
            return  # done already (delivered twice), or pruned
        kind, args, attempts = row
        if attempts > MAX_ATTEMPTS:
            reason = f"the job stopped its worker {MAX_ATTEMPTS} times"
            self._finish(conn, key, "failed", None, reason)
            return
        if attempts > 1:  # a worker died during it before
            log.warning("job %s: attempt %d", key, attempts)
        else:
            log.debug("job %s", key)
        try:
            result = JobSpec(kind, args).run()
            text = json.dumps(result)
        except Exception as exc:  # kept as the job's reason; the worker goes on
            log.warning("job %s failed: %s", key, exc)
            self._finish(conn, key, "failed", None, str(exc) or type(exc).__name__)
            return
        self._finish(conn, key, "done", text, None)

    @staticmethod
    def _finish(conn: Any, key: str, state: str, result: str | None, error: str | None) -> None:
        with conn.transaction():
            conn.execute(
                "UPDATE yatzy_jobs SET state = %s, result = %s, error = %s, updated = now() "
                "WHERE key = %s",
                (state, result, error, key),
            )
            conn.execute("SELECT pg_notify(%s, %s)", (JOBS_CHANNEL, key))


ORPHANS = """
SELECT key, pool FROM yatzy_jobs j WHERE state = 'queued'
AND updated < now() - make_interval(secs => %s)
AND NOT EXISTS (
    SELECT 1 FROM procrastinate_jobs p
    WHERE p.queueing_lock = j.key AND p.status IN ('todo', 'doing')
)
AND NOT EXISTS (
    SELECT 1 FROM procrastinate_jobs p WHERE p.lock = j.key AND p.status = 'doing'
)
LIMIT 100
"""


async def requeue_orphans(app: Any, dsn: str, older_than: float = 60.0) -> int:
    """Defer again the jobs whose row waits with no procrastinate job behind it (a web
    process died between writing the row and deferring it); how many."""
    import psycopg
    from procrastinate.exceptions import AlreadyEnqueued

    async with await psycopg.AsyncConnection.connect(conninfo(dsn), autocommit=True) as conn:
        rows = await (await conn.execute(ORPHANS, (older_than,))).fetchall()
    for key, pool in rows:
        log.warning("job %s had no queue entry: queued again", key)
        with contextlib.suppress(AlreadyEnqueued):
            await (
                app.tasks[TASK]
                .configure(queue=pool, lock=key, queueing_lock=key)
                .defer_async(key=key)
            )
    return len(rows)


async def retry_stalled(app: Any, stalled_after: float) -> int:
    """Queue again the jobs of workers whose heartbeat stopped ``stalled_after``
    seconds ago (killed mid-job); how many."""
    jobs = list(await app.job_manager.get_stalled_jobs(seconds_since_heartbeat=stalled_after))
    for job in jobs:
        log.warning("job %s of a stalled worker: queued again", job.id)
        await app.job_manager.retry_job(job)
    return len(jobs)


def prune(dsn: str) -> int:
    """Delete finished rows of ``yatzy_jobs`` past their keeping time (live chances
    after 10 minutes, the rest after :data:`KEEP_DONE_HOURS`); how many."""
    import psycopg

    with psycopg.connect(conninfo(dsn), autocommit=True) as conn:
        cur = conn.execute(
            "DELETE FROM yatzy_jobs WHERE state IN ('done', 'failed') AND ("
            "(kind = 'chances' AND updated < now() - interval '10 minutes') OR "
            "updated < now() - make_interval(hours => %s))",
            (KEEP_DONE_HOURS,),
        )
        return cur.rowcount


POOL_LIMITS = {
    "tables": (16, 4, "table"),
    "analyses": (32, 2, "analysis"),
    "chances": (512, 64, "win chance"),
}
"""Each pool's queue limit (over every process), per-client share and name."""


def install(url: str) -> PgBackend:
    """Let ``yatzy worker`` processes run this process's jobs of every pool (see
    :func:`yatzy.web.jobs.use_queue`); :func:`uninstall` undoes it."""
    from yatzy.web.jobs import use_queue

    backend = PgBackend(url)
    for pool, (limit, share, name) in POOL_LIMITS.items():
        use_queue(pool, PgJobs(backend, pool, queue_limit=limit, per_client=share, name=name))
    return backend


def uninstall(backend: PgBackend) -> None:
    """Give the jobs back to the in-process pools and close ``backend``."""
    from yatzy.web.jobs import use_queue

    for pool in POOL_LIMITS:
        use_queue(pool, None)
    backend.stop()
