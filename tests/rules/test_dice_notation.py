"""The one dice notation: faces as documented, double dice inner first, nothing guessed."""

from __future__ import annotations

import pytest

from yatzy.errors import DiceError
from yatzy.rules import RuleSet, format_dice, parse_dice, parse_faces

DUBBEL = RuleSet("dubbel")


@pytest.mark.parametrize(
    "text", ["3 3 3 6 6", "33366", "3,3,3,6,6", "3-3-3-6-6", " 3  3\t3 6 6 ", "33 3,6-6"]
)
def test_documented_forms(text: str) -> None:
    assert parse_faces(text) == [3, 3, 3, 6, 6]
    assert parse_dice(RuleSet("yatzy"), text) == [3, 3, 3, 6, 6]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("-1 2 3 4 5", "'-1'"),
        ("+1 2 3 4 5", "'+1'"),
        ("1 2 3 4 5-", "'5-'"),
        ("1--2 3 4 5", "'1--2'"),
        ("-12345", "'-12345'"),
        ("1,,2,3,4,5", "empty place"),
        (",1,2,3,4,5", "empty place"),
        ("", "no dice"),
        ("   ", "no dice"),
        ("1 2 3 4 0", "'0'"),
        ("1 2 3 4 7", "'7'"),
        ("1 2 3 4 x", "'x'"),
        ("1.2.3.4.5", "'1.2.3.4.5'"),
        ("1 2 3 4 5 6", "needs 5 dice, got 6"),
    ],
)
def test_refused_never_guessed(text: str, message: str) -> None:
    with pytest.raises(DiceError, match=message.replace("+", r"\+")):
        parse_dice(RuleSet("yatzy"), text)


def test_double_dice_are_inner_first() -> None:
    # 003's example: outer 6-6-4-3-3-3, inner 5-4-3-2-2-1.
    want = [(6, 5), (6, 4), (4, 3), (3, 2), (3, 2), (3, 1)]
    assert parse_dice(DUBBEL, "543221/664333") == want
    assert parse_dice(DUBBEL, "5 4 3 2 2 1 / 6 6 4 3 3 3") == want
    assert parse_dice(DUBBEL, "5/6 4/6 3/4 2/3 2/3 1/3") == want
    assert format_dice(want) == "5/6 4/6 3/4 2/3 2/3 1/3"
    assert parse_dice(DUBBEL, format_dice(want)) == want  # round trip


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("543221", "inner first"),
        ("5432/21/664333", "inner first"),
        ("543221/66433", "needs 6 dice, got 5"),
        ("5/6 4/6 3/4 2/3 2/3", "needs 6 double dice, got 5"),
        ("5/6 4/6 3/4 2/3 2/3 1/-3", "'-3'"),
        ("56/6 4/6 3/4 2/3 2/3 1/3", "not inner/outer"),
    ],
)
def test_double_dice_refused(text: str, message: str) -> None:
    with pytest.raises(DiceError, match=message):
        parse_dice(DUBBEL, text)
