"""Maxi with saved rolls that accumulate (``saved_rolls=all``): the exact solver.

The fast solver agrees with the reference solver (which plays through the game
state, so it shares neither the rule reading nor the recursion) on sub-games, for
several saved counts; the advice, the simulation kernel and the fallback to the
approximate strategy while the whole table is not built.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from yatzy.errors import YatzyError
from yatzy.game import Action, BoxEntry, Game, Roll, Sheet, State
from yatzy.rules import RuleSet, all_rolls
from yatzy.solver import Solver
from yatzy.solver._dice import dice_tables
from yatzy.solver.reference import ReferenceSolver
from yatzy.solver.saved import SavedSolver, table_ready


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Every test solves into its own cache directory."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    yield tmp_path / "xdg-cache"


def sheet_of(rules: RuleSet, open_boxes: list[str], points: dict[str, int], saved: int) -> Sheet:
    """A sheet with every box but ``open_boxes`` filled (``points``, else 0)."""
    sheet = Sheet(rules)
    for box in rules.boxes:
        if box not in open_boxes:
            sheet.entries[box] = BoxEntry(points.get(box, 0))
    sheet.saved_rolls = saved
    return sheet


# (spec, open boxes, filled points, saved counts to check).  The reference recurses
# through every roll of six dice: with two open boxes and two saved rolls it took minutes,
# so the bonus case has one box and the two-box case starts with none saved (the rolls
# it leaves unused still carry into its second turn); three saved rolls stay.
SUBGAMES: list[tuple[str, list[str], dict[str, int], tuple[int, ...]]] = [
    ("maxi+saved_rolls", ["sixes"], {"fives": 20, "fours": 16, "threes": 12}, (0, 2)),
    ("maxi+saved_rolls+last_resort", ["ones", "chance"], {}, (0,)),  # rolls carry into turn 2
    ("maxi+saved_rolls+forced", ["maxi_yatzy"], {"sixes": 30}, (0, 3)),
]


@pytest.mark.slow
@pytest.mark.parametrize(("spec", "open_boxes", "points", "saved"), SUBGAMES)
def test_fast_solver_matches_reference(
    spec: str, open_boxes: list[str], points: dict[str, int], saved: tuple[int, ...]
) -> None:
    rules = RuleSet.parse(spec)
    reference = ReferenceSolver(rules)
    fast = Solver(rules, open_boxes=open_boxes, dtype="float64")
    rough = Solver(rules, open_boxes=open_boxes)
    assert isinstance(fast, SavedSolver)
    for s in saved:
        sheet = sheet_of(rules, open_boxes, points, s)
        want = reference.value(sheet)
        assert fast.value(sheet) == pytest.approx(want, abs=1e-9, rel=0)
        assert rough.value(sheet) == pytest.approx(want, abs=1e-3, rel=0)
        assert fast.remaining(open_boxes, sheet.upper_sum, saved_rolls=s) == pytest.approx(
            want - sheet.total + sheet.bonus, abs=1e-9
        )


def test_more_saved_rolls_are_worth_more_and_saturate() -> None:
    rules = RuleSet.parse("maxi+saved_rolls")
    solver = Solver(rules, open_boxes=["maxi_yatzy", "full_straight"], dtype="float64")
    values = [
        solver.remaining(["maxi_yatzy", "full_straight"], 0, saved_rolls=s) for s in range(37)
    ]
    assert values[0] < values[1] < values[2] < values[3]
    assert all(a <= b for a, b in itertools.pairwise(values))
    # Many rolls make a full straight and a Maxi-Yatzy almost sure: 121 points at most.
    assert 120 < values[-1] < 121


def test_advice_averages_to_the_table() -> None:
    # Three rolls saved: the turn has 6 rolls; the mean over first rolls of the best
    # choice (5 rolls left) is the value before the turn.
    rules = RuleSet.parse("maxi+saved_rolls")
    open_boxes = ["fives", "full_straight"]
    solver = Solver(rules, open_boxes=open_boxes, dtype="float64")
    state = Game(rules, ["solo"]).new_initial_state()
    state.sheets[0] = sheet_of(rules, open_boxes, {"sixes": 24}, 3)
    assert state.max_rolls() == 6
    state.apply(Roll())
    total = 0.0
    for roll, p in zip(all_rolls(6), dice_tables(6).roll_prob, strict=True):
        s = state.clone()
        s.apply_roll(list(roll))
        assert s.rolls_left() == 5
        total += p * solver.advise(s).value
    assert total == pytest.approx(solver.value(state.sheets[0]), abs=1e-9)


def test_simulation_kernel_agrees_with_the_table() -> None:
    from yatzy.kernels import saved_simulate
    from yatzy.strategy.keep_arrays import keep_arrays

    rules = RuleSet.parse("maxi+saved_rolls")
    open_boxes = ["sixes", "villa", "full_straight"]
    solver = Solver(rules, open_boxes=open_boxes)
    assert isinstance(solver, SavedSolver)
    m, lay = solver.model, solver.layout
    add, sub, nsub, _, rolls, roll_of_code, keep_of_subset = keep_arrays(6)
    games = 4_000  # the mean within 4 standard errors holds at any count; this is quick
    scores, bonuses, yatzys, saved_end = (np.zeros(games, dtype=np.int64) for _ in range(4))
    saved_simulate.play_games(
        7,
        scores,
        bonuses,
        yatzys,
        saved_end,
        m.mask_of(open_boxes),
        50,
        2,
        solver.table,
        solver.offsets,
        solver.u_first,
        solver.u_count,
        lay.idx_of_mask.astype(np.int64),
        lay.allowed.astype(np.int64),
        m.score.astype(np.int64),
        m.box_face.astype(np.int64),
        rules.box_index["maxi_yatzy"],
        m.threshold,
        rules.threshold,
        rules.bonus,
        m.lr_chance,
        add,
        sub,
        nsub,
        rolls,
        roll_of_code,
        keep_of_subset,
    )
    want = solver.remaining(open_boxes, 50, saved_rolls=2)
    error = scores.std() / games**0.5
    assert abs(scores.mean() - want) < 4 * error
    assert 0 < bonuses.mean() < 1  # the bonus needs 25 from sixes: often, not always
    assert saved_end.max() > 0  # rolls saved on the last turn are lost


def test_bad_saved_counts_are_refused() -> None:
    solver = Solver("maxi+saved_rolls", open_boxes=["chance"])
    assert solver.remaining(["chance"], saved_rolls=38) > 0
    with pytest.raises(YatzyError, match="saved rolls 39 cannot occur"):
        solver.remaining(["chance"], saved_rolls=39)
    with pytest.raises(YatzyError, match="saved rolls -1"):
        solver.remaining(["chance"], saved_rolls=-1)
    upper = ["ones", "twos", "threes", "fours", "fives", "sixes"]
    with pytest.raises(YatzyError, match="upper sum 3 cannot occur"):
        Solver("maxi+saved_rolls", open_boxes=upper).remaining(upper, 3)


def test_play_falls_back_to_the_approximation_until_the_table_is_built(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from yatzy.strategy import advisor

    rules = RuleSet.parse("maxi+saved_rolls")
    assert not table_ready(rules)
    assert not advisor.is_exact(rules)
    state = Game(rules, ["solo"]).new_initial_state()
    state.sheets[0] = sheet_of(rules, ["fives", "chance"], {}, 2)
    state.apply(Roll())
    state.apply_roll([5, 5, 5, 1, 2, 3])
    rough = advisor.advise(state)
    assert not rough.exact
    # Once "built" (here: the sub-game's table stands in for the whole one) the
    # advice is exact and comes from the table.
    solver = Solver(rules, open_boxes=["fives", "chance"], dtype="float64")
    monkeypatch.setattr("yatzy.solver.saved.table_ready", lambda rules, dtype="float32": True)
    monkeypatch.setitem(advisor._WHOLE, rules.spec, solver)
    exact = advisor.advise(state)
    assert exact.exact
    assert exact.value == pytest.approx(solver.advise(state).value, abs=1e-9)


@pytest.mark.parametrize(("c", "cap"), [(0.0, math.inf), (2.0, math.inf), (6.0, 0.75)])
def test_the_approximate_table_values_as_the_approximate_strategy(c: float, cap: float) -> None:
    # The compiled simulation plays the approximate strategy through this table
    # (benchmarks/bench_saved_approx.py): every option of a position must be valued
    # as the strategy values it, with the same saved-roll value.
    from yatzy.strategy.approx import ApproxStrategy

    rules = RuleSet.parse("maxi+saved_rolls")
    open_boxes = ["fives", "small_straight", "chance"]
    table = SavedSolver.approximate(
        rules, c, saved_roll_cap=cap, open_boxes=open_boxes, end_value=True
    )
    strategy = ApproxStrategy(rules, saved_roll_value=c, saved_roll_cap=cap)
    state = Game(rules, ["solo"]).new_initial_state()
    state.sheets[0] = sheet_of(rules, open_boxes, {"sixes": 24, "fours": 12}, 2)
    state.apply(Roll())
    for dice in ([5, 5, 5, 1, 2, 3], [1, 2, 3, 4, 6, 6], [2, 2, 3, 3, 6, 6]):
        position = state.clone()
        position.apply_roll(dice)
        want = _by_option(position, strategy.evaluate(position))
        got = _by_option(position, [(c.action, c.value) for c in table.advise(position).choices])
        assert set(got) == set(want)
        assert len(got) > 10
        for action, value in got.items():
            assert value == pytest.approx(want[action], abs=2e-3), action


def test_the_approximate_table_can_count_the_bonus_twice_and_drop_saved_rolls_at_the_end() -> None:
    rules = RuleSet.parse("maxi+saved_rolls")
    open_boxes = ["sixes", "chance"]
    once = SavedSolver.approximate(rules, 2.0, open_boxes=open_boxes)
    twice = SavedSolver.approximate(rules, 2.0, open_boxes=open_boxes, bonus_twice=True)
    kept = SavedSolver.approximate(rules, 2.0, open_boxes=open_boxes, end_value=True)
    # Upper sum 75 reached: the bonus (50) counted again; below it, not.
    assert twice.remaining(open_boxes, 75) == pytest.approx(once.remaining(open_boxes, 75) + 50)
    assert twice.remaining(open_boxes, 40) == pytest.approx(once.remaining(open_boxes, 40))
    # A full sheet's saved rolls: worth nothing, or 2 each with end_value.
    assert once.remaining([], 0, saved_rolls=3) == 0
    assert kept.remaining([], 0, saved_rolls=3) == pytest.approx(6.0)


def _by_option(state: State, pairs: list[tuple[Action, float]]) -> dict[object, float]:
    """The best value per box written, and per multiset of dice kept."""
    out: dict[object, float] = {}
    dice = state.layer("all")
    for action, value in pairs:
        key: object
        if isinstance(action, Roll):
            key = tuple(sorted(dice[i] for i in action.keep))
        else:
            key = action.box  # type: ignore[attr-defined]
        out[key] = max(value, out.get(key, float("-inf")))
    return out
