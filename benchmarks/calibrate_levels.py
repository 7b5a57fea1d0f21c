"""Fit the skill levels' temperatures per rule set and measure each level's loss.

A level is defined by its mean loss per game against optimal play on Scandinavian
Yatzy (strong 4.4, casual 15.5, beginner 29.6; docs/strategy.md, Bots).  One temperature
for every rule set does not keep that meaning: in forced order the box is given and
only keeps are chosen, among many near-equal options, so the same temperature loses
other amounts.  For each rule set this script

1. plays ``--sample`` games at a middle temperature and keeps every decision's list
   of option losses (the advisor's, exact where the solver is);
2. finds per level the temperature whose expected loss over those decisions, scaled
   to a game, is the level's target (bisection; the sample's visiting of positions is
   that of the middle temperature, a second-order effect that step 3 measures);
3. measures each fitted temperature directly (``yatzy.strategy.calibrate``) over
   ``--games`` games, the figure docs/strategy.md reports.

Usage: ``python benchmarks/calibrate_levels.py [SPEC ...] [--sample N] [--games N]``;
prints one line per rule set and level, and the ``SKILL_TEMPERATURES_BY_RULES`` entry.
"""

from __future__ import annotations

import argparse
import math
import random
import time

from yatzy.bots import LEVEL_LOSS_TARGETS
from yatzy.game import Game, Roll
from yatzy.rules import RuleSet
from yatzy.strategy.advisor import advise
from yatzy.strategy.calibrate import calibrate, softmax_pick

DEFAULT_SPECS = ["yatzy", "yatzy+forced", "yatzy+half_forced", "yahtzee", "yahtzee+forced"]


def sample_decisions(spec: str, games: int, temperature: float, seed: int) -> list[list[float]]:
    """The option losses of every decision of ``games`` games played at ``temperature``."""
    rules = RuleSet.parse(spec)
    rng = random.Random(f"levels:{spec}:{seed}")
    decisions: list[list[float]] = []
    for _ in range(games):
        state = Game(rules, ["bot"]).new_initial_state(starter=0)
        while not state.is_terminal():
            if state.is_chance_node():
                state.roll(rng)
            elif state.dice is None:
                state.apply(Roll())
            else:
                advice = advise(state)
                losses = [o.loss for o in advice.options]
                decisions.append(losses)
                state.apply(advice.options[softmax_pick(losses, temperature, rng)].action)
    return decisions


def expected_loss(decisions: list[list[float]], temperature: float, games: int) -> float:
    """Mean loss per game over the sampled decisions if each were played at ``temperature``."""
    total = 0.0
    for losses in decisions:
        low = min(losses)
        weights = [math.exp(-(x - low) / temperature) for x in losses]
        total += sum(w * x for w, x in zip(weights, losses, strict=True)) / sum(weights)
    return total / games


def fit(decisions: list[list[float]], target: float, games: int) -> float:
    """The temperature whose expected loss per game is ``target`` (bisection in log T)."""
    lo, hi = math.log(0.01), math.log(20.0)
    for _ in range(40):
        mid = (lo + hi) / 2
        if expected_loss(decisions, math.exp(mid), games) < target:
            lo = mid
        else:
            hi = mid
    return round(math.exp((lo + hi) / 2), 3)


def measure_only(specs: list[str], games: int, seed: int) -> int:
    """Measure every level at the temperature the bots play ``spec`` at."""
    from yatzy.bots import skill_temperature

    for spec in specs:
        rules = RuleSet.parse(spec)
        for level, target in LEVEL_LOSS_TARGETS.items():
            temperature = skill_temperature(level, rules)
            measured = calibrate(spec, temperature, games, seed=seed + 1)
            print(
                f"{spec:28s} {level:9s} T={temperature:<6} target {target:5.1f}  measured "
                f"{measured.mean_loss:5.1f} ± {measured.stderr:.1f} over {measured.games} games "
                f"(mean score {measured.mean_score:.1f})",
                flush=True,
            )
    return 0


def main() -> int:
    """Fit and measure every level on every rule set asked for."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("specs", nargs="*", default=DEFAULT_SPECS)
    parser.add_argument("--sample", type=int, default=60, help="games sampled for the fit")
    parser.add_argument("--games", type=int, default=100, help="games measured per level")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--measure-only",
        action="store_true",
        help="no fit: measure the temperatures the bots use today (yatzy.bots.skill_temperature)",
    )
    args = parser.parse_args()
    if args.measure_only:
        return measure_only(args.specs, args.games, args.seed)
    fitted: dict[str, dict[str, float]] = {}
    for spec in args.specs:
        start = time.perf_counter()
        decisions = sample_decisions(spec, args.sample, 0.6, args.seed)
        fitted[spec] = {}
        for level, target in LEVEL_LOSS_TARGETS.items():
            temperature = fit(decisions, target, args.sample)
            measured = calibrate(spec, temperature, args.games, seed=args.seed + 1)
            fitted[spec][level] = temperature
            print(
                f"{spec:20s} {level:9s} T={temperature:<6} target {target:5.1f}  measured "
                f"{measured.mean_loss:5.1f} ± {measured.stderr:.1f} over {measured.games} games "
                f"(mean score {measured.mean_score:.1f})",
                flush=True,
            )
        print(f"  ({time.perf_counter() - start:.0f} s)", flush=True)
    print("SKILL_TEMPERATURES_BY_RULES =", fitted)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
