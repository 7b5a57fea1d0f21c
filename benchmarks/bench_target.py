"""Benchmark of the target tables: time and memory from scratch, checked by simulation.

Each rule set is solved in a fresh subprocess (so peak memory is its own): the
kernels are compiled (or loaded from numba's cache) first, on a tiny sub-game, and
not counted; then the whole target table (mode max) is solved without the disk
cache.  It prints the wall and CPU time, the process's peak resident memory, the
table's size and P(final Total >= T) from an empty sheet for each ``--targets``.

Then (unless ``--games 0``) it plays ``--games`` solo games with target play for
each T and prints the success rate with its standard error: it must agree with
the table within two standard errors (marked ``ok``; about one check in twenty
misses by chance at that width).

    python benchmarks/bench_target.py                       # yatzy and yahtzee
    python benchmarks/bench_target.py yatzy --games 2000 --targets 200 250 300
    python benchmarks/bench_target.py yatzy --store          # keep the table cached
    python benchmarks/bench_target.py yatzy --cached --games 4000 --targets 300

``--store`` puts the solved table into the disk cache (not timed), so that
``yatzy solve --target`` and the advisor load it.  ``--cached`` skips the timed
solve and only simulates, on the table in the disk cache (built there first if it
is missing).  Run it with ``nice -n 10`` on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import time
from typing import Any

DEFAULT_SPECS = ("yatzy", "yahtzee")


def _rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure(spec: str, targets: list[int], store: bool) -> dict[str, Any]:
    """Solve ``spec`` in this process and return the figures (run in a subprocess)."""
    from yatzy.game import Sheet
    from yatzy.rules import RuleSet
    from yatzy.solver.target import TargetTable

    rules = RuleSet.parse(spec)
    start = time.perf_counter()
    TargetTable(rules, open_boxes=list(rules.boxes[-2:]), use_cache=False)
    compile_s = time.perf_counter() - start
    before = _rss_mib()
    cpu = time.process_time()
    wall = time.perf_counter()
    table = TargetTable(rules, use_cache=False)
    wall = time.perf_counter() - wall
    cpu = time.process_time() - cpu
    if store:
        table.store()
    vec = table.sheet_at_least(Sheet(rules))
    return {
        "rules": spec,
        "seconds": wall,
        "cpu_seconds": cpu,
        "compile_seconds": compile_s,
        "peak_rss_mib": _rss_mib(),
        "rss_before_solve_mib": before,
        "table_mib": table.nbytes / 2**20,
        "values": int(table.vals.shape[0]),
        "mean_of_max": float(vec[1:].sum()),
        "probability": {str(t): float(vec[t]) if t < vec.shape[0] else 0.0 for t in targets},
    }


def simulate(spec: str, target: int, games: int, seed: int) -> dict[str, Any]:
    """Play ``games`` solo games aiming at ``target`` (the cached table is loaded)."""
    from yatzy.game import Sheet
    from yatzy.rules import RuleSet
    from yatzy.solver.target import TargetTable
    from yatzy.strategy.target_play import play_for_target

    rules = RuleSet.parse(spec)
    table = TargetTable(rules)
    want = float(table.sheet_at_least(Sheet(rules))[target])
    rng = random.Random(seed)
    start = time.perf_counter()
    hits = sum(play_for_target(table, target, rng) >= target for _ in range(games))
    rate = hits / games
    se = (want * (1 - want) / games) ** 0.5
    return {
        "rules": spec,
        "target": target,
        "games": games,
        "table": want,
        "simulated": rate,
        "standard_error": se,
        "within_2se": abs(rate - want) <= 2 * se,
        "seconds": time.perf_counter() - start,
    }


def main() -> int:
    """Run the benchmark and print one line per rule set and per simulated target."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("specs", nargs="*", default=list(DEFAULT_SPECS))
    parser.add_argument("--targets", type=int, nargs="+", default=[200, 250, 300])
    parser.add_argument("--games", type=int, default=1000, help="games per target (0: none)")
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--store", action="store_true", help="keep the table in the cache")
    parser.add_argument(
        "--cached", action="store_true", help="no timed solve: simulate on the cached table"
    )
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure(args.specs[0], args.targets, args.store)))
        return 0
    cores = len(os.sched_getaffinity(0))
    print(f"target tables (mode max, float32), {cores} cores")
    print(
        f"{'rules':<12}{'solve s':>9}{'cpu s':>8}{'jit s':>7}{'peak MiB':>10}"
        f"{'table MiB':>10}  P(>= T) from the start"
    )
    for spec in args.specs:
        if args.cached:
            print(f"{spec:<12}(the cached table; no timed solve)", flush=True)
            simulate_all(spec, args)
            continue
        cmd = [sys.executable, __file__, spec, "--one", "--targets", *map(str, args.targets)]
        # The simulation loads the table from the cache, so it is stored then.
        cmd += ["--store"] if args.store or args.games else []
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
        row = json.loads(out.strip().splitlines()[-1])
        probs = "  ".join(f"{t}: {p:.6f}" for t, p in row["probability"].items())
        print(
            f"{row['rules']:<12}{row['seconds']:>9.1f}{row['cpu_seconds']:>8.1f}"
            f"{row['compile_seconds']:>7.1f}{row['peak_rss_mib']:>10.0f}"
            f"{row['table_mib']:>10.1f}  {probs}",
            flush=True,
        )
        simulate_all(spec, args)
    return 0


def simulate_all(spec: str, args: argparse.Namespace) -> None:
    """Simulate every ``--targets`` of ``spec`` and print one line each."""
    for target in args.targets if args.games else []:
        sim = simulate(spec, target, args.games, args.seed + target)
        mark = "ok" if sim["within_2se"] else "OUTSIDE 2 SE"
        print(
            f"  simulated T={target}: {sim['simulated']:.4f} ± {sim['standard_error']:.4f} "
            f"(table {sim['table']:.4f}, {sim['games']} games, {sim['seconds']:.0f} s) {mark}",
            flush=True,
        )


if __name__ == "__main__":
    sys.exit(main())
