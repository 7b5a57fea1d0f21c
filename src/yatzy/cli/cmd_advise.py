"""``yatzy advise SPEC --sheet ... --dice ... --rolls-left N``: every option ranked."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from yatzy.cli.common import rules_arg
from yatzy.errors import YatzyError
from yatzy.rules import format_dice


def add_parser(sub: Any) -> None:
    """Register the subcommand."""
    p = sub.add_parser(
        "advise",
        help="rank every option of a position by expected final score",
        description="Ranks every option of a position — which dice to keep, or which box "
        "to fill — by the expected final score with best play afterwards, with the loss "
        "of each against the best.  Exact where the solver handles the rule set, "
        "approximate elsewhere (the output says which).  Without --dice: the value of "
        "the position before the turn's first roll.  With --target T: by the chance of "
        "a final Total of at least T instead (target play).",
    )
    p.add_argument("spec", help="rules spec, e.g. yatzy or yahtzee+joker=free")
    p.add_argument(
        "--sheet",
        default="",
        help="filled boxes as box=points pairs (ones=3,twos=6,yatzy=0; extra keys "
        "yatzy_bonuses=N, saved_rolls=N: the rolls carried into the turn, at most 2 with "
        "saved_rolls=next), or a saved game record (.json): the position "
        "of the player to act",
    )
    p.add_argument(
        "--dice",
        nargs="+",
        help="the dice on the table, e.g. 33456 or 3 3 4 5 6 (DubbelYatzy: inner first, "
        "INNER/OUTER as 543221/664333 or per die 5/6 4/6 ...)",
    )
    p.add_argument("--rolls-left", help="rolls the turn may still use (with --dice)")
    p.add_argument(
        "--target",
        metavar="T",
        help="rank by the chance of a final Total >= T instead (target play; yatzy and "
        "yahtzee; builds the target table the first time, minutes)",
    )
    p.add_argument("--top", default="10", help="options to show (default 10)")
    p.add_argument("--all", action="store_true", help="show every option")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the ranked options."""
    from yatzy.strategy.advisor import advise, advise_target
    from yatzy.strategy.position import (
        build_position,
        parse_position_dice,
        parse_sheet,
        position_from_record,
        sheet_of,
    )

    rules = rules_arg(args.spec)
    try:
        top = int(args.top)
    except ValueError:
        raise YatzyError(f"--top {args.top!r} is not a whole number") from None
    rolls_left: int | None = None
    if args.rolls_left is not None:
        try:
            rolls_left = int(args.rolls_left)
        except ValueError:
            raise YatzyError(f"rolls left {args.rolls_left!r} is not a whole number") from None
    dice: list[Any] | None = None
    if args.dice is not None:
        dice = list(parse_position_dice(rules, " ".join(args.dice)))
    text = args.sheet.strip()
    if text.endswith(".json") or (text and "=" not in text and Path(text).is_file()):
        recorded = position_from_record(text)
        if recorded.rules != rules:
            raise YatzyError(f"the record plays {recorded.rules.spec}, not {rules.spec}")
        entries = sheet_of(recorded)
        if dice is None and recorded.dice is not None:
            dice = list(recorded.dice)
            rolls_left = recorded.rolls_left()
    else:
        entries = parse_sheet(rules, text)
    if dice is not None and rolls_left is None:
        raise YatzyError("--dice needs --rolls-left (how many rolls the turn has left)")
    if dice is None and rolls_left is not None:
        raise YatzyError("--rolls-left needs --dice")
    target: int | None = None
    if args.target is not None:
        try:
            target = int(args.target)
        except ValueError:
            raise YatzyError(f"--target {args.target!r} is not a whole number") from None
        from yatzy.solver.target import check_target_supported

        check_target_supported(rules)
    state = build_position(rules, entries, dice, rolls_left)
    if target is not None:
        advice = advise_target(state, target, progress=not args.json)
    else:
        advice = advise(state, progress=not args.json)
    if args.json:
        print(json.dumps(advice.to_json()))
        return 0
    options = advice.options if args.all else advice.options[: max(1, top)]
    if state.dice is None:
        where = "before the first roll of the turn"
    else:
        shown = state.dice
        dice_text = format_dice(shown)
        where = f"dice {dice_text}, {advice.rolls_left} roll{'s' * (advice.rolls_left != 1)} left"
    print(f"{rules.spec}: {where}")
    if target is not None:
        print(f"target play; chance of reaching {target}: {advice.value * 100:.1f} %")
        width = max(len(o.text) for o in options)
        print(f"  {'#':>3}  {'option':<{width}}  {'chance':>7}  {'loss':>6}")
        for i, o in enumerate(options, start=1):
            print(f"  {i:>3}  {o.text:<{width}}  {o.value * 100:>6.1f}%  {o.loss * 100:>5.1f}%")
        if len(options) < len(advice.options):
            print(f"  ... {len(advice.options) - len(options)} more (--all shows every option)")
        return 0
    kind = "exact values" if advice.exact else "APPROXIMATE values"
    print(f"{kind} ({advice.method}); expected final score with best play: {advice.value:.2f}")
    width = max(len(o.text) for o in options)
    print(f"  {'#':>3}  {'option':<{width}}  {'expected':>8}  {'loss':>6}")
    for i, o in enumerate(options, start=1):
        print(f"  {i:>3}  {o.text:<{width}}  {o.value:>8.2f}  {o.loss:>6.2f}")
    if len(options) < len(advice.options):
        print(f"  ... {len(advice.options) - len(options)} more (--all shows every option)")
    return 0
