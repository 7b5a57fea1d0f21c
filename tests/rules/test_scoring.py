"""Scoring: tables per variant, an independent reference scorer, score tables, counting.

The tables give the expected points of a roll in every box of a rule set, in
protocol order, so each row checks hits and misses of every category at once.  A
slow reference scorer written from RULES.md (it searches the dice themselves, not
face counts) cross-checks every box of every distinct roll of every scoring rule
set, through ``RuleSet.score``, ``rules.scorers`` and the score tables alike.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import combinations
from math import factorial, prod

import pytest

from tests.conftest import ALL_RULE_SETS
from yatzy.errors import DiceError, UnknownBoxError
from yatzy.rules import CATEGORIES, RuleSet, all_rolls, score_table
from yatzy.rules import scoring as sc

# -- expected tables --------------------------------------------------------------------
#
# A row is "dice: points in protocol order".  Overrides give the rows that change
# under an option.

YATZY_STRICT = """
12345: 1 2 3 4 5 0   0  0  0  0 15  0  0 15  0
23456: 0 2 3 4 5 6   0  0  0  0  0 20  0 20  0
33446: 0 0 6 8 0 6   8 14  0  0  0  0  0 20  0
55662: 0 2 0 0 10 12 12 22  0  0  0  0  0 24  0
33344: 0 0 9 8 0 0   8 14  9  0  0  0 17 17  0
44442: 0 2 0 16 0 0  8  0 12 16  0  0  0 18  0
66666: 0 0 0 0 0 30 12  0 18 24  0  0  0 30 50
11111: 5 0 0 0 0 0   2  0  3  4  0  0  0  5 50
66622: 0 4 0 0 0 18 12 16 18  0  0  0 22 22  0
66624: 0 2 0 4 0 18 12  0 18  0  0  0  0 24  0
11222: 2 6 0 0 0 0   4  6  6  0  0  0  8  8  0
12346: 1 2 3 4 0 6   0  0  0  0  0  0  0 16  0
13456: 1 0 3 4 5 6   0  0  0  0  0  0  0 19  0
22345: 0 4 3 4 5 0   4  0  0  0  0  0  0 16  0
55551: 1 0 0 0 20 0 10  0 15 20  0  0  0 21  0
61524: 1 2 0 4 5 6   0  0  0  0  0  0  0 18  0
54321: 1 2 3 4 5 0   0  0  0  0 15  0  0 15  0
"""
YATZY_LENIENT = {
    "44442": {"two_pairs": 16},
    "66666": {"two_pairs": 24, "full_house": 30},
    "11111": {"two_pairs": 4, "full_house": 5},
    "55551": {"two_pairs": 20},
}
YATZY_PIP = {"66666": {"yatzy": 80}, "11111": {"yatzy": 55}}

YAHTZEE = """
12345: 1 2 3 4 5 0   0  0  0 30 40  0 15
23456: 0 2 3 4 5 6   0  0  0 30 40  0 20
12346: 1 2 3 4 0 6   0  0  0 30  0  0 16
13456: 1 0 3 4 5 6   0  0  0 30  0  0 19
23455: 0 2 3 4 10 0  0  0  0 30  0  0 19
12356: 1 2 3 0 5 6   0  0  0  0  0  0 17
11234: 2 2 3 4 0 0   0  0  0 30  0  0 11
55524: 0 2 0 4 15 0 21  0  0  0  0  0 21
11113: 4 0 3 0 0 0   7  7  0  0  0  0  7
22233: 0 6 6 0 0 0  12  0 25  0  0  0 12
23566: 0 2 3 0 5 12  0  0  0  0  0  0 22
66666: 0 0 0 0 0 30 30 30  0  0  0 50 30
22334: 0 4 6 4 0 0   0  0  0  0  0  0 14
33334: 0 0 12 4 0 0 16 16  0  0  0  0 16
12456: 1 2 0 4 5 6   0  0  0  0  0  0 18
"""

MAXI_STRICT = """
123456: 1 2 3 4 5 6    0  0  0   0  0  0  15 20 21   0  0  0  21   0
123455: 1 2 3 4 10 0  10  0  0   0  0  0  15  0  0   0  0  0  20   0
112345: 2 2 3 4 5 0    2  0  0   0  0  0  15  0  0   0  0  0  16   0
234566: 0 2 3 4 5 12  12  0  0   0  0  0   0 20  0   0  0  0  26   0
112233: 2 4 6 0 0 0    6 10 12   0  0  0   0  0  0   0  0  0  12   0
224466: 0 4 0 8 0 12  12 20 24   0  0  0   0  0  0   0  0  0  24   0
556666: 0 0 0 0 10 24 12 22  0  18 24  0   0  0  0  28  0 34  34   0
333444: 0 0 9 12 0 0   8 14  0  12  0  0   0  0  0  18 21  0  21   0
222226: 0 10 0 0 0 6   4  0  0   6  8 10   0  0  0   0  0  0  16   0
555555: 0 0 0 0 30 0  10  0  0  15 20 25   0  0  0   0  0  0  30 100
111166: 4 0 0 0 0 12  12 14  0   3  4  0   0  0  0  15  0 16  16   0
666551: 1 0 0 0 10 18 12 22  0  18  0  0   0  0  0  28  0  0  29   0
"""
MAXI_LENIENT = {
    "556666": {"two_pairs": 24, "three_pairs": 34},
    "222226": {"two_pairs": 8, "full_house": 10},
    "555555": {
        "two_pairs": 20,
        "three_pairs": 30,
        "full_house": 25,
        "villa": 30,
        "tower": 30,
    },
    "111166": {"three_pairs": 16},
}

# DubbelYatzy: one layer's six faces, each box its best over the face dropped.
DUBBEL_STRICT = """
664333: 0 0 9 4 0 12  12 18  9  0  0  0 21 22  0 -19
543221: 1 4 3 4 5 0    4  0  0  0 15  0  0 16  0 -12
444421: 1 2 0 16 0 0   8  0 12 16  0  0  0 18  0 -15
555551: 1 0 0 0 25 0  10  0 15 20  0  0  0 25 50 -21
123456: 1 2 3 4 5 6    0  0  0  0 15 20  0 20  0 -15
666666: 0 0 0 0 0 30  12  0 18 24  0  0  0 30 50 -30
"""
DUBBEL_LENIENT = {
    "444421": {"two_pairs": 16},
    "555551": {"two_pairs": 20, "full_house": 25},
    "666666": {"two_pairs": 24, "full_house": 30},
}
# yatzy_pip_bonus: the result in Yatzy adds its five faces (the dropped one not counted).
DUBBEL_PIP = {"555551": {"yatzy": 75}, "666666": {"yatzy": 80}}
DUBBEL_INTERNATIONAL_PIP = {"333331": {"yatzy": 65}}
DUBBEL_INTERNATIONAL = """
123456: 1 2 3 4 5 6    0  0  0 30 40  0 20 -15
664333: 0 0 9 4 0 12  21  0 25  0  0  0 22 -19
333331: 1 0 15 0 0 0  15 15  0  0  0 50 15 -13
112346: 2 2 3 4 0 6    0  0  0 30  0  0 16 -11
222336: 0 6 6 0 0 6   15  0 25  0  0  0 16 -12
665544: 0 0 0 8 10 12  0  0  0  0  0  0 26 -24
"""


def _rows(
    rules: RuleSet, text: str, overrides: dict[str, dict[str, int]] | None = None
) -> list[tuple[list[int], dict[str, int]]]:
    rows = []
    seen = set()
    for line in text.strip().splitlines():
        dice_s, _, points_s = line.partition(":")
        dice = [int(c) for c in dice_s.strip()]
        points = [int(p) for p in points_s.split()]
        assert len(points) == len(rules.boxes), line
        expected = dict(zip(rules.boxes, points, strict=True))
        expected.update((overrides or {}).get(dice_s.strip(), {}))
        rows.append((dice, expected))
        seen.add(dice_s.strip())
    assert set(overrides or {}) <= seen, "an override names a roll the table lacks"
    return rows


def _extra(
    rows: list[tuple[list[int], dict[str, int]]], extra: str
) -> list[tuple[list[int], dict[str, int]]]:
    """The rows with Extra scored as ``chance`` or ``scratch`` instead of ``minus``."""
    out = []
    for dice, expected in rows:
        changed = dict(expected)
        changed["extra"] = expected["chance"] if extra == "chance" else 0
        out.append((dice, changed))
    return out


def _merge(*overrides: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for o in overrides:
        for k, v in o.items():
            out.setdefault(k, {}).update(v)
    return out


def _cases() -> list[tuple[str, list[int], dict[str, int]]]:
    cases: list[tuple[str, list[int], dict[str, int]]] = []

    def add(spec: str, rows: list[tuple[list[int], dict[str, int]]]) -> None:
        cases.extend((spec, dice, expected) for dice, expected in rows)

    y = RuleSet("yatzy")
    add("yatzy", _rows(y, YATZY_STRICT))
    add("yatzy+lenient", _rows(y, YATZY_STRICT, YATZY_LENIENT))
    add("yatzy+yatzy_pip_bonus", _rows(y, YATZY_STRICT, YATZY_PIP))
    add("yatzy+lenient+yatzy_pip_bonus", _rows(y, YATZY_STRICT, _merge(YATZY_LENIENT, YATZY_PIP)))
    for spec in ("yahtzee", "yahtzee+joker=free", "yahtzee+joker=none"):
        add(spec, _rows(RuleSet.parse(spec), YAHTZEE))
    m = RuleSet("maxi")
    add("maxi", _rows(m, MAXI_STRICT))
    add("maxi+lenient", _rows(m, MAXI_STRICT, MAXI_LENIENT))
    add("maxi+lenient+saved_rolls", _rows(m, MAXI_STRICT, MAXI_LENIENT))
    d = RuleSet("dubbel")
    di = RuleSet("dubbel", scoring="international")
    for extra in ("minus", "chance", "scratch"):
        suffix = "" if extra == "minus" else f"+extra={extra}"
        strict = _rows(d, DUBBEL_STRICT)
        lenient = _rows(d, DUBBEL_STRICT, DUBBEL_LENIENT)
        intl = _rows(di, DUBBEL_INTERNATIONAL)
        if extra != "minus":
            strict, lenient, intl = (_extra(r, extra) for r in (strict, lenient, intl))
        add(f"dubbel{suffix}+scoring=strict", strict)
        add(f"dubbel{suffix}", lenient)  # lenient is DubbelYatzy's default
        add(f"dubbel{suffix}+scoring=international", intl)
        pip = f"dubbel+yatzy_pip_bonus{suffix}"
        rows = {"strict": strict, "lenient": lenient, "international": intl}
        for scoring, table in rows.items():
            table_pip = DUBBEL_INTERNATIONAL_PIP if scoring == "international" else DUBBEL_PIP
            patched = [(d, {**e, **table_pip.get("".join(map(str, d)), {})}) for d, e in table]
            add(pip + ("" if scoring == "lenient" else f"+scoring={scoring}"), patched)
    return cases


CASES = _cases()


@pytest.mark.parametrize(
    ("spec", "dice", "expected"),
    CASES,
    ids=[f"{spec}-{''.join(map(str, dice))}" for spec, dice, _ in CASES],
)
def test_score_table_rows(spec: str, dice: list[int], expected: dict[str, int]) -> None:
    rules = RuleSet.parse(spec)
    assert rules.score_all(dice) == expected
    assert list(rules.score_all(dice)) == list(rules.boxes)  # protocol order
    for box, points in expected.items():
        assert rules.score(box, dice) == points, box
    table = score_table(rules)
    assert table.row(tuple(reversed(dice))) == [expected[b] for b in rules.boxes]


SPECS_IN_TABLES = sorted({spec for spec, _, _ in CASES})


@pytest.mark.parametrize("spec", SPECS_IN_TABLES)
def test_tables_hit_and_miss_every_box(spec: str) -> None:
    """Every category of every tabled rule set has a row that scores and one that misses."""
    rules = RuleSet.parse(spec)
    rows = [expected for s, _, expected in CASES if s == spec]
    for box in rules.boxes:
        values = [r[box] for r in rows]
        if box == "extra" and rules.extra == "scratch":
            assert set(values) == {0}
            continue
        assert any(v != 0 for v in values), f"{spec}: no row scores {box}"
        if box not in ("chance", "extra"):
            assert 0 in values, f"{spec}: no row misses {box}"


def test_every_variant_and_scoring_option_is_tabled() -> None:
    """A new variant or scoring option must get a table here."""
    tabled = {RuleSet.parse(s).variant for s in SPECS_IN_TABLES}
    assert tabled == {r.variant for r in ALL_RULE_SETS}
    scoring_keys = {_scoring_key(RuleSet.parse(s)) for s in SPECS_IN_TABLES}
    assert scoring_keys == {_scoring_key(r) for r in ALL_RULE_SETS}


# -- targeted edge cases -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "box", "dice", "points"),
    [
        # Two pairs of the same face: strict no, lenient yes.
        ("yatzy", "two_pairs", [2, 2, 2, 2, 6], 0),
        ("yatzy+lenient", "two_pairs", [2, 2, 2, 2, 6], 8),
        ("maxi", "two_pairs", [2, 2, 2, 2, 6, 6], 16),  # 6-6 and 2-2, faces differ
        ("maxi+lenient", "two_pairs", [2, 2, 2, 2, 1, 3], 8),
        ("maxi", "two_pairs", [2, 2, 2, 2, 1, 3], 0),
        # Full house of five equal: strict no, lenient yes; yahtzee only via the joker.
        ("yatzy", "full_house", [4, 4, 4, 4, 4], 0),
        ("yatzy+lenient", "full_house", [4, 4, 4, 4, 4], 20),
        ("yahtzee", "full_house", [4, 4, 4, 4, 4], 0),
        ("maxi", "full_house", [4, 4, 4, 4, 4, 1], 0),
        ("maxi+lenient", "full_house", [4, 4, 4, 4, 4, 1], 20),
        ("maxi", "full_house", [4, 4, 4, 4, 4, 6], 0),
        # A full house is three of one face and two of ANOTHER, the best such.
        ("maxi", "full_house", [6, 6, 6, 5, 5, 5], 28),
        ("maxi", "full_house", [1, 1, 1, 2, 2, 6], 7),
        # Maxi straights with a sixth die.
        ("maxi", "small_straight", [1, 2, 3, 4, 5, 1], 15),
        ("maxi", "small_straight", [6, 5, 4, 3, 2, 1], 15),
        ("maxi", "large_straight", [6, 5, 4, 3, 2, 2], 20),
        ("maxi", "full_straight", [1, 2, 3, 4, 5, 5], 0),
        ("maxi", "small_straight", [2, 3, 4, 5, 6, 6], 0),
        # Three pairs need three different faces strictly.
        ("maxi", "three_pairs", [3, 3, 3, 3, 5, 5], 0),
        ("maxi+lenient", "three_pairs", [3, 3, 3, 3, 5, 5], 22),
        ("maxi", "three_pairs", [1, 1, 2, 2, 6, 6], 18),
        # Villa: two threes of different faces; tower: four and two of different faces.
        ("maxi", "villa", [1, 1, 1, 6, 6, 6], 21),
        ("maxi", "villa", [6, 6, 6, 6, 6, 1], 0),
        ("maxi", "tower", [2, 2, 2, 2, 3, 3], 14),
        ("maxi", "tower", [2, 2, 2, 2, 2, 3], 0),
        ("maxi+lenient", "tower", [2, 2, 2, 2, 2, 2], 12),
        ("maxi+lenient", "villa", [2, 2, 2, 2, 2, 2], 12),
        ("maxi", "villa", [2, 2, 2, 2, 2, 2], 0),
        # Five of a kind counts only the five; maxi_yatzy is six equal for 100.
        ("maxi", "five_of_a_kind", [3, 3, 3, 3, 3, 6], 15),
        ("maxi", "five_of_a_kind", [6, 6, 6, 6, 6, 6], 30),
        ("maxi", "maxi_yatzy", [6, 6, 6, 6, 6, 5], 0),
        ("maxi", "maxi_yatzy", [1, 1, 1, 1, 1, 1], 100),
        # Of-a-kinds count only the equal dice in Nordic rules, all dice internationally.
        ("yatzy", "three_of_a_kind", [6, 6, 6, 6, 1], 18),
        ("yahtzee", "three_of_a_kind", [6, 6, 6, 6, 1], 25),
        ("yatzy", "four_of_a_kind", [6, 6, 6, 6, 6], 24),
        ("yahtzee", "four_of_a_kind", [6, 6, 6, 6, 6], 30),
        # Nordic straights are exact, international ones are runs.
        ("yatzy", "small_straight", [2, 3, 4, 5, 6], 0),
        ("yahtzee", "small_straight", [2, 3, 4, 5, 6], 30),
        ("yahtzee", "small_straight", [1, 2, 3, 5, 6], 0),
        ("yahtzee", "large_straight", [1, 2, 3, 4, 6], 0),
        # The best pair, not the first one.
        ("yatzy", "one_pair", [1, 1, 6, 6, 3], 12),
        ("yatzy", "two_pairs", [1, 1, 5, 5, 6], 12),
        ("maxi", "two_pairs", [1, 1, 5, 5, 6, 6], 22),
        # DubbelYatzy: a result uses five of the six faces.
        ("dubbel", "sixes", [6, 6, 6, 6, 6, 6], 30),
        ("dubbel", "chance", [6, 6, 6, 6, 6, 6], 30),
        ("dubbel", "yatzy", [2, 2, 2, 2, 2, 3], 50),
        ("dubbel", "extra", [6, 6, 6, 6, 6, 6], -30),
        ("dubbel+extra=chance", "extra", [6, 6, 6, 6, 6, 1], 30),
        ("dubbel+extra=scratch", "extra", [6, 6, 6, 6, 6, 1], 0),
        ("dubbel", "extra", [1, 1, 1, 1, 1, 6], -5),
        ("dubbel+scoring=international", "full_house", [2, 2, 2, 2, 2, 2], 0),
        ("dubbel+scoring=international", "small_straight", [6, 1, 2, 3, 5, 6], 0),
    ],
)
def test_edge_cases(spec: str, box: str, dice: list[int], points: int) -> None:
    rules = RuleSet.parse(spec)
    assert rules.score(box, dice) == points
    assert reference_score(rules, box, dice) == points


# -- the reference scorer ----------------------------------------------------------------

_GROUPS: dict[str, tuple[int, ...]] = {
    "one_pair": (2,),
    "two_pairs": (2, 2),
    "three_pairs": (2, 2, 2),
    "three_of_a_kind": (3,),
    "four_of_a_kind": (4,),
    "five_of_a_kind": (5,),
    "full_house": (3, 2),
    "villa": (3, 3),
    "tower": (4, 2),
}
_NORDIC_STRAIGHTS = {
    "small_straight": ({1, 2, 3, 4, 5}, 15),
    "large_straight": ({2, 3, 4, 5, 6}, 20),
    "full_straight": ({1, 2, 3, 4, 5, 6}, 21),
}


def _nordic_groups(dice: Sequence[int], sizes: tuple[int, ...], lenient: bool) -> int:
    """Best sum of dice set aside in groups of equal faces of ``sizes`` (0 if none).

    Searches the dice themselves: each group takes ``size`` equal dice from those
    left; strictly, every group needs a face of its own.
    """

    def search(left: tuple[int, ...], sizes: tuple[int, ...], used: frozenset[int]) -> int:
        if not sizes:
            return 0
        best = -1
        for chosen in set(combinations(left, sizes[0])):
            face = chosen[0]
            if len(set(chosen)) != 1 or (not lenient and face in used):
                continue
            rest = list(left)
            for d in chosen:
                rest.remove(d)
            below = search(tuple(rest), sizes[1:], used | {face})
            if below >= 0:
                best = max(best, sum(chosen) + below)
        return best

    return max(0, search(tuple(sorted(dice)), sizes, frozenset()))


def _reference_five(rules: RuleSet, box: str, dice: Sequence[int]) -> int:
    return _reference_sorted(rules, box, tuple(sorted(dice)))


@cache
def _reference_sorted(rules: RuleSet, box: str, dice: tuple[int, ...]) -> int:
    total = sum(dice)
    category = CATEGORIES[box]
    if category.section == "upper":
        return category.face * list(dice).count(category.face)
    if box == "chance":
        return total
    if box == "extra":
        return {"minus": -total, "chance": total, "scratch": 0}[str(rules.extra)]
    most = max(Counter(dice).values())
    if rules.international:
        shape = sorted(Counter(dice).values())
        runs4 = [{1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}]
        return {
            "three_of_a_kind": total if most >= 3 else 0,
            "four_of_a_kind": total if most >= 4 else 0,
            "full_house": 25 if shape == [2, 3] else 0,
            "small_straight": 30 if any(r <= set(dice) for r in runs4) else 0,
            "large_straight": 40 if set(dice) in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}) else 0,
            "yatzy": (50 + (total if rules.yatzy_pip_bonus else 0)) if most == 5 else 0,
        }[box]
    if box in _GROUPS:
        lenient = rules.lenient or rules.scoring == "lenient"
        return _nordic_groups(dice, _GROUPS[box], lenient)
    if box in _NORDIC_STRAIGHTS:
        want, points = _NORDIC_STRAIGHTS[box]
        return points if want <= set(dice) else 0
    if box == "yatzy":
        return (50 + (total if rules.yatzy_pip_bonus else 0)) if most == 5 else 0
    if box == "maxi_yatzy":
        return 100 if most == 6 else 0
    raise AssertionError(f"the reference scorer does not know {box!r}")


def reference_score(rules: RuleSet, box: str, dice: Sequence[int]) -> int:
    """The points of ``dice`` in ``box``, from RULES.md, by brute force over the dice."""
    dice = list(dice)
    if rules.double:
        return max(_reference_five(rules, box, dice[:i] + dice[i + 1 :]) for i in range(6))
    return _reference_five(rules, box, dice)


def _scoring_key(rules: RuleSet) -> tuple[object, ...]:
    return (rules.variant, rules.lenient, rules.yatzy_pip_bonus, rules.scoring, rules.extra)


_BY_KEY: dict[tuple[object, ...], RuleSet] = {}
for _rules in ALL_RULE_SETS:
    _BY_KEY.setdefault(_scoring_key(_rules), _rules)
SCORING_RULE_SETS = list(_BY_KEY.values())


@pytest.mark.slow
@pytest.mark.parametrize("rules", SCORING_RULE_SETS, ids=lambda r: r.spec)
def test_every_roll_matches_the_reference(rules: RuleSet) -> None:
    """Every box of every distinct roll: scorers, RuleSet.score and the table agree
    with the reference."""
    table = score_table(rules)
    assert table.rolls == all_rolls(rules.num_dice)
    for roll in all_rolls(rules.num_dice):
        expected = [reference_score(rules, b, roll) for b in rules.boxes]
        assert table.row(roll) == expected, roll
        assert [rules.score(b, roll) for b in rules.boxes] == expected, roll
    # The pure scorers score one result: five faces in DubbelYatzy.
    for roll in all_rolls(rules.dice_per_result):
        counts = sc.counts_of(roll)
        expected = [_reference_five(rules, b, roll) for b in rules.boxes]
        assert [rules.scorers[b](counts) for b in rules.boxes] == expected, roll
        if rules.double:
            for sixth in (1, 6):  # a sixth face, dropped again
                six = (*roll, sixth)
                assert [rules.score_dropped(b, six, sixth) for b in rules.boxes] == expected


@pytest.mark.parametrize("rules", SCORING_RULE_SETS, ids=lambda r: r.spec)
def test_possible_scores(rules: RuleSet) -> None:
    for box in rules.boxes:
        seen = {_reference_five(rules, box, r) for r in all_rolls(rules.dice_per_result)}
        if rules.scratchable(box):
            seen.add(0)
        assert rules.possible_scores(box) == frozenset(seen), box


# -- counting ----------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "count"), [(1, 6), (2, 21), (5, 252), (6, 462)])
def test_distinct_rolls(n: int, count: int) -> None:
    rolls = all_rolls(n)
    assert len(rolls) == count
    assert len(set(rolls)) == count
    assert all(list(r) == sorted(r) and len(r) == n for r in rolls)
    # Weighted by their orderings, the distinct rolls make up every one of the 6^n.
    weights = [factorial(n) // prod(factorial(c) for c in Counter(r).values()) for r in rolls]
    assert sum(weights) == 6**n


# -- checked input -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "dice", "match"),
    [
        ("yatzy", [1, 2, 3, 4, 7], "7"),
        ("yatzy", [0, 2, 3, 4, 5], "0"),
        ("yatzy", [1, 2, 3, 4], "4"),
        ("yatzy", [1, 2, 3, 4, 5, 6], "6"),
        ("maxi", [1, 2, 3, 4, 5], "5"),
        ("yatzy", [1, 2, 3, 4, True], "True"),
        ("yatzy", [1, 2, 3, 4, "5"], "'5'"),
        ("yatzy", [1, 2, 3, 4, 2.0], "2.0"),
    ],
)
def test_bad_dice(spec: str, dice: list[object], match: str) -> None:
    rules = RuleSet.parse(spec)
    with pytest.raises(DiceError, match=match):
        rules.score("chance", dice)  # type: ignore[arg-type]
    with pytest.raises(DiceError, match=match):
        rules.score_all(dice)  # type: ignore[arg-type]


def test_unknown_box_names_it_and_the_valid_ones() -> None:
    with pytest.raises(UnknownBoxError, match=r"'villa'.*valid: ones") as info:
        RuleSet("yatzy").score("villa", [1, 2, 3, 4, 5])
    assert "one_pair" in str(info.value)
    with pytest.raises(UnknownBoxError, match="'one_pair'"):
        RuleSet("yahtzee").score("one_pair", [1, 1, 3, 4, 5])
    with pytest.raises(UnknownBoxError, match="'extra'"):
        RuleSet("yatzy").possible_scores("extra")


def test_dropped_face_must_be_among_the_dice() -> None:
    with pytest.raises(DiceError, match="6"):
        RuleSet("dubbel").score_dropped("chance", [1, 2, 3, 4, 5, 5], 6)
