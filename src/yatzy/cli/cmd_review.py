"""``yatzy review``: list the accounts flagged for fair-play review (an operator's
command; the web app never shows a flag, and nothing bans anyone)."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(sub: Any) -> None:
    """Register the subcommand."""
    p = sub.add_parser(
        "review",
        help="list the accounts flagged for fair-play review in rated games",
        description="List the accounts whose rated games matched the solver's best play "
        "more often than people do (docs/ratings.md, 'Fair play'): the family, the "
        "games and decisions reviewed, the share of best plays and how unlikely that "
        "share is for a person.  A flag is a reason to look at the games, not a verdict.",
    )
    p.add_argument(
        "--database-url",
        default=None,
        help="sqlite:///FILE or postgresql://USER@HOST/DB (default: yatzy.db in the "
        "user data directory, as 'yatzy serve')",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the flags, the latest first."""
    from yatzy.store import GameRepository
    from yatzy.store.ratings import RatingStore

    repo = GameRepository.open(args.database_url, must_exist=args.database_url is not None)
    try:
        flags = RatingStore(repo).flags()
    finally:
        repo.close()
    if not flags:
        print("yatzy review: no account is flagged")
        return 0
    print(f"yatzy review: {len(flags)} flagged")
    for f in flags:
        share = 100 * f.best / f.decisions if f.decisions else 0.0
        print(
            f"  {f.name} ({f.account_id}) {f.family}: {f.best}/{f.decisions} best plays "
            f"({share:.1f} %) in {f.games} games, p = {f.p_value:.1e}; "
            f"flagged {f.first_at:%Y-%m-%d}, last {f.last_at:%Y-%m-%d %H:%M} UTC"
        )
    return 0
