"""``yatzy rules [SPEC]``: list rule sets and options, or show one protocol."""

from __future__ import annotations

import argparse
import json
from typing import Any

from yatzy.cli.common import add_lang
from yatzy.protocols.texts import (
    OPTION_HELP,
    general_notes,
    option_phrases,
    scoring_notes,
    word,
)
from yatzy.rules import CATEGORIES, OPTIONS, VARIANTS, Language, RuleSet


def add_parser(sub: Any) -> None:
    """Register the subcommand."""
    p = sub.add_parser(
        "rules",
        help="list rule sets and options, or show one protocol",
        description="Without SPEC: every rule set and its options.  With SPEC (e.g. "
        "'yatzy+forced', 'maxi+saved_rolls', 'dubbel+extra=chance'): its boxes in "
        "protocol order with what they score.",
    )
    p.add_argument("spec", nargs="?", help="rules spec, e.g. yahtzee+joker=free")
    p.add_argument("--json", action="store_true", help="print JSON")
    add_lang(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the rule sets, or one protocol."""
    if args.spec is None:
        return _list_all(args)
    rules = RuleSet.parse(args.spec)
    if args.json:
        print(json.dumps(describe(rules, args.lang), ensure_ascii=False))
        return 0
    for line in rules_lines(rules, args.lang):
        print(line)
    return 0


def rules_lines(rules: RuleSet, lang: Language) -> list[str]:
    """One protocol as text: dice and rolls, options, boxes with their scores, notes.

    ``yatzy rules SPEC`` prints it; the full-screen game shows it under ``?``.
    """
    out: list[str] = []
    out.append(f"{rules.info.title[lang]} ({rules.spec})")
    dice = word(
        "double_dice" if rules.double else "dice", lang, n=rules.num_dice, turns=rules.turns
    )
    out.append(f"{dice}, {word('rolls_a_turn', lang, n=rules.max_rolls)}")
    for phrase in option_phrases(rules, lang):
        out.append(f"  + {phrase}")
    names = [rules.box_name(b, lang) for b in rules.boxes]
    width = max(len(n) for n in names) + 2
    for box, name in zip(rules.boxes, names, strict=True):
        scores = sorted(rules.possible_scores(box))
        out.append(f"  {name:<{width}}{box:<17} {_range(scores)}")
        if box == "sixes":
            out.append(f"  {rules.label('sum', lang)}")
            hint = word("bonus_hint", lang, points=rules.bonus, threshold=rules.threshold)
            out.append(f"  {rules.label('bonus', lang):<{width}}{'':<17} {hint}")
    if rules.has_joker:
        hint = word("yatzy_bonus_hint", lang, box=rules.box_name("yatzy", lang))
        out.append(f"  {rules.label('yatzy_bonus', lang):<{width}}{'':<17} {hint}")
    out.append(f"  {rules.label('total', lang)}")
    if rules.double:
        out.append(f"  {rules.label('final', lang):<{width}}{'':<17} {word('final_hint', lang)}")
    out.append("")
    for note in [*general_notes(rules, lang), *scoring_notes(rules, lang)]:
        out.append(f"  {note}")
    return out


def describe(rules: RuleSet, lang: Language) -> dict[str, Any]:
    """A JSON-ready description of a rule set's protocol."""
    return {
        "rules": rules.spec,
        "title": rules.info.title[lang],
        "dice": rules.num_dice,
        "double": rules.double,
        "turns": rules.turns,
        "bonus_threshold": rules.threshold,
        "bonus_points": rules.bonus,
        "boxes": [
            {
                "id": b,
                "name": rules.box_name(b, lang),
                "section": CATEGORIES[b].section,
                "possible": sorted(rules.possible_scores(b)),
            }
            for b in rules.boxes
        ],
    }


def _range(scores: list[int]) -> str:
    # Numbers and dashes only, so the line reads the same in every language.
    if len(scores) <= 4:
        return ", ".join(map(str, scores))
    dash = " – " if scores[0] < 0 else "–"  # -30 – -5 reads as a range, -30–-5 does not
    return f"{scores[0]}{dash}{scores[-1]}"


def _list_all(args: argparse.Namespace) -> int:
    lang = args.lang
    if args.json:
        out = {
            name: {
                "title": v.title[lang],
                "dice": v.num_dice,
                "options": [OPTIONS[o].usage() for o in v.options],
                "default": RuleSet(name).spec,
            }
            for name, v in VARIANTS.items()
        }
        print(json.dumps(out, ensure_ascii=False))
        return 0
    print(word("rule_sets", lang))
    for name, v in VARIANTS.items():
        dice = word("n_double_dice" if v.double else "n_dice", lang, n=v.num_dice)
        print(f"\n  {name:<8} {v.title[lang]}, {dice}")
        for o in v.options:
            opt = OPTIONS[o]
            default = RuleSet(name).default(o)
            shown = "" if opt.kind == "flag" else f" ({word('default', lang, value=default)})"
            print(f"    +{opt.usage():<32} {OPTION_HELP[o][lang]}{shown}")
    return 0
