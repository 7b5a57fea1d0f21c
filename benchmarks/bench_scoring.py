"""Scoring throughput of every variant's default rule set (and the option sets that
change scoring).

Prints, per rule set: the time to build its score table (``score_table``), pure
scorer calls per second (``rules.scorers`` on face counts), table lookups per
second (``score_table(rules).row``) and checked ``RuleSet.score`` calls per second.
Run: ``.venv/bin/python benchmarks/bench_scoring.py [--seconds S]``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from yatzy.rules import RuleSet, all_rolls
from yatzy.rules import scoring as sc
from yatzy.rules.tables import ScoreTable

SPECS = (
    "yatzy",
    "yatzy+lenient",
    "yahtzee",
    "maxi",
    "maxi+lenient",
    "dubbel",
    "dubbel+scoring=strict",
    "dubbel+scoring=international",
)


def _rate(fn: Callable[[int], int], seconds: float) -> float:
    """Calls per second of ``fn(n)``, which makes ``n`` calls and returns how many."""
    n, spent, calls = 256, 0.0, 0
    while spent < seconds:
        start = time.perf_counter()
        calls += fn(n)
        spent += time.perf_counter() - start
        n *= 2
    return calls / spent


def bench(spec: str, seconds: float, rng: random.Random) -> dict[str, float]:
    """The figures of one rule set."""
    rules = RuleSet.parse(spec)
    start = time.perf_counter()
    table = ScoreTable(rules)  # uncached: the cost paid once per rule set
    build = time.perf_counter() - start

    boxes = rules.boxes
    scorers = [rules.scorers[b] for b in boxes]
    fives = all_rolls(rules.dice_per_result)
    counts = [sc.counts_of(rng.choice(fives)) for _ in range(997)]
    rolls = [tuple(rng.randint(1, 6) for _ in range(rules.num_dice)) for _ in range(997)]
    rolls_list = [list(r) for r in rolls]

    def scorer_calls(n: int) -> int:
        done = 0
        k = len(counts)
        for i in range(n):
            c = counts[i % k]
            for f in scorers:
                f(c)
            done += len(scorers)
        return done

    def row_lookups(n: int) -> int:
        row = table.row
        k = len(rolls)
        for i in range(n):
            row(rolls[i % k])
        return n

    def checked_calls(n: int) -> int:
        score = rules.score
        k = len(rolls_list)
        nb = len(boxes)
        for i in range(n):
            score(boxes[i % nb], rolls_list[i % k])
        return n

    return {
        "build_s": build,
        "scorer_per_s": _rate(scorer_calls, seconds),
        "row_per_s": _rate(row_lookups, seconds),
        "score_per_s": _rate(checked_calls, seconds),
    }


def main() -> None:
    """Print the table of figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.5, help="time per measurement")
    args = parser.parse_args()
    rng = random.Random(2026)
    print(
        f"{'rule set':<30} {'table build':>11} {'scorer calls/s':>15} "
        f"{'row lookups/s':>14} {'score() calls/s':>16}"
    )
    for spec in SPECS:
        f = bench(spec, args.seconds, rng)
        print(
            f"{spec:<30} {f['build_s'] * 1000:>9.1f}ms {f['scorer_per_s']:>15,.0f} "
            f"{f['row_per_s']:>14,.0f} {f['score_per_s']:>16,.0f}"
        )
    print(
        "scorer: one pure scorer on face counts (one result: five faces in dubbel); "
        "row: every box of a roll from the table; score(): one checked box "
        "(dubbel: best over the dropped face)."
    )


if __name__ == "__main__":
    main()
