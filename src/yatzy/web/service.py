"""Game service: creating, joining and playing stored games through the core engine.

Every rule is decided by :class:`yatzy.game.State`; this module only translates
requests into core actions, deals the server's dice (verifiable: each game's secret
seed is committed in its view and revealed when it is over, see
:mod:`yatzy.game.fair_dice`), checks seat
tokens and stores each applied action through :class:`GameRepository` in one
transaction with the new record.  Its public methods are coroutines, awaited in the
server's event loop: an action is judged in memory and only its commit waits on the
database (asyncpg on PostgreSQL); the store's other reads and the slow computations
(an analysis, a bot's choice) run in worker threads.  Synchronous callers run them
with :func:`asyncio.run` or an :class:`asyncio.Runner`.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import hmac
import logging
import random
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from threading import Lock
from typing import Any, TypedDict, cast

import orjson

from yatzy.bots import BOT_LEVELS, make_bot
from yatzy.errors import GameOverError, NotYourTurnError, YatzyError
from yatzy.game import (
    CHANCE,
    TERMINAL,
    Action,
    FairDice,
    Game,
    Player,
    State,
    Undo,
    action_from_json,
    action_to_json,
    default_rng,
    from_record,
    to_record,
)
from yatzy.game.fair_dice import ContributionsClosedError, Mode
from yatzy.rules import LANGUAGES, RuleSet, parse_dice
from yatzy.store import ConflictError, GameRepository, SeatInfo, StoredGame
from yatzy.store.clocks import ClockRow, ClockStore
from yatzy.store.daily import write_revealed_record
from yatzy.web.ahead import Ahead, earlier_games, enabled_by_env, rating_levels
from yatzy.web.catalog import rules_name
from yatzy.web.chances import LiveChances
from yatzy.web.clocks import (
    STAND_IN,
    Choice,
    Clock,
    ClockError,
    ClockSetting,
    GameClocks,
    clock_fields,
)
from yatzy.web.hints import hints_unsupported
from yatzy.web.hints import prepare as prepare_hints
from yatzy.web.models import (
    AnalysisView,
    DiceView,
    GameView,
    HintView,
    HistoryEntry,
    MoveView,
    PendingView,
    StatsView,
    WaitingGame,
    WinAnalysisView,
    WinChancesView,
    WinUnavailableView,
    YouView,
)
from yatzy.web.prepare import bot_for
from yatzy.web.rated import RatedGameError, RatedGames, check_new
from yatzy.web.talk import Talk, check_phrase
from yatzy.web.views import game_view
from yatzy.web.warmup import enabled_by_env as warmup_enabled
from yatzy.web.warmup import warm_soon
from yatzy.web.win_jobs import WinAnalyses

log = logging.getLogger("yatzy.web")

MAX_SEATS = 8
MAX_CACHED = 1000
"""Games in play whose states a server process keeps in memory."""
RATED_CLOCK = ClockSetting.daily(3)
"""The clock of a rated game made without one: rated games are always timed, so a
player who vanishes cannot hold the others' ratings hostage (docs/ratings.md)."""


class SeatError(YatzyError):
    """A request for a seat that its token does not hold (or that is not a person's)."""


class HintsUnavailableError(YatzyError):
    """Hints asked for in a game that cannot have them (a score pad, no advisor)."""


class NothingWaitsError(YatzyError):
    """A "go on" when no computer waits on the asker's write."""


class InviteError(YatzyError):
    """A wrong invite code, or a seat that cannot be claimed."""


class DiceSeedMissingError(YatzyError):
    """A game whose record commits to a dice seed that the store does not have."""


@dataclass(frozen=True)
class SeatRequest:
    """A seat asked for at creation: a person (claimed here or invited) or a bot."""

    name: str
    bot: str | None = None
    here: bool = False
    owner: str | None = None
    """The owner token of a claimed seat when it is not the creator's (a tournament
    seats each player on their own account): the seat belongs to that owner, and its
    token is handed to nobody (the account's session holds it)."""


@dataclass(frozen=True)
class _Decided:
    """An action judged and applied in memory, not yet stored."""

    stored: StoredGame
    state: State
    seat: int
    move: dict[str, Any]
    record: str
    computer: bool = False
    """Whether a computer standing in for the seat's absent person made it."""

    @property
    def solo_total(self) -> int | None:
        """The final total when this move finishes a one-seat game (its solo record entry)."""
        if len(self.stored.seats) != 1 or not self.state.is_terminal():
            return None
        return self.state.totals()[0]

    @property
    def commit(self) -> dict[str, Any]:
        """The arguments of :meth:`GameRepository.commit` that store this move."""
        return {
            "game_id": self.stored.id,
            "based_on": self.stored.version,
            "record": self.record,
            "finished": self.state.is_terminal(),
            "seat": self.seat,
            "action": self.move,
            "solo_total": self.solo_total,
        }


@dataclass(frozen=True)
class Created:
    """A new game: its id, the invite code, and the tokens of the seats claimed here."""

    game_id: str
    invite: str
    tokens: dict[int, str]
    owner: str


@functools.lru_cache(maxsize=4096)
def token_hash(token: str) -> str:
    """The stored form of a secret token (SHA-256, hex); remembered for the tokens
    in use, as every action checks one."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class AccountKey(str):
    """A signed-in account's hold on its seats: the owner hash of the account's games.

    Only the server makes one, for each seat of a game that the store says the
    signed-in account holds (a person's seat whose owner hash is the account's; see
    :func:`yatzy.web.accounts.with_account`), and puts it at that seat's number: a
    client's seat token is a plain ``str`` and never holds a seat this way."""


def new_token() -> str:
    """A fresh secret token: 256 bits from the CSPRNG, URL-safe."""
    return secrets.token_urlsafe(32)


