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

_RUNNERS: dict[str, Runner] = {}

JobState = Literal["queued", "running", "done", "failed"]


class Busy(YatzyError):
    """The pool takes no more jobs now (its queue, or the client's share, is full)."""


def register(kind: str, runner: Runner) -> None:
    """Make ``runner(args)`` the function that runs jobs of ``kind``."""
    _RUNNERS[kind] = runner


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

    def run(self) -> Any:
        """Run the job here (by the function registered for its kind)."""
        try:
            runner = _RUNNERS[self.kind]
        except KeyError:
            raise YatzyError(f"no runner for jobs of kind {self.kind!r}") from None
        return runner(self.args)


@dataclass
class _Entry:
    future: Future[Any]
    client: str | None
    state: JobState = "queued"
    error: str | None = None


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
                if len(self._threads) < self.workers:
                    thread = threading.Thread(
                        target=self._work,
                        name=f"{self.name}-{len(self._threads)}",
                        daemon=True,
                    )
                    self._threads.append(thread)
                    thread.start()
                self._lock.notify()
                future = entry.future
        if then is not None:
            future.add_done_callback(lambda f: then(*_outcome(f)))
        return future

    def _work(self) -> None:
        """A worker thread: run queued jobs, one at a time, until stopped."""
        while True:
            with self._lock:
                self._lock.wait_for(lambda: self._queue or self._stopped)
                if self._stopped:
                    self._threads.remove(threading.current_thread())
                    return
                key, spec, entry = self._queue.popleft()
                entry.state = "running"
            self._run(key, spec, entry)

    def _run(self, key: str, spec: JobSpec, entry: _Entry) -> None:
        try:
            result = spec.run()
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
        """Let running jobs finish; drop the queued ones (their futures are cancelled)."""
        with self._lock:
            self._stopped = True
            dropped = list(self._queue)
            self._queue.clear()
            for key, _, _ in dropped:
                self._live.pop(key, None)
            self._lock.notify_all()
        for _, _, entry in dropped:
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
