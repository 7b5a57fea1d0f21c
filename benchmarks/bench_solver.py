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

``--versus`` times whole processes side by side instead, from process start to the
answer: ``yatzy solve yatzy`` with a fresh, empty table cache each run against the
Rust-backed ``yatzy-solver`` 1.0.0 from PyPI solving the same game
(``Solver.build(Variant("yatzy-scandinavian"))`` and the start value), the two
interleaved, ``--repeat`` runs each; it prints every run, the minimum and median of
each and their ratios.  yatzy-solver lives in its own virtual environment,
``benchmarks/.venv-bench`` (git-ignored), created on first use with pip.  numba's
cache of compiled kernels, with the solve kernel's native object file kept beside it
(see ``yatzy.kernels.native``), is warm (one untimed run first builds it, as the
first run after an install does); the compile of a cold cache (an empty
``NUMBA_CACHE_DIR``) is timed once and printed apart.  Then it times ``yatzy solve
yatzy`` loading the cached table (whole process) and the table load alone.  Run it
under ``nice`` on a shared machine: both solvers inherit the same niceness.

    nice -n 10 python benchmarks/bench_solver.py --versus --repeat 5
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

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


BENCH_VENV = Path(__file__).resolve().parent / ".venv-bench"
RIVAL = "yatzy-solver==1.0.0"
RIVAL_CODE = (
    "import yatzy_solver as ys\n"
    "s = ys.Solver.build(ys.Variant('yatzy-scandinavian'))\n"
    "print(s.state_value('upper 0 | filled -'))\n"
)


def rival_python() -> Path:
    """The Python of the benchmark's own environment, with yatzy-solver installed."""
    python = BENCH_VENV / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(BENCH_VENV)], check=True)
    probe = [str(python), "-c", "import yatzy_solver"]
    if subprocess.run(probe, capture_output=True).returncode != 0:
        pip = [str(python), "-m", "pip", "install", "-q", RIVAL]
        subprocess.run(pip, check=True)
    return python


def _timed(cmd: list[str], env: dict[str, str]) -> tuple[float, str]:
    """Wall seconds of one process from start to exit, and its last line of output."""
    start = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env).stdout
    return time.perf_counter() - start, out.strip().splitlines()[-1]


def versus(repeat: int) -> int:
    """Time ``yatzy solve yatzy`` (fresh table cache) against yatzy-solver, interleaved."""
    rival = [str(rival_python()), "-c", RIVAL_CODE]
    yatzy_cli = str(Path(sys.executable).with_name("yatzy"))
    ours = [yatzy_cli, "solve", "yatzy", "--json", "--quiet"]
    base = dict(os.environ)
    with tempfile.TemporaryDirectory(prefix="bench-solver-") as tmp:
        env = dict(base, XDG_CACHE_HOME=f"{tmp}/cold")
        cold_env = dict(env, NUMBA_CACHE_DIR=f"{tmp}/numba")
        cold, _ = _timed(ours, cold_env)  # numba compiles every kernel into an empty cache
        _timed(ours, dict(base, XDG_CACHE_HOME=f"{tmp}/warm-up"))  # numba's own cache warm
        times: dict[str, list[float]] = {"yatzy": [], "yatzy-solver": []}
        answers: dict[str, str] = {}
        print(f"yatzy solve yatzy vs {RIVAL}, whole processes, nice {os.nice(0)}")
        for i in range(repeat):
            # Alternate which goes first, so neither always meets the same load.
            order = ["yatzy", "yatzy-solver"] if i % 2 == 0 else ["yatzy-solver", "yatzy"]
            for name in order:
                if name == "yatzy":
                    run_env = dict(base, XDG_CACHE_HOME=f"{tmp}/run{i}")  # empty: solves
                    seconds, line = _timed(ours, run_env)
                    answers[name] = f"{json.loads(line)['expected_score']:.6f}"
                else:
                    seconds, line = _timed(rival, base)
                    answers[name] = f"{float(line):.6f}"
                times[name].append(seconds)
                print(f"  run {i + 1}: {name:<13}{seconds:8.2f} s  ({answers[name]})", flush=True)
        ours_t, rival_t = times["yatzy"], times["yatzy-solver"]
        for name, ts in times.items():
            print(
                f"{name:<13} min {min(ts):6.2f} s  median {statistics.median(ts):6.2f} s"
                f"  (expected score {answers[name]})"
            )
        median_ratio = statistics.median(ours_t) / statistics.median(rival_t)
        print(
            f"ratio yatzy / yatzy-solver: median {median_ratio:.3f}"
            f", min {min(ours_t) / min(rival_t):.3f} (goal <= 0.072)"
        )
        print(f"first run with an empty numba cache (compiles the kernels): {cold:.2f} s")
        # Loading: the table of the last run is in its cache now.
        load_env = dict(base, XDG_CACHE_HOME=f"{tmp}/run{repeat - 1}")
        loads = [_timed(ours, load_env)[0] for _ in range(max(3, repeat))]
        probe = (
            "import time\nfrom yatzy.solver import Solver\nt = time.perf_counter()\n"
            "s = Solver('yatzy')\nassert s.from_cache\nprint(time.perf_counter() - t)\n"
        )
        inner = [
            float(_timed([sys.executable, "-c", probe], load_env)[1]) for _ in range(max(3, repeat))
        ]
        print(
            f"cached table: yatzy solve yatzy (whole process) min {min(loads):.3f} s, median "
            f"{statistics.median(loads):.3f} s; Solver('yatzy') load alone "
            f"min {min(inner) * 1000:.1f} ms"
        )
    return 0


def main() -> int:
    """Run the benchmark and print one line per rule set."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("specs", nargs="*", default=list(DEFAULT_SPECS))
    parser.add_argument("--dtype", choices=("float32", "float64"), default="float32")
    parser.add_argument("--repeat", type=int, default=1, help="solves per rule set (best wall)")
    parser.add_argument(
        "--versus", action="store_true", help="whole processes against yatzy-solver 1.0.0"
    )
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help="print JSON lines")
    parser.add_argument(
        "--store", action="store_true", help="keep the solved table in the disk cache"
    )
    args = parser.parse_args()
    if args.versus:
        return versus(max(args.repeat, 1))
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
