"""The words of the web pages in Swedish, Finnish and English.

``{name}`` marks a value the page fills in (a player, a box, a number).
"""

from __future__ import annotations

from yatzy.rules import Language

LANGUAGE_NAMES: dict[str, str] = {"sv": "Svenska", "fi": "Suomi", "en": "English"}
"""Each language by its own name, as the language switch shows it."""

_STRINGS: dict[str, tuple[str, str, str]] = {
    # key: (sv, fi, en)
    # -- every page
    "tagline": (
        "Yatzy, Maxi Yatzy, DubbelYatzy och Yahtzee – mot datorn, med vänner eller på papper.",
        "Yatzy, Maxi-Yatzy, Tupla-Yatzy ja Yahtzee – tietokonetta tai ystäviä vastaan tai "
        "paperilla.",
        "Yatzy, Maxi Yatzy, Double Yatzy and Yahtzee – against the computer, with friends or "
        "on paper.",
    ),
    "skip": ("Hoppa till innehållet", "Siirry sisältöön", "Skip to content"),
    "menu": ("Meny", "Valikko", "Menu"),
    "new_game": ("Nytt spel", "Uusi peli", "New game"),
    "history": ("Historik", "Historia", "History"),
    "rules": ("Regler", "Säännöt", "Rules"),
    "language": ("Språk", "Kieli", "Language"),
    # -- start page
    "start_title": ("Spela Yatzy", "Pelaa Yatzya", "Play Yatzy"),
    "choose_game": ("Vilket spel?", "Mikä peli?", "Which game?"),
    "more_rules": ("Fler regler", "Lisää sääntöjä", "More rules"),
    "show_hints": (
        "Visa tips under spelet",
        "Näytä vihjeitä pelin aikana",
        "Show hints while playing",
    ),
    "hints_missing": (
        "tips finns inte i den här installationen",
        "vihjeitä ei ole tässä asennuksessa",
        "hints are not installed here",
    ),
    "read_rules": ("Läs reglerna", "Lue säännöt", "Read the rules"),
    "how_play": ("Hur vill du spela?", "Miten haluat pelata?", "How do you want to play?"),
    "play_bot": ("Spela mot datorn", "Pelaa tietokonetta vastaan", "Play against the computer"),
    "bot_level": ("Datorns nivå", "Tietokoneen taso", "Computer's level"),
    "play_hotseat": ("Spela här tillsammans", "Pelatkaa tällä laitteella", "Pass and play"),
    "play_hotseat_about": (
        "Flera spelare turas om på den här enheten.",
        "Useampi pelaaja vuorottelee tällä laitteella.",
        "Several players take turns on this device.",
    ),
    "play_invite": ("Bjud in vänner", "Kutsu ystäviä", "Invite friends"),
    "play_invite_about": (
        "Var och en spelar på sin egen enhet via en länk.",
        "Jokainen pelaa omalla laitteellaan linkin kautta.",
        "Everyone plays on their own device through a link.",
    ),
    "play_pad": ("Poängblock", "Pistelista", "Score pad"),
    "play_pad_about": (
        "Slå riktiga tärningar; appen räknar poängen.",
        "Heitä oikeita noppia; sovellus laskee pisteet.",
        "Roll real dice; the app keeps the score.",
    ),
    "play_solo": ("Ensam: slå ditt rekord", "Yksin: riko ennätyksesi", "Solo: beat your record"),
    "play_solo_about": (
        "Ett spel för dig själv mot ditt bästa resultat.",
        "Peli itseäsi ja parasta tulostasi vastaan.",
        "A game on your own against your best score.",
    ),
    "your_name": ("Ditt namn", "Nimesi", "Your name"),
    "add_person": ("Lägg till spelare", "Lisää pelaaja", "Add player"),
    "add_bot": ("Lägg till datorn", "Lisää tietokone", "Add computer"),
    "start_game": ("Starta spelet", "Aloita peli", "Start the game"),
    "name": ("Namn", "Nimi", "Name"),
    "who_plays": ("Spelar", "Pelaa", "Plays"),
    "kind_here": ("här på enheten", "tällä laitteella", "here on this device"),
    "kind_remote": ("via länk", "linkin kautta", "through the link"),
    "computer": ("Datorn", "Tietokone", "Computer"),
    "remove": ("Ta bort", "Poista", "Remove"),
    "bad_form": (
        "Något i formuläret stämmer inte: kontrollera namnen och reglerna.",
        "Lomakkeessa on jotain vialla: tarkista nimet ja säännöt.",
        "Something in the form is not right: check the names and the rules.",
    ),
    "refused": ("Det gick inte:", "Ei onnistunut:", "That did not work:"),
    "name_missing": (
        "Varje spelare behöver ett namn.",
        "Jokainen pelaaja tarvitsee nimen.",
        "Every player needs a name.",
    ),
    "unreachable": (
        "Servern svarar inte.",
        "Palvelin ei vastaa.",
        "The server cannot be reached.",
    ),
    "unreachable_retrying": (
        "Servern svarar inte – försöker igen …",
        "Palvelin ei vastaa – yritetään uudelleen …",
        "The server cannot be reached – retrying …",
    ),
    # -- game screen
    "share": ("Länkar", "Linkit", "Links"),
    "invite": ("Bjud in", "Kutsu", "Invite"),
    "invite_link": ("Inbjudningslänk", "Kutsulinkki", "Invite link"),
    "spectate": ("Åskådarlänk", "Katsojalinkki", "Spectator link"),
    "copy": ("Kopiera", "Kopioi", "Copy"),
    "copied": ("Kopierad", "Kopioitu", "Copied"),
    "copy_what": ("Kopiera {what}", "Kopioi {what}", "Copy {what}"),
    "qr_alt": (
        "QR-kod med inbjudningslänken",
        "QR-koodi, jossa on kutsulinkki",
        "QR code of the invite link",
    ),
    "still_to_join": (
        "Väntar på att {players} ska ansluta.",
        "Odotetaan, että {players} liittyy.",
        "Waiting for {players} to join.",
    ),
    "join_title": ("Välj din plats", "Valitse paikkasi", "Take your seat"),
    "join_as": ("Spela som {player}", "Pelaa nimellä {player}", "Play as {player}"),
    "not_joined": ("inte ansluten", "ei liittynyt", "not joined"),
    "rolloff": ("Vem börjar", "Aloittaja", "Who starts"),
    "starts_after_rolloff": (
        "{player} börjar (se slagen)",
        "{player} aloittaa (katso heitot)",
        "{player} starts (see the rolls)",
    ),
    "rolling_off": ("Slår om vem som börjar …", "Heitetään aloittajasta …", "Rolling who starts …"),
    "protocol": ("Protokoll", "Pöytäkirja", "Score sheet"),
    "protocol_pdf": ("Protokoll som PDF", "Pöytäkirja PDF-tiedostona", "Score sheet as PDF"),
    "protocol_xlsx": (
        "Protokoll som Excel-fil",
        "Pöytäkirja Excel-tiedostona",
        "Score sheet as Excel file",
    ),
    "how_to_play_rules": ("Så spelar man", "Näin pelataan", "How to play"),
    "sound": ("Ljud", "Äänet", "Sound"),
    "show_chances": ("Vinstchanser", "Voittotodennäköisyydet", "Win chances"),
    "win_chance_of": (
        "{player}: chans att vinna {chance}",
        "{player}: voittotodennäköisyys {chance}",
        "{player}: chance to win {chance}",
    ),
    "win_pending": (
        "vinstchanserna räknas…",
        "voittotodennäköisyyksiä lasketaan…",
        "working out the chances to win…",
    ),
    "win_unavailable": (
        "Vinstchanserna kan inte räknas för det här läget än.",
        "Voittotodennäköisyyksiä ei voi vielä laskea tässä tilanteessa.",
        "The chances to win cannot be worked out for this position yet.",
    ),
    "win_note_exact": (
        "Chans att vinna efter varje drag, exakt: människor räknas spela sitt bästa, "
        "datorn på sin nivå.",
        "Voittotodennäköisyys jokaisen siirron jälkeen, tarkka: ihmisten oletetaan pelaavan "
        "parhaansa, tietokoneen tasonsa mukaan.",
        "Chance to win after every move, exact: people are counted as playing their best, "
        "the computer at its level.",
    ),
    "win_note_simulated": (
        "Chans att vinna efter varje drag, simulerad: med 95 % säkerhet inom ±{margin} %. "
        "Människor räknas spela sitt bästa, datorn på sin nivå.",
        "Voittotodennäköisyys jokaisen siirron jälkeen, simuloitu: 95 %:n varmuudella "
        "±{margin} %:n tarkkuudella. Ihmisten oletetaan pelaavan parhaansa, tietokoneen "
        "tasonsa mukaan.",
        "Chance to win after every move, simulated: 95 % sure to be within ±{margin} %. "
        "People are counted as playing their best, the computer at its level.",
    ),
    "dice": ("Tärningar", "Nopat", "Dice"),
    "die": ("Tärning", "Noppa", "Die"),
    "kept": ("sparad", "pidetty", "kept"),
    "roll": ("Slå", "Heitä", "Roll"),
    "roll_all": ("Slå alla", "Heitä kaikki", "Roll all"),
    "roll_rest": ("Slå {n}", "Heitä {n}", "Roll {n}"),
    "roll_to_start": (
        "Slå för att börja din tur.",
        "Heitä aloittaaksesi vuorosi.",
        "Roll to start your turn.",
    ),
    "not_rolled": ("Inte slaget än.", "Ei vielä heitetty.", "Not rolled yet."),
    "rolls_left": ("Slag kvar: {n}", "Heittoja jäljellä: {n}", "Rolls left: {n}"),
    "rolls_left_saved": (
        "Slag kvar: {n} (varav sparade: {saved})",
        "Heittoja jäljellä: {n} (säästettyjä: {saved})",
        "Rolls left: {n} (saved: {saved})",
    ),
    "saved_rolls": ("Sparade slag", "Säästetyt heitot", "Saved rolls"),
    "scratch_mode": ("Stryk …", "Yliviivaa …", "Scratch …"),
    "scratch_cancel": ("Avbryt strykning", "Peru yliviivaus", "Cancel scratch"),
    "scratched": ("struken", "yliviivattu", "scratched"),
    "scratch": ("Stryk", "Yliviivaa", "Scratch"),
    "score_box": (
        "Skriv {points} i {box}",
        "Kirjaa {points} ruutuun {box}",
        "Score {points} in {box}",
    ),
    "scratch_box": ("Stryk {box}", "Yliviivaa {box}", "Scratch {box}"),
    "undo": ("Ångra", "Kumoa", "Undo"),
    "undo_box": ("Ångra {box}", "Kumoa {box}", "Undo {box}"),
    "confirm_zero": (
        "Skriva 0 i {box}? Tärningarna ger {points} i {other}.",
        "Kirjataanko 0 ruutuun {box}? Nopilla saisi {points} ruutuun {other}.",
        "Write 0 in {box}? The dice would score {points} in {other}.",
    ),
    "confirm_scratch_self": (
        "Stryka {box}? Tärningarna ger {points} där.",
        "Yliviivataanko {box}? Nopilla saisi siihen {points}.",
        "Scratch {box}? The dice would score {points} there.",
    ),
    "confirm_yes": ("Ja, skriv det", "Kyllä, kirjaa", "Yes, write it"),
    "confirm_no": ("Nej", "Ei", "No"),
    "joker_now": (
        "Joker: fem lika och Yahtzee-rutan är redan fylld. Skriv i rätt övre ruta om den "
        "är öppen, annars ger kåk och stegarna full poäng.",
        "Jokeri: viisi samaa ja Yahtzee-ruutu on jo täytetty. Kirjaa oikeaan yläruutuun, "
        "jos se on vapaa; muuten täyskäsi ja suorat antavat täydet pisteet.",
        "Joker: five of a kind with the Yahtzee box already filled. Use the matching upper "
        "box if it is open; otherwise full house and the straights score in full.",
    ),
    "outer_legend": ("● yttre tärning", "● ulompi noppa", "● outer die"),
    "inner_legend": ("◦ inre tärning", "◦ sisempi noppa", "◦ inner die"),
    "inner": ("Inre", "Sisempi", "Inner"),
    "outer": ("Yttre", "Ulompi", "Outer"),
    "layer": ("Resultat", "Tulos", "Result"),
    "dropped": ("bortlagd tärning", "pudotettu noppa", "dropped die"),
    "choose_inner": (
        "välj ruta för det inre resultatet",
        "valitse sisemmän tuloksen ruutu",
        "choose the box for the inner result",
    ),
    "choose_outer": (
        "välj ruta för det yttre resultatet",
        "valitse ulomman tuloksen ruutu",
        "choose the box for the outer result",
    ),
    "enter_dice": ("Tärningarna", "Nopat", "The dice"),
    "set_dice": ("Visa poängen", "Näytä pisteet", "Show the points"),
    "pad_dice_help": (
        "{n} siffror 1–6, t.ex. 66622",
        "{n} numeroa 1–6, esim. 66622",
        "{n} digits 1–6, e.g. 66622",
    ),
    # -- hints, analysis, history, stats
    "approximate": ("ungefärligt", "likimääräinen", "approximate"),
    "as_good": ("lika bra", "yhtä hyvä", "as good"),
    "points_short": ("p", "p", "p"),
    "best_choice": ("bäst", "paras", "best"),
    "best_value": (
        "förväntat slutresultat med bästa spel",
        "odotettu loppupistemäärä parhaalla pelillä",
        "expected final score with best play",
    ),
    "analysis_pending": ("Analysen räknas…", "Analyysia lasketaan…", "Computing the analysis…"),
    "analysis_failed": (
        "Analysen kunde inte göras",
        "Analyysia ei voitu tehdä",
        "The analysis could not be made",
    ),
    "costliest": ("Dyraste valen", "Kalleimmat valinnat", "Costliest choices"),
    "no_mistakes": (
        "Inga dyra val – bra spelat!",
        "Ei kalliita valintoja – hyvin pelattu!",
        "No costly choices – well played!",
    ),
    "chart_title": (
        "Förväntat slutresultat tur för tur",
        "Odotettu loppupistemäärä vuoro vuorolta",
        "Expected final score turn by turn",
    ),
    "final_score": ("Slutresultat", "Lopputulos", "Final score"),
    "history_intro": (
        "Spelen i den här webbläsaren, senaste först.",
        "Tämän selaimen pelit, uusin ensin.",
        "The games of this browser, newest first.",
    ),
    "no_games": (
        "Inga spel än i den här webbläsaren.",
        "Tässä selaimessa ei ole vielä pelejä.",
        "No games in this browser yet.",
    ),
    "games_list": ("Spel", "Pelit", "Games"),
    "started": ("Startat", "Aloitettu", "Started"),
    "ended": ("Avslutat", "Päättynyt", "Ended"),
    "players": ("Spelare", "Pelaajat", "Players"),
    "result": ("Resultat", "Tulos", "Result"),
    "game_link": ("Spelet", "Peli", "Game"),
    "view_game": ("Visa spelet", "Näytä peli", "View game"),
    "continue_game": ("Fortsätt spelet", "Jatka peliä", "Continue the game"),
    "in_progress": ("pågår", "kesken", "in progress"),
    "score_pad": ("poängblock", "pistelista", "score pad"),
    "statistics": ("Statistik", "Tilastot", "Statistics"),
    "stats_intro": (
        "Dina platser i avslutade spel, per regeluppsättning.",
        "Omat paikkasi päättyneissä peleissä, sääntökokoelmittain.",
        "Your seats in finished games, per rule set.",
    ),
    "variant": ("Regler", "Säännöt", "Rules"),
    "games_played": ("Spel", "Pelit", "Games"),
    "average": ("Snitt", "Keskiarvo", "Average"),
    "best_score": ("Bästa", "Paras", "Best"),
    "bonus_rate": ("Bonus", "Hyvitys", "Bonus"),
    "yatzy_rate": ("Yatzy", "Yatzy", "Yatzy"),
    "solo_record": ("Solorekord", "Yksinpelin ennätys", "Solo record"),
    "stats_chart": (
        "Snittresultat per regeluppsättning",
        "Keskimääräinen tulos sääntökokoelmittain",
        "Average score per rule set",
    ),
    "house_rules_mark": ("* med husregler", "* talon säännöillä", "* with house rules"),
    "stats_failed": (
        "Statistiken kunde inte hämtas",
        "Tilastoja ei voitu hakea",
        "The statistics could not be loaded",
    ),
    "no_stats": (
        "Ingen statistik än: spela klart ett spel.",
        "Ei vielä tilastoja: pelaa yksi peli loppuun.",
        "No statistics yet: finish a game.",
    ),
    "pad_dice_help_double": (
        "{n} par inre+yttre, t.ex. 56 34 …",
        "{n} paria sisempi+ulompi, esim. 56 34 …",
        "{n} pairs inner+outer, e.g. 56 34 …",
    ),
    "pad_dice_bad": (
        "Skriv {n} tärningar som siffror 1–6, t.ex. 66622.",
        "Kirjoita {n} noppaa numeroina 1–6, esim. 66622.",
        "Type {n} dice as digits 1–6, e.g. 66622.",
    ),
    "pad_dice_bad_double": (
        "Skriv {n} dubbeltärningar som par av siffror 1–6, t.ex. 56 34.",
        "Kirjoita {n} tuplanoppaa numeropareina 1–6, esim. 56 34.",
        "Type {n} double dice as pairs of digits 1–6, e.g. 56 34.",
    ),
    "box": ("Ruta", "Ruutu", "Box"),
    "points": ("Poäng", "Pisteet", "Points"),
    "write_points": ("Skriv poängen", "Kirjaa pisteet", "Write the points"),
    "points_missing": ("Skriv ett poängtal.", "Kirjoita pistemäärä.", "Type the points."),
    "impossible_points": (
        "{points} poäng går inte att få i {box}.",
        "Ruutuun {box} ei voi saada {points} pistettä.",
        "{points} points are not possible in {box}.",
    ),
    "order_refused": (
        "Rutorna fylls i ordning i det här spelet.",
        "Tässä pelissä ruudut täytetään järjestyksessä.",
        "In this game the boxes are filled in order.",
    ),
    "conflict": (
        "Någon annan hann före – spelet är uppdaterat.",
        "Joku ehti ensin – peli on päivitetty.",
        "Someone else was quicker – the game is up to date now.",
    ),
    "not_your_turn": ("Det är inte din tur.", "Ei ole sinun vuorosi.", "It is not your turn."),
    "seat_refused": (
        "Den platsen kan du inte ta.",
        "Et voi ottaa tätä paikkaa.",
        "You cannot take that seat.",
    ),
    "box_filled": ("Rutan är redan fylld.", "Ruutu on jo täytetty.", "That box is already filled."),
    "refused_generic": (
        "Det draget går inte.",
        "Siirto ei ole sallittu.",
        "That move is not allowed.",
    ),
    "no_such_game": ("Spelet finns inte.", "Peliä ei löydy.", "There is no such game."),
    "no_answer": (
        "Inget svar från servern – försöker igen …",
        "Palvelin ei vastaa – yritetään uudelleen …",
        "No answer from the server – retrying …",
    ),
    "live": ("ansluten", "yhteydessä", "connected"),
    "offline": ("frånkopplad", "yhteys katkennut", "disconnected"),
    "to_play": ("spelar nu", "vuorossa", "to play"),
    "your_turn": ("Din tur!", "Sinun vuorosi!", "Your turn!"),
    "turn_named": ("{player}s tur", "Vuorossa {player}", "{player}'s turn"),
    "watching": (
        "Du tittar på. {player}s tur.",
        "Katselet. Vuorossa {player}.",
        "You are watching. {player}'s turn.",
    ),
    "waiting_for": (
        "Väntar på {player} …",
        "Odotetaan pelaajaa {player} …",
        "Waiting for {player} …",
    ),
    "pass_device": (
        "{player}s tur – lämna över enheten",
        "Vuorossa {player} – anna laite eteenpäin",
        "{player}'s turn – pass the device",
    ),
    "i_am": ("Jag är {player}, kör", "Olen {player}, aloitetaan", "I am {player}, go"),
    "said_score": (
        "{player}: {points} i {box}.",
        "{player}: {points} ruutuun {box}.",
        "{player}: {points} in {box}.",
    ),
    "said_scratch": (
        "{player} strök {box}.",
        "{player} yliviivasi: {box}.",
        "{player} scratched {box}.",
    ),
    "yatzy_moment": ("Yatzy för {player}!", "Yatzy pelaajalle {player}!", "Yatzy for {player}!"),
    "keys_help": (
        "Tangenter: 1–6 spara tärning · R eller mellanslag slår · A–{last} väljer ruta, "
        "Enter skriver · ↑↓ mellan rutor · X stryk · U ångra",
        "Näppäimet: 1–6 pidä noppa · R tai välilyönti heittää · A–{last} valitsee ruudun, "
        "Enter kirjaa · ↑↓ ruudusta toiseen · X yliviivaa · U kumoa",
        "Keys: 1–6 keep a die · R or Space rolls · A–{last} picks a box, Enter writes · "
        "↑↓ between boxes · X scratch · U undo",
    ),
    "game_over": ("Spelet är slut", "Peli päättyi", "Game over"),
    "winner_is": ("Vinnare: {players}", "Voittaja: {players}", "Winner: {players}"),
    "winners_are": ("Delad seger: {players}", "Jaettu voitto: {players}", "Shared win: {players}"),
    "rematch": ("Spela igen", "Pelaa uudelleen", "Play again"),
    "record_is": ("Ditt rekord: {points}", "Ennätyksesi: {points}", "Your record: {points}"),
    "new_record": ("Nytt rekord!", "Uusi ennätys!", "New record!"),
    "no_record": ("inget rekord än", "ei vielä ennätystä", "no record yet"),
    "record_chance": (
        "chans att slå rekordet: {percent} %",
        "mahdollisuus rikkoa ennätys: {percent} %",
        "chance of beating it: {percent} %",
    ),
    "aim_record": ("Sikta på rekordet", "Tähtää ennätykseen", "Aim at the record"),
    "aim_expected": ("Sikta på väntevärdet", "Tähtää odotusarvoon", "Aim at the expected score"),
    "record_hint_value": (
        "chans att nå {target}",
        "mahdollisuus saavuttaa {target}",
        "chance of reaching {target}",
    ),
    "hint": ("Tips", "Vihje", "Hint"),
    "hint_pending": ("Tipsen räknas fram …", "Vihjeitä lasketaan …", "Working out the hints …"),
    "analysis": ("Analys", "Analyysi", "Analysis"),
    # -- rules page
    "rules_for": ("Regler: {game}", "Säännöt: {game}", "Rules: {game}"),
    "other_games": ("Andra spel", "Muut pelit", "Other games"),
    "rules_turn_title": ("En tur", "Vuoro", "A turn"),
    "rules_turn": (
        "Du slår alla {dice} tärningar. Spara de tärningar du vill ha och slå om resten, "
        "upp till {rolls} slag. Sedan skriver du resultatet i en tom ruta; ger tärningarna "
        "inget där blir det 0. Du får alltid stryka en ruta (skriva 0).",
        "Heität kaikkia {dice} noppaa. Pidä haluamasi nopat ja heitä loput uudelleen, "
        "enintään {rolls} heittoa. Sitten kirjaat tuloksen tyhjään ruutuun; jos nopat eivät "
        "sovi siihen, tulee 0. Ruudun saa aina yliviivata (kirjata 0).",
        "You roll all {dice} dice. Keep the ones you like and roll the rest again, up to "
        "{rolls} rolls. Then you write the result in an empty box; if the dice do not fit "
        "there it scores 0. You may always scratch a box (write 0).",
    ),
    "rules_start": (
        "Alla slår en tärning; högst börjar, lika slår om. Spelet går sedan medsols. "
        "När alla rutor är fyllda vinner den som har flest poäng.",
        "Kaikki heittävät yhtä noppaa; suurin aloittaa, tasapelissä heitetään uudelleen. "
        "Peli etenee myötäpäivään. Kun kaikki ruudut on täytetty, eniten pisteitä saanut "
        "voittaa.",
        "Everyone rolls one die; the highest starts, ties roll again. Play goes clockwise. "
        "When every box is filled, the highest total wins.",
    ),
    "rules_bonus": (
        "Bonus: {bonus} poäng när övre delens summa är minst {threshold}. Raden +/− visar om "
        "du ligger före eller efter takten mot bonusen.",
        "Bonus: {bonus} pistettä, kun yläosan summa on vähintään {threshold}. Rivi +/− "
        "kertoo, oletko edellä vai jäljessä bonuksen tahdista.",
        "Bonus: {bonus} points when the upper half adds up to at least {threshold}. The +/− "
        "row shows whether you are ahead of or behind the pace for the bonus.",
    ),
    "rules_saved": (
        "Med sparade slag (en husregel, se nedan) tar du med slag du inte använder till "
        "senare omgångar: alla, eller högst 2 till nästa omgång.",
        "Säästetyillä heitoilla (talon sääntö, katso alta) käyttämättömät heitot siirtyvät "
        "myöhemmille vuoroille: kaikki, tai enintään 2 seuraavalle vuorolle.",
        "With saved rolls (a house rule, see below) the rolls you do not use carry over to "
        "later turns: all of them, or at most 2 into the next turn.",
    ),
    "rules_double": (
        "Varje tärning är dubbel: en yttre med en inre i sig. Efter sista slaget skriver du "
        "två resultat i två olika rutor: ett av de yttre sidorna och ett av de inre. Varje "
        "resultat lägger först bort en av sex sidor och räknar fem.",
        "Jokainen noppa on tupla: ulompi, jonka sisällä on sisempi. Viimeisen heiton jälkeen "
        "kirjaat kaksi tulosta kahteen eri ruutuun: toisen ulommista ja toisen sisemmistä "
        "silmäluvuista. Kumpikin tulos pudottaa ensin yhden kuudesta ja laskee viisi.",
        "Every die is double: an outer die with an inner one inside. After the last roll "
        "you write two results into two different boxes: one of the outer faces and one of "
        "the inner faces. Each result first drops one of the six faces and counts five.",
    ),
    "rules_boxes": ("Rutorna", "Ruudut", "The boxes"),
    "rules_examples": (
        "Exempel från reglerna",
        "Esimerkkejä säännöistä",
        "Examples from the rules",
    ),
    "rules_example_dropped": (
        "{dice}, {drop} bortlagd",
        "{dice}, {drop} pudotettu",
        "{dice}, {drop} dropped",
    ),
    "rules_house": ("Husregler att välja", "Valittavat kotisäännöt", "House rules to choose"),
    "rules_house_about": (
        "Välj dem under ”Fler regler” när du startar ett spel.",
        "Valitse ne kohdasta ”Lisää sääntöjä” peliä aloittaessasi.",
        "Pick them under “More rules” when you start a game.",
    ),
    # -- history page (and the hints/analysis of older pages)
    "seats": ("Spelare", "Pelaajat", "Players"),
    "player": ("Spelare", "Pelaaja", "Player"),
    "winner": ("Vinnare", "Voittaja", "Winner"),
    "open": ("öppna", "avaa", "open"),
    "bot": ("Dator", "Tietokone", "Computer"),
    "pad": ("Poängblock", "Pistelista", "Score pad"),
    "hints": ("Tips", "Vihjeet", "Hints"),
    "record": ("Ditt rekord", "Ennätyksesi", "Your record"),
    "turn": ("Tur", "Vuoro", "Turn"),
    "best": ("bäst", "paras", "best"),
    "lost": (
        "förlorade förväntade poäng mot perfekt spel",
        "menetetyt odotetut pisteet täydelliseen peliin verrattuna",
        "expected points lost against perfect play",
    ),
    "expected": ("förväntat slutresultat", "odotettu loppupistemäärä", "expected final score"),
}

_INDEX = {"sv": 0, "fi": 1, "en": 2}


def ui_strings(lang: Language) -> dict[str, str]:
    """Every page word in ``lang``."""
    i = _INDEX[lang]
    return {k: v[i] for k, v in _STRINGS.items()}
