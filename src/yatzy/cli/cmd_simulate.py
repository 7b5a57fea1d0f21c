"""``yatzy simulate SPEC --bot NAME --games N``: a bot's score distribution."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from yatzy.bots import BOT_LEVELS
from yatzy.cli.common import rules_arg
from yatzy.cli.i18n import level_from_word
from yatzy.errors import YatzyError


def add_parser(sub: Any) -> None:
    """Register the subcommand."""
    p = sub.add_parser(
        "simulate",
        help="play many solitaire games of a bot and summarise the scores",
        description="Plays N solitaire games of a bot on both cores and prints the mean, "
        "standard deviation, percentiles, bonus rate and Yatzy rate; --plot draws the "
        "histogram of the final scores as a PNG.  A seed makes the run reproducible.",
    )
    p.add_argument("spec", help="rules spec, e.g. yatzy or maxi+saved_rolls")
    p.add_argument(
        "--bot",
        default="optimal",
        help=f"bot level (default optimal): {', '.join(BOT_LEVELS)}, or a level's name "
        "in Swedish or Finnish (lagom, tavallinen)",
    )
    p.add_argument("--games", default="1000", help="number of games (default 1000)")
    p.add_argument("--seed", default=None, help="random seed (default: a fresh one, printed)")
    p.add_argument("--plot", metavar="FILE.png", help="write a histogram of the scores")
    p.add_argument("--workers", default=None, help="processes to use (default: every core)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--no-progress", action="store_true", help="never show a progress bar")
    p.set_defaults(run=run)


def _count(value: str | None, what: str, low: int) -> int | None:
    if value is None:
        return None
    try:
        n = int(value)
    except ValueError:
        raise YatzyError(f"{what} {value!r} is not a whole number") from None
    if n < low:
        raise YatzyError(f"{what} {n} is less than {low}")
    return n


def run(args: argparse.Namespace) -> int:
    """Run the simulation and print its summary."""
    from yatzy.strategy.simulate import simulate

    rules = rules_arg(args.spec)
    # A level's id or its name in any language, as `yatzy play --bot` takes it ("lagom").
    level = level_from_word(args.bot)
    if level is None or level not in BOT_LEVELS:
        raise YatzyError(f"unknown bot {args.bot!r}; valid: {', '.join(BOT_LEVELS)}")
    games = _count(args.games, "games", 1)
    assert games is not None
    seed = _count(args.seed, "seed", 0)
    workers = _count(args.workers, "workers", 1)
    if args.plot:
        from yatzy.strategy.plot import check_plot_path

        check_plot_path(args.plot)
    progress = not args.no_progress and sys.stderr.isatty()
    result = simulate(rules, level, games, seed=seed, workers=workers, progress=progress)
    if args.plot:
        from yatzy.strategy.plot import save_histogram

        save_histogram(result, args.plot)
    if args.json:
        print(json.dumps(result.summary()))
        return 0
    s = result.summary()
    print(
        f"{s['rules']}, bot {s['bot']}: {s['games']:,} games in {s['seconds']:.2f} s "
        f"({s['games_per_second']:,.0f} games/s), seed {s['seed']}"
    )
    if result.note:
        print(f"note: {result.note}")
    print(f"mean {result.mean:.2f} (95 % sure within {1.96 * result.stderr:.2f} of the true mean)")
    # the spread in words: "sd" alone was jargon (issue 24)
    print(
        f"spread: a game typically {result.sd:.2f} from the mean (standard deviation); "
        f"min {s['min']}, max {s['max']}"
    )
    print("percentiles: " + "  ".join(f"{p}% {v:g}" for p, v in result.percentiles().items()))
    print(f"bonus rate {result.bonus_rate:.1%}  yatzy rate {result.yatzy_rate:.1%}")
    if args.plot:
        print(f"histogram written to {args.plot}")
    return 0
