"""``yatzy verify RECORD``: check a finished game's dice against its commitment."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def add_parser(sub: Any) -> None:
    """Register the subcommand."""
    p = sub.add_parser(
        "verify",
        help="check that every die of a finished game came from its committed seed",
        description="Reads a finished game's record (JSON, as the web app's download or "
        "'yatzy play --save' writes it) with its dice block, checks that the revealed seed "
        "has the SHA-256 the game showed before its first roll, and recomputes every die "
        "from the seed and the players' contributions (docs/fair-dice.md gives the "
        "function).  Exit 0: every die matches; 1: the first die or the seed that differs "
        "is named; 2: the record cannot be checked (not a record, no dice block, a score "
        "pad, the seed not revealed yet).",
    )
    p.add_argument("record", metavar="RECORD.json", help="the game record ('-': standard input)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Verify and say so in one line."""
    from yatzy.errors import RecordError
    from yatzy.game.fair_dice import DiceMismatchError, verify_record

    text = _read(args.record)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{args.record} is not JSON (line {exc.lineno}): {exc.msg}") from None
    try:
        verified = verify_record(data)
    except DiceMismatchError as exc:
        if args.json:
            print(json.dumps({"ok": False, "where": exc.where, "error": str(exc)}))
        else:
            print(f"NOT VERIFIED: {exc}")
        return 1
    if args.json:
        print(
            json.dumps(
                {
                    "ok": True,
                    "commitment": verified.commitment,
                    "dice": verified.dice,
                    "mode": verified.mode,
                }
            )
        )
    else:
        print(
            f"verified: all {verified.dice} dice come from the seed of commitment "
            f"{verified.commitment}"
        )
    return 0


def _read(path: str) -> str:
    from yatzy.errors import RecordError

    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not a game record (not UTF-8 text)") from None
