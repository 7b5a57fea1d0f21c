"""The player's words for rules: presets, house rules, bot levels and what every box scores.

The start page, the game screen's box explanations and the in-app rules page read
their texts here: English in the code, every language in the one catalog (keys
``preset.``, ``house.``, ``bot.``, ``box_help.``).  The texts follow RULES.md; the
rules themselves stay in the core (an example's points are computed by it, never
written here).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from yatzy.i18n import LANGUAGES, N_, Message, decimal, messages
from yatzy.rules import OPTIONS, VARIANTS, Language, RuleSet, parse_spec

Words = Message  # a text of the catalog, in every language


def pick(words: Words, lang: Language) -> str:
    """``words`` in ``lang``."""
    return words[lang]


def _split(sep: str, words: dict[str, Words]) -> dict[tuple[str, str], Words]:
    """``words`` keyed by the two halves of their key (``"joker=free"``: joker, free)."""
    return {(a, b): w for key, w in words.items() for a, _, b in [key.partition(sep)]}


@dataclass(frozen=True)
class Preset:
    """A named way to play: a rules spec with a name and a one-line summary."""

    id: str
    spec: str
    name: Words
    summary: Words


PRESETS: tuple[Preset, ...] = (
    Preset(
        "yatzy",
        "yatzy",
        N_("preset.yatzy.name", "Yatzy"),
        N_("preset.yatzy.summary", "Five dice, three rolls, fill the boxes in any order."),
    ),
    Preset(
        "forced",
        "yatzy+forced",
        N_("preset.forced.name", "Forced order"),
        N_("preset.forced.summary", "Like Yatzy, but the boxes are filled from top to bottom."),
    ),
    Preset(
        "half_forced",
        "yatzy+half_forced",
        N_("preset.half_forced.name", "Half-forced"),
        N_(
            "preset.half_forced.summary",
            "The first score picks the upper or lower half; it is filled in order, then the other.",
        ),
    ),
    Preset(
        "maxi",
        "maxi",
        N_("preset.maxi.name", "Maxi Yatzy"),
        N_(
            "preset.maxi.summary",
            "Six dice and more boxes: three pairs, villa, tower and Maxi Yatzy for 100.",
        ),
    ),
    Preset(
        "maxi_saved",
        "maxi+saved_rolls",
        N_("preset.maxi_saved.name", "Maxi with saved rolls"),
        N_(
            "preset.maxi_saved.summary",
            "Maxi Yatzy where the rolls you do not use are saved for later turns.",
        ),
    ),
    Preset(
        "dubbel",
        "dubbel",
        N_("preset.dubbel.name", "Double Yatzy"),
        N_(
            "preset.dubbel.summary",
            "Six double dice: every turn gives two results, an inner and an outer one.",
        ),
    ),
    Preset(
        "yahtzee",
        "yahtzee",
        N_("preset.yahtzee.name", "Yahtzee"),
        N_(
            "preset.yahtzee.summary",
            "The American game: fixed points for full house and straights, bonus and joker.",
        ),
    ),
)
"""The start page's rule choices, in the order shown."""


# -- house rules in plain words ------------------------------------------------------------

OPTION_WORDS: dict[str, Words] = messages(
    "house.",
    N_("house.forced", "Forced order: boxes are filled from top to bottom"),
    N_("house.half_forced", "Half-forced: pick the upper or lower half first and fill it in order"),
    N_("house.lenient", "Four of a kind also counts as two pairs, five of a kind as a full house"),
    N_("house.yatzy_pip_bonus", "Yatzy scores 50 plus the sum of the dice"),
    N_("house.saved_rolls", "Rolls you do not use"),
    N_("house.last_resort", "Chance and zeros only when nothing else scores"),
    N_("house.bonus_threshold", "Upper half total that earns the bonus"),
    N_("house.bonus_points", "Points of the bonus"),
    N_("house.joker", "Yahtzee bonus and joker"),
    N_("house.extra", "The Extra box"),
    N_("house.scoring", "Scoring"),
)
"""What each house rule means, as the start page's "more rules" says it."""

