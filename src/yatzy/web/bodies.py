"""The JSON bodies the web API accepts: strict models (no type coercion, no extra
fields), so that a request is either exactly understood or refused with a reason."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from yatzy.i18n import Language
from yatzy.web.clocks import DAILY_DAYS, LIVE_SECONDS, ClockSetting

MAX_REF = 2**53  # the largest integer that JavaScript's numbers keep exact


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class SeatIn(_Strict):
    """A seat of a new game."""

    name: str = Field(min_length=1, max_length=40)
    bot: str | None = Field(default=None, max_length=40, description="bot level, or a person")
    here: bool = Field(default=False, description="claimed by this browser (hotseat)")


class ClockIn(_Strict):
    """A game's clock: ``{"mode": "live", "seconds": 30..600}`` (each turn has that
    many seconds) or ``{"mode": "daily", "days": 1..7}`` (each turn that many days)."""

    mode: Literal["live", "daily"]
    seconds: int | None = Field(
        default=None, ge=LIVE_SECONDS[0], le=LIVE_SECONDS[1], description="live: per turn"
    )
    days: int | None = Field(
        default=None, ge=DAILY_DAYS[0], le=DAILY_DAYS[1], description="daily: per turn"
    )

    @model_validator(mode="after")
    def _one_measure(self) -> ClockIn:
        """A live clock counts seconds, a daily one days: exactly the mode's one
        (:meth:`ClockSetting.of`, the one check of a time control)."""
        self.setting()
        return self

    def setting(self) -> ClockSetting:
        """The clock this body asks for."""
        return ClockSetting.of(self.mode, self.seconds, self.days)


class ClockChoiceIn(_Strict):
    """A choice about a player who ran out of time: ``computer`` (a computer finishes
    their seat) or ``end`` (the game ends now), by another player; ``back``, by the
    absent player (their seat again)."""

    choice: Literal["computer", "end", "back"]


class CreateGameIn(_Strict):
    """Settings of a new game."""

    rules: str = Field(
        default="yatzy", max_length=200, description="rules spec, e.g. maxi+saved_rolls"
    )
    lang: Language = "en"
    seats: list[SeatIn] = Field(min_length=1, max_length=8)
    pad: bool = Field(default=False, description="score pad for physical dice")
    hints: bool = Field(default=False, description="show the advisor's hints")
    dice: Literal["standard", "duplicate"] = Field(
        default="standard",
        description="duplicate: whoever keeps the same dice in a round gets the same rolls",
    )
    entropy: str | None = Field(
        default=None,
        min_length=1,
        max_length=64,
        description="this device's contribution to the game's verifiable dice",
    )
    rated: bool = Field(
        default=False,
        description="a rated game: people only, each signed in; no hints, undo or "
        "analysis until it is over (docs/ratings.md)",
    )
    clock: ClockIn | None = Field(
        default=None, description="a time control per turn; null or absent: untimed"
    )


class EntryIn(_Strict):
    """One result of DubbelYatzy's turn: score (with the dropped face), scratch or write."""

    score: str | None = Field(default=None, max_length=40)
    drop: int | None = None
    scratch: str | None = Field(default=None, max_length=40)
    write: str | None = Field(default=None, max_length=40)
    points: int | None = None
    yatzy_bonus: bool | None = None


class ActionIn(EntryIn):
    """An action in the core's JSON form: ``{"roll": [kept positions]}``, ``{"score": box}``,
    ``{"scratch": box}``, ``{"inner": ..., "outer": ...}``; score pad: ``{"dice": [...]}``,
    ``{"write": box, "points": n}``; the pad's dice may also be the typed text
    (``{"dice": "3 3 4 5 6"}``, double dice inner first ``"3/6 2/5 ..."``), read by
    the library's dice notation."""

    roll: list[int] | None = Field(default=None, max_length=6)
    dice: list[int | list[int]] | str | None = Field(default=None, max_length=100)
    inner: EntryIn | None = None
    outer: EntryIn | None = None
    undo: Literal[True] | None = Field(
        default=None, description="take back the last write (the seat that wrote it)"
    )


class ActIn(_Strict):
    """An action for a seat, optionally only if the game is still at ``version``."""

    action: ActionIn
    seat: int | None = Field(default=None, ge=0, le=7)
    version: int | None = Field(default=None, ge=0)


class SocketActIn(ActIn):
    """An action sent over the game's WebSocket: :class:`ActIn` with the message's
    type and a reference that the answer quotes."""

    type: Literal["act"]
    ref: int | None = Field(default=None, ge=0, le=MAX_REF, description="quoted by the answer")


class HintsIn(_Strict):
    """Switch a game's hints on or off during the game."""

    on: bool


class SayIn(_Strict):
    """A preset phrase to say in a game (its key, e.g. ``good_luck``)."""

    phrase: str = Field(min_length=1, max_length=40)


class MessageIn(_Strict):
    """A line of free text to the writer's friends in a game (checked further by
    :func:`yatzy.web.messages.check_text`: 1 to 200 characters once trimmed)."""

    text: str = Field(max_length=2000)


class ContributeIn(_Strict):
    """A player's contribution to the game's verifiable dice (random text from the
    device), taken until the first die of the first turn."""

    text: str = Field(min_length=1, max_length=64)


class DailyStartIn(_Strict):
    """Play today's challenge: the player's name (on the leaderboard) and language."""

    name: str = Field(min_length=1, max_length=40)
    lang: Language = "en"


class JoinIn(_Strict):
    """Claim a seat with the invite code of the game."""

    invite: str = Field(min_length=1, max_length=100)
    seat: int = Field(ge=0, le=7)
