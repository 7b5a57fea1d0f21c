"""The advisor's choices in plain words, in Swedish, Finnish and English.

Front-end neutral: the web page's hints and post-game analysis use it, and the
terminal can.  Dice are named by their faces, never by their positions ("Behåll
de två femmorna och sexan", "Keep the two 5s and the 6"), boxes by the core's
names in the game's language, and numbers with the language's decimal mark.
Imports only the core (no numeric library), so describing costs nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from yatzy.game import Action, Fill2, Roll, Score, Scratch, State, Write
from yatzy.i18n import N_, Message, decimal, messages
from yatzy.rules import VARIANTS, Language, RuleSet
from yatzy.rules.dice import format_die

ABOUT_PERCENT = N_("web.about_percent", "about {percent}\u00a0%")
"""A simulated chance in plain words ("about 54 %"): the web page's and the terminal's
(one text in the catalog, so both say it alike)."""

UNDER_PERCENT = N_("web.under_percent", "under {percent}\u00a0%")
"""A simulated chance that rounds to 0 %, bounded by its margin ("under 3 %"): "about
0 %" would claim a certainty the simulation does not give."""

OVER_PERCENT = N_("web.over_percent", "over {percent}\u00a0%")
"""A simulated chance that rounds to 100 %, bounded by its margin ("over 97 %")."""

_WORDS: dict[str, Message] = messages(
    "advice.",
    N_("advice.roll", "Roll"),
    N_("advice.reroll_all", "Roll all the dice again"),
    N_("advice.keep", "Keep {dice}"),
    N_("advice.and", "and"),
    N_("advice.double_legend", "inner/outer"),
    N_("advice.score", "Score {points} in {box}"),
    N_("advice.scratch", "Scratch {box}"),
    N_("advice.entry", "{box} ({points})"),
    N_("advice.entry_scratch", "scratch {box}"),
    N_("advice.fill2", "Inner: {inner}, outer: {outer}"),
    N_("advice.best", "best"),
    N_("advice.as_good", "as good"),
    N_("advice.lost", "−{points}\u00a0p"),
    N_(
        "advice.approximate_double",
        "Approximate: {title} is too large to solve exactly, so the advice comes from a simplified "
        "strategy.",
    ),
    N_(
        "advice.approximate_saved",
        "Approximate: the exact table for saved rolls is very large and is not prepared on "
        "this computer, so the advice comes from a simplified strategy.",
    ),
    N_("advice.approximate", "Approximate: the advice comes from a simplified strategy."),
    N_("advice.unavailable", "No hints are available for these rules."),
    N_(
        "advice.decision_summary",
        "{best} of {total} decisions were the best. Expected points lost against best play: {loss} "
        "({mean} per decision).",
    ),
    N_(
        "advice.box_summary",
        "{best} of {total} box choices were the best. Expected points lost against the best "
        "choices: {loss}.",
    ),
    N_("advice.costly", "Turn {turn}, roll {roll} ({dice}): {chosen}. Better: {best} ({loss})."),
    N_("advice.costly_pad", "Turn {turn} ({dice}): {chosen}. Better: {best} ({loss})."),
    N_(
        "advice.chart",
        "Expected final score of {name} turn by turn: {first} before turn 1, {last} before turn "
        "{turns}; final score {final}.",
    ),
    N_(
        "advice.pad_boxes",
        "A score pad keeps only the final dice, not the rolls: the box chosen for them is rated "
        "here, but not which dice were kept.",
    ),
    N_(
        "advice.pad_points",
        "A score pad with only points written has no dice to rate. Enter the dice every turn and "
        "the box choices can be rated.",
    ),
    N_(
        "advice.pad_saved",
        "A score pad does not know how many rolls were saved, so its choices cannot be rated with "
        "saved rolls.",
    ),
    N_(
        "advice.pad_incomplete",
        "{name} wrote only points, without the dice, in some turn, so the choices cannot be rated.",
    ),
)

# Die faces as words (dice are named by their faces, never by their positions): one
# die ("the 5", "femman", "viitonen"), a single one after another ("the 4 and 5"),
# several ("the two 5s", "de två femmorna", "kaksi viitosta") and the numerals.
_DIE: dict[int, Message] = {
    int(k): m
    for k, m in messages(
        "advice.die.",
        N_("advice.die.1", "the 1"),
        N_("advice.die.2", "the 2"),
        N_("advice.die.3", "the 3"),
        N_("advice.die.4", "the 4"),
        N_("advice.die.5", "the 5"),
        N_("advice.die.6", "the 6"),
    ).items()
}
_DIE_AFTER: dict[int, Message] = {
    int(k): m
    for k, m in messages(
        "advice.die_after.",
        N_("advice.die_after.1", "1"),
        N_("advice.die_after.2", "2"),
        N_("advice.die_after.3", "3"),
        N_("advice.die_after.4", "4"),
        N_("advice.die_after.5", "5"),
        N_("advice.die_after.6", "6"),
    ).items()
}
_DICE: dict[int, Message] = {
    int(k): m
    for k, m in messages(
        "advice.dice.",
        N_("advice.dice.1", "the {count} 1s"),
        N_("advice.dice.2", "the {count} 2s"),
        N_("advice.dice.3", "the {count} 3s"),
        N_("advice.dice.4", "the {count} 4s"),
        N_("advice.dice.5", "the {count} 5s"),
        N_("advice.dice.6", "the {count} 6s"),
    ).items()
}
_NUMERALS: dict[int, Message] = {
    int(k): m
    for k, m in messages(
        "advice.numeral.",
        N_("advice.numeral.2", "two"),
        N_("advice.numeral.3", "three"),
        N_("advice.numeral.4", "four"),
        N_("advice.numeral.5", "five"),
        N_("advice.numeral.6", "six"),
    ).items()
}


