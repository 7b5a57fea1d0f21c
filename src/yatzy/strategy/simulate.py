"""Simulating many solitaire games of a bot, and their statistics.

Games are played in chunks of :data:`CHUNK` games; chunk ``i`` draws its dice from
a random source seeded by ``(seed, i)`` alone, so a run's results depend on the
seed and not on how many worker processes shared the chunks.  Bots play through
the game state API (:func:`yatzy.strategy.levels.play_turn`); the optimal bot on a rule set
the solver handles has a compiled fast path (:mod:`yatzy.strategy.fast`) that plays
the same strategy without building states.

This module imports no numeric library: statistics are pure Python.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import random
import secrets
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from yatzy.errors import YatzyError
from yatzy.game import Game, Player, State
from yatzy.rules import RuleSet
from yatzy.strategy.levels import LEVELS, play_turn, solitaire_bot
from yatzy.strategy.sim_result import (
    SimulationResult,
    chunk_rng,
    simulation_note,
    yatzy_box,
)

CHUNK = 50
"""Games per chunk: the unit of seeding, of work handed to a process, of progress."""

MAX_GAMES = 100_000_000


@dataclass(frozen=True)
class ChunkResult:
    """The outcome of one chunk: final scores, bonus and Yatzy counts."""

    scores: list[int]
    bonuses: int
    yatzys: int


def play_solitaire(rules: RuleSet, bot: Any, rng: random.Random, level: str = "") -> State:
    """Play one solitaire game of ``bot`` to the end and return the final state."""
    state = Game(rules, [Player("bot", level or getattr(bot, "name", None))]).new_initial_state(
        starter=0
    )
    while not state.is_terminal():
        play_turn(state, bot, rng)
    return state


_BOTS: dict[tuple[str, str], Any] = {}


def _bot(spec: str, level: str) -> Any:
    # One bot per process and rule set, so its caches last across chunks.
    key = (spec, level)
    if key not in _BOTS:
        _BOTS[key] = solitaire_bot(level)
    return _BOTS[key]


def run_chunk(spec: str, level: str, seed: int, chunk: int, count: int) -> ChunkResult:
    """Play chunk ``chunk`` (``count`` games) of a run; the unit of work of a process."""
    rules = RuleSet.parse(spec)
    bot = _bot(spec, level)
    rng = chunk_rng(seed, chunk)
    box = yatzy_box(rules)
    scores: list[int] = []
    bonuses = yatzys = 0
    for _ in range(count):
        state = play_solitaire(rules, bot, rng, level)
        sheet = state.sheets[0]
        scores.append(sheet.final)
        bonuses += sheet.bonus > 0
        yatzys += (sheet.points(box) or 0) > 0
    return ChunkResult(scores, bonuses, yatzys)


def _chunks(games: int) -> list[tuple[int, int]]:
    return [(i, min(CHUNK, games - i * CHUNK)) for i in range(math.ceil(games / CHUNK))]


def default_workers() -> int:
    """Worker processes by default: one per core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def simulate(
    rules: RuleSet | str,
    bot: str = "greedy",
    games: int = 1000,
    *,
    seed: int | None = None,
    workers: int | None = None,
    progress: bool = False,
    fast: bool = True,
    on_chunk: Callable[[int], None] | None = None,
) -> SimulationResult:
    """Play ``games`` solitaire games of the bot level ``bot`` and summarise them.

    ``seed`` makes the run reproducible (a random one is drawn and reported when
    ``None``); ``workers`` processes share the games (default: one per core);
    ``progress`` shows a progress bar on stderr when it is a terminal (never
    carriage returns into a pipe or a log).  ``fast=False`` forces the optimal
    bot through the game state API instead of its compiled fast path.
    """
    rules = RuleSet.parse(rules) if isinstance(rules, str) else rules
    if bot not in LEVELS:
        raise YatzyError(f"unknown bot {bot!r}; valid: {', '.join(LEVELS)}")
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise YatzyError(f"games {games!r} is not a whole number in 1-{MAX_GAMES}")
    if seed is None:
        seed = secrets.randbits(48)
    elif isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise YatzyError(f"seed {seed!r} is not a whole number >= 0")
    workers = default_workers() if workers is None else workers
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise YatzyError(f"workers {workers!r} is not a whole number >= 1")
    if fast:
        from yatzy.strategy.fast import fast_simulator

        runner = fast_simulator(rules, bot)
        if runner is not None:
            return runner(games, seed, workers, progress)
    _prepare(rules, bot, progress)
    start = time.perf_counter()
    results = list(_run(rules.spec, bot, seed, games, workers, progress, on_chunk))
    seconds = time.perf_counter() - start
    scores = [s for r in results for s in r.scores]
    return SimulationResult(
        rules.spec,
        bot,
        seed,
        scores,
        sum(r.bonuses for r in results),
        sum(r.yatzys for r in results),
        seconds,
        "states",
        simulation_note(rules, bot),
    )


def _prepare(rules: RuleSet, bot: str, progress: bool) -> None:
    """Solve (or load) the table a solver-backed bot needs, once, before the workers start."""
    if bot in ("random", "greedy"):
        return
    from yatzy.strategy.advisor import is_exact, solver_for

    if is_exact(rules):
        solver_for(rules.spec, progress)
    else:
        from yatzy.strategy.approx import approx_for

        strategy = approx_for(rules.spec, progress)
        strategy.future(list(rules.boxes), 0, False)


def _run(
    spec: str,
    bot: str,
    seed: int,
    games: int,
    workers: int,
    progress: bool,
    on_chunk: Callable[[int], None] | None,
) -> Iterator[ChunkResult]:
    from tqdm import tqdm

    chunks = _chunks(games)
    with tqdm(
        total=games,
        disable=None if progress else True,
        unit="games",
        desc=f"{bot} {spec}",
        leave=False,
    ) as bar:
        if workers == 1 or len(chunks) == 1:
            for i, count in chunks:
                result = run_chunk(spec, bot, seed, i, count)
                bar.update(count)
                if on_chunk:
                    on_chunk(count)
                yield result
            return
        pool: Executor = ProcessPoolExecutor(
            max_workers=min(workers, len(chunks)),
            # spawn: workers never inherit a parent's numba threads or open files.
            mp_context=multiprocessing.get_context("spawn"),
        )
        with pool:
            futures = [pool.submit(run_chunk, spec, bot, seed, i, n) for i, n in chunks]
            for future, (_, count) in zip(futures, chunks, strict=True):
                result = future.result()
                bar.update(count)
                if on_chunk:
                    on_chunk(count)
                yield result
