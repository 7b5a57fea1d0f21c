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

from typing import Literal, NotRequired

from typing_extensions import TypedDict

from yatzy.store.personal import PersonalRecords
from yatzy.web.messages import MessageExport


class PlayerView(TypedDict):
    """A seat of a game: its name, its bot level (None: a person), whether it is taken."""

    seat: int
    name: str
    bot: str | None
    claimed: bool
    names: NotRequired[dict[str, str]]
    """A computer seat that kept its given name: that name in every language (the
    page shows its viewer's), :func:`yatzy.web.catalog.computer_names`."""


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


class HintOption(TypedDict):
    """One option of a hint: its words, the points (or percentage points) it gives up
    against the best, its value, and the die positions it keeps or the box(es) it fills."""

    text: str
    loss: float
    value: float
    keep: list[int] | None
    box: str | None
    inner: str | None
    outer: str | None


class HintView(TypedDict):
    """The best options for the player to act (``pending`` while the strategy is
    prepared; ``note`` says why there are none or that they are approximate).  The
    solo record's hint has ``aim`` ``"record"`` and the ``target`` total, and its
    options' ``value`` is the chance of reaching it in percent."""

    pending: bool
    approximate: bool
    note: str | None
    options: list[HintOption]
    aim: NotRequired[Literal["record"]]
    target: NotRequired[int]


class SeatChanceView(TypedDict):
    """A seat's chance of finishing first, with the half-width of its 95 % interval
    (0 when exact), how it was found and over how many games where simulated."""

    seat: int
    level: str | None
    chance: float
    margin: float
    method: str
    games: int


class WinChancesView(TypedDict):
    """The live chances to win of a game version: ``pending`` while computed,
    ``unavailable`` (the reason) where they cannot be, else every seat's chance."""

    version: int
    pending: NotRequired[bool]
    unavailable: NotRequired[str]
    why: NotRequired[Literal["large", "not_prepared"]]
    """Why they are unavailable, for the page's words: ``large`` (Maxi and DubbelYatzy
    early on: too many positions to work out in time), ``not_prepared`` (this server
    prepares no tables for the rules)."""
    exact: NotRequired[bool]
    method: NotRequired[str]
    margin: NotRequired[float]
    seats: NotRequired[list[SeatChanceView]]


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
    order_rule: NotRequired[Literal["forced", "half_forced", "joker"] | None]
    """The order rule that limits the boxes now, named when a box is refused."""
    ends_game: NotRequired[bool]
    """The player's next write ends the game: the page holds it, drawn from
    ``POST .../preview`` with Undo, until the player ends the game (never in a rated
    game, which takes nothing back)."""
    hold_for: NotRequired[float]
    """With people on several devices: the seconds the page holds the game's last write
    before it sends it by itself (the server's undo grace; 0: not held)."""
    hint: NotRequired[HintView | None]
    preparing: NotRequired[bool]
    bot_note: NotRequired[str]
    """Words on how the bot to act plays now when not by its level's own strategy
    (its tables are being prepared, or this server prepares none for the rules)."""


class YouView(TypedDict):
    """The viewer's part: the seats held; solo, the record to beat and its chance
    (``record_chance_pending`` while the table it needs is being built, with
    ``record_chance_approx`` meanwhile: the chance with the best-points strategy,
    shown as approximate)."""

    seats: list[int]
    solo_record: NotRequired[int | None]
    beats_record: NotRequired[bool]
    record_chance: NotRequired[float | None]
    record_chance_pending: NotRequired[bool]
    record_chance_approx: NotRequired[float]
    record_hint: NotRequired[HintView | None]


class TalkLine(TypedDict):
    """A phrase said in a game (:mod:`yatzy.web.talk`): by which seat, which phrase
    (a key; each viewer reads it in their language), at which game version."""

    seat: int
    phrase: str
    version: int


class DiceView(TypedDict):
    """The proof of a game's verifiable dice (:mod:`yatzy.game.fair_dice`): the
    commitment shown before the first roll, the players' contributions, and the seed,
    revealed (``seed``) when the game is over."""

    scheme: str
    mode: str
    commitment: str
    contributions: list[str]
    seed: str | None
    contributions_open: bool
    hold_until: str | None
    """A daily challenge's day: its seed is shown when that day is over."""
    hold_for: str | None
    """A tournament's round (``tournament/ID/round/N``): its seed is shown when the
    round is over (every table of it plays the same dice)."""


