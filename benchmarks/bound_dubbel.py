"""A proven upper bound on DubbelYatzy's optimal expected score (Lagrangian relaxation).

DubbelYatzy cannot be solved exactly (the keeps of six double dice couple the two
layers), so how far its approximate strategy is from optimal needs a bound that
holds for every strategy.  Relax the game step by step, each step only widening
what a player may do:

1. Each layer keeps its own dice (the real game keeps whole double dice) and sees
   everything; the turn still has three rolls per layer and writes each layer's
   result in a box of that layer's choice.
2. The two boxes of a turn may be the same box, and a box may be filled by both
   layers (each layer still fills a box at most once): the rule "every box is
   filled exactly once" is dualised with a price ``l_b`` per box, which a layer
   pays when it fills box ``b``, while ``sum_b l_b`` is added back.  For every
   strategy of the real game the prices cancel out, so the relaxed value is at
   least the real one whatever the prices.
3. The upper bonus B for ``u_inner + u_outer >= T`` is at most
   ``B [u_inner >= T1] + B [u_outer >= T + 1 - T1]`` for any ``T1`` (if neither
   layer reaches its part, the sum stays below T).

What remains is separable: each layer alone plays a 6-dice game of the rule set's
boxes (results scored with the best drop, Extra's minus included) that ends after 8
turns (half the boxes), pays ``l_b`` per box and gets B at its own threshold.  Its
other layer's dice tell it nothing it could use, so the relaxed optimum is the sum
of the two layers' optima, each solved exactly by the solver's kernels (a subclass
whose game ends with half the boxes filled).  Hence for every ``l`` and ``T1``

    optimum(DubbelYatzy) <= sum_b l_b + V(l, T1) + V(l, T + 1 - T1),

and the script lowers the right side over the prices (descent along the slope,
which says how far each box is from being filled once in all) and ``T1``.  Free
order only (forced orders couple the two boxes of a turn further).

    nice -n 10 python benchmarks/bound_dubbel.py [--spec dubbel] [--steps 12]
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any
from unittest import mock

import numpy as np
import numpy.typing as npt

import yatzy.solver._model as model_module
import yatzy.solver.base as solver_module
from yatzy.rules import RuleSet
from yatzy.solver import Solver


class HalfGame(Solver):
    """One layer's game in the relaxation: ``turns`` turns, a price per box filled."""

    def __init__(self, rules: RuleSet, *, prices: npt.NDArray[np.float64], turns: int) -> None:
        self.prices = prices
        self.turns = turns

        # The solver refuses DubbelYatzy (two boxes a turn); one layer a turn is a
        # plain six-dice game of the rule set's score table, which it solves.
        def allow(rules: RuleSet) -> None:
            return None

        with (
            mock.patch.object(model_module, "check_supported", allow),
            mock.patch.object(solver_module, "check_supported", allow),
        ):
            super().__init__(rules, use_cache=False)

    def _terminal_values(self, V: npt.NDArray[Any]) -> int:
        m, lay = self.model, self.layout
        open_at_end = m.n_boxes - self.turns
        start, end = lay.bounds[open_at_end]
        for i in range(start, end):
            filled = m.full_mask & ~int(lay.masks[i])
            paid = sum(float(self.prices[b]) for b in range(m.n_boxes) if (filled >> b) & 1)
            V[i] = -paid
            V[i, :, m.threshold] = m.bonus - paid
        return open_at_end


def layer_value(spec: str, prices: npt.NDArray[np.float64], threshold: int) -> float:
    """The optimum of one layer's relaxed game with its own bonus threshold."""
    rules = RuleSet.parse(spec).replace(bonus_threshold=threshold)
    game = HalfGame(rules, prices=prices, turns=len(rules.boxes) // 2)
    return game.expected_score


def bound(spec: str, prices: npt.NDArray[np.float64], first: int) -> float:
    """``sum l + V(l, T1) + V(l, T + 1 - T1)`` (one solve when the halves agree)."""
    rules = RuleSet.parse(spec)
    second = rules.threshold + 1 - first
    inner = layer_value(spec, prices, first)
    outer = inner if second == first else layer_value(spec, prices, second)
    return float(prices.sum()) + inner + outer


def gradient(spec: str, prices: npt.NDArray[np.float64], first: int, value: float) -> Any:
    """The bound's slope in each price (forward differences of one point).

    By the envelope theorem it is ``1 - P(inner fills b) - P(outer fills b)``: a box
    the layers fill less than once in all wants a lower price, and vice versa.
    """
    out = np.empty_like(prices)
    for b in range(prices.shape[0]):
        trial = prices.copy()
        trial[b] += _H
        out[b] = (bound(spec, trial, first) - value) / _H
    return out


_H = 0.25  # points: the step of the forward differences


def main() -> int:
    """Lower the bound by descent over the prices, then try nearby ``T1``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--spec", default="dubbel")
    parser.add_argument("--steps", type=int, default=12, help="descent steps over the prices")
    args = parser.parse_args()
    rules = RuleSet.parse(args.spec)
    if not rules.double or rules.forced or rules.half_forced:
        parser.error("a DubbelYatzy rule set in free order")
    started = time.perf_counter()
    prices = np.zeros(len(rules.boxes))
    first = (rules.threshold + 1) // 2
    best = bound(args.spec, prices, first)
    print(f"prices 0, T1 {first}: bound {best:.4f} ({time.perf_counter() - started:.0f} s)")
    rate = 16.0  # points of price per unit of slope, halved when a step fails
    for step in range(args.steps):
        slope = gradient(args.spec, prices, first, best)
        while rate > 0.05:
            trial = prices - rate * slope
            value = bound(args.spec, trial, first)
            if value < best:
                prices, best = trial, value
                break
            rate /= 2
        else:
            break
        print(
            f"step {step + 1}: bound {best:.4f}  rate {rate:g}  largest slope "
            f"{np.abs(slope).max():.3f} ({time.perf_counter() - started:.0f} s)",
            flush=True,
        )
    for candidate in range(first - 2, first + 3):
        value = bound(args.spec, prices, candidate)
        print(f"T1 {candidate}: bound {value:.4f}", flush=True)
        if value < best:
            best, first = value, candidate
    named = ", ".join(f"{box} {p:+.2f}" for box, p in zip(rules.boxes, prices, strict=True))
    print(f"{args.spec}: optimum <= {best:.4f} (T1 {first}; prices {named})")
    print(f"{time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
