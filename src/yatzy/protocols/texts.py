"""The words printed on a protocol, in Swedish, Finnish and English.

Box names and the computed rows' labels come from :mod:`yatzy.rules.categories`;
this module adds what only a printed or spreadsheet protocol needs: the title, the
option phrases, the short scoring rules of the footnote and the validation messages.
"""

from __future__ import annotations

from yatzy.rules import Language, RuleSet

SCRATCH_MARK = "x"
"""What a scratched box shows (and what a person types to scratch one)."""

# Marks a person may write for a scratch; the spreadsheet's own lists offer only "x".
SCRATCH_ALIASES = frozenset({"x", "X", "-", "–", "—", "/"})

WORDS: dict[str, dict[Language, str]] = {
    "protocol": {"sv": "Protokoll", "fi": "Pöytäkirja", "en": "Protocol"},
    "player": {"sv": "Spelare", "fi": "Pelaaja", "en": "Player"},
    "rules": {"sv": "Regler", "fi": "Säännöt", "en": "Rules"},
    "winner": {"sv": "Vinnare", "fi": "Voittaja", "en": "Winner"},
    "winners": {"sv": "Vinnare", "fi": "Voittajat", "en": "Winners"},
    "points": {"sv": "poäng", "fi": "pistettä", "en": "points"},
    "dice": {
        "sv": "{n} tärningar, {turns} omgångar",
        "fi": "{n} noppaa, {turns} kierrosta",
        "en": "{n} dice, {turns} rounds",
    },
    "double_dice": {
        "sv": "{n} dubbeltärningar, {turns} omgångar",
        "fi": "{n} tuplanoppaa, {turns} kierrosta",
        "en": "{n} double dice, {turns} rounds",
    },
    "page": {
        "sv": "sida {page} av {pages}",
        "fi": "sivu {page}/{pages}",
        "en": "page {page} of {pages}",
    },
    "in_progress": {
        "sv": "Pågående spel: {done} av {all} omgångar spelade",
        "fi": "Peli kesken: {done}/{all} kierrosta pelattu",
        "en": "Game in progress: {done} of {all} rounds played",
    },
    "bonus_hint": {
        "sv": "{points} vid {threshold}+",
        "fi": "{points}, kun {threshold}+",
        "en": "{points} at {threshold}+",
    },
    "par_hint": {
        "sv": "mot takten till {threshold}",
        "fi": "vrt. {threshold} pisteen tahtiin",
        "en": "vs the pace to {threshold}",
    },
    "final_hint": {"sv": "Totalsumma + Extra", "fi": "Yhteensä + Ekstra", "en": "Total + Extra"},
    "total_hint_double": {"sv": "utan Extra", "fi": "ilman Ekstraa", "en": "without Extra"},
    "yatzy_bonus_hint": {
        "sv": "100 per extra {box}",
        "fi": "100 / lisä-{box}",
        "en": "100 per extra {box}",
    },
    "scratch_note": {
        "sv": "x = struken ruta (0 poäng).",
        "fi": "x = yliviivattu ruutu (0 pistettä).",
        "en": "x = scratched box (0 points).",
    },
    "not_possible": {
        "sv": "{value} är inte möjligt i {box}",
        "fi": "{value} ei ole mahdollinen: {box}",
        "en": "{value} is not a possible {box}",
    },
    "possible": {
        "sv": "{box}: möjligt är {scores}",
        "fi": "{box}: mahdolliset {scores}",
        "en": "{box} can be {scores}",
    },
    "or_scratch": {
        "sv": " eller x (struken)",
        "fi": " tai x (yliviivaus)",
        "en": " or x (scratch)",
    },
}


