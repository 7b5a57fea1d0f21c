"""Category (box) ids and the names people see, in Swedish, Finnish and English."""

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

    def name(self, lang: Language = "en") -> str:
        """The name of the box in ``lang``."""
        return str(getattr(self, lang))


_ALL = (
    Category("ones", "upper", "Ettor", "Ykköset", "Ones", 1),
    Category("twos", "upper", "Tvåor", "Kakkoset", "Twos", 2),
    Category("threes", "upper", "Treor", "Kolmoset", "Threes", 3),
    Category("fours", "upper", "Fyror", "Neloset", "Fours", 4),
    Category("fives", "upper", "Femmor", "Viitoset", "Fives", 5),
    Category("sixes", "upper", "Sexor", "Kuutoset", "Sixes", 6),
    Category("one_pair", "lower", "Ett par", "1 pari", "One Pair"),
    Category("two_pairs", "lower", "Två par", "2 paria", "Two Pairs"),
    Category("three_pairs", "lower", "Tre par", "3 paria", "Three Pairs"),
    Category("three_of_a_kind", "lower", "Tretal", "Kolmoisluku", "Three of a Kind"),
    Category("four_of_a_kind", "lower", "Fyrtal", "Neloisluku", "Four of a Kind"),
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


def label(key: str, lang: Language = "en") -> str:
    """The name of a computed row (``sum``, ``bonus``, ``total`` ...) in ``lang``."""
    return LABELS[key][lang]
