"""``yatzy stats``: this computer's statistics per rule set, terminal and web games."""

from __future__ import annotations

import argparse
import json
from typing import Any

from yatzy.cli.common import add_lang
from yatzy.i18n import N_, Language

_HEAD = (
    N_("cli.stats.head.rules", "Rules"),
    N_("cli.stats.head.games", "Games"),
    N_("cli.stats.head.average", "Average"),
    N_("cli.stats.head.best", "Best"),
    N_("cli.stats.head.bonus", "Bonus"),
    N_("cli.stats.head.yatzy", "Yatzy"),
    N_("cli.stats.head.solo_record", "Solo record"),
)
_NONE = N_("cli.stats.none", "No finished games yet: 'yatzy play' keeps every finished game here.")


def add_parser(sub: Any) -> None:
    """Register the subcommand."""
    p = sub.add_parser(
        "stats",
        help="your statistics per rule set (terminal and web games of this computer)",
        description="Games played, average and best final score, how often the upper bonus "
        "and a Yatzy were scored, and the solo record, per rule set, over the finished "
        "games of this computer's owner: every game 'yatzy play' finished, and the web "
        "games of a browser that opened the link 'yatzy serve' prints.",
    )
    add_lang(p)
    p.add_argument("--json", action="store_true", help="print the statistics as JSON")
    p.add_argument(
        "--database-url",
        default=None,
        help="sqlite:///FILE or postgresql://USER@HOST/DB (default: yatzy.db in the "
        "user data directory, as 'yatzy serve' and 'yatzy play')",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Read the owner's finished games and print the statistics."""
    from yatzy.analysis.history import stats
    from yatzy.store import GameRepository
    from yatzy.store.local import local_owner, owner_hash
    from yatzy.store.stats import finished_games_of

    lang: Language = args.lang
    # An explicit URL must name a database that exists: `stats` and `prune` read, and a
    # mistyped file name must not leave an empty database behind.
    repo = GameRepository.open(args.database_url, must_exist=args.database_url is not None)
    try:
        figures = stats(finished_games_of(repo, owner_hash(local_owner())), lang)
    finally:
        repo.close()
    if args.json:
        print(json.dumps(figures, ensure_ascii=False, indent=2))
        return 0
    rows = figures["variants"]
    if not rows:
        print(_NONE[lang])
        return 0
    head = tuple(words[lang] for words in _HEAD)
    table = [head] + [
        (
            r["rules_text"],
            str(r["games"]),
            f"{r['average']:.1f}",
            str(r["best"]),
            f"{r['bonus_rate'] * 100:.0f} %",
            f"{r['yatzy_rate'] * 100:.0f} %",
            "" if r["solo_record"] is None else str(r["solo_record"]),
        )
        for r in rows
    ]
    widths = [max(len(row[i]) for row in table) for i in range(len(head))]
    for row in table:
        cells = [row[0].ljust(widths[0])] + [
            c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)
        ]
        print("  ".join(cells).rstrip())
    return 0
