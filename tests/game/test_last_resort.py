"""Option ``last_resort`` (002, 004): Chance only when the dice score nowhere else, 0
only when they score nowhere; with every order rule, the score pad, records and
the refusals (which leave the state as it was)."""

from __future__ import annotations

import pytest

from tests.conftest import assert_refused, new_state, roll, turn
from yatzy.errors import LastResortError, OrderError
from yatzy.game import (
    BoxEntry,
    Game,
    Roll,
    Score,
    Scratch,
    SetDice,
    State,
    Write,
    from_record,
    to_record,
)


def with_filled(state: State, filled: dict[str, int]) -> State:
    """``state`` with the current player's ``filled`` boxes written (as if earlier turns)."""
    for box, points in filled.items():
        state.sheet.entries[box] = BoxEntry(points)
    return state


def fills(state: State) -> set[str]:
    """The fills among the legal actions, as ``score:box`` / ``scratch:box``."""
    out = set()
    for action in state.legal_actions():
        if isinstance(action, Score):
            out.add(f"score:{action.box}")
        elif isinstance(action, Scratch):
            out.add(f"scratch:{action.box}")
    return out


# -- the sheets' examples -------------------------------------------------------------


def test_004_example_two_full_sheet_open() -> None:
    # 004: 6-6-6-2-4 goes on Sixes or Three of a Kind (or anywhere else it scores);
    # Chance and a 0 are not allowed while it scores somewhere.
    state = new_state("yatzy+last_resort")
    roll(state, [6, 6, 6, 2, 4])
    assert state.allowed_boxes() == [
        "twos",
        "fours",
        "sixes",
        "one_pair",
        "three_of_a_kind",
    ]
    assert not state.zero_allowed()
    assert fills(state) == {f"score:{b}" for b in state.allowed_boxes()}
    error = assert_refused(state, lambda: state.apply(Score("chance")), LastResortError)
    assert "box chance may be used only when the dice score 0 in every other box" in str(error)
    assert "sixes (18)" in str(error) and "three_of_a_kind (18)" in str(error)
    error = assert_refused(state, lambda: state.apply(Scratch("yatzy")), LastResortError)
    assert "box yatzy may not be written with 0" in str(error)
    # Scoring a box where the dice give 0 is a 0 too.
    assert_refused(state, lambda: state.apply(Score("ones")), LastResortError, "box ones")
    state.apply(Score("three_of_a_kind"))
    assert state.sheets[0].points("three_of_a_kind") == 18


def test_004_example_two_chance_when_nothing_else_scores() -> None:
    # "Jos kolmoisluku on käytetty, voit käyttää sattumaa": the boxes it scores in
    # are used, so Chance takes the sum of all five.
    state = with_filled(
        new_state("yatzy+last_resort"),
        {"twos": 4, "fours": 8, "sixes": 18, "one_pair": 10, "three_of_a_kind": 12},
    )
    roll(state, [6, 6, 6, 2, 4])
    assert state.allowed_boxes() == ["chance"]
    assert fills(state) == {"score:chance"}
    assert_refused(state, lambda: state.apply(Scratch("chance")), LastResortError)
    assert_refused(state, lambda: state.apply(Scratch("ones")), LastResortError, "chance \\(24\\)")
    state.apply(Score("chance"))
    assert state.sheets[0].points("chance") == 24


def test_004_example_two_zero_when_chance_is_used() -> None:
    # "Jos sattuma on käytetty, laitat nollan johonkin vapaana olevaan sarakkeeseen."
    state = with_filled(
        new_state("yatzy+last_resort"),
        {"twos": 4, "fours": 8, "sixes": 18, "one_pair": 10, "three_of_a_kind": 12, "chance": 20},
    )
    roll(state, [6, 6, 6, 2, 4])
    open_boxes = state.sheet.open_boxes
    assert state.allowed_boxes() == open_boxes
    assert state.zero_allowed()
    assert fills(state) == {f"{k}:{b}" for b in open_boxes for k in ("score", "scratch")}
    state.apply(Scratch("yatzy"))
    assert state.sheets[0].entries["yatzy"] == BoxEntry(0, True)