class ClockView(TypedDict):
    """A timed game's clock (:mod:`yatzy.web.clocks`) as every viewer sees it.

    ``deadline`` (ISO 8601, UTC) and ``seconds_left`` are those of ``seat``, the
    seat to move, while its person's clock runs (None while a computer moves);
    ``phase`` ``paused``: ``seat`` ran out of time and the other people choose until
    ``choose_until`` (then the computer takes the seat); ``ended``: the game was
    ended for ``ended_by``'s time-out."""

    mode: Literal["live", "daily"]
    seconds: int
    """The time of a turn, in seconds (a daily clock's days times 86,400)."""
    days: int | None
    phase: Literal["running", "paused", "ended"]
    seat: int | None
    deadline: str | None
    seconds_left: int | None
    choose_until: str | None
    choose_left: int | None
    computer: list[int]
    """The seats a computer plays for an absent person."""
    returning: list[int]
    """Those whose person came back: theirs again when the computer's turn ends."""
    timed_out: list[int]
    computer_turns: list[list[int]]
    """``[seat, turn number]`` of every turn a computer played for a person."""
    ended_by: int | None


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
    win_chances: NotRequired[WinChancesView | None]
    dice: NotRequired[DiceView | None]
    talk: NotRequired[list[TalkLine]]
    hints_switch: NotRequired[bool]
    rated: NotRequired[bool]
    """A rated game (issue 27): no hints, undo, analysis or chances while it runs."""
    clock: NotRequired[ClockView | None]
    waiting_for: NotRequired[list[str]]
    """The invited friends (their seats' names) the game waits for before its
    computers move: :mod:`yatzy.web.awaiting`."""
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
    kind: Literal["flag", "choice", "int"]
    choices: list[str]
    help: str
    default: bool | int | str | None


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


class FillJSON(TypedDict, total=False):
    """One of DubbelYatzy's two fills: ``score`` (with ``drop``) or ``scratch``."""

    score: str
    drop: int
    scratch: str


class ActionJSON(TypedDict, total=False):
    """An action as JSON (:func:`yatzy.game.action_to_json`), one shape per kind:
    ``roll`` (the positions kept), ``score`` (``drop``: DubbelYatzy's dropped
    face), ``scratch``, ``write`` with ``points`` (and ``yatzy_bonus``) on a score
    pad, ``dice`` set on a score pad, ``inner`` with ``outer`` (DubbelYatzy's two
    fills) or ``undo``."""

    roll: list[int]
    score: str
    drop: int
    scratch: str
    write: str
    points: int
    yatzy_bonus: bool
    dice: list[int | list[int]]
    inner: FillJSON
    outer: FillJSON
    undo: bool
    contribute: str
    say: str


class PreviewView(TypedDict):
    """The game's last write as it would stand (``POST .../preview``): the sheets and
    totals after it, nothing stored and nobody else told."""

    version: int
    """The version the write was judged on (the page drops the preview once the game
    moves on)."""
    sheets: list[SheetView]
    totals: list[int]


class GoOnView(TypedDict):
    """The answer to "go on": the game's version whose computer now moves."""

    version: int


class MoveView(TypedDict):
    """A stored action: the version it made, the seat (None: the server's roll-off)."""

    version: int
    seat: int | None
    action: ActionJSON


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


class PendingView(TypedDict):
    """The answer while an analysis is being prepared: ask again shortly.
    ``preparing``: its tables and kernels are being prepared first (a fresh install's
    first games: a minute or more, said so in words), not the analysis itself."""

    pending: Literal[True]
    preparing: NotRequired[bool]


class CostlyChoice(TypedDict):
    """One of a person's costliest choices: where (own turn, roll), the dice, what
    was chosen and what was better, the expected points it cost, and in words."""

    turn: int
    roll: int
    dice: list[int | list[int]]
    chosen: str
    better: str
    loss: float
    text: str


class ExpectedPoint(TypedDict):
    """The expected final score before one of a person's own turns (the chart)."""

    turn: int
    expected: float


