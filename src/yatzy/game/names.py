"""Player names: the one check every front end (web, terminal, import) goes through.

A name is shown on every page, printed on protocols and written into spreadsheets,
so it must be plain printable text: no control characters (they corrupt terminals,
XML and therefore Excel files), no lone surrogates (they cannot be encoded as UTF-8
at all), no bidirectional overrides or isolates (they reorder the text around them,
the "Trojan Source" trick), and no invisible format characters that make two names
look the same.
"""

from __future__ import annotations

import unicodedata

from yatzy.errors import YatzyError

MAX_NAME = 40
"""The longest name, in characters (the web form's ``maxlength``)."""

# Format characters (category Cf) that real names need: the zero-width joiner and
# non-joiner shape Indic and Persian script and emoji sequences.  Every other format
# character (bidi controls, zero-width space, word joiner, BOM, soft hyphen, ...)
# is invisible in a name and is refused.
_ALLOWED_FORMAT = frozenset("\u200c\u200d")


# U+202A-202E and U+2066-2069: embeddings, overrides and isolates
_BIDI_CONTROLS = frozenset(["LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"])


class BadNameError(YatzyError):
    """A player name that is empty, too long, or holds characters a name may not."""


def character_fault(ch: str) -> str | None:
    """Why ``ch`` may not be in a name (or any plain text a person writes for others
    to read: a game's free text), or None when it may."""
    category = unicodedata.category(ch)
    if category == "Cc":
        return f"control character U+{ord(ch):04X}"
    if category == "Cs":
        return f"lone surrogate U+{ord(ch):04X}"
    if category == "Co" or category == "Cn":
        return f"unassigned or private-use character U+{ord(ch):04X}"
    if category == "Cf" and ch not in _ALLOWED_FORMAT:
        if unicodedata.bidirectional(ch) in _BIDI_CONTROLS:
            return f"bidirectional control U+{ord(ch):04X}"
        return f"invisible format character U+{ord(ch):04X}"
    if category in ("Zl", "Zp"):
        return f"line separator U+{ord(ch):04X}"
    return None


def check_name(name: object) -> str:
    """``name`` trimmed, if it is an acceptable player name; else :class:`BadNameError`.

    Acceptable: a string of printable characters (letters, marks, digits,
    punctuation, symbols, spaces), not empty after trimming surrounding white space,
    at most :data:`MAX_NAME` characters.  Runs of inner white space are kept as
    they are; tabs and newlines are control characters and refused.
    """
    if not isinstance(name, str):
        raise BadNameError(f"a player name is text, not {name!r}")
    for ch in name:
        fault = character_fault(ch)
        if fault is not None:
            raise BadNameError(f"player name {name!r} holds a {fault}")
    trimmed = name.strip()
    if not trimmed:
        raise BadNameError(f"player name {name!r} is empty")
    if len(trimmed) > MAX_NAME:
        raise BadNameError(
            f"player name {trimmed[:MAX_NAME]!r}... is longer than {MAX_NAME} characters"
        )
    return trimmed