def test_002_maxi_chance_then_scratch() -> None:
    # 002: a roll that fits no combination goes on Chance; with Chance used, a box
    # is scratched.
    state = with_filled(
        new_state("maxi+last_resort"),
        {b: 0 for b in ("twos", "threes", "fours", "sixes", "one_pair", "two_pairs")},
    )
    dice = [2, 2, 3, 4, 6, 6]
    roll(state, dice)
    assert state.allowed_boxes() == ["chance"]
    state.apply(Score("chance"))
    other = with_filled(
        new_state("maxi+last_resort"),
        {b: 0 for b in ("twos", "threes", "fours", "sixes", "one_pair", "two_pairs", "chance")},
    )
    roll(other, dice)
    assert other.zero_allowed()
    assert other.allowed_boxes() == other.sheet.open_boxes
    other.apply(Scratch("maxi_yatzy"))


# -- legality, table-driven ----------------------------------------------------------

# (spec, filled boxes, dice, allowed boxes, whether 0 may be written)
CASES: list[tuple[str, list[str], list[int], list[str] | None, bool]] = [
    # Without the option everything open is allowed, and 0 too.
    ("yatzy", [], [6, 6, 6, 2, 4], None, True),
    # A Yatzy scores in Yatzy, its upper box, pairs, kinds, Chance excluded.
    (
        "yatzy+last_resort",
        [],
        [5, 5, 5, 5, 5],
        ["fives", "one_pair", "three_of_a_kind", "four_of_a_kind", "yatzy"],
        False,
    ),
    # Strict Two Pairs: 4-4-4-4-2 is no Two Pairs; lenient: it is.
    (
        "yatzy+last_resort",
        ["twos", "fours", "one_pair", "three_of_a_kind", "four_of_a_kind"],
        [4, 4, 4, 4, 2],
        ["chance"],
        False,
    ),
    (
        "yatzy+last_resort+lenient",
        ["twos", "fours", "one_pair", "three_of_a_kind", "four_of_a_kind"],
        [4, 4, 4, 4, 2],
        ["two_pairs"],
        False,
    ),
    # The pip bonus changes nothing about where a Yatzy scores.
    (
        "yatzy+last_resort+yatzy_pip_bonus",
        ["ones", "one_pair", "three_of_a_kind", "four_of_a_kind"],
        [1, 1, 1, 1, 1],
        ["yatzy"],
        False,
    ),
    # Forced order: the next box takes the dice whatever they score; a scratch
    # only when they score 0 there.
    ("yatzy+last_resort+forced", [], [6, 6, 6, 2, 4], ["ones"], True),
    ("yatzy+last_resort+forced", ["ones"], [6, 6, 6, 2, 4], ["twos"], False),
    (
        "yatzy+last_resort+forced",
        [
            "ones",
            "twos",
            "threes",
            "fours",
            "fives",
            "sixes",
            "one_pair",
            "two_pairs",
            "three_of_a_kind",
            "four_of_a_kind",
            "small_straight",
            "large_straight",
            "full_house",
        ],
        [6, 6, 6, 2, 4],
        ["chance"],
        False,
    ),
    # Half-forced, first turn: the top of either section, cut by last_resort.
    ("yatzy+last_resort+half_forced", [], [6, 6, 6, 2, 4], ["one_pair"], False),
    ("yatzy+last_resort+half_forced", [], [1, 6, 6, 2, 4], ["ones", "one_pair"], False),
    ("yatzy+last_resort+half_forced", [], [1, 2, 3, 4, 6], ["ones"], False),
    ("maxi+last_resort+half_forced", [], [2, 3, 4, 5, 6, 6], ["one_pair"], False),
    ("maxi+last_resort+half_forced", [], [2, 3, 4, 5, 6, 1], ["ones"], False),
    # Maxi: a full straight scores in many boxes, never only Chance.
    (
        "maxi+last_resort",
        [],
        [1, 2, 3, 4, 5, 6],
        [
            "ones",
            "twos",
            "threes",
            "fours",
            "fives",
            "sixes",
            "small_straight",
            "large_straight",
            "full_straight",
        ],
        False,
    ),
    (
        "maxi+last_resort+saved_rolls=next",
        ["ones", "twos", "threes", "fours", "fives", "sixes"],
        [1, 2, 3, 4, 5, 6],
        ["small_straight", "large_straight", "full_straight"],
        False,
    ),
]


