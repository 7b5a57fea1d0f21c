"""Reading the line mode's commands: words, boxes, dice and DubbelYatzy's pairs.

What a player types at the prompt of ``yatzy play --plain`` (``k 1 3``, ``v 5 5``,
``s full house``, ``s ettor x tvåor``) turned into the core's values, with every
refusal a :class:`PromptError` in the game's language.  No state is changed here:
:class:`yatzy.cli.play_session.PlaySession` applies what these return.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Sequence

from yatzy.cli.i18n import join_names, tr
from yatzy.errors import (
    AmbiguousBoxError,
    UnknownBoxError,
    YatzyError,
)
from yatzy.game import Die, Score, Scratch
from yatzy.game.actions import Entry
from yatzy.rules import Language, RuleSet, match_box

# Command words: English ones work in every language.
COMMANDS: dict[str, tuple[str, ...]] = {
    "roll": ("r", "roll", "slå", "sla", "heitä", "heita"),
    "keep": ("k", "keep", "behåll", "behall", "pidä", "pida"),
    "value": ("v", "value", "värde", "varde", "arvo"),
    "score": ("s", "score", "skriv", "kirjaa"),
    "scratch": ("x", "scratch", "stryk", "viivaa", "yliviivaa"),
    "help": ("?", "h", "help", "hjälp", "hjalp", "ohje", "apua"),
    "hint": ("hint", "tips", "ledtråd", "ledtrad", "vihje"),
    "analysis": ("a", "analysis", "analyse", "analys", "analyysi"),
    "save": ("save", "spara", "tallenna"),
    "undo": ("u", "undo", "ångra", "angra", "kumoa"),
    "quit": ("q", "quit", "exit", "avsluta", "lopeta"),
}
"""Each command and the words that name it (English ones work in every language)."""
WORD_TO_COMMAND = {w: cmd for cmd, words in COMMANDS.items() for w in words}
"""A typed word (casefolded) to its command."""
ALL_WORDS = ("all", "a", "alla", "kaikki")
"""``k all``: keep every die, in English, Swedish and Finnish."""


class PromptError(YatzyError):
    """A command at the prompt that cannot be carried out (shown, then asked again)."""


class BoxResolver:
    """Finds a box from what a player types, through the library's one matcher
    (:func:`yatzy.rules.match_box`: number, id, full name in any language, or an
    unambiguous start of a name in the game's language; never a guess), with its
    refusals told in the game's language."""

    def __init__(self, rules: RuleSet, lang: Language) -> None:
        self.rules = rules
        self.lang = lang

    def resolve(self, text: str) -> str:
        """The box id ``text`` names (raises :class:`PromptError`)."""
        rules, lang = self.rules, self.lang
        try:
            return match_box(rules, text, lang)
        except AmbiguousBoxError as exc:
            names = ", ".join(rules.box_name(b, lang) for b in exc.candidates)
            raise PromptError(tr("ambiguous_box", lang, text=text.strip(), choices=names)) from None
        except UnknownBoxError as exc:
            message = tr("unknown_box", lang, text=text.strip(), n=len(rules.boxes))
            if exc.candidates and len(exc.candidates) < len(rules.boxes):
                close = [
                    f"{rules.box_name(b, lang)} ({rules.box_index[b] + 1})" for b in exc.candidates
                ]
                message += tr("did_you_mean", lang, choices=join_names(close, lang))
            raise PromptError(message) from None


def enable_line_editing() -> None:
    """Arrow keys and history at a terminal prompt: ``input`` uses readline once loaded."""
    # readline is not on every platform; the prompt works without it.
    with contextlib.suppress(ImportError):
        import readline  # noqa: F401


def split_numbers(words: Sequence[str]) -> list[str]:
    """``["1,3", "45"]`` -> ``["1", "3", "4", "5"]`` (runs of digits are single dice)."""
    out: list[str] = []
    for word in words:
        for part in word.replace(",", " ").split():
            if part.isdigit() and len(part) > 1:
                out.extend(part)
            else:
                out.append(part)
    return out


def die_matcher(token: str, double: bool) -> Callable[[Die], bool] | None:
    """A test for dice showing ``token`` (``5``; double dice ``3/6`` or inner ``3``)."""
    if double:
        m = re.fullmatch(r"([1-6])(?:/([1-6]))?", token)
        if not m:
            return None
        # Written inner first, as the board shows them; a die is (outer, inner).
        inner = int(m.group(1))
        outer = None if m.group(2) is None else int(m.group(2))
        return lambda d: isinstance(d, tuple) and d[1] == inner and outer in (None, d[0])
    if not re.fullmatch(r"[1-6]", token):
        return None
    face = int(token)
    return lambda d: d == face


def keep_positions(words: Sequence[str], num_dice: int, lang: Language) -> tuple[int, ...]:
    """``k 1 3``: the dice to keep by their places on the board, 1 to ``num_dice``
    (0-based in the result); each place once."""
    out: list[int] = []
    for token in split_numbers(words):
        if not token.isdigit() or not 1 <= int(token) <= num_dice:
            raise PromptError(tr("bad_position", lang, text=token, n=num_dice))
        if int(token) - 1 in out:
            raise PromptError(tr("position_twice", lang, pos=token))
        out.append(int(token) - 1)
    if not out:
        raise PromptError(tr("need_positions", lang))
    return tuple(out)


def keep_values(
    words: Sequence[str], dice: Sequence[Die], double: bool, lang: Language
) -> tuple[int, ...]:
    """``v 5 5``: the dice to keep by what they show (double dice ``3/6`` or inner
    ``3``), each typed value taking one more die that shows it; their places, sorted."""
    taken: list[int] = []
    for token in split_numbers(words):
        shows = die_matcher(token, double)
        if shows is None:
            raise PromptError(tr("bad_double_value" if double else "bad_value", lang, text=token))
        free = [i for i, d in enumerate(dice) if shows(d) and i not in taken]
        if not free:
            count = sum(1 for d in dice if shows(d))
            if count:
                raise PromptError(tr("value_too_few", lang, count=count, value=token))
            raise PromptError(tr("value_missing", lang, value=token))
        taken.append(free[0])
    if not taken:
        raise PromptError(tr("need_positions", lang))
    return tuple(sorted(taken))


def parse_entry(resolver: BoxResolver, mode: str, words: list[str], lang: Language) -> Entry:
    text = " ".join(words)
    drop: int | None = None
    m = re.fullmatch(r"(.*?)\s*/\s*(\S*)", text)
    if m:
        text, drop_text = m.group(1), m.group(2)
        if not re.fullmatch(r"[1-6]", drop_text):
            raise PromptError(tr("bad_drop", lang, text=drop_text))
        drop = int(drop_text)
    box = resolver.resolve(text)
    if mode == "scratch":
        return Scratch(box)
    return Score(box, drop)


def parse_two(
    resolver: BoxResolver, command: str, words: list[str], lang: Language
) -> tuple[Entry, Entry]:
    """DubbelYatzy: ``s INNER OUTER``, ``x INNER OUTER``, ``s INNER x OUTER`` ...

    Names may be several words: every split of the words into two boxes is tried,
    and exactly one must name two boxes.
    """
    segments: list[tuple[str, list[str]]] = [(command, [])]
    for word in words:
        switch = WORD_TO_COMMAND.get(word.casefold())
        if switch in ("score", "scratch") and segments[-1][1]:
            segments.append((switch, []))
        else:
            segments[-1][1].append(word)
    if any(not seg for _, seg in segments) or len(segments) > 2:
        raise PromptError(tr("two_boxes", lang))
    if len(segments) == 2:
        (m1, w1), (m2, w2) = segments
        return parse_entry(resolver, m1, w1, lang), parse_entry(resolver, m2, w2, lang)
    mode, seg = segments[0]
    if len(seg) < 2:
        raise PromptError(tr("two_boxes", lang))
    found: list[tuple[Entry, Entry]] = []
    first_error: PromptError | None = None
    for cut in range(1, len(seg)):
        try:
            pair = (
                parse_entry(resolver, mode, seg[:cut], lang),
                parse_entry(resolver, mode, seg[cut:], lang),
            )
        except PromptError as exc:
            first_error = first_error or exc
            continue
        found.append(pair)
    if len(found) == 1:
        return found[0]
    if not found and first_error is not None and len(seg) == 2:
        raise first_error
    raise PromptError(tr("two_boxes_unclear", lang, text=" ".join(seg)))
