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
from yatzy.rules import VARIANTS, Language, RuleSet
from yatzy.rules.dice import format_dice, format_die

_WORDS: dict[str, dict[Language, str]] = {
    "roll": {"sv": "Slå", "fi": "Heitä", "en": "Roll"},
    "reroll_all": {
        "sv": "Slå om alla tärningar",
        "fi": "Heitä kaikki nopat uudelleen",
        "en": "Roll all the dice again",
    },
    "keep": {"sv": "Behåll {dice}", "fi": "Pidä {dice}", "en": "Keep {dice}"},
    "and": {"sv": "och", "fi": "ja", "en": "and"},
    "double_legend": {"sv": "inre/yttre", "fi": "sisempi/ulompi", "en": "inner/outer"},
    "score": {
        "sv": "Skriv {points} i {box}",
        "fi": "Kirjaa {points} ruutuun {box}",
        "en": "Score {points} in {box}",
    },
    "scratch": {"sv": "Stryk {box}", "fi": "Yliviivaa {box}", "en": "Scratch {box}"},
    "entry": {"sv": "{box} ({points})", "fi": "{box} ({points})", "en": "{box} ({points})"},
    "entry_scratch": {"sv": "stryk {box}", "fi": "yliviivaa {box}", "en": "scratch {box}"},
    "fill2": {
        "sv": "Inre: {inner}, yttre: {outer}",
        "fi": "Sisempi: {inner}, ulompi: {outer}",
        "en": "Inner: {inner}, outer: {outer}",
    },
    "as_good": {"sv": "lika bra", "fi": "yhtä hyvä", "en": "as good"},
    "lost": {"sv": "−{points} p", "fi": "−{points} p", "en": "−{points} p"},
    "approximate_double": {
        "sv": "Ungefärligt: {title} är för stort för att räknas ut exakt, "
        "så råden kommer från en förenklad strategi.",
        "fi": "Likimääräinen: {title} on liian suuri laskettavaksi tarkasti, "
        "joten neuvot tulevat yksinkertaistetusta strategiasta.",
        "en": "Approximate: {title} is too large to solve exactly, "
        "so the advice comes from a simplified strategy.",
    },
    "approximate_saved": {
        "sv": "Ungefärligt: den exakta tabellen för sparade slag som samlas är inte byggd "
        "(kör yatzy solve maxi+saved_rolls), så råden kommer från en förenklad strategi.",
        "fi": "Likimääräinen: kertyvien säästettyjen heittojen tarkkaa taulukkoa ei ole "
        "rakennettu (aja yatzy solve maxi+saved_rolls), joten neuvot tulevat "
        "yksinkertaistetusta strategiasta.",
        "en": "Approximate: the exact table for saved rolls that accumulate is not built "
        "(run yatzy solve maxi+saved_rolls), so the advice comes from a simplified strategy.",
    },
    "approximate": {
        "sv": "Ungefärligt: råden kommer från en förenklad strategi.",
        "fi": "Likimääräinen: neuvot tulevat yksinkertaistetusta strategiasta.",
        "en": "Approximate: the advice comes from a simplified strategy.",
    },
    "unavailable": {
        "sv": "Inga tips finns för de här reglerna.",
        "fi": "Näille säännöille ei ole vihjeitä.",
        "en": "No hints are available for these rules.",
    },
    "decision_summary": {
        "sv": "{best} av {total} beslut var de bästa. Förväntad förlust mot bästa spel: "
        "{loss} poäng ({mean} per beslut).",
        "fi": "{total} päätöksestä {best} oli parhaita. Odotettu menetys parhaaseen peliin "
        "verrattuna: {loss} pistettä ({mean} päätöstä kohden).",
        "en": "{best} of {total} decisions were the best. Expected points lost against best "
        "play: {loss} ({mean} per decision).",
    },
    "box_summary": {
        "sv": "{best} av {total} val av ruta var de bästa. Förväntad förlust mot bästa val: "
        "{loss} poäng.",
        "fi": "{total} ruutuvalinnasta {best} oli parhaita. Odotettu menetys parhaisiin "
        "valintoihin verrattuna: {loss} pistettä.",
        "en": "{best} of {total} box choices were the best. Expected points lost against the "
        "best choices: {loss}.",
    },
    "costly": {
        "sv": "Tur {turn}, slag {roll} ({dice}): {chosen}. Bättre: {best} ({loss}).",
        "fi": "Vuoro {turn}, heitto {roll} ({dice}): {chosen}. Parempi: {best} ({loss}).",
        "en": "Turn {turn}, roll {roll} ({dice}): {chosen}. Better: {best} ({loss}).",
    },
    "costly_pad": {
        "sv": "Tur {turn} ({dice}): {chosen}. Bättre: {best} ({loss}).",
        "fi": "Vuoro {turn} ({dice}): {chosen}. Parempi: {best} ({loss}).",
        "en": "Turn {turn} ({dice}): {chosen}. Better: {best} ({loss}).",
    },
    "chart": {
        "sv": "Förväntat slutresultat för {name} tur för tur: {first} före tur 1, "
        "{last} före tur {turns}; slutresultat {final}.",
        "fi": "Pelaajan {name} odotettu loppupistemäärä vuoro vuorolta: {first} ennen vuoroa 1, "
        "{last} ennen vuoroa {turns}; lopputulos {final}.",
        "en": "Expected final score of {name} turn by turn: {first} before turn 1, "
        "{last} before turn {turns}; final score {final}.",
    },
    "pad_boxes": {
        "sv": "Ett poängblock sparar bara de slutliga tärningarna, inte slagen: här bedöms "
        "valet av ruta för tärningarna, men inte vilka tärningar som behölls.",
        "fi": "Pistelista tallentaa vain lopulliset nopat, ei heittoja: tässä arvioidaan "
        "ruudun valinta nopille, mutta ei sitä, mitkä nopat pidettiin.",
        "en": "A score pad keeps only the final dice, not the rolls: the box chosen for "
        "them is rated here, but not which dice were kept.",
    },
    "pad_points": {
        "sv": "Ett poängblock där bara poäng skrevs har inga tärningar att bedöma. "
        "Ange tärningarna varje tur så kan valen av ruta bedömas.",
        "fi": "Pistelistassa, johon kirjattiin vain pisteet, ei ole arvioitavia noppia. "
        "Syötä nopat joka vuorolla, niin ruutuvalinnat voidaan arvioida.",
        "en": "A score pad with only points written has no dice to rate. "
        "Enter the dice every turn and the box choices can be rated.",
    },
    "pad_saved": {
        "sv": "Ett poängblock vet inte hur många slag som sparades, så valen kan inte "
        "bedömas med sparade slag.",
        "fi": "Pistelista ei tiedä, montako heittoa säästettiin, joten valintoja ei voi "
        "arvioida säästettyjen heittojen kanssa.",
        "en": "A score pad does not know how many rolls were saved, so its choices cannot "
        "be rated with saved rolls.",
    },
    "pad_incomplete": {
        "sv": "{name} skrev bara poäng, utan tärningar, i någon tur, så valen kan inte bedömas.",
        "fi": "{name} kirjasi jollakin vuorolla vain pisteet ilman noppia, joten valintoja ei "
        "voi arvioida.",
        "en": "{name} wrote only points, without the dice, in some turn, so the choices "
        "cannot be rated.",
    },
}