@pytest.mark.parametrize(("spec", "filled", "dice", "allowed", "zero"), CASES)
def test_legal_fills(
    spec: str, filled: list[str], dice: list[int], allowed: list[str] | None, zero: bool
) -> None:
    state = with_filled(new_state(spec), {b: 0 for b in filled})
    roll(state, dice)
    want = state.sheet.open_boxes if allowed is None else allowed
    assert state.allowed_boxes() == want
    assert state.zero_allowed() is zero
    expected = {f"score:{b}" for b in want}
    if zero:
        expected |= {f"scratch:{b}" for b in want}
    assert fills(state) == expected
    # Every listed fill applies; every other fill of an open box is refused.
    for box in state.sheet.open_boxes:
        for action in (Score(box), Scratch(box)):
            kind = "score" if isinstance(action, Score) else "scratch"
            if f"{kind}:{box}" in expected:
                after = state.clone()
                after.apply(action)
                assert after.turn_number == 1
            else:
                assert_refused(state, lambda a=action: state.apply(a), OrderError)


def test_refusal_before_the_last_roll_leaves_rolls_and_dice() -> None:
    state = new_state("yatzy+last_resort", players=2)
    roll(state, [1, 2, 3, 4, 5])
    assert state.allowed_boxes()[-1] == "small_straight"
    assert_refused(state, lambda: state.apply(Scratch("yatzy")), LastResortError)
    assert state.rolls_left() == 2
    roll(state, [6], keep=[1, 2, 3, 4])
    state.apply(Score("large_straight"))
    assert state.player == 1


def test_last_resort_survives_a_record_round_trip() -> None:
    state = new_state("maxi+last_resort+saved_rolls=next", players=2)
    turn(state, [1, 2, 3, 4, 5, 6], Score("full_straight"))
    turn(state, [6, 6, 6, 6, 6, 6], Score("maxi_yatzy"))
    again = from_record(to_record(state))
    assert again == state
    assert again.rules.spec == "maxi+last_resort+saved_rolls=next"


# -- the score pad ---------------------------------------------------------------------


def pad_state(spec: str, filled: dict[str, int] | None = None) -> State:
    """A one-seat score pad game with ``filled`` boxes already written."""
    state = Game(spec, ["pad"], pad=True).new_initial_state()
    return with_filled(state, filled or {})


def test_pad_with_dice_follows_the_rule() -> None:
    state = pad_state("yatzy+last_resort")
    state.apply(SetDice([6, 6, 6, 2, 4]))
    assert state.allowed_boxes() == ["twos", "fours", "sixes", "one_pair", "three_of_a_kind"]
    writes = [a for a in state.legal_actions() if isinstance(a, Write)]
    assert writes and all(a.points > 0 for a in writes)
    assert {a.box for a in writes} == set(state.allowed_boxes())
    assert_refused(state, lambda: state.apply(Score("chance")), LastResortError)
    assert_refused(state, lambda: state.apply(Scratch("ones")), LastResortError)
    # Points written by hand are judged against the dice entered.
    assert_refused(state, lambda: state.apply(Write("chance", 24)), LastResortError)
    assert_refused(state, lambda: state.apply(Write("sixes", 0)), LastResortError, "with 0")
    assert_refused(state, lambda: state.apply(Write("ones", 3)), LastResortError, "score 0 there")
    state.apply(Write("sixes", 18))
    assert state.sheets[0].points("sixes") == 18


def test_pad_points_alone_are_not_judged() -> None:
    # Without dice the pad cannot know what they scored: Chance and 0 are accepted.
    state = pad_state("yatzy+last_resort")
    legal = state.legal_actions()
    assert Scratch("ones") in legal and Write("twos", 0) in legal and Write("chance", 24) in legal
    state.apply(Write("chance", 24))
    state.apply(Scratch("ones"))
    state.apply(Write("twos", 0))
    assert state.sheets[0].points("chance") == 24
    assert state.turn_number == 3


def test_roll_is_not_cut_before_the_first_roll() -> None:
    state = new_state("yatzy+last_resort")
    assert state.legal_actions() == [Roll()]
    assert state.allowed_boxes() == state.sheet.open_boxes
    assert state.zero_allowed()  # nothing to judge before the dice are rolled
