"""``yatzy solve SPEC``: the optimal expected score of a rule set (solitaire).

Builds the solver's value table, or loads it from the user's cache directory, and
prints the expected final score at the start of a game under optimal play.
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
        "Supported: yatzy and yahtzee with every option, maxi with every option but "
        "saved_rolls=all (saved_rolls=next is solved with the carried rolls in the state).",
    )
    p.add_argument("spec", help="rules spec, e.g. yatzy or yahtzee+joker=free")
    p.add_argument(
        "--json",
        action="store_true",
        help='print {"rules": SPEC, "expected_score": X, "seconds": S}',
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
