"""``yatzy import FILE.xlsx``: a protocol filled in by hand, back into a game record."""

from __future__ import annotations

import argparse
import sys
from typing import IO, Any


def add_parser(sub: Any) -> None:
    """Register the subcommand."""
    p = sub.add_parser(
        "import",
        help="read a hand-filled Excel protocol into a score-pad game record",
        description="Reads an Excel protocol made by 'yatzy protocol' or 'yatzy export' and "
        "filled in by hand, and writes the score-pad game record (JSON).  Every impossible "
        "or missing entry is reported by its cell; nothing is guessed.  Each player's boxes "
        "are taken as filled in protocol order, one round at a time, the first column "
        "starting (see docs/playing.md, On paper: score pad and protocols).",
    )
    p.add_argument("protocol", metavar="FILE.xlsx", help="the filled-in protocol")
    p.add_argument(
        "-o",
        "--output",
        default="-",
        metavar="GAME.json",
        help="where to write the record (default: standard output)",
    )
    p.add_argument("--force", action="store_true", help="overwrite GAME.json if it exists")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Read the protocol and write the record; report every problem by cell."""
    from yatzy.game import dumps
    from yatzy.protocols.files import write_file
    from yatzy.protocols.importer import ProtocolImportError, read_protocol

    try:
        state = read_protocol(args.protocol)
    except ProtocolImportError as exc:
        for problem in exc.problems:
            print(f"yatzy: error: {problem}", file=sys.stderr)
        return 2
    data = (dumps(state) + "\n").encode("utf-8")

    def write(f: IO[bytes]) -> None:
        f.write(data)

    write_file(args.output, write, force=args.force)
    return 0
