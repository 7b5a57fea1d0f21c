"""The words of the leaderboard and player pages (keys ``rating.KEY``), from the one
catalog; the templates read them as ``w``."""

from __future__ import annotations

from functools import cache

from yatzy.i18n import N_, Message, messages
from yatzy.rules import Language

_WORDS: dict[str, Message] = messages(
    "rating.",
    N_("rating.title", "Leaderboards"),
    N_(
        "rating.intro",
        "Rated games are played between signed-in people, without hints, undo or analysis "
        "until the game is over. The rating follows who wins; the skill index measures how "
        "close to perfect play the decisions were, whatever the dice did.",
    ),
    N_("rating.game", "Game"),
    N_("rating.by", "Ranked by"),
    N_("rating.by_rating", "Rating"),
    N_("rating.by_skill", "Skill index"),
    N_("rating.period", "Period"),
    N_("rating.day", "Today"),
    N_("rating.month", "This month"),
    N_("rating.all", "All time"),
    N_("rating.show", "Show"),
    N_("rating.place", "Place"),
    N_("rating.player", "Player"),
    N_("rating.rating", "Rating"),
    N_("rating.games", "Games"),
    N_("rating.loss", "Points lost a game"),
    N_("rating.minimum", "Players with at least {count} rated games in the period are listed."),
    N_("rating.nobody", "Nobody has played enough rated games in this period yet."),
    N_("rating.provisional", "provisional: too few games to be sure yet"),
    N_("rating.approximate", "approximate"),
    N_("rating.profile", "Player"),
    N_("rating.ratings", "Ratings"),
    N_("rating.none", "No rated games yet."),
    N_("rating.skill", "Skill index"),
    N_("rating.skill_over", "over the last {count} analysed rated games"),
    N_("rating.your_profile", "Your ratings and skill index"),
    N_("rating.rated_game", "Rated game"),
    N_(
        "rating.rated_about",
        "Counts for the leaderboards: people only, each signed in with a seat of their own; "
        "no hints, take-backs or analysis until the game is over.",
    ),
    N_(
        "rating.rated_setup",
        "A rated game is for two or more people, each signed in with a seat of their own: "
        "no computer players and no hints.",
    ),
)


def rating_words(lang: Language) -> dict[str, str]:
    """Every word of the rating pages in ``lang``."""
    return dict(_rating_words(lang))


@cache
def _rating_words(lang: Language) -> dict[str, str]:
    return {key: message[lang] for key, message in _WORDS.items()}
