"""The player's words for rules: presets, house rules, bot levels and what every box scores.

The start page, the game screen's box explanations and the in-app rules page read
their texts here, in Swedish, Finnish and English.  The texts follow RULES.md; the
rules themselves stay in the core (an example's points are computed by it, never
written here).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from yatzy.rules import OPTIONS, VARIANTS, Language, RuleSet, parse_spec

Words = tuple[str, str, str]  # (sv, fi, en)

_INDEX = {"sv": 0, "fi": 1, "en": 2}


def pick(words: Words, lang: Language) -> str:
    """``words`` in ``lang``."""
    return words[_INDEX[lang]]


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
        ("Yatzy", "Yatzy", "Yatzy"),
        (
            "Fem tärningar, tre slag, fyll rutorna i valfri ordning.",
            "Viisi noppaa, kolme heittoa, täytä ruudut missä järjestyksessä tahansa.",
            "Five dice, three rolls, fill the boxes in any order.",
        ),
    ),
    Preset(
        "forced",
        "yatzy+forced",
        ("Tvång", "Pakkojärjestys", "Forced order"),
        (
            "Som Yatzy, men rutorna fylls uppifrån och ned.",
            "Kuten Yatzy, mutta ruudut täytetään ylhäältä alas.",
            "Like Yatzy, but the boxes are filled from top to bottom.",
        ),
    ),
    Preset(
        "half_forced",
        "yatzy+half_forced",
        ("Halvtvång", "Puolipakko", "Half-forced"),
        (
            "Första poängen väljer övre eller nedre delen; den fylls i ordning, sedan den andra.",
            "Ensimmäinen kirjaus valitsee ylä- tai alaosan; se täytetään järjestyksessä, "
            "sitten toinen.",
            "The first score picks the upper or lower half; it is filled in order, then the other.",
        ),
    ),
    Preset(
        "maxi",
        "maxi",
        ("Maxi Yatzy", "Maxi-Yatzy", "Maxi Yatzy"),
        (
            "Sex tärningar och fler rutor: tre par, hus, torn och Maxi-Yatzy på 100.",
            "Kuusi noppaa ja enemmän ruutuja: kolme paria, huvila, torni ja Maxi-Yatzy 100.",
            "Six dice and more boxes: three pairs, villa, tower and Maxi Yatzy for 100.",
        ),
    ),
    Preset(
        "maxi_saved",
        "maxi+saved_rolls",
        ("Maxi med sparade slag", "Maxi säästetyillä heitoilla", "Maxi with saved rolls"),
        (
            "Maxi Yatzy där slag du inte använder sparas till senare omgångar.",
            "Maxi-Yatzy, jossa käyttämättömät heitot säästyvät myöhemmille vuoroille.",
            "Maxi Yatzy where the rolls you do not use are saved for later turns.",
        ),
    ),
    Preset(
        "dubbel",
        "dubbel",
        ("DubbelYatzy", "Tupla-Yatzy", "Double Yatzy"),
        (
            "Sex dubbeltärningar: varje omgång ger två resultat, ett inre och ett yttre.",
            "Kuusi tuplanoppaa: jokainen vuoro antaa kaksi tulosta, sisemmän ja ulomman.",
            "Six double dice: every turn gives two results, an inner and an outer one.",
        ),
    ),
    Preset(
        "yahtzee",
        "yahtzee",
        ("Yahtzee", "Yahtzee", "Yahtzee"),
        (
            "Den amerikanska varianten: fasta poäng för kåk och stegar, Yahtzee-bonus och joker.",
            "Amerikkalainen versio: kiinteät pisteet täyskädestä ja suorista, bonus ja jokeri.",
            "The American game: fixed points for full house and straights, bonus and joker.",
        ),
    ),
)
"""The start page's rule choices, in the order shown."""


# -- house rules in plain words ------------------------------------------------------------

