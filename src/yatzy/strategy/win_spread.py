"""A game's win analysis spread over worker processes (``yatzy analyze --win``).

:func:`yatzy.strategy.win_analysis.analyze_wins` rates each position of a game within a
CPU budget (0.2 s by default), one after the other: a game of two people has about 120
positions, one of three about 180, so it takes 10 to 30 s in one process.  The
positions are independent of each other, so :func:`spread_wins` rates them in worker
processes and hands each value to this process's memo
(:func:`~yatzy.strategy.win_analysis.remember_rated`); ``analyze_wins`` then finds every
position rated and only assembles the analysis.

The workers are spawned (not forked: the parent may hold numba's threads and locks),
each reads the game from its record and replays it to the position it is given.  A
worker's failure is not the caller's: the positions it did not rate are rated by
``analyze_wins`` in this process, which then raises as it would alone.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from yatzy.game import State, dumps, loads
from yatzy.strategy.analyze import analyze
from yatzy.strategy.win_analysis import is_rated, positions_to_rate, remember_rated
from yatzy.strategy.win_chance import seat_distributions, seat_levels

log = logging.getLogger(__name__)

SPREAD_AT_LEAST = 16
"""Fewer positions than this to rate are rated in the calling process: a worker costs
about 1.5 CPU-s to start, some eight positions' budget (the analysis at a game's end
after the analysis ahead has only its last turn left: a handful)."""

MAX_DEFAULT_JOBS = 8
"""The most workers :func:`default_jobs` gives (each loads the tables)."""

_game: dict[str, Any] = {}
"""A worker's game and setting (:func:`_start_worker`)."""


JOBS_ENV = "YATZY_JOBS"
"""A whole number >= 1 sets :func:`default_jobs` (``1``: no workers, as the tests run)."""


def default_jobs() -> int:
    """:data:`JOBS_ENV` where set, else one worker per CPU core this process may use, at
    most :data:`MAX_DEFAULT_JOBS` (past that the tables each worker loads cost more
    memory than they save time)."""
    given = os.environ.get(JOBS_ENV, "").strip()
    if given.isascii() and given.isdigit() and int(given) >= 1:
        return min(int(given), 64)
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on every platform
        cores = os.cpu_count() or 1
    return max(1, min(MAX_DEFAULT_JOBS, cores))


def spread_wins(
    state: State,
    *,
    jobs: int,
    record: int | None = None,
    levels: Sequence[str | None] | None = None,
    budget: float,
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """Rate the positions of the game that led to ``state`` (from a new game) in
    ``jobs`` worker processes, into this process's memo, for
    :func:`~yatzy.strategy.win_analysis.analyze_wins` called next with the same
    ``record``, ``levels`` and ``budget``.  ``progress(done, total)`` is called in
    turns as positions come back.  The number of positions rated there (0 with one
    job, fewer than :data:`SPREAD_AT_LEAST` positions left to rate, or a worker failed
    before any came back)."""
    names = seat_levels(state, levels)
    keys = [key for key, _compute in positions_to_rate(state, record, names, budget)]
    todo = [i for i, key in enumerate(keys) if not is_rated(key)]
    if jobs <= 1 or len(todo) < SPREAD_AT_LEAST:
        return 0
    turns = len(state.log)
    context = multiprocessing.get_context("spawn")
    rated = 0
    try:
        _start_resource_tracker()
        with ProcessPoolExecutor(
            max_workers=min(jobs, len(todo)),
            mp_context=context,
            initializer=_start_worker,
            initargs=(dumps(state), record, names, float(budget)),
        ) as pool:
            futures = [pool.submit(_rate_position, i) for i in todo]
            for future in as_completed(futures):
                key, value = future.result()
                remember_rated(key, value)
                rated += 1
                if progress is not None:
                    progress(min(turns - 1, rated * turns // len(todo)), turns)
    except Exception:  # the positions not rated are rated in this process
        log.warning("the win analysis's workers stopped after %d positions", rated, exc_info=True)
    return rated


def _start_resource_tracker() -> None:
    """Start multiprocessing's resource tracker with the process's own standard error:
    it hands ``sys.stderr``'s descriptor to its child, and a full-screen app (Textual)
    replaces ``sys.stderr`` with one whose descriptor is -1 ("bad value(s) in
    fds_to_keep": no worker could start under the terminal game)."""
    from multiprocessing import resource_tracker

    try:
        usable = sys.stderr is not None and sys.stderr.fileno() >= 0
    except (AttributeError, OSError, ValueError):
        usable = False
    if usable or sys.__stderr__ is None:
        resource_tracker.ensure_running()
        return
    replaced, sys.stderr = sys.stderr, sys.__stderr__
    try:
        resource_tracker.ensure_running()
    finally:
        sys.stderr = replaced


def _start_worker(text: str, record: int | None, levels: list[str], budget: float) -> None:
    # A worker writes nothing to the terminal it inherited (under the full-screen game a
    # stray warning would land in its screen); what it raises comes back as the task's
    # exception, and the caller logs it.
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 1)
    os.dup2(quiet, 2)
    os.close(quiet)
    state = loads(text)
    # As analyze_wins does before its positions: the points' analysis loads (or builds,
    # one builder per table on the machine) the strategy tables the positions read.
    analyze(state)
    # The samplers' kernels load on their first games: here, not inside the budget of
    # the worker's first position (whose margin would be several times the others').
    start = state.game.new_initial_state(starter=state.starter)
    seat_distributions(start, levels, budget=0.05, build=False, seed=0)
    _game.update(state=state, record=record, levels=levels, budget=budget)


def _rate_position(index: int) -> tuple[tuple[Any, ...], Any]:
    """The key and value of the game's position number ``index`` (a worker's task)."""
    g = _game
    walk = positions_to_rate(g["state"], g["record"], g["levels"], g["budget"])
    for i, (key, compute) in enumerate(walk):
        if i == index:
            return key, compute()
    raise IndexError(f"the game has no position {index}")
