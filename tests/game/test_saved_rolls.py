"""Maxi's saved rolls: ``saved_rolls=all`` (they accumulate) and ``saved_rolls=next``
(000's literal reading: at most 2 carry into the next turn only), in the state,
records and positions."""

from __future__ import annotations

import json

import pytest

from tests.conftest import assert_refused, new_state, roll, turn
from yatzy.errors import NoRollsLeftError
from yatzy.game import Roll, Scratch, State, from_record, to_record
from yatzy.strategy.position import PositionError, build_position

SIX = [1, 2, 3, 4, 5, 6]


def rolls_turn(state: State, count: int, box: str) -> None:
    """A turn of ``count`` rolls, then ``box`` scratched."""
    roll(state, SIX)
    for _ in range(count - 1):
        roll(state, [6], keep=[0, 1, 2, 3, 4])
    state.apply(Scratch(box))


@pytest.mark.parametrize(
    ("spec", "rolls", "saved", "max_rolls"),
    [
        # One roll a turn: 2 saved each time; "all" piles them up, "next" keeps 2.
        ("maxi+saved_rolls", [1, 1, 1], [2, 4, 6], [3, 5, 7]),
        ("maxi+saved_rolls=next", [1, 1, 1], [2, 2, 2], [3, 5, 5]),
        # Using some of the carried rolls: what is left over carries on, up to 2.
        ("maxi+saved_rolls=next", [1, 4, 2, 5, 3], [2, 1, 2, 0, 0], [3, 5, 4, 5, 3]),
        ("maxi+saved_rolls", [1, 4, 2, 5, 3], [2, 1, 2, 0, 0], [3, 5, 4, 5, 3]),
        # Without the option nothing is saved.
        ("maxi", [1, 1], [0, 0], [3, 3]),
    ],
)
def test_saved_rolls_per_turn(
    spec: str, rolls: list[int], saved: list[int], max_rolls: list[int]
) -> None:
    state = new_state(spec)
    boxes = state.rules.boxes
    for i, (count, want, most) in enumerate(zip(rolls, saved, max_rolls, strict=True)):
        assert state.max_rolls() == most
        rolls_turn(state, count, boxes[i])
        assert state.sheets[0].saved_rolls == want


def test_next_turn_has_at_most_five_rolls() -> None:
    state = new_state("maxi+saved_rolls=next", players=2)
    rolls_turn(state, 1, "ones")  # seat 0 saves 2
    rolls_turn(state, 3, "ones")  # seat 1 saves none
    assert state.max_rolls() == 5
    roll(state, SIX)
    for _ in range(4):
        roll(state, [6], keep=[0, 1, 2, 3, 4])
    assert state.rolls_left() == 0
    assert_refused(state, lambda: state.apply(Roll((0,))), NoRollsLeftError)
    state.apply(Scratch("twos"))
    assert state.sheets[0].saved_rolls == 0


def test_next_carries_from_the_turn_that_saved_only() -> None:
    # 000: "spara en eller två slag ... till nästa omgång": 2 saved, none used,
    # the turn after that has 3 + 2 again, not 3 + 4.
    state = new_state("maxi+saved_rolls=next")
    rolls_turn(state, 1, "ones")
    rolls_turn(state, 1, "twos")
    assert state.sheets[0].saved_rolls == 2
    assert state.max_rolls() == 5


def test_records_keep_the_choice_and_old_records_load() -> None:
    state = new_state("maxi+saved_rolls=next", players=2)
    turn(state, SIX, Scratch("ones"))
    record = to_record(state)
    assert record["rules"] == "maxi+saved_rolls=next"
    again = from_record(json.loads(json.dumps(record)))
    assert again == state and again.sheets[0].saved_rolls == 2
    # A record written while saved_rolls was a flag says "maxi+saved_rolls": all.
    old = new_state("maxi+saved_rolls", players=2)
    turn(old, SIX, Scratch("ones"))
    record = to_record(old)
    assert record["rules"] == "maxi+saved_rolls"
    loaded = from_record(record)
    assert loaded.rules.saved_rolls == "all" and loaded == old


def test_a_record_with_too_many_rolls_for_next_is_refused() -> None:
    state = new_state("maxi+saved_rolls", players=1)
    rolls_turn(state, 1, "ones")
    rolls_turn(state, 1, "twos")
    rolls_turn(state, 7, "threes")  # 3 + 4 saved: legal only when rolls accumulate
    record = to_record(state)
    record["rules"] = "maxi+saved_rolls=next"
    with pytest.raises(Exception, match="no rolls left"):
        from_record(record)


def test_positions_know_the_limit_of_next() -> None:
    from yatzy.rules import RuleSet

    rules = RuleSet.parse("maxi+saved_rolls=next")
    filled = {"ones": 3, "twos": 6, "threes": 9}
    state = build_position(rules, {**filled, "saved_rolls": 2})
    assert state.sheets[0].saved_rolls == 2 and state.max_rolls() == 5
    with pytest.raises(PositionError, match="at most 2 carry into a turn"):
        build_position(rules, {**filled, "saved_rolls": 3})
    loose = build_position(RuleSet.parse("maxi+saved_rolls"), {**filled, "saved_rolls": 6})
    assert loose.max_rolls() == 9
