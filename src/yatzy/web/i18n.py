"""The words of the web pages in Swedish, Finnish and English."""

from __future__ import annotations

from yatzy.rules import Language

_STRINGS: dict[str, tuple[str, str, str]] = {
    # key: (sv, fi, en)
    "new_game": ("Nytt spel", "Uusi peli", "New game"),
    "protocol": ("Protokoll", "Pöytäkirja", "Protocol"),
    "protocol_pdf": ("Protokoll som PDF", "Pöytäkirja PDF-tiedostona", "Protocol as PDF"),
    "protocol_xlsx": (
        "Protokoll som Excel-fil",
        "Pöytäkirja Excel-tiedostona",
        "Protocol as Excel file",
    ),
    "rules": ("Regler", "Säännöt", "Rules"),
    "language": ("Språk", "Kieli", "Language"),
    "seats": ("Platser", "Paikat", "Seats"),
    "person": ("Person", "Ihminen", "Person"),
    "bot": ("Dator", "Tietokone", "Bot"),
    "here": ("vid den här enheten", "tällä laitteella", "at this device"),
    "add_seat": ("Lägg till plats", "Lisää paikka", "Add seat"),
    "remove": ("Ta bort", "Poista", "Remove"),
    "pad": (
        "Poängblock (fysiska tärningar)",
        "Pistelista (oikeat nopat)",
        "Score pad (physical dice)",
    ),
    "hints": ("Tips", "Vihjeet", "Hints"),
    "create": ("Skapa spel", "Luo peli", "Create game"),
    "roll": ("Slå", "Heitä", "Roll"),
    "rolls_left": ("Slag kvar", "Heittoja jäljellä", "Rolls left"),
    "saved_rolls": ("Sparade slag", "Säästetyt heitot", "Saved rolls"),
    "turn_of": ("Tur", "Vuorossa", "Turn"),
    "your_turn": ("Din tur", "Sinun vuorosi", "Your turn"),
    "waiting_for": ("Väntar på", "Odotetaan", "Waiting for"),
    "scratch": ("Stryk", "Yliviivaa", "Scratch"),
    "score": ("Skriv", "Kirjaa", "Score"),
    "keep": ("behåll", "pidä", "keep"),
    "kept": ("behållen", "pidetty", "kept"),
    "die": ("Tärning", "Noppa", "Die"),
    "dice": ("Tärningar", "Nopat", "Dice"),
    "inner": ("Inre", "Sisempi", "Inner"),
    "outer": ("Yttre", "Ulompi", "Outer"),
    "dropped": ("bortlagd", "pudotettu", "dropped"),
    "winner": ("Vinnare", "Voittaja", "Winner"),
    "game_over": ("Spelet är slut", "Peli päättyi", "Game over"),
    "rolloff": ("Vem börjar", "Aloittaja", "Who starts"),
    "starts": ("börjar", "aloittaa", "starts"),
    "invite": ("Bjud in", "Kutsu", "Invite"),
    "spectate": ("Åskådarlänk", "Katsojalinkki", "Spectator link"),
    "join": ("Ta plats", "Ota paikka", "Take seat"),
    "free": ("ledig", "vapaa", "free"),
    "spectating": ("Du tittar på", "Katselet", "You are watching"),
    "enter_dice": ("Ange tärningarna", "Syötä nopat", "Enter the dice"),
    "set_dice": ("Sätt tärningar", "Aseta nopat", "Set dice"),
    "write_points": ("Skriv poäng", "Kirjaa pisteet", "Write points"),
    "points": ("Poäng", "Pisteet", "Points"),
    "box": ("Ruta", "Ruutu", "Box"),
    "record": ("Ditt rekord", "Ennätyksesi", "Your record"),
    "new_record": ("Nytt rekord!", "Uusi ennätys!", "New record!"),
    "no_record": ("Inget rekord än", "Ei vielä ennätystä", "No record yet"),
    "history": ("Historik", "Historia", "History"),
    "player": ("Spelare", "Pelaaja", "Player"),
    "hint": ("Tips", "Vihje", "Hint"),
    "analysis": ("Analys", "Analyysi", "Analysis"),
    "lost": (
        "förlorade förväntade poäng mot optimalt spel",
        "menetetyt odotetut pisteet optimaaliseen peliin verrattuna",
        "expected points lost against optimal play",
    ),
    "optimal": (
        "Optimalt förväntat resultat",
        "Optimaalinen odotettu tulos",
        "Optimal expected score",
    ),
    "turn": ("Tur", "Vuoro", "Turn"),
    "best": ("bäst", "paras", "best"),
    "hint_pending": ("strategin räknas ut …", "strategiaa lasketaan …", "solving the strategy …"),
    "expected": ("förväntat slutresultat", "odotettu loppupistemäärä", "expected final score"),
    "keeping": ("behåll tärning", "pidä noppa", "keep dice"),
    "roll_all": ("slå alla", "heitä kaikki", "roll all"),
    "live": ("live", "live", "live"),
    "offline": ("frånkopplad", "yhteys katkennut", "disconnected"),
    "no_answer": (
        "inget svar från servern – ladda om sidan",
        "palvelin ei vastaa – lataa sivu uudelleen",
        "no answer from the server – reload the page",
    ),
    "choose_inner": (
        "Välj ruta för inre resultatet",
        "Valitse sisemmän tuloksen ruutu",
        "Choose the box for the inner result",
    ),
    "choose_outer": (
        "Välj ruta för yttre resultatet",
        "Valitse ulomman tuloksen ruutu",
        "Choose the box for the outer result",
    ),
    "keys": (
        "Tangenter: 1-6 behåll, R slå",
        "Näppäimet: 1-6 pidä, R heitä",
        "Keys: 1-6 keep, R roll",
    ),
}

_INDEX = {"sv": 0, "fi": 1, "en": 2}


def ui_strings(lang: Language) -> dict[str, str]:
    """Every page word in ``lang``."""
    i = _INDEX[lang]
    return {k: v[i] for k, v in _STRINGS.items()}
