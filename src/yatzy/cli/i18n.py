"""Messages of the terminal game in Swedish, Finnish and English.

Box names and the computed rows (Sum, Bonus, Total ...) come from
:mod:`yatzy.rules.categories`; this catalog holds the words of the terminal UI
only.  :func:`tr` looks a message up and fills in its fields; a missing key or
language is a programming error and fails loudly in the tests.
"""

from __future__ import annotations

from yatzy.rules import Language

MESSAGES: dict[str, dict[Language, str]] = {
    # -- board -------------------------------------------------------------------
    "round": {
        "en": "round {n} of {total}",
        "sv": "omgång {n} av {total}",
        "fi": "kierros {n}/{total}",
    },
    "turn_of": {"en": "{name} to play", "sv": "{name} spelar", "fi": "vuorossa {name}"},
    "box": {"en": "Box", "sv": "Ruta", "fi": "Ruutu"},
    "now": {"en": "now", "sv": "nu", "fi": "nyt"},
    "dice": {"en": "Dice", "sv": "Tärningar", "fi": "Nopat"},
    "position": {"en": "position", "sv": "plats", "fi": "paikka"},
    "outer": {"en": "outer", "sv": "yttre", "fi": "ulompi"},
    "inner": {"en": "inner", "sv": "inre", "fi": "sisempi"},
    "kept": {"en": "kept", "sv": "behållen", "fi": "pidetty"},
    "rolls_left": {
        "en": "Rolls left: {n} of {max}",
        "sv": "Slag kvar: {n} av {max}",
        "fi": "Heittoja jäljellä: {n}/{max}",
    },
    "saved_rolls_row": {"en": "Saved rolls", "sv": "Sparade slag", "fi": "Säästetyt heitot"},
    "saved_rolls": {
        "en": " ({n} saved from earlier turns)",
        "sv": " ({n} sparade från tidigare omgångar)",
        "fi": " ({n} säästetty aiemmilta kierroksilta)",
    },
    "not_allowed_legend": {
        "en": "(n): what the box would score, but it may not be filled now ({why})",
        "sv": "(n): vad rutan skulle ge, men den får inte fyllas nu ({why})",
        "fi": "(n): ruudun pisteet, mutta sitä ei saa täyttää nyt ({why})",
    },
    "why_forced": {"en": "forced order", "sv": "tvång", "fi": "pakkojärjestys"},
    "why_half_forced": {"en": "half-forced order", "sv": "halvtvång", "fi": "puolipakko"},
    "why_joker": {"en": "joker rule", "sv": "jokerregeln", "fi": "jokerisääntö"},
    "why_last_resort": {
        "en": "last resort: Chance only when nothing else scores",
        "sv": "sista utväg: Chans bara när inget annat ger poäng",
        "fi": "viimeinen keino: sattuma vain kun mikään muu ei tuota pisteitä",
    },
    "record_chance": {
        "en": "Chance of beating your record ({record}): {percent} %",
        "sv": "Chans att slå ditt rekord ({record}): {percent} %",
        "fi": "Mahdollisuus rikkoa ennätyksesi ({record}): {percent} %",
    },
    "win_line": {
        "en": "Chance to win: {chances}",
        "sv": "Chans att vinna: {chances}",
        "fi": "Voittotodennäköisyys: {chances}",
    },
    "win_line_simulated": {
        "en": "Chance to win (simulated, ± at 95 %): {chances}",
        "sv": "Chans att vinna (simulerad, ± med 95 % säkerhet): {chances}",
        "fi": "Voittotodennäköisyys (simuloitu, ± 95 %:n varmuudella): {chances}",
    },
    "win_line_pending": {
        "en": "Chance to win: not available yet ({reason})",
        "sv": "Chans att vinna: inte tillgänglig än ({reason})",
        "fi": "Voittotodennäköisyys: ei vielä saatavilla ({reason})",
    },
    "win_row": {"en": "Win %", "sv": "Vinst %", "fi": "Voitto %"},
    "record_chance_unavailable": {
        "en": "Chance of beating your record ({record}): not available",
        "sv": "Chans att slå ditt rekord ({record}): inte tillgänglig",
        "fi": "Mahdollisuus rikkoa ennätyksesi ({record}): ei saatavilla",
    },
    "hint_first_roll": {
        "en": "{name}: press Enter to roll ({help} for help)",
        "sv": "{name}: tryck Enter för att slå ({help} för hjälp)",
        "fi": "{name}: heitä painamalla Enter ({help} ohjeet)",
    },
    "hint_turn": {
        "en": "r roll · k 1 3 keep positions · v 6 6 keep values\n"
        "s BOX score · x BOX scratch · ? help",
        "sv": "r slå · k 1 3 behåll platser · v 6 6 behåll värden\n"
        "s RUTA skriv · x RUTA stryk · ? hjälp",
        "fi": "r heitä · k 1 3 pidä paikat · v 6 6 pidä arvot\n"
        "s RUUTU kirjaa · x RUUTU viivaa · ? ohje",
    },
    "hint_turn_double": {
        "en": "r roll · k 1 3 keep positions · v 3/6 keep values\n"
        "s INNER OUTER score · x INNER OUTER scratch · ? help",
        "sv": "r slå · k 1 3 behåll platser · v 3/6 behåll värden\n"
        "s INRE YTTRE skriv · x INRE YTTRE stryk · ? hjälp",
        "fi": "r heitä · k 1 3 pidä paikat · v 3/6 pidä arvot\n"
        "s SISÄ ULKO kirjaa · x SISÄ ULKO viivaa · ? ohje",
    },
    "hint_no_rolls_double": {
        "en": "No rolls left: s INNER OUTER to score or x INNER OUTER to scratch",
        "sv": "Inga slag kvar: s INRE YTTRE för att skriva eller x INRE YTTRE för att stryka",
        "fi": "Heittoja ei ole jäljellä: s SISÄ ULKO kirjaa tai x SISÄ ULKO viivaa",
    },
    "hint_no_rolls": {
        "en": "No rolls left: s BOX to score or x BOX to scratch",
        "sv": "Inga slag kvar: s RUTA för att skriva eller x RUTA för att stryka",
        "fi": "Heittoja ei ole jäljellä: s RUUTU kirjaa tai x RUUTU viivaa",
    },
    # -- roll-off and events -------------------------------------------------------
    "rolloff_title": {
        "en": "Who starts? Everyone rolls one die:",
        "sv": "Vem börjar? Alla slår en tärning:",
        "fi": "Kuka aloittaa? Jokainen heittää yhtä noppaa:",
    },
    "rolloff_tie": {
        "en": "tie at {face}, roll again",
        "sv": "lika på {face}, slå om",
        "fi": "tasapeli ({face}), heitetään uudelleen",
    },
    "starts": {"en": "{name} starts.", "sv": "{name} börjar.", "fi": "{name} aloittaa."},
    "rolled": {
        "en": "{name} rolls {dice}",
        "sv": "{name} slår {dice}",
        "fi": "{name} heittää {dice}",
    },
    "rolled_keeping": {
        "en": "{name} keeps {kept} and rolls: {dice}",
        "sv": "{name} behåller {kept} och slår: {dice}",
        "fi": "{name} pitää {kept} ja heittää: {dice}",
    },
    "drop_inner": {
        "en": "(inner faces, {face} dropped)",
        "sv": "(inre sidor, {face} struken)",
        "fi": "(sisäsilmäluvut, {face} pudotettu)",
    },
    "drop_outer": {
        "en": "(outer faces, {face} dropped)",
        "sv": "(yttre sidor, {face} struken)",
        "fi": "(ulkosilmäluvut, {face} pudotettu)",
    },
    "wrote": {
        "en": "{name} writes {points} in {box}",
        "sv": "{name} skriver {points} i {box}",
        "fi": "{name} kirjaa {points} ruutuun {box}",
    },
    "scratched": {
        "en": "{name} scratches {box}",
        "sv": "{name} stryker {box}",
        "fi": "{name} viivaa ruudun {box}",
    },
    "yatzy_bonus_won": {
        "en": "{name} earns a {bonus} of {points}!",
        "sv": "{name} får en Yatzybonus på {points}!",
        "fi": "{name} saa Yatzy-bonuksen {points}!",
    },
    "and": {"en": "and", "sv": "och", "fi": "ja"},
    "bot": {"en": "bot", "sv": "dator", "fi": "tietokone"},
    "resumed": {
        "en": "Resumed {path}: {spec}, {turns} turns played.",
        "sv": "Fortsätter {path}: {spec}, {turns} drag spelade.",
        "fi": "Jatketaan {path}: {spec}, {turns} vuoroa pelattu.",
    },
    # -- game over ---------------------------------------------------------------------
    "game_over": {"en": "Game over.", "sv": "Spelet är slut.", "fi": "Peli päättyi."},
    "winner": {
        "en": "Winner: {names} with {points} points.",
        "sv": "Vinnare: {names} med {points} poäng.",
        "fi": "Voittaja: {names}, {points} pistettä.",
    },
    "shared_win": {
        "en": "Shared win: {names} with {points} points each.",
        "sv": "Delad seger: {names} med {points} poäng var.",
        "fi": "Jaettu voitto: {names}, kullakin {points} pistettä.",
    },
    "solo_result": {
        "en": "{name} scores {points} points.",
        "sv": "{name} fick {points} poäng.",
        "fi": "{name} sai {points} pistettä.",
    },
    "standings": {"en": "Final standings:", "sv": "Slutställning:", "fi": "Lopputulokset:"},
    # -- saving and quitting -------------------------------------------------------------
    "saved": {"en": "Saved to {path}.", "sv": "Sparat i {path}.", "fi": "Tallennettu: {path}."},
    "resume_hint": {
        "en": "Continue later with: yatzy play --resume {path}",
        "sv": "Fortsätt senare med: yatzy play --resume {path}",
        "fi": "Jatka myöhemmin: yatzy play --resume {path}",
    },
    "save_failed": {
        "en": "could not save to {path}: {reason}",
        "sv": "kunde inte spara i {path}: {reason}",
        "fi": "tallennus ei onnistunut ({path}): {reason}",
    },
    "quit_offer": {
        "en": "Save the game before quitting? y: save it in {folder}, or a file name"
        " (Enter or n: do not save): ",
        "sv": "Spara spelet innan du avslutar? j: spara i {folder}, eller ett filnamn"
        " (Enter eller n: spara inte): ",
        "fi": "Tallennetaanko peli ennen lopetusta? k: tallenna kansioon {folder}, tai"
        " tiedostonimi (Enter tai e: ei tallenneta): ",
    },
    "not_saved": {
        "en": "The game was not saved.",
        "sv": "Spelet sparades inte.",
        "fi": "Peliä ei tallennettu.",
    },
    "enter_no_reroll": {
        "en": "Enter does not roll once the dice are out (it would lose them): type r to roll.",
        "sv": "Enter slår inte när tärningarna ligger (de vore förlorade): skriv r för att slå.",
        "fi": "Enter ei heitä, kun nopat on heitetty (ne menetettäisiin): kirjoita r heittääksesi.",
    },
    "confirm_zero": {
        "en": "{box} gets 0 points though the dice score elsewhere. Really? (y/n) ",
        "sv": "{box} får 0 poäng fast tärningarna ger poäng på annat ställe. Säkert? (j/n) ",
        "fi": "{box} saa 0 pistettä, vaikka nopat antaisivat pisteitä muualla. Varmasti? (k/e) ",
    },
    "not_written": {
        "en": "Nothing written.",
        "sv": "Inget skrevs.",
        "fi": "Mitään ei kirjattu.",
    },
    "file_exists": {
        "en": "{path} already exists; not overwritten (use save! {path} to replace it).",
        "sv": "{path} finns redan; skrevs inte över (använd save! {path} för att ersätta den).",
        "fi": "{path} on jo olemassa; ei korvattu (korvaa komennolla save! {path}).",
    },
    "stats_recorded": {
        "en": "The game is kept in your statistics (yatzy stats, and the web app's history).",
        "sv": "Partiet sparas i din statistik (yatzy stats och webbappens historik).",
        "fi": "Peli tallennettiin tilastoihisi (yatzy stats ja verkkosovelluksen historia).",
    },
    "stats_not_recorded": {
        "en": "! The game could not be kept in your statistics: {reason}",
        "sv": "! Partiet kunde inte sparas i din statistik: {reason}",
        "fi": "! Peliä ei voitu tallentaa tilastoihisi: {reason}",
    },
    "save_option_exists": {
        "en": "--save {path!r}: the file already exists (add --force to replace it)",
        "sv": "--save {path!r}: filen finns redan (lägg till --force för att ersätta den)",
        "fi": "--save {path!r}: tiedosto on jo olemassa (korvaa lisäämällä --force)",
    },
    "confirm_overwrite": {
        "en": "{path} already exists. Replace it? (y/n) ",
        "sv": "{path} finns redan. Ersätta den? (j/n) ",
        "fi": "{path} on jo olemassa. Korvataanko? (k/e) ",
    },
    "rescued": {
        "en": "The unfinished game was saved to {path}.",
        "sv": "Det ofullbordade spelet sparades i {path}.",
        "fi": "Keskeneräinen peli tallennettiin: {path}.",
    },
    "end_of_input": {
        "en": "End of input: the game stops unfinished.",
        "sv": "Indata slut: spelet avbryts ofullbordat.",
        "fi": "Syöte loppui: peli jää kesken.",
    },
    # -- errors at the prompt --------------------------------------------------------------
    "unknown_command": {
        "en": "unknown command {word!r}; type ? for help",
        "sv": "okänt kommando {word!r}; skriv ? för hjälp",
        "fi": "tuntematon komento {word!r}; ? näyttää ohjeet",
    },
    "unknown_box": {
        "en": "no box {text!r}; give its number 1-{n}, its name or its id",
        "sv": "ingen ruta {text!r}; ange nummer 1-{n}, namn eller id",
        "fi": "ei ruutua {text!r}; anna numero 1-{n}, nimi tai tunnus",
    },
    "nothing_to_undo": {
        "en": "nothing to undo: a write is taken back only until the next roll",
        "sv": "inget att ångra: en skrivning kan ångras bara fram till nästa slag",
        "fi": "ei kumottavaa: merkinnän voi kumota vain ennen seuraavaa heittoa",
    },
    "undone": {
        "en": "{name} takes back {box}",
        "sv": "{name} ångrar {box}",
        "fi": "{name} kumoaa: {box}",
    },
    "did_you_mean": {
        "en": "; did you mean {choices}?",
        "sv": "; menade du {choices}?",
        "fi": "; tarkoititko {choices}?",
    },
    "ambiguous_box": {
        "en": "{text!r} could be {choices}; write more of the name",
        "sv": "{text!r} kan vara {choices}; skriv mer av namnet",
        "fi": "{text!r} voi olla {choices}; kirjoita nimeä pidemmälle",
    },
    "need_box": {
        "en": "name a box, e.g. {cmd} 1 or {cmd} chance",
        "sv": "ange en ruta, t.ex. {cmd} 1 eller {cmd} chans",
        "fi": "anna ruutu, esim. {cmd} 1 tai {cmd} sattuma",
    },
    "one_box": {
        "en": "one box a turn: {text!r} names more than one",
        "sv": "en ruta per omgång: {text!r} anger fler än en",
        "fi": "yksi ruutu vuorossa: {text!r} nimeää useamman",
    },
    "two_boxes": {
        "en": "DubbelYatzy fills two boxes: s INNER OUTER (e.g. s small_straight full_house)",
        "sv": "DubbelYatzy fyller två rutor: s INRE YTTRE (t.ex. s liten kåk)",
        "fi": "Tupla-Yatzy täyttää kaksi ruutua: s SISÄ ULKO (esim. s pieni täyskäsi)",
    },
    "two_boxes_unclear": {
        "en": "cannot tell the inner and the outer box apart in {text!r}; use numbers or ids",
        "sv": "kan inte skilja inre och yttre ruta i {text!r}; använd nummer eller id",
        "fi": "sisä- ja ulkoruutua ei erota tekstistä {text!r}; käytä numeroita tai tunnuksia",
    },
    "bad_drop": {
        "en": "{text!r} is not a face to drop (1-6)",
        "sv": "{text!r} är inget värde att stryka bort (1-6)",
        "fi": "{text!r} ei ole pois jätettävä silmäluku (1-6)",
    },
    "bad_position": {
        "en": "{text!r} is not a die position 1-{n}",
        "sv": "{text!r} är ingen tärningsplats 1-{n}",
        "fi": "{text!r} ei ole nopan paikka 1-{n}",
    },
    "position_twice": {
        "en": "die position {pos} is given twice",
        "sv": "tärningsplats {pos} anges två gånger",
        "fi": "nopan paikka {pos} on annettu kahdesti",
    },
    "need_positions": {
        "en": "say which dice to keep, e.g. k 1 3 (or r to roll every die)",
        "sv": "ange vilka tärningar som ska behållas, t.ex. k 1 3 (eller r för att slå alla)",
        "fi": "kerro pidettävät nopat, esim. k 1 3 (tai r heittää kaikki)",
    },
    "bad_value": {
        "en": "{text!r} is not a die value 1-6",
        "sv": "{text!r} är inget tärningsvärde 1-6",
        "fi": "{text!r} ei ole silmäluku 1-6",
    },
    "bad_double_value": {
        "en": "{text!r} is not a double die: write INNER/OUTER like 3/6, or one inner face",
        "sv": "{text!r} är ingen dubbeltärning: skriv INRE/YTTRE som 3/6, eller ett inre värde",
        "fi": "{text!r} ei ole tuplanoppa: kirjoita SISÄ/ULKO kuten 3/6 tai yksi sisäluku",
    },
    "value_missing": {
        "en": "no die shows {value}",
        "sv": "ingen tärning visar {value}",
        "fi": "mikään noppa ei näytä {value}",
    },
    "value_too_few": {
        "en": "only {count} of the dice show {value}",
        "sv": "bara {count} av tärningarna visar {value}",
        "fi": "vain {count} nopista näyttää {value}",
    },
    "roll_first": {
        "en": "roll first: press Enter",
        "sv": "slå först: tryck Enter",
        "fi": "heitä ensin: paina Enter",
    },
    "no_rolls": {
        "en": "no rolls left this turn: score a box (s BOX) or scratch one (x BOX)",
        "sv": "inga slag kvar: skriv i en ruta (s RUTA) eller stryk en (x RUTA)",
        "fi": "heittoja ei ole jäljellä: kirjaa (s RUUTU) tai viivaa (x RUUTU)",
    },
    "keep_all": {
        "en": "keeping every die leaves nothing to roll: score instead",
        "sv": "att behålla alla tärningar lämnar inget att slå: skriv i en ruta i stället",
        "fi": "kaikkien noppien pitäminen ei jätä heitettävää: kirjaa pisteet",
    },
    "box_filled": {
        "en": "{box} is already filled",
        "sv": "{box} är redan ifylld",
        "fi": "{box} on jo täytetty",
    },
    "not_allowed": {
        "en": "{box} may not be filled now; allowed: {allowed}",
        "sv": "{box} får inte fyllas nu; tillåtna: {allowed}",
        "fi": "ruutua {box} ei saa täyttää nyt; sallitut: {allowed}",
    },
    "last_resort": {
        "en": "{box} may not take these dice: Chance only when they score nowhere else, "
        "0 only when they score nowhere (last_resort); allowed: {allowed}",
        "sv": "{box} får inte ta de här tärningarna: Chans bara när de inte ger poäng "
        "någon annanstans, 0 bara när de inte ger poäng någonstans; tillåtna: {allowed}",
        "fi": "ruutuun {box} ei saa kirjata näitä noppia: sattuma vain kun ne eivät tuota "
        "pisteitä muualla, nolla vain kun ne eivät tuota missään; sallitut: {allowed}",
    },
    "not_scratchable": {
        "en": "{box} may not be scratched",
        "sv": "{box} får inte strykas",
        "fi": "ruutua {box} ei saa viivata",
    },
    "same_box_twice": {
        "en": "the inner and outer results need two different boxes",
        "sv": "inre och yttre resultat behöver två olika rutor",
        "fi": "sisä- ja ulkotulos tarvitsevat kaksi eri ruutua",
    },
    "need_file": {
        "en": "give a file name: save FILE",
        "sv": "ange ett filnamn: spara FIL",
        "fi": "anna tiedostonimi: tallenna TIEDOSTO",
    },
    "no_arguments": {
        "en": "{cmd} takes no arguments",
        "sv": "{cmd} tar inga argument",
        "fi": "{cmd} ei ota argumentteja",
    },
    # -- help ------------------------------------------------------------------------------
    "help": {
        "en": """Commands (English words work in every language):
  r (Enter at first)  roll the dice that are not kept (* marks the kept ones)
  r all               roll every die
  k 1 3 4             keep the dice at positions 1, 3 and 4, roll the others
  v 3 3               keep two dice showing 3, roll the others
  s BOX               write the dice's points in BOX: its number, name, id or
                      the start of its name (s 7, s pair, s one_pair)
  x BOX               scratch BOX (write 0; asks first if the dice score)
  u                   undo your last write, until the next roll
  save FILE           save the game to FILE (continue with --resume FILE)
  save! FILE          the same, replacing an existing FILE without asking
  q, Ctrl-D           quit (offers to save)
  ?                   this help""",
        "sv": """Kommandon (de engelska orden fungerar också):
  r, slå (Enter först) slå tärningarna som inte är behållna (* visar de behållna)
  r all, slå alla     slå alla tärningar
  k 1 3 4, behåll     behåll tärningarna på plats 1, 3 och 4, slå de andra
  v 3 3, värde        behåll två tärningar som visar 3, slå de andra
  s RUTA, skriv       skriv tärningarnas poäng i RUTA: nummer, namn, id eller
                      början av namnet (s 7, s ett par, s one_pair)
  x RUTA, stryk       stryk RUTA (skriv 0; frågar först om tärningarna ger poäng)
  u, ångra            ångra din senaste skrivning, fram till nästa slag
  spara FIL           spara spelet i FIL (fortsätt med --resume FIL)
  spara! FIL          samma, ersätter en befintlig FIL utan att fråga
  q, avsluta, Ctrl-D  avsluta (erbjuder att spara)
  ?, hjälp            den här hjälpen""",
        "fi": """Komennot (myös englanninkieliset sanat toimivat):
  r, heitä (Enter 1.) heitä nopat, joita ei pidetä (* merkitsee pidetyt)
  r all, heitä kaikki heitä kaikki nopat
  k 1 3 4, pidä       pidä paikkojen 1, 3 ja 4 nopat, heitä muut
  v 3 3, arvo         pidä kaksi kolmosta, heitä muut
  s RUUTU, kirjaa     kirjaa noppien pisteet ruutuun: numero, nimi, tunnus tai
                      nimen alku (s 7, s 1 pari, s one_pair)
  x RUUTU, viivaa     viivaa ruutu (0 pistettä; kysyy ensin, jos nopat antaisivat pisteitä)
  u, kumoa            kumoa viimeisin merkintäsi ennen seuraavaa heittoa
  tallenna TIEDOSTO   tallenna peli (jatka: --resume TIEDOSTO)
  tallenna! TIEDOSTO  sama, korvaa olemassa olevan tiedoston kysymättä
  q, lopeta, Ctrl-D   lopeta (tarjoaa tallennusta)
  ?, ohje             tämä ohje""",
    },
    "help_double": {
        "en": """DubbelYatzy: each turn writes two results, the inner faces' and the outer faces'.
  s INNER OUTER       e.g. s small_straight full_house, or s 11 13
  s 11/2 13/4         drop face 2 from the inner result and 4 from the outer
                      (without /N the best face to drop is chosen)
  x INNER OUTER       scratch both; mix with s INNER x OUTER
  v 3/6 5             keep the die with inner 3 and outer 6, and one with inner 5""",
        "sv": """DubbelYatzy: varje omgång skriver två resultat, de inre och de yttre värdena.
  s INRE YTTRE        t.ex. s small_straight full_house, eller s 11 13
  s 11/2 13/4         stryk bort värdet 2 ur det inre resultatet och 4 ur det yttre
                      (utan /N väljs det bästa värdet att stryka bort)
  x INRE YTTRE        stryk båda; blanda med s INRE x YTTRE
  v 3/6 5             behåll tärningen med inre 3 och yttre 6, och en med inre 5""",
        "fi": """Tupla-Yatzy: joka vuoro kirjataan kaksi tulosta, sisä- ja ulkonopista.
  s SISÄ ULKO         esim. s small_straight full_house tai s 11 13
  s 11/2 13/4         jätä sisätuloksesta pois 2 ja ulkotuloksesta 4
                      (ilman /N pois jätetään paras silmäluku)
  x SISÄ ULKO         viivaa molemmat; yhdistä: s SISÄ x ULKO
  v 3/6 5             pidä noppa, jonka sisäluku 3 ja ulkoluku 6, ja yksi sisäluvulla 5""",
    },
}
"""Message key to its text in every language (``str.format`` fields)."""


