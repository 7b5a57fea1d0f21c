"""Benchmark of the exact ``maxi+saved_rolls`` solve (rolls accumulate): the whole table.

Solves the whole game (kernels compiled first on a small sub-game, not counted),
stores the table in the solver's disk cache (unless ``--no-store``) and prints the
wall time, the CPU time of every thread, the peak resident memory, the table's size
and the expected score; each layer's running time goes to stderr as it finishes.

    nice -n 10 python benchmarks/bench_maxi_saved.py            # tens of CPU minutes
    python benchmarks/bench_maxi_saved.py --open 12 --no-store  # a sub-game: a quick figure

``--open N`` solves only the sub-game of the last ``N`` boxes instead (for a quick
figure or an extrapolation from the layers' times).
"""

from __future__ import annotations

import argparse
import json
import logging
import resource
import time


def main() -> None:
    """Solve, store and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", default="maxi+saved_rolls")
    parser.add_argument("--dtype", default="float32", choices=("float32", "float64"))
    parser.add_argument("--open", type=int, default=0, help="only the sub-game of the last N boxes")
    parser.add_argument("--no-store", action="store_true", help="do not store the table")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    from yatzy.rules import RuleSet
    from yatzy.solver import Solver

    rules = RuleSet.parse(args.spec)
    start = time.perf_counter()
    Solver(rules, open_boxes=rules.boxes[-2:], dtype=args.dtype, use_cache=False)
    compile_s = time.perf_counter() - start
    open_boxes = list(rules.boxes[-args.open :]) if args.open else None
    cpu = time.process_time()
    wall = time.perf_counter()
    solver = Solver(rules, open_boxes=open_boxes, dtype=args.dtype, use_cache=not args.no_store)
    wall = time.perf_counter() - wall
    cpu = time.process_time() - cpu
    figures = {
        "rules": solver.spec,
        "dtype": args.dtype,
        "from_cache": solver.from_cache,
        "compile_s": round(compile_s, 1),
        "wall_s": round(wall, 1),
        "cpu_s": round(cpu, 1),
        "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        "table_mib": round(solver.table.nbytes / 2**20),
        "expected_score": round(solver.expected_score, 4),
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
