"""The compiled fast path of simulations.

:func:`fast_simulator` returns a runner that plays the games with a numba kernel
(one thread per worker; the kernels release the GIL), or ``None`` where there is no
fast path, and the simulation plays through game states instead:

- the optimal bot on rule sets the solver handles: :mod:`yatzy.kernels.simulate` on
  the solver's table;
- the skill levels, the greedy and the random bot wherever the live win chances'
  kernel plays them (:func:`yatzy.strategy.outcomes.kernel_supported`: not
  DubbelYatzy): :func:`yatzy.kernels.win.play_from` from a new game, which plays
  each of them as its bot does (``tests/strategy/test_win_chance.py`` compares them),
  some hundred times faster than through game states.

Chunks are seeded as in :mod:`yatzy.strategy.simulate`, so a run does not depend on
the number of workers.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from yatzy.rules import RuleSet
from yatzy.strategy.keep_arrays import keep_arrays, model_args
from yatzy.strategy.levels import OPTIMAL_LEVELS, SKILL_TEMPERATURES, WINNER_LEVELS
from yatzy.strategy.sim_result import SimulationResult, chunk_rng, simulation_note, yatzy_box

FAST_CHUNK = 2000
"""Games per chunk of the fast path."""

Runner = Callable[[int, int, int, bool], SimulationResult]


@dataclass(frozen=True)
class KernelTables:
    """Everything the kernel reads, as arrays (built once per rule set)."""

    args: tuple[Any, ...]
    ybox: int
    saved_all: bool = False


def kernel_tables(rules: RuleSet) -> KernelTables:
    """The kernel's view of the solver's table for ``rules`` (solved if not cached)."""
    from yatzy.strategy.advisor import solver_for

    solver = solver_for(rules.spec)
    model, layout = solver.model, solver.layout
    box = yatzy_box(rules)
    if rules.saved_rolls == "all":
        from yatzy.solver.saved import SavedSolver

        add, sub, nsub, _, rolls, roll_of_code, keep_of_subset = keep_arrays(rules.num_dice)
        assert isinstance(solver, SavedSolver)
        saved_args = (
            solver.table,
            solver.offsets,
            solver.u_first,
            solver.u_count,
            layout.idx_of_mask.astype(np.int64),
            layout.allowed.astype(np.int64),
            model.score.astype(np.int64),
            model.box_face.astype(np.int64),
            rules.box_index[box],
            int(model.threshold),
            rules.threshold,
            rules.bonus,
            int(model.lr_chance),
            add,
            sub,
            nsub,
            rolls,
            roll_of_code,
            keep_of_subset,
        )
        return KernelTables(saved_args, -1, saved_all=True)
    args = (
        np.ascontiguousarray(solver.table),
        layout.idx_of_mask.astype(np.int64),
        layout.allowed.astype(np.int64),
        *model_args(model, rules, rules.box_index[box]),
    )
    return KernelTables(args, int(model.ybox))


def fast_simulator(rules: RuleSet, bot: str) -> Runner | None:
    """A runner ``(games, seed, workers, progress) -> result``, or ``None``."""
    from yatzy.strategy.advisor import is_exact

    if bot in SKILL_TEMPERATURES or bot in ("greedy", "random"):
        from yatzy.strategy.outcomes import kernel_supported

        if not kernel_supported(rules):
            return None

        def levels(games: int, seed: int, workers: int, progress: bool) -> SimulationResult:
            return run_levels(rules, bot, games, seed, workers, progress)

        return levels
    # Alone, the bot for the win has nobody to beat: it plays the optimal strategy.
    if (bot not in OPTIMAL_LEVELS and bot not in WINNER_LEVELS) or not is_exact(rules):
        return None

    def runner(games: int, seed: int, workers: int, progress: bool) -> SimulationResult:
        return run_fast(rules, bot, games, seed, workers, progress)

    return runner


def play_chunk(tables: KernelTables, seed: int, chunk: int, count: int) -> tuple[Any, ...]:
    """Play one chunk with the kernel; returns (scores, bonuses, yatzys) arrays."""
    scores = np.zeros(count, dtype=np.int64)
    bonuses = np.zeros(count, dtype=np.int64)
    yatzys = np.zeros(count, dtype=np.int64)
    kernel_seed = chunk_rng(seed, chunk).getrandbits(31)
    if tables.saved_all:
        from yatzy.kernels import saved_simulate

        saved_end = np.zeros(count, dtype=np.int64)
        saved_simulate.play_games(
            kernel_seed,
            scores,
            bonuses,
            yatzys,
            saved_end,
            int(tables.args[4].shape[0]) - 1,  # every box open (idx_of_mask covers all masks)
            0,
            0,
            *tables.args,
        )
        return scores, bonuses, yatzys
    from yatzy.kernels.simulate import play_games

    play_games(kernel_seed, scores, bonuses, yatzys, *tables.args)
    return scores, bonuses, yatzys


def run_fast(
    rules: RuleSet, bot: str, games: int, seed: int, workers: int, progress: bool
) -> SimulationResult:
    """Play ``games`` optimal games with the kernel on ``workers`` threads."""
    tables = kernel_tables(rules)
    play_chunk(tables, seed, 0, 1)  # compile (or load the compiled kernel) before timing
    return _threaded(
        rules, bot, games, seed, workers, progress, lambda i, n: play_chunk(tables, seed, i, n)
    )


def level_chunk(rules: RuleSet, bot: str, seed: int, chunk: int, count: int) -> tuple[Any, ...]:
    """Chunk ``chunk`` (``count`` games) of a level's run with the win chances' kernel,
    from a new game of one seat: (scores, bonuses, yatzys) arrays.  A sampler per
    chunk, as each thread keeps its own memo of within-turn values."""
    from yatzy.game import Game
    from yatzy.kernels.win import BONUS_BIT
    from yatzy.strategy.outcomes import KernelSampler, policy_for

    state = Game(rules, ["P"]).new_initial_state(starter=0)
    sampler = KernelSampler(state, 0, policy_for(bot, rules), True)
    scores, boxes = sampler.sample_boxes(count, chunk_rng(seed, chunk).getrandbits(31))
    box = rules.box_index[yatzy_box(rules)]
    return scores, (boxes >> BONUS_BIT) & 1, (boxes >> box) & 1


def run_levels(
    rules: RuleSet, bot: str, games: int, seed: int, workers: int, progress: bool
) -> SimulationResult:
    """Play ``games`` games of the level ``bot`` with the kernel on ``workers`` threads."""
    level_chunk(rules, bot, seed, 0, 1)  # the table and the kernel, before timing
    return _threaded(
        rules, bot, games, seed, workers, progress, lambda i, n: level_chunk(rules, bot, seed, i, n)
    )


def _threaded(
    rules: RuleSet,
    bot: str,
    games: int,
    seed: int,
    workers: int,
    progress: bool,
    play: Callable[[int, int], tuple[Any, ...]],
) -> SimulationResult:
    """The run's chunks of :data:`FAST_CHUNK` games, ``play(chunk, count)`` each on
    ``workers`` threads (the kernels release the GIL), summed up in chunk order."""
    from tqdm import tqdm

    chunks = [(i, min(FAST_CHUNK, games - i * FAST_CHUNK)) for i in range(-(-games // FAST_CHUNK))]
    start = time.perf_counter()
    parts = []
    with (
        tqdm(
            total=games,
            disable=None if progress else True,
            unit="games",
            desc=f"{bot} {rules.spec}",
        ) as bar,
        ThreadPoolExecutor(max_workers=workers) as pool,
    ):
        futures = [pool.submit(play, i, n) for i, n in chunks]
        for future, (_, count) in zip(futures, chunks, strict=True):
            parts.append(future.result())
            bar.update(count)
    seconds = time.perf_counter() - start
    scores = np.concatenate([p[0] for p in parts])
    return SimulationResult(
        rules.spec,
        bot,
        seed,
        scores.tolist(),
        int(sum(int(p[1].sum()) for p in parts)),
        int(sum(int(p[2].sum()) for p in parts)),
        seconds,
        "kernel",
        simulation_note(rules, bot),
    )
