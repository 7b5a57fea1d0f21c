"""The post-game analyses in win chance, computed off the event loop.

A game's analysis in chance takes seconds to a minute of CPU (every decision's
options against the other seats' distributions, ``budget`` CPU seconds per
position), so a request never waits for it: :meth:`WinAnalyses.get` answers
``{"pending": true}`` and queues the work for one background thread; the page asks
again until the answer is there.  Answers are remembered per key (game, version,
language, record).  A failure is remembered as ``{"error": reason}``.  Like the live
chances, the thread rests between the game's turns so that it takes at most ``share``
of a core from a busy server's actions (:meth:`WinAnalyses.pace`) — except the
analysis a person waits for at a game's end, which takes ``waited_share`` of its one
thread's core (the whole core by default: issue 24's 10 s wait from the last box;
the other core stays with the server's actions).  The queue is
bounded (``queue_limit`` analyses under way, ``per_client`` per client): past it the
answer is "busy" (:class:`yatzy.web.jobs.Busy`, a 503 with the reason in words).
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from yatzy.web.jobs import Busy, JobQueue, JobSpec

log = logging.getLogger("yatzy.web")

_KEPT = 64


class WinAnalyses:
    """The queue and the answers of the analyses in win chance.

    ``budget`` is the CPU time per position (seconds); ``enabled`` False: none are
    made (the page says so); ``share`` the most of a core the thread takes;
    ``waited_share`` the same for the analysis a person waits for
    (:meth:`pace_waited`).
    """

    def __init__(
        self,
        *,
        budget: float = 0.2,
        enabled: bool = True,
        share: float = 0.5,
        waited_share: float = 1.0,
        queue_limit: int = 16,
        per_client: int = 2,
        queue: JobQueue | None = None,
    ) -> None:
        self.budget = budget
        self.queue = queue
        """``None``: the analyses run on this process's thread; else they are jobs of
        that queue (``yatzy worker`` processes, see :mod:`yatzy.web.pg_jobs`)."""
        self.queue_limit = queue_limit
        self.per_client = per_client
        self._clients: dict[Hashable, str | None] = {}
        self.share = min(1.0, max(0.05, share))
        self.waited_share = min(1.0, max(0.05, waited_share))
        self.enabled = enabled and budget > 0
        self._cpu = threading.local()
        self._done: OrderedDict[Hashable, dict[str, Any]] = OrderedDict()
        self._running: dict[Hashable, Future[None]] = {}
        self._lock = threading.Lock()
        self._pool: ThreadPoolExecutor | None = None

    def get(
        self,
        key: Hashable,
        compute: Callable[[], dict[str, Any]],
        client: str | None = None,
        spec: JobSpec | None = None,
    ) -> dict[str, Any]:
        """The answer for ``key``, or ``{"pending": true}`` while ``compute`` runs (it is
        queued on the first ask) — or, with a :attr:`queue`, while a worker runs
        ``spec`` (the same work as a job).  Past ``queue_limit`` analyses under way, or
        ``per_client`` of ``client``'s, raises :class:`yatzy.web.jobs.Busy`."""
        with self._lock:
            found = self._done.get(key)
            if found is not None:
                self._done.move_to_end(key)
                return found
        if self.queue is not None and spec is not None:
            self.queue.submit(spec, client=client, then=functools.partial(self._arrived, key))
            with self._lock:
                return self._done.get(key) or {"pending": True}
        with self._lock:
            if key not in self._running:
                if len(self._running) >= self.queue_limit:
                    raise Busy(f"{len(self._running)} win analyses under way: try again later")
                if client is not None:
                    mine = sum(1 for c in self._clients.values() if c == client)
                    if mine >= self.per_client:
                        raise Busy(f"{mine} of your win analyses are under way already")
                self._clients[key] = client
                if self._pool is None:
                    self._pool = ThreadPoolExecutor(1, thread_name_prefix="win-analysis")
                self._running[key] = self._pool.submit(self._run, key, compute)
        return {"pending": True}

    def _run(self, key: Hashable, compute: Callable[[], dict[str, Any]]) -> None:
        try:
            answer = compute()
        except Exception as exc:  # the page shows the reason; the server goes on
            log.warning("win analysis %s failed: %s", key, exc)
            answer = {"pending": False, "error": str(exc) or type(exc).__name__}
        with self._lock:
            self._done[key] = answer
            while len(self._done) > _KEPT:
                self._done.popitem(last=False)
            self._running.pop(key, None)
            self._clients.pop(key, None)

    def _arrived(self, key: Hashable, result: Any, error: BaseException | None) -> None:
        """A worker's answer for ``key`` (or why there is none)."""
        if error is not None or not isinstance(result, dict):
            result = {"pending": False, "error": str(error) or type(error).__name__}
        with self._lock:
            self._done[key] = result
            while len(self._done) > _KEPT:
                self._done.popitem(last=False)

    def pace(self, done: int, total: int) -> None:
        """Called after each turn of a game analysed (``analyze_wins``' ``progress``):
        rest ``c * (1 / share - 1)`` seconds after ``c`` CPU seconds of work."""
        self._rest(done, self.share)

    def pace_waited(self, done: int, total: int) -> None:
        """:meth:`pace` for the analysis a person is waiting for (a finished game's,
        asked for by its page), at ``waited_share`` of a core."""
        self._rest(done, self.waited_share)

    def _rest(self, done: int, share: float) -> None:
        now = time.thread_time()
        last = getattr(self._cpu, "mark", None)
        if last is not None and done > 0 and share < 1.0:
            time.sleep(min(5.0, (now - last) * (1.0 / share - 1.0)))
        self._cpu.mark = time.thread_time()

    def wait_idle(self, timeout: float = 60.0) -> bool:
        """Wait until nothing runs (tests); False on timeout."""
        with self._lock:
            running = list(self._running.values())
        for future in running:
            try:
                future.result(timeout)
            except TimeoutError:
                return False
        return True

    def stop(self) -> None:
        """Let the running analysis finish; queue no more."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
