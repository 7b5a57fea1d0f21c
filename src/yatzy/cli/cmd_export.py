"""``yatzy export GAME.json --format pdf|xlsx -o FILE``: the protocol of a saved game."""

from __future__ import annotations

import argparse
from typing import Any

from yatzy.cli.cmd_protocol import add_output
from yatzy.cli.common import add_lang


def add_parser(sub: Any) -> None:
    """Register the subcommand."""
    p = sub.add_parser(
        "export",
        help="write the protocol of a saved game (PDF or Excel)",
        description="The protocol of a saved game record, ongoing or finished: every filled "
        "box, scratches as x, the sums, bonus, totals and the winner.",
    )
    p.add_argument("record", metavar="GAME.json", help="a saved game record")
    add_output(p)
    add_lang(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Write the game's protocol."""
    from yatzy.game import load
    from yatzy.protocols import Protocol, write_protocol
    from yatzy.protocols.files import pick_format

    fmt = pick_format(args.format, args.output)
    state = load(args.record)
    write_protocol(Protocol.from_state(state, args.lang), fmt, args.output, force=args.force)
    return 0
