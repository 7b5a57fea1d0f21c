"""Box names: per-variant names, and the one matcher every front end reads a box with
(accepted and refused inputs in all three languages and every variant)."""

from __future__ import annotations

import pytest

from tests.conftest import DEFAULT_RULE_SETS
from yatzy.errors import AmbiguousBoxError, UnknownBoxError, YatzyError
from yatzy.rules import CATEGORIES, LANGUAGES, Language, RuleSet, match_box

YATZY, MAXI, YAHTZEE, DUBBEL = (RuleSet(v) for v in ("yatzy", "maxi", "yahtzee", "dubbel"))


# -- names ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "lang", "names"),
    [
        # 004's own Finnish spellings (RULES.md's table).
        (YATZY, "fi", {"threes": "Kolmoset", "fours": "Neloset", "fives": "Vitoset"}),
        (YATZY, "fi", {"sixes": "Kutoset", "four_of_a_kind": "Nelosluku"}),
        # The Maxi sheet 002's Swedish names.
        (MAXI, "sv", {"one_pair": "1 par", "two_pairs": "2 par", "three_pairs": "3 par"}),
        (MAXI, "sv", {"three_of_a_kind": "Tretal", "four_of_a_kind": "Fyrtal"}),
        (MAXI, "sv", {"five_of_a_kind": "Femtal", "small_straight": "Liten straight"}),
        (MAXI, "sv", {"large_straight": "Stor straight", "full_straight": "Full straight"}),
        (MAXI, "sv", {"full_house": "Kåk", "villa": "Hus", "tower": "Torn", "chance": "Chans"}),
        (MAXI, "sv", {"maxi_yatzy": "Maxi-Yatzy"}),
        # The Yatzy sheets keep 000's Swedish names.
        (YATZY, "sv", {"one_pair": "Ett par", "small_straight": "Liten stege"}),
        (DUBBEL, "sv", {"two_pairs": "Två par", "large_straight": "Stor stege"}),
        # English Yahtzee calls its box Yahtzee; the Nordic games call it Yatzy.
        (YAHTZEE, "en", {"yatzy": "Yahtzee"}),
        (YAHTZEE, "sv", {"yatzy": "Yatzy"}),
        (YATZY, "en", {"yatzy": "Yatzy"}),
    ],
)
def test_box_names_follow_the_variants_sheet(
    rules: RuleSet, lang: Language, names: dict[str, str]
) -> None:
    for box, name in names.items():
        assert rules.box_name(box, lang) == name


def test_yahtzee_names_its_bonus_row_in_english() -> None:
    assert YAHTZEE.label("yatzy_bonus", "en") == "Yahtzee bonus"
    assert YAHTZEE.label("yatzy_bonus", "sv") == "Yatzybonus"
    assert YATZY.label("yatzy_bonus", "en") == "Yatzy bonus"


@pytest.mark.parametrize(
    "rules", [*DEFAULT_RULE_SETS, RuleSet("dubbel", scoring="international")], ids=str
)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_shown_name_and_number_reads_back_as_its_box(rules: RuleSet, lang: Language) -> None:
    names = [rules.box_name(b, lang) for b in rules.boxes]
    assert len(set(names)) == len(names), "two boxes share a name"
    for number, box in enumerate(rules.boxes, start=1):
        assert match_box(rules, box, lang) == box
        assert match_box(rules, str(number), lang) == box
        for other in LANGUAGES:
            assert match_box(rules, rules.box_name(box, other), lang) == box
        for spelling in CATEGORIES[box].spellings():
            assert match_box(rules, spelling, lang) == box


# -- the matcher: accepted -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "lang", "text", "box"),
    [
        ("yatzy", "en", "full_house", "full_house"),
        ("yatzy", "en", "  Full   HOUSE ", "full_house"),
        ("yatzy", "en", "13", "full_house"),
        ("yatzy", "en", " 7 ", "one_pair"),
        ("yatzy", "en", "kåk", "full_house"),  # a full name in another language
        ("yatzy", "en", "Täyskäsi", "full_house"),
        ("yatzy", "en", "sm", "small_straight"),  # a start in the game's language
        ("yatzy", "en", "ch", "chance"),
        ("yatzy", "sv", "kå", "full_house"),
        ("yatzy", "sv", "etto", "ones"),
        ("yatzy", "sv", "ett par", "one_pair"),
        ("yatzy", "sv", "liten", "small_straight"),
        ("yatzy", "fi", "viitoset", "fives"),  # standard spellings stay accepted
        ("yatzy", "fi", "KUUTOSET", "sixes"),
        ("yatzy", "fi", "neloisluku", "four_of_a_kind"),
        ("yatzy", "fi", "vito", "fives"),
        ("yatzy", "fi", "ku", "sixes"),
        ("yatzy", "fi", "1 pari", "one_pair"),
        ("yatzy", "fi", "1", "ones"),  # a number is a number, never a name's start
        ("maxi", "sv", "1 par", "one_pair"),
        ("maxi", "sv", "Ett par", "one_pair"),  # 000's names are accepted
        ("maxi", "sv", "tre par", "three_pairs"),
        ("maxi", "sv", "liten stege", "small_straight"),
        ("maxi", "sv", "full stege", "full_straight"),
        ("maxi", "sv", "full", "full_straight"),
        ("maxi", "sv", "20", "maxi_yatzy"),
        ("maxi", "fi", "huv", "villa"),
        ("maxi", "en", "tow", "tower"),
        ("yahtzee", "en", "yahtzee", "yatzy"),
        ("yahtzee", "en", "yah", "yatzy"),
        ("yahtzee", "sv", "yatzy", "yatzy"),
        ("yatzy", "en", "yahtzee", "yatzy"),
        ("dubbel", "sv", "16", "extra"),
        ("dubbel", "fi", "ekstra", "extra"),
        ("dubbel+scoring=international", "en", "14", "extra"),
    ],
)
def test_match_box_accepts(spec: str, lang: Language, text: str, box: str) -> None:
    assert match_box(RuleSet.parse(spec), text, lang) == box


