"""``yatzy solve SPEC``: the optimal expected score of a rule set (solitaire).

Builds the solver's value table, or loads it from the user's cache directory, and
prints the expected final score at the start of a game under optimal play.  With
``--target T`` it builds (or loads) the target table instead and prints the highest
probability of a final Total of at least T.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from yatzy.rules import RuleSet


def add_parser(sub: Any) -> None:
    """Register the subcommand."""
    p = sub.add_parser(
        "solve",
        help="optimal expected score of a rule set (builds or loads the strategy table)",
        description="Solve one player's sheet exactly (maximum expected final score) and "
        "print the expected score at the start of a game.  The table is cached in the "
        "user's cache directory ($XDG_CACHE_HOME/yatzy) and loaded from there next time.  "
        "Supported: yatzy and yahtzee with every option, maxi with every option "
        "(saved_rolls=next and saved_rolls=all with the saved rolls in the state).  "
        "maxi+saved_rolls (rolls accumulate) takes tens of CPU minutes and a 3.2 GiB table; "
        "play, advice and bots use it once built and an approximate strategy until then.",
    )
    p.add_argument("spec", help="rules spec, e.g. yatzy or yahtzee+joker=free")
    p.add_argument(
        "--json",
        action="store_true",
        help='print {"rules": SPEC, "expected_score": X, "seconds": S}',
    )
    p.add_argument(
        "--target",
        metavar="T",
        help="print the highest probability of a final Total >= T (target play; builds the "
        'target table, minutes the first time; --json: {"rules", "target", "probability", '
        '"seconds"}); yatzy and yahtzee only',
    )
    p.add_argument(
        "--dtype",
        choices=("float32", "float64"),
        default="float32",
        help="float type of the table (default float32: half the memory, same 4 decimals)",
    )
    p.add_argument(
        "--no-cache", action="store_true", help="solve from scratch and do not store the table"
    )
    p.add_argument(
        "--quiet",
        action="store_true",
        help="no progress bar (there is none either when stderr is not a terminal)",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Build or load the table and print the expected score."""
    rules = RuleSet.parse(args.spec)
    if args.target is not None:
        return _run_target(args, rules)
    from yatzy.solver import Solver, check_supported

    check_supported(rules)  # a clear error before any numeric work
    solver = Solver(rules, dtype=args.dtype, use_cache=not args.no_cache, progress=not args.quiet)
    score = solver.expected_score
    if args.json:
        out = {"rules": rules.spec, "expected_score": score, "seconds": round(solver.seconds, 3)}
        print(json.dumps(out))
        return 0
    how = "loaded from cache" if solver.from_cache else "solved"
    print(f"{rules.spec}: optimal expected score {score:.4f} ({how} in {solver.seconds:.2f} s)")
    return 0


def _run_target(args: argparse.Namespace, rules: RuleSet) -> int:
    """``--target T``: the chance of a final Total >= T from an empty sheet."""
    from yatzy.errors import YatzyError

    try:
        target = int(args.target)
    except ValueError:
        raise YatzyError(f"--target {args.target!r} is not a whole number") from None
    if target < 0:
        raise YatzyError(f"--target {target} is negative")
    from yatzy.solver.target import TargetTable, check_target_supported

    check_target_supported(rules)  # a clear error before any numeric work
    table = TargetTable(
        rules, dtype=args.dtype, use_cache=not args.no_cache, progress=not args.quiet
    )
    probability = table.start_probability(target)
    if args.json:
        out = {
            "rules": rules.spec,
            "target": target,
            "probability": probability,
            "seconds": round(table.seconds, 3),
        }
        print(json.dumps(out))
        return 0
    how = "loaded from cache" if table.from_cache else "solved"
    print(
        f"{rules.spec}: P(final total >= {target}) = {probability:.6f} with target play "
        f"({probability * 100:.2f} %; table {how} in {table.seconds:.2f} s)"
    )
    return 0
