"""A slow, plain-Python reference solver, built on the game state itself.

It shares nothing with the fast solver but the dice: legality (order rules, the
forced joker), points (joker points included) and the sheet's Total (upper bonus,
Yatzy bonuses) all come from :class:`~yatzy.game.State` and
:class:`~yatzy.game.Sheet`, and the state between turns is remembered uncapped
(open boxes, upper sum, Yatzy box, first section).  The tests compare it with
:class:`yatzy.solver.Solver` on sub-games with few open boxes; it is far too slow
for a whole game.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations, combinations_with_replacement
from math import factorial

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
        state = self._state(sheet, roll, left)
        best = float("-inf")
        for action in state.legal_actions():
            if not isinstance(action, (Score, Scratch)):
                continue
            after = state.clone()
            after.apply(action)
            new = after.sheets[0]
            best = max(best, new.total - sheet.total + self.gain(new))
        return best

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
