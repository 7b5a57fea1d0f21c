"""Rule sets, categories, scoring functions and spec strings."""

from __future__ import annotations

from yatzy.rules.boxes import match_box
from yatzy.rules.categories import CATEGORIES, LANGUAGES, Category, Language, label
from yatzy.rules.dice import format_dice, format_die, parse_dice, parse_faces
from yatzy.rules.ruleset import (
    JOKER_POINTS,
    OPTIONS,
    VARIANTS,
    YATZY_BONUS_POINTS,
    OptionSpec,
    RuleSet,
    Variant,
    explain_spec_error,
    parse_spec,
    spec_error,
)
from yatzy.rules.tables import ScoreTable, all_rolls, score_table

__all__ = [
    "CATEGORIES",
    "JOKER_POINTS",
    "LANGUAGES",
    "OPTIONS",
    "VARIANTS",
    "YATZY_BONUS_POINTS",
    "Category",
    "Language",
    "OptionSpec",
    "RuleSet",
    "ScoreTable",
    "Variant",
    "all_rolls",
    "explain_spec_error",
    "format_dice",
    "format_die",
    "label",
    "match_box",
    "parse_dice",
    "parse_faces",
    "parse_spec",
    "score_table",
    "spec_error",
]
