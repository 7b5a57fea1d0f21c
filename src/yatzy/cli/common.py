"""Helpers shared by the subcommands: spec and dice arguments, languages."""

from __future__ import annotations

import argparse

from yatzy.errors import DiceError
from yatzy.rules import LANGUAGES, RuleSet, parse_faces


def add_lang(parser: argparse.ArgumentParser) -> None:
    """Add ``--lang sv|fi|en``."""
    parser.add_argument(
        "--lang", choices=LANGUAGES, default="en", help="language of names shown (default en)"
    )


def parse_dice(words: list[str]) -> list[int]:
    """Read dice from words like ``3 3 4``, ``334``, ``3,3,4`` or ``3-3-4`` (checked
    faces; a sign or a stray dash is refused, see :func:`yatzy.rules.parse_faces`)."""
    for word in words:
        if not word.strip():
            raise DiceError(f"empty die {word!r}")
    return parse_faces(" ".join(words))


def rules_arg(spec: str) -> RuleSet:
    """Parse a rules spec from the command line."""
    return RuleSet.parse(spec)