CHOICE_WORDS: dict[tuple[str, str], Words] = _split(
    "=",
    messages(
        "house.",
        N_("house.joker=forced", "official: the joker goes where the rules say"),
        N_("house.joker=free", "free joker in any box"),
        N_("house.joker=none", "no bonus, no joker"),
        N_("house.extra=minus", "minus: the sum is taken off"),
        N_("house.extra=chance", "a second chance"),
        N_("house.extra=scratch", "a free zero"),
        N_("house.scoring=lenient", "lenient: four of a kind is two pairs"),
        N_("house.saved_rolls=none", "are lost"),
        N_("house.saved_rolls=all", "are saved for any later turn"),
        N_("house.saved_rolls=next", "up to 2 are saved, for the next turn only"),
        N_("house.scoring=strict", "strict Scandinavian"),
        N_("house.scoring=international", "international (Yahtzee points)"),
    ),
)
"""The choices of the choice options, in plain words."""


def _largest(variant: str, name: str) -> int:
    """The largest value of number option ``name`` that ``variant`` takes."""
    if name == "bonus_threshold":
        from yatzy.rules import RuleSet

        return RuleSet.parse(variant).upper_max
    return 1000


def house_rules(variant: str, lang: Language) -> list[dict[str, Any]]:
    """The options of ``variant`` that have plain words, as the start page shows them.

    Options without words in this catalog are left out rather than shown by their
    ids (the page must not speak code).
    """
    v = VARIANTS[variant]
    out = []
    for name in v.options:
        if name not in OPTION_WORDS or name not in OPTIONS:
            continue
        spec = OPTIONS[name]
        choices = [
            {
                "value": c,
                "text": pick(CHOICE_WORDS[name, c], lang) if (name, c) in CHOICE_WORDS else c,
            }
            for c in spec.choices
        ]
        out.append(
            {
                "name": name,
                "kind": spec.kind,
                # the largest value the rules take (a number option), so that the page
                # says so in its words before the server would refuse it
                "max": _largest(variant, name),
                "text": pick(OPTION_WORDS[name], lang),
                "default": v.defaults.get(name),
                "bare": spec.bare,
                "choices": choices,
            }
        )
    return out


# -- bot levels -----------------------------------------------------------------------------

BOT_WORDS: dict[str, tuple[Words, float]] = {
    # level: (name, mean points lost per game against optimal play: README's calibration)
    "winner": (N_("bot.winner", "Winner"), -1.0),  # plays for the win: WINNER_WORDS
    "optimal": (N_("bot.optimal", "Perfect"), 0.0),
    "strong": (N_("bot.strong", "Strong"), 4.4),
    "casual": (N_("bot.casual", "Casual"), 15.5),
    "beginner": (N_("bot.beginner", "Beginner"), 29.6),
    "greedy": (N_("bot.greedy", "Greedy"), 49.2),
    "random": (N_("bot.random", "Random"), 223.0),
}
"""The bot levels a player picks from, strongest first (``perfect``, another name of
``optimal``, is not offered twice; ``winner`` plays for the win, not for points)."""

WINNER_WIN_RATE = 52.0
"""Percent of two-player games the ``winner`` bot wins against the perfect bot (ties
half; README, section Strategy: ``benchmarks/bench_winbot.py``)."""

WINNER_WORDS: Words = N_(
    "bot.winner_strength",
    "plays for the win against your sheet: wins {n}\u00a0% of two-player games against "
    "perfect play",
)

DEFAULT_BOT = "casual"

LOSS_WORDS: Words = N_("bot.loss", "loses {n}\u00a0points a game on average against perfect play")


PERFECT_WORDS: Words = N_("bot.perfect", "plays perfectly: the best possible choice every time")


def bot_choices(levels: list[str], lang: Language) -> list[dict[str, Any]]:
    """The offered bot levels (those of ``levels`` with words), strongest first."""
    out = []
    for level, (name, loss) in BOT_WORDS.items():
        if level not in levels:
            continue
        if loss < 0:
            strength = pick(WINNER_WORDS, lang).format(n=_number(WINNER_WIN_RATE, lang))
        elif not loss:
            strength = pick(PERFECT_WORDS, lang)
        else:
            strength = pick(LOSS_WORDS, lang).format(n=_number(loss, lang))
        out.append({"level": level, "name": pick(name, lang), "strength": strength})
    return out


