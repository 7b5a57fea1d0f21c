"""The advisor's choices in plain words (yatzy.strategy.advice_words).

The examples of issue 12 are tests here; a property test describes every legal
action of random positions of every rule set in every language, and no
description may show an id, JSON or a die position.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import ALL_RULE_SETS
from yatzy.game import Fill2, Game, Roll, Score, Scratch, State
from yatzy.rules import LANGUAGES, Language, RuleSet
from yatzy.strategy.advice_words import (
    approximate_note,
    describe,
    dice_words,
    faces_words,
    loss_words,
    number,
)


def rolled(spec: str, dice: list[object]) -> State:
    state = Game(spec, ["Ann"]).new_initial_state(starter=0)
    state.apply(Roll())
    state.apply_roll(dice)  # type: ignore[arg-type]
    return state


@pytest.mark.parametrize(
    ("lang", "faces", "words"),
    [
        ("sv", [5, 5], "de två femmorna"),
        ("sv", [5, 6, 5], "de två femmorna och sexan"),
        ("sv", [4, 2, 3, 1], "ettan, tvåan, trean och fyran"),
        ("sv", [6, 6, 6, 6, 6], "de fem sexorna"),
        ("fi", [5, 6, 5], "kaksi viitosta ja kuutonen"),
        ("fi", [3, 3, 3], "kolme kolmosta"),
        ("en", [5, 6, 5], "the two 5s and the 6"),
        ("en", [5, 3, 4, 2], "the 2, 3, 4 and 5"),
        ("en", [4, 4, 4, 1, 6], "the three 4s, the 1 and the 6"),
    ],
)
def test_dice_are_named_by_face(lang: Language, faces: list[int], words: str) -> None:
    assert faces_words(faces, lang) == words


def test_keeps_say_which_faces_not_which_positions() -> None:
    state = rolled("yatzy", [5, 2, 5, 6, 1])
    assert describe(state, Roll((0, 2)), "sv") == "Behåll de två femmorna"
    assert describe(state, Roll((0, 2, 3)), "en") == "Keep the two 5s and the 6"
    assert describe(state, Roll((0, 2, 3)), "fi") == "Pidä kaksi viitosta ja kuutonen"
    assert describe(state, Roll(()), "sv") == "Slå om alla tärningar"
    fresh = Game("yatzy", ["Ann"]).new_initial_state(starter=0)
    assert [describe(fresh, Roll(), lang) for lang in LANGUAGES] == ["Slå", "Heitä", "Roll"]


def test_boxes_by_the_cores_names_with_their_points() -> None:
    state = rolled("yatzy", [4, 4, 4, 1, 2])
    assert describe(state, Score("three_of_a_kind"), "sv") == "Skriv 12 i Tretal"
    assert describe(state, Score("three_of_a_kind"), "en") == "Score 12 in Three of a Kind"
    assert describe(state, Score("three_of_a_kind"), "fi") == "Kirjaa 12 ruutuun Kolmoisluku"
    assert describe(state, Scratch("ones"), "sv") == "Stryk Ettor"
    assert describe(state, Scratch("ones"), "fi") == "Yliviivaa Ykköset"


def test_dubbel_fills_are_two_boxes_in_words() -> None:
    outer, inner = [1, 2, 3, 4, 5, 6], [5, 5, 5, 3, 3, 1]
    state = rolled("dubbel", list(zip(outer, inner, strict=True)))
    fill = Fill2(Score("full_house"), Score("small_straight"))
    assert describe(state, fill, "sv") == "Inre: Kåk (21), yttre: Liten stege (15)"
    assert describe(state, fill, "en") == "Inner: Full House (21), outer: Small Straight (15)"
    scratch = Fill2(Scratch("yatzy"), Score("small_straight"))
    assert describe(state, scratch, "fi") == "Sisempi: yliviivaa Yatzy, ulompi: Pieni suora (15)"
    keep = describe(state, Roll((0, 1)), "sv")
    assert keep == "Behåll 5/1 och 5/2 (inre/yttre)"


def test_numbers_and_losses_in_the_languages_way() -> None:
    assert number(248.44, "en") == "248.4" and number(248.44, "fi") == "248,4"
    assert loss_words(1.34, "sv") == "−1,3\u00a0p" and loss_words(1.34, "en") == "−1.3\u00a0p"
    assert loss_words(0.01, "sv") == "lika bra" and loss_words(0.0, "en") == "as good"


def test_a_roll_in_a_sentence_never_breaks_across_lines() -> None:
    # No-break spaces: "(3 6" at the end of a line and "1 6 2)" on the next read badly.
    assert dice_words([2, 3, 3, 5, 6]) == "2\u00a03\u00a03\u00a05\u00a06"
    state = Game("dubbel", ["A"]).new_initial_state(starter=0)
    state.apply(Roll())
    state.roll()
    assert (
        " " not in dice_words(state.dice)
        and dice_words(state.dice).count("\u00a0") == len(state.dice) - 1
    )


def test_approximate_notes_say_why() -> None:
    assert "DubbelYatzy" in approximate_note(RuleSet.parse("dubbel"), "sv")
    assert "Double Yatzy" in approximate_note(RuleSet.parse("dubbel"), "en")
    assert "sparade slag" in approximate_note(RuleSet.parse("maxi+saved_rolls"), "sv")


_ID = re.compile(r"\b[a-z]+_[a-z_]+\b")


@pytest.mark.slow
@given(
    rules=st.sampled_from(ALL_RULE_SETS),
    seed=st.integers(0, 2**32 - 1),
    turns=st.integers(0, 6),
)
def test_every_legal_action_has_words_in_every_language(
    rules: RuleSet, seed: int, turns: int
) -> None:
    import random

    rng = random.Random(seed)
    state = Game(rules, ["Ann"]).new_initial_state(starter=0)
    for _ in range(turns):
        state.apply(Roll())
        state.roll(rng)
        state.apply(rng.choice([a for a in state.legal_actions() if not isinstance(a, Roll)]))
    state.apply(Roll())
    state.roll(rng)
    names = {rules.box_name(b, lang) for b in rules.boxes for lang in LANGUAGES}
    for action in state.legal_actions():
        for lang in LANGUAGES:
            text = describe(state, action, lang)
            assert text and "{" not in text and not _ID.search(text), text
            if isinstance(action, (Score, Scratch)):
                assert rules.box_name(action.box, lang) in text
            if isinstance(action, Fill2):
                assert sum(n in text for n in names) >= 2, text


def test_the_words_import_no_numeric_library() -> None:
    code = (
        "import sys, yatzy.strategy.advice_words, yatzy.web.analysis_view; "
        "print(any(m in sys.modules for m in ('numpy', 'numba')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