# Die faces as words: Swedish singular and plural definite forms, Finnish nominative
# and partitive (after a numeral), and the numerals themselves.
_SV_ONE = {1: "ettan", 2: "tvåan", 3: "trean", 4: "fyran", 5: "femman", 6: "sexan"}
_SV_MANY = {1: "ettorna", 2: "tvåorna", 3: "treorna", 4: "fyrorna", 5: "femmorna", 6: "sexorna"}
_FI_ONE = {1: "ykkönen", 2: "kakkonen", 3: "kolmonen", 4: "nelonen", 5: "viitonen", 6: "kuutonen"}
_FI_PART = {1: "ykköstä", 2: "kakkosta", 3: "kolmosta", 4: "nelosta", 5: "viitosta", 6: "kuutosta"}
_NUMERALS: dict[Language, dict[int, str]] = {
    "sv": {2: "två", 3: "tre", 4: "fyra", 5: "fem", 6: "sex"},
    "fi": {2: "kaksi", 3: "kolme", 4: "neljä", 5: "viisi", 6: "kuusi"},
    "en": {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"},
}


def word(key: str, lang: Language, **fields: Any) -> str:
    """A phrase of this module's catalog in ``lang`` with ``fields`` filled in."""
    return _WORDS[key][lang].format(**fields)


def number(x: float, lang: Language, digits: int = 1) -> str:
    """``x`` with ``digits`` decimals and the language's decimal mark (1,3 in sv/fi)."""
    text = f"{x:.{digits}f}"
    if text.startswith("-"):
        text = "−" + text[1:]
    return text if lang == "en" else text.replace(".", ",")


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
        numeral = _NUMERALS[lang].get(n, str(n))
        if lang == "sv":
            parts.append(_SV_ONE[face] if n == 1 else f"de {numeral} {_SV_MANY[face]}")
        elif lang == "fi":
            parts.append(_FI_ONE[face] if n == 1 else f"{numeral} {_FI_PART[face]}")
        elif n == 1:
            parts.append(f"{face}" if singles and i > 0 else f"the {face}")
        else:
            parts.append(f"the {numeral} {face}s")
    return _join(parts, lang)


def double_dice_words(dice: Sequence[Any], lang: Language) -> str:
    """DubbelYatzy's double dice, inner face first as everywhere: "4/6 och 3/3 (inre/yttre)"."""
    shown = [format_die(d) for d in dice]
    return f"{_join(shown, lang)} ({word('double_legend', lang)})"


def dice_words(dice: Sequence[Any]) -> str:
    """The dice as a short list of faces ("2 3 3 5 6"; double dice inner first, "4/6 3/3")."""
    return format_dice(dice)


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