def bot_name(level: str, lang: Language) -> str:
    """The word for bot ``level`` (the level itself when the catalog has none)."""
    if level == "perfect":
        level = "optimal"
    words = BOT_WORDS.get(level)
    return pick(words[0], lang) if words else level


def _number(x: float, lang: Language) -> str:
    return decimal(f"{x:g}", lang)


# TRANSLATORS: real first names for the players, common where the language is spoken.
_NAMES = N_("names.default", "Alice, Ben, Clara, Dan, Emma, Fred, Grace, Harry")
DEFAULT_NAMES: dict[str, tuple[str, ...]] = {
    lang: tuple(_NAMES[lang].split(", ")) for lang in LANGUAGES
}
"""Real first names the start page proposes for the players."""

COMPUTER: Words = N_("bot.computer", "Computer")


def computer_name(level: str, lang: str) -> str:
    """A computer seat's name as the start page writes it: "Computer (Casual)"."""
    words: Any = lang if lang in LANGUAGES else "en"
    return f"{pick(COMPUTER, words)} ({bot_name(level, words)})"


def computer_names(level: str) -> dict[str, str]:
    """:func:`computer_name` in every language (language to name): a page shows a
    computer seat that kept its given name in its viewer's language, whichever
    language the game was made in."""
    return {lang: computer_name(level, lang) for lang in LANGUAGES}


# -- what every box scores -----------------------------------------------------------------

# Keyed by (scheme, box); the scheme is "nordic" (yatzy, maxi, dubbel lenient/strict),
# "international" (yahtzee, dubbel's international scoring) or a variant name where it
# differs.  The face boxes share one text.
_FACE: Words = N_("box_help.face", "The sum of the dice showing {face}.")

_BOX_HELP: dict[tuple[str, str], Words] = _split(
    ".",
    messages(
        "box_help.",
        N_("box_help.nordic.one_pair", "Two equal dice: their sum (the highest pair)."),
        N_("box_help.nordic.two_pairs", "Two pairs of different faces: their sum."),
        N_(
            "box_help.nordic.three_pairs",
            "Three pairs of different faces: the sum of all six dice.",
        ),
        N_("box_help.nordic.three_of_a_kind", "Three equal dice: their sum."),
        N_("box_help.nordic.four_of_a_kind", "Four equal dice: their sum."),
        N_("box_help.nordic.five_of_a_kind", "Five equal dice: their sum."),
        N_("box_help.nordic.small_straight", "1-2-3-4-5: 15 points."),
        N_("box_help.nordic.large_straight", "2-3-4-5-6: 20 points."),
        N_("box_help.nordic.full_straight", "1-2-3-4-5-6: 21 points."),
        N_(
            "box_help.nordic.full_house",
            "Three of one face and two of another: the sum of those five.",
        ),
        N_(
            "box_help.nordic.villa",
            "Two three-of-a-kinds of different faces: the sum of all six.",
        ),
        N_(
            "box_help.nordic.tower",
            "Four of one face and a pair of another: the sum of all six.",
        ),
        N_("box_help.nordic.chance", "Any dice: the sum of them all."),
        N_("box_help.nordic.yatzy", "Five equal dice: 50 points."),
        N_("box_help.nordic.maxi_yatzy", "Six equal dice: 100 points."),
        N_(
            "box_help.international.three_of_a_kind",
            "At least three equal dice: the sum of all five.",
        ),
        N_(
            "box_help.international.four_of_a_kind",
            "At least four equal dice: the sum of all five.",
        ),
        N_(
            "box_help.international.full_house",
            "Three of one face and two of another: 25 points.",
        ),
        N_(
            "box_help.international.small_straight",
            "Four in a row (1-2-3-4, 2-3-4-5 or 3-4-5-6): 30 points.",
        ),
        N_("box_help.international.large_straight", "Five in a row: 40 points."),
        N_("box_help.international.chance", "Any dice: the sum of them all."),
        N_(
            "box_help.international.yatzy",
            "Five equal dice: 50 points. Every further Yahtzee then earns a 100 bonus.",
        ),
    ),
)