class GameService:
    """The web app's use of the core: one instance per server process."""

    def __init__(
        self,
        repo: GameRepository,
        rng: random.Random | None = None,
        chances: LiveChances | None = None,
        win_analyses: WinAnalyses | None = None,
        clock: Clock | None = None,
        stand_in: str = STAND_IN,
    ) -> None:
        self.repo = repo
        self.rng = rng or default_rng()
        self.chances = chances
        self.win_analyses = win_analyses or WinAnalyses(enabled=False)
        # Each turn analysed as its box is written, so the analyses are there within
        # seconds of the last box (issue 24).
        self.ahead = Ahead(
            self.win_analyses,
            # people's levels: for the live chances, and the win analysis at the end
            measure=(chances is not None and chances.enabled) or self.win_analyses.enabled,
            enabled=enabled_by_env(),
        )
        if chances is not None:
            chances.measured = self.ahead.measured_of  # people counted at their measured level
        self._cache: dict[str, tuple[StoredGame, State]] = {}
        self._dealers: dict[str, FairDice | None] = {}
        """The dice of the games in :attr:`_cache` (None: a game without verifiable
        dice: a score pad, or stored before them); loaded with the state."""
        self._lock = Lock()
        self.talk = Talk()
        """The latest phrases said in each game (:mod:`yatzy.web.talk`)."""
        self.today: Callable[[], str] = utc_day
        """Today's date (ISO, UTC): when a daily challenge's held seed may be shown."""
        self.moved: Callable[[StoredGame, State, int, bool], None] | None = None
        """Told of every move committed here, with the seat that moved and whether a
        computer standing in for its absent person made it (the notifications:
        :meth:`yatzy.web.notifications.Notifier.after_move`); it must not block."""
        self.rated = RatedGames(repo)
        """The rated games: who may play them, what they refuse, their ratings."""
        self.clocks = GameClocks(
            ClockStore(repo), self.load, self.ahead.levels_of, clock, stand_in=stand_in
        )
        """The timed games' clocks (:mod:`yatzy.web.clocks`)."""
        self.hold_over: Callable[[str], bool] = _never
        """Whether the event a seed is held for (``FairDice.hold_for``: a tournament's
        round) is over, so that its finished games may show the seed; called from a
        worker thread (it may read the store).  The tournaments set it; without them
        such a seed stays secret."""

    # -- loading ------------------------------------------------------------------------

    async def load(self, game_id: str) -> tuple[StoredGame, State]:
        """The stored game and its state (replayed from the record, cached by version).

        Always as stored now: the cached state is used only when the database's row
        version says it is current (another process may have moved since); a reload
        runs in a worker thread.
        """
        version = await self.repo.version_async(game_id)
        cached = self._cached(game_id)
        if cached is not None and cached[0].version == version:
            return cached
        if cached is not None and cached[0].version < version:
            # Moved by another process: replay its moves on the state held here rather
            # than the whole record (one query, a few actions).
            moves = await self.repo.moves_since_async(game_id, cached[0].version, version)
            advanced = self._advance(cached, moves, version)
            if advanced is not None:
                return advanced
        return await asyncio.to_thread(self._reload, game_id)

    def _advance(
        self,
        cached: tuple[StoredGame, State],
        moves: Sequence[tuple[int, int | None, str]],
        version: int,
    ) -> tuple[StoredGame, State] | None:
        """The cached game brought to ``version`` by replaying ``moves`` (the stored
        moves after its version), or None when they cannot be replayed (a seat was
        claimed, a move is missing or does not apply): then the record is reloaded."""
        stored, state = cached
        if [v for v, _, _ in moves] != list(range(stored.version + 1, version + 1)):
            return None
        if stored.id not in self._dealers:
            return None
        new = state.clone()
        try:
            for number, seat, text in moves:
                move = orjson.loads(text)
                if "say" in move and seat is not None:
                    self.talk.heard(stored.id, seat, str(move["say"]), number)
                    continue
                if "clock" in move:  # a clock's change: no die or box (an end: reload)
                    if move["clock"] == "end":
                        return None
                    continue
                if "claim" in move or "contribute" in move or seat is None:
                    return None
                dice = move.pop("dice") if "roll" in move else None
                new.apply(action_from_json(move), player=seat)
                if new.is_chance_node():
                    if dice is None:
                        return None
                    # the move lists every die after the roll; the rolled ones go in
                    rolled = [dice[i] for i in new.pending]
                    new.apply_roll([tuple(d) if isinstance(d, list) else d for d in rolled])
        except (YatzyError, KeyError, IndexError, TypeError, ValueError):
            return None
        now = stored.moved(version, self._record(stored.id, new), new.is_terminal())
        self._remember(now, new)
        return now, new

    def _reload(self, game_id: str) -> tuple[StoredGame, State]:
        stored = self.repo.get(game_id)
        data = orjson.loads(stored.record)
        if stored.finished:
            stored = self._reveal_held(stored, data)
            data = orjson.loads(stored.record)
        state = from_record(data)
        dealer = self._dealer_of(stored.id, data.get("dice"))
        with self._lock:
            self._dealers[stored.id] = dealer
        self._remember(stored, state)
        if self.rated.is_rated(stored.id) and stored.finished:
            self.rated.finished(stored, state)  # whichever process sees it first rates it
        return stored, state

    def _dealer_of(self, game_id: str, proof: Any) -> FairDice | None:
        """The dice of a stored game from its record's ``dice`` block and the secret
        seed in the store (None: a game dealt without verifiable dice)."""
        if proof is None:
            return None
        if isinstance(proof, dict) and "seed" not in proof:
            seed = self.repo.dice_seed(game_id)
            if seed is None:
                raise DiceSeedMissingError(f"the dice seed of game {game_id} is missing")
            proof = {**proof, "seed": seed}
        return FairDice.from_proof(proof)

    def _dealer(self, stored: StoredGame) -> FairDice | None:
        """The dice of a game in play (read from the store if this process has none)."""
        with self._lock:
            if stored.id in self._dealers:
                return self._dealers[stored.id]
        dealer = self._dealer_of(stored.id, orjson.loads(stored.record).get("dice"))
        with self._lock:
            self._dealers[stored.id] = dealer
        return dealer

    def _record(self, game_id: str, state: State, dealer: FairDice | None = None) -> str:
        """The record of ``state`` as stored, with its dice proof (the seed revealed
        once the game is over)."""
        dealer = dealer if dealer is not None else self._dealers.get(game_id)
        reveal = state.is_terminal() and dealer is not None and self.may_reveal(dealer)
        proof = None if dealer is None else dealer.proof(reveal=reveal)
        return orjson.dumps(to_record(state, copy=False, dice=proof)).decode()

    def forget(self, game_id: str, older_than: int) -> None:
        """Drop the cached state of a game if it is older than version ``older_than``
        (another process moved it: the next action reads it from the database)."""
        with self._lock:
            cached = self._cache.get(game_id)
            if cached is not None and cached[0].version < older_than:
                del self._cache[game_id]

    def cached_version(self, game_id: str) -> int | None:
        """The version of the game this process holds in memory (None: none)."""
        with self._lock:
            cached = self._cache.get(game_id)
        return None if cached is None else cached[0].version

    def _remember(self, stored: StoredGame, state: State) -> None:
        # Only games in play are kept, the most recently moved last: every cached
        # state is heap that each full garbage collection walks (finished games are
        # rarely read again, and then replayed from their record).
        with self._lock:
            old = self._cache.get(stored.id)
            if old is None or old[0].version <= stored.version:
                self._cache.pop(stored.id, None)
                if not state.is_terminal():
                    self._cache[stored.id] = (stored, state)
                else:
                    self._dealers.pop(stored.id, None)
            while len(self._cache) > MAX_CACHED:
                gone = next(iter(self._cache))
                del self._cache[gone]
                self._dealers.pop(gone, None)

    async def stored(self, game_id: str) -> StoredGame:
        """The game as stored now (its record, seats and settings; a finished daily
        challenge's seed revealed once its day is over)."""
        return await asyncio.to_thread(self._get, game_id)

    def _get(self, game_id: str) -> StoredGame:
        stored = self.repo.get(game_id)
        if stored.finished:
            return self._reveal_held(stored, orjson.loads(stored.record))
        return stored

    def may_reveal(self, dealer: FairDice) -> bool:
        """Whether a finished game's seed may be shown: always, except a daily
        challenge's before its day is over (everyone plays those dice all day) and a
        tournament round's (shown once the round is over: :meth:`_reveal_held`)."""
        if dealer.hold_for is not None:
            return False
        return dealer.hold_until is None or self.today() > dealer.hold_until

    def _reveal_held(self, stored: StoredGame, data: dict[str, Any]) -> StoredGame:
        """A finished game whose record holds back its seed until a day, or an event
        (a tournament's round), that is now over: the seed goes into the stored record
        (nothing else changes)."""
        proof = data.get("dice")
        if not isinstance(proof, dict) or "seed" in proof:
            return stored
        if "hold_until" not in proof and "hold_for" not in proof:
            return stored
        if "hold_until" in proof and self.today() <= proof["hold_until"]:
            return stored
        if "hold_for" in proof and not self.hold_over(str(proof["hold_for"])):
            return stored
        seed = self.repo.dice_seed(stored.id)
        if seed is None:
            return stored
        text = orjson.dumps({**data, "dice": {**proof, "seed": seed}}).decode()
        write_revealed_record(self.repo, stored.id, text)
        return replace(stored, record=text)

    async def moves(self, game_id: str) -> list[MoveView]:
        """Every stored action of the game with its version and seat (the audit log);
        :class:`NotFoundError` for a game that does not exist."""
        await self.stored(game_id)
        moves: list[MoveView] = await asyncio.to_thread(self.repo.moves, game_id)  # type: ignore[arg-type]
        return moves

    def game_view(self, stored: StoredGame, state: State, *, words: bool = False) -> GameView:
        """:func:`yatzy.web.views.game_view` with the live win chances (``win_chances``:
        see :class:`LiveChances`; ``None`` for solo games or when switched off)."""
        view = game_view(stored, state, words=words)
        if stored.finished and not state.is_terminal():  # ended for a time-out
            view["finished"], view["turn"] = True, None
        view["clock"] = None  # filled in where the clock is read (see _clocked)
        view["dice"] = self._dice_view(stored, state)
        view["talk"] = self.talk.lines(stored.id)
        # whether the players may switch hints on during the game (see set_hints)
        dice = view["dice"]
        # a daily challenge's or a tournament's game is played without hints
        held = dice is not None and (dice["hold_until"] is not None or dice["hold_for"] is not None)
        running_rated = self.rated.running_rated(stored.id, state)
        view["rated"] = bool(self.rated.known(stored.id))
        view["hints_switch"] = (
            hints_unsupported(state.rules, stored.pad) is None and not held and not running_rated
        )
        if running_rated:
            view["undo"] = None  # a rated game takes nothing back
        if self.chances is None or running_rated or self._in_tournament(stored, state):
            view["win_chances"] = None  # a rated or tournament game shows none while on
        else:  # the live chances keep plain dicts of this shape (WinChancesView)
            view["win_chances"] = cast(
                "WinChancesView | None", self.chances.for_view(stored, state)
            )
        return view

    def _in_tournament(self, stored: StoredGame, state: State) -> bool:
        """Whether the game is a tournament's table still in play (its dice are held
        for the round): no hints, chances or analysis until it is over (fair play)."""
        if state.is_terminal():
            return False
        dice = self._dice_view(stored, state)
        return dice is not None and dice["hold_for"] is not None

    def _dice_view(self, stored: StoredGame, state: State) -> DiceView | None:
        """The game's dice proof for every viewer: the commitment and contributions,
        the seed once the game is over; None for a game without verifiable dice."""
        with self._lock:
            dealer = self._dealers.get(stored.id)
        if dealer is not None:
            proof = dealer.proof(reveal=state.is_terminal() and self.may_reveal(dealer))
            taking = dealer.open_for(state) and not dealer.held
        else:  # a finished game (its dealer is dropped), or none: as its record says
            proof = orjson.loads(stored.record).get("dice")
            if proof is None:
                return None
            taking = False
        return {
            "scheme": proof["scheme"],
            "mode": proof["mode"],
            "commitment": proof["commitment"],
            "contributions": list(proof["contributions"]),
            "seed": proof.get("seed"),
            "contributions_open": taking and not state.is_terminal(),
            "hold_until": proof.get("hold_until"),
            "hold_for": proof.get("hold_for"),
        }

    async def view(
        self, game_id: str, tokens: Mapping[int, str] | None = None, owner: str | None = None
    ) -> GameView:
        """The game as JSON for a viewer holding ``tokens`` (seat -> token); a
        timed game's clock is acted on first if it is due."""
        row = await self._settled(game_id)
        stored, state = await self.load(game_id)
        return self._clocked(await self._view_for(stored, state, tokens or {}, owner), row)

    async def _settled(self, game_id: str) -> ClockRow | None:
        """A timed game's clock, acted on if it is due (None: untimed)."""
        if not await self.clocks.timed(game_id):
            return None
        return await self.clocks.settle(game_id)

    def _clocked(self, view: GameView, row: ClockRow | None) -> GameView:
        view["clock"] = self.clocks.view(row)
        return view

    async def created_view(self, created: Created) -> GameView:
        """:meth:`view` for the creator of a game this process has just made: its
        state is in hand, so only the solo record is read (no version check)."""
        cached = self._cached(created.game_id)
        if cached is None or cached[0].version != 0:  # gone from the cache or moved on
            return await self.view(created.game_id, created.tokens, created.owner)
        view = await self._view_for(*cached, created.tokens, created.owner)
        return self._clocked(view, await self.clocks.row(created.game_id))

    async def _view_for(
        self, stored: StoredGame, state: State, tokens: Mapping[int, str], owner: str | None
    ) -> GameView:
        view = self.game_view(stored, state, words=True)
        view["you"] = await self.you(stored, state, tokens, owner)
        return view

    async def public_view(self, game_id: str) -> GameView:
        """The game as every spectator sees it (what WebSocket clients receive)."""
        row = await self._settled(game_id)
        return self._clocked(self.game_view(*await self.load(game_id)), row)

    def seats_held(self, stored: StoredGame, tokens: Mapping[int, str]) -> list[int]:
        """The seats of ``stored`` that ``tokens`` hold."""
        return [s for s in sorted(tokens) if self._holds(stored, s, tokens[s])]

    async def you(
        self, stored: StoredGame, state: State, tokens: Mapping[int, str], owner: str | None
    ) -> YouView:
        """The viewer's part: seats held, and for solo games the record to beat (its
        query is awaited)."""
        seats = self.seats_held(stored, tokens)
        if len(stored.seats) != 1 or not owner or not seats:
            return {"seats": seats}
        best = await self.repo.best_solo_total_async(token_hash(owner), stored.rules, stored.id)
        # The chance reads the target table (a numba kernel): off the event loop.
        extras = await asyncio.to_thread(record_extras, stored, state, best)
        you = _with_record(seats, state, best)
        if "record_chance" in extras:
            you["record_chance"] = extras["record_chance"]
        if extras.get("record_chance_pending"):
            you["record_chance_pending"] = True
        if "record_chance_approx" in extras:
            you["record_chance_approx"] = extras["record_chance_approx"]
        if "record_hint" in extras:
            you["record_hint"] = extras["record_hint"]
        return you

    @staticmethod
    def _holds(stored: StoredGame, seat: int, token: str) -> bool:
        if not 0 <= seat < len(stored.seats):
            return False
        expected = stored.seats[seat].token_hash
        if expected is None:
            return False
        if isinstance(token, AccountKey):
            return True  # made only for the seats the store says the account holds
        return hmac.compare_digest(expected, token_hash(token))

    # -- creating and joining -----------------------------------------------------------

    async def create(
        self,
        rules: str,
        lang: str,
        seats: Sequence[SeatRequest],
        *,
        pad: bool = False,
        hints: bool = False,
        owner: str | None = None,
        entropy: str | None = None,
        dice_mode: Mode = "standard",
        dealer: FairDice | None = None,
        rated: bool = False,
        account_id: str | None = None,
        clock: ClockSetting | None = None,
        game_id: str | None = None,
    ) -> Created:
        """Start a game: check the settings, draw the dice's secret seed (``entropy``:
        the creating device's contribution to the dice; ``dice_mode`` "duplicate": the
        same keeps in a round get the same rolls), roll the roll-off, claim the seats
        marked here (the insert is awaited).  ``dealer``: the game's dice when they are
        given (a daily challenge's), else a fresh seed.  ``rated``: a rated game
        (:mod:`yatzy.web.rated`), made by the signed-in ``account_id``.  ``clock``: a
        timed game's clock (:mod:`yatzy.web.clocks`; not for a score pad).  ``game_id``:
        the new game's id when the caller chose it (a tournament's table, the same in
        every process); storing a second game of that id fails."""
        if rated:
            check_new(seats, account_id, pad, hints)
            if clock is None:  # a rated game always has a clock (docs/ratings.md)
                clock = RATED_CLOCK
        if clock is not None and pad:
            raise ClockError("a score pad game is played together at one table: it has no clock")
        stored, state, created, dealer = self._new_game(
            rules, lang, seats, pad, hints, owner, entropy, dice_mode, dealer, game_id
        )
        await self.repo.insert_async(stored, None if dealer is None else dealer.seed.hex())
        if rated:
            assert account_id is not None  # check_new refuses a guest
            mine = dict.fromkeys(created.tokens, account_id)
            await asyncio.to_thread(self.rated.mark, stored.id, stored.rules, mine)
        if clock is not None:
            await asyncio.to_thread(self.clocks.start, stored.id, clock, stored, state)
        else:
            self.clocks.untimed(stored.id)
        with self._lock:
            self._dealers[stored.id] = dealer
        self._remember(stored, state)
        if not pad and any(p.bot is None for p in state.players) and warmup_enabled():
            # A fresh install's first game: its kernels compile in a child process
            # while it is played, not after its last box (looked up off the loop).
            await asyncio.to_thread(warm_soon, state.rules)
        return created

    def _new_game(
        self,
        rules: str,
        lang: str,
        seats: Sequence[SeatRequest],
        pad: bool,
        hints: bool,
        owner: str | None,
        entropy: str | None = None,
        dice_mode: Mode = "standard",
        dealer: FairDice | None = None,
        game_id: str | None = None,
    ) -> tuple[StoredGame, State, Created, FairDice | None]:
        """A new game as it is to be stored (nothing is stored yet), with its dice
        (None for a score pad: its dice are real)."""
        ruleset = RuleSet.parse(rules)
        if lang not in LANGUAGES:
            raise YatzyError(f"language {lang!r} is not one of {', '.join(LANGUAGES)}")
        if not seats:
            raise YatzyError("a game needs at least one seat")
        if len(seats) > MAX_SEATS:
            raise YatzyError(f"{len(seats)} seats is more than {MAX_SEATS}")
        for s in seats:
            if s.bot is not None:
                if pad:
                    raise YatzyError("a score pad game is for people with physical dice, not bots")
                make_bot(s.bot)  # raises for an unknown level
                if s.here:
                    raise YatzyError(f"seat {s.name!r} is a bot and cannot be claimed")
        if all(s.bot is not None for s in seats):
            raise YatzyError("a game needs at least one person")
        if hints:
            reason = hints_unsupported(ruleset, pad)
            if reason is not None:
                raise YatzyError(f"no hints for {ruleset.spec}: {reason}")
            prepare_hints(ruleset)
        game = Game(ruleset, [Player(s.name, s.bot) for s in seats], pad=pad)
        state = game.new_initial_state()
        if pad and dice_mode != "standard":
            raise YatzyError("a score pad game has no dealt dice to share (its dice are real)")
        if dealer is None:
            dealer = None if pad else FairDice.new(dice_mode)
        elif pad:
            raise YatzyError("a score pad game has no dealt dice")
        if entropy is not None:
            if dealer is None:
                raise YatzyError("a score pad game has no dealt dice to contribute to")
            dealer.contribute(state, entropy)
        if state.is_chance_node():  # a roll-off for the starting player (not when alone)
            state.roll(dealer if dealer is not None else self.rng)
        game_id = game_id or secrets.token_hex(16)
        invite = new_token()
        owner = owner or new_token()
        tokens = {i: new_token() for i, s in enumerate(seats) if s.here}
        infos = [
            SeatInfo(
                i,
                p.name,
                p.bot,
                token_hash(tokens[i]) if i in tokens else None,
                token_hash(seats[i].owner or owner) if i in tokens else None,
            )
            for i, p in enumerate(game.players)
        ]
        stored = StoredGame.new(
            game_id,
            ruleset.spec,
            lang,
            pad,
            hints,
            token_hash(invite),
            self._record(game_id, state, dealer),
            state.is_terminal(),
            infos,
        )
        return stored, state, Created(game_id, invite, tokens, owner), dealer

    async def join(
        self, game_id: str, invite: str, seat: int, owner: str, account_id: str | None = None
    ) -> tuple[str, int]:
        """Claim a free human seat with the invite code: the seat's new token and the
        game's new version (a rated game's seat only for a signed-in ``account_id``
        that has no other seat in it; a timed game's clock runs once every person is
        seated)."""
        token, version = await asyncio.to_thread(
            self._join, game_id, invite, seat, owner, account_id
        )
        if await self.clocks.timed(game_id):
            await self.clocks.joined(*await self.load(game_id))
        return token, version

    def _join(
        self, game_id: str, invite: str, seat: int, owner: str, account_id: str | None = None
    ) -> tuple[str, int]:
        stored = self.repo.get(game_id)
        if not hmac.compare_digest(stored.invite_hash, token_hash(invite)):
            raise InviteError("the invite code does not belong to this game")
        if not 0 <= seat < len(stored.seats):
            raise InviteError(f"seat {seat} is not in 0-{len(stored.seats) - 1}")
        info = stored.seats[seat]
        if info.bot is not None:
            raise InviteError(f"seat {seat} ({info.name}) is a bot")
        rated = self.rated.check_join(game_id, account_id)
        token = new_token()
        version = self.repo.claim(game_id, seat, token_hash(token), token_hash(owner))
        if version is None:
            raise InviteError(f"seat {seat} ({info.name}) is already taken")
        if rated:
            assert account_id is not None  # check_join refuses a guest
            self.rated.joined(game_id, seat, account_id)
        return token, version

    # -- playing ---------------------------------------------------------------------------

    async def act(
        self,
        game_id: str,
        action_data: Any,
        tokens: Mapping[int, str],
        seat: int | None = None,
        expected_version: int | None = None,
    ) -> tuple[StoredGame, State]:
        """Apply a person's action; returns the game as stored now.

        The seat defaults to the player to act, and must be held by one of
        ``tokens``.  Raises a :class:`YatzyError` (nothing stored) for anything the
        rules or the seat tokens do not allow, :class:`ConflictError` when another
        action got in first.  The commit is awaited
        (:meth:`GameRepository.commit_async`); the rare reads run in a thread.
        """
        timed = await self.clocks.timed(game_id)
        clock = None
        if timed:  # the clock settled first; a paused person is back by acting
            clock, moved = await self.clocks.before_act(
                game_id, lambda stored: self.seats_held(stored, tokens), seat
            )
            if moved:
                await self.load(game_id)  # the clock's move: the cache brought up to date
                expected_version = None if expected_version is None else expected_version + 1
        # Actions skip the freshness query: the cached state is tried, and the commit's
        # ``UPDATE ... WHERE version = based_on`` detects a stale one (see _after_conflict).
        basis = self._cached(game_id)
        if basis is None:
            basis = await asyncio.to_thread(self._reload, game_id)
        if isinstance(action_data, dict) and action_data.get("undo"):
            await asyncio.to_thread(
                self.rated.refuse_while_running, game_id, basis[1], "take-backs (undo)"
            )
        try:
            decided = self._decide(*basis, action_data, tokens, seat, expected_version)
            done = await self._store(decided)
        except ConflictError:
            fresh = await asyncio.to_thread(self._after_conflict, game_id, basis[0].version)
            if fresh is None:
                raise
            basis = fresh
            decided = self._decide(*fresh, action_data, tokens, seat, expected_version)
            done = await self._store(decided)
        if timed:
            await self.clocks.after_move(done[0], basis[1], done[1], known=clock)
        return done

    def _cached(self, game_id: str) -> tuple[StoredGame, State] | None:
        with self._lock:
            return self._cache.get(game_id)

    def _after_conflict(self, game_id: str, tried: int) -> tuple[StoredGame, State] | None:
        """What to judge an action on again after its commit over version ``tried``
        met a conflict, or None when the conflict stands (409).

        A conflict that this process did not cause itself (its cache still holds
        ``tried``) may only mean that another process moved: the action is then
        judged again, from the start, against the state as stored now.
        """
        if self.cached_version(game_id) != tried:
            return None  # this process moved the game meanwhile: a race lost
        stored, state = self._reload(game_id)
        if stored.version == tried:
            return None  # the cache was current: the conflict is the client's
        return stored, state

    def _decide(
        self,
        stored: StoredGame,
        state: State,
        action_data: Any,
        tokens: Mapping[int, str],
        seat: int | None,
        expected_version: int | None,
    ) -> _Decided:
        """Check the seat and the action and apply it to a copy of ``state`` (no I/O)."""
        if expected_version is not None and expected_version != stored.version:
            raise ConflictError(
                f"the game is at version {stored.version}, not {expected_version}; reload"
            )
        if state.is_terminal() or stored.finished:
            raise GameOverError("the game is over; no more actions")
        action = action_from_json(_typed_dice(state, action_data))
        to_act = state.current_player()
        undo = isinstance(action, Undo)
        if undo:
            # The seat that wrote takes it back though the turn has passed on: the core
            # decides who may (State.undo_seat) and says why not; here only the seat's
            # token is checked.
            undoer = state.undo_seat()
            to_act = undoer if undoer is not None else to_act
        if seat is None:
            seat = to_act
        if not 0 <= seat < len(stored.seats):
            raise SeatError(f"seat {seat} is not in 0-{len(stored.seats) - 1}")
        if stored.seats[seat].bot is not None:
            raise SeatError(f"seat {seat} ({stored.seats[seat].name}) is played by the server")
        token = tokens.get(seat)
        if token is None or not self._holds(stored, seat, token):
            raise SeatError(f"you do not hold seat {seat} ({stored.seats[seat].name})")
        if seat != to_act and not undo:
            name = stored.seats[to_act].name if to_act >= 0 else "nobody"
            raise NotYourTurnError(f"it is {name}'s turn, not {stored.seats[seat].name}'s")
        return self._apply(stored, state, action, seat)

    def _apply(self, stored: StoredGame, state: State, action: Action, seat: int) -> _Decided:
        dealer = self._dealer(stored)
        new = state.clone()
        new.apply(action, player=seat)
        if new.is_chance_node():
            # The game's verifiable dice; the CSPRNG for games stored before them.
            new.roll(dealer if dealer is not None else self.rng)
        move: dict[str, Any] = action_to_json(action)
        if new.dice is not None and new.game.pad is False and "roll" in move:
            move["dice"] = [list(d) if isinstance(d, tuple) else d for d in new.dice]
        return _Decided(stored, new, seat, move, self._record(stored.id, new, dealer))

    async def _store(self, decided: _Decided) -> tuple[StoredGame, State]:
        return self._stored(decided, await self.repo.commit_async(**decided.commit))

    def _stored(self, decided: _Decided, version: int) -> tuple[StoredGame, State]:
        new = decided.state
        now = decided.stored.moved(version, decided.record, new.is_terminal())
        self._remember(now, new)
        self.ahead.after_write(now.id, new, self._record_of(now), earlier_games(self.repo, now))
        if self.moved is not None:
            try:
                self.moved(now, new, decided.seat, decided.computer)
            except Exception:  # a notification is never worth a failed move
                log.exception("after the move of game %s", now.id)
        if now.finished:
            self.rated.finished(now, new)
        return now, new

    def _record_of(self, stored: StoredGame) -> Callable[[], int | None] | None:
        """How the analysis ahead finds a solo game's record to beat (its owner's best
        before this game); ``None`` for other games, or a seat without an owner."""
        owner = stored.seats[0].owner_hash if len(stored.seats) == 1 else None
        if owner is None:
            return None
        repo, rules, game_id = self.repo, stored.rules, stored.id
        return lambda: repo.best_solo_total(owner, rules, exclude=game_id)

    async def act_view(
        self,
        game_id: str,
        action_data: Any,
        tokens: Mapping[int, str],
        seat: int | None,
        expected_version: int | None,
        owner: str | None,
    ) -> tuple[GameView, YouView, bool]:
        """:meth:`act`, then the public view, the viewer's part, and whether a bot is
        next."""
        stored, state = await self.act(game_id, action_data, tokens, seat, expected_version)
        public = self.game_view(stored, state)
        row = await self.clocks.row(game_id)
        self._clocked(public, row)
        you = await self.you(stored, state, tokens, owner)
        computer = row is not None and state.current_player() in row.stand_ins
        return public, you, bot_is_next(stored, state) or computer

    async def bot_step(self, game_id: str) -> int | None:
        """Let the bot to act make one action; the new version, or None if no bot is to act.

        A race lost to another server process raises :class:`ConflictError`.
        """
        stored, state = await self.load(game_id)
        seat = state.current_player()
        if seat in (CHANCE, TERMINAL) or stored.finished:
            return None
        level = stored.seats[seat].bot
        timed = await self.clocks.timed(game_id)
        if level is None and timed:  # a computer plays for an absent person
            level = await self.clocks.stand_in(game_id, seat)
            by_computer = True
        else:
            by_computer = False
        if level is None:
            return None
        # A bot may think for a while (tables to read, positions to weigh): off the loop.
        action = await asyncio.to_thread(self._bot_choice, level, state)
        decided = self._apply(stored, state, action, seat)
        now, new = await self._store(replace(decided, computer=by_computer))
        if timed:
            await self.clocks.after_move(now, state, new, by_computer=by_computer)
        return now.version

    async def choose(self, game_id: str, choice: Choice, tokens: Mapping[int, str]) -> GameView:
        """A player's choice about an absent player's time-out, or the absent player
        back (:meth:`yatzy.web.clocks.GameClocks.choose`); the game as stored now,
        for the asker."""
        stored, _ = await self.load(game_id)
        await self.clocks.choose(game_id, self.seats_held(stored, tokens), choice)
        return await self.view(game_id, tokens)

    def _bot_choice(self, level: str, state: State) -> Action:
        """The bot's action; the greedy strategy stands in while the level's tables
        are prepared (a job), or where this server prepares none for the rules, so
        the game never waits for a table (:func:`yatzy.web.prepare.bot_for`)."""
        bot, _ = bot_for(level, state.rules)
        return bot.choose(state, self.rng)

    async def set_hints(
        self, game_id: str, on: bool, tokens: Mapping[int, str]
    ) -> tuple[StoredGame, State]:
        """Switch the game's hints on or off during the game, for a player of it
        (:class:`SeatError` for anyone else, :class:`HintsUnavailableError` where the
        game cannot have them); the game as stored now.  The switch is stored as a
        move of its own, so every viewer's page follows it."""
        stored, state = await self.load(game_id)
        if not self.seats_held(stored, tokens):
            raise SeatError("only a player of this game may switch its hints")
        if state.is_terminal():
            raise GameOverError("the game is over; its hints can no longer be switched")
        dealer = await asyncio.to_thread(self._dealer, stored)
        if on and dealer is not None and dealer.held:
            raise HintsUnavailableError(
                "a daily challenge or a tournament's game is played without hints"
            )
        if on:
            await asyncio.to_thread(self.rated.refuse_while_running, game_id, state, "hints")
        if on:
            reason = hints_unsupported(state.rules, stored.pad)
            if reason is not None:
                raise HintsUnavailableError(f"no hints for {stored.rules}: {reason}")
            prepare_hints(state.rules)
        if stored.hints == on:
            return stored, state
        await asyncio.to_thread(self.repo.set_hints, game_id, on)
        return await self.load(game_id)

    async def undo_window(self, game_id: str) -> int | None:
        """The game's version while a person may still take back a write that a bot's
        move would follow (see :func:`waits_for_undo`), else None."""
        stored, state = await self.load(game_id)
        return stored.version if waits_for_undo(stored, state) else None

    async def go_on(self, game_id: str, tokens: Mapping[int, str]) -> int:
        """Check that ``tokens`` hold the seat whose write a bot's move waits on (the
        person says "go on": the write stands); :class:`NothingWaitsError` when no bot
        waits, :class:`SeatError` for another seat.  Nothing is stored: the game's
        version is returned, and the bots are released by the caller
        (:meth:`yatzy.web.hub.BotRunner.release`)."""
        stored, state = await self.load(game_id)
        if not waits_for_undo(stored, state):
            raise NothingWaitsError("no computer waits on a write of yours")
        seat = state.undo_seat()
        assert seat is not None
        if not self._holds(stored, seat, tokens.get(seat, "")):
            raise SeatError(f"you do not hold seat {seat} ({stored.seats[seat].name})")
        return stored.version

    async def contribute(
        self, game_id: str, text: str, tokens: Mapping[int, str]
    ) -> tuple[StoredGame, State]:
        """Add a player's contribution to the game's dice (once per seat, until the
        first die of the first turn: :meth:`FairDice.contribute`); stored as a move
        of its own, so every viewer's page shows it.  :class:`SeatError` for a
        browser that holds no seat of the game."""
        stored, state = await self.load(game_id)
        seats = self.seats_held(stored, tokens)
        if not seats:
            raise SeatError("only a player of this game may add to its dice")
        dealer = await asyncio.to_thread(self._dealer, stored)
        if dealer is None:
            raise YatzyError(
                "this game has no dealt dice to contribute to (a score pad's are real)"
            )
        if dealer.held:
            raise ContributionsClosedError(
                "a daily challenge's or a tournament round's dice are the same for everyone"
            )
        if not dealer.open_for(state):
            raise ContributionsClosedError("contributions close when the first die is rolled")
        moves = await asyncio.to_thread(self.repo.moves, game_id)
        given = {m["seat"] for m in moves if "contribute" in m["action"]}
        seat = next((s for s in seats if s not in given), None)
        if seat is None:
            raise ContributionsClosedError("this seat has added to the dice already")
        mixed = replace(dealer, contributions=list(dealer.contributions))
        mixed.contribute(state, text)
        record = self._record(game_id, state, mixed)
        now = await self._store_note(stored, state, seat, {"contribute": text}, record)
        with self._lock:
            self._dealers[game_id] = mixed
        return now, state

    async def _store_note(
        self, stored: StoredGame, state: State, seat: int, note: dict[str, Any], record: str
    ) -> StoredGame:
        """Store a move that changes no box or die (a contribution, a phrase) as the
        next version, with ``record``; the game as stored now."""
        decided = _Decided(stored, state, seat, note, record)
        version = await self.repo.commit_async(**decided.commit)
        now = stored.moved(version, record, state.is_terminal())
        self._remember(now, state)
        return now

    async def say(
        self, game_id: str, phrase: str, tokens: Mapping[int, str]
    ) -> tuple[StoredGame, State]:
        """A player of the game says a preset phrase (:mod:`yatzy.web.talk`), during
        the game or after it; stored as a move of its own so every viewer hears it.
        :class:`SeatError` for a browser that holds no seat (spectators listen)."""
        check_phrase(phrase)
        stored, state = await self.load(game_id)
        seats = self.seats_held(stored, tokens)
        if not seats:
            raise SeatError("only a player of this game may talk in it")
        to_act = state.current_player()
        seat = to_act if to_act in seats else seats[0]
        now = await self._store_note(stored, state, seat, {"say": phrase}, stored.record)
        self.talk.heard(game_id, seat, phrase, now.version)
        return now, state

    async def turns_of(self, owner: str, lang: str = "en") -> list[WaitingGame]:
        """The games in play where a seat of ``owner`` (an account's owner token) is
        to act, the longest waiting first: of its 100 most recently moved games, and
        of its timed games whose clock waits for it (up to 100 more, the nearest
        deadline first), so a daily game that waits days is never left out."""
        words: Any = lang if lang in LANGUAGES else "en"
        mine = token_hash(owner)

        def waiting() -> list[WaitingGame]:
            found: list[WaitingGame] = []
            entries: dict[str, WaitingGame] = {}
            games = self.repo.games_of(mine)
            seen = {g.id for g in games}
            games += [
                self.repo.get(g) for g in self.clocks.store.waiting_for(mine) if g not in seen
            ]
            for stored in games:
                if stored.finished:
                    continue
                cached = self._cached(stored.id)
                if cached is not None and cached[0].version == stored.version:
                    state = cached[1]
                else:
                    state = from_record(orjson.loads(stored.record))
                seat = state.current_player()
                if seat < 0 or stored.seats[seat].bot is not None:
                    continue
                if stored.seats[seat].owner_hash != mine:
                    continue
                entry: WaitingGame = {
                    "id": stored.id,
                    "title": rules_name(stored.rules, words),
                    "players": [s.name for s in stored.seats],
                    "since": stored.updated_at.isoformat(),
                }
                entries[stored.id] = entry
                found.append(entry)
            for game_id, row in self.clocks.store.many(list(entries)).items():
                if row.seat is not None and row.seat in row.stand_ins:
                    found.remove(entries[game_id])  # the computer plays it meanwhile
                    continue
                fields = clock_fields(row, self.clocks.clock.now())
                entries[game_id]["deadline"] = fields["deadline"]
                entries[game_id]["days_left"] = fields["days_left"]
            return sorted(found, key=lambda g: g["since"])

        return await asyncio.to_thread(waiting)

    async def analysis(self, game_id: str, lang: str | None = None) -> AnalysisView | PendingView:
        """Every person's decisions against the best ones, in the game's language or
        ``lang`` (see :func:`yatzy.web.hints.analysis`)."""
        from yatzy.web.hints import analysis

        stored, state = await self.load(game_id)
        await asyncio.to_thread(self.rated.refuse_while_running, game_id, state, "analyses")
        if self._in_tournament(stored, state):
            raise RatedGameError("analyses are not available in a tournament game until it is over")
        words: Any = lang if lang in LANGUAGES else stored.lang
        people = {s.seat for s in stored.seats if s.bot is None}
        key = f"{stored.id}:{stored.version}"
        return await asyncio.to_thread(analysis, state, words, people=people, key=key)

    async def win_analysis(
        self, game_id: str, lang: str | None = None, owner: str | None = None
    ) -> WinAnalysisView | WinUnavailableView | PendingView:
        """A finished game's analysis in win chance (solo: the chance of beating the
        owner's record before this game), in the game's language or ``lang`` (see
        :func:`yatzy.web.hints.win_analysis`); ``{"pending": true}`` while computed."""
        from yatzy.web.hints import win_analysis

        stored, state = await self.load(game_id)
        words: Any = lang if lang in LANGUAGES else stored.lang
        people = {s.seat for s in stored.seats if s.bot is None}
        record = None
        if len(stored.seats) == 1 and owner and state.is_terminal():
            record = await self.solo_record(owner, stored.rules, exclude=stored.id)
        if self.ahead.measuring(stored.id, state):
            return {"pending": True}  # the people's final levels: milliseconds away
        # Each person counted at the level their play measured (issue 24), as the
        # analysis ahead rated the turns (so only the last turn is left to rate).
        measured = await asyncio.to_thread(
            self.ahead.measured_at_end, stored.id, state, earlier_games(self.repo, stored)
        )
        return await asyncio.to_thread(
            win_analysis,
            self.win_analyses,
            state,
            words,
            people=people,
            record=record,
            key=f"{stored.id}:{stored.version}",
            client=token_hash(owner) if owner else None,
            levels=rating_levels(state, measured),
            measured={seat: m.to_json() for seat, m in measured.items()},
            # The turns rated ahead are in this process's memo: a worker would rate
            # them all again (a minute for two players), here only the last is left.
            here=self.ahead.rated_here(stored.id),
        )

    # -- history and records ---------------------------------------------------------------

    async def solo_record(self, owner: str, rules: str, exclude: str | None = None) -> int | None:
        """The owner's best final score in finished solo games of ``rules``."""
        return await self.repo.best_solo_total_async(token_hash(owner), rules, exclude)

    async def history(self, owner: str, lang: str = "en") -> list[HistoryEntry]:
        """The owner's games, newest first: dates, rules in words, players, totals,
        winners, status (see :func:`yatzy.analysis.history.history_entries`)."""
        from yatzy.analysis.history import history_entries

        words: Any = lang if lang in LANGUAGES else "en"
        owner_hash = token_hash(owner)

        def entries() -> list[HistoryEntry]:
            games = self.repo.games_of(owner_hash)
            return history_entries(games, owner_hash, words)  # type: ignore[return-value]

        return await asyncio.to_thread(entries)

    async def stats(self, owner: str, lang: str = "en") -> StatsView:
        """The owner's statistics per rule set (see :func:`yatzy.analysis.history.stats`)."""
        from yatzy.analysis.history import stats
        from yatzy.store.stats import finished_games_of

        words: Any = lang if lang in LANGUAGES else "en"

        def compute() -> StatsView:
            return stats(finished_games_of(self.repo, token_hash(owner)), words)  # type: ignore[return-value]

        return await asyncio.to_thread(compute)


