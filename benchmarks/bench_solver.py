"""Benchmark of the exact solver: time to solve from scratch and peak memory.

Each rule set is solved in a fresh subprocess (so peak memory is its own): the
kernels are compiled (or loaded from numba's cache) first, on a tiny sub-game, and
not counted; then the whole table is solved without the disk cache, ``--repeat``
times, and the best wall time is reported with the CPU time of that run, the
process's peak resident memory, the memory before the solve and the table's size.

    python benchmarks/bench_solver.py                  # yatzy and yahtzee, float32
    python benchmarks/bench_solver.py --dtype float64 --repeat 3
    python benchmarks/bench_solver.py maxi             # the whole of Maxi (minutes)
    python benchmarks/bench_solver.py maxi+last_resort --store   # keep the table

``--store`` puts the last solved table into the solver's disk cache afterwards (not
timed), so that ``yatzy solve``, ``advise`` and ``simulate`` load it instead of
solving again.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

DEFAULT_SPECS = ("yatzy", "yahtzee", "yahtzee+joker=free")


def _rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure(spec: str, dtype: str, repeat: int, store: bool = False) -> dict[str, float | str]:
    """Solve ``spec`` in this process and return the figures (run in a subprocess)."""
    from yatzy.rules import RuleSet
    from yatzy.solver import Solver, cache

    rules = RuleSet.parse(spec)
    start = time.perf_counter()
    Solver(rules, open_boxes=rules.boxes[-2:], dtype=dtype, use_cache=False)  # type: ignore[arg-type]
    compile_s = time.perf_counter() - start
    before = _rss_mib()
    best: tuple[float, float] | None = None
    score = 0.0
    table_mib = 0.0
    for _ in range(repeat):
        cpu = time.process_time()
        wall = time.perf_counter()
        solver = Solver(rules, dtype=dtype, use_cache=False)  # type: ignore[arg-type]
        wall = time.perf_counter() - wall
        cpu = time.process_time() - cpu
        score = solver.expected_score
        table_mib = solver.table.nbytes / 2**20
        if best is None or wall < best[0]:
            best = (wall, cpu)
        if store:
            key = cache.table_key(rules.spec, "", dtype, solver.model.fingerprint())
            cache.save(key, solver.table, wall)
        del solver
    assert best is not None
    return {
        "rules": spec,
        "dtype": dtype,
        "expected_score": score,
        "seconds": best[0],
        "cpu_seconds": best[1],
        "compile_seconds": compile_s,
        "peak_rss_mib": _rss_mib(),
        "rss_before_solve_mib": before,
        "table_mib": table_mib,
    }


def main() -> int:
    """Run the benchmark and print one line per rule set."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("specs", nargs="*", default=list(DEFAULT_SPECS))
    parser.add_argument("--dtype", choices=("float32", "float64"), default="float32")
    parser.add_argument("--repeat", type=int, default=1, help="solves per rule set (best wall)")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help="print JSON lines")
    parser.add_argument(
        "--store", action="store_true", help="keep the solved table in the disk cache"
    )
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure(args.specs[0], args.dtype, args.repeat, args.store)))
        return 0
    try:
        import os

        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        cores = os.cpu_count() or 1
    if not args.json:
        print(f"exact solver, {args.dtype}, {cores} cores, best of {args.repeat}")
        print(
            f"{'rules':<22}{'expected':>11}{'solve s':>9}{'cpu s':>8}{'jit s':>7}"
            f"{'peak MiB':>10}{'before':>8}{'table':>8}"
        )
    for spec in args.specs:
        cmd = [sys.executable, __file__, spec, "--one", "--dtype", args.dtype]
        cmd += ["--repeat", str(args.repeat)] + (["--store"] if args.store else [])
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
        row = json.loads(out.strip().splitlines()[-1])
        if args.json:
            print(json.dumps(row))
            continue
        print(
            f"{row['rules']:<22}{row['expected_score']:>11.4f}{row['seconds']:>9.2f}"
            f"{row['cpu_seconds']:>8.2f}{row['compile_seconds']:>7.2f}"
            f"{row['peak_rss_mib']:>10.0f}{row['rss_before_solve_mib']:>8.0f}"
            f"{row['table_mib']:>8.1f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
