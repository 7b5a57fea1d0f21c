"""Every example of RULES.md: the sheets' examples and the in-text ones."""

from __future__ import annotations

import pytest

from tests.conftest import new_state, roll, turn
from yatzy.errors import NoRollsLeftError
from yatzy.game import Fill2, Roll, Score, Scratch
from yatzy.rules import RuleSet, all_rolls

YATZY = RuleSet("yatzy")
YAHTZEE = RuleSet("yahtzee")

# -- 000 ---------------------------------------------------------------------------------


def test_000_turn_example_through_a_state() -> None:
    """Rolls 1-3-3-4-5, keep the threes, 3-4-5, keep, 1-3 -> 3-3-3-3-1."""
    state = new_state("yatzy")
    roll(state, [1, 3, 3, 4, 5])
    assert state.dice == [1, 3, 3, 4, 5]
    # Keep the threes (positions 1 and 2); the other three dice show 3-4-5.
    roll(state, [3, 4, 5], keep=[1, 2])
    assert sorted(state.layer("all")) == [3, 3, 3, 4, 5]
    threes = tuple(i for i, d in enumerate(state.layer("all")) if d == 3)
    assert len(threes) == 3
    roll(state, [1, 3], keep=threes)
    assert sorted(state.layer("all")) == [1, 3, 3, 3, 3]
    assert state.rolls_left() == 0
    assert not any(isinstance(a, Roll) for a in state.legal_actions())
    with pytest.raises(NoRollsLeftError):
        state.apply(Roll(threes))

    preview = state.preview()
    assert isinstance(preview, dict)
    assert preview["threes"] == 12
    assert preview["four_of_a_kind"] == 12
    assert preview["chance"] == 13
    legal = state.legal_actions()
    # Every box may be scored or scratched, whatever the dice fit.
    for box in YATZY.boxes:
        assert Score(box) in legal
        assert Scratch(box) in legal
    choices: list[tuple[Score | Scratch, str, int]] = [
        (Score("threes"), "threes", 12),
        (Score("four_of_a_kind"), "four_of_a_kind", 12),
        (Score("chance"), "chance", 13),
        (Scratch("yatzy"), "yatzy", 0),
        (Scratch("threes"), "threes", 0),
    ]
    for action, box, points in choices:
        after = state.clone()
        after.apply(action)
        entry = after.sheets[0].entries[box]
        assert entry is not None
        assert entry.points == points
        assert entry.scratched == isinstance(action, Scratch)
        assert after.sheets[0].total == points
        assert after.rolls_left() == 3  # the next turn starts afresh


@pytest.mark.parametrize("x", [1, 2, 3, 4, 5, 6])
def test_000_two_pairs_3344x(x: int) -> None:
    # Whatever the fifth die (even a third 3 or 4), the best two pairs of different
    # faces is 3-3-4-4.
    assert YATZY.score("two_pairs", [3, 3, 4, 4, x]) == 14
    assert YATZY.score("two_pairs", [x, 4, 3, 4, 3]) == 14


def test_000_three_of_a_kind_and_full_house() -> None:
    assert YATZY.score("three_of_a_kind", [5, 5, 5, 1, 2]) == 15
    assert YATZY.score("full_house", [2, 2, 2, 4, 4]) == 14


def test_000_bonus_par_four_fours_is_plus_four() -> None:
    state = new_state("yatzy")
    turn(state, [4, 4, 4, 4, 1], Score("fours"))
    assert state.sheets[0].bonus_par == 4


# -- 001 ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("box", "dice", "points"),
    [
        ("three_of_a_kind", [5, 5, 5, 2, 4], 21),
        ("four_of_a_kind", [1, 1, 1, 1, 3], 7),
        ("full_house", [2, 2, 2, 3, 3], 25),
        ("small_straight", [2, 3, 4, 5, 5], 30),
        ("large_straight", [2, 3, 4, 5, 6], 40),
        ("chance", [2, 3, 5, 6, 6], 22),
    ],
)
def test_001_examples(box: str, dice: list[int], points: int) -> None:
    assert YAHTZEE.score(box, dice) == points
    # The same through a game state.
    state = new_state("yahtzee")
    turn(state, dice, Score(box))
    assert state.sheets[0].points(box) == points


# -- 003 ---------------------------------------------------------------------------------

EXAMPLES_003 = [
    ("threes", [3, 3, 3, 6, 6], 9),
    ("sixes", [3, 3, 3, 6, 6], 12),
    ("one_pair", [5, 5, 1, 2, 3], 10),
    ("two_pairs", [5, 5, 6, 6, 1], 22),
    ("three_of_a_kind", [2, 2, 2, 1, 3], 6),
    ("four_of_a_kind", [4, 4, 4, 4, 1], 16),
    ("full_house", [3, 3, 3, 4, 4], 17),
    ("chance", [1, 5, 4, 3, 3], 16),
]


@pytest.mark.parametrize(("box", "dice", "points"), EXAMPLES_003)
@pytest.mark.parametrize("spec", ["yatzy", "yatzy+lenient"])
def test_003_base_rule_examples(spec: str, box: str, dice: list[int], points: int) -> None:
    assert RuleSet.parse(spec).score(box, dice) == points


@pytest.mark.parametrize(("box", "dice", "points"), EXAMPLES_003)
@pytest.mark.parametrize("scoring", ["lenient", "strict"])
def test_003_examples_in_dubbel_after_a_drop(
    scoring: str, box: str, dice: list[int], points: int
) -> None:
    """The same five faces as one DubbelYatzy result, a sixth face dropped."""
    rules = RuleSet("dubbel", scoring=scoring)
    for sixth in range(1, 7):
        assert rules.score_dropped(box, [*dice, sixth], sixth) == points


