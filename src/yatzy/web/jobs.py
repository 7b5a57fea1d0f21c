"""Heavy work as bounded jobs: table builds and analyses never run unbounded in the
web process.

A :class:`Jobs` pool runs named jobs on a fixed number of threads (numba's kernels
release the GIL, so the event loop keeps answering while a table is built) with
three bounds:

- **one job per key at a time**: asking for a key already queued or running joins it
  (two games starting at once share one build of their table; across processes the
  table's build lock does the same, :func:`yatzy.table_cache.build_lock`);
- **a queue limit**: past ``queue_limit`` jobs waiting, :meth:`Jobs.submit` raises
  :class:`Busy` with the reason in words, and the caller answers "busy" at once
  rather than letting the work pile up;
- **a per-client share**: one client (a browser's owner token, an address) has at most
  ``per_client`` jobs queued or running, so one client cannot fill the queue.

A job is a *kind* and JSON arguments (:class:`JobSpec`), run by the function
registered for its kind (:func:`register`), so that the same job could be handed to
a worker process on another machine; this module runs them in the server's process,
which needs no other service (``yatzy serve`` with SQLite alone).  A job that fails
keeps its reason (:meth:`Jobs.status`), and is tried again when asked for again.

A kind may also register what its jobs wait for before they run (``wait``: a fresh
install's warm-up child that builds the same table, :mod:`yatzy.web.warm_children`).
The pool waits for it outside its workers: such a job is set aside, still queued (a
second ask joins it, so the table still has one builder), on a thread of its own
that only waits, and comes back to the front of the queue when the wait is over;
meanwhile the workers run the other jobs (one table job waiting minutes for the
child held the one table worker, and every other table job queued behind it).
"""

from __future__ import annotations

import json
import logging
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import CancelledError, Future
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from yatzy.errors import YatzyError

log = logging.getLogger("yatzy.web")

Runner = Callable[[dict[str, Any]], Any]

Waiter = Callable[[dict[str, Any]], Callable[[], object] | None]
"""What a job waits for before it runs: ``None`` when nothing (asked without
waiting), else the function that waits (blocking, bounded by its own limit)."""

_RUNNERS: dict[str, Runner] = {}
_WAITERS: dict[str, Waiter] = {}

JobState = Literal["queued", "running", "done", "failed"]


class Busy(YatzyError):
    """The pool takes no more jobs now (its queue, or the client's share, is full)."""


def register(kind: str, runner: Runner, *, wait: Waiter | None = None) -> None:
    """Make ``runner(args)`` the function that runs jobs of ``kind``; ``wait(args)``,
    when given, says what a job waits for before it runs (see the module docstring)."""
    _RUNNERS[kind] = runner
    if wait is None:
        _WAITERS.pop(kind, None)
    else:
        _WAITERS[kind] = wait


@dataclass(frozen=True)
class JobSpec:
    """One job: what to run (``kind``) and its arguments (JSON), nothing else — a job
    means the same in any process that has the kind registered."""

    kind: str
    args: dict[str, Any] = field(default_factory=dict)
    name: str | None = None
    """The job's identity where its arguments are large (a game's record): the
    job ``name`` is one job whatever its arguments; ``None``: the kind and arguments."""

    @property
    def key(self) -> str:
        """The job's identity: equal specs (or equal names) are one job."""
        if self.name is not None:
            return self.name
        return json.dumps([self.kind, self.args], sort_keys=True)

    def waiting(self) -> Callable[[], object] | None:
        """What the job waits for before it runs now (the function that waits), or
        ``None`` when it can run at once (see :func:`register`)."""
        waiter = _WAITERS.get(self.kind)
        return None if waiter is None else waiter(self.args)

    def run(self, *, waited: bool = False) -> Any:
        """Run the job here (by the function registered for its kind), after what it
        waits for (here, in this thread) unless the caller ``waited`` for it."""
        try:
            runner = _RUNNERS[self.kind]
        except KeyError:
            raise YatzyError(f"no runner for jobs of kind {self.kind!r}") from None
        if not waited:
            wait = self.waiting()
            if wait is not None:
                wait()
        return runner(self.args)


@dataclass
class _Entry:
    future: Future[Any]
    client: str | None
    state: JobState = "queued"
    error: str | None = None
    waited: bool = False  # what it waits for is over (or was waited for its limit)