OPTION_WORDS: dict[str, Words] = {
    "forced": (
        "Tvång: rutorna fylls uppifrån och ned",
        "Pakkojärjestys: ruudut täytetään ylhäältä alas",
        "Forced order: boxes are filled from top to bottom",
    ),
    "half_forced": (
        "Halvtvång: välj övre eller nedre delen först, fyll den i ordning",
        "Puolipakko: valitse ensin ylä- tai alaosa ja täytä se järjestyksessä",
        "Half-forced: pick the upper or lower half first and fill it in order",
    ),
    "lenient": (
        "Fyra lika räknas som två par, fem lika som kåk",
        "Neljä samaa käy kahdeksi pariksi, viisi samaa täyskädeksi",
        "Four of a kind also counts as two pairs, five of a kind as a full house",
    ),
    "yatzy_pip_bonus": (
        "Yatzy ger 50 plus tärningarnas summa",
        "Yatzy antaa 50 plus noppien summan",
        "Yatzy scores 50 plus the sum of the dice",
    ),
    "saved_rolls": (
        "Slag du inte använder",
        "Käyttämättömät heitot",
        "Rolls you do not use",
    ),
    "last_resort": (
        "Chans och nollor bara när inget annat ger poäng",
        "Sattuma ja nollat vain, kun mikään muu ei tuota pisteitä",
        "Chance and zeros only when nothing else scores",
    ),
    "bonus_threshold": (
        "Summa i övre delen som ger bonus",
        "Yläosan summa, josta saa bonuksen",
        "Upper half total that earns the bonus",
    ),
    "bonus_points": ("Bonusens poäng", "Bonuksen pisteet", "Points of the bonus"),
    "joker": (
        "Yahtzee-bonus och joker",
        "Yahtzee-bonus ja jokeri",
        "Yahtzee bonus and joker",
    ),
    "extra": ("Extrarutan", "Ekstraruutu", "The Extra box"),
    "scoring": ("Poängräkning", "Pisteytys", "Scoring"),
}
"""What each house rule means, as the start page's "more rules" says it."""

