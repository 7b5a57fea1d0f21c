"""An estimated analysis in win chance, from the analysis in points alone (issue 24).

The exact analysis in win chance (:mod:`yatzy.strategy.win_analysis`) needs the win
chances' kernels: on a fresh install numba compiles them for a minute or more after
the first game's last box.  Meanwhile :func:`estimate_wins` gives the same kind of
answer at once from what the analysis in points already has (the advisor's table):

- each seat's final score is counted as normally distributed around its **expected
  final score** (the advisor's value at the seat's last turn start, or the decision's
  value), less its level's mean loss over the turns it has left
  (:data:`LEVEL_LOSS`), with a variance of :data:`VARIANCE_PER_POINT` times the
  points it still expects to score (from the spread of the optimal strategy's final
  scores over 200,000 games: standard deviation 38.8 for Yatzy, 59.3 for Yahtzee);
- the seats are independent; ties are shared; a solo game's chance is that of a
  final score above the record;
- a decision's chance before it and after the best option use the best option's
  expected final score, after the choice the chosen option's: the cost in chance is
  the points it cost, weighed by how much a point mattered then.

It is marked :attr:`~yatzy.strategy.win_analysis.WinAnalysis.estimated` (and never
exact): the page says it is an estimate and replaces it with the exact analysis when
that is done.  Pure numpy: no kernel beyond the analysis in points' own.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from yatzy.errors import YatzyError
from yatzy.game import State
from yatzy.rules import Language, RuleSet
from yatzy.strategy.analyze import Analysis, analyze, replay_decisions
from yatzy.strategy.levels import LEVEL_LOSS_TARGETS
from yatzy.strategy.win_analysis import (
    WinAnalysis,
    WinDecision,
    WinPoint,
    final_point,
    summarize_players,
)
from yatzy.strategy.win_chance import DEFAULT_BUDGET, combine, seat_levels

FloatArray = npt.NDArray[np.float64]

VARIANCE_PER_POINT = {"joker": 13.8, "plain": 6.06}
"""The variance of the points still to come per point expected: the optimal strategy's
final score has standard deviation 38.8 around 248.44 in Yatzy (38.8² / 248.44 = 6.06)
and 59.3 around 254.59 in Yahtzee with its bonus Yahtzees (13.8); other rules take the
nearer of the two (with or without a joker)."""

LEVEL_LOSS: dict[str, float] = dict(LEVEL_LOSS_TARGETS) | {
    "greedy": 50.2,
    "random": 223.6,
    "winner": 10.6,
}
"""A level's mean loss of points per whole game against the best play (the calibrated
levels' targets; greedy, random and the winner bot as simulated on Yatzy: 198.2, 24.8
and 237.8 against 248.4); spread evenly over its turns."""


def _variance(rules: RuleSet, expected_left: float) -> float:
    per_point = VARIANCE_PER_POINT["joker" if rules.has_joker else "plain"]
    return per_point * max(0.0, expected_left)


def _normal(mean: float, variance: float) -> tuple[int, FloatArray]:
    """A normal distribution rounded to whole scores: ``(lo, pmf)``."""
    if variance < 1e-6:
        return round(mean), np.ones(1)
    sd = math.sqrt(variance)
    lo, hi = math.floor(mean - 6 * sd), math.ceil(mean + 6 * sd)
    edges = (np.arange(lo, hi + 2, dtype=np.float64) - 0.5 - mean) / (sd * math.sqrt(2))
    cdf = 0.5 * (1.0 + np.array([math.erf(x) for x in edges]))
    pmf = np.clip(np.diff(cdf), 0.0, None)
    total = float(pmf.sum())
    return lo, pmf / total if total > 0 else np.ones(pmf.shape[0]) / pmf.shape[0]


class _Seats:
    """Each seat's expected final score and points so far, kept up to date while the
    game is replayed."""

    def __init__(self, state: State, points: Analysis, levels: list[str]) -> None:
        self.rules = state.rules
        self.expected = [list(p.expected) for p in points.players]
        self.levels = levels
        self.started = [0] * len(state.players)
        self.playing: int | None = None  # the seat whose turn is under way

    def turn_started(self, seat: int | None) -> None:
        """The turn of ``seat`` begins (``None``: between two turns)."""
        self.playing = seat
        if seat is not None:
            self.started[seat] += 1

    def distribution(
        self, replay: State, seat: int, mean: float | None = None
    ) -> tuple[int, FloatArray]:
        """Seat's estimated final score in ``replay``: around ``mean`` (its expected
        final score with the best play) or, by default, the advisor's value at its
        latest turn start (its sheet only changes on its own turns)."""
        sheet = replay.sheets[seat]
        now = float(sheet.final)
        if not sheet.open_boxes:
            return _normal(now, 0.0)
        if mean is None:
            done = self.started[seat] - (1 if self.playing == seat else 0)
            known = self.expected[seat]
            mean = known[min(done, len(known) - 1)] if known else now
        turns_left = len(sheet.open_boxes) / max(1, len(self.rules.boxes)) * self.rules.turns
        loss = LEVEL_LOSS.get(self.levels[seat], 0.0) * turns_left / max(1, self.rules.turns)
        mean = max(now, mean - loss)
        return _normal(mean, _variance(self.rules, mean - now))


def _chances(dists: Sequence[tuple[int, FloatArray]], record: int | None) -> tuple[float, ...]:
    # Clipped to [0, 1]: a sum of many small probabilities can round past 1 (seen:
    # 1.0000000000000002 for a decided game), and a chance never is.
    if record is None:
        found = [float(c) for c in combine(list(dists))]
    else:
        found = [float(p @ (np.arange(lo, lo + p.shape[0]) > record)) for lo, p in dists]
    return tuple(min(1.0, max(0.0, c)) for c in found)


def estimate_wins(
    state: State,
    *,
    record: int | None = None,
    levels: Sequence[str | None] | None = None,
    lang: Language | None = None,
    points: Analysis | None = None,
) -> WinAnalysis:
    """An estimated analysis in win chance of the finished game ``state`` (see the
    module docstring), from its analysis in points (``points``, computed here when not
    given).  ``record`` and ``levels`` as for
    :func:`yatzy.strategy.win_analysis.analyze_wins`."""
    if not isinstance(state, State):
        raise YatzyError(f"expected a game State, not {state!r}")
    if state.starter is None:
        raise YatzyError("the game has not started: the roll-off is not decided")
    if state.game.pad:
        raise YatzyError("a score pad game has no rolls to rate in win chance")
    if len(state.players) == 1 and record is None:
        raise YatzyError("a solo game is rated by the chance of beating a record: give one")
    if record is not None and len(state.players) != 1:
        raise YatzyError("a record is only for a solo game")
    wall0, cpu0 = time.perf_counter(), time.thread_time()
    names = seat_levels(state, levels)
    points = points if points is not None else analyze(state, lang)
    seats = _Seats(state, points, names)
    replay = state.game.new_initial_state(starter=state.starter)
    chart: list[WinPoint] = []
    decisions: list[WinDecision] = []
    queue = list(points.decisions)
    players = range(len(state.players))

    def point(turn: int) -> WinPoint:
        dists = [seats.distribution(replay, i) for i in players]
        return WinPoint(turn, _chances(dists, record), 0.0, False)

    for n, seat, action in replay_decisions(state, replay):
        if action is None:
            seats.turn_started(None)
            chart.append(point(n - 1))
            seats.turn_started(seat)
            continue
        d = queue.pop(0)
        dists = [seats.distribution(replay, i) for i in players]
        best = list(dists)
        best[seat] = seats.distribution(replay, seat, d.best_value)
        chosen = list(dists)
        chosen[seat] = seats.distribution(replay, seat, d.chosen_value)
        best_chance = _chances(best, record)[seat]
        after = min(best_chance, _chances(chosen, record)[seat])
        decisions.append(
            WinDecision(
                decision=d,
                before=best_chance,
                after=after,
                best_chance=best_chance,
                best=d.best,
                margin=0.0,
                exact=False,
                options=2,
            )
        )
    chart.append(final_point(replay, len(replay.log), record))
    summaries = summarize_players(state, names, decisions)
    return WinAnalysis(
        rules=state.rules.spec,
        goal="record" if record is not None else "win",
        record=record,
        levels=tuple(names),
        points=tuple(chart),
        decisions=tuple(decisions),
        players=tuple(summaries),
        points_analysis=points,
        exact=False,
        margin=0.0,
        seconds=time.thread_time() - cpu0,
        wall=time.perf_counter() - wall0,
        budget=DEFAULT_BUDGET,
        estimated=True,
    )
