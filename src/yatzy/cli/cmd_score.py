"""``yatzy score SPEC D D D D D [D]``: the score of some dice in every box."""

from __future__ import annotations

import argparse
import json
from typing import Any

from yatzy.cli.common import add_lang, parse_dice
from yatzy.rules import RuleSet


def add_parser(sub: Any) -> None:
    """Register the subcommand."""
    p = sub.add_parser(
        "score",
        help="score dice in every box of a rule set",
        description="The points of the dice in every box.  DubbelYatzy takes one layer's "
        "six faces and gives each box its best score after dropping one face.",
    )
    p.add_argument("spec", help="rules spec, e.g. yatzy or maxi+lenient")
    p.add_argument("dice", nargs="+", help="the faces, e.g. 3 3 3 6 6 (or 33366)")
    p.add_argument("--json", action="store_true", help='print {"<box>": points, ...}')
    add_lang(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the scores."""
    rules = RuleSet.parse(args.spec)
    dice = parse_dice(args.dice)
    scores = rules.score_all(dice)
    if args.json:
        print(json.dumps(scores))
        return 0
    width = max(len(rules.box_name(b, args.lang)) for b in rules.boxes) + 2
    print(f"{rules.spec}: {' '.join(map(str, dice))}")
    for box, points in scores.items():
        print(f"  {rules.box_name(box, args.lang):<{width}}{points:>4}")
    return 0