class PlayerAnalysis(TypedDict):
    """A person's decisions against the best play: counts, points lost, the
    costliest choices, the expected final score turn by turn, all in words too."""

    seat: int
    name: str
    bot: bool
    complete: bool
    final: int
    turns: int
    decisions: int
    best_decisions: int
    total_loss: float
    mean_loss: float
    summary: str
    costliest: list[CostlyChoice]
    trajectory: list[ExpectedPoint]
    chart_label: str | None


class AnalysisView(TypedDict):
    """A game's analysis in points (:mod:`yatzy.web.analysis_view`): ``scope`` is
    ``"decisions"`` (every roll and fill), ``"boxes"`` (a score pad with dice: the
    fills only) or ``"none"`` (a score pad game its data allows no rating of, with
    the ``explanation``); ``approximate`` with its ``note`` where the strategy is
    not exact."""

    pending: bool
    lang: str
    rules: str
    turns: int
    scope: str
    explanation: str | None
    exact: bool
    approximate: bool
    note: str | None
    players: list[PlayerAnalysis]


class ChanceLine(TypedDict):
    """A seat's chance in percent before each turn of the chart and at the end."""

    seat: int
    name: str
    chances: list[float]


class WinDecisionView(TypedDict):
    """One decision in win chance: the chance (percent) before, after the choice,
    what it cost and its margin; the better choice for the chance (``None``: it was
    the best) and for the points, and the points it cost."""

    turn: int
    roll: int
    kind: str
    dice: str
    chosen: str
    better: str | None
    better_points: str | None
    points: float
    before: float
    after: float
    cost: float
    margin: float


class WinPlayerView(TypedDict):
    """A person's decisions in win chance: a summary and the costliest in words,
    every decision in a table."""

    seat: int
    name: str
    summary: str
    costliest: list[str]
    decisions: list[WinDecisionView]


class WinAnalysisView(TypedDict):
    """A finished game's analysis in win chance (:mod:`yatzy.web.win_view`): the
    chart (``turns``, one line per seat, ``label`` for screen readers) and the
    people's decisions; ``goal`` ``"record"`` rates a solo game by the chance of
    beating ``record``.  ``margin`` (percentage points) and ``note`` where partly
    simulated; ``estimated`` (``pending`` too, and ``note`` says so) while the exact
    analysis is being computed: an estimate from the points, replaced once it is done;
    ``seconds`` the time it took."""

    pending: bool
    lang: str
    goal: str
    record: int | None
    exact: bool
    estimated: bool
    margin: float
    note: str | None
    people_note: str | None
    title: str
    label: str
    turns: list[int]
    rounds: list[float]  # the same points in rounds played (turns / players): the chart's axis
    lines: list[ChanceLine]
    players: list[WinPlayerView]
    seconds: float


class WinUnavailableView(TypedDict):
    """No analysis in win chance to give, and why in words (chances switched off,
    a score pad game, no solo record to beat yet)."""

    pending: bool
    unavailable: Literal[True]
    goal: str
    explanation: str


__all__ = [
    "ActionJSON",
    "AnalysisView",
    "BoxView",
    "ChanceLine",
    "CostlyChoice",
    "CreatedView",
    "EntryView",
    "ExpectedPoint",
    "FillJSON",
    "GameView",
    "GoOnView",
    "HintOption",
    "HintView",
    "HistoryEntry",
    "MoveView",
    "OptionInfo",
    "PendingView",
    "PlayerAnalysis",
    "PlayerView",
    "RolloffDie",
    "RulesInfo",
    "SeatChanceView",
    "SheetView",
    "StatsView",
    "TurnView",
    "UndoView",
    "VariantInfo",
    "VariantStats",
    "WinAnalysisView",
    "WinChancesView",
    "WinDecisionView",
    "WinPlayerView",
    "WinUnavailableView",
    "YouView",
]


class AccountView(TypedDict):
    """The signed-in account (``signed_in`` false and the rest empty for a guest)."""

    signed_in: bool
    name: str | None
    created: str | None
    """When the account was made (ISO 8601, UTC)."""
    recovery_codes_left: int


