"""Approximate strategies where exact play is out of reach: saved rolls, DubbelYatzy.

Both follow one recipe: an exact search inside the current turn, with the value of
the state after the turn taken from the exact table of the nearest rule set the
solver handles.

- Maxi with saved rolls that accumulate (``saved_rolls=all``; ``next`` is solved
  exactly): the next state is valued by the Maxi table (the same
  options without saved rolls) plus :data:`SAVED_ROLL_VALUE` points per roll saved
  for later, counting at most :data:`SAVED_ROLL_CAP` saved rolls per box still open
  and none once the sheet is full.  A stop with ``j`` rolls unused saves ``j`` rolls,
  so the within-turn search (exact, :mod:`yatzy.strategy.turn`) weighs stopping
  early against rolling on.
- DubbelYatzy: the next state is valued by the Yatzy (or, for the international
  scoring, the Yahtzee without joker) table of the boxes other than Extra, with the
  order and bonus options carried over, plus a constant for an open Extra box
  (:data:`EXTRA_VALUE`).  The two boxes of a turn are chosen exactly against that
  value.  The joint keeps of six double dice are too many for an exact search, so a
  keep is valued as the sum of the two layers' exact within-turn values, each
  layer's final roll valued by its best box alone.

The table of the nearest rule set is solved for the sub-game of the boxes still
open when first needed (the whole game at the start), so late positions are quick.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations
from typing import TYPE_CHECKING

from yatzy.errors import SpecError, YatzyError
from yatzy.game import Action, Fill2, Roll, Score, Scratch, Sheet, State
from yatzy.rules import CATEGORIES, YATZY_BONUS_POINTS, RuleSet, score_table
from yatzy.strategy.fills import Fill, allowed_boxes, allowed_pairs, fills
from yatzy.strategy.turn import TurnValues, keep_tables, solve_turn, sub_keeps

if TYPE_CHECKING:
    from yatzy.solver import Solver

SAVED_ROLL_VALUE = 6.0
"""Maxi with saved rolls: points a saved roll is worth at the end of a turn (fitted
by simulation, ``benchmarks/bench_saved_approx.py``; it was 2 until 2026-11-24)."""

SAVED_ROLL_CAP = 0.75
"""Maxi with saved rolls: saved rolls beyond this many per box still open are worth
nothing more (fitted with :data:`SAVED_ROLL_VALUE`); a full sheet's saved rolls are
always worth nothing."""


def saved_rolls_worth(saved: int, open_after: int, value: float, cap: float) -> float:
    """What ``saved`` rolls are worth to the approximate strategy with ``open_after``
    boxes still open after the turn: ``value`` each, up to ``cap`` per open box."""
    if open_after == 0:
        return 0.0
    return value * min(float(saved), cap * open_after)


EXTRA_VALUE = {"minus": -12.0, "chance": 22.0, "scratch": 0.0}
"""DubbelYatzy: the value given to the Extra box while it is open, by its option."""


def proxy_rules(rules: RuleSet) -> RuleSet:
    """The nearest rule set the exact solver handles."""
    if rules.double:
        proxy = (
            RuleSet("yahtzee", joker="none")
            if rules.scoring == "international"
            else RuleSet("yatzy", lenient=rules.scoring == "lenient")
        )
        return proxy.replace(
            forced=rules.forced,
            half_forced=rules.half_forced,
            bonus_threshold=rules.threshold,
            bonus_points=rules.bonus,
        )
    if rules.saved_rolls == "all":
        return rules.replace(saved_rolls="none")
    raise SpecError(f"{rules.spec} is solved exactly; it needs no approximation")


class ApproxStrategy:
    """Values of every option of a position by the recipe of the module docstring.

    ``extra_value``, ``saved_roll_value`` and ``saved_roll_cap`` replace
    :data:`EXTRA_VALUE`, :data:`SAVED_ROLL_VALUE` and :data:`SAVED_ROLL_CAP` (the
    benchmarks fit them by simulation).  With
    ``layer_points`` (the default) a DubbelYatzy layer's final roll values an upper box
    with the points it writes there (the upper sum moves towards the bonus); without
    it, as if it wrote 0 there (the earlier, weaker evaluation).  ``bonus_twice``
    reproduces an earlier error for the benchmarks' comparison: a write that completes
    the upper bonus counted the bonus in its gain as well as in the table's future.
    """

    def __init__(
        self,
        rules: RuleSet,
        progress: bool = False,
        *,
        extra_value: float | None = None,
        saved_roll_value: float | None = None,
        saved_roll_cap: float | None = None,
        layer_points: bool = True,
        bonus_twice: bool = False,
    ) -> None:
        self.rules = rules
        self.proxy = proxy_rules(rules)
        self.progress = progress
        self.extra_value = (
            extra_value
            if extra_value is not None
            else EXTRA_VALUE[rules.extra]
            if rules.extra is not None
            else 0.0
        )
        self.saved_roll_value = SAVED_ROLL_VALUE if saved_roll_value is None else saved_roll_value
        self.saved_roll_cap = SAVED_ROLL_CAP if saved_roll_cap is None else saved_roll_cap
        self.layer_points = layer_points
        self.bonus_twice = bonus_twice
        self._solvers: list[Solver] = []
        self._turns: dict[tuple[object, ...], TurnValues] = {}
        self._futures: dict[tuple[object, ...], float] = {}
        self.method = (
            f"exact within the turn, the state after it valued by the {self.proxy.spec} table"
        )

    # -- the value of a state between turns ---------------------------------------

    def _solver(self, open_boxes: Sequence[str]) -> Solver:
        from yatzy.solver import Solver

        want = set(open_boxes)
        for s in self._solvers:
            if want <= set(s.model.boxes_of(s.layout.root)):
                return s
        whole = len(want) == len(self.proxy.boxes)
        solver = Solver(
            self.proxy, open_boxes=None if whole else list(open_boxes), progress=self.progress
        )
        self._solvers.append(solver)
        return solver

    def future(self, open_boxes: Sequence[str], upper_sum: int, yatzy_fifty: bool) -> float:
        """The heuristic value of the points still to come (upper bonus included)."""
        # Memoised: a DubbelYatzy decision asks for the same few states hundreds of times.
        key = (tuple(open_boxes), min(upper_sum, self.proxy.threshold), yatzy_fifty)
        found = self._futures.get(key)
        if found is not None:
            return found
        proxy_open = [b for b in open_boxes if b in self.proxy.box_index]
        value = self._solver(proxy_open).remaining(proxy_open, upper_sum, yatzy_fifty)
        if self.rules.double and "extra" in open_boxes:
            value += self.extra_value
        if len(self._futures) > 200_000:
            self._futures.clear()
        self._futures[key] = value
        return value

    def _after(
        self,
        sheet: Sheet,
        boxes: dict[str, int],
        known: tuple[list[str], int, bool] | None = None,
    ) -> float:
        """The future after writing ``boxes`` (box to points) on ``sheet``.

        ``known`` is the sheet's open boxes, upper sum and whether Yatzy holds 50,
        when the caller has them already (they cost more than the lookup).
        """
        open_boxes, upper_sum, fifty = known or _sheet_facts(sheet)
        open_after = [b for b in open_boxes if b not in boxes]
        upper = upper_sum + sum(p for b, p in boxes.items() if CATEGORIES[b].face)
        fifty = fifty or boxes.get("yatzy") == 50
        return self.future(open_after, upper, fifty and self.proxy.has_joker)

    # -- options ------------------------------------------------------------

    def evaluate(self, state: State) -> list[tuple[Action, float]]:
        """Every option of the player to act, with its (approximate) expected final score."""
        # One table for the position's sub-game covers every state the turn can reach.
        self._solver([b for b in state.sheet.open_boxes if b in self.proxy.box_index])
        if self.rules.double:
            return self._evaluate_double(state)
        return self._evaluate_plain(state)

    def choose(self, state: State) -> Action:
        """The best option."""
        return max(self.evaluate(state), key=lambda p: p[1])[0]

    # -- plain dice (saved rolls) ------------------------------------------------------------

    def _plain_turn(self, state: State, levels: int) -> tuple[TurnValues, float]:
        rules = self.rules
        sheet = state.sheet
        allowed = tuple(allowed_boxes(state))
        scored = sheet.total - sheet.bonus
        key: tuple[object, ...] = (
            tuple(sheet.open_boxes),
            allowed,
            min(sheet.upper_sum, rules.threshold),
            _yatzy_points(sheet),
            levels,
        )
        found = self._turns.get(key)
        if found is None:
            memo: dict[tuple[str, int], float] = {}
            rolls = keep_tables(rules.num_dice).keeps[: len(score_table(rules).rolls)]
            final = []
            for r in rolls:
                best = float("-inf")
                for f in fills(rules, sheet, allowed, r):
                    k = (f.box, f.points)
                    if k not in memo:
                        memo[k] = self._after(sheet, {f.box: f.points})
                    v = self._gain(sheet, f) + memo[k]
                    if v > best:
                        best = v
                final.append(best)
            worth = self._saved_worth(sheet)
            found = solve_turn(rules.num_dice, lambda j: [v + worth(j) for v in final], levels)
            if len(self._turns) > 2048:
                self._turns.clear()
            self._turns[key] = found
        # Values in the table leave out what the sheet holds already (so states share it).
        return found, scored

    def _evaluate_plain(self, state: State) -> list[tuple[Action, float]]:
        rules = self.rules
        sheet = state.sheet
        if state.dice is None:
            levels = state.max_rolls()
            values, scored = self._plain_turn(state, levels)
            return [(Roll(), scored + values.keep[levels][values.tables.index[()]])]
        left = state.rolls_left()
        values, scored = self._plain_turn(state, left)
        dice = state.layer("all")
        out: list[tuple[Action, float]] = []
        joker = rules.has_joker and len(set(dice)) == 1 and sheet.points("yatzy") == 50
        yatzy_bonus = YATZY_BONUS_POINTS if joker else 0
        zero_ok = state.zero_allowed()  # last_resort may forbid a 0
        for f in fills(rules, sheet, allowed_boxes(state), dice):
            after = self._after(sheet, {f.box: f.points})
            saved = self._saved_worth(sheet)(left)
            value = scored + self._gain(sheet, f) + after + saved
            if f.points == 0 and rules.scratchable(f.box):
                out.append((Scratch(f.box), value))
            else:
                out.append((Score(f.box), value))
                if zero_ok and rules.scratchable(f.box):
                    zero = self._after(sheet, {f.box: 0}) + saved
                    out.append((Scratch(f.box), scored + yatzy_bonus + zero))
        if left > 0:
            for kept in sub_keeps(tuple(sorted(dice))):
                if len(kept) == len(dice):
                    continue
                out.append((Roll(_positions(dice, kept)), scored + values.keep_value(kept, left)))
        return out

    def _saved_worth(self, sheet: Sheet) -> Callable[[int], float]:
        """The worth of the rolls a stop saves this turn (one box is written)."""
        open_after = len(sheet.open_boxes) - 1

        def worth(saved: int) -> float:
            return saved_rolls_worth(saved, open_after, self.saved_roll_value, self.saved_roll_cap)

        return worth

    def _gain(self, sheet: Sheet, f: Fill) -> int:
        """A fill's gain without the upper bonus, which the table's future holds."""
        if (
            not self.bonus_twice
            and CATEGORIES[f.box].face
            and sheet.upper_sum < self.rules.threshold <= sheet.upper_sum + f.points
        ):
            return f.gain - self.rules.bonus
        return f.gain

    # -- double dice ------------------------------------------------------------

    def _layer_turn(self, state: State, levels: int) -> tuple[TurnValues, float]:
        rules = self.rules
        sheet = state.sheet
        allowed = tuple(allowed_boxes(state))
        here = self._after(sheet, {})
        key: tuple[object, ...] = (
            "layer",
            tuple(sheet.open_boxes),
            allowed,
            min(sheet.upper_sum, rules.threshold),
        )
        found = self._turns.get(key)
        if found is None or len(found.keep) <= levels:
            margin: dict[tuple[str, int], float] = {}
            idx = {b: rules.box_index[b] for b in allowed}
            upper = {b for b in allowed if CATEGORIES[b].face} if self.layer_points else set()
            final = []
            for row in score_table(rules).points:
                best = float("-inf")
                for b in allowed:
                    pts = row[idx[b]]
                    k = (b, pts if b in upper else 0)
                    if k not in margin:
                        margin[k] = self._margin(sheet, b, here, k[1])
                    v = pts + margin[k]
                    if v > best:
                        best = v
                final.append(best)
            found = solve_turn(rules.num_dice, lambda j: final, levels)
            self._turns[key] = found
        return found, here

    def _margin(self, sheet: Sheet, box: str, here: float, points: int = 0) -> float:
        """What writing ``points`` in ``box`` alone does to the future (0 where the order
        forbids it); the table's future holds the upper bonus once the sum reaches it."""
        try:
            return self._after(sheet, {box: points}) - here
        except YatzyError:
            # Forced orders fill a turn's two boxes together: one alone is no state.
            return 0.0

    def _evaluate_double(self, state: State) -> list[tuple[Action, float]]:
        sheet = state.sheet
        scored = sheet.total - sheet.bonus
        if state.dice is None:
            levels = state.max_rolls()
            values, here = self._layer_turn(state, levels)
            empty = values.tables.index[()]
            return [(Roll(), scored + here + 2 * values.keep[levels][empty])]
        out: list[tuple[Action, float]] = []
        known = _sheet_facts(sheet)
        for action, boxes, gain in _fill2_options(state, self.bonus_twice):
            out.append((action, scored + gain + self._after(sheet, boxes, known)))
        left = state.rolls_left()
        if left > 0:
            values, here = self._layer_turn(state, left)
            outer, inner = state.layer("outer"), state.layer("inner")
            seen: set[tuple[tuple[int, int], ...]] = set()
            n = self.rules.num_dice
            for size in range(n):
                for pos in combinations(range(n), size):
                    kept = tuple(sorted((outer[i], inner[i]) for i in pos))
                    if kept in seen:
                        continue
                    seen.add(kept)
                    v = values.keep_value([outer[i] for i in pos], left) + values.keep_value(
                        [inner[i] for i in pos], left
                    )
                    out.append((Roll(pos), scored + here + v))
        return out


