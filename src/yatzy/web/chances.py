"""The live win chances of the games a server shows, computed off the event loop.

Every view of a game with two or more seats carries ``win_chances``
(:meth:`LiveChances.for_view`): the chances of its version once computed, else
``{"version": v, "pending": true}`` and the computation is queued.  One background
thread computes them (:func:`yatzy.strategy.win_chance.win_chances`, at most
``budget`` CPU seconds each), always for the newest version of a game waiting, so a
game that moves faster than its chances skips the versions in between; each answer
is remembered per game version and handed to ``notify`` (the app sends it to the
game's WebSocket clients as ``{"type": "chances", ...}``).

Nothing here waits for a table: a 5-dice rule set's table that is not in the disk
cache is built by a job of the bounded table pool (:data:`yatzy.web.prepare.TABLE_JOBS`;
seconds), meanwhile the game's chances stay
pending, and the games that waited for it are queued again once it is built.
Maxi's whole table takes minutes and is never built here (``yatzy solve maxi``, or
hints, build it): until it is cached a Maxi game's chances are
``{"version": v, "unavailable": reason}``, except late in the game, where the
sub-games of the open boxes solve within the budget.  Rules this server prepares no
tables for (:func:`yatzy.web.prepare.policy`) have none.  Solo games have none (their
live chance is the record's).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

from yatzy.analysis.measured import with_prior
from yatzy.game import Game, State, from_record, to_record
from yatzy.rules import RuleSet
from yatzy.store import StoredGame
from yatzy.web.jobs import Busy, JobQueue, JobSpec, register
from yatzy.web.prepare import after_the_warm_up, policy, strategy_status, table_jobs
from yatzy.web.warm_children import still_warming

log = logging.getLogger("yatzy.web")

Notify = Callable[[str, int, dict[str, Any]], None]

_KEPT = 2048  # answers remembered (game, version)

LIVE_MARGIN = 0.02
"""The live chances' precision: a computation stops simulating once every seat's chance
is within this of its true value (95 % interval), before its budget is spent.  A live
game's waiting seats keep their samples from one version to the next in a process, so
most versions need only the moving seat's games: about a third of the budget's CPU
(bench_cluster, docs/performance.md), with a median margin of 0.019 rather than 0.010."""

RETRY_FAILED_BUILD = 300.0
"""Seconds before the tables of a rule set whose build failed are tried again."""


class LiveChances:
    """Computes and remembers every game's live win chances (see the module docstring).

    ``budget`` is the CPU time one computation may spend (seconds); ``enabled``
    False leaves ``win_chances`` out of every view (``null``).  ``share`` bounds the
    thread's use of a core: after a computation that took ``c`` CPU seconds it rests
    ``c * (1 / share - 1)`` seconds before the next, so many busy games delay their
    chances (each game's newest version waits) rather than take a busy server's CPU
    from its actions.
    """

    def __init__(
        self,
        *,
        budget: float = 0.2,
        enabled: bool = True,
        share: float = 0.5,
        queue: JobQueue | None = None,
    ) -> None:
        self.budget = budget
        self.share = share
        self.enabled = enabled and _available()
        self.queue = queue
        """Where the chances are computed: ``None``, this process's thread; else jobs
        of that queue (``yatzy worker`` processes, see :mod:`yatzy.web.pg_jobs`), whose
        answers arrive by :meth:`_arrived`."""
        self._asked: set[tuple[str, int]] = set()
        self._inflight: dict[str, int] = {}  # game -> the version a worker computes
        self._parked: dict[str, tuple[int, State, list[str | None]]] = {}
        self.notify: Notify | None = None
        # seat -> level measured from each person's play in a game so far and their
        # earlier games (the service sets it: yatzy.web.ahead.Ahead.measured_of; each
        # value has ``level`` and ``to_json()``); people not measured yet count at
        # yatzy.analysis.measured.PRIOR_LEVEL, as assumed.
        self.measured: Callable[[str], Mapping[int, Any]] | None = None
        # game id -> (version, {seat: what its level was measured from}): the answer
        # of that version carries it as ``measured`` (the page says it in words)
        self._counted: dict[str, tuple[int, dict[str, Any]]] = {}
        self._done: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
        # game id -> (version, state, levels): the newest version waiting, oldest game first
        self._queue: OrderedDict[str, tuple[int, State, list[str | None]]] = OrderedDict()
        self._waiting_for_tables: dict[str, dict[str, tuple[int, State, list[str | None]]]] = {}
        self._building: set[str] = set()
        # spec -> (why, when): a build that failed is not tried again for a while
        self._build_failed: dict[str, tuple[str, float]] = {}
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None
        self._stopped = False

    def for_view(self, stored: StoredGame, state: State) -> dict[str, Any] | None:
        """The view's ``win_chances``: ``None`` (solo, or switched off), the answer for
        this version, or ``{"version": v, "pending": true}`` (then it is queued)."""
        if not self.enabled or len(stored.seats) < 2:
            return None
        key = (stored.id, stored.version)
        with self._cond:
            found = self._done.get(key)
            if found is not None:
                return found
            if key == self._computing or key in self._asked:
                return {"version": stored.version, "pending": True}
            levels = [s.bot for s in stored.seats]
            if self.measured is not None:
                # people not measured yet count at the prior level, said as assumed
                measured = with_prior(state, self.measured(stored.id))
                levels = [
                    measured[i].level if lv is None and i in measured else lv
                    for i, lv in enumerate(levels)
                ]
                counted = {str(i): m.to_json() for i, m in measured.items()}
                self._counted.pop(stored.id, None)
                self._counted[stored.id] = (stored.version, counted)
                while len(self._counted) > _KEPT:
                    del self._counted[next(iter(self._counted))]
            self._queue[stored.id] = (stored.version, state, levels)
            self._queue.move_to_end(stored.id)
            self._start()
            self._cond.notify()
        return {"version": stored.version, "pending": True}

    def answer(self, game_id: str, version: int) -> dict[str, Any] | None:
        """The computed answer for a game version, if there is one."""
        with self._cond:
            return self._done.get((game_id, version))

    def stop(self) -> None:
        """Stop the background thread after its current computation."""
        with self._cond:
            self._stopped = True
            self._cond.notify_all()

    def wait_idle(self, timeout: float = 60.0) -> bool:
        """Wait until nothing is queued, computing or asked of a worker (tests); False
        on timeout."""
        with self._cond:
            return self._cond.wait_for(
                lambda: not self._queue and not self._computing and not self._asked, timeout
            )

    # -- the background thread ---------------------------------------------------------------

    _computing: tuple[str, int] | None = None

    def _start(self) -> None:
        if self._thread is None or not self._thread.is_alive():
            self._stopped = False
            self._thread = threading.Thread(target=self._run, name="win-chances", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.notify_all()
                self._cond.wait_for(lambda: self._queue or self._stopped)
                if self._stopped:
                    return
                game_id, (version, state, levels) = self._queue.popitem(last=False)
                self._computing = (game_id, version)
            if self.queue is not None:
                with self._cond:
                    if game_id in self._inflight:
                        # One job per game at a time: the newest version waits for it
                        # (the versions between are skipped, as on this thread).
                        self._parked[game_id] = (version, state, levels)
                        self._computing = None
                        continue
                answer = self._ask_worker(game_id, version, state, levels)
                with self._cond:
                    self._computing = None
                if answer is not None:
                    self._arrived(game_id, version, answer, None)
                continue
            spent = time.thread_time()
            answer = self._compute(game_id, version, state, levels)
            spent = time.thread_time() - spent
            with self._cond:
                self._computing = None
                if answer is None:
                    continue
                answer = self._with_counted(game_id, version, answer)
                self._done[(game_id, version)] = answer
                while len(self._done) > _KEPT:
                    self._done.popitem(last=False)
            if self.notify is not None:
                try:
                    self.notify(game_id, version, answer)
                except Exception as exc:  # a closed loop at shutdown: nothing to tell
                    log.debug("win chances of %s not sent: %s", game_id, exc)
            if 0 < self.share < 1:
                with self._cond:
                    # Rest (woken early only to stop): the share of a core stays bounded.
                    self._cond.wait_for(lambda: self._stopped, spent * (1 / self.share - 1))

    def _ask_worker(
        self, game_id: str, version: int, state: State, levels: list[str | None]
    ) -> dict[str, Any] | None:
        """Queue the chances of a game version as a job for the workers (``None``: the
        answer comes by :meth:`_arrived`), or the answer now (not prepared, busy)."""
        assert self.queue is not None
        if not policy().allows(state.rules):
            return {"version": version, "unavailable": "not prepared on this server"}
        spec = chances_job(game_id, version, state, levels, self.budget)
        with self._cond:
            self._asked.add((game_id, version))
            self._inflight[game_id] = version
        try:
            self.queue.submit(
                spec, then=lambda result, error: self._arrived(game_id, version, result, error)
            )
        except Exception as exc:  # busy, or the database away: said in the view
            with self._cond:
                self._asked.discard((game_id, version))
                if self._inflight.get(game_id) == version:
                    del self._inflight[game_id]
            return {"version": version, "unavailable": str(exc)}
        return None

    def _arrived(
        self, game_id: str, version: int, result: Any, error: BaseException | None
    ) -> None:
        """A game version's chances are known (a worker's result, or why not): keep
        them and send them to the game's sockets."""
        if error is not None or not isinstance(result, dict):
            answer: dict[str, Any] = {"version": version, "unavailable": str(error)}
        else:
            answer = result
        with self._cond:
            self._asked.discard((game_id, version))
            answer = self._with_counted(game_id, version, answer)
            self._done[(game_id, version)] = answer
            while len(self._done) > _KEPT:
                self._done.popitem(last=False)
            if self._inflight.get(game_id) == version:
                del self._inflight[game_id]
                parked = self._parked.pop(game_id, None)
                if parked is not None and parked[0] > version and game_id not in self._queue:
                    self._queue[game_id] = parked  # the newest version waiting: its turn
                    if not self._stopped:  # a worker's answer after stop(): no restart
                        self._start()
            self._cond.notify_all()
        if self.notify is not None:
            try:
                self.notify(game_id, version, answer)
            except Exception as exc:  # a closed loop at shutdown: nothing to tell
                log.debug("win chances of %s not sent: %s", game_id, exc)

    def _with_counted(self, game_id: str, version: int, answer: dict[str, Any]) -> dict[str, Any]:
        """``answer`` with what its people's levels were measured from (under the lock)."""
        found = self._counted.get(game_id)
        if found is None or found[0] != version or "seats" not in answer:
            return answer
        del self._counted[game_id]
        return {**answer, "measured": found[1]}

    def _compute(
        self, game_id: str, version: int, state: State, levels: list[str | None]
    ) -> dict[str, Any] | None:
        from yatzy.strategy.win_chance import TablesNotReady, win_chances

        if not policy().allows(state.rules):
            return {
                "version": version,
                "unavailable": "not prepared on this server",
                "why": "not_prepared",
            }
        if still_warming(state.rules.spec):
            # A fresh install's warm-up child compiles the kernels the chances use (a
            # late position's sub-game needs the solve kernel; its sampling, the win
            # chances'): computed after it, not compiled beside it here, where numba's
            # compile holds the interpreter's lock and stalls every request (issue 24:
            # the analysis after a one-minute first game waited minutes behind it).
            # The strategy table's job is asked for too: it waits for the child's table
            # only, the win tables' job for its end, both outside the one table worker
            # (yatzy.web.jobs), so neither holds the other, nor other rules' tables.
            strategy_status(state.rules)
            self._wait_for_tables(game_id, version, state, levels)
            return None
        try:
            result = win_chances(state, levels, budget=self.budget, build=False, margin=LIVE_MARGIN)
        except TablesNotReady as exc:
            if state.rules.num_dice > 5:
                # Maxi's whole table takes minutes: never built here (``yatzy solve``
                # builds it, hints prepare it); late positions' sub-games need none.
                return {"version": version, "unavailable": str(exc), "why": "large"}
            failed = self._recent_failure(state.rules.spec)
            if failed is not None:
                return {"version": version, "unavailable": failed}
            self._wait_for_tables(game_id, version, state, levels)
            return None
        except Exception as exc:  # never let one game stop the others' chances
            log.warning("no win chances for %s: %s", game_id, exc)
            return {"version": version, "unavailable": str(exc)}
        return {"version": version, **result.to_json()}

    def _wait_for_tables(
        self, game_id: str, version: int, state: State, levels: list[str | None]
    ) -> None:
        spec = state.rules.spec
        with self._cond:
            self._waiting_for_tables.setdefault(spec, {})[game_id] = (version, state, levels)
            if spec in self._building:
                return
            self._building.add(spec)
        try:
            table_jobs().submit(
                JobSpec("win_chances", {"spec": spec}),
                then=lambda _, error: self._built(state.rules, error),
            )
        except Busy as exc:
            self._built(state.rules, exc)

    def _recent_failure(self, spec: str) -> str | None:
        """Why the tables of ``spec`` could not be built, if that was lately."""
        with self._cond:
            failed = self._build_failed.get(spec)
        if failed is None or time.monotonic() - failed[1] > RETRY_FAILED_BUILD:
            return None
        return failed[0]

    def _built(self, rules: RuleSet, error: BaseException | None) -> None:
        """The tables of a whole game of ``rules`` are built (a job of
        :data:`yatzy.web.prepare.TABLE_JOBS`): queue the games waiting (a failed or
        refused build answers them "unavailable" until :data:`RETRY_FAILED_BUILD`
        seconds have passed, rather than building again and again)."""
        if error is not None:
            log.warning("no win chances for %s: %s", rules.spec, error)
            with self._cond:
                self._build_failed[rules.spec] = (str(error), time.monotonic())
        with self._cond:
            self._building.discard(rules.spec)
            waiting = self._waiting_for_tables.pop(rules.spec, {})
            for game_id, item in waiting.items():
                if game_id not in self._queue:
                    self._queue[game_id] = item
            # Not after stop(): a table job outlives the server's stop (its pool is the
            # process's), and its end once started this thread again, computing on.
            if waiting and not self._stopped:
                self._start()
                self._cond.notify()


