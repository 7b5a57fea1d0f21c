"""The words of the tournament pages, from the one catalog (keys ``tournament.KEY``);
the templates read them as ``tournament_words(lang)``, the page's script from the
page (``data-words``)."""

from __future__ import annotations

from functools import cache

from yatzy.i18n import N_, Message, messages
from yatzy.rules import Language

_WORDS: dict[str, Message] = messages(
    "tournament.",
    N_("tournament.link", "Tournaments"),
    N_("tournament.title", "Tournaments"),
    N_(
        "tournament.intro",
        "Play the same rounds as everyone else and climb the standings.",
    ),
    N_("tournament.intro_guest", "Sign in to join."),
    N_("tournament.none", "No public tournaments yet."),
    N_("tournament.create_title", "Make a tournament"),
    N_("tournament.name", "Name"),
    N_("tournament.rules", "Rules"),
    N_("tournament.starts", "Starts"),
    N_("tournament.rounds", "Rounds"),
    N_("tournament.table_size", "Players per table"),
    N_("tournament.table_alone", "1 (everyone alone)"),
    N_(
        "tournament.table_about",
        "At 1, everyone plays alone on the round's dice; at 2 to 6, at tables of that many.",
    ),
    N_("tournament.duplicate", "Same dice at every table (duplicate)"),
    N_("tournament.public", "List it publicly (else only by its link)"),
    N_("tournament.round_minutes", "Minutes per round"),
    N_("tournament.create", "Make the tournament"),
    N_("tournament.login_first", "Log in to make or join a tournament."),
    N_("tournament.players", "Players"),
    N_("tournament.state_open", "Taking players"),
    N_("tournament.state_running", "Round {round} of {rounds}"),
    N_("tournament.state_finished", "Finished"),
    N_("tournament.state_cancelled", "Cancelled"),
    N_("tournament.state", "State"),
    N_("tournament.join", "Join"),
    N_("tournament.joined", "You are in."),
    N_("tournament.cancel", "Cancel the tournament"),
    N_("tournament.your_game", "Play your game"),
    N_("tournament.standings", "Standings"),
    N_("tournament.place", "Place"),
    N_("tournament.total", "Total"),
    N_("tournament.points", "Table points"),
    N_("tournament.live", "Now"),
    N_("tournament.round_n", "Round {n}"),
    N_("tournament.dash", "– : not played yet, or not at a table now."),
    N_("tournament.podium", "Podium"),
    N_("tournament.tables", "Tables"),
    N_("tournament.table_n", "Table {n}"),
    N_("tournament.watch", "Watch"),
    N_("tournament.done", "over"),
    N_("tournament.rounds_title", "Rounds"),
    N_("tournament.fingerprint", "Dice fingerprint"),
    N_("tournament.seed", "Seed"),
    N_("tournament.deadline", "Deadline"),
    N_("tournament.creator", "Made by"),
    N_("tournament.yes", "Yes"),
    N_("tournament.no", "No"),
    N_("tournament.visibility", "Visibility"),
    N_("tournament.by_link", "Only by link"),
    N_("tournament.listed", "Public"),
    N_("tournament.share", "Invite people by sharing this page's address."),
    N_(
        "tournament.rule",
        "Standings: the total of every round's score. Equal totals are split by table "
        "points: at a table of N players the winner gets N−1, the next N−2, and so on. "
        "A game not over at the round's deadline counts what its players have by then.",
    ),
    N_("tournament.failed", "That did not work. Try again."),
    N_("tournament.too_late", "Too late: the tournament has begun or is full."),
    N_(
        "tournament.bad_form",
        "Check the form: a name, and a start in the future.",
    ),
    N_("tournament.too_many", "Too many tournaments made. Wait a moment and try again."),
    N_("tournament.no_standings", "The standings appear when the first round begins."),
)


def tournament_words(lang: Language) -> dict[str, str]:
    """Every tournament word in ``lang``."""
    return dict(_tournament_words(lang))


@cache
def _tournament_words(lang: Language) -> dict[str, str]:
    return {key: message[lang] for key, message in _WORDS.items()}
