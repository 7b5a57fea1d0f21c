"""A slow, plain-Python reference solver, built on the game state itself.

It shares nothing with the fast solver but the dice: legality (order rules, the
forced joker), points (joker points included) and the sheet's Total (upper bonus,
Yatzy bonuses) all come from :class:`~yatzy.game.State` and
:class:`~yatzy.game.Sheet`, and the state between turns is remembered uncapped
(open boxes, upper sum, Yatzy box, first section).  The tests compare it with
:class:`yatzy.solver.Solver` on sub-games with few open boxes; it is far too slow
for a whole game.  Target play's survival functions (:class:`ReferenceTarget`) are
numpy vectors, added and compared element by element (nothing else of numpy is
used), so that its tests of three open boxes take seconds, not tens of seconds.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from itertools import combinations, combinations_with_replacement
from math import factorial

import numpy as np

from yatzy.game import Game, Roll, Score, Scratch, Sheet, State
from yatzy.rules import RuleSet

Dice = tuple[int, ...]


def _probability(faces: Dice) -> float:
    ways = factorial(len(faces))
    for f in set(faces):
        ways //= factorial(faces.count(f))
    return float(ways / 6 ** len(faces))


@cache
def _outcomes(count: int) -> tuple[tuple[Dice, float], ...]:
    """Every result of throwing ``count`` dice (sorted faces) with its probability."""
    return tuple(
        (faces, _probability(faces)) for faces in combinations_with_replacement(range(1, 7), count)
    )


@cache
def _sub_keeps(roll: Dice) -> frozenset[Dice]:
    """Every multiset of dice that can be kept from ``roll`` (all of it included)."""
    return frozenset(
        tuple(sorted(roll[i] for i in pos))
        for size in range(len(roll) + 1)
        for pos in combinations(range(len(roll)), size)
    )


class ReferenceSolver:
    """Expected final scores by plain recursion through the game state (slow)."""

    def __init__(self, rules: RuleSet | str) -> None:
        self.rules = RuleSet.parse(rules) if isinstance(rules, str) else rules
        self.game = Game(self.rules, ["reference"])
        self.n = self.rules.num_dice
        self.rolls = [faces for faces, _ in _outcomes(self.n)]
        self.keeps = [k for size in range(self.n + 1) for k, _ in _outcomes(size)]
        self._memo: dict[tuple[object, ...], float] = {}

    def value(self, sheet: Sheet) -> float:
        """Expected final Total of ``sheet`` before its next turn, with optimal play."""
        return sheet.total + self.gain(sheet)

    def gain(self, sheet: Sheet) -> float:
        """Expected points the sheet's Total still gains with optimal play."""
        if sheet.is_full:
            return 0.0
        key = (
            tuple(sheet.open_boxes),
            sheet.upper_sum,
            sheet.points("yatzy") if "yatzy" in sheet.entries else None,
            sheet.first_section,
            sheet.saved_rolls,
        )
        if key not in self._memo:
            self._memo[key] = self._turn(sheet)
        return self._memo[key]

    def _state(self, sheet: Sheet, roll: Dice, left: int) -> State:
        """The turn of ``sheet`` showing ``roll`` with ``left`` rolls left, reached by
        play: the first roll, then the last die thrown again to the same face."""
        state = self.game.new_initial_state(starter=0)
        state.sheets[0] = sheet.copy()
        state.apply(Roll())
        state.apply_roll(list(roll))
        while state.rolls_left() > left:
            state.apply(Roll(tuple(range(self.n - 1))))
            state.apply_roll([roll[-1]])
        return state

    def final_value(self, sheet: Sheet, roll: Dice, left: int = 0) -> float:
        """Best gain when ``roll`` is scored with ``left`` rolls unused: max over every
        legal fill (the rolls left matter only where they carry over)."""
        best = float("-inf")
        for new in self._fills(sheet, roll, left):
            best = max(best, new.total - sheet.total + self.gain(new))
        return best

    def _fills(self, sheet: Sheet, roll: Dice, left: int) -> Iterator[Sheet]:
        """The sheet after each legal fill of ``roll`` (``left`` rolls unused)."""
        state = self._state(sheet, roll, left)
        for action in state.legal_actions():
            if isinstance(action, (Score, Scratch)):
                after = state.clone()
                after.apply(action)
                yield after.sheets[0]

    def _turn(self, sheet: Sheet) -> float:
        state = self.game.new_initial_state(starter=0)
        state.sheets[0] = sheet.copy()
        finals = {roll: self.final_value(sheet, roll) for roll in self.rolls}
        values = finals
        for left in range(1, state.max_rolls()):
            if self.rules.saves_rolls:  # elsewhere a stop's value does not depend on ``left``
                finals = {roll: self.final_value(sheet, roll, left) for roll in self.rolls}
            keep_values = {
                keep: sum(
                    p * values[tuple(sorted(keep + more))]
                    for more, p in _outcomes(self.n - len(keep))
                )
                for keep in self.keeps
            }
            values = {
                roll: max(finals[roll], *(keep_values[k] for k in _sub_keeps(roll) if k != roll))
                for roll in self.rolls
            }
        return sum(p * values[roll] for roll, p in _outcomes(self.n))


