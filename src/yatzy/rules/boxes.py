"""Reading a box from what a person typed: the one matcher every front end uses.

Accepted (RULES.md): a box id (``full_house``), its number in the protocol
(1-based, in protocol order, as the terminal numbers the rows), its full name in
any language or any accepted spelling (case and runs of spaces ignored), or an
unambiguous start of its name in the game's language.  Refused, never guessed:
an empty string, a string that could mean two boxes, and one that would match only
after dropping characters (``1.``, ``-1``, ``kak`` for Kåk) — the error lists
the boxes it comes close to.
"""

from __future__ import annotations

import re
import unicodedata

from yatzy.errors import AmbiguousBoxError, UnknownBoxError
from yatzy.rules.categories import CATEGORIES, Language
from yatzy.rules.ruleset import RuleSet


def _normal(text: str) -> str:
    """Case folded, runs of white space as one space, no space at the ends."""
    return " ".join(text.casefold().split())


def _squeezed(text: str) -> str:
    """Only the letters and digits, without accents: what a guessing matcher would
    compare (used to name the close candidates of a refused string, never to accept)."""
    plain = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in plain if c.isalnum() and not unicodedata.combining(c))


def _describe(rules: RuleSet, boxes: list[str] | tuple[str, ...], lang: Language) -> str:
    return ", ".join(f"{rules.box_name(b, lang)} ({rules.box_index[b] + 1}, {b})" for b in boxes)


def match_box(rules: RuleSet, text: str, lang: Language = "en") -> str:
    """The box id of ``rules`` that ``text`` names, for a game played in ``lang``.

    Raises :class:`~yatzy.errors.AmbiguousBoxError` when ``text`` could mean
    several boxes and :class:`~yatzy.errors.UnknownBoxError` when it names none;
    both quote ``text`` and carry the candidate box ids.
    """
    if not isinstance(text, str):
        raise UnknownBoxError(f"a box is named by a string, not {text!r}", text=repr(text))
    boxes = rules.boxes
    key = _normal(text)
    if not key:
        raise UnknownBoxError(
            f"empty box name {text!r}; give a box's number 1-{len(boxes)}, id or name",
            text=text,
            candidates=boxes,
        )
    if re.fullmatch(r"[0-9]+", key):
        number = int(key)
        if 1 <= number <= len(boxes):
            return boxes[number - 1]
        raise UnknownBoxError(
            f"no box number {text!r} in {rules.spec}: the boxes are 1-{len(boxes)}",
            text=text,
        )
    exact = [
        b for b in boxes if key == b or any(key == _normal(n) for n in CATEGORIES[b].spellings())
    ]
    if len(exact) == 1:
        return exact[0]
    if exact:
        raise AmbiguousBoxError(
            f"box {text!r} could be {_describe(rules, exact, lang)}",
            text=text,
            candidates=tuple(exact),
        )
    starts = [b for b in boxes if _normal(rules.box_name(b, lang)).startswith(key)]
    if len(starts) == 1:
        return starts[0]
    if starts:
        raise AmbiguousBoxError(
            f"box {text!r} could be {_describe(rules, starts, lang)}; write more of the name",
            text=text,
            candidates=tuple(starts),
        )
    close = _close_boxes(rules, text, lang)
    hint = f"; did you mean {_describe(rules, close, lang)}?" if close else ""
    raise UnknownBoxError(
        f"no box {text!r} in {rules.spec}: give its number 1-{len(boxes)}, "
        f"its id or its name{hint}",
        text=text,
        candidates=close,
    )


def _close_boxes(rules: RuleSet, text: str, lang: Language) -> tuple[str, ...]:
    """The boxes ``text`` would match if characters were dropped (refused, only named)."""
    key = _squeezed(text)
    if not key:
        return ()
    out = []
    for number, box in enumerate(rules.boxes, start=1):
        whole = [box, str(number), *CATEGORIES[box].spellings()]
        if key in map(_squeezed, whole) or _squeezed(rules.box_name(box, lang)).startswith(key):
            out.append(box)
    return tuple(out)