def test_003_dubbel_example_via_rules() -> None:
    rules = RuleSet("dubbel")
    outer, inner = [6, 6, 4, 3, 3, 3], [5, 4, 3, 2, 2, 1]
    assert rules.score_dropped("full_house", outer, 4) == 21
    assert rules.score("full_house", outer) == 21
    assert rules.score_dropped("small_straight", inner, 2) == 15
    assert rules.score("small_straight", inner) == 15
    # Dropping anything else breaks the combination.
    assert rules.score_dropped("small_straight", inner, 5) == 0
    assert rules.score_dropped("full_house", outer, 6) == 0


def test_003_dubbel_example_via_state() -> None:
    """Outer 6-6-4-3-3-3, inner 5-4-3-2-2-1: Full House 21 dropping the 4, Small
    Straight 15 dropping a 2, written in one turn."""
    state = new_state("dubbel")
    outer, inner = [6, 6, 4, 3, 3, 3], [5, 4, 3, 2, 2, 1]
    roll(state, list(zip(outer, inner, strict=True)))
    assert state.layer("outer") == tuple(outer)
    assert state.layer("inner") == tuple(inner)
    assert state.box_points("full_house", "outer") == 21
    assert state.box_points("small_straight", "inner") == 15
    assert state.box_points("full_house", "outer", drop=4) == 21
    assert state.box_points("small_straight", "inner", drop=2) == 15
    assert Fill2(Score("small_straight", 2), Score("full_house", 4)) in state.legal_actions()
    state.apply(Fill2(Score("small_straight"), Score("full_house")))  # best drops
    sheet = state.sheets[0]
    fh, ss = sheet.entries["full_house"], sheet.entries["small_straight"]
    assert fh is not None and (fh.points, fh.drop) == (21, 4)
    assert ss is not None and (ss.points, ss.drop) == (15, 2)
    assert sheet.total == 36


# -- 004 ---------------------------------------------------------------------------------


def test_004_examples() -> None:
    assert YATZY.score("full_house", [6, 6, 6, 2, 2]) == 22
    assert YATZY.score("sixes", [6, 6, 6, 2, 4]) == 18
    assert YATZY.score("three_of_a_kind", [6, 6, 6, 2, 4]) == 18


# -- in-text examples --------------------------------------------------------------------


def test_one_pair_is_the_best_pair() -> None:
    assert YATZY.score("one_pair", [5, 5, 6, 6, 2]) == 12


def test_lenient_four_equal_are_two_pairs() -> None:
    assert RuleSet("yatzy", lenient=True).score("two_pairs", [4, 4, 4, 4, 2]) == 16
    assert YATZY.score("two_pairs", [4, 4, 4, 4, 2]) == 0


def test_lenient_five_equal_are_a_full_house() -> None:
    assert RuleSet("yatzy", lenient=True).score("full_house", [3, 3, 3, 3, 3]) == 15
    assert YATZY.score("full_house", [3, 3, 3, 3, 3]) == 0


def test_yatzy_pip_bonus() -> None:
    rules = RuleSet("yatzy", yatzy_pip_bonus=True)
    assert rules.score("yatzy", [6] * 5) == 80
    assert rules.score("yatzy", [1] * 5) == 55
    assert rules.score("yatzy", [1, 1, 1, 1, 2]) == 0


@pytest.mark.parametrize("scoring", ["lenient", "strict", "international"])
def test_003_dubbel_yatzy_pip_bonus_applies_to_the_result_in_yatzy(scoring: str) -> None:
    """003: "lägger till tärningsögonens värde till de 50" — on the result in Yatzy."""
    rules = RuleSet("dubbel", yatzy_pip_bonus=True, scoring=scoring)
    tail = "" if scoring == "lenient" else f"+scoring={scoring}"
    assert rules.spec == f"dubbel+yatzy_pip_bonus{tail}"
    assert RuleSet.parse(rules.spec) == rules
    assert rules.score("yatzy", [5, 5, 5, 5, 5, 2]) == 75  # the 2 is dropped
    assert RuleSet("dubbel", scoring=scoring).score("yatzy", [5, 5, 5, 5, 5, 2]) == 50
    assert 80 in rules.possible_scores("yatzy") and 55 in rules.possible_scores("yatzy")
    state = new_state(rules)
    outer, inner = [4, 4, 4, 4, 4, 6], [2, 2, 2, 2, 2, 1]
    roll(state, list(zip(outer, inner, strict=True)))
    state.apply(Fill2(Score("yatzy"), Score("fours")))
    sheet = state.sheets[0]
    assert sheet.points("yatzy") == 50 + 10  # inner 2-2-2-2-2, the 1 dropped
    assert sheet.points("fours") == 20


def test_maximum_yatzy_total_is_374_by_construction() -> None:
    """Best score of every box plus the bonus is 374, and a game reaches it."""
    best = {b: max(YATZY.score(b, r) for r in all_rolls(5)) for b in YATZY.boxes}
    upper = sum(best[b] for b in YATZY.upper_boxes)
    assert upper >= YATZY.threshold
    assert sum(best.values()) + YATZY.bonus == 374

    state = new_state("yatzy")
    for box in YATZY.boxes:
        dice = next(r for r in all_rolls(5) if YATZY.score(box, r) == best[box])
        turn(state, dice, Score(box))
    assert state.is_terminal()
    assert state.totals() == [374]
    assert state.sheets[0].bonus == 50
