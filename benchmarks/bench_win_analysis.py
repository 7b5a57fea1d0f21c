"""Benchmark of the post-game analysis in win chance: the time of a whole game's
analysis and the margins of its simulated chances.

For each case it plays a seeded game with bots (people's seats as the optimal bot,
some mistakes made by a casual bot's seat), then analyses it as ``yatzy analyze
--win`` does (``analyze_wins(state, levels=..., budget=B)``, people rated as the
optimal strategy) and prints the wall-clock and CPU time, the decisions rated, how
many chances were simulated, and the largest and the mean margin (95 % half-width)
of the simulated ones.  Cases: yatzy with 2 and 4 players (exact wherever the
whole game's optimal-play target table is in the disk cache or a sub-game solves
within the budget, otherwise simulated), and maxi with 2 (no target tables: all
simulated).  ``--no-table`` hides the whole game's table.  ``--jobs N`` rates the
positions in N worker processes first (as ``yatzy analyze --win`` does by default,
:func:`yatzy.strategy.win_spread.spread_wins`); its CPU column is then this process's
only, the wall clock the whole.

    nice -n 10 .venv/bin/python benchmarks/bench_win_analysis.py
    nice -n 10 .venv/bin/python benchmarks/bench_win_analysis.py --no-table --budget 0.1
    .venv/bin/python benchmarks/bench_win_analysis.py --jobs 2 --cases yatzy:2 yatzy:3
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from typing import Any

CASES = [("yatzy", 2), ("yatzy", 4), ("maxi", 2)]


def play(spec: str, players: int, seed: int) -> Any:
    """A finished game: seat 0 a casual bot (mistakes to find), the others optimal."""
    from yatzy.bots import make_bot
    from yatzy.game import Game, Player, Roll

    levels = ["casual"] + ["optimal"] * (players - 1)
    game = Game(spec, [Player(f"P{i}", None) for i in range(players)])
    state = game.new_initial_state(starter=0)
    bots = [make_bot(lv) for lv in levels]
    rng = random.Random(seed)
    while not state.is_terminal():
        action = bots[state.player].choose(state, rng)
        state.apply(action)
        if isinstance(action, Roll) or state.is_chance_node():
            state.roll(rng)
    return state


def measure(spec: str, players: int, budget: float, seed: int, jobs: int = 1) -> dict[str, Any]:
    """The figures of one whole game's analysis."""
    from yatzy.strategy.win_analysis import analyze_wins, forget_analysed
    from yatzy.strategy.win_spread import spread_wins

    state = play(spec, players, seed)
    forget_analysed()
    t0, c0 = time.perf_counter(), time.process_time()
    spread_wins(state, jobs=jobs, budget=budget)
    result = analyze_wins(state, budget=budget)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    margins = [p.margin for p in result.points if not p.exact]
    margins += [d.margin for d in result.decisions if not d.exact]
    return {
        "case": f"{spec} x{players}",
        "wall": wall,
        "cpu": cpu,
        "decisions": len(result.decisions),
        "points": len(result.points),
        "simulated": result.simulated,
        "max_margin": max(margins, default=0.0),
        "mean_margin": statistics.fmean(margins) if margins else 0.0,
        "costliest": max((d.cost for d in result.decisions), default=0.0),
    }


def main(argv: list[str] | None = None) -> int:
    """Run the cases and print one line each."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", type=float, default=0.2, help="CPU seconds per position")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-table", action="store_true", help="hide the whole game's table")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--cases", nargs="*", default=[f"{s}:{n}" for s, n in CASES])
    args = parser.parse_args(argv)
    if args.no_table:
        from yatzy.strategy import outcomes

        outcomes._whole_table = lambda rules: None  # type: ignore[assignment]
    load = os.getloadavg()[0]
    print(f"budget {args.budget} s per position, {args.jobs} job(s); load average {load:.2f}")
    print(
        f"{'case':<10} {'wall s':>7} {'cpu s':>7} {'decisions':>9} {'points':>6} "
        f"{'simulated':>9} {'max margin':>10} {'mean margin':>11} {'costliest':>9}"
    )
    # Warm the numba kernels and the expected-value tables outside the timings.
    measure("yatzy", 1 + 1, 0.01, 99)
    for case in args.cases:
        spec, _, n = case.partition(":")
        r = measure(spec, int(n or 2), args.budget, args.seed, args.jobs)
        print(
            f"{r['case']:<10} {r['wall']:>7.1f} {r['cpu']:>7.1f} {r['decisions']:>9} "
            f"{r['points']:>6} {r['simulated']:>9} {100 * r['max_margin']:>9.1f}% "
            f"{100 * r['mean_margin']:>10.1f}% {100 * r['costliest']:>8.1f}%"
        )
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
