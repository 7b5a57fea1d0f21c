"""``yatzy protocol SPEC --format pdf|xlsx -o FILE``: a blank protocol to print or fill in."""

from __future__ import annotations

import argparse
from typing import Any

from yatzy.cli.common import add_lang


def add_output(p: argparse.ArgumentParser) -> None:
    """Add ``--format``, ``-o`` and ``--force`` (shared with ``yatzy export``)."""
    p.add_argument(
        "--format",
        choices=("pdf", "xlsx"),
        help="pdf (to print) or xlsx (Excel with formulas); default: from the file name",
    )
    p.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="FILE",
        help="the file to write ('-' for standard output)",
    )
    p.add_argument("--force", action="store_true", help="overwrite FILE if it exists")


def add_parser(sub: Any) -> None:
    """Register the subcommand."""
    p = sub.add_parser(
        "protocol",
        help="write a blank protocol (PDF to print, Excel with formulas)",
        description="A blank protocol for any rule set: the boxes in protocol order, Sum, "
        "Bonus with its threshold, Bonus par, Total (and Extra, Final for DubbelYatzy), one "
        "column per player.  The PDF has one A4 page per six players; the Excel file "
        "computes the sums, the bonus and the winner and accepts only possible scores.",
    )
    p.add_argument("spec", help="rules spec, e.g. yatzy or maxi+saved_rolls")
    p.add_argument(
        "--players", nargs="+", metavar="NAME", default=[], help="player names, one column each"
    )
    p.add_argument(
        "--columns",
        type=int,
        metavar="N",
        help="number of player columns (default: one per player, or 4)",
    )
    add_output(p)
    add_lang(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Write the blank protocol."""
    from yatzy.protocols import Protocol, write_protocol
    from yatzy.protocols.files import pick_format
    from yatzy.rules import RuleSet

    fmt = pick_format(args.format, args.output)
    rules = RuleSet.parse(args.spec)
    protocol = Protocol.blank(rules, args.players, args.columns, args.lang)
    write_protocol(protocol, fmt, args.output, force=args.force)
    return 0
