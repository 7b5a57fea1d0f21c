"""The leaderboards and a player's ratings and skill index, as the API and the
pages show them (see docs/ratings.md).

A leaderboard is one rule-set family's players, ranked **by rating** (the
conservative ``mu - 3 sigma`` of their rating now) or **by skill index** (the least
points lost a game against optimal play), among those with at least
:data:`MIN_GAMES` rated games (``rating``) or analysed rated games (``skill``) in
the period: ``day`` (today, UTC), ``month`` (this calendar month, UTC) or ``all``.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Literal

from typing_extensions import TypedDict

from yatzy.analysis.rating import GameLoss, Rating, SkillIndex, skill_index
from yatzy.errors import YatzyError
from yatzy.rules import Language
from yatzy.store.ratings import Board, RatingStore
from yatzy.web.catalog import rules_name

Period = Literal["day", "month", "all"]
MIN_GAMES: dict[str, int] = {"day": 3, "month": 5, "all": 10}
"""The fewest games in the period that puts a player on a leaderboard."""
SKILL_GAMES = 20
"""A profile's skill index covers this many of the latest analysed rated games."""


class LeaderboardError(YatzyError):
    """A leaderboard asked for with a family, ranking or period that does not exist."""


class BoardEntry(TypedDict):
    """A leaderboard's row."""

    place: int
    name: str
    rating: int
    provisional: bool
    rated_games: int
    games: int
    loss_per_game: float | None
    approximate: bool


class LeaderboardView(TypedDict):
    """A leaderboard: its family (and its name in words), ranking, period, the
    minimum of games, the families there are, and its rows, best first."""

    family: str
    title: str
    by: Board
    period: Period
    min_games: int
    families: list[str]
    rows: list[BoardEntry]


class RatingEntry(TypedDict):
    """A player's rating in one family."""

    family: str
    title: str
    rating: int
    provisional: bool
    games: int
    sigma: float


class SkillView(TypedDict):
    """A player's skill index in words and numbers."""

    games: int
    loss_per_game: float
    loss_per_decision: float
    band: str
    words: str
    approximate: bool


class ProfileView(TypedDict):
    """A player's public profile: ratings per family and the skill index."""

    name: str
    ratings: list[RatingEntry]
    skill: SkillView


def family_title(family: str, lang: Language) -> str:
    """A family in words ("Yatzy", "Maxi Yatzy"); its key where it has none."""
    try:
        return rules_name(family, lang)
    except YatzyError:
        return family


def since(period: Period, now: datetime) -> datetime | None:
    """When ``period`` began (UTC), None for all time."""
    now = now.astimezone(UTC)
    if period == "day":
        return now.replace(hour=0, minute=0, second=0, microsecond=0)
    if period == "month":
        return now.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    return None


def leaderboard(
    store: RatingStore,
    family: str,
    by: str,
    period: str,
    lang: Language,
    now: Callable[[], datetime] = lambda: datetime.now(UTC),
    limit: int = 100,
) -> LeaderboardView:
    """The leaderboard of ``family`` ranked ``by`` over ``period`` (checked)."""
    if by not in ("rating", "skill"):
        raise LeaderboardError(f"by {by!r} is not rating or skill")
    if period not in MIN_GAMES:
        raise LeaderboardError(f"period {period!r} is not day, month or all")
    families = store.families()
    board: Board = "rating" if by == "rating" else "skill"
    span: Period = "day" if period == "day" else "month" if period == "month" else "all"
    minimum = MIN_GAMES[span]
    rows = store.leaderboard(family, board, since(span, now()), minimum, limit)
    entries: list[BoardEntry] = []
    for place, row in enumerate(rows, 1):
        rating = Rating(row.mu, row.sigma, row.rated_games)
        entries.append(
            {
                "place": place,
                "name": row.name,
                "rating": rating.shown,
                "provisional": rating.provisional,
                "rated_games": row.rated_games,
                "games": row.games,
                "loss_per_game": None if row.loss_per_game is None else round(row.loss_per_game, 1),
                "approximate": not row.exact,
            }
        )
    return {
        "family": family,
        "title": family_title(family, lang),
        "by": board,
        "period": span,
        "min_games": minimum,
        "families": families,
        "rows": entries,
    }


def skill_view(index: SkillIndex, lang: Language) -> SkillView:
    """The skill index as the API gives it."""
    return {
        "games": index.games,
        "loss_per_game": round(index.loss_per_game, 2),
        "loss_per_decision": round(index.loss_per_decision, 4),
        "band": index.band,
        "words": index.words(lang),
        "approximate": not index.exact,
    }


def profile(store: RatingStore, account_id: str, name: str, lang: Language) -> ProfileView:
    """A player's ratings and skill index over their last :data:`SKILL_GAMES`
    analysed rated games (every family)."""
    ratings: list[RatingEntry] = []
    for r in store.ratings_of(account_id):
        rating = Rating(r.mu, r.sigma, r.games)
        ratings.append(
            {
                "family": r.family,
                "title": family_title(r.family, lang),
                "rating": rating.shown,
                "provisional": rating.provisional,
                "games": r.games,
                "sigma": round(r.sigma, 3),
            }
        )
    kept = store.skill_games(account_id, last=SKILL_GAMES)
    index = skill_index(
        (GameLoss(g.decisions, g.total_loss, g.exact) for g in kept), last=SKILL_GAMES
    )
    return {"name": name, "ratings": ratings, "skill": skill_view(index, lang)}