# -- the matcher: refused, never guessed -------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "lang", "text", "error", "candidates"),
    [
        # The examples: punctuation and signs are not dropped.
        ("yatzy", "fi", "1.", UnknownBoxError, ("ones", "one_pair")),
        ("yatzy", "fi", "-1", UnknownBoxError, ("ones", "one_pair")),
        ("yatzy", "en", "1.", UnknownBoxError, ("ones",)),
        ("yatzy", "sv", "+3", UnknownBoxError, ("threes",)),
        ("yatzy", "sv", "kak", UnknownBoxError, ("full_house",)),  # not Finnish Kakkoset
        ("yatzy", "en", "fullhouse", UnknownBoxError, ("full_house",)),
        ("yatzy", "en", "full-house", UnknownBoxError, ("full_house",)),
        ("yatzy", "sv", "liten_stege", UnknownBoxError, ("small_straight",)),
        ("maxi", "sv", "1par", UnknownBoxError, ("one_pair",)),
        # Empty, blank, unknown, out of range.
        ("yatzy", "en", "", UnknownBoxError, YATZY.boxes),
        ("yatzy", "sv", "   ", UnknownBoxError, YATZY.boxes),
        ("yatzy", "en", "nosuchbox", UnknownBoxError, ()),
        ("yatzy", "en", "0", UnknownBoxError, ()),
        ("yatzy", "en", "16", UnknownBoxError, ()),
        ("yahtzee", "en", "one_pair", UnknownBoxError, ()),  # not a box of this variant
        ("yatzy", "en", "villa", UnknownBoxError, ()),
        ("yatzy", "en", "liten", UnknownBoxError, ()),  # a start only in another language
        ("yatzy", "sv", "kakk", UnknownBoxError, ()),
        # Could be two boxes.
        ("yatzy", "en", "s", AmbiguousBoxError, ("sixes", "small_straight")),
        ("yatzy", "en", "f", AmbiguousBoxError, ("fours", "fives", "four_of_a_kind", "full_house")),
        ("yatzy", "sv", "tv", AmbiguousBoxError, ("twos", "two_pairs")),
        ("yatzy", "sv", "t", AmbiguousBoxError, ("twos", "threes", "two_pairs", "three_of_a_kind")),
        ("yatzy", "fi", "k", AmbiguousBoxError, ("twos", "threes", "sixes", "three_of_a_kind")),
        (
            "maxi",
            "sv",
            "f",
            AmbiguousBoxError,
            ("fours", "fives", "four_of_a_kind", "five_of_a_kind", "full_straight"),
        ),
        ("maxi", "sv", "1", None, None),  # a number: Ettor, not "1 par"
        ("maxi", "en", "three", AmbiguousBoxError, ("threes", "three_pairs", "three_of_a_kind")),
        ("yatzy", "sv", "ett", AmbiguousBoxError, ("ones", "one_pair")),
        ("yahtzee", "en", "s", AmbiguousBoxError, ("sixes", "small_straight")),
    ],
)
def test_match_box_refuses(
    spec: str,
    lang: Language,
    text: str,
    error: type[YatzyError] | None,
    candidates: tuple[str, ...] | None,
) -> None:
    rules = RuleSet.parse(spec)
    if error is None:
        assert match_box(rules, text, lang) == "ones"
        return
    with pytest.raises(error) as info:
        match_box(rules, text, lang)
    exc = info.value
    assert isinstance(exc, UnknownBoxError)
    assert repr(text) in str(exc)
    assert exc.candidates == candidates
    if candidates == rules.boxes:  # nothing typed: every box is a candidate
        return
    for box in candidates:
        assert rules.box_name(box, lang) in str(exc)