def _build_win_tables(args: dict[str, Any]) -> None:
    """The job that builds what the live chances of a whole game of ``args["spec"]``
    need; run after a warm-up child's end (:func:`yatzy.web.prepare.after_the_warm_up`)."""
    from yatzy.strategy.win_chance import win_chances

    start = Game(RuleSet.parse(args["spec"]), ["a", "b"]).new_initial_state(starter=0)
    win_chances(start, budget=0.0, build=True)


register("win_chances", _build_win_tables, wait=after_the_warm_up)


def chances_job(
    game_id: str, version: int, state: State, levels: list[str | None], budget: float
) -> JobSpec:
    """The job of a game version's live win chances: the game's record rides along,
    so a worker needs nothing else (one job per game version)."""
    args = {"record": to_record(state), "levels": levels, "version": version, "budget": budget}
    return JobSpec("chances", args, name=f"chances:{game_id}:{version}")


def _chances(args: dict[str, Any]) -> dict[str, Any]:
    """A worker's job: the live win chances of the position of ``args["record"]``
    (building a 5-dice rule set's tables when they are missing; Maxi's never)."""
    from yatzy.strategy.win_chance import TablesNotReady, win_chances

    state = from_record(args["record"])
    version = int(args["version"])
    try:
        result = win_chances(
            state,
            args["levels"],
            budget=float(args["budget"]),
            build=state.rules.num_dice <= 5,
            margin=LIVE_MARGIN,
        )
    except TablesNotReady as exc:
        return {"version": version, "unavailable": str(exc)}
    return {"version": version, **result.to_json()}


register("chances", _chances)


def _available() -> bool:
    """Whether the numeric libraries of the strategy package are installed (looked up,
    not imported: the server imports them on the first computation)."""
    import importlib.util

    return all(importlib.util.find_spec(m) is not None for m in ("numpy", "numba"))
