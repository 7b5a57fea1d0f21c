"""Category (box) ids and the names people see, in every language of the catalog.

A box's name can depend on the variant (Maxi's sheet writes "1 par" where the
Yatzy sheet writes "Ett par"; English Yahtzee calls its box "Yahtzee"): those
boxes have a name of their own under the variant's key (``box.maxi.one_pair``), in
:data:`VARIANT_NAMES`.  Other spellings people write (the standard Finnish ones,
sheet 000's Maxi names) are :data:`OTHER_SPELLINGS`, accepted as input and never
shown.  The names are :class:`~yatzy.i18n.Message` s of the one catalog.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from yatzy.i18n import LANGUAGES, N_, Language, Message, messages

__all__ = ["LANGUAGES", "Language"]  # re-exported: the core's languages live in yatzy.i18n

Section = Literal["upper", "lower", "extra"]


@dataclass(frozen=True)
class Category:
    """A box of the protocol: its id, section and name.

    ``face`` is the die face an upper box counts (1-6) and 0 for every other box.
    """

    id: str
    section: Section
    names: Message
    face: int = 0

    def name(self, lang: Language = "en", variant: str | None = None) -> str:
        """The name of the box in ``lang``, as ``variant``'s sheet writes it."""
        own = VARIANT_NAMES.get(variant or "", {}).get(self.id)
        return (own or self.names)[lang]

    def spellings(self) -> tuple[str, ...]:
        """Every name this box is known by: each language, each variant's name and
        the other accepted spellings (for reading what people type)."""
        names = list(self.names.values())
        for table in VARIANT_NAMES.values():
            if self.id in table:
                names.extend(table[self.id].values())
        names.extend(OTHER_SPELLINGS.get(self.id, ()))
        return tuple(dict.fromkeys(names))


_ALL = (
    Category("ones", "upper", N_("box.ones", "Ones"), 1),
    Category("twos", "upper", N_("box.twos", "Twos"), 2),
    Category("threes", "upper", N_("box.threes", "Threes"), 3),
    Category("fours", "upper", N_("box.fours", "Fours"), 4),
    Category("fives", "upper", N_("box.fives", "Fives"), 5),
    Category("sixes", "upper", N_("box.sixes", "Sixes"), 6),
    Category("one_pair", "lower", N_("box.one_pair", "One Pair")),
    Category("two_pairs", "lower", N_("box.two_pairs", "Two Pairs")),
    Category("three_pairs", "lower", N_("box.three_pairs", "Three Pairs")),
    Category("three_of_a_kind", "lower", N_("box.three_of_a_kind", "Three of a Kind")),
    Category("four_of_a_kind", "lower", N_("box.four_of_a_kind", "Four of a Kind")),
    Category("five_of_a_kind", "lower", N_("box.five_of_a_kind", "Five of a Kind")),
    Category("small_straight", "lower", N_("box.small_straight", "Small Straight")),
    Category("large_straight", "lower", N_("box.large_straight", "Large Straight")),
    Category("full_straight", "lower", N_("box.full_straight", "Full Straight")),
    Category("full_house", "lower", N_("box.full_house", "Full House")),
    Category("villa", "lower", N_("box.villa", "Villa")),
    Category("tower", "lower", N_("box.tower", "Tower")),
    Category("chance", "lower", N_("box.chance", "Chance")),
    Category("yatzy", "lower", N_("box.yatzy", "Yatzy")),
    Category("maxi_yatzy", "lower", N_("box.maxi_yatzy", "Maxi Yatzy")),
    Category("extra", "extra", N_("box.extra", "Extra")),
)

# Names a variant's own sheet gives a box, where they differ from the table above in
# some language (the others repeat the common name).
VARIANT_NAMES: dict[str, dict[str, Message]] = {
    # Sheet 002, the Maxi Yatzy game's own rules.
    "maxi": messages(
        "box.maxi.",
        N_("box.maxi.one_pair", "One Pair"),
        N_("box.maxi.two_pairs", "Two Pairs"),
        N_("box.maxi.three_pairs", "Three Pairs"),
        N_("box.maxi.small_straight", "Small Straight"),
        N_("box.maxi.large_straight", "Large Straight"),
        N_("box.maxi.full_straight", "Full Straight"),
    ),
    "yahtzee": messages("box.yahtzee.", N_("box.yahtzee.yatzy", "Yahtzee")),
}

# Spellings accepted as input besides every shown name: the standard Finnish ones
# (004 writes Vitoset, Kutoset, Nelosluku) and sheet 000's Maxi names.
OTHER_SPELLINGS: dict[str, tuple[str, ...]] = {
    "fives": ("Viitoset",),
    "sixes": ("Kuutoset",),
    "four_of_a_kind": ("Neloisluku",),
    "one_pair": ("Pair",),
}

CATEGORIES: dict[str, Category] = {c.id: c for c in _ALL}
"""Every category id of every rule set, mapped to its :class:`Category`."""

UPPER_IDS: tuple[str, ...] = ("ones", "twos", "threes", "fours", "fives", "sixes")

# Labels of the computed rows and of the words the front ends share.
LABELS: dict[str, Message] = messages(
    "label.",
    N_("label.sum", "Sum"),
    N_("label.bonus", "Bonus"),
    N_("label.yatzy_bonus", "Yatzy bonus"),
    N_("label.total", "Total"),
    N_("label.final", "Final"),
    N_("label.par", "Bonus par"),
)


# Row labels a variant names its own way (English Yahtzee's box is "Yahtzee").
VARIANT_LABELS: dict[str, dict[str, Message]] = {
    "yahtzee": messages("label.yahtzee.", N_("label.yahtzee.yatzy_bonus", "Yahtzee bonus")),
}


def label(key: str, lang: Language = "en", variant: str | None = None) -> str:
    """The name of a computed row (``sum``, ``bonus``, ``total`` ...) in ``lang``."""
    own = VARIANT_LABELS.get(variant or "", {}).get(key)
    return (own or LABELS[key])[lang]
