"""The game state: roll-off, turns, rolls, order rules, DubbelYatzy, bonus, joker,
winners, chance, and every illegal action (refused without a trace)."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from functools import partial
from typing import Any

import pytest

from tests.conftest import assert_refused, new_state, roll, turn
from yatzy.errors import (
    BoxFilledError,
    DiceError,
    GameOverError,
    IllegalActionError,
    KeepError,
    NoRollsLeftError,
    NotYourTurnError,
    OrderError,
    UnknownBoxError,
    YatzyError,
)
from yatzy.game import (
    CHANCE,
    TERMINAL,
    Fill2,
    Game,
    Phase,
    Roll,
    Score,
    Scratch,
    SetDice,
    State,
    Undo,
    Write,
    action_from_json,
    action_to_json,
    from_record,
    to_record,
)

FIVE = [1, 2, 3, 4, 5]
SIX = [1, 2, 3, 4, 5, 6]


def scratch_turn(state: State) -> None:
    """A turn that rolls once and scratches (or for DubbelYatzy fills) the first
    boxes the rules allow."""
    dice: list[Any] = [(f, f) for f in SIX] if state.rules.double else SIX[: state.rules.num_dice]
    roll(state, dice)
    fills = [a for a in state.legal_actions() if not isinstance(a, Roll)]
    state.apply(fills[0])


# -- the roll-off ------------------------------------------------------------------------


def test_rolloff_ties_reroll_among_the_tied_only() -> None:
    state = Game("yatzy", ["a", "b", "c", "d"]).new_initial_state()
    assert state.phase is Phase.ROLL_OFF
    assert state.current_player() == CHANCE
    assert state.is_chance_node()
    assert state.legal_actions() == []
    assert state.contenders() == [0, 1, 2, 3]
    state.apply_roll([6, 2, 6, 6])  # seats 0, 2 and 3 tie on 6
    assert state.contenders() == [0, 2, 3]
    assert state.current_player() == CHANCE
    state.apply_chance(4)  # one die at a time works as well
    state.apply_chance(5)
    assert state.current_player() == CHANCE
    state.apply_chance(5)  # seats 2 and 3 tie again
    assert state.contenders() == [2, 3]
    assert state.starter is None
    state.apply_roll([1, 3])
    assert state.starter == 3
    assert state.phase is Phase.TURN  # type: ignore[comparison-overlap]
    assert state.current_player() == 3
    assert state.rolloff == [
        [(0, 6), (1, 2), (2, 6), (3, 6)],
        [(0, 4), (2, 5), (3, 5)],
        [(2, 1), (3, 3)],
    ]
    # Play goes on in seat order from the starter.
    order = []
    for _ in range(9):
        order.append(state.current_player())
        scratch_turn(state)
    assert order == [3, 0, 1, 2, 3, 0, 1, 2, 3]


@pytest.mark.parametrize(("faces", "starter"), [([2, 5, 3], 1), ([6, 5, 3], 0), ([1, 1, 2], 2)])
def test_rolloff_highest_starts(faces: list[int], starter: int) -> None:
    state = Game("maxi", ["a", "b", "c"]).new_initial_state()
    state.apply_roll(faces)
    assert state.starter == starter
    assert state.current_player() == starter
    assert state.legal_actions() == [Roll()]


def test_rolloff_uses_single_faces_in_dubbel() -> None:
    state = Game("dubbel", ["a", "b"]).new_initial_state()
    outcomes = state.chance_outcomes()
    assert [o for o, _ in outcomes] == [1, 2, 3, 4, 5, 6]
    assert sum(p for _, p in outcomes) == 1
    assert_refused(state, lambda: state.apply_chance((3, 4)), DiceError)
    state.apply_roll([3, 4])
    assert state.starter == 1


def test_rolloff_refuses_bad_input() -> None:
    state = Game("yatzy", ["a", "b"]).new_initial_state()
    assert_refused(state, lambda: state.apply_roll([6]), DiceError, "2 dice")
    assert_refused(state, lambda: state.apply_roll([6, 7]), DiceError, "7")
    assert_refused(state, lambda: state.apply_chance(0), DiceError, "0")
    assert_refused(state, lambda: state.apply(Roll()), NotYourTurnError)
    assert_refused(state, lambda: state.apply(Roll(), player=0), NotYourTurnError)


def test_one_player_has_no_rolloff() -> None:
    state = Game("yatzy", ["solo"]).new_initial_state()
    assert state.rolloff == []
    assert state.starter == 0
    assert state.phase is Phase.TURN
    assert state.current_player() == 0
    assert not state.is_chance_node()
    assert state.legal_actions() == [Roll()]


def test_given_starter_skips_the_rolloff() -> None:
    state = Game("yatzy", ["a", "b", "c"]).new_initial_state(starter=2)
    assert state.rolloff == []
    assert state.current_player() == 2
    for bad in (3, -1, True, "1"):
        with pytest.raises(YatzyError, match="starter"):
            Game("yatzy", ["a", "b", "c"]).new_initial_state(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("players", "match"),
    [([], "at least one"), (["a", "A"], "twice"), (["  "], "empty"), (["x" * 41], "40")],
)
def test_bad_players(players: list[str], match: str) -> None:
    with pytest.raises(YatzyError, match=match):
        Game("yatzy", players)


# -- turns and rolls ---------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["yatzy", "yahtzee", "maxi", "dubbel"])
def test_turns_in_seat_order_until_the_end(spec: str) -> None:
    state = new_state(spec, players=3, starter=1)
    rules = state.rules
    seats = []
    while not state.is_terminal():
        seats.append(state.current_player())
        scratch_turn(state)
    assert seats == [(1 + i) % 3 for i in range(3 * rules.turns)]
    assert state.turn_number == 3 * rules.turns
    assert state.current_player() == TERMINAL
    assert all(s.is_full for s in state.sheets)


def test_three_rolls_at_most() -> None:
    state = new_state("yatzy")
    assert state.rolls_left() == 3
    roll(state, FIVE)
    assert state.rolls_left() == 2
    roll(state, [6, 6], keep=[0, 1, 2])
    assert state.rolls_left() == 1
    roll(state, [6], keep=[0, 1, 2, 3])
    assert state.rolls_left() == 0
    assert state.legal_actions() == [
        a for a in state.legal_actions() if isinstance(a, (Score, Scratch))
    ]
    assert_refused(state, lambda: state.apply(Roll((0,))), NoRollsLeftError, "3 used")
    state.apply(Score("chance"))
    assert state.rolls_left() == 3


def test_kept_dice_stay_and_may_be_rerolled_later() -> None:
    state = new_state("yatzy")
    roll(state, [6, 1, 6, 2, 3])
    roll(state, [4, 4, 4], keep=[0, 2])
    assert state.dice == [6, 4, 6, 4, 4]
    # 003: dice kept in the second roll may be thrown again in the third.
    roll(state, [1, 1], keep=[1, 3, 4])
    assert state.dice == [1, 4, 1, 4, 4]


def test_saved_rolls_in_maxi() -> None:
    state = new_state("maxi+saved_rolls", players=2)
    assert state.rolls_left() == 3
    turn(state, SIX, Scratch("ones"))  # seat 0 stops after one roll: 2 saved
    assert state.sheets[0].saved_rolls == 2
    assert state.rolls_left() == 3  # seat 1 has saved nothing
    roll(state, SIX)
    roll(state, [1], keep=[0, 1, 2, 3, 4])
    roll(state, [1], keep=[0, 1, 2, 3, 4])
    state.apply(Scratch("ones"))
    assert state.sheets[1].saved_rolls == 0
    assert state.max_rolls() == 5
    assert state.rolls_left() == 5  # seat 0: 3 plus the 2 saved
    roll(state, SIX)
    for _ in range(3):
        roll(state, [6], keep=[0, 1, 2, 3, 4])
    assert state.rolls_left() == 1
    state.apply(Scratch("twos"))  # used 4 of 5: one left over
    assert state.sheets[0].saved_rolls == 1
    scratch_turn(state)  # seat 1 again
    assert state.rolls_left() == 4
    roll(state, SIX)
    for _ in range(3):
        roll(state, [6], keep=[0, 1, 2, 3, 4])
    assert state.rolls_left() == 0
    assert_refused(state, lambda: state.apply(Roll((0,))), NoRollsLeftError)
    state.apply(Scratch("threes"))
    assert state.sheets[0].saved_rolls == 0


def test_no_saved_rolls_without_the_option() -> None:
    state = new_state("maxi")
    turn(state, SIX, Scratch("ones"))
    assert state.sheets[0].saved_rolls == 0
    assert state.rolls_left() == 3


# -- order rules -------------------------------------------------------------------------


def _fills(state: State) -> set[str]:
    return {a.box for a in state.legal_actions() if isinstance(a, (Score, Scratch))}


@pytest.mark.parametrize("spec", ["yatzy+forced", "yahtzee+forced", "maxi+forced"])
def test_forced_order(spec: str) -> None:
    state = new_state(spec)
    rules = state.rules
    for box in rules.boxes:
        roll(state, SIX[: rules.num_dice])
        assert state.allowed_boxes() == [box]
        assert _fills(state) == {box}
        for other in rules.boxes:
            if other != box and state.sheets[0].is_open(other):
                assert_refused(state, partial(state.apply, Score(other)), OrderError, box)
                assert_refused(state, partial(state.apply, Scratch(other)), OrderError)
        state.apply(Score(box))
    assert state.is_terminal()


@pytest.mark.parametrize("first", ["upper", "lower"])
@pytest.mark.parametrize("spec", ["yatzy+half_forced", "maxi+half_forced", "yahtzee+half_forced"])
def test_half_forced_order(spec: str, first: str) -> None:
    state = new_state(spec)
    rules = state.rules
    dice = SIX[: rules.num_dice]
    roll(state, dice)
    assert state.allowed_boxes() == [rules.upper_boxes[0], rules.lower_boxes[0]]
    assert_refused(state, lambda: state.apply(Score(rules.upper_boxes[1])), OrderError)
    assert_refused(state, lambda: state.apply(Score(rules.lower_boxes[1])), OrderError)
    if first == "upper":
        order = [*rules.upper_boxes, *rules.lower_boxes]
    else:
        order = [*rules.lower_boxes, *rules.upper_boxes]
    state.apply(Score(order[0]))
    assert state.sheets[0].first_section == first
    for box in order[1:]:
        roll(state, dice)
        assert state.allowed_boxes() == [box]
        assert _fills(state) == {box}
        state.apply(Scratch(box))
    assert state.is_terminal()


def _dubbel_dice() -> list[tuple[int, int]]:
    return [(f, 7 - f) for f in SIX]


def test_dubbel_forced_fills_the_next_two_boxes() -> None:
    state = new_state("dubbel+forced")
    rules = state.rules
    boxes = list(rules.boxes)
    while boxes:
        a, b = boxes[:2]
        roll(state, _dubbel_dice())
        assert state.allowed_groups() == [(a, b)]
        legal = [x for x in state.legal_actions() if isinstance(x, Fill2)]
        assert legal and all({f.inner.box, f.outer.box} == {a, b} for f in legal)
        if len(boxes) > 2:
            c = boxes[2]
            assert_refused(state, partial(state.apply, Fill2(Score(a), Score(c))), OrderError)
            assert_refused(state, partial(state.apply, Fill2(Score(c), Score(b))), OrderError)
        # Either box may take the inner result.
        state.apply(Fill2(Score(b), Score(a)) if len(boxes) % 4 else Fill2(Score(a), Score(b)))
        boxes = boxes[2:]
    assert state.is_terminal()


@pytest.mark.parametrize("first", ["upper", "lower"])
def test_dubbel_half_forced(first: str) -> None:
    state = new_state("dubbel+half_forced")
    rules = state.rules
    roll(state, _dubbel_dice())
    assert state.allowed_groups() == [("ones", "twos"), ("one_pair", "two_pairs")]
    assert_refused(state, lambda: state.apply(Fill2(Score("ones"), Score("one_pair"))), OrderError)
    assert_refused(state, lambda: state.apply(Fill2(Score("ones"), Score("threes"))), OrderError)
    if first == "upper":
        order = [*rules.upper_boxes, *rules.lower_boxes, "extra"]
    else:
        order = [*rules.lower_boxes, *rules.upper_boxes, "extra"]
    while not state.is_terminal():
        if state.dice is None:
            roll(state, _dubbel_dice())
        a, b = order[:2]
        assert state.allowed_groups() == (
            [(a, b)]
            if state.sheets[0].first_section
            else [("ones", "twos"), ("one_pair", "two_pairs")]
        )
        state.apply(Fill2(Score(a), Score(b)))
        assert state.sheets[0].first_section == first
        order = order[2:]
    assert order == []


# -- DubbelYatzy -------------------------------------------------------------------------


def test_dubbel_fill2_checks() -> None:
    state = new_state("dubbel")
    outer, inner = [6, 6, 4, 3, 3, 3], [5, 4, 3, 2, 2, 1]
    roll(state, list(zip(outer, inner, strict=True)))
    assert_refused(
        state,
        lambda: state.apply(Fill2(Score("chance", 6), Score("yatzy"))),
        IllegalActionError,
        "6",
    )
    assert_refused(
        state,
        lambda: state.apply(Fill2(Score("chance"), Score("yatzy", 5))),
        IllegalActionError,
        "5",
    )
    assert_refused(
        state,
        lambda: state.apply(Fill2(Score("chance"), Score("chance"))),
        IllegalActionError,
        "two boxes",
    )
    assert_refused(
        state,
        lambda: state.apply(Fill2(Scratch("extra"), Score("chance"))),
        IllegalActionError,
        "extra",
    )
    assert_refused(state, lambda: state.apply(Score("chance")), IllegalActionError, "two boxes")
    assert_refused(state, lambda: state.apply(Scratch("chance")), IllegalActionError)
    assert_refused(
        state, lambda: state.apply(Fill2(Score("villa"), Score("chance"))), UnknownBoxError
    )
    assert_refused(
        state,
        lambda: state.apply(Fill2(Score("chance", True), Score("ones"))),
        IllegalActionError,
    )
    legal = state.legal_actions()
    assert not any(isinstance(a, Fill2) and Scratch("extra") in (a.inner, a.outer) for a in legal)
    assert Fill2(Score("extra", 5), Scratch("chance")) in legal
    # Best drop by default: the minus Extra drops the highest face.
    state.apply(Fill2(Score("extra"), Score("chance")))
    sheet = state.sheets[0]
    extra, chance = sheet.entries["extra"], sheet.entries["chance"]
    assert extra is not None and (extra.points, extra.drop) == (-12, 5)
    assert chance is not None and (chance.points, chance.drop) == (22, 3)
    assert sheet.total == 22
    assert sheet.final == 10
    assert state.totals() == [10]


@pytest.mark.parametrize(
    ("extra", "scratchable", "points"),
    [("minus", False, -15), ("chance", True, 20), ("scratch", True, 0)],
)
def test_dubbel_extra_forms(extra: str, scratchable: bool, points: int) -> None:
    """Inner faces 6-5-4-3-2-1 in Extra: minus drops the 6, chance drops the 1."""
    state = new_state(f"dubbel+extra={extra}")
    roll(state, _dubbel_dice())
    assert state.layer("inner") == (6, 5, 4, 3, 2, 1)
    scratch = Fill2(Scratch("extra"), Scratch("chance"))
    assert (scratch in state.legal_actions()) == scratchable
    if scratchable:
        after = state.clone()
        after.apply(scratch)
        assert after.sheets[0].points("extra") == 0
    else:
        assert_refused(state, partial(state.apply, scratch), IllegalActionError, "scratch")
    state.apply(Fill2(Score("extra"), Scratch("chance")))
    assert state.sheets[0].points("extra") == points
    assert state.sheets[0].total == 0
    assert state.sheets[0].final == points
    assert state.totals() == [points]


@pytest.mark.parametrize(
    "spec",
    ["dubbel", "dubbel+extra=chance", "dubbel+extra=scratch", "dubbel+scoring=international"],
)
def test_dubbel_final_is_total_plus_extra(spec: str) -> None:
    state = new_state(spec)
    rules = state.rules
    boxes = list(rules.boxes)
    assert len(boxes) == 2 * rules.turns
    faces = [(6, 6), (6, 6), (6, 6), (6, 6), (6, 6), (6, 5)]
    while boxes:
        roll(state, faces)
        state.apply(Fill2(Score(boxes[0]), Score(boxes[1])))
        boxes = boxes[2:]
    assert state.is_terminal()
    sheet = state.sheets[0]
    written = {b: sheet.points(b) for b in rules.boxes}
    assert all(v is not None for v in written.values())
    upper = sum(written[b] or 0 for b in rules.upper_boxes)
    bonus = rules.bonus if upper >= rules.threshold else 0
    no_extra = sum(v or 0 for b, v in written.items() if b != "extra")
    assert sheet.total == no_extra + bonus
    assert sheet.final == sheet.total + (written["extra"] or 0)
    assert state.totals() == [sheet.final]
    assert sheet.yatzy_bonus == 0  # DubbelYatzy has no Yatzy bonus, even internationally


# -- bonus and par -----------------------------------------------------------------------


def _upper_game(spec: str, counts: dict[str, int]) -> State:
    """A one-player game whose upper boxes get ``counts`` dice of their face each."""
    state = new_state(spec)
    n = state.rules.num_dice
    for face, box in enumerate(state.rules.upper_boxes, start=1):
        k = counts[box]
        other = 1 if face != 1 else 2
        turn(state, [face] * k + [other] * (n - k), Score(box))
    return state


def test_bonus_at_the_threshold_and_par() -> None:
    three = dict.fromkeys(("ones", "twos", "threes", "fours", "fives", "sixes"), 3)
    state = _upper_game("yatzy", three)
    sheet = state.sheets[0]
    assert sheet.upper_sum == 63
    assert sheet.bonus == 50
    assert sheet.bonus_par == 0
    assert sheet.total == 113

    short = _upper_game("yatzy", {**three, "ones": 2})
    assert short.sheets[0].upper_sum == 62
    assert short.sheets[0].bonus == 0
    assert short.sheets[0].bonus_par == -1

    plus = _upper_game("yatzy", {**three, "fours": 4, "ones": 1})
    assert plus.sheets[0].bonus_par == 4 - 2
    assert plus.sheets[0].bonus == 50


def test_par_as_the_boxes_fill() -> None:
    state = new_state("yatzy")
    turn(state, [4, 4, 4, 4, 1], Score("fours"))
    assert state.sheets[0].bonus_par == 4
    turn(state, [6, 6, 1, 2, 3], Score("sixes"))
    assert state.sheets[0].bonus_par == 4 - 6
    turn(state, [1, 2, 3, 4, 5], Scratch("twos"))
    assert state.sheets[0].bonus_par == 4 - 6 - 6
    assert state.sheets[0].bonus == 0


def _upper_boxes_filled(spec: str, counts: dict[str, int]) -> State:
    """A one-player game that writes ``counts`` dice of each box's face in the upper
    boxes named (0: scratched), leaving the others open."""
    state = new_state(spec)
    n = state.rules.num_dice
    faces = {b: f for f, b in enumerate(state.rules.upper_boxes, start=1)}
    for box, k in counts.items():
        face = faces[box]
        other = 1 if face != 1 else 2
        turn(state, [face] * k + [other] * (n - k), Score(box) if k else Scratch(box))
    return state


ALL_THREE = {b: 3 for b in ("ones", "twos", "threes", "fours", "fives", "sixes")}


@pytest.mark.parametrize(
    ("spec", "counts", "par"),
    [
        # threshold 63: three of each face
        ("yatzy", {"fours": 4}, +4),  # 000: "four fours put you at +4"
        ("yatzy", {"ones": 3}, 0),
        ("yatzy", {"sixes": 2, "fives": 4}, 12 + 20 - 33),
        ("yatzy", ALL_THREE, 0),
        ("yatzy", {**ALL_THREE, "ones": 2}, -1),  # full: 62 - 63
        ("yahtzee", {"sixes": 4, "ones": 0}, 24 - 21),
        ("yatzy+bonus_threshold=84", {"fours": 5}, 20 - 16),
        # Maxi's 75: 75/21 a face
        ("maxi", {"ones": 3}, 3 - 4),  # 75/21 = 3.571 -> 4
        ("maxi", {"twos": 3}, 6 - 7),  # 150/21 = 7.143 -> 7
        ("maxi", {"sixes": 4}, 24 - 21),  # 450/21 = 21.43 -> 21
        ("maxi", {"fours": 4, "fives": 4}, 36 - 32),  # 675/21 = 32.14 -> 32
        (
            "maxi",
            {"ones": 4, "twos": 3, "threes": 4, "fours": 3, "fives": 4, "sixes": 4},
            +3,  # full at 78: 78 - 75
        ),
        ("maxi", {**ALL_THREE, "sixes": 4}, 69 - 75),  # full below the threshold
        # 84 (000's Maxi reading): four of each face
        ("maxi+bonus_threshold=84+bonus_points=100", {"fours": 4}, 0),
        ("maxi+bonus_threshold=84+bonus_points=100", {"sixes": 5, "ones": 2}, 32 - 28),
        ("maxi+bonus_threshold=84", {b: 4 for b in ALL_THREE}, 0),
        # a custom threshold, with the rounding at its edges
        ("yatzy+bonus_threshold=70", {"ones": 3}, 3 - 3),  # 70/21 = 3.33 -> 3
        ("yatzy+bonus_threshold=70", {"fives": 5}, 25 - 17),  # 350/21 = 16.67 -> 17
        ("yatzy+bonus_threshold=70", {"threes": 3, "fours": 2}, 17 - 23),  # 23.33 -> 23
        ("yatzy+bonus_threshold=11", {"ones": 0}, -1),  # 11/21 = 0.524 -> 1 (up)
        ("yatzy+bonus_threshold=10", {"ones": 0}, 0),  # 10/21 = 0.476 -> 0 (down)
        ("yatzy+bonus_threshold=0", {"twos": 1}, 2),
    ],
)
def test_bonus_par_keeps_the_pace_of_the_threshold(
    spec: str, counts: dict[str, int], par: int
) -> None:
    sheet = _upper_boxes_filled(spec, counts).sheets[0]
    assert sheet.bonus_par == par
    assert sheet.rows().bonus_par == par
    if len(counts) == 6:  # a full upper section: par >= 0 exactly when the bonus is won
        assert (sheet.bonus_par >= 0) == (sheet.bonus > 0)


def test_bonus_pace_rounds_halves_up_and_matches_exact_arithmetic() -> None:
    # Every whole threshold and face sum against decimal ROUND_HALF_UP.  (A pace of
    # exactly n + 1/2 cannot occur: the fraction is a multiple of 1/21.)
    from decimal import ROUND_HALF_UP, Decimal

    from yatzy.rules.scoring import bonus_pace

    for threshold in range(0, 127):
        for faces in range(0, 22):
            exact = Decimal(threshold * faces) / Decimal(21)
            want = int(exact.quantize(Decimal(1), rounding=ROUND_HALF_UP))
            assert bonus_pace(threshold, faces) == want, (threshold, faces)


def test_custom_threshold_and_points() -> None:
    counts = dict.fromkeys(("ones", "twos", "threes", "fours", "fives", "sixes"), 4)
    state = _upper_game("maxi+bonus_threshold=84+bonus_points=100", counts)
    assert state.sheets[0].upper_sum == 84
    assert state.sheets[0].bonus == 100
    state = _upper_game("maxi", {**counts, "ones": 3, "twos": 3, "threes": 3})
    assert state.sheets[0].upper_sum == 78
    assert state.sheets[0].bonus == 50
    state = _upper_game("maxi+bonus_threshold=84+bonus_points=100", {**counts, "ones": 3})
    assert state.sheets[0].bonus == 0


def test_yahtzee_bonus_is_35() -> None:
    three = dict.fromkeys(("ones", "twos", "threes", "fours", "fives", "sixes"), 3)
    assert _upper_game("yahtzee", three).sheets[0].bonus == 35


# -- winners -----------------------------------------------------------------------------


def test_shared_and_single_wins() -> None:
    state = new_state("yatzy", players=3)
    assert state.winners() == []
    for _ in range(state.rules.turns):
        turn(state, [6, 6, 6, 6, 6], Scratch(state.sheet.open_boxes[0]))  # seat 0: all 0
        for _seat in (1, 2):
            box = state.sheet.open_boxes[-1]  # yatzy first, then the rest
            turn(state, [6, 6, 6, 6, 6], Score(box))
    assert state.is_terminal()
    t = state.totals()
    assert t[0] == 0 and t[1] == t[2] > 0
    assert state.winners() == [1, 2]

    single = new_state("yatzy", players=2)
    for _ in range(single.rules.turns):
        turn(single, [1, 1, 1, 1, 2], Score(single.sheet.open_boxes[0]))
        turn(single, [1, 1, 1, 1, 1], Score(single.sheet.open_boxes[0]))
    assert single.winners() == [1]
    assert single.totals()[1] > single.totals()[0]


# -- chance ------------------------------------------------------------------------------


def test_chance_outcomes_are_exact() -> None:
    state = new_state("yatzy")
    state.apply(Roll())
    outcomes = state.chance_outcomes()
    assert [o for o, _ in outcomes] == [1, 2, 3, 4, 5, 6]
    assert all(p == Fraction(1, 6) for _, p in outcomes)
    assert sum(p for _, p in outcomes) == 1
    assert isinstance(sum(p for _, p in outcomes), Fraction)
    for face in [1, 2, 3, 4, 5]:
        assert state.current_player() == CHANCE
        state.apply_chance(face)
    assert state.current_player() == 0
    assert_refused(state, lambda: state.chance_outcomes(), IllegalActionError)


def test_double_dice_outcomes_are_36_pairs() -> None:
    state = new_state("dubbel")
    state.apply(Roll())
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 36
    assert len({o for o, _ in outcomes}) == 36
    assert {o for o, _ in outcomes} == {(a, b) for a in range(1, 7) for b in range(1, 7)}
    assert all(p == Fraction(1, 36) for _, p in outcomes)
    assert sum(p for _, p in outcomes) == 1
    assert_refused(state, lambda: state.apply_chance(3), DiceError, "pair")
    assert_refused(state, lambda: state.apply_chance((3, 7)), DiceError)
    state.apply_chance((3, 4))
    assert state.dice is not None and state.dice[0] == (3, 4)


# -- illegal actions ---------------------------------------------------------------------


def test_illegal_actions_change_nothing() -> None:
    state = new_state("yatzy+forced", players=2)
    # Scoring before rolling.
    assert_refused(state, lambda: state.apply(Score("ones")), IllegalActionError, "roll")
    assert_refused(state, lambda: state.apply(Scratch("ones")), IllegalActionError, "roll")
    # Keeping dice before any are on the table.
    assert_refused(state, lambda: state.apply(Roll((0,))), KeepError, r"\[0\]")
    # Acting for the other seat.
    assert_refused(state, lambda: state.apply(Roll(), player=1), NotYourTurnError, "p0")
    state.apply(Roll())
    # Acting while chance is to act (the dice are rolling).
    assert_refused(state, lambda: state.apply(Score("ones")), NotYourTurnError, "rolling")
    assert_refused(state, lambda: state.apply(Roll()), NotYourTurnError)
    assert_refused(state, lambda: state.apply_roll([1, 2, 3]), DiceError, "5 dice")
    assert_refused(state, lambda: state.apply_roll([1, 2, 3, 4, 9]), DiceError, "9")
    assert_refused(state, lambda: state.apply_chance(True), DiceError, "True")
    state.apply_roll([2, 2, 3, 4, 5])
    assert_refused(state, lambda: state.apply_chance(3), IllegalActionError, "no die")
    assert_refused(state, lambda: state.apply_roll([3]), IllegalActionError)
    # Keeping positions not on the table.
    bad_keeps: list[tuple[Any, str]] = [
        ((5,), "position 5"),
        ((-1,), "position -1"),
        ((0, 0), "twice"),
        ((0, 1, 2, 3, 4), "nothing to roll"),
        (("0",), "positions"),
        ((True,), "positions"),
        ([0, 1], "positions"),
    ]
    for keep, match in bad_keeps:
        assert_refused(state, partial(state.apply, Roll(keep)), KeepError, match)
    # Out of turn after the roll.
    assert_refused(state, lambda: state.apply(Score("ones"), player=1), NotYourTurnError)
    # A box the forced order does not allow.
    assert_refused(state, lambda: state.apply(Score("chance")), OrderError, "allowed: ones")
    # Boxes of other variants and nonsense.
    for box in ("villa", "maxi_yatzy", "extra", "three_pairs", "bogus", ""):
        assert_refused(state, partial(state.apply, Score(box)), UnknownBoxError, repr(box))
        assert_refused(state, partial(state.apply, Scratch(box)), UnknownBoxError)
    assert_refused(state, lambda: state.apply(Score(3)), IllegalActionError)  # type: ignore[arg-type]
    assert_refused(state, lambda: state.apply(Score("ones", 2)), IllegalActionError, "drops")
    assert_refused(
        state, lambda: state.apply(Fill2(Score("ones"), Score("twos"))), IllegalActionError
    )
    assert_refused(state, lambda: state.apply("ones"), IllegalActionError)  # type: ignore[arg-type]
    state.apply(Score("ones"))
    # Scoring a filled box (seat 1 fills ones, then seat 0 tries it again).
    turn(state, FIVE, Score("ones"))
    roll(state, FIVE)
    assert_refused(state, lambda: state.apply(Score("ones")), BoxFilledError, "ones")
    assert_refused(state, lambda: state.apply(Scratch("ones")), BoxFilledError)
    state.apply(Score("twos"))
    # After the game is over.
    while not state.is_terminal():
        scratch_turn(state)
    assert state.legal_actions() == []
    assert_refused(state, lambda: state.apply(Roll()), GameOverError, "over")
    assert_refused(state, lambda: state.apply(Score("chance")), GameOverError)
    assert_refused(state, lambda: state.apply(Roll(), player=0), GameOverError)
    assert_refused(state, lambda: state.apply_chance(3), IllegalActionError)
    assert_refused(state, lambda: state.apply_roll([3]), IllegalActionError)


def test_scratch_is_always_allowed_but_not_twice() -> None:
    state = new_state("yatzy")
    roll(state, [6, 6, 6, 6, 6])
    state.apply(Scratch("yatzy"))
    entry = state.sheets[0].entries["yatzy"]
    assert entry is not None and entry.points == 0 and entry.scratched
    roll(state, [6, 6, 6, 6, 6])
    assert_refused(state, lambda: state.apply(Score("yatzy")), BoxFilledError)


def test_errors_are_value_errors_quoting_the_input() -> None:
    state = new_state("yatzy")
    roll(state, FIVE)
    with pytest.raises(ValueError, match="'villa'"):
        state.apply(Score("villa"))


def test_clone_is_independent() -> None:
    state = new_state("yatzy", players=2)
    roll(state, FIVE)
    copy = state.clone()
    assert copy == state
    copy.apply(Score("chance"))
    assert copy != state
    assert state.sheets[0].is_open("chance")
    assert state.current_player() == 0


# -- the joker (yahtzee) -----------------------------------------------------------------


def _yahtzee(spec: str, yatzy_points: int) -> State:
    """A one-player yahtzee game whose first turn filled the yatzy box (50 or 0)."""
    state = new_state(spec)
    if yatzy_points == 50:
        turn(state, [2, 2, 2, 2, 2], Score("yatzy"))
    else:
        turn(state, [2, 2, 2, 2, 3], Score("yatzy"))
    assert state.sheets[0].points("yatzy") == yatzy_points
    assert state.sheets[0].yatzy_bonuses == 0  # the first Yatzy earns no bonus
    return state


def test_forced_joker_takes_the_matching_upper_box() -> None:
    state = _yahtzee("yahtzee", 50)
    roll(state, [4] * 5)
    assert state.allowed_boxes() == ["fours"]
    assert _fills(state) == {"fours"}
    for box in ("chance", "full_house", "large_straight", "ones"):
        assert_refused(state, partial(state.apply, Score(box)), OrderError, "fours")
    state.apply(Score("fours"))
    sheet = state.sheets[0]
    assert sheet.points("fours") == 20
    assert sheet.yatzy_bonuses == 1
    assert sheet.yatzy_bonus == 100
    assert sheet.total == 50 + 20 + 100
    assert state.log[-1]["yatzy_bonus"] == 100


def test_forced_joker_then_a_lower_box_with_full_points() -> None:
    state = _yahtzee("yahtzee", 50)
    turn(state, [4, 4, 1, 2, 3], Score("fours"))  # fours filled with 8
    roll(state, [4] * 5)
    lower = [
        "three_of_a_kind",
        "four_of_a_kind",
        "full_house",
        "small_straight",
        "large_straight",
        "chance",
    ]
    assert state.allowed_boxes() == lower
    assert state.preview() == {
        "ones": 0,
        "twos": 0,
        "threes": 0,
        "fives": 0,
        "sixes": 0,
        "three_of_a_kind": 20,
        "four_of_a_kind": 20,
        "full_house": 25,
        "small_straight": 30,
        "large_straight": 40,
        "chance": 20,
    }
    assert_refused(state, lambda: state.apply(Score("ones")), OrderError)
    for box, points in [
        ("full_house", 25),
        ("small_straight", 30),
        ("large_straight", 40),
        ("three_of_a_kind", 20),
        ("chance", 20),
    ]:
        after = state.clone()
        after.apply(Score(box))
        assert after.sheets[0].points(box) == points
        assert after.sheets[0].yatzy_bonuses == 1
    state.apply(Scratch("large_straight"))
    assert state.sheets[0].points("large_straight") == 0
    assert state.sheets[0].yatzy_bonuses == 1  # the bonus is for the Yatzy itself


def test_forced_joker_else_zero_in_an_upper_box() -> None:
    state = _yahtzee("yahtzee", 50)
    turn(state, [4, 4, 1, 2, 3], Score("fours"))
    for box in (
        "three_of_a_kind",
        "four_of_a_kind",
        "full_house",
        "small_straight",
        "large_straight",
        "chance",
    ):
        turn(state, [1, 2, 3, 5, 6], Scratch(box))
    roll(state, [4] * 5)
    assert state.allowed_boxes() == ["ones", "twos", "threes", "fives", "sixes"]
    state.apply(Score("sixes"))
    assert state.sheets[0].points("sixes") == 0
    assert state.sheets[0].yatzy_bonuses == 1


def test_free_joker() -> None:
    state = _yahtzee("yahtzee+joker=free", 50)
    roll(state, [4] * 5)
    # Any open box, but the joker's points only once the matching upper box is filled.
    assert state.allowed_boxes() == state.sheets[0].open_boxes
    preview = state.preview()
    assert isinstance(preview, dict)
    assert (preview["full_house"], preview["small_straight"], preview["large_straight"]) == (
        0,
        0,
        0,
    )
    assert preview["fours"] == 20 and preview["ones"] == 0
    after = state.clone()
    after.apply(Score("full_house"))
    assert after.sheets[0].points("full_house") == 0
    assert after.sheets[0].yatzy_bonuses == 1
    state.apply(Score("fours"))
    roll(state, [4] * 5)
    for box, points in [
        ("full_house", 25),
        ("small_straight", 30),
        ("large_straight", 40),
        ("ones", 0),
        ("chance", 20),
    ]:
        after = state.clone()
        after.apply(Score(box))
        assert after.sheets[0].points(box) == points
        assert after.sheets[0].yatzy_bonuses == 2
        assert after.sheets[0].yatzy_bonus == 200


def test_joker_none() -> None:
    state = _yahtzee("yahtzee+joker=none", 50)
    turn(state, [4, 4, 1, 2, 3], Score("fours"))
    roll(state, [4] * 5)
    assert state.allowed_boxes() == state.sheets[0].open_boxes
    preview = state.preview()
    assert isinstance(preview, dict)
    assert (preview["full_house"], preview["small_straight"], preview["large_straight"]) == (
        0,
        0,
        0,
    )
    state.apply(Score("large_straight"))
    sheet = state.sheets[0]
    assert sheet.points("large_straight") == 0
    assert sheet.yatzy_bonuses == 0
    assert "yatzy_bonus" not in state.log[-1]


@pytest.mark.parametrize("joker", ["forced", "free"])
def test_joker_with_the_yatzy_box_scratched(joker: str) -> None:
    """A zero in the yatzy box: the joker still applies but no bonus is paid."""
    state = _yahtzee(f"yahtzee+joker={joker}", 0)
    roll(state, [5] * 5)
    if joker == "forced":
        assert state.allowed_boxes() == ["fives"]
    state.apply(Score("fives"))
    assert state.sheets[0].yatzy_bonuses == 0
    roll(state, [5] * 5)
    if joker == "forced":
        assert "fives" not in state.allowed_boxes()
        assert "ones" not in state.allowed_boxes()
    state.apply(Score("small_straight"))
    assert state.sheets[0].points("small_straight") == 30
    assert state.sheets[0].yatzy_bonuses == 0
    assert state.sheets[0].total == 25 + 30


def test_no_bonus_for_the_first_yatzy_and_none_outside_yahtzee() -> None:
    state = new_state("yatzy")
    turn(state, [3] * 5, Score("yatzy"))
    turn(state, [3] * 5, Score("threes"))
    assert state.sheets[0].yatzy_bonuses == 0
    assert state.sheets[0].total == 50 + 15
    state = new_state("dubbel+scoring=international")
    roll(state, [(3, 3)] * 6)
    state.apply(Fill2(Score("yatzy"), Score("chance")))
    roll(state, [(3, 3)] * 6)
    state.apply(Fill2(Score("threes"), Score("full_house")))
    sheet = state.sheets[0]
    assert sheet.yatzy_bonuses == 0
    assert sheet.points("full_house") == 0  # no joker


@pytest.mark.parametrize("players", [1, 2, 5])
def test_no_current_sheet_at_the_rolloff_or_after_the_game(players: int) -> None:
    """The turn-bound queries refuse clearly when no seat has the turn."""
    state = Game("yatzy+forced", [f"p{i}" for i in range(players)]).new_initial_state()
    states = [state.clone()] if players > 1 else []
    if players > 1:
        state.apply_roll(list(range(1, players + 1)))
    while not state.is_terminal():
        scratch_turn(state)
    states.append(state)
    for s in states:
        assert s.current_player() in (CHANCE, TERMINAL)
        assert s.legal_actions() == []
        assert s.rolls_left() == 0
        for query in (s.allowed_boxes, s.preview, s.allowed_groups, lambda s=s: s.sheet):
            assert_refused(s, query, IllegalActionError, "no player has the turn")


# -- undo ---------------------------------------------------------------------------------


def test_undo_gives_the_turn_back_with_the_same_dice_and_rolls() -> None:
    state = new_state("yatzy", players=2)
    roll(state, [3, 3, 3, 6, 6])
    roll(state, [4, 5], keep=[0, 1, 2])
    before = state.clone()
    state.apply(Score("chance"))
    assert state.player == 1 and state.undo_seat() == 0 and state.undo_boxes() == ("chance",)
    assert_refused(state, lambda: state.apply(Undo(), player=1), NotYourTurnError, "only p0")
    state.apply(Undo(), player=0)
    assert state.player == 0 and state.dice == [3, 3, 3, 4, 5] and state.rolls_left() == 1
    assert state.sheets[0] == before.sheets[0] and state.turn_number == before.turn_number
    assert state.log[-1]["undone"] == [{"box": "chance", "points": 18, "after_rolls": 2}]
    assert state.undo_seat() is None
    assert_refused(state, lambda: state.apply(Undo()), IllegalActionError, "nothing to undo")
    roll(state, [6, 6], keep=[0, 1, 2])  # the rolls left stay the player's
    state.apply(Score("full_house"))
    again = from_record(json.loads(json.dumps(to_record(state))))
    assert again == state and again.undo_seat() == 0


def test_undo_ends_with_the_next_roll() -> None:
    state = new_state("yatzy", players=2)
    turn(state, [1, 2, 3, 4, 5], Score("small_straight"))
    state.apply(Roll())
    assert state.undo_seat() is None
    assert_refused(state, lambda: state.apply(Undo(), player=0), IllegalActionError, "nothing")


@pytest.mark.parametrize("spec", ["yatzy", "dubbel", "maxi+saved_rolls"])
def test_the_games_last_write_can_be_undone_and_the_game_goes_on(spec: str) -> None:
    # Two players: the last write of all is the second player's; the first player's
    # last write does not end the game.
    state = new_state(spec, players=2)
    per_turn = 2 if state.rules.double else 1
    turns = len(state.rules.boxes) // per_turn
    for _ in range(2 * turns - 1):
        assert not state.write_ends_game()
        state.apply(Roll())
        state.roll(random.Random(7))
        state.apply(next(a for a in state.legal_actions() if not isinstance(a, Roll)))
        assert not state.is_terminal()
    assert state.player == 1
    state.apply(Roll())
    state.roll(random.Random(8))
    assert state.write_ends_game()
    before = state.clone()
    write = next(a for a in state.legal_actions() if not isinstance(a, Roll))
    state.apply(write)
    assert state.is_terminal() and state.winners() and state.undo_seat() == 1
    assert_refused(state, lambda: state.apply(Undo(), player=0), NotYourTurnError, "only")
    state.apply(Undo(), player=1)
    assert not state.is_terminal() and state.player == 1 and state.dice == before.dice
    assert state.sheets == before.sheets and state.winners() == []
    assert state.undo_seat() is None and state.write_ends_game()
    state.apply(write)  # written again: the record replays the undone write too
    again = from_record(json.loads(json.dumps(to_record(state))))
    assert again == state and again.is_terminal()
    assert again.log[-1]["undone"][0]["after_rolls"] == 1


def test_a_game_never_written_in_has_nothing_to_undo() -> None:
    state = new_state("yatzy")
    assert_refused(state, lambda: state.apply(Undo()), IllegalActionError, "nothing to undo")


def test_undo_of_dubbel_pair_and_a_score_pad_write_replays() -> None:
    state = new_state("dubbel")
    roll(state, [(6, 5), (6, 4), (4, 3), (3, 2), (3, 2), (3, 1)])
    state.apply(Fill2(Score("small_straight"), Score("full_house")))
    assert state.undo_boxes() == ("small_straight", "full_house")
    state.apply(Undo())
    assert state.sheets[0].open_boxes == list(state.rules.boxes)
    state.apply(Fill2(Score("chance"), Score("full_house")))
    assert from_record(json.loads(json.dumps(to_record(state)))) == state

    pad = Game("yatzy", ["A", "B"], pad=True).new_initial_state(0)
    pad.apply(SetDice((6, 6, 6, 2, 2)))
    pad.apply(Score("full_house"))
    pad.apply(Undo(), player=0)
    pad.apply(SetDice((1, 2, 3, 4, 5)))
    pad.apply(Score("small_straight"))
    pad.apply(Write("chance", 20))  # B writes only points
    pad.apply(Undo(), player=1)
    pad.apply(Write("chance", 21))
    again = from_record(json.loads(json.dumps(to_record(pad))))
    assert again == pad
    assert pad.sheets[0].points("small_straight") == 15 and pad.sheets[1].points("chance") == 21


def test_undo_is_json_and_never_a_legal_action_for_bots() -> None:
    assert action_to_json(Undo()) == {"undo": True}
    assert action_from_json({"undo": True}) == Undo()
    with pytest.raises(IllegalActionError):
        action_from_json({"undo": False})
    state = new_state("yatzy")
    turn(state, [1, 2, 3, 4, 5], Score("chance"))
    assert state.undo_seat() == 0
    assert not any(isinstance(a, Undo) for a in state.legal_actions())


def test_roll_without_a_die_to_roll_is_refused() -> None:
    """``State.roll()`` where no die is being rolled raises, quoting the state, and
    changes nothing (it once did nothing, which hid a missing ``Roll``)."""
    import random

    state = new_state("yatzy", players=2)  # p0 to act, before the first roll
    error = assert_refused(state, lambda: state.roll(random.Random(1)), IllegalActionError)
    assert "apply Roll(...) first" in str(error) and str(state) in str(error)
    roll(state, [1, 2, 3, 4, 5])  # the dice are out: a player acts again
    assert_refused(state, state.roll, IllegalActionError, match="no die is being rolled")
    state.apply(Roll((0, 1)))  # now chance acts, and roll() throws the three others
    state.roll(random.Random(1))
    assert state.dice is not None and state.dice[:2] == [1, 2] and not state.pending
    pad = Game("yatzy", ["A"], pad=True).new_initial_state()
    assert_refused(pad, pad.roll, IllegalActionError, match="score pad.*SetDice")
    over = new_state("yatzy")
    for box in over.rules.boxes:
        turn(over, [1, 2, 3, 4, 6], Scratch(box))
    assert over.is_terminal()
    error = assert_refused(over, over.roll, GameOverError)
    assert str(over) in str(error)
