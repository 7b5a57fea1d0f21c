"""Benchmark: games per second once the table is loaded (target >= 10,000 optimal
games a second for yatzy).

Run by hand: ``.venv/bin/python benchmarks/bench_simulate.py [SPEC ...] [--games N]
[--bot LEVEL]``.  The table is loaded (or solved and cached) and the kernel compiled
before timing (``simulate`` itself plays one game first); the figure is the wall time
of ``simulate``'s games with one worker, then with one per core.  ``--bot`` times
another level (the skill levels, greedy and random run on the win chances' kernel).
"""

from __future__ import annotations

import argparse
import time

from yatzy.strategy.fast import kernel_tables, play_chunk
from yatzy.strategy.simulate import default_workers, simulate


def main() -> None:
    """Print games per second for each rules spec."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("specs", nargs="*", default=["yatzy", "yahtzee"])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot", default="optimal", help="the level (default optimal)")
    args = parser.parse_args()
    for spec in args.specs:
        start = time.perf_counter()
        from yatzy.rules import RuleSet

        if args.bot == "optimal":
            tables = kernel_tables(RuleSet.parse(spec))
            play_chunk(tables, 0, 0, 1)
        else:
            simulate(spec, args.bot, 1, seed=args.seed, workers=1)
        setup = time.perf_counter() - start
        for workers in sorted({1, default_workers()}):
            result = simulate(spec, args.bot, args.games, seed=args.seed, workers=workers)
            print(
                f"{spec:<22} workers {workers}: {result.games:,} {args.bot} games in "
                f"{result.seconds:.2f} s = {result.games_per_second:,.0f} games/s "
                f"(mean {result.mean:.2f}, setup {setup:.1f} s)"
            )


if __name__ == "__main__":
    main()
