"""Maxi with saved rolls: the approximate strategy's saved-roll value fitted by simulation.

Until ``yatzy solve maxi+saved_rolls`` has built the exact table (3.2 GiB, an hour),
play uses the approximate strategy of :mod:`yatzy.strategy.approx`: an exact search
within the turn, the state after it valued by the Maxi table without saved rolls plus
a constant per saved roll.  That valuation written into the exact solver's layout
(:meth:`yatzy.solver.saved.SavedSolver.approximate`) lets the compiled simulation of
:mod:`yatzy.kernels.saved_simulate` play the strategy thousands of times faster
than the game state does (``tests/solver/test_saved_all.py`` checks that the table values every
option as the strategy does).

Variants, each played on the same seeds (chunk by chunk, so the dice agree until the
choices part; the differences' standard errors are computed pairwise):

- ``today``: the strategy as issue 16 found it: 2 points a saved roll, saved rolls
  still worth 2 when the sheet is full, a write that completes the upper bonus
  counting it twice;
- ``fixed``: the bonus counted once, otherwise as today;
- ``c=V``: saved rolls worth ``V`` points each and nothing once the sheet is full;
- ``c=V/A``: the same, but at most ``A`` saved rolls per box still open count.

``--values`` and ``--caps`` give the grid of ``V`` and ``A`` (``inf``: no cap); the best
is played again on ``--confirm`` fresh
games against ``today``.  When the exact table is cached, the optimal bot plays the
same games too: the ceiling no strategy can beat on average.

    nice -n 10 python benchmarks/bench_saved_approx.py --games 20000 --values 3 4 6 --caps 0.5 1 inf
"""

from __future__ import annotations

import argparse
import gc
import math
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

CHUNK = 1000


def kernel_args(solver: Any) -> tuple[Any, ...]:
    """The saved-roll simulation kernel's arguments for a compact table."""
    from yatzy.strategy.keep_arrays import keep_arrays

    rules, m, lay = solver.rules, solver.model, solver.layout
    add, sub, nsub, _, rolls, roll_of_code, keep_of_subset = keep_arrays(rules.num_dice)
    return (
        solver.table,
        solver.offsets,
        solver.u_first,
        solver.u_count,
        lay.idx_of_mask.astype(np.int64),
        lay.allowed.astype(np.int64),
        m.score.astype(np.int64),
        m.box_face.astype(np.int64),
        rules.box_index["maxi_yatzy"],
        int(m.threshold),
        rules.threshold,
        rules.bonus,
        int(m.lr_chance),
        add,
        sub,
        nsub,
        rolls,
        roll_of_code,
        keep_of_subset,
    )


def play(solver: Any, games: int, seed: int, workers: int) -> dict[str, np.ndarray]:
    """``games`` whole games with the table's strategy; per-game arrays."""
    from yatzy.kernels import saved_simulate

    args = kernel_args(solver)
    full = int(solver.layout.root)  # the whole game: every box open

    def chunk(first: int) -> tuple[np.ndarray, ...]:
        count = min(CHUNK, games - first)
        out = tuple(np.zeros(count, dtype=np.int64) for _ in range(4))
        saved_simulate.play_games(seed * 1_000_003 + first, *out, full, 0, 0, *args)
        return out

    with ThreadPoolExecutor(workers) as pool:
        parts = list(pool.map(chunk, range(0, games, CHUNK)))
    names = ("score", "bonus", "yatzy", "saved_end")
    return {n: np.concatenate([p[i] for p in parts]) for i, n in enumerate(names)}


def table_for(spec: str, variant: str) -> Any:
    """The compact table that makes the kernel play ``variant``."""
    from yatzy.solver import Solver
    from yatzy.solver.saved import SavedSolver

    if variant == "optimal":
        return Solver(spec)
    if variant == "today":
        return SavedSolver.approximate(spec, 2.0, end_value=True, bonus_twice=True)
    if variant == "fixed":
        return SavedSolver.approximate(spec, 2.0, end_value=True)
    value, _, cap = variant.removeprefix("c=").partition("/")
    return SavedSolver.approximate(
        spec, float(value), saved_roll_cap=float(cap) if cap else math.inf
    )


def mean_se(xs: np.ndarray) -> tuple[float, float]:
    """The mean and its standard error."""
    return float(xs.mean()), float(xs.std(ddof=1) / math.sqrt(xs.shape[0]))


def run(
    spec: str, variants: list[str], games: int, seed: int, workers: int
) -> dict[str, dict[str, np.ndarray]]:
    """Play every variant on the same seeds and print a line each."""
    results: dict[str, dict[str, np.ndarray]] = {}
    for variant in variants:
        started = time.perf_counter()
        solver = table_for(spec, variant)
        built = time.perf_counter() - started
        results[variant] = r = play(solver, games, seed, workers)
        del solver
        gc.collect()
        m, se = mean_se(r["score"].astype(np.float64))
        line = (
            f"{variant:<9} mean {m:8.3f} ± {se:.3f}  bonus {r['bonus'].mean():6.1%}  "
            f"Maxi-Yatzy {r['yatzy'].mean():6.1%}  rolls left at the end "
            f"{r['saved_end'].mean():4.2f}"
        )
        if "today" in results and variant != "today":
            dm, dse = mean_se((r["score"] - results["today"]["score"]).astype(np.float64))
            line += f"  vs today {dm:+.3f} ± {dse:.3f}"
        line += f"  ({built:.0f} s table, {time.perf_counter() - started - built:.0f} s games)"
        print(line, flush=True)
    return results


def main() -> int:
    """Fit the saved-roll value on a grid, then confirm the best against today's."""
    from yatzy.solver.saved import table_ready

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--spec", default="maxi+saved_rolls")
    parser.add_argument("--games", type=int, default=20_000, help="games per grid value")
    parser.add_argument("--values", type=float, nargs="+", default=[1.0, 2.0, 3.0, 4.0, 5.0])
    parser.add_argument("--caps", type=float, nargs="+", default=[math.inf])
    parser.add_argument("--confirm", type=int, default=20_000, help="fresh games for the best")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    started = time.perf_counter()
    grid = [
        "today",
        "fixed",
        *(
            f"c={v:g}" + (f"/{a:g}" if math.isfinite(a) else "")
            for v in args.values
            for a in args.caps
        ),
    ]
    print(f"{args.spec}: grid, {args.games} games each (seed {args.seed})", flush=True)
    fit = run(args.spec, grid, args.games, args.seed, args.workers)
    best = max((v for v in grid if v.startswith("c=")), key=lambda v: float(fit[v]["score"].mean()))
    print(f"best value: {best}", flush=True)
    confirm = ["today", best]
    if table_ready(args.spec):
        confirm.append("optimal")
    print(f"{args.spec}: confirmation, {args.confirm} fresh games (seed {args.seed + 1})")
    run(args.spec, confirm, args.confirm, args.seed + 1, args.workers)
    print(f"{time.perf_counter() - started:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