def _sheet_facts(sheet: Sheet) -> tuple[list[str], int, bool]:
    """The open boxes, the upper sum and whether the Yatzy box holds 50."""
    return list(sheet.open_boxes), sheet.upper_sum, _yatzy_points(sheet) == 50


def _yatzy_points(sheet: Sheet) -> int | None:
    return sheet.points("yatzy") if "yatzy" in sheet.entries else None


def _positions(dice: Sequence[int], kept: Sequence[int]) -> tuple[int, ...]:
    from yatzy.strategy.turn import positions_of

    return positions_of(dice, kept)


def _fill2_options(
    state: State, bonus_twice: bool = False
) -> list[tuple[Action, dict[str, int], int]]:
    """DubbelYatzy: every distinct pair of results (best drop), with points and gain.

    The gain leaves out the upper bonus (the table's future holds it once the sum
    reaches the threshold) unless ``bonus_twice`` (see :class:`ApproxStrategy`).
    """
    rules = state.rules
    sheet = state.sheet
    table = score_table(rules)
    rows = {"inner": table.row(state.layer("inner")), "outer": table.row(state.layer("outer"))}
    pairs = allowed_pairs(state)
    upper = sheet.upper_sum
    out: list[tuple[Action, dict[str, int], int]] = []
    for a, b in pairs:
        for ea, pa in _entries(rules, a, rows["inner"][rules.box_index[a]]):
            for eb, pb in _entries(rules, b, rows["outer"][rules.box_index[b]]):
                gain = pa + pb
                u = upper + (pa if CATEGORIES[a].face else 0) + (pb if CATEGORIES[b].face else 0)
                if bonus_twice and upper < rules.threshold <= u:
                    gain += rules.bonus
                out.append((Fill2(ea, eb), {a: pa, b: pb}, gain))
    return out


def _entries(rules: RuleSet, box: str, points: int) -> list[tuple[Score | Scratch, int]]:
    out: list[tuple[Score | Scratch, int]] = []
    if points != 0 or not rules.scratchable(box):
        out.append((Score(box), points))
    if rules.scratchable(box) and points <= 0:
        out.append((Scratch(box), 0))
    return out


@cache
def approx_for(spec: str, progress: bool = False) -> ApproxStrategy:
    """The (process-wide) approximate strategy of a rules spec."""
    return ApproxStrategy(RuleSet.parse(spec), progress)
