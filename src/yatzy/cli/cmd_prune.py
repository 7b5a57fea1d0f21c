"""``yatzy prune``: delete unfinished games nobody touched for a while."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(sub: Any) -> None:
    """Register the subcommand."""
    p = sub.add_parser(
        "prune",
        help="delete abandoned (unfinished, untouched) games from the web store",
        description="Delete the unfinished games of the web app's database whose last "
        "action or claimed seat is more than --days days old, with their seats and "
        "moves.  Finished games (history, solo records) are kept.  'yatzy serve' does "
        "the same every hour (--retention-days).",
    )
    p.add_argument(
        "--days",
        type=float,
        default=30.0,
        help="untouched for more than this many days (default 30)",
    )
    p.add_argument(
        "--database-url",
        default=None,
        help="sqlite:///FILE or postgresql://USER@HOST/DB (default: yatzy.db in the "
        "user data directory, as 'yatzy serve')",
    )
    p.add_argument(
        "--dry-run", action="store_true", help="only count the games that would be deleted"
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Prune, and say how many games went (or would go)."""
    from yatzy.store import GameRepository
    from yatzy.store.retention import cutoff_of, prune

    cutoff_of(args.days)  # refuse a bad --days before touching the database
    # An explicit URL must name a database that exists: `stats` and `prune` read, and a
    # mistyped file name must not leave an empty database behind.
    repo = GameRepository.open(args.database_url, must_exist=args.database_url is not None)
    try:
        pruned = prune(repo, args.days, dry_run=args.dry_run)
    finally:
        repo.close()
    when = pruned.cutoff.strftime("%Y-%m-%d %H:%M UTC")
    verb = "would delete" if pruned.dry_run else "deleted"
    print(f"yatzy prune: {verb} {pruned.games} unfinished games untouched since {when}")
    return 0