def word(key: str, lang: Language, **fields: Any) -> str:
    """A phrase of this module's catalog in ``lang`` with ``fields`` filled in."""
    return _WORDS[key][lang].format(**fields)


def number(x: float, lang: Language, digits: int = 1) -> str:
    """``x`` with ``digits`` decimals and the language's decimal mark (1,3 in sv/fi)."""
    text = f"{x:.{digits}f}"
    if text.startswith("-"):
        text = "−" + text[1:]
    return decimal(text, lang)


def loss_words(loss: float, lang: Language) -> str:
    """Expected points lost against the best option, rounded to a tenth ("−1,3 p")."""
    if loss < 0.05:
        return word("as_good", lang)
    return word("lost", lang, points=number(loss, lang))


def _join(parts: Sequence[str], lang: Language) -> str:
    if len(parts) == 1:
        return parts[0]
    return f"{', '.join(parts[:-1])} {word('and', lang)} {parts[-1]}"


def faces_words(faces: Sequence[int], lang: Language) -> str:
    """Plain dice named by their faces: "de två femmorna och sexan", "the two 5s and the 6"."""
    groups = sorted(Counter(faces).items(), key=lambda g: (-g[1], g[0]))
    singles = all(n == 1 for _, n in groups)
    parts: list[str] = []
    for i, (face, n) in enumerate(groups):
        if n > 1:
            count = _NUMERALS[n][lang] if n in _NUMERALS else str(n)
            parts.append(_DICE[face].text(lang, count=count))
        else:
            parts.append((_DIE_AFTER if singles and i > 0 else _DIE)[face][lang])
    return _join(parts, lang)


def double_dice_words(dice: Sequence[Any], lang: Language) -> str:
    """DubbelYatzy's double dice, inner face first as everywhere: "4/6 och 3/3 (inre/yttre)"."""
    shown = [format_die(d) for d in dice]
    return f"{_join(shown, lang)} ({word('double_legend', lang)})"


def dice_words(dice: Sequence[Any]) -> str:
    """The dice as a short list of faces ("2 3 3 5 6"; double dice inner first, "4/6 3/3"),
    for sentences on a page: joined by no-break spaces, so that a line never breaks
    inside a roll ("(3 6" at the end of one line, "1 6 2)" on the next)."""
    return "\u00a0".join(format_die(d) for d in dice)


def _entry_points(state: State, entry: Any, layer: str) -> str:
    if isinstance(entry, Write):
        points = int(entry.points)
    else:
        points = state.box_points(entry.box, layer, getattr(entry, "drop", None))
    return str(points).replace("-", "−")


def _double_entry(state: State, entry: Any, layer: str, lang: Language) -> str:
    name = state.rules.box_name(entry.box, lang)
    if isinstance(entry, Scratch):
        return word("entry_scratch", lang, box=name)
    return word("entry", lang, box=name, points=_entry_points(state, entry, layer))


def describe(state: State, action: Action, lang: Language) -> str:
    """``action`` in ``state`` in plain words: dice by face, boxes by name, points."""
    if isinstance(action, Roll):
        if state.dice is None:
            return word("roll", lang)
        if not action.keep:
            return word("reroll_all", lang)
        kept = [state.dice[i] for i in action.keep]
        if state.rules.double:
            return word("keep", lang, dice=double_dice_words(kept, lang))
        return word("keep", lang, dice=faces_words([d for d in kept if isinstance(d, int)], lang))
    if isinstance(action, Fill2):
        return word(
            "fill2",
            lang,
            inner=_double_entry(state, action.inner, "inner", lang),
            outer=_double_entry(state, action.outer, "outer", lang),
        )
    if isinstance(action, Scratch):
        return word("scratch", lang, box=state.rules.box_name(action.box, lang))
    if isinstance(action, (Score, Write)):
        points = _entry_points(state, action, "all")
        return word("score", lang, points=points, box=state.rules.box_name(action.box, lang))
    raise TypeError(f"no words for the action {action!r}")


def approximate_note(rules: RuleSet, lang: Language) -> str:
    """One line on why the advice for ``rules`` is approximate."""
    if rules.double:
        return word("approximate_double", lang, title=VARIANTS[rules.variant].title[lang])
    if rules.saves_rolls:
        return word("approximate_saved", lang)
    return word("approximate", lang)