class SignedUpView(TypedDict):
    """A new account and its recovery codes: shown this once, never again."""

    account: AccountView
    recovery_codes: list[str]


class CodesView(TypedDict):
    """New recovery codes (the old ones no longer work): shown this once."""

    recovery_codes: list[str]


class SessionView(TypedDict):
    """A signed-in browser of the account: when it signed in and was last seen."""

    id: str
    """The session's public handle (the SHA-256 of its secret id)."""
    created: str
    seen: str
    agent: str
    """The browser's ``User-Agent`` as it signed in (at most 200 characters)."""
    current: bool
    """Whether this is the session of the request."""


class FriendsView(TypedDict):
    """An account's friends, friend requests both ways and blocks, by name."""

    friends: list[str]
    incoming: list[str]
    """Requests to this account, waiting for its answer."""
    outgoing: list[str]
    """Its own requests, not answered yet."""
    blocked: list[str]
    online: list[str]
    """Friends seen in the last ten minutes (or in a game that moved in them)."""
    playing: list[str]
    """Friends in a game that moved in the last ten minutes."""


class PushDeviceView(TypedDict):
    """A device that takes the account's notifications, as its export shows it."""

    created: str
    agent: str
    lang: str


class PushExport(TypedDict):
    """The account's notifications in its export: the kinds on, and its devices."""

    kinds: dict[str, bool]
    devices: list[PushDeviceView]


class AccountExport(TypedDict):
    """Everything the app keeps about an account ("export my data")."""

    account: AccountView
    sessions: list[SessionView]
    friends: FriendsView
    notifications: PushExport
    games: list[HistoryEntry]
    stats: StatsView
    records: PersonalRecords
    """Its passkeys, invitations, seeks, quick-match wait, ratings and tournaments."""
    messages: list[MessageExport]
    """The free text the account wrote in games (:mod:`yatzy.web.messages`)."""


class PasskeyOptionsView(TypedDict):
    """A WebAuthn ceremony: its handle (sent back with the answer) and its options as
    WebAuthn's JSON text (``PublicKeyCredential.parseCreationOptionsFromJSON`` or
    ``parseRequestOptionsFromJSON`` reads it)."""

    ceremony: str
    options: str


class PasskeyView(TypedDict):
    """A passkey of the account: its credential id, when and in which browser it was
    made."""

    id: str
    created: str
    agent: str


class DailyDayView(TypedDict):
    """A past challenge in the calendar."""

    day: str
    players: int
    best: int | None
    optimal_total: int | None
    yours: int | None
    seed: str | None
    """The day's seed (revealed: the day is over), to check any game of it."""


class DailyChallengeView(TypedDict):
    """Today's challenge of one rule set, with this browser's part in it."""

    rules: str
    title: str
    day: str
    commitment: str
    players: int
    game_id: str | None
    finished: bool
    total: int | None
    calendar: list[DailyDayView]


class DailyView(TypedDict):
    """The daily challenges page's data."""

    today: str
    challenges: list[DailyChallengeView]


class DailyEntryView(TypedDict):
    """A line of a challenge's leaderboard."""

    place: int
    name: str
    total: int
    game_id: str
    yours: bool


class DailyBoardView(TypedDict):
    """A challenge's leaderboard, with what the optimal player scored on its dice
    (None while it is computed) and, once the day is over, its seed."""

    day: str
    rules: str
    commitment: str
    seed: str | None
    optimal_total: int | None
    entries: list[DailyEntryView]
    your_place: int | None


class DailyStartView(TypedDict):
    """Today's challenge game for this browser: new, or the one it has begun."""

    id: str
    url: str
    existing: bool


class WaitingGame(TypedDict):
    """A game in play where it is this account's turn."""

    id: str
    title: str
    """The rules in words, in the asker's language."""
    players: list[str]
    since: str
    """When the game last moved (ISO 8601, UTC)."""
    deadline: NotRequired[str | None]
    """A timed game's deadline for this move (ISO 8601, UTC); None or absent: none."""
    days_left: NotRequired[int | None]
    """A daily game's whole days left for this move (rounded up)."""


class TurnsView(TypedDict):
    """The games where it is the signed-in account's turn, the longest waiting first."""

    games: list[WaitingGame]
