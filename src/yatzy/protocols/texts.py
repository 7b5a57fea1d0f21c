"""The words printed on a protocol, from the one catalog (keys ``protocol.``).

Box names and the computed rows' labels come from :mod:`yatzy.rules.categories`;
this module adds what only a printed or spreadsheet protocol needs: the title, the
option phrases, the short scoring rules of the footnote and the validation messages.
"""

from __future__ import annotations

from yatzy.i18n import N_, Message, messages
from yatzy.rules import Language, RuleSet

SCRATCH_MARK = "x"
"""What a scratched box shows (and what a person types to scratch one)."""

# Marks a person may write for a scratch; the spreadsheet's own lists offer only "x".
SCRATCH_ALIASES = frozenset({"x", "X", "-", "–", "—", "/"})

WORDS: dict[str, Message] = messages(
    "protocol.",
    N_("protocol.protocol", "Protocol"),
    N_("protocol.player", "Player"),
    N_("protocol.rules", "Rules"),
    N_("protocol.winner", "Winner"),
    N_("protocol.winners", "Winners"),
    N_("protocol.points", "points"),
    N_("protocol.dice", "{n} dice, {turns} rounds"),
    N_("protocol.double_dice", "{n} double dice, {turns} rounds"),
    N_("protocol.page", "page {page} of {pages}"),
    N_("protocol.in_progress", "Game in progress: {done} of {all} rounds played"),
    N_("protocol.bonus_hint", "{points} at {threshold}+"),
    N_("protocol.par_hint", "vs the pace to {threshold}"),
    N_("protocol.final_hint", "Total + Extra"),
    N_("protocol.total_hint_double", "without Extra"),
    N_("protocol.yatzy_bonus_hint", "100 per extra {box}"),
    N_("protocol.scratch_note", "x = scratched box (0 points)."),
    N_("protocol.not_possible", "{value} is not a possible {box}"),
    N_("protocol.possible", "{box} can be {scores}"),
    N_("protocol.or_scratch", " or x (scratch)"),
    # What ``yatzy rules`` prints besides the protocol's own words.
    N_("protocol.rolls_a_turn", "{n} rolls a turn"),
    N_("protocol.saved_rolls_note", "unused rolls are kept for later turns"),
    N_(
        "protocol.rule_sets",
        "Rule sets (write a spec as NAME+OPTION+OPTION=VALUE, e.g. yatzy+forced+lenient):",
    ),
    N_("protocol.n_dice", "{n} dice"),
    N_("protocol.n_double_dice", "{n} double dice"),
    N_("protocol.default", "default {value}"),
)


# Each option of a spec explained, for ``yatzy rules`` (OptionSpec.help is English).
OPTION_HELP: dict[str, Message] = messages(
    "option_help.",
    N_("option_help.forced", "boxes are filled in protocol order (tvång)"),
    N_(
        "option_help.half_forced",
        "the first score picks the upper or lower section, each filled in order (halvtvång)",
    ),
    N_("option_help.lenient", "four equal count as Two Pairs, five equal as Full House"),
    N_("option_help.yatzy_pip_bonus", "Yatzy scores 50 plus the sum of the dice"),
    N_(
        "option_help.joker",
        "Yatzy bonus and joker: forced (official), free (optimal-play papers), none",
    ),
    N_(
        "option_help.last_resort",
        "Chance only when the dice score nowhere else; 0 only when they score nowhere",
    ),
    N_(
        "option_help.saved_rolls",
        "unused rolls carry over: none, all (kept for any later turn; a bare +saved_rolls), next "
        "(at most 2, into the next turn only)",
    ),
    N_("option_help.bonus_threshold", "upper-section sum that earns the bonus"),
    N_("option_help.bonus_points", "points of the upper-section bonus"),
    N_(
        "option_help.extra",
        "DubbelYatzy's Extra box: minus (subtracted chance), chance, scratch (free 0)",
    ),
    N_(
        "option_help.scoring",
        "DubbelYatzy's scoring: lenient, strict (Scandinavian) or international",
    ),
)


