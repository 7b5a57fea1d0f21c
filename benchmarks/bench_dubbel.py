"""DubbelYatzy's approximate strategy: its constant fitted by simulation, and variants compared.

The approximate strategy (:mod:`yatzy.strategy.approx`) values an open Extra box by a
constant.  Its natural value is what Extra ends up holding under the strategy's own
play, so the fit is a fixed point: play ``--games`` games with the constant ``c``,
take the mean of Extra's points ``m`` (with its standard error) and play again with
``m`` until they agree within a standard error.  Then every variant plays the same
``--games`` games (the same random source per game number, so the differences are
paired and their standard errors small):

- ``today``: the strategy before this benchmark (Extra ``-12``; a layer's final roll
  values an upper box as if it wrote 0 there; a write that completes the upper
  bonus counted the bonus twice, once in its gain and once in the table's future);
- ``fixed``: the bonus counted once, the same ``-12``;
- ``layers``: also each layer's final roll valuing upper boxes with their points;
- ``fitted``: that, with the fitted constant.

Each line prints the mean final score (Final: Total plus Extra) with its standard
error, the mean of Extra, and the paired difference against ``today``.

``--bound`` prints the value of a relaxation the exact solver can solve: every result
gets its own turn of six dice (a turn per box, 16 instead of 8; the keeps its own),
the Extra box is a free scratch (it scores nothing; the solver never writes a
negative box), the rest as the rule set.  It is a ceiling for comparison, not a
proven bound: the real game's joint keeps are a constraint this relaxation drops,
but its layers also see each other's dice during the turn, which the separate turns
do not.

``--spec maxi+saved_rolls`` compares the saved-roll strategy instead: ``today`` counts
a completed bonus twice, ``fixed`` once, ``fitted`` values a saved roll at
``--extra`` points instead of 2 (no fixed point is fitted there: give ``--extra``).

    nice -n 10 python benchmarks/bench_dubbel.py --games 2000 --workers 2
    nice -n 10 python benchmarks/bench_dubbel.py --games 10000 --only today,fitted --extra -9.5
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from typing import Any

CHUNK = 100


@cache
def _strategy(spec: str, variant: str, extra: float) -> Any:
    from yatzy.rules import RuleSet
    from yatzy.strategy.approx import ApproxStrategy

    rules = RuleSet.parse(spec)
    if not rules.double:
        if variant == "today":
            return ApproxStrategy(rules, bonus_twice=True)
        if variant == "fixed":
            return ApproxStrategy(rules)
        return ApproxStrategy(rules, saved_roll_value=extra)
    if variant == "today":
        return ApproxStrategy(rules, extra_value=-12.0, layer_points=False, bonus_twice=True)
    if variant == "fixed":
        return ApproxStrategy(rules, extra_value=-12.0, layer_points=False)
    if variant == "layers":
        return ApproxStrategy(rules, extra_value=-12.0)
    return ApproxStrategy(rules, extra_value=extra)


def play_chunk(
    spec: str, variant: str, extra: float, seed: int, first: int, count: int
) -> list[Any]:
    """Games ``first`` to ``first + count - 1``: (final score, Extra's points) each."""
    from yatzy.game import Game

    strategy = _strategy(spec, variant, extra)
    rules = strategy.rules
    out = []
    for i in range(first, first + count):
        rng = random.Random(f"bench-dubbel:{seed}:{i}")
        state = Game(rules, ["bot"]).new_initial_state(starter=0)
        while not state.is_terminal():
            if state.is_chance_node():
                state.roll(rng)
            else:
                state.apply(strategy.choose(state))
        sheet = state.sheets[0]
        extra_points = sheet.points("extra") if rules.double else 0
        out.append((sheet.final, extra_points or 0))
    return out


def play(
    pool: ProcessPoolExecutor, spec: str, variant: str, extra: float, games: int, seed: int
) -> list[tuple[int, int]]:
    """Play ``games`` games of a variant on the pool's workers (in game order)."""
    chunk = CHUNK if games >= 4 * CHUNK else max(1, games // 8)
    jobs = [
        pool.submit(play_chunk, spec, variant, extra, seed, first, min(chunk, games - first))
        for first in range(0, games, chunk)
    ]
    out: list[tuple[int, int]] = []
    for job in jobs:
        out.extend(job.result())
    return out


def relaxed_value(spec: str) -> float:
    """The solved value of the relaxation of ``--bound`` (16 single-layer turns)."""
    from unittest import mock

    import yatzy.solver._model as model_module
    import yatzy.solver.base as solver_module
    from yatzy.rules import RuleSet

    # The solver refuses DubbelYatzy (its turns write two boxes); played one layer a
    # turn, the rule set is a plain 6-dice game of its score table, which it solves.
    def allow(rules: RuleSet) -> None:
        return None

    with (
        mock.patch.object(model_module, "check_supported", allow),
        mock.patch.object(solver_module, "check_supported", allow),
    ):
        solver = solver_module.Solver(RuleSet.parse(spec), use_cache=False)
    return solver.expected_score


def mean_se(xs: list[float]) -> tuple[float, float]:
    """The mean and its standard error."""
    return statistics.fmean(xs), statistics.stdev(xs) / math.sqrt(len(xs))


def main() -> int:
    """Fit the constant, then compare the variants on the same games."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--spec", default="dubbel", help="dubbel (any options) or maxi+saved_rolls")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--extra", type=float, help="skip the fit: use this constant")
    parser.add_argument("--only", default="today,fixed,layers,fitted", help="variants to play")
    parser.add_argument("--bound", action="store_true", help="solve the relaxation and stop")
    args = parser.parse_args()
    if args.bound:
        value = relaxed_value(args.spec)
        print(f"{args.spec}: one layer a turn (a turn per box), Extra free: {value:.4f}")
        return 0
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        extra = args.extra
        if extra is None and "dubbel" not in args.spec:
            parser.error("--extra (the saved-roll value to try) is needed for saved rolls")
        if extra is None:
            c = -12.0
            for step in range(4):
                # The fit plays other games than the comparison (another seed).
                games = play(pool, args.spec, "fitted", c, args.games, args.seed + 1000 + step)
                m, se = mean_se([float(e) for _, e in games])
                print(f"fit {step + 1}: Extra valued {c:+.2f} -> Extra holds {m:+.2f} ± {se:.2f}")
                done = abs(m - c) <= se
                c = round(m, 2)
                if done:
                    break
            extra = c
        print(f"{args.spec}: constant {extra:+.2f} (games {args.games} per fit step)", flush=True)
        results: dict[str, list[tuple[int, int]]] = {}
        for variant in args.only.split(","):
            results[variant] = play(pool, args.spec, variant, extra, args.games, args.seed)
            scores = [float(s) for s, _ in results[variant]]
            m, se = mean_se(scores)
            em, _ = mean_se([float(e) for _, e in results[variant]])
            line = f"{variant:<8} mean {m:8.3f} ± {se:.3f}  Extra {em:+6.2f}"
            if "today" in results and variant != "today":
                diff = [
                    s - t
                    for s, t in zip(scores, (float(s) for s, _ in results["today"]), strict=True)
                ]
                dm, dse = mean_se(diff)
                line += f"  vs today {dm:+.3f} ± {dse:.3f}"
            print(line, flush=True)
    print(
        f"{args.games} games per variant, the same games for each; "
        f"{time.perf_counter() - started:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
