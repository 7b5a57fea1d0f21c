"""Reading and writing dice as people type them: the one notation of every front end.

Faces are written separated by spaces or commas (``3 3 3 6 6``, ``3,3,3,6,6``), as
one run of digits (``33366``) or joined by single dashes (``3-3-3-6-6``, the rule
sheets' way).  Nothing is guessed: a sign (``-1``, ``+2``), a dash at either end or
doubled, an empty place between commas, a face outside 1-6 or any other character
is refused with the text quoted.

A double die (DubbelYatzy) is written **inner first**, ``inner/outer`` — the
order the web page shows ("◦ inner ● outer") and the terminal's ``s INNER OUTER``
takes: per die (``3/6 2/5 ...``) or as two layers (``543221/664333``, the inner
faces, a slash, the outer faces).  Internally a double die stays ``(outer, inner)``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from yatzy.errors import DiceError
from yatzy.rules.ruleset import RuleSet

DoubleDie = tuple[int, int]
"""A DubbelYatzy die inside the library: ``(outer, inner)``."""

_TOKEN = re.compile(r"[0-9]+|[0-9](?:-[0-9])+")


def parse_faces(text: str) -> list[int]:
    """Read faces 1-6 from ``text`` in any of the documented forms (checked)."""
    if not isinstance(text, str):
        raise DiceError(f"dice are written as text, not {text!r}")
    faces: list[int] = []
    for word in text.split():
        for part in word.split(","):
            if not part:
                raise DiceError(f"an empty place between commas in {word!r}")
            if not _TOKEN.fullmatch(part):
                raise DiceError(f"die {part!r} is not a face 1-6 (write e.g. 3 3 4 5 6)")
            for c in part.replace("-", ""):
                if not "1" <= c <= "6":
                    where = "" if part == c else f" in {part!r}"
                    raise DiceError(f"die {c!r}{where} is not a face 1-6")
                faces.append(int(c))
    if not faces:
        raise DiceError(f"no dice in {text!r}")
    return faces


def parse_dice(rules: RuleSet, text: str) -> list[int] | list[DoubleDie]:
    """The dice of one roll of ``rules`` read from ``text``: faces, or for DubbelYatzy
    double dice written inner first (``inner/outer`` per die, or two layers ``INNER/OUTER``).
    Their number is checked against the rule set."""
    if not rules.double:
        return list(rules.check_dice(parse_faces(text)))
    words = text.split()
    if len(words) > 1 and all("/" in w for w in words):
        pairs = []
        for w in words:
            inner_text, _, outer_text = w.partition("/")
            inner, outer = parse_faces(inner_text), parse_faces(outer_text)
            if len(inner) != 1 or len(outer) != 1:
                raise DiceError(f"double die {w!r} is not inner/outer, e.g. 3/6")
            pairs.append((outer[0], inner[0]))
        if len(pairs) != rules.num_dice:
            raise DiceError(f"{rules.variant} needs {rules.num_dice} double dice, got {len(pairs)}")
        return pairs
    if text.count("/") != 1:
        raise DiceError(
            f"dice {text!r}: DubbelYatzy's double dice are written inner first, as "
            "INNER/OUTER faces (543221/664333) or per die (3/6 2/5 ...)"
        )
    inner_text, _, outer_text = text.partition("/")
    inner_faces = rules.check_dice(parse_faces(inner_text))
    outer_faces = rules.check_dice(parse_faces(outer_text))
    return list(zip(outer_faces, inner_faces, strict=True))


def format_die(die: int | Sequence[int]) -> str:
    """A die as text: ``4``, or a double die ``(outer, inner)`` as ``inner/outer``."""
    if isinstance(die, int):
        return str(die)
    outer, inner = die
    return f"{inner}/{outer}"


def format_dice(dice: Sequence[int | Sequence[int]]) -> str:
    """Dice as text, separated by spaces, double dice inner first."""
    return " ".join(format_die(d) for d in dice)
