"""The shapes of the web API's answers, declared as the routes' response models.

TypedDicts rather than pydantic models: the views are built as plain dicts (the
hot path encodes them with orjson, never through a model) and these types let
mypy check every key where a view is made, while FastAPI turns the same types
into the OpenAPI document's schemas.  The routes send the views as they are
(``FastJSONResponse``); the test suite validates real answers against these
types (``test_web_models``), so the document cannot drift from what is sent.

(``typing_extensions.TypedDict``: pydantic needs it before Python 3.12.)
"""

from __future__ import annotations

from typing import Any, NotRequired

from pydantic import ConfigDict
from typing_extensions import TypedDict


class PlayerView(TypedDict):
    """A seat of a game: its name, its bot level (None: a person), whether it is taken."""

    seat: int
    name: str
    bot: str | None
    claimed: bool


class RolloffDie(TypedDict):
    """One die of the roll-off for the first turn."""

    seat: int
    die: int


class BoxView(TypedDict):
    """A box of the sheet in the game's language."""

    id: str
    name: str
    section: str
    scratchable: bool
    help: str


class EntryView(TypedDict):
    """A written box: its points, whether it was scratched, DubbelYatzy's dropped face."""

    points: int
    scratched: bool
    drop: int | None


class SheetView(TypedDict):
    """A player's sheet: the written boxes (None: open) and its sums."""

    entries: dict[str, EntryView | None]
    upper_sum: int
    bonus: int
    bonus_par: int
    yatzy_bonus: int
    total: int
    final: int
    saved_rolls: int


class UndoView(TypedDict):
    """Who may take back the last write now, and which box(es)."""

    seat: int
    box: str
    boxes: list[str]


class TurnView(TypedDict):
    """The turn in play: the dice, the rolls, the boxes allowed and what each scores."""

    seat: int
    number: int
    dice: list[int | list[int]] | None
    rolls_used: int
    rolls_left: int
    max_rolls: int
    allowed: list[str]
    zero_allowed: bool
    preview: dict[str, int | list[int]] | None
    kept: list[int]
    joker: bool
    hint: NotRequired[dict[str, Any] | None]
    preparing: NotRequired[bool]


class YouView(TypedDict):
    """The viewer's part: the seats held; solo, the record to beat and its chance."""

    seats: list[int]
    solo_record: NotRequired[int | None]
    beats_record: NotRequired[bool]
    record_chance: NotRequired[float | None]
    record_hint: NotRequired[dict[str, Any] | None]


class GameView(TypedDict):
    """A game as every viewer sees it (the WebSocket's ``state`` messages), with
    ``ui`` (the page's words) and ``you`` (the viewer's seats) in the API's answers."""

    id: str
    version: int
    rules: str
    title: str
    variant: str
    double: bool
    num_dice: int
    saved_rolls_rule: bool
    saved_rolls_mode: str | bool | None
    last_resort: bool
    has_extra: bool
    undo: UndoView | None
    lang: str
    pad: bool
    hints: bool
    phase: str
    finished: bool
    players: list[PlayerView]
    rolloff: list[list[RolloffDie]]
    starter: int | None
    boxes: list[BoxView]
    labels: dict[str, str]
    sheets: list[SheetView]
    totals: list[int]
    winners: list[int]
    turn: TurnView | None
    win_chances: NotRequired[dict[str, Any] | None]
    hints_switch: NotRequired[bool]
    ui: NotRequired[dict[str, str]]
    you: NotRequired[YouView]


class CreatedView(TypedDict):
    """A new game: its id, its links (the invite link carries the secret code)."""

    id: str
    url: str
    invite_url: str
    invite: str
    spectate_url: str
    game: GameView


class OptionInfo(TypedDict):
    """A house rule of a variant."""

    name: str
    kind: str
    choices: list[Any]
    help: str
    default: Any


class VariantInfo(TypedDict):
    """A rule set: its titles per language, its dice and its house rules."""

    title: dict[str, str]
    num_dice: int
    options: list[OptionInfo]


class RulesInfo(TypedDict):
    """What the server offers: rule sets, languages, bot levels, whether hints exist."""

    variants: dict[str, VariantInfo]
    languages: list[str]
    bots: list[str]
    hints: bool


class GoOnView(TypedDict):
    """The answer to "go on": the game's version whose computer now moves."""

    version: int


class MoveView(TypedDict):
    """A stored action: the version it made, the seat (None: the server's roll-off)."""

    version: int
    seat: int | None
    action: dict[str, Any]


class HistoryEntry(TypedDict):
    """A game of this browser in its history."""

    id: str
    rules: str
    title: str
    house_rules: list[str]
    rules_text: str
    pad: bool
    finished: bool
    players: list[str]
    bots: list[int]
    yours: list[int]
    totals: list[int]
    winners: list[int]
    started: str
    ended: str | None
    updated_at: str


class VariantStats(TypedDict):
    """This browser's seats in finished games of one rules spec."""

    rules: str
    title: str
    house_rules: list[str]
    rules_text: str
    games: int
    scores: int
    average: float
    best: int
    bonus_rate: float
    yatzy_rate: float
    solo_record: int | None


class StatsView(TypedDict):
    """This browser's statistics, most played rules first."""

    lang: str
    variants: list[VariantStats]
    games: int


class AnalysisView(TypedDict):
    """A game's analysis (``pending`` while it is prepared); the rest of its keys
    are described by :func:`yatzy.web.hints.analysis` and
    :func:`yatzy.web.hints.win_analysis`."""

    __pydantic_config__ = ConfigDict(extra="allow")  # type: ignore[misc]

    pending: NotRequired[bool]


__all__ = [
    "AnalysisView",
    "BoxView",
    "CreatedView",
    "EntryView",
    "GameView",
    "GoOnView",
    "HistoryEntry",
    "MoveView",
    "OptionInfo",
    "PlayerView",
    "RolloffDie",
    "RulesInfo",
    "SheetView",
    "StatsView",
    "TurnView",
    "UndoView",
    "VariantInfo",
    "VariantStats",
    "YouView",
]