CHOICE_WORDS: dict[tuple[str, str], Words] = {
    ("joker", "forced"): (
        "officiella regler: joker i rätt ruta",
        "viralliset säännöt: jokeri oikeaan ruutuun",
        "official: the joker goes where the rules say",
    ),
    ("joker", "free"): (
        "fri joker i valfri ruta",
        "vapaa jokeri mihin tahansa ruutuun",
        "free joker in any box",
    ),
    ("joker", "none"): ("ingen bonus eller joker", "ei bonusta eikä jokeria", "no bonus, no joker"),
    ("extra", "minus"): (
        "minus: summan dras av",
        "miinus: summa vähennetään",
        "minus: the sum is taken off",
    ),
    ("extra", "chance"): ("en andra chans", "toinen sattuma", "a second chance"),
    ("extra", "scratch"): ("en fri nolla", "ilmainen nolla", "a free zero"),
    ("scoring", "lenient"): (
        "snäll: fyra lika är två par",
        "lempeä: neljä samaa on kaksi paria",
        "lenient: four of a kind is two pairs",
    ),
    ("saved_rolls", "none"): ("går förlorade", "menetetään", "are lost"),
    ("saved_rolls", "all"): (
        "sparas till vilken senare omgång som helst",
        "säästyvät mille tahansa myöhemmälle vuorolle",
        "are saved for any later turn",
    ),
    ("saved_rolls", "next"): (
        "högst 2 sparas, bara till nästa omgång",
        "enintään 2 säästyy, vain seuraavalle vuorolle",
        "up to 2 are saved, for the next turn only",
    ),
    ("scoring", "strict"): ("sträng skandinavisk", "tiukka pohjoismainen", "strict Scandinavian"),
    ("scoring", "international"): (
        "internationell (Yahtzee-poäng)",
        "kansainvälinen (Yahtzee-pisteet)",
        "international (Yahtzee points)",
    ),
}
"""The choices of the choice options, in plain words."""


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
            {"value": c, "text": pick(CHOICE_WORDS.get((name, c), (c, c, c)), lang)}
            for c in spec.choices
        ]
        out.append(
            {
                "name": name,
                "kind": spec.kind,
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
    "optimal": (("Perfekt", "Täydellinen", "Perfect"), 0.0),
    "strong": (("Stark", "Vahva", "Strong"), 4.4),
    "casual": (("Lagom", "Tavallinen", "Casual"), 15.5),
    "beginner": (("Nybörjare", "Aloittelija", "Beginner"), 29.6),
    "greedy": (("Girig", "Ahne", "Greedy"), 49.2),
    "random": (("Slumpen", "Sattumanvarainen", "Random"), 223.0),
}
"""The bot levels a player picks from, strongest first (``perfect``, another name of
``optimal``, is not offered twice)."""

DEFAULT_BOT = "casual"

LOSS_WORDS: Words = (
    "tappar i snitt {n} poäng per spel mot perfekt spel",
    "häviää keskimäärin {n} pistettä pelissä täydelliseen peliin verrattuna",
    "loses {n} points a game on average against perfect play",
)


PERFECT_WORDS: Words = (
    "spelar perfekt: bästa möjliga val varje gång",
    "pelaa täydellisesti: paras mahdollinen valinta joka kerta",
    "plays perfectly: the best possible choice every time",
)


def bot_choices(levels: list[str], lang: Language) -> list[dict[str, Any]]:
    """The offered bot levels (those of ``levels`` with words), strongest first."""
    out = []
    for level, (name, loss) in BOT_WORDS.items():
        if level not in levels:
            continue
        if not loss:
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
    text = f"{x:g}"
    return text if lang == "en" else text.replace(".", ",")


DEFAULT_NAMES: dict[str, tuple[str, ...]] = {
    "sv": ("Anna", "Bo", "Cilla", "David", "Eva", "Frans", "Greta", "Hugo"),
    "fi": ("Aino", "Eino", "Helmi", "Onni", "Ilona", "Väinö", "Kerttu", "Toivo"),
    "en": ("Alice", "Ben", "Clara", "Dan", "Emma", "Fred", "Grace", "Harry"),
}
"""Real first names the start page proposes for the players."""

COMPUTER: Words = ("Datorn", "Tietokone", "Computer")


# -- what every box scores -----------------------------------------------------------------

# Keyed by (scheme, box); the scheme is "nordic" (yatzy, maxi, dubbel lenient/strict),
# "international" (yahtzee, dubbel's international scoring) or a variant name where it
# differs.  The face boxes share one text.
_FACE: Words = (
    "Summan av tärningarna som visar {face}.",
    "Niiden noppien summa, joissa on {face}.",
    "The sum of the dice showing {face}.",
)

_BOX_HELP: dict[tuple[str, str], Words] = {
    ("nordic", "one_pair"): (
        "Två lika: deras summa (det högsta paret).",
        "Kaksi samaa: niiden summa (korkein pari).",
        "Two equal dice: their sum (the highest pair).",
    ),
    ("nordic", "two_pairs"): (
        "Två par av olika valörer: deras summa.",
        "Kaksi eri paria: niiden summa.",
        "Two pairs of different faces: their sum.",
    ),
    ("nordic", "three_pairs"): (
        "Tre par av olika valörer: alla sex tärningarnas summa.",
        "Kolme eri paria: kaikkien kuuden nopan summa.",
        "Three pairs of different faces: the sum of all six dice.",
    ),
    ("nordic", "three_of_a_kind"): (
        "Tre lika: deras summa.",
        "Kolme samaa: niiden summa.",
        "Three equal dice: their sum.",
    ),
    ("nordic", "four_of_a_kind"): (
        "Fyra lika: deras summa.",
        "Neljä samaa: niiden summa.",
        "Four equal dice: their sum.",
    ),
    ("nordic", "five_of_a_kind"): (
        "Fem lika: deras summa.",
        "Viisi samaa: niiden summa.",
        "Five equal dice: their sum.",
    ),
    ("nordic", "small_straight"): (
        "1-2-3-4-5: 15 poäng.",
        "1-2-3-4-5: 15 pistettä.",
        "1-2-3-4-5: 15 points.",
    ),
    ("nordic", "large_straight"): (
        "2-3-4-5-6: 20 poäng.",
        "2-3-4-5-6: 20 pistettä.",
        "2-3-4-5-6: 20 points.",
    ),
    ("nordic", "full_straight"): (
        "1-2-3-4-5-6: 21 poäng.",
        "1-2-3-4-5-6: 21 pistettä.",
        "1-2-3-4-5-6: 21 points.",
    ),
    ("nordic", "full_house"): (
        "Tre lika och två lika av en annan valör: de fem tärningarnas summa.",
        "Kolme samaa ja kaksi samaa toista lukua: näiden viiden summa.",
        "Three of one face and two of another: the sum of those five.",
    ),
    ("nordic", "villa"): (
        "Två tretal av olika valörer: alla sex tärningarnas summa.",
        "Kaksi eri kolmoista: kaikkien kuuden nopan summa.",
        "Two three-of-a-kinds of different faces: the sum of all six.",
    ),
    ("nordic", "tower"): (
        "Fyra lika och ett par av en annan valör: alla sex tärningarnas summa.",
        "Neljä samaa ja pari toista lukua: kaikkien kuuden nopan summa.",
        "Four of one face and a pair of another: the sum of all six.",
    ),
    ("nordic", "chance"): (
        "Vilka tärningar som helst: summan av alla.",
        "Mitkä tahansa nopat: kaikkien summa.",
        "Any dice: the sum of them all.",
    ),
    ("nordic", "yatzy"): (
        "Fem lika: 50 poäng.",
        "Viisi samaa: 50 pistettä.",
        "Five equal dice: 50 points.",
    ),
    ("nordic", "maxi_yatzy"): (
        "Sex lika: 100 poäng.",
        "Kuusi samaa: 100 pistettä.",
        "Six equal dice: 100 points.",
    ),
    ("international", "three_of_a_kind"): (
        "Minst tre lika: alla fem tärningarnas summa.",
        "Vähintään kolme samaa: kaikkien viiden nopan summa.",
        "At least three equal dice: the sum of all five.",
    ),
    ("international", "four_of_a_kind"): (
        "Minst fyra lika: alla fem tärningarnas summa.",
        "Vähintään neljä samaa: kaikkien viiden nopan summa.",
        "At least four equal dice: the sum of all five.",
    ),
    ("international", "full_house"): (
        "Tre lika och två lika av en annan valör: 25 poäng.",
        "Kolme samaa ja kaksi samaa toista lukua: 25 pistettä.",
        "Three of one face and two of another: 25 points.",
    ),
    ("international", "small_straight"): (
        "Fyra i följd (1-2-3-4, 2-3-4-5 eller 3-4-5-6): 30 poäng.",
        "Neljä peräkkäistä (1-2-3-4, 2-3-4-5 tai 3-4-5-6): 30 pistettä.",
        "Four in a row (1-2-3-4, 2-3-4-5 or 3-4-5-6): 30 points.",
    ),
    ("international", "large_straight"): (
        "Fem i följd: 40 poäng.",
        "Viisi peräkkäistä: 40 pistettä.",
        "Five in a row: 40 points.",
    ),
    ("international", "chance"): (
        "Vilka tärningar som helst: summan av alla.",
        "Mitkä tahansa nopat: kaikkien summa.",
        "Any dice: the sum of them all.",
    ),
    ("international", "yatzy"): (
        "Fem lika: 50 poäng. Varje ny Yahtzee efter det ger 100 i bonus.",
        "Viisi samaa: 50 pistettä. Jokainen uusi Yahtzee sen jälkeen antaa 100 bonusta.",
        "Five equal dice: 50 points. Every further Yahtzee then earns a 100 bonus.",
    ),
}

_EXTRA: dict[str, Words] = {
    "minus": (
        "Vilka tärningar som helst: fem tärningars summa dras av. Kan inte strykas.",
        "Mitkä tahansa nopat: viiden nopan summa vähennetään. Ei voi yliviivata.",
        "Any dice: the sum of five is taken off your total. Cannot be scratched.",
    ),
    "chance": (
        "En andra chans: fem tärningars summa.",
        "Toinen sattuma: viiden nopan summa.",
        "A second chance: the sum of five dice.",
    ),
    "scratch": (
        "En fri nolla: alltid 0 poäng.",
        "Ilmainen nolla: aina 0 pistettä.",
        "A free zero: always 0 points.",
    ),
}

_FACE_WORDS: dict[int, Words] = {
    1: ("ettor", "ykkösiä", "ones"),
    2: ("tvåor", "kakkosia", "twos"),
    3: ("treor", "kolmosia", "threes"),
    4: ("fyror", "nelosia", "fours"),
    5: ("femmor", "viitosia", "fives"),
    6: ("sexor", "kuutosia", "sixes"),
}

_DUBBEL_NOTE: Words = (
    " I DubbelYatzy lägger varje resultat först bort en tärning och räknar fem.",
    " Tupla-Yatzyssä kumpikin tulos pudottaa ensin yhden nopan ja laskee viisi.",
    " In Double Yatzy each result first drops one die and counts five.",
)

_LENIENT_NOTE: dict[str, Words] = {
    "two_pairs": (" Fyra lika räknas också.", " Myös neljä samaa käy.", " Four equal also count."),
    "full_house": (" Fem lika räknas också.", " Myös viisi samaa käy.", " Five equal also count."),
}

_PIP_NOTE: Words = (
    " Här ger Yatzy 50 plus tärningarnas summa.",
    " Tässä Yatzy antaa 50 plus noppien summan.",
    " Here Yatzy scores 50 plus the sum of the dice.",
)


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


def rules_name(spec: str, lang: Language) -> str:
    """The rules of ``spec`` in words: the preset's name, or the variant's title with
    its house rules."""
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