_EXTRA: dict[str, Words] = messages(
    "box_help.extra.",
    N_(
        "box_help.extra.minus",
        "Any dice: the sum of five is taken off your total. Cannot be scratched.",
    ),
    N_("box_help.extra.chance", "A second chance: the sum of five dice."),
    N_("box_help.extra.scratch", "A free zero: always 0 points."),
)

_FACE_WORDS: dict[int, Words] = {
    int(face): words
    for face, words in messages(
        "box_help.faces.",
        N_("box_help.faces.1", "ones"),
        N_("box_help.faces.2", "twos"),
        N_("box_help.faces.3", "threes"),
        N_("box_help.faces.4", "fours"),
        N_("box_help.faces.5", "fives"),
        N_("box_help.faces.6", "sixes"),
    ).items()
}

_DUBBEL_NOTE: Words = N_(
    "box_help.dubbel_note", " In Double Yatzy each result first drops one die and counts five."
)

_LENIENT_NOTE: dict[str, Words] = messages(
    "box_help.lenient.",
    N_("box_help.lenient.two_pairs", " Four equal also count."),
    N_("box_help.lenient.full_house", " Five equal also count."),
)

_PIP_NOTE: Words = N_("box_help.pip_note", " Here Yatzy scores 50 plus the sum of the dice.")


def _scheme(rules: RuleSet) -> str:
    return "international" if rules.international else "nordic"


def box_help(rules: RuleSet, box: str, lang: Language, *, dubbel_note: bool = True) -> str:
    """What ``box`` scores under ``rules``, in one or two plain sentences (with
    DubbelYatzy's dropped die unless ``dubbel_note`` is false)."""
    from yatzy.rules import CATEGORIES

    face = CATEGORIES[box].face
    if face:
        text = pick(_FACE, lang).format(face=pick(_FACE_WORDS[face], lang))
    elif box == "extra":
        text = pick(_EXTRA.get(str(rules.extra), _EXTRA["minus"]), lang)
    else:
        key = (_scheme(rules), box)
        words = _BOX_HELP.get(key) or _BOX_HELP.get(("nordic", box))
        text = pick(words, lang) if words else rules.box_name(box, lang)
    if _is_lenient(rules) and box in _LENIENT_NOTE:
        text += pick(_LENIENT_NOTE[box], lang)
    if box == "yatzy" and _flag(rules, "yatzy_pip_bonus"):
        text += pick(_PIP_NOTE, lang)
    if dubbel_note and rules.double and box != "extra":
        text += pick(_DUBBEL_NOTE, lang)
    return text


def _flag(rules: RuleSet, name: str) -> bool:
    return bool(getattr(rules, name, False))


def _is_lenient(rules: RuleSet) -> bool:
    if rules.double:
        return rules.scoring == "lenient"
    return _flag(rules, "lenient")


def preset_of(spec: str) -> Preset | None:
    """The preset whose rules are exactly ``spec`` (None for house rules)."""
    canonical = parse_spec(spec).spec
    for preset in PRESETS:
        if parse_spec(preset.spec).spec == canonical:
            return preset
    return None


@lru_cache(maxsize=1024)
def rules_name(spec: str, lang: Language) -> str:
    """The rules of ``spec`` in words: the preset's name, or the variant's title with
    its house rules (remembered: a "your turn" list names each of its games' rules,
    and parsing a spec costs a millisecond)."""
    preset = preset_of(spec)
    if preset is not None:
        return pick(preset.name, lang)
    rules = parse_spec(spec)
    title = VARIANTS[rules.variant].title[lang]
    extras = []
    for name in VARIANTS[rules.variant].options:
        if name not in OPTION_WORDS:
            continue
        value = getattr(rules, name, None)
        default = VARIANTS[rules.variant].defaults.get(name)
        if OPTIONS[name].kind == "flag" and value:
            extras.append(pick(OPTION_WORDS[name], lang).split(":")[0])
        elif OPTIONS[name].kind != "flag" and value is not None and value != default:
            words = CHOICE_WORDS.get((name, str(value)))
            extras.append(
                f"{pick(OPTION_WORDS[name], lang)} {pick(words, lang) if words else value}"
            )
    return title + (" (" + "; ".join(extras) + ")" if extras else "")