class JobQueue(Protocol):
    """The one job interface of the web layer, in front of both back ends: the
    in-process :class:`Jobs` pool (SQLite, ``yatzy serve`` alone) and the jobs that
    ``yatzy worker`` processes run from PostgreSQL (:class:`yatzy.web.pg_jobs.PgJobs`).

    Nothing here waits for a job: :meth:`submit` queues it (or joins the same job
    under way) and says how it ends through its future and ``then``; :meth:`status`
    answers from what the process knows."""

    name: str

    def submit(
        self,
        spec: JobSpec,
        *,
        client: str | None = None,
        then: Callable[[Any, BaseException | None], None] | None = None,
    ) -> Future[Any]:
        """Queue ``spec`` (or join it); :class:`Busy` when the queue or the client's
        share is full."""
        ...

    def status(self, spec: JobSpec) -> tuple[JobState | None, str | None]:
        """``queued``/``running``, ``failed`` with its reason, or ``None``."""
        ...

    def load(self) -> dict[str, int]:
        """How many jobs wait and run."""
        ...

    def wait_idle(self, timeout: float = 60.0) -> bool:
        """Wait until no job of this process's is under way (tests)."""
        ...

    def stop(self) -> None:
        """Queue no more."""
        ...


class Jobs:
    """A bounded pool of jobs (see the module docstring).

    ``workers`` threads run them; at most ``queue_limit`` wait; one client has at most
    ``per_client`` queued or running.  ``name`` names the threads and the busy answer.
    """

    def __init__(
        self, *, workers: int = 1, queue_limit: int = 32, per_client: int = 4, name: str = "jobs"
    ) -> None:
        if workers < 1 or queue_limit < 0 or per_client < 1:
            raise YatzyError("a job pool needs workers >= 1, queue_limit >= 0, per_client >= 1")
        self.workers = workers
        self.queue_limit = queue_limit
        self.per_client = per_client
        self.name = name
        self._lock = threading.Condition()
        self._live: dict[str, _Entry] = {}
        self._failed: dict[str, str] = {}
        self._queue: deque[tuple[str, JobSpec, _Entry]] = deque()
        self._aside: dict[str, _Entry] = {}  # queued jobs waiting outside the workers
        # Daemon threads: a server stopping never waits for a build of minutes (the
        # table's build lock dies with the process; the next start builds it again).
        self._threads: list[threading.Thread] = []
        self._stopped = False

    def submit(
        self,
        spec: JobSpec,
        *,
        client: str | None = None,
        then: Callable[[Any, BaseException | None], None] | None = None,
    ) -> Future[Any]:
        """Queue ``spec`` unless the same job is queued or running already (then its
        future).  ``then(result, error)`` is called once when it ends (on joining a
        job: when that one ends).  Raises :class:`Busy` when the queue is full or
        ``client`` has its share of jobs."""
        key = spec.key
        with self._lock:
            found = self._live.get(key)
            if found is not None:
                future = found.future
            else:
                waiting = sum(1 for e in self._live.values() if e.state == "queued")
                if waiting >= self.queue_limit:
                    raise Busy(
                        f"the server is busy ({waiting} {self.name} jobs waiting): "
                        "try again in a minute"
                    )
                if client is not None:
                    mine = sum(1 for e in self._live.values() if e.client == client)
                    if mine >= self.per_client:
                        raise Busy(
                            f"you have {mine} {self.name} jobs under way already: "
                            "try again when one is done"
                        )
                entry = _Entry(Future(), client)
                self._live[key] = entry
                self._failed.pop(key, None)
                self._queue.append((key, spec, entry))
                self._stopped = False
                self._start_worker()
                self._lock.notify()
                future = entry.future
        if then is not None:
            future.add_done_callback(lambda f: then(*_outcome(f)))
        return future

    def _start_worker(self) -> None:
        """Start a worker thread if there are fewer than ``workers`` (under the lock)."""
        if len(self._threads) < self.workers:
            thread = threading.Thread(
                target=self._work,
                name=f"{self.name}-{len(self._threads)}",
                daemon=True,
            )
            self._threads.append(thread)
            thread.start()

    def _work(self) -> None:
        """A worker thread: run queued jobs, one at a time, until stopped; a job that
        must wait first is set aside to wait on a thread of its own."""
        while True:
            with self._lock:
                self._lock.wait_for(lambda: self._queue or self._stopped)
                if self._stopped:
                    self._threads.remove(threading.current_thread())
                    return
                key, spec, entry = self._queue.popleft()
            wait = None
            if not entry.waited:
                try:
                    wait = spec.waiting()
                except Exception as exc:  # nothing known to wait for: run it
                    log.info("%s job %s: %s", self.name, key, exc)
            with self._lock:
                if wait is None:
                    entry.state = "running"
                else:
                    entry.waited = True
                    self._aside[key] = entry
            if wait is None:
                self._run(key, spec, entry)
            else:
                threading.Thread(
                    target=self._wait_aside,
                    args=(key, spec, entry, wait),
                    name=f"{self.name}-wait",
                    daemon=True,
                ).start()

    def _wait_aside(
        self, key: str, spec: JobSpec, entry: _Entry, wait: Callable[[], object]
    ) -> None:
        """Wait for what the job waits for, then queue it again, first (it was asked
        for before the jobs queued since); unless the pool was stopped meanwhile."""
        try:
            wait()
        except Exception as exc:  # the wait is a courtesy: the job runs anyway
            log.info("%s job %s: its wait failed: %s", self.name, key, exc)
        with self._lock:
            if self._aside.pop(key, None) is not entry:
                return  # dropped by stop(): its future is cancelled
            if self._stopped:  # stopped as it was set aside: dropped as stop() drops
                self._live.pop(key, None)
            else:
                self._queue.appendleft((key, spec, entry))
                self._start_worker()
                self._lock.notify()
                return
        entry.future.cancel()

    def _run(self, key: str, spec: JobSpec, entry: _Entry) -> None:
        try:
            result = spec.run(waited=True)  # the worker asked, and waited aside if need be
        except Exception as exc:  # kept as the job's reason; the pool goes on
            log.warning("%s job %s failed: %s", self.name, key, exc)
            with self._lock:
                self._live.pop(key, None)
                self._failed[key] = str(exc) or type(exc).__name__
            if not entry.future.cancelled():  # a caller may have cancelled its future
                entry.future.set_exception(exc)
            return
        with self._lock:
            self._live.pop(key, None)
        if not entry.future.cancelled():
            entry.future.set_result(result)

    def status(self, spec: JobSpec) -> tuple[JobState | None, str | None]:
        """Where ``spec`` stands: ``queued``/``running`` while under way, ``failed``
        with its reason after failing, ``None`` otherwise (never asked, or done)."""
        key = spec.key
        with self._lock:
            found = self._live.get(key)
            if found is not None:
                return found.state, None
            reason = self._failed.get(key)
        return ("failed", reason) if reason is not None else (None, None)

    def load(self) -> dict[str, int]:
        """How many jobs wait and run (for logs and tests)."""
        with self._lock:
            states = [e.state for e in self._live.values()]
        return {"queued": states.count("queued"), "running": states.count("running")}

    def wait_idle(self, timeout: float = 60.0) -> bool:
        """Wait until no job is queued or running (tests); False on timeout."""
        with self._lock:
            futures = [e.future for e in self._live.values()]
        for future in futures:
            try:
                future.exception(timeout)
            except TimeoutError:
                return False
            except CancelledError:
                continue
        return True

    def stop(self) -> None:
        """Let running jobs finish; drop the queued ones, and those waiting aside
        (their futures are cancelled)."""
        with self._lock:
            self._stopped = True
            dropped = [entry for _, _, entry in self._queue] + list(self._aside.values())
            for key, _, _ in self._queue:
                self._live.pop(key, None)
            for key in self._aside:
                self._live.pop(key, None)
            self._queue.clear()
            self._aside.clear()
            self._lock.notify_all()
        for entry in dropped:
            entry.future.cancel()


def _outcome(future: Future[Any]) -> tuple[Any, BaseException | None]:
    if future.cancelled():
        return None, CancelledError()
    error = future.exception()
    return (None, error) if error is not None else (future.result(), None)


# -- which queue runs a pool's jobs -------------------------------------------------------------

_ACTIVE: dict[str, JobQueue] = {}
_ACTIVE_LOCK = threading.Lock()


def use_queue(pool: str, queue: JobQueue | None) -> None:
    """Let ``queue`` run the jobs of ``pool`` (``tables``, ``analyses``, ``chances``) in
    this process (the app's start does, with workers on PostgreSQL); ``None`` gives
    them back to the in-process pools."""
    with _ACTIVE_LOCK:
        if queue is None:
            _ACTIVE.pop(pool, None)
        else:
            _ACTIVE[pool] = queue


def active_queue(pool: str) -> JobQueue | None:
    """The queue :func:`use_queue` set for ``pool``, or ``None`` (in-process)."""
    with _ACTIVE_LOCK:
        return _ACTIVE.get(pool)