def word(key: str, lang: Language, **fields: object) -> str:
    """A protocol word or phrase in ``lang``, with ``fields`` filled in."""
    return WORDS[key][lang].format(**fields)


_OPTIONS: dict[str, Message] = messages(
    "protocol.option.",
    N_("protocol.option.forced", "forced (boxes are filled top to bottom)"),
    N_("protocol.option.half_forced", "half forced (upper or lower section first, each in order)"),
    N_("protocol.option.lenient", "four equal count as Two Pairs, five equal as Full House"),
    N_("protocol.option.yatzy_pip_bonus", "Yatzy scores 50 plus the dice"),
    N_(
        "protocol.option.last_resort",
        "Chance only when nothing else scores, 0 only when nothing scores",
    ),
    N_("protocol.option.saved_rolls=all", "saved rolls"),
    N_("protocol.option.saved_rolls=next", "at most 2 saved rolls, for the next turn"),
    N_("protocol.option.joker=forced", "Yatzy bonus and joker (official rules)"),
    N_("protocol.option.joker=free", "Yatzy bonus and free joker"),
    N_("protocol.option.joker=none", "no Yatzy bonus or joker"),
    N_("protocol.option.extra=minus", "Extra is subtracted"),
    N_("protocol.option.extra=chance", "Extra counts like Chance"),
    N_("protocol.option.extra=scratch", "Extra is a free scratch"),
    N_("protocol.option.scoring=lenient", "lenient scoring"),
    N_("protocol.option.scoring=strict", "strict Scandinavian scoring"),
    N_("protocol.option.scoring=international", "international scoring"),
)


def option_phrases(rules: RuleSet, lang: Language) -> list[str]:
    """The rule set's options (defaults included where they decide the game) in ``lang``."""
    out: list[str] = []
    for name in rules.info.options:
        value = getattr(rules, name)
        if name in ("bonus_threshold", "bonus_points"):
            continue  # the Bonus row prints them
        if isinstance(value, bool):
            if value:
                out.append(_OPTIONS[name][lang])
        elif name == "saved_rolls" and value == "none":
            continue  # no saved rolls: nothing to print
        elif value is not None:
            phrase = _OPTIONS[f"{name}={value}"][lang]
            # The box's own name (English Yahtzee: "Yahtzee bonus and joker").
            if "yatzy" in rules.boxes:
                phrase = phrase.replace("Yatzy", rules.box_name("yatzy", lang))
            out.append(phrase)
    return out


def title(rules: RuleSet, lang: Language) -> str:
    """The protocol's title: the rule set's name and the word protocol."""
    return f"{rules.info.title[lang]} – {word('protocol', lang).lower()}"


