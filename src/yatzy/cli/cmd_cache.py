"""``yatzy cache [list|clear]``: the solver's tables on disk, their size and last use,
the disk budget, and clearing them (all, or a rule set's).

Reads only the tables' descriptions (:mod:`yatzy.table_cache`): no numpy, no numba,
so it answers at once even when the cache holds gigabytes.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from yatzy.cli.common import add_lang
from yatzy.i18n import N_, Language
from yatzy.rules import LANGUAGES

_TEXTS = {
    "head": N_("cli.cache.head", "Solver tables in {folder}:"),
    "rules": N_("cli.cache.rules", "Rules"),
    "table": N_("cli.cache.table", "Table"),
    "size": N_("cli.cache.size", "Size"),
    "used": N_("cli.cache.used", "Last used"),
    "whole": N_("cli.cache.whole", "whole game"),
    "part": N_("cli.cache.part", "part of a game (open boxes: {boxes})"),
    "target": N_("cli.cache.target", "target chances"),
    "total": N_("cli.cache.total", "{count} tables, {size} of the budget {budget} ({source})."),
    "no_limit": N_("cli.cache.no_limit", "no limit"),
    "default": N_("cli.cache.default", "default; set YATZY_CACHE_BUDGET to change it"),
    "empty": N_(
        "cli.cache.empty",
        "No tables yet: they are built when a bot, a hint or the chances need them.",
    ),
    "temporary": N_(
        "cli.cache.temporary", "{count} half-written files left by stopped builds ({size})."
    ),
    "cleared": N_("cli.cache.cleared", "Deleted {count} tables ({size})."),
    "would_clear": N_("cli.cache.would_clear", "Would delete {count} tables ({size})."),
    "none_of": N_("cli.cache.none_of", "No table of {specs} in the cache."),
}


def add_parser(sub: Any) -> None:
    """Register the subcommand (imports nothing heavy)."""
    p = sub.add_parser(
        "cache",
        help="list or clear the solver's tables on disk (size, last use, disk budget)",
        description="The solver's tables on disk ($XDG_CACHE_HOME/yatzy/solver): each "
        "table's rules, what it holds, its size and when it was last used, and the disk "
        "budget.  Every program that stores tables (play, solve, the bots, serve) keeps "
        "the cache within the budget, set by the environment variable YATZY_CACHE_BUDGET "
        "(e.g. 4G, 500M or none; default 4G), by deleting the tables used least recently. "
        "'yatzy cache clear' deletes every table, or those of the rule sets named; a "
        "deleted table is built again when it is needed.",
    )
    add_lang(p)
    actions = p.add_subparsers(dest="action", metavar="ACTION")
    listing = actions.add_parser("list", help="list the tables (the default)")
    listing.add_argument("--json", action="store_true", help="print the list as JSON")
    _lang_again(listing)
    clear = actions.add_parser("clear", help="delete every table, or those of the rule sets named")
    clear.add_argument(
        "specs", nargs="*", metavar="SPEC", help="only the tables of these rules (e.g. maxi)"
    )
    clear.add_argument("--dry-run", action="store_true", help="only say what would be deleted")
    _lang_again(clear)
    p.set_defaults(run=run, json=False)


def _lang_again(parser: argparse.ArgumentParser) -> None:
    # --lang after the action too; without it there, the one before the action stands.
    parser.add_argument(
        "--lang", choices=LANGUAGES, default=argparse.SUPPRESS, help="language of the words"
    )


def run(args: argparse.Namespace) -> int:
    """List the tables, or clear them."""
    if args.action == "clear":
        return _clear(args.specs, args.dry_run, args.lang)
    return _list(args.json, args.lang)


def _list(as_json: bool, lang: Language) -> int:
    from yatzy.table_cache import budget, cache_dir, size_text, tables, temporaries

    limit, source = budget()
    found = tables()
    total = sum(t.size for t in found)
    if as_json:
        out = {
            "folder": str(cache_dir()),
            "budget": limit,
            "budget_source": source,
            "size": total,
            "tables": [
                {
                    "spec": t.spec,
                    "kind": t.kind,
                    "boxes": t.boxes,
                    "size": t.size,
                    "last_used": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(t.last_used)),
                    "files": [str(f) for f in t.files],
                }
                for t in found
            ],
        }
        print(json.dumps(out, ensure_ascii=False, indent=2))
        return 0
    print(_TEXTS["head"][lang].format(folder=cache_dir()))
    if not found:
        print(_TEXTS["empty"][lang])
    else:
        head = tuple(_TEXTS[k][lang] for k in ("rules", "table", "size", "used"))
        rows = [head] + [
            (
                t.spec,
                _TEXTS[t.kind][lang].format(boxes=t.boxes),
                size_text(t.size),
                time.strftime("%Y-%m-%d %H:%M", time.localtime(t.last_used)),
            )
            for t in found
        ]
        widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
        for row in rows:
            cells = [row[0].ljust(widths[0]), row[1].ljust(widths[1])]
            cells += [row[2].rjust(widths[2]), row[3]]
            print("  ".join(cells).rstrip())
    shown_budget = _TEXTS["no_limit"][lang] if limit is None else size_text(limit)
    shown_source = _TEXTS["default"][lang] if source == "default" else source
    print(
        _TEXTS["total"][lang].format(
            count=len(found), size=size_text(total), budget=shown_budget, source=shown_source
        )
    )
    left = temporaries()
    if left:
        size = sum(p.stat().st_size for p in left if p.exists())
        print(_TEXTS["temporary"][lang].format(count=len(left), size=size_text(size)))
    return 0


def _clear(specs: list[str], dry_run: bool, lang: Language) -> int:
    from yatzy.rules import RuleSet
    from yatzy.table_cache import remove, size_text, tables, temporaries

    wanted = {RuleSet.parse(spec).spec for spec in specs}  # a bad spec: one line, exit 2
    chosen = [t for t in tables() if not wanted or t.spec in wanted]
    if wanted and not chosen:
        print(_TEXTS["none_of"][lang].format(specs=", ".join(sorted(wanted))))
        return 0
    size = sum(t.size for t in chosen)
    if dry_run:
        print(_TEXTS["would_clear"][lang].format(count=len(chosen), size=size_text(size)))
        return 0
    freed = sum(remove(t) for t in chosen)
    if not wanted:  # clearing everything takes the leftovers of stopped builds too
        for path in temporaries():
            path.unlink(missing_ok=True)
    print(_TEXTS["cleared"][lang].format(count=len(chosen), size=size_text(freed)))
    return 0