# What ``yatzy rules`` prints besides the protocol's own words.
WORDS.update(
    {
        "rolls_a_turn": {
            "sv": "{n} slag per omgång",
            "fi": "{n} heittoa vuorossa",
            "en": "{n} rolls a turn",
        },
        "saved_rolls_note": {
            "sv": "oanvända slag sparas till senare omgångar",
            "fi": "käyttämättömät heitot säästyvät myöhemmille kierroksille",
            "en": "unused rolls are kept for later turns",
        },
        "rule_sets": {
            "sv": "Regeluppsättningar (skrivs NAMN+VAL+VAL=VÄRDE, t.ex. yatzy+forced+lenient):",
            "fi": "Sääntösarjat (kirjoitetaan NIMI+VALINTA+VALINTA=ARVO, esim. "
            "yatzy+forced+lenient):",
            "en": "Rule sets (write a spec as NAME+OPTION+OPTION=VALUE, e.g. "
            "yatzy+forced+lenient):",
        },
        "n_dice": {"sv": "{n} tärningar", "fi": "{n} noppaa", "en": "{n} dice"},
        "n_double_dice": {
            "sv": "{n} dubbeltärningar",
            "fi": "{n} tuplanoppaa",
            "en": "{n} double dice",
        },
        "default": {"sv": "standard {value}", "fi": "oletus {value}", "en": "default {value}"},
    }
)

# Each option of a spec explained, for ``yatzy rules`` (OptionSpec.help is English).
OPTION_HELP: dict[str, dict[Language, str]] = {
    "forced": {
        "sv": "rutorna fylls i protokollets ordning (tvång)",
        "fi": "ruudut täytetään pöytäkirjan järjestyksessä (pakko)",
        "en": "boxes are filled in protocol order (tvång)",
    },
    "half_forced": {
        "sv": "första skrivningen väljer övre eller nedre delen, var och en i ordning (halvtvång)",
        "fi": "ensimmäinen merkintä valitsee ylä- tai alaosan, kumpikin järjestyksessä "
        "(puolipakko)",
        "en": "the first score picks the upper or lower section, each filled in order (halvtvång)",
    },
    "lenient": {
        "sv": "fyra lika räknas som två par, fem lika som kåk",
        "fi": "neljä samaa käy kahdeksi pariksi, viisi samaa täyskädeksi",
        "en": "four equal count as Two Pairs, five equal as Full House",
    },
    "yatzy_pip_bonus": {
        "sv": "Yatzy ger 50 plus tärningarnas summa",
        "fi": "Yatzy antaa 50 ja noppien summan",
        "en": "Yatzy scores 50 plus the sum of the dice",
    },
    "joker": {
        "sv": "Yatzybonus och joker: forced (officiell), free (optimalspelsartiklarna), none",
        "fi": "Yatzy-bonus ja jokeri: forced (virallinen), free (optimipelin artikkelit), none",
        "en": "Yatzy bonus and joker: forced (official), free (optimal-play papers), none",
    },
    "last_resort": {
        "sv": "Chans bara när tärningarna inte ger poäng någon annanstans, stryk bara när de "
        "inte ger poäng någonstans",
        "fi": "Sattuma vain, kun nopat eivät tuota pisteitä muualla, nolla vain, kun ne eivät "
        "tuota pisteitä missään",
        "en": "Chance only when the dice score nowhere else; 0 only when they score nowhere",
    },
    "saved_rolls": {
        "sv": "oanvända slag sparas: none (inga), all (till vilken senare omgång som helst; "
        "bara +saved_rolls), next (högst 2, bara till nästa omgång)",
        "fi": "käyttämättömät heitot säästyvät: none (ei), all (mille tahansa myöhemmälle "
        "kierrokselle; pelkkä +saved_rolls), next (enintään 2, vain seuraavalle kierrokselle)",
        "en": "unused rolls carry over: none, all (kept for any later turn; a bare "
        "+saved_rolls), next (at most 2, into the next turn only)",
    },
    "bonus_threshold": {
        "sv": "summan i övre delen som ger bonus",
        "fi": "yläosan summa, josta saa hyvityksen",
        "en": "upper-section sum that earns the bonus",
    },
    "bonus_points": {
        "sv": "bonusens poäng",
        "fi": "hyvityksen pisteet",
        "en": "points of the upper-section bonus",
    },
    "extra": {
        "sv": "DubbelYatzys Extra: minus (chans som dras av), chance, scratch (fri nolla)",
        "fi": "Tupla-Yatzyn Ekstra: minus (vähennettävä sattuma), chance, scratch (vapaa nolla)",
        "en": "DubbelYatzy's Extra box: minus (subtracted chance), chance, scratch (free 0)",
    },
    "scoring": {
        "sv": "DubbelYatzys poäng: lenient, strict (skandinavisk) eller international",
        "fi": "Tupla-Yatzyn pisteytys: lenient, strict (pohjoismainen) tai international",
        "en": "DubbelYatzy's scoring: lenient, strict (Scandinavian) or international",
    },
}