# Short scoring rules for the footnote, per box, per scoring family.
_NORDIC: dict[str, Message] = messages(
    "protocol.nordic.",
    N_("protocol.nordic.upper", "the dice showing that face"),
    N_("protocol.nordic.one_pair", "the highest pair"),
    N_("protocol.nordic.two_pairs", "two pairs of different faces"),
    N_("protocol.nordic.two_pairs+", "two pairs (four equal count)"),
    N_("protocol.nordic.three_pairs", "three pairs of different faces"),
    N_("protocol.nordic.three_pairs+", "three pairs (equal pairs count)"),
    N_("protocol.nordic.three_of_a_kind", "three equal"),
    N_("protocol.nordic.four_of_a_kind", "four equal"),
    N_("protocol.nordic.five_of_a_kind", "five equal"),
    N_("protocol.nordic.small_straight", "1-2-3-4-5: 15"),
    N_("protocol.nordic.large_straight", "2-3-4-5-6: 20"),
    N_("protocol.nordic.full_straight", "1-2-3-4-5-6: 21"),
    N_("protocol.nordic.full_house", "three equal and a pair of another face"),
    N_("protocol.nordic.full_house+", "three equal and a pair (five equal count)"),
    N_("protocol.nordic.villa", "two three-of-a-kinds, all six dice"),
    N_("protocol.nordic.tower", "four equal and a pair, all six dice"),
    N_("protocol.nordic.chance", "any dice"),
    N_("protocol.nordic.yatzy", "five equal: 50"),
    N_("protocol.nordic.yatzy+pip", "five equal: 50 + the dice"),
    N_("protocol.nordic.maxi_yatzy", "six equal: 100"),
)
_INTERNATIONAL: dict[str, Message] = messages(
    "protocol.international.",
    N_("protocol.international.three_of_a_kind", "at least three equal: all five dice"),
    N_("protocol.international.four_of_a_kind", "at least four equal: all five dice"),
    N_("protocol.international.full_house", "three and two equal: 25"),
    N_("protocol.international.small_straight", "four in a row: 30"),
    N_("protocol.international.large_straight", "five in a row: 40"),
)
_EXTRA: dict[str, Message] = messages(
    "protocol.extra.",
    N_("protocol.extra.minus", "any dice, the sum is subtracted; may not be scratched"),
    N_("protocol.extra.chance", "like Chance"),
    N_("protocol.extra.scratch", "always 0 (a free scratch)"),
)
_GENERAL: dict[str, Message] = messages(
    "protocol.general.",
    N_("protocol.general.sum_of", "A box scores the sum of the dice that form it"),
    N_(
        "protocol.general.double",
        "Each turn fills two boxes, one with the inner and one with the outer faces, each leaving "
        "one die out",
    ),
    N_(
        "protocol.general.yatzy_bonus",
        "{bonus}: 100 for each further {box} while the {box} box holds 50",
    ),
    N_(
        "protocol.general.joker=forced",
        "Joker: a {box} rolled when the {box} box is filled goes in its upper box if that is open, "
        "else in any open lower box, where Full House and the straights score their full 25/30/40; "
        "with no lower box open, 0 goes in an upper box",
    ),
    N_(
        "protocol.general.joker=free",
        "Joker: a {box} rolled when the {box} box is filled may go in any open box; Full House and "
        "the straights score their full 25/30/40 when its upper box is filled",
    ),
    N_("protocol.general.bonus", "Bonus {points} when Sum is at least {threshold}"),
)


def scoring_notes(rules: RuleSet, lang: Language) -> list[str]:
    """The short scoring rules of every box, for the footnote (one string each)."""
    international = rules.international
    lenient = rules.lenient or rules.scoring == "lenient"
    notes: list[str] = []
    first, last = rules.box_name("ones", lang), rules.box_name("sixes", lang)
    notes.append(f"{first}–{last}: {_NORDIC['upper'][lang]}")
    for box in rules.lower_boxes:
        key = box
        if lenient and box in ("two_pairs", "three_pairs", "full_house"):
            key = f"{box}+"
        if box == "yatzy" and rules.yatzy_pip_bonus:
            key = "yatzy+pip"
        table = _INTERNATIONAL if international and key in _INTERNATIONAL else _NORDIC
        notes.append(f"{rules.box_name(box, lang)}: {table[key][lang]}")
    if rules.double:
        assert rules.extra is not None
        notes.append(f"{rules.box_name('extra', lang)}: {_EXTRA[rules.extra][lang]}")
    return notes


def general_notes(rules: RuleSet, lang: Language) -> list[str]:
    """The sentences printed before the per-box rules in the footnote."""
    out = [_GENERAL["bonus"][lang].format(points=rules.bonus, threshold=rules.threshold)]
    if not rules.international:
        out.append(_GENERAL["sum_of"][lang])
    if rules.double:
        out.append(_GENERAL["double"][lang])
    if rules.has_joker:
        names = {"box": rules.box_name("yatzy", lang), "bonus": rules.label("yatzy_bonus", lang)}
        out.append(_GENERAL["yatzy_bonus"][lang].format(**names))
        out.append(_GENERAL[f"joker={rules.joker}"][lang].format(**names))
    return out
