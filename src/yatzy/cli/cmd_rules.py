"""``yatzy rules [SPEC]``: list rule sets and options, or show one protocol."""

from __future__ import annotations

import argparse
import json
from typing import Any

from yatzy.cli.common import add_lang
from yatzy.rules import CATEGORIES, OPTIONS, VARIANTS, RuleSet, label


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
    lang = args.lang
    print(f"{rules.info.title[lang]} ({rules.spec})")
    saved = {
        "all": " plus every roll saved before",
        "next": " plus up to 2 saved in the turn before",
    }.get(str(rules.saved_rolls), "")
    print(
        f"{rules.num_dice} {'double dice' if rules.double else 'dice'}, "
        f"{rules.max_rolls} rolls a turn{saved}, {rules.turns} turns"
    )
    if rules.last_resort:
        print("last resort: Chance only when the dice score nowhere else, 0 only when nowhere")
    width = max(len(CATEGORIES[b].name(lang)) for b in rules.boxes) + 2
    for box in rules.boxes:
        cat = CATEGORIES[box]
        scores = sorted(rules.possible_scores(box))
        print(f"  {cat.name(lang):<{width}}{box:<17} {_range(scores)}")
        if box == "sixes":
            print(f"  {label('sum', lang):<{width}}")
            print(
                f"  {label('bonus', lang):<{width}}{'':<17} {rules.bonus} at "
                f"{rules.threshold} or more"
            )
    print(f"  {label('total', lang)}")
    if rules.double:
        print(f"  {label('final', lang)} (Total + Extra)")
    return 0


def describe(rules: RuleSet, lang: str) -> dict[str, Any]:
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
                "name": CATEGORIES[b].name(lang),  # type: ignore[arg-type]
                "section": CATEGORIES[b].section,
                "possible": sorted(rules.possible_scores(b)),
            }
            for b in rules.boxes
        ],
    }


def _range(scores: list[int]) -> str:
    if len(scores) <= 4:
        return " or ".join(map(str, scores))
    return f"{scores[0]} to {scores[-1]}"


def _list_all(args: argparse.Namespace) -> int:
    if args.json:
        out = {
            name: {
                "title": v.title[args.lang],
                "dice": v.num_dice,
                "options": [OPTIONS[o].usage() for o in v.options],
                "default": RuleSet(name).spec,
            }
            for name, v in VARIANTS.items()
        }
        print(json.dumps(out, ensure_ascii=False))
        return 0
    print("Rule sets (write a spec as NAME+OPTION+OPTION=VALUE, e.g. yatzy+forced+lenient):")
    for name, v in VARIANTS.items():
        print(f"\n  {name:<8} {v.title[args.lang]}, {v.num_dice} dice")
        for o in v.options:
            opt = OPTIONS[o]
            default = RuleSet(name).default(o)
            shown = "" if opt.kind == "flag" else f" (default {default})"
            print(f"    +{opt.usage():<32} {opt.help}{shown}")
    return 0
