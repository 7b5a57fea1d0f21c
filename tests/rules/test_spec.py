"""Rules spec strings: parse, canonical spec, round trips, every error, pickling."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import ALL_RULE_SETS, int_option_range
from yatzy.errors import SpecError, YatzyError
from yatzy.rules import OPTIONS, VARIANTS, RuleSet, parse_spec
from yatzy.rules.ruleset import OPTION_ORDER


def _all_with_ints() -> list[RuleSet]:
    """Every flag/choice combination, each with the integer options at their ends."""
    out = list(ALL_RULE_SETS)
    for rules in ALL_RULE_SETS:
        for name in rules.info.options:
            if OPTIONS[name].kind == "int":
                lo, hi = int_option_range(rules, name)
                out.extend(rules.replace(**{name: v}) for v in (lo, hi))
    return out


RULE_SETS = _all_with_ints()


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.spec)
def test_spec_round_trip(rules: RuleSet) -> None:
    spec = rules.spec
    again = RuleSet.parse(spec)
    assert again == rules
    assert again.spec == spec
    assert str(rules) == spec
    assert parse_spec(spec) == rules
    assert hash(again) == hash(rules)
    # Upper case and spaces are read too.
    assert RuleSet.parse(" " + spec.upper().replace("+", " + ") + " ") == rules


def test_the_combinations_are_all_distinct() -> None:
    assert len({r.spec for r in RULE_SETS}) == len(set(RULE_SETS))
    variants = {r.variant for r in ALL_RULE_SETS}
    assert variants == set(VARIANTS)


@pytest.mark.parametrize("rules", ALL_RULE_SETS, ids=lambda r: r.spec)
def test_spec_is_canonical_whatever_the_order(rules: RuleSet) -> None:
    parts = rules.spec.split("+")
    options = parts[1:]
    # The spec lists options in the canonical order.
    names = [p.partition("=")[0] for p in options]
    assert names == sorted(names, key=OPTION_ORDER.index)
    rng = random.Random(rules.spec)
    for _ in range(3):
        rng.shuffle(options)
        assert RuleSet.parse("+".join([parts[0], *options])).spec == rules.spec


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_defaults_are_left_out(variant: str) -> None:
    rules = RuleSet(variant)
    assert rules.spec == variant
    spelled = [variant]
    for name in rules.info.options:
        value = rules.default(name)
        if value is True:
            spelled.append(name)
        elif value is not False:
            spelled.append(f"{name}={value}")
    assert RuleSet.parse("+".join(spelled)).spec == variant


@given(data=st.data())
def test_random_specs_round_trip(data: st.DataObject) -> None:
    """Any valid assignment of options (integers included) round-trips."""
    rules = data.draw(st.sampled_from(ALL_RULE_SETS))
    changes: dict[str, Any] = {}
    for name in rules.info.options:
        if OPTIONS[name].kind == "int":
            lo, hi = int_option_range(rules, name)
            changes[name] = data.draw(st.integers(lo, hi))
    rules = rules.replace(**changes)
    assert RuleSet.parse(rules.spec) == rules
    for name, value in changes.items():
        assert getattr(RuleSet.parse(rules.spec), name) == value


@pytest.mark.parametrize(
    ("spec", "value", "canonical"),
    [
        # A bare saved_rolls is the old flag's meaning, rolls that accumulate.
        ("maxi+saved_rolls", "all", "maxi+saved_rolls"),
        ("maxi+saved_rolls=all", "all", "maxi+saved_rolls"),
        ("maxi+saved_rolls=next", "next", "maxi+saved_rolls=next"),
        ("maxi+saved_rolls=none", "none", "maxi"),
        ("maxi", "none", "maxi"),
        ("maxi+SAVED_ROLLS=Next+last_resort", "next", "maxi+last_resort+saved_rolls=next"),
    ],
)
def test_saved_rolls_is_a_choice_with_a_bare_default(spec: str, value: str, canonical: str) -> None:
    rules = RuleSet.parse(spec)
    assert rules.saved_rolls == value
    assert rules.spec == canonical
    assert rules.saves_rolls == (value != "none")
    assert rules.max_carried == (2 if value == "next" else None)
    assert OPTIONS["saved_rolls"].usage() == "saved_rolls=none|all|next"


def test_saved_rolls_flag_values_still_construct() -> None:
    # The option was a flag: True and False keep meaning what they meant.
    assert RuleSet("maxi", saved_rolls=True) == RuleSet.parse("maxi+saved_rolls")
    assert RuleSet("maxi", saved_rolls=True).saved_rolls == "all"
    assert RuleSet("maxi", saved_rolls=False) == RuleSet("maxi")
    assert RuleSet("maxi", saved_rolls="next").replace(lenient=True).saved_rolls == "next"


def test_last_resort_applies_to_yatzy_and_maxi() -> None:
    assert RuleSet.parse("yatzy+last_resort").last_resort
    assert RuleSet.parse("maxi+last_resort+forced").spec == "maxi+forced+last_resort"
    assert not RuleSet("yahtzee").last_resort and not RuleSet("dubbel").last_resort


def test_examples_of_specs() -> None:
    assert RuleSet.parse("maxi+saved_rolls") == RuleSet("maxi", saved_rolls=True)
    assert RuleSet.parse("yahtzee+joker=free").joker == "free"
    assert RuleSet.parse("yahtzee").joker == "forced"
    assert RuleSet.parse("yatzy+lenient+forced").spec == "yatzy+forced+lenient"
    r = RuleSet.parse("maxi+bonus_points=100+bonus_threshold=84")
    assert (r.threshold, r.bonus) == (84, 100)
    assert r.spec == "maxi+bonus_threshold=84+bonus_points=100"
    assert RuleSet.parse("maxi").threshold == 75
    assert RuleSet.parse("yahtzee").bonus == 35
    assert RuleSet.parse("dubbel").extra == "minus"
    assert RuleSet.parse("dubbel").scoring == "lenient"
    # International scoring in DubbelYatzy takes the yahtzee bonus points.
    intl = RuleSet.parse("dubbel+scoring=international")
    assert intl.bonus == 35
    assert RuleSet.parse("dubbel+scoring=international+bonus_points=50").bonus == 50


@pytest.mark.parametrize(
    ("spec", "match"),
    [
        # Unknown variant: the valid ones are listed.
        ("yahtzy", r"unknown rule set 'yahtzy'; valid: yatzy, yahtzee, maxi, dubbel"),
        ("", r"unknown rule set ''"),
        # Unknown option: listing the valid ones of the variant.
        (
            "yatzy+turbo",
            r"unknown option 'turbo' for yatzy; valid: forced, half_forced, lenient, "
            r"yatzy_pip_bonus, last_resort, bonus_threshold=N, bonus_points=N",
        ),
        (
            "yahtzee+lenient",
            r"unknown option 'lenient' for yahtzee; valid: .*joker=forced\|free\|none",
        ),
        # Options that exist but do not apply to the variant.
        ("yatzy+joker=free", r"'joker' for yatzy; valid:"),
        ("yatzy+saved_rolls", r"'saved_rolls' for yatzy"),
        ("maxi+yatzy_pip_bonus", r"'yatzy_pip_bonus' for maxi"),
        (
            "dubbel+lenient",
            r"'lenient' for dubbel; valid: .*scoring=lenient\|strict\|international",
        ),
        ("yahtzee+extra=chance", r"'extra' for yahtzee"),
        ("yahtzee+last_resort", r"'last_resort' for yahtzee"),
        ("dubbel+last_resort", r"'last_resort' for dubbel"),
        ("maxi+saved_rolls=some", r"saved_rolls='some' is not one of none, all, next"),
        ("maxi+saved_rolls=", r"option 'saved_rolls' needs a value: saved_rolls=none\|all\|next"),
        ("maxi+saved_rolls+saved_rolls=next", r"option 'saved_rolls' is given twice"),
        ("yatzy+last_resort=yes", r"option 'last_resort' takes no value"),
        # Bad values.
        ("yahtzee+joker=maybe", r"joker='maybe' is not one of forced, free, none"),
        ("yahtzee+joker", r"option 'joker' needs a value: joker=forced\|free\|none"),
        ("yahtzee+joker=", r"option 'joker' needs a value"),
        ("dubbel+extra=plus", r"extra='plus' is not one of minus, chance, scratch"),
        ("dubbel+scoring=loose", r"scoring='loose' is not one of lenient, strict, international"),
        ("yatzy+lenient=yes", r"option 'lenient' takes no value"),
        ("yatzy+bonus_threshold=many", r"'bonus_threshold' needs a whole number, not 'many'"),
        ("yatzy+bonus_threshold=6.5", r"whole number, not '6.5'"),
        ("yatzy+bonus_points", r"'bonus_points' needs a value: bonus_points=N"),
        ("yatzy+lenient+lenient", r"option 'lenient' is given twice"),
        # forced and half_forced exclude each other.
        ("yatzy+forced+half_forced", r"'forced' and 'half_forced' exclude each other"),
        ("dubbel+half_forced+forced", r"'forced' and 'half_forced' exclude each other"),
        # Thresholds out of range (the upper section of five dice holds at most 105).
        ("yatzy+bonus_threshold=106", r"bonus_threshold=106 is not in 0-105 for yatzy"),
        ("yatzy+bonus_threshold=-1", r"bonus_threshold=-1 is not in 0-105"),
        ("maxi+bonus_threshold=127", r"bonus_threshold=127 is not in 0-126 for maxi"),
        ("dubbel+bonus_threshold=106", r"bonus_threshold=106 is not in 0-105 for dubbel"),
        ("yatzy+bonus_points=1001", r"bonus_points=1001 is not in 0-1000"),
        ("yatzy+bonus_points=-5", r"bonus_points=-5 is not in 0-1000"),
    ],
)
def test_spec_errors(spec: str, match: str) -> None:
    with pytest.raises(SpecError, match=match) as info:
        RuleSet.parse(spec)
    assert isinstance(info.value, YatzyError)
    assert isinstance(info.value, ValueError)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    "spec",
    [
        "yatzy+bonus_threshold=105",
        "yatzy+bonus_threshold=0",
        "maxi+bonus_threshold=126",
        "dubbel+bonus_threshold=105",
        "yatzy+bonus_points=0",
        "yatzy+bonus_points=1000",
    ],
)
def test_range_ends_are_valid(spec: str) -> None:
    assert RuleSet.parse(spec).spec == spec


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"variant": "poker"}, r"unknown rule set 'poker'"),
        ({"variant": "yatzy", "joker": "free"}, r"option 'joker' does not apply to yatzy; valid:"),
        ({"variant": "yatzy", "saved_rolls": True}, r"'saved_rolls' does not apply to yatzy"),
        ({"variant": "yahtzee", "lenient": True}, r"'lenient' does not apply to yahtzee"),
        ({"variant": "maxi", "extra": "chance"}, r"'extra' does not apply to maxi"),
        ({"variant": "yatzy", "lenient": "yes"}, r"'lenient' is a flag, not 'yes'"),
        ({"variant": "yatzy", "lenient": 1}, r"'lenient' is a flag, not 1"),
        ({"variant": "yahtzee", "joker": "wild"}, r"joker='wild' is not one of"),
        ({"variant": "yatzy", "bonus_threshold": "63"}, r"whole number, not '63'"),
        ({"variant": "yatzy", "bonus_threshold": True}, r"whole number, not True"),
        ({"variant": "yatzy", "bonus_points": 2.5}, r"whole number, not 2.5"),
        ({"variant": "maxi", "forced": True, "half_forced": True}, r"exclude each other"),
        ({"variant": "yatzy", "bonus_threshold": 200}, r"bonus_threshold=200 is not in 0-105"),
    ],
)
def test_constructor_errors(kwargs: dict[str, Any], match: str) -> None:
    with pytest.raises(SpecError, match=match):
        RuleSet(**kwargs)


@pytest.mark.parametrize(
    ("start", "changes", "spec"),
    [
        # Defaults follow the change instead of sticking at the old resolved values.
        ("dubbel+scoring=international", {"scoring": "strict"}, "dubbel+scoring=strict"),
        ("dubbel", {"scoring": "international"}, "dubbel+scoring=international"),
        ("yatzy", {"variant": "maxi"}, "maxi"),
        ("yatzy", {"variant": "yahtzee"}, "yahtzee"),
        ("yahtzee", {"variant": "yatzy"}, "yatzy"),
        ("maxi+bonus_threshold=84", {"lenient": True}, "maxi+lenient+bonus_threshold=84"),
        ("yatzy+forced", {"variant": "maxi"}, "maxi+forced"),
        ("yahtzee+joker=free", {"joker": None}, "yahtzee"),
    ],
)
def test_replace_keeps_only_what_was_set(start: str, changes: dict[str, Any], spec: str) -> None:
    rules = RuleSet.parse(start).replace(**changes)
    assert rules.spec == spec
    assert rules == RuleSet.parse(spec)
    assert rules.threshold == RuleSet.parse(spec).threshold
    assert rules.bonus == RuleSet.parse(spec).bonus


def test_replace_refuses_options_the_new_variant_lacks() -> None:
    with pytest.raises(SpecError, match="'lenient' does not apply to yahtzee"):
        RuleSet("yatzy", lenient=True).replace(variant="yahtzee")


def test_replace_is_validated() -> None:
    rules = RuleSet("yatzy", forced=True)
    with pytest.raises(SpecError, match="exclude each other"):
        rules.replace(half_forced=True)
    assert rules.replace(forced=False, half_forced=True).spec == "yatzy+half_forced"


def test_spec_must_be_a_string() -> None:
    with pytest.raises(SpecError, match="not 42"):
        RuleSet.parse(42)  # type: ignore[arg-type]


def test_rule_sets_are_immutable() -> None:
    rules = RuleSet("yatzy")
    with pytest.raises(AttributeError):
        rules.lenient = True  # type: ignore[misc]


@pytest.mark.parametrize("rules", RULE_SETS[:: max(1, len(RULE_SETS) // 40)], ids=str)
def test_pickle_and_copy(rules: RuleSet) -> None:
    _ = rules.scorers, rules.boxes  # cached closures must not get in the way
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        again = pickle.loads(pickle.dumps(rules, protocol))
        assert again == rules
        assert again.spec == rules.spec
        assert again.boxes == rules.boxes
        dice = [1, 2, 3, 4, 5, 6][: rules.num_dice]
        assert again.score_all(dice) == rules.score_all(dice)
    assert copy.deepcopy(rules) == rules


def test_variant_options_are_listed_in_spec_order() -> None:
    for variant in VARIANTS.values():
        assert list(variant.options) == sorted(variant.options, key=OPTION_ORDER.index)
        for name, value in variant.defaults.items():
            assert name in variant.options
            assert RuleSet(variant.name).default(name) == value
