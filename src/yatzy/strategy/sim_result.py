"""The result of a simulation run, and what both ways of playing its games share.

:mod:`yatzy.strategy.simulate` plays games through the game state API and
:mod:`yatzy.strategy.fast` by a compiled player; both seed chunk ``i`` of a run
with :func:`chunk_rng` and report a :class:`SimulationResult`.  This module imports no
numeric library: statistics are pure Python.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from yatzy.rules import RuleSet
from yatzy.strategy.levels import WINNER_LEVELS

PERCENTILES: tuple[int, ...] = (1, 5, 10, 25, 50, 75, 90, 95, 99)
"""The percentiles a summary reports."""


@dataclass(frozen=True)
class SimulationResult:
    """The games of one simulation run and their statistics.

    ``bonus_rate`` is the share of games that earned the upper bonus, ``yatzy_rate``
    the share that scored the Yatzy box (Maxi Yatzy's in Maxi).  ``method`` says how
    the games were played: ``"states"`` through the game state API, ``"kernel"`` by
    the compiled optimal player.
    """

    rules: str
    bot: str
    seed: int
    scores: Sequence[int]
    bonuses: int
    yatzys: int
    seconds: float
    method: str = "states"
    note: str = ""

    @property
    def games(self) -> int:
        """How many games were played."""
        return len(self.scores)

    @property
    def mean(self) -> float:
        """The mean final score."""
        return statistics.fmean(self.scores)

    @property
    def sd(self) -> float:
        """The sample standard deviation of the final score (0 for one game)."""
        n = len(self.scores)
        if n < 2:
            return 0.0
        mean = self.mean
        # Two passes in floats: exact enough, and fast for millions of games.
        return math.sqrt(math.fsum((x - mean) ** 2 for x in self.scores) / (n - 1))

    @property
    def stderr(self) -> float:
        """The standard error of the mean."""
        return self.sd / math.sqrt(len(self.scores))

    def percentiles(self) -> dict[int, float]:
        """The percentiles of :data:`PERCENTILES` (inclusive method, interpolated)."""
        ordered = sorted(self.scores)
        return {p: _percentile(ordered, p) for p in PERCENTILES}

    @property
    def bonus_rate(self) -> float:
        """The share of games with the upper bonus."""
        return self.bonuses / len(self.scores)

    @property
    def yatzy_rate(self) -> float:
        """The share of games that scored the Yatzy box."""
        return self.yatzys / len(self.scores)

    @property
    def games_per_second(self) -> float:
        """Games played per second of wall time."""
        return len(self.scores) / self.seconds if self.seconds > 0 else float("inf")

    def summary(self) -> dict[str, Any]:
        """A JSON-ready summary (no per-game scores)."""
        return {
            "rules": self.rules,
            "bot": self.bot,
            "games": self.games,
            "seed": self.seed,
            "mean": round(self.mean, 3),
            "sd": round(self.sd, 3),
            "stderr": round(self.stderr, 3),
            "min": min(self.scores),
            "max": max(self.scores),
            "percentiles": {str(p): v for p, v in self.percentiles().items()},
            "bonus_rate": round(self.bonus_rate, 4),
            "yatzy_rate": round(self.yatzy_rate, 4),
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games_per_second, 1),
            "method": self.method,
            **({"note": self.note} if self.note else {}),
        }


def _percentile(ordered: Sequence[int], p: float) -> float:
    if len(ordered) == 1:
        return float(ordered[0])
    pos = (len(ordered) - 1) * p / 100
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def yatzy_box(rules: RuleSet) -> str:
    """The box whose scoring counts as "a Yatzy" for the statistics."""
    return "maxi_yatzy" if "maxi_yatzy" in rules.boxes else "yatzy"


def chunk_rng(seed: int, chunk: int) -> random.Random:
    """The random source of chunk ``chunk`` of a run seeded with ``seed``."""
    return random.Random(f"yatzy-simulate:{seed}:{chunk}")


def simulation_note(rules: RuleSet, bot: str) -> str:
    """What a run of ``bot`` on ``rules`` should say about how the bot played ("" when
    it played as designed): the winner alone plays the optimal strategy, and a level
    the solver does not handle plays by an approximate strategy."""
    if bot in WINNER_LEVELS:
        return f"{bot} has nobody to beat alone: it plays the optimal strategy"
    if bot in ("random", "greedy"):
        return ""  # no solver behind them: exact everywhere
    from yatzy.strategy.advisor import is_exact

    return "" if is_exact(rules) else f"{bot} plays {rules.spec} by an approximate strategy"
