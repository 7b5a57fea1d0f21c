"""The keys of the full-screen game: which letter chooses which box.

Boxes get letters in protocol order, as in the web app, except the letters that
are commands here: ``h`` (hint), ``q`` (quit), ``r`` (roll), ``u`` (undo) and
``x`` (scratch).  Maxi Yatzy's 20 boxes fit in the 21 letters left.  Pure data,
no Textual: the tests and the help text read it too.
"""

from __future__ import annotations

from yatzy.rules import RuleSet

COMMAND_KEYS = frozenset("hqrux")
"""Letters that are commands, never a box."""

BOX_KEYS = "".join(c for c in "abcdefghijklmnopqrstuvwxyz" if c not in COMMAND_KEYS)
"""The letters of the boxes, in protocol order."""


def box_letter(rules: RuleSet, box: str) -> str:
    """The (upper-case) letter that chooses ``box``; empty when the boxes outnumber them."""
    index = rules.box_index[box]
    return BOX_KEYS[index].upper() if index < len(BOX_KEYS) else ""


def box_for_key(rules: RuleSet, key: str) -> str | None:
    """The box a letter key chooses, or ``None`` when the key names no box."""
    key = key.lower()
    if len(key) != 1 or key not in BOX_KEYS:
        return None
    index = BOX_KEYS.index(key)
    return rules.boxes[index] if index < len(rules.boxes) else None
