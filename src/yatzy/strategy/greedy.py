"""The greedy strategy: the most points this turn, exactly (pure Python).

Greedy ignores the rest of the game: it keeps the dice that maximise the expected
points the turn adds to the final score (box points, the upper bonus when this box
reaches it, a Yatzy bonus) and writes the box that adds the most.  The within-turn
search is exact for plain dice (:mod:`yatzy.strategy.turn`).  For DubbelYatzy's
double dice, whose joint keeps are far too many, the value of a keep is the sum of
the two layers' exact values as if each layer were kept on its own, and the final
two boxes are chosen exactly.

Ties between boxes go to the box whose best possible score is lowest, so a zero is
written where it costs the least.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

from yatzy.game import Action, Fill2, Roll, Score, Scratch, Sheet, State
from yatzy.rules import CATEGORIES, RuleSet, score_table
from yatzy.strategy.fills import Fill, allowed_boxes, allowed_pairs, fills
from yatzy.strategy.turn import TurnValues, positions_of, solve_turn

_CACHE_LIMIT = 4096


class GreedyStrategy:
    """Chooses greedy actions; caches within-turn tables by what they depend on."""

    def __init__(self) -> None:
        self._turns: dict[tuple[object, ...], TurnValues] = {}

    def choose(self, state: State, rng: random.Random | None = None) -> Action:
        """The greedy action for the player to act in ``state``."""
        if state.dice is None:
            return Roll()
        if state.rules.double:
            return self._choose_double(state)
        dice = state.layer("all")
        left = state.rolls_left()
        best_fill = best_fill_of(state, dice)
        if left == 0:
            return _fill_action(state, best_fill)
        values = self._turn(state, left)
        kept, value = values.best_keep(dice, left)
        if value > best_fill.gain + 1e-9:
            return Roll(positions_of(dice, kept))
        return _fill_action(state, best_fill)

    # -- plain dice ------------------------------------------------------------

    def _turn(self, state: State, levels: int) -> TurnValues:
        rules = state.rules
        sheet = state.sheet
        allowed = tuple(allowed_boxes(state))
        key: tuple[object, ...] = (
            rules,
            allowed,
            min(sheet.upper_sum, rules.threshold),
            sheet.points("yatzy") if rules.has_joker else None,
            tuple(sheet.is_open(b) for b in rules.upper_boxes) if rules.has_joker else None,
        )
        found = self._turns.get(key)
        if found is None or len(found.roll) <= levels:
            final = final_gains(rules, sheet, allowed)
            found = solve_turn(rules.num_dice, lambda j: final, max(levels, rules.max_rolls - 1))
            if len(self._turns) >= _CACHE_LIMIT:
                self._turns.clear()
            self._turns[key] = found
        return found

    # -- double dice ------------------------------------------------------------

    def _choose_double(self, state: State) -> Action:
        rules = state.rules
        best, gain = best_fill2(state)
        left = state.rolls_left()
        if left == 0:
            return best
        allowed = tuple(allowed_boxes(state))
        key: tuple[object, ...] = (rules, allowed, "layer", left)
        values = self._turns.get(key)
        if values is None:
            table = score_table(rules)
            idx = [rules.box_index[b] for b in allowed]
            final = [max(row[i] for i in idx) for row in table.points]
            values = solve_turn(rules.num_dice, lambda j: final, left)
            self._turns[key] = values
        outer, inner = state.layer("outer"), state.layer("inner")
        n = rules.num_dice
        best_keep: tuple[int, ...] = ()
        best_value = float("-inf")
        for size in range(n):
            for pos in combinations(range(n), size):
                v = values.keep_value([outer[i] for i in pos], left) + values.keep_value(
                    [inner[i] for i in pos], left
                )
                if v > best_value + 1e-9:
                    best_keep, best_value = pos, v
        if best_value > gain + 1e-9:
            return Roll(best_keep)
        return best


def final_gains(rules: RuleSet, sheet: Sheet, allowed: Sequence[str]) -> list[int]:
    """The most a final roll can add now, per roll index (plain dice)."""
    table = score_table(rules)
    if rules.last_resort:
        # The boxes a roll may fill depend on the roll itself: roll by roll.
        return [max(f.gain for f in fills(rules, sheet, allowed, roll)) for roll in table.rolls]
    upper = sheet.upper_sum
    columns = []
    for box in allowed:
        i = rules.box_index[box]
        if CATEGORIES[box].face and upper < rules.threshold:
            need = rules.threshold - upper
            columns.append(
                [row[i] + (rules.bonus if row[i] >= need else 0) for row in table.points]
            )
        else:
            columns.append([row[i] for row in table.points])
    final = list(map(max, *columns)) if len(columns) > 1 else list(columns[0])
    if rules.has_joker:
        # Five of a kind: the joker and the Yatzy bonus change what the boxes score.
        for r in table.yatzy_rows:
            final[r] = max(f.gain for f in fills(rules, sheet, allowed, table.rolls[r]))
    return final


def _tiebreak(rules: RuleSet, box: str) -> int:
    # Lower is preferred among equal gains: the box that can score the least.
    return max(rules.possible_scores(box))


def best_fill_of(state: State, dice: Sequence[int]) -> Fill:
    """The fill that adds the most now (plain dice), ties to the cheapest box."""
    rules = state.rules
    options = fills(rules, state.sheet, allowed_boxes(state), dice)
    return max(options, key=lambda f: (f.gain, -_tiebreak(rules, f.box)))


def _fill_action(state: State, fill: Fill) -> Action:
    if fill.points == 0 and state.rules.scratchable(fill.box):
        return Scratch(fill.box)
    return Score(fill.box)


def best_fill2(state: State) -> tuple[Action, int]:
    """DubbelYatzy: the inner and outer results that add the most now, and the gain."""
    rules = state.rules
    sheet = state.sheet
    table = score_table(rules)
    inner_row = table.row(state.layer("inner"))
    outer_row = table.row(state.layer("outer"))
    pairs = allowed_pairs(state)
    upper = sheet.upper_sum
    best: tuple[int, int, str, str, bool, bool] | None = None
    for a, b in pairs:
        for scratch_a in _entry_kinds(rules, a, inner_row[rules.box_index[a]]):
            for scratch_b in _entry_kinds(rules, b, outer_row[rules.box_index[b]]):
                pa = 0 if scratch_a else inner_row[rules.box_index[a]]
                pb = 0 if scratch_b else outer_row[rules.box_index[b]]
                gain = pa + pb
                u = upper + (pa if CATEGORIES[a].face else 0) + (pb if CATEGORIES[b].face else 0)
                if upper < rules.threshold <= u:
                    gain += rules.bonus
                tie = -(_tiebreak(rules, a) + _tiebreak(rules, b))
                if best is None or (gain, tie) > (best[0], best[1]):
                    best = (gain, tie, a, b, scratch_a, scratch_b)
    assert best is not None
    gain, _, a, b, sa, sb = best
    inner = Scratch(a) if sa else Score(a)
    outer = Scratch(b) if sb else Score(b)
    return Fill2(inner, outer), gain


def _entry_kinds(rules: RuleSet, box: str, points: int) -> tuple[bool, ...]:
    # Scratching only ever helps a negative box (the minus Extra, which may not be
    # scratched) or writes the same 0, so a scratch is listed only where it is legal
    # and the box would score 0 or less.
    if rules.scratchable(box) and points <= 0:
        return (True,) if points == 0 else (False, True)
    return (False,)