def _with_record(seats: list[int], state: State, best: int | None) -> YouView:
    """The viewer's part of a solo game: the record to beat and whether this game does."""
    total = state.totals()[0]
    return {"seats": seats, "solo_record": best, "beats_record": best is None or total > best}


class RecordExtras(TypedDict, total=False):
    """The live parts of a solo game's :class:`YouView` (see :func:`record_extras`)."""

    record_chance: float | None
    record_chance_pending: bool
    record_chance_approx: float
    record_hint: HintView | None


def record_extras(stored: StoredGame, state: State, best: int | None) -> RecordExtras:
    """Solo, while the game is on: ``record_chance``, the live chance of beating the
    record with target play (``None`` where target tables do not apply or are not
    built yet; while the table builds ``record_chance_approx``, an approximate one),
    and with hints on ``record_hint``, the hint that aims at the record."""
    if best is None or state.is_terminal():
        return {}
    try:
        from yatzy.strategy.target_play import chance_to_beat
        from yatzy.strategy.win_chance import approximate_chance_to_beat
    except ImportError:  # the strategy package is not installed
        return {"record_chance": None}
    chance = chance_to_beat(state, best)
    out: RecordExtras = {"record_chance": None if chance is None else round(chance, 4)}
    if chance is None:
        from yatzy.web.prepare import target_preparing

        # Its table is built in the background (minutes, once): meanwhile an
        # approximate figure, labelled as one (issue 24), or words.
        out["record_chance_pending"] = target_preparing(state.rules)
        if out["record_chance_pending"]:
            approx = approximate_chance_to_beat(state, best)
            if approx is not None:
                out["record_chance_approx"] = round(approx, 2)  # sampled: whole percent
    if chance is not None and stored.hints and not stored.pad:
        from yatzy.web.hints import record_hint

        lang: Any = stored.lang if stored.lang in LANGUAGES else "en"
        out["record_hint"] = record_hint(state, best + 1, lang)
    return out