def tr(key: str, lang: Language, **fields: object) -> str:
    """The message ``key`` in ``lang`` with its fields filled in."""
    return MESSAGES[key][lang].format(**fields)


def join_names(names: list[str], lang: Language) -> str:
    """``A``, ``A and B``, ``A, B and C`` in ``lang``."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} {tr('and', lang)} {names[-1]}"


# -- the full-screen game (yatzy play at a terminal, yatzy.cli.tui) ----------------------
# A block of its own, so that the line mode's messages above and these merge apart.
_TUI_MESSAGES: dict[str, dict[Language, str]] = {
    "tui_keys": {
        "en": "1-6 keep  R roll  A-Z Enter write  X scratch  U undo  H hint  ? help  Q quit",
        "sv": "1-6 behåll  R slå  A-Z Enter skriv  X stryk  U ångra  H tips  ? hjälp  Q sluta",
        "fi": "1-6 pidä  R heitä  A-Z Enter kirjaa  X viivaa  U kumoa  H vihje  ? ohje  Q ulos",
    },
    "tui_keys_over": {
        "en": "The game is over · ? help · Ctrl-S save · Q quit",
        "sv": "Spelet är slut · ? hjälp · Ctrl-S spara · Q avsluta",
        "fi": "Peli on päättynyt · ? ohje · Ctrl-S tallenna · Q lopeta",
    },
    "tui_first_roll": {
        "en": "{name}: press Space or R to roll",
        "sv": "{name}: tryck Blanksteg eller R för att slå",
        "fi": "{name}: heitä painamalla välilyöntiä tai R",
    },
    "tui_choose": {
        "en": "Keep dice (1-{n}) and roll, or choose a box (↑↓, letter) and press Enter",
        "sv": "Behåll tärningar (1-{n}) och slå, eller välj ruta (↑↓, bokstav) och tryck Enter",
        "fi": "Pidä noppia (1-{n}) ja heitä, tai valitse ruutu (↑↓, kirjain) ja paina Enter",
    },
    "tui_choose_last": {
        "en": "No rolls left: choose a box (↑↓, letter) and press Enter",
        "sv": "Inga slag kvar: välj ruta (↑↓, bokstav) och tryck Enter",
        "fi": "Heittoja ei ole jäljellä: valitse ruutu (↑↓, kirjain) ja paina Enter",
    },
    "tui_arm_first": {
        "en": "Choose the box first (↑↓ or its letter), then Enter writes it",
        "sv": "Välj rutan först (↑↓ eller dess bokstav), sedan skriver Enter i den",
        "fi": "Valitse ensin ruutu (↑↓ tai sen kirjain), sitten Enter kirjaa sen",
    },
    "tui_space_guard": {
        "en": "The dice are out: keep dice with 1-{n} first, or press R to roll",
        "sv": "Tärningarna ligger: behåll först med 1-{n}, eller tryck R för att slå",
        "fi": "Nopat on heitetty: pidä ensin noppia (1-{n}), tai heitä painamalla R",
    },
    "tui_confirm_reroll": {
        "en": "The dice show {box}! Roll them away anyway?",
        "sv": "Tärningarna visar {box}! Slå bort dem ändå?",
        "fi": "Nopissa on {box}! Heitetäänkö ne silti uudelleen?",
    },
    "tui_scratch_mode": {
        "en": "Scratch mode: Enter scratches the chosen box (X: back to scoring)",
        "sv": "Stryk-läge: Enter stryker den valda rutan (X: tillbaka till att skriva)",
        "fi": "Viivaustila: Enter viivaa valitun ruudun (X: takaisin kirjaamaan)",
    },
    "tui_pick_outer": {
        "en": "Inner result: {box}. Now the box of the outer result (Esc: start over)",
        "sv": "Inre resultat: {box}. Välj nu rutan för det yttre (Esc: börja om)",
        "fi": "Sisempi tulos: {box}. Valitse nyt ulomman ruutu (Esc: alusta)",
    },
    "tui_pick_inner": {
        "en": "DubbelYatzy: Enter picks the box of the inner result first, then the outer",
        "sv": "DubbelYatzy: Enter väljer först rutan för det inre resultatet, sedan det yttre",
        "fi": "Tupla-Yatzy: Enter valitsee ensin sisemmän tuloksen ruudun, sitten ulomman",
    },
    "tui_not_a_box": {
        "en": "That row is not a box to write in",
        "sv": "Den raden är ingen ruta att skriva i",
        "fi": "Rivi ei ole kirjattava ruutu",
    },
    "tui_yes": {"en": "Yes", "sv": "Ja", "fi": "Kyllä"},
    "tui_no": {"en": "No", "sv": "Nej", "fi": "Ei"},
    "tui_confirm_zero": {
        "en": "{box} gets 0 points though the dice score elsewhere. Write it?",
        "sv": "{box} får 0 poäng fast tärningarna ger poäng på annat ställe. Skriva ändå?",
        "fi": "{box} saa 0 pistettä, vaikka nopat antaisivat pisteitä muualla. Kirjataanko?",
    },
    "tui_quit_title": {
        "en": "Quit the unfinished game? Save it first to this file:",
        "sv": "Avsluta det ofullbordade spelet? Spara det först i den här filen:",
        "fi": "Lopetetaanko keskeneräinen peli? Tallenna se ensin tähän tiedostoon:",
    },
    "tui_save_quit": {"en": "Save and quit", "sv": "Spara och avsluta", "fi": "Tallenna ja lopeta"},
    "tui_quit_nosave": {
        "en": "Quit without saving",
        "sv": "Avsluta utan att spara",
        "fi": "Lopeta tallentamatta",
    },
    "tui_back": {"en": "Back to the game", "sv": "Tillbaka till spelet", "fi": "Takaisin peliin"},
    "tui_save_title": {
        "en": "Save the game to this file:",
        "sv": "Spara spelet i den här filen:",
        "fi": "Tallenna peli tähän tiedostoon:",
    },
    "tui_save": {"en": "Save", "sv": "Spara", "fi": "Tallenna"},
    "tui_cancel": {"en": "Cancel", "sv": "Avbryt", "fi": "Peruuta"},
    "tui_overwrite": {
        "en": "{path} already exists. Replace it?",
        "sv": "{path} finns redan. Ersätta den?",
        "fi": "{path} on jo olemassa. Korvataanko?",
    },
    "tui_hint_title": {
        "en": "The best options now",
        "sv": "De bästa valen nu",
        "fi": "Parhaat vaihtoehdot nyt",
    },
    "tui_thinking": {
        "en": "Thinking… (the first hint of a rule set may take a while: the solver's "
        "table is made once and kept)",
        "sv": "Tänker… (första tipset för en regeluppsättning kan dröja: lösarens tabell "
        "görs en gång och sparas)",
        "fi": "Mietitään… (sääntöjen ensimmäinen vihje voi kestää: ratkaisijan taulukko "
        "lasketaan kerran ja tallennetaan)",
    },
    "tui_hint_value": {
        "en": "Expected final score with the best play: {value}",
        "sv": "Väntad slutpoäng med bästa spel: {value}",
        "fi": "Odotettu loppupistemäärä parhaalla pelillä: {value}",
    },
    "tui_hint_none": {
        "en": "No hint now: it is not a person's turn",
        "sv": "Inget tips nu: det är ingen människas tur",
        "fi": "Ei vihjettä nyt: vuorossa ei ole ihminen",
    },
    "tui_close": {"en": "Esc: close", "sv": "Esc: stäng", "fi": "Esc: sulje"},
    "tui_help_keys": {
        "en": """Keys
  1-6          keep a die / let it roll again (yellow: kept)
  Space, R     roll the dice that are not kept (Space needs a keep choice
               once the dice are out; R always rolls)
  ↑ ↓, A B C…  choose a box (the letter is shown beside it)
  Enter        write the dice in the chosen box (a 0 where the dice score
               elsewhere asks first)
  X            scratch mode for the next write
  U            undo your last write, until the next roll
  H            the advisor's best options
  ?            this help
  Ctrl-S       save the game to a file
  Q, Ctrl-Q    quit (offers to save an unfinished game)