def word(key: str, lang: Language, **fields: object) -> str:
    """A protocol word or phrase in ``lang``, with ``fields`` filled in."""
    return WORDS[key][lang].format(**fields)


_OPTIONS: dict[str, dict[Language, str]] = {
    "forced": {
        "sv": "tvång (rutorna fylls uppifrån och ned)",
        "fi": "pakko (ruudut täytetään ylhäältä alas)",
        "en": "forced (boxes are filled top to bottom)",
    },
    "half_forced": {
        "sv": "halvtvång (övre eller nedre delen först, i ordning)",
        "fi": "puolipakko (ylä- tai alaosa ensin, järjestyksessä)",
        "en": "half forced (upper or lower section first, each in order)",
    },
    "lenient": {
        "sv": "fyra lika räknas som två par, fem lika som kåk",
        "fi": "neljä samaa käy kahdeksi pariksi, viisi samaa täyskädeksi",
        "en": "four equal count as Two Pairs, five equal as Full House",
    },
    "yatzy_pip_bonus": {
        "sv": "Yatzy ger 50 plus tärningarnas summa",
        "fi": "Yatzy antaa 50 ja noppien summan",
        "en": "Yatzy scores 50 plus the dice",
    },
    "last_resort": {
        "sv": "Chans bara när inget annat ger poäng, stryk bara när inget gör det",
        "fi": "sattuma vain kun mikään muu ei tuota pisteitä, nolla vain kun mikään ei tuota",
        "en": "Chance only when nothing else scores, 0 only when nothing scores",
    },
    "saved_rolls=all": {"sv": "sparade slag", "fi": "säästetyt heitot", "en": "saved rolls"},
    "saved_rolls=next": {
        "sv": "högst 2 sparade slag, till nästa omgång",
        "fi": "enintään 2 säästettyä heittoa seuraavaan vuoroon",
        "en": "at most 2 saved rolls, for the next turn",
    },
    "joker=forced": {
        "sv": "Yatzybonus och joker (officiella regler)",
        "fi": "Yatzy-bonus ja jokeri (viralliset säännöt)",
        "en": "Yatzy bonus and joker (official rules)",
    },
    "joker=free": {
        "sv": "Yatzybonus och fri joker",
        "fi": "Yatzy-bonus ja vapaa jokeri",
        "en": "Yatzy bonus and free joker",
    },
    "joker=none": {
        "sv": "ingen Yatzybonus eller joker",
        "fi": "ei Yatzy-bonusta eikä jokeria",
        "en": "no Yatzy bonus or joker",
    },
    "extra=minus": {"sv": "Extra dras av", "fi": "Ekstra vähennetään", "en": "Extra is subtracted"},
    "extra=chance": {
        "sv": "Extra som Chans",
        "fi": "Ekstra kuin Sattuma",
        "en": "Extra counts like Chance",
    },
    "extra=scratch": {
        "sv": "Extra är en fri strykning",
        "fi": "Ekstra on vapaa yliviivaus",
        "en": "Extra is a free scratch",
    },
    "scoring=lenient": {
        "sv": "generös poängräkning",
        "fi": "lempeä pisteytys",
        "en": "lenient scoring",
    },
    "scoring=strict": {
        "sv": "strikt skandinavisk poängräkning",
        "fi": "tiukka pohjoismainen pisteytys",
        "en": "strict Scandinavian scoring",
    },
    "scoring=international": {
        "sv": "internationell poängräkning",
        "fi": "kansainvälinen pisteytys",
        "en": "international scoring",
    },
}


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
_NORDIC: dict[str, dict[Language, str]] = {
    "upper": {
        "sv": "summan av tärningarna med det värdet",
        "fi": "kyseisen silmäluvun noppien summa",
        "en": "the dice showing that face",
    },
    "one_pair": {"sv": "högsta paret", "fi": "suurin pari", "en": "the highest pair"},
    "two_pairs": {
        "sv": "två par med olika värden",
        "fi": "kaksi eri paria",
        "en": "two pairs of different faces",
    },
    "two_pairs+": {
        "sv": "två par (fyra lika räknas)",
        "fi": "kaksi paria (neljä samaa käy)",
        "en": "two pairs (four equal count)",
    },
    "three_pairs": {
        "sv": "tre olika par",
        "fi": "kolme eri paria",
        "en": "three pairs of different faces",
    },
    "three_pairs+": {
        "sv": "tre par (lika par räknas)",
        "fi": "kolme paria (samat käyvät)",
        "en": "three pairs (equal pairs count)",
    },
    "three_of_a_kind": {"sv": "tre lika", "fi": "kolme samaa", "en": "three equal"},
    "four_of_a_kind": {"sv": "fyra lika", "fi": "neljä samaa", "en": "four equal"},
    "five_of_a_kind": {"sv": "fem lika", "fi": "viisi samaa", "en": "five equal"},
    "small_straight": {"sv": "1-2-3-4-5: 15", "fi": "1-2-3-4-5: 15", "en": "1-2-3-4-5: 15"},
    "large_straight": {"sv": "2-3-4-5-6: 20", "fi": "2-3-4-5-6: 20", "en": "2-3-4-5-6: 20"},
    "full_straight": {"sv": "1-2-3-4-5-6: 21", "fi": "1-2-3-4-5-6: 21", "en": "1-2-3-4-5-6: 21"},
    "full_house": {
        "sv": "tretal och par med olika värden",
        "fi": "kolmoset ja eri pari",
        "en": "three equal and a pair of another face",
    },
    "full_house+": {
        "sv": "tretal och par (fem lika räknas)",
        "fi": "kolmoset ja pari (viisi samaa käy)",
        "en": "three equal and a pair (five equal count)",
    },
    "villa": {
        "sv": "två olika tretal, alla sex",
        "fi": "kahdet eri kolmoset, kaikki kuusi",
        "en": "two three-of-a-kinds, all six dice",
    },
    "tower": {
        "sv": "fyrtal och par, alla sex",
        "fi": "neloset ja pari, kaikki kuusi",
        "en": "four equal and a pair, all six dice",
    },
    "chance": {"sv": "valfria tärningar", "fi": "mitkä tahansa nopat", "en": "any dice"},
    "yatzy": {"sv": "fem lika: 50", "fi": "viisi samaa: 50", "en": "five equal: 50"},
    "yatzy+pip": {
        "sv": "fem lika: 50 + tärningarna",
        "fi": "viisi samaa: 50 + nopat",
        "en": "five equal: 50 + the dice",
    },
    "maxi_yatzy": {"sv": "sex lika: 100", "fi": "kuusi samaa: 100", "en": "six equal: 100"},
}
_INTERNATIONAL: dict[str, dict[Language, str]] = {
    "three_of_a_kind": {
        "sv": "minst tre lika: alla fem",
        "fi": "vähintään kolme samaa: kaikki",
        "en": "at least three equal: all five dice",
    },
    "four_of_a_kind": {
        "sv": "minst fyra lika: alla fem",
        "fi": "vähintään neljä samaa: kaikki",
        "en": "at least four equal: all five dice",
    },
    "full_house": {
        "sv": "tretal och par: 25",
        "fi": "kolmoset ja pari: 25",
        "en": "three and two equal: 25",
    },
    "small_straight": {
        "sv": "fyra i följd: 30",
        "fi": "neljä peräkkäin: 30",
        "en": "four in a row: 30",
    },
    "large_straight": {
        "sv": "fem i följd: 40",
        "fi": "viisi peräkkäin: 40",
        "en": "five in a row: 40",
    },
}
_EXTRA: dict[str, dict[Language, str]] = {
    "minus": {
        "sv": "valfria tärningar, summan dras av; får inte strykas",
        "fi": "mitkä tahansa, summa vähennetään; ei saa yliviivata",
        "en": "any dice, the sum is subtracted; may not be scratched",
    },
    "chance": {"sv": "som Chans", "fi": "kuin Sattuma", "en": "like Chance"},
    "scratch": {
        "sv": "alltid 0 (fri strykning)",
        "fi": "aina 0 (vapaa yliviivaus)",
        "en": "always 0 (a free scratch)",
    },
}
_GENERAL: dict[str, dict[Language, str]] = {
    "sum_of": {
        "sv": "Poängen är summan av tärningarna i kombinationen",
        "fi": "Pisteet ovat yhdistelmän noppien summa",
        "en": "A box scores the sum of the dice that form it",
    },
    "double": {
        "sv": "Varje tur fylls två rutor: en med de inre och en med de yttre "
        "tärningarna, var och en utan en tärning",
        "fi": "Joka vuorolla täytetään kaksi ruutua: sisä- ja ulkonopilla, "
        "kummastakin jätetään yksi noppa pois",
        "en": "Each turn fills two boxes, one with the inner and one with the outer "
        "faces, each leaving one die out",
    },
    "yatzy_bonus": {
        "sv": "{bonus}: 100 för varje ytterligare {box} när {box}-rutan har 50",
        "fi": "{bonus}: 100 jokaisesta uudesta {box}sta, kun {box}-ruudussa on 50",
        "en": "{bonus}: 100 for each further {box} while the {box} box holds 50",
    },
    "joker=forced": {
        "sv": "Joker: en {box} när {box}-rutan är fylld skrivs i sin övre ruta om den är "
        "ledig, annars i valfri ledig nedre ruta, där Kåk, Liten och Stor stege ger "
        "fulla 25/30/40; är ingen nedre ruta ledig skrivs 0 i en övre",
        "fi": "Jokeri: {box}, kun {box}-ruutu on täytetty, merkitään omaan yläruutuunsa, jos "
        "se on vapaa, muuten mihin tahansa vapaaseen alaruutuun, jossa Täyskäsi, Pieni ja "
        "Iso suora antavat täydet 25/30/40; jos alaruutuja ei ole vapaana, 0 yläruutuun",
        "en": "Joker: a {box} rolled when the {box} box is filled goes in its upper box if "
        "that is open, else in any open lower box, where Full House and the straights "
        "score their full 25/30/40; with no lower box open, 0 goes in an upper box",
    },
    "joker=free": {
        "sv": "Joker: en {box} när {box}-rutan är fylld får skrivas i valfri ledig ruta; "
        "Kåk, Liten och Stor stege ger fulla 25/30/40 när dess övre ruta är fylld",
        "fi": "Jokeri: {box}, kun {box}-ruutu on täytetty, käy mihin tahansa vapaaseen "
        "ruutuun; Täyskäsi, Pieni ja Iso suora antavat täydet 25/30/40, kun sen "
        "yläruutu on täytetty",
        "en": "Joker: a {box} rolled when the {box} box is filled may go in any open box; "
        "Full House and the straights score their full 25/30/40 when its upper box is "
        "filled",
    },
    "bonus": {
        "sv": "Bonus {points} när Summa är minst {threshold}",
        "fi": "Hyvitys {points}, kun Summa on vähintään {threshold}",
        "en": "Bonus {points} when Sum is at least {threshold}",
    },
}


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