Vector = np.ndarray
"""A survival function ``P(X >= k)``, k = 0, 1, ... (float64; 0 past its end)."""


def _shifted(vec: Vector, gain: int) -> Vector:
    """``P(gain + X >= k)`` from ``P(X >= k)``: ``gain`` ones in front."""
    return np.concatenate((np.ones(gain), vec)) if gain else vec


def _pmax(a: Vector, b: Vector) -> Vector:
    """The larger of two survival functions at every ``k`` (0 past either's end)."""
    if len(a) < len(b):
        a, b = b, a
    out = a.copy()
    np.maximum(out[: len(b)], b, out=out[: len(b)])
    return out


def _mix(terms: list[tuple[float, Vector]]) -> Vector:
    """The mixture of survival functions with the given weights."""
    out = np.zeros(max(len(v) for _, v in terms))
    for p, v in terms:
        out[: len(v)] += p * v
    return out


class ReferenceTarget(ReferenceSolver):
    """Target play by plain recursion through the game state (slow).

    ``at_least(sheet)[k]`` is the highest probability that the sheet's Total still
    gains at least ``k`` points, for every ``k`` separately (pointwise maximum over
    every choice), as :class:`yatzy.solver.target.TargetTable` in mode ``"max"``.
    """

    def __init__(self, rules: RuleSet | str) -> None:
        super().__init__(rules)
        self._vectors: dict[tuple[object, ...], Vector] = {}

    def at_least(self, sheet: Sheet) -> Vector:
        """``P(points still added to the Total >= k)``, k = 0, 1, ... (target play)."""
        if sheet.is_full:
            return np.ones(1)
        key = (
            tuple(sheet.open_boxes),
            sheet.upper_sum,
            sheet.points("yatzy") if "yatzy" in sheet.entries else None,
            sheet.first_section,
        )
        if key not in self._vectors:
            self._vectors[key] = self.turn_vectors(sheet)[-1][()]
        return self._vectors[key]

    def final_vector(self, sheet: Sheet, roll: Dice) -> Vector:
        """The best vector over every legal fill of final ``roll``."""
        best: Vector = np.zeros(0)
        for new in self._fills(sheet, roll, 0):
            best = _pmax(best, _shifted(self.at_least(new), new.total - sheet.total))
        return best

    def turn_vectors(self, sheet: Sheet) -> list[dict[Dice, Vector]]:
        """Level ``j`` (0 to max rolls): with ``j`` rolls left, the vector of every roll
        (best choice); the last level maps the empty keep ``()`` to the turn's vector.
        Levels ``j >= 1`` also hold every smaller keep: keeping it and throwing the rest.
        """
        finals = {roll: self.final_vector(sheet, roll) for roll in self.rolls}
        levels: list[dict[Dice, Vector]] = [finals]
        values = finals
        state = self.game.new_initial_state(starter=0)
        state.sheets[0] = sheet.copy()
        for left in range(1, state.max_rolls() + 1):
            keep_values = {
                keep: _mix(
                    [
                        (p, values[tuple(sorted(keep + more))])
                        for more, p in _outcomes(self.n - len(keep))
                    ]
                )
                for keep in self.keeps
                if len(keep) < self.n
            }
            level: dict[Dice, Vector] = dict(keep_values)
            if left < state.max_rolls():
                values = {}
                for roll in self.rolls:
                    best = finals[roll]
                    for k in _sub_keeps(roll):
                        if k != roll:
                            best = _pmax(best, keep_values[k])
                    values[roll] = best
                level.update(values)
            levels.append(level)
        return levels
