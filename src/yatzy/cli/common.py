"""Helpers shared by the subcommands: spec and dice arguments, languages."""

from __future__ import annotations

import argparse

from yatzy.errors import DiceError
from yatzy.rules import LANGUAGES, RuleSet


def add_lang(parser: argparse.ArgumentParser) -> None:
    """Add ``--lang sv|fi|en``."""
    parser.add_argument(
        "--lang", choices=LANGUAGES, default="en", help="language of names shown (default en)"
    )


def parse_dice(words: list[str]) -> list[int]:
    """Read dice from words like ``3 3 4`` or ``334`` or ``3,3,4`` (checked faces)."""
    dice: list[int] = []
    for word in words:
        for part in word.replace(",", " ").replace("-", " ").split():
            chunks = list(part) if part.isdigit() and len(part) > 1 else [part]
            for c in chunks:
                try:
                    d = int(c)
                except ValueError:
                    raise DiceError(f"die {c!r} is not a number") from None
                if not 1 <= d <= 6:
                    raise DiceError(f"die {d} is not in 1-6")
                dice.append(d)
    return dice


def rules_arg(spec: str) -> RuleSet:
    """Parse a rules spec from the command line."""
    return RuleSet.parse(spec)
