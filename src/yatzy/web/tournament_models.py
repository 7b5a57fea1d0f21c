"""The tournaments' API shapes: the body that creates one (a strict pydantic model)
and the answers (TypedDicts, as :mod:`yatzy.web.models` declares the others')."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import TypedDict

from yatzy.i18n import Language

MAX_CAP = 1000
"""The most players a tournament takes."""


class CreateTournamentIn(BaseModel):
    """A new tournament's settings.  ``rules`` is checked as a game's are (a preset or
    a spec with house rules, e.g. ``maxi+saved_rolls``); ``starts_at`` is an ISO 8601
    time with its zone (``2031-05-17T18:00:00Z``), in the future."""

    model_config = ConfigDict(strict=True, extra="forbid")

    name: str = Field(min_length=1, max_length=40)
    rules: str = Field(default="yatzy", min_length=1, max_length=200)
    lang: Language = "en"
    starts_at: str = Field(min_length=10, max_length=40)
    rounds: int = Field(default=3, ge=1, le=10)
    table_size: int = Field(
        default=1, ge=1, le=6, description="1: everyone alone on the round's dice; 2-6: tables"
    )
    duplicate: bool = Field(
        default=True, description="every table of a round plays the same dice stream"
    )
    public: bool = Field(default=True, description="listed on /tournaments, else by link only")
    round_minutes: int = Field(
        default=60, ge=5, le=10080, description="a round's deadline, minutes after its start"
    )
    cap: int = Field(default=MAX_CAP, ge=1, le=MAX_CAP, description="the most players")


class TournamentYouView(TypedDict):
    """The viewer's part: signed in, a player, the creator; the current round's game
    of theirs; what they may do now."""

    signed_in: bool
    joined: bool
    creator: bool
    game_id: str | None
    can_join: bool
    can_cancel: bool


class TableView(TypedDict):
    """A table of the round being played: its players, and its game where the viewer
    may watch it (with duplicate dice, only the viewer's own: another table further on
    in the round would show the dice that the same keeps will give)."""

    table: int
    game_id: str | None
    players: list[str]
    finished: bool


class RoundView(TypedDict):
    """A round: when it began, its deadline, whether it is over; in duplicate mode the
    commitment of its dice seed, and the seed once the round is over; once it is
    over, its tables and their games (to look back at, and to check the dice)."""

    round: int
    started_at: str
    deadline: str
    closed: bool
    commitment: str | None
    seed: str | None
    tables: list[TableView]


class StandingView(TypedDict):
    """A player's line of the standings: place (shared by equals), total score of the
    closed rounds, placement points (the tie-break), each round's score, and the
    score of the round being played (``live``)."""

    place: int
    name: str
    total: int
    points: int
    rounds: list[int | None]
    live: int | None
    yours: bool


class TournamentView(TypedDict):
    """A tournament as its page shows it."""

    id: str
    name: str
    rules: str
    rules_title: str
    lang: str
    state: str
    starts_at: str
    rounds: int
    round: int
    table_size: int
    duplicate: bool
    public: bool
    cap: int
    round_minutes: int
    players: list[str]
    creator: str
    you: TournamentYouView
    round_info: list[RoundView]
    standings: list[StandingView]
    tables: list[TableView]
    podium: list[StandingView]


class TournamentSummaryView(TypedDict):
    """A tournament in the list of public ones."""

    id: str
    name: str
    rules_title: str
    state: str
    starts_at: str
    rounds: int
    round: int
    table_size: int
    duplicate: bool
    players: int
    cap: int


class TournamentListView(TypedDict):
    """The public tournaments: to come and under way, then the finished ones."""

    tournaments: list[TournamentSummaryView]
