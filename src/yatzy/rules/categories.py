"""Category (box) ids and the names people see, in Swedish, Finnish and English.

A box's name can depend on the variant (Maxi's sheet writes "1 par" where the
Yatzy sheet writes "Ett par"; English Yahtzee calls its box "Yahtzee"): those
differences are data in :data:`VARIANT_NAMES`.  Other spellings people write
(the standard Finnish ones, sheet 000's Maxi names) are :data:`OTHER_SPELLINGS`,
accepted as input and never shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Language = Literal["sv", "fi", "en"]
LANGUAGES: tuple[Language, ...] = ("sv", "fi", "en")

Section = Literal["upper", "lower", "extra"]


@dataclass(frozen=True)
class Category:
    """A box of the protocol: its id, section and names.

    ``face`` is the die face an upper box counts (1-6) and 0 for every other box.
    """

    id: str
    section: Section
    sv: str
    fi: str
    en: str
    face: int = 0

    def name(self, lang: Language = "en", variant: str | None = None) -> str:
        """The name of the box in ``lang``, as ``variant``'s sheet writes it."""
        override = VARIANT_NAMES.get(variant or "", {}).get(self.id, {}).get(lang)
        return override if override is not None else str(getattr(self, lang))

    def spellings(self) -> tuple[str, ...]:
        """Every name this box is known by: each language, each variant's name and
        the other accepted spellings (for reading what people type)."""
        names = [self.sv, self.fi, self.en]
        for table in VARIANT_NAMES.values():
            names.extend(table.get(self.id, {}).values())
        names.extend(OTHER_SPELLINGS.get(self.id, ()))
        return tuple(dict.fromkeys(names))


_ALL = (
    Category("ones", "upper", "Ettor", "Ykköset", "Ones", 1),
    Category("twos", "upper", "Tvåor", "Kakkoset", "Twos", 2),
    Category("threes", "upper", "Treor", "Kolmoset", "Threes", 3),
    Category("fours", "upper", "Fyror", "Neloset", "Fours", 4),
    Category("fives", "upper", "Femmor", "Vitoset", "Fives", 5),
    Category("sixes", "upper", "Sexor", "Kutoset", "Sixes", 6),
    Category("one_pair", "lower", "Ett par", "1 pari", "One Pair"),
    Category("two_pairs", "lower", "Två par", "2 paria", "Two Pairs"),
    Category("three_pairs", "lower", "Tre par", "3 paria", "Three Pairs"),
    Category("three_of_a_kind", "lower", "Tretal", "Kolmoisluku", "Three of a Kind"),
    Category("four_of_a_kind", "lower", "Fyrtal", "Nelosluku", "Four of a Kind"),
    Category("five_of_a_kind", "lower", "Femtal", "Viitosluku", "Five of a Kind"),
    Category("small_straight", "lower", "Liten stege", "Pieni suora", "Small Straight"),
    Category("large_straight", "lower", "Stor stege", "Iso suora", "Large Straight"),
    Category("full_straight", "lower", "Full stege", "Täysi suora", "Full Straight"),
    Category("full_house", "lower", "Kåk", "Täyskäsi", "Full House"),
    Category("villa", "lower", "Hus", "Huvila", "Villa"),
    Category("tower", "lower", "Torn", "Torni", "Tower"),
    Category("chance", "lower", "Chans", "Sattuma", "Chance"),
    Category("yatzy", "lower", "Yatzy", "Yatzy", "Yatzy"),
    Category("maxi_yatzy", "lower", "Maxi-Yatzy", "Maxi-Yatzy", "Maxi Yatzy"),
    Category("extra", "extra", "Extra", "Ekstra", "Extra"),
)

# Names a variant's own sheet gives a box, where they differ from the table above.
VARIANT_NAMES: dict[str, dict[str, dict[Language, str]]] = {
    # Sheet 002, the Maxi Yatzy game's own rules.
    "maxi": {
        "one_pair": {"sv": "1 par"},
        "two_pairs": {"sv": "2 par"},
        "three_pairs": {"sv": "3 par"},
        "small_straight": {"sv": "Liten straight"},
        "large_straight": {"sv": "Stor straight"},
        "full_straight": {"sv": "Full straight"},
    },
    "yahtzee": {"yatzy": {"en": "Yahtzee"}},
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
LABELS: dict[str, dict[Language, str]] = {
    "sum": {"sv": "Summa", "fi": "Summa", "en": "Sum"},
    "bonus": {"sv": "Bonus", "fi": "Hyvitys", "en": "Bonus"},
    "yatzy_bonus": {"sv": "Yatzybonus", "fi": "Yatzy-bonus", "en": "Yatzy bonus"},
    "total": {"sv": "Totalsumma", "fi": "Yhteensä", "en": "Total"},
    "final": {"sv": "Slutsumma", "fi": "Loppusumma", "en": "Final"},
    "par": {"sv": "Bonusläge", "fi": "Bonustilanne", "en": "Bonus par"},
}


# Row labels a variant names its own way (English Yahtzee's box is "Yahtzee").
VARIANT_LABELS: dict[str, dict[str, dict[Language, str]]] = {
    "yahtzee": {"yatzy_bonus": {"en": "Yahtzee bonus"}},
}


def label(key: str, lang: Language = "en", variant: str | None = None) -> str:
    """The name of a computed row (``sum``, ``bonus``, ``total`` ...) in ``lang``."""
    override = VARIANT_LABELS.get(variant or "", {}).get(key, {}).get(lang)
    return override if override is not None else LABELS[key][lang]