Colours: yellow = kept dice, green = what scores most now / a won bonus,
magenta = a Yatzy, grey = a box the rules do not allow now""",
        "sv": """Tangenter
  1-6          behåll en tärning / slå om den (gul: behållen)
  Blanksteg, R slå tärningarna som inte är behållna (Blanksteg kräver ett val
               av tärningar när de ligger; R slår alltid)
  ↑ ↓, A B C…  välj en ruta (bokstaven står bredvid)
  Enter        skriv tärningarna i den valda rutan (en 0:a där tärningarna
               ger poäng på annat ställe frågar först)
  X            stryk-läge för nästa skrivning
  U            ångra din senaste skrivning, fram till nästa slag
  H            rådgivarens bästa val
  ?            den här hjälpen
  Ctrl-S       spara spelet i en fil
  Q, Ctrl-Q    avsluta (erbjuder att spara ett ofullbordat spel)
Färger: gul = behållna tärningar, grön = det som ger mest nu / vunnen bonus,
magenta = en Yatzy, grå = en ruta som reglerna inte tillåter nu""",
        "fi": """Näppäimet
  1-6          pidä noppa / heitä se uudelleen (keltainen: pidetty)
  Väli, R      heitä nopat, joita ei pidetä (välilyönti vaatii valinnan,
               kun nopat on heitetty; R heittää aina)
  ↑ ↓, A B C…  valitse ruutu (kirjain näkyy sen vieressä)
  Enter        kirjaa nopat valittuun ruutuun (0, kun nopat antaisivat
               pisteitä muualla, kysytään ensin)
  X            viivaustila seuraavaan kirjaukseen
  U            kumoa viimeisin kirjauksesi ennen seuraavaa heittoa
  H            neuvojan parhaat vaihtoehdot
  ?            tämä ohje
  Ctrl-S       tallenna peli tiedostoon
  Q, Ctrl-Q    lopeta (tarjoaa keskeneräisen pelin tallennusta)
Värit: keltainen = pidetyt nopat, vihreä = eniten pisteitä nyt / saavutettu bonus,
magenta = Yatzy, harmaa = ruutu, jota säännöt eivät nyt salli""",
    },
    "tui_help_double": {
        "en": "DubbelYatzy: Enter picks the inner result's box, a second Enter the outer's; "
        "Esc starts over. The best face to drop is chosen.",
        "sv": "DubbelYatzy: Enter väljer det inre resultatets ruta, ett andra Enter det yttres; "
        "Esc börjar om. Det bästa värdet att stryka bort väljs.",
        "fi": "Tupla-Yatzy: Enter valitsee sisemmän tuloksen ruudun, toinen Enter ulomman; "
        "Esc aloittaa alusta. Paras pois jätettävä silmäluku valitaan.",
    },
    "tui_bot_thinking": {
        "en": "{name} is thinking…",
        "sv": "{name} tänker…",
        "fi": "{name} miettii…",
    },
}
MESSAGES.update(_TUI_MESSAGES)
