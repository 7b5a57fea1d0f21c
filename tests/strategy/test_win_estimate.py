"""The estimated analysis in win chance (issue 24: given at once while the exact one
waits for its kernels): the same shape as the exact one, marked estimated and never
exact, its chart from the even start to the result, every decision's cost the
points it cost weighed in chance (the best choices cost nothing), solo against a
record, and the same refusals."""

from __future__ import annotations

import random

import pytest

from yatzy.bots import GreedyBot, make_bot, play_turn
from yatzy.errors import YatzyError
from yatzy.game import Game, Player, State
from yatzy.strategy.analyze import MISTAKE, analyze
from yatzy.strategy.win_estimate import estimate_wins


def _played(names: list[Player], seed: int, bots: list[object]) -> State:
    state = Game("yatzy", names).new_initial_state(starter=0)
    rng = random.Random(seed)
    while not state.is_terminal():
        play_turn(state, bots[state.player], rng)  # type: ignore[arg-type]
    return state


@pytest.fixture(scope="module")
def two() -> State:
    """A greedy player against the optimal one: the greedy one errs in points."""
    return _played([Player("Ann"), Player("Bo")], 3, [GreedyBot(), make_bot("optimal")])


def test_an_estimate_has_the_exact_analysis_shape(two: State) -> None:
    points = analyze(two)
    est = estimate_wins(two, points=points)
    assert est.estimated and not est.exact and est.to_json()["estimated"] is True
    assert est.goal == "win" and est.levels == ("person", "person")
    assert [p.turn for p in est.points] == list(range(31))
    assert est.points[0].chances == pytest.approx((0.5, 0.5), abs=1e-9)  # even start
    for p in est.points:
        assert sum(p.chances) == pytest.approx(1.0, abs=1e-9)
    winner = two.winners()[0]
    assert est.points[-1].chances[winner] == 1.0 and est.points[-1].exact
    assert len(est.decisions) == len(points.decisions)
    for w in est.decisions:
        assert 0.0 <= w.after <= w.best_chance <= 1.0 and w.cost >= 0.0
        if w.decision.loss <= 1e-9:
            assert w.cost == pytest.approx(0.0, abs=1e-12)  # the best choice
    ann, bo = est.players
    assert ann.total_cost > 0.05 and ann.costly > 0 and ann.worst  # greedy's mistakes
    assert bo.total_cost == pytest.approx(0.0, abs=1e-6)  # optimal: nothing lost
    big = [w for w in est.decisions if w.decision.loss > 5 * MISTAKE and w.player == 0]
    assert big and all(w.cost > 0 for w in big)


def test_a_weaker_level_lowers_the_chances(two: State) -> None:
    points = analyze(two)
    even = estimate_wins(two, points=points)
    weak = estimate_wins(two, points=points, levels=["beginner", None])
    assert weak.points[1].chances[0] < even.points[1].chances[0]


def test_solo_is_the_chance_of_beating_the_record() -> None:
    solo = _played([Player("Ann")], 5, [make_bot("optimal")])
    final = solo.sheets[0].final
    beaten = estimate_wins(solo, record=final - 1)
    assert beaten.goal == "record" and beaten.points[-1].chances == (1.0,)
    lost = estimate_wins(solo, record=final)
    assert lost.points[-1].chances == (0.0,)
    assert 0.0 < lost.points[0].chances[0] < 1.0
    high = estimate_wins(solo, record=330)
    assert high.points[0].chances[0] < min(0.05, lost.points[0].chances[0])


def test_bad_arguments_are_refused(two: State) -> None:
    with pytest.raises(YatzyError, match="record"):
        estimate_wins(two, record=200)
    solo = Game("yatzy", ["Ann"]).new_initial_state(starter=0)
    with pytest.raises(YatzyError, match="record"):
        estimate_wins(solo)
    with pytest.raises(YatzyError, match="State"):
        estimate_wins("game")  # type: ignore[arg-type]