def waits_for_undo(stored: StoredGame, state: State) -> bool:
    """Whether a bot is to act while a person may still take back the write before it.

    The bot's move begins with a roll, and a roll ends the undo (the core's rule:
    nobody sees new dice for a decision that can still be taken back), so the bots
    wait here until the person goes on or a grace passes (:class:`BotRunner`).
    """
    seat = state.undo_seat()
    return seat is not None and stored.seats[seat].bot is None and bot_is_next(stored, state)


def bot_is_next(stored: StoredGame, state: State) -> bool:
    """Whether a bot seat is to act in ``state``."""
    seat = state.current_player()
    return seat not in (CHANCE, TERMINAL) and stored.seats[seat].bot is not None


def _never(_hold: str) -> bool:
    """No event a seed is held for is known to be over (the default of
    :attr:`GameService.hold_over`)."""
    return False


def utc_day() -> str:
    """Today's date in UTC, as ISO 8601 writes it (the daily challenges' clock)."""
    return datetime.now(UTC).date().isoformat()


def bot_levels() -> list[str]:
    """The bot levels the server offers (read from the registry at run time)."""
    return list(BOT_LEVELS)


__all__ = [
    "AccountKey",
    "Created",
    "GameService",
    "HintsUnavailableError",
    "InviteError",
    "NothingWaitsError",
    "RatedGameError",
    "SeatError",
    "SeatRequest",
    "bot_levels",
    "new_token",
    "token_hash",
    "waits_for_undo",
]


def _typed_dice(state: State, action_data: Any) -> Any:
    """A score pad's dice as typed (``{"dice": "3 3 4 5 6"}``; double dice inner
    first, ``"3/6 2/5 ..."``) read by the library's one dice notation, so that the
    page never guesses at what a person wrote; any other action is left as it is."""
    if isinstance(action_data, dict) and isinstance(action_data.get("dice"), str):
        dice = parse_dice(state.rules, action_data["dice"])
        return {"dice": [list(d) if isinstance(d, tuple) else d for d in dice]}
    return action_data
