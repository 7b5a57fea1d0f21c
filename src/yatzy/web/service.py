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
import hmac
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from yatzy.bots import BOT_LEVELS, make_bot
from yatzy.errors import GameOverError, IllegalActionError, NotYourTurnError, YatzyError
from yatzy.game import (
    Action,
    FairDice,
    Game,
    Player,
    Roll,
    SetDice,
    State,
    Undo,
    action_from_json,
)
from yatzy.game.fair_dice import Mode
from yatzy.rules import LANGUAGES, RuleSet, parse_dice
from yatzy.store import ConflictError, SeatInfo, StoredGame
from yatzy.web.clocks import ClockError, ClockSetting
from yatzy.web.hints import hints_unsupported
from yatzy.web.hints import prepare as prepare_hints
from yatzy.web.models import GameView, MoveView, PreviewView, WinChancesView, YouView
from yatzy.web.rated import RatedGameError, check_new
from yatzy.web.service_base import AccountKey, Decided, SeatError, new_token, token_hash
from yatzy.web.service_bots import (
    BotSide,
    NothingWaitsError,
    bot_is_next,
    on_one_device,
    waits_for_undo,
)
from yatzy.web.service_clock import ClockSide
from yatzy.web.service_insight import InsightSide, record_extras
from yatzy.web.service_notes import HintsUnavailableError, NoteSide
from yatzy.web.views import game_view, sheets_view
from yatzy.web.warmup import enabled_by_env as warmup_enabled
from yatzy.web.warmup import warm_soon

MAX_SEATS = 8
RATED_CLOCK = ClockSetting.daily(3)
"""The clock of a rated game made without one: rated games are always timed, so a
player who vanishes cannot hold the others' ratings hostage (docs/ratings.md)."""


class InviteError(YatzyError):
    """A wrong invite code, or a seat that cannot be claimed."""


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
class Created:
    """A new game: its id, the invite code, and the tokens of the seats claimed here."""

    game_id: str
    invite: str
    tokens: dict[int, str]
    owner: str


class GameService(BotSide, NoteSide, ClockSide, InsightSide):
    """The web app's use of the core: one instance per server process.

    Its core is here: creating and joining games, acting, and the views.  Its state
    and loading are :class:`yatzy.web.service_base.GameBase`; its sides are mixins in
    their own modules: the bots (:mod:`yatzy.web.service_bots`), the notes
    (:mod:`yatzy.web.service_notes`), the clocks (:mod:`yatzy.web.service_clock`) and
    the insight (:mod:`yatzy.web.service_insight`)."""

    # -- views ---------------------------------------------------------------------------------

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
        view["waiting_for"] = []  # and the invited friends awaited (see _awaited)
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
        turn = view["turn"]
        if running_rated:
            view["undo"] = None  # a rated game takes nothing back
            if turn is not None:
                turn["ends_game"] = False  # nor holds its last write
        elif turn is not None and turn.get("ends_game") and not on_one_device(stored):
            # With people on several devices the page holds the game's last write for
            # the undo grace only: one who closes the tab never holds the others up.
            turn["hold_for"] = self.undo_grace
        if self.chances is None or running_rated or self._in_tournament(stored, state):
            view["win_chances"] = None  # a rated or tournament game shows none while on
        else:  # the live chances keep plain dicts of this shape (WinChancesView)
            view["win_chances"] = cast(
                "WinChancesView | None", self.chances.for_view(stored, state)
            )
        return view

    async def view(
        self, game_id: str, tokens: Mapping[int, str] | None = None, owner: str | None = None
    ) -> GameView:
        """The game as JSON for a viewer holding ``tokens`` (seat -> token); a
        timed game's clock is acted on first if it is due."""
        row = await self._settled(game_id)
        stored, state = await self.load(game_id)
        view = self._clocked(await self._view_for(stored, state, tokens or {}, owner), row)
        return await self._awaited(view, game_id)

    async def created_view(self, created: Created) -> GameView:
        """:meth:`view` for the creator of a game this process has just made: its
        state is in hand, so only the solo record is read (no version check)."""
        cached = self._cached(created.game_id)
        if cached is None or cached[0].version != 0:  # gone from the cache or moved on
            return await self.view(created.game_id, created.tokens, created.owner)
        view = await self._view_for(*cached, created.tokens, created.owner)
        view = self._clocked(view, await self.clocks.row(created.game_id))
        return await self._awaited(view, created.game_id)

    async def _view_for(
        self, stored: StoredGame, state: State, tokens: Mapping[int, str], owner: str | None
    ) -> GameView:
        view = self.game_view(stored, state, words=True)
        view["you"] = await self.you(stored, state, tokens, owner)
        return view

    async def public_view(self, game_id: str) -> GameView:
        """The game as every spectator sees it (what WebSocket clients receive)."""
        row = await self._settled(game_id)
        view = self._clocked(self.game_view(*await self.load(game_id)), row)
        return await self._awaited(view, game_id)

    async def _awaited(self, view: GameView, game_id: str) -> GameView:
        """``view`` with the names of the invited friends the game waits for (no query
        once it waits for nobody: :class:`yatzy.web.awaiting.InvitedSeats`)."""
        if not view["finished"]:
            view["waiting_for"] = list((await self.invited.of(game_id)).names)
        return view

    # -- creating and joining ------------------------------------------------------------------

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

    # -- playing -------------------------------------------------------------------------------

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
    ) -> Decided:
        """Check the seat and the action and apply it to a copy of ``state`` (no I/O)."""
        action, seat = self._judged(stored, state, action_data, tokens, seat, expected_version)
        return self._apply(stored, state, action, seat)

    def _judged(
        self,
        stored: StoredGame,
        state: State,
        action_data: Any,
        tokens: Mapping[int, str],
        seat: int | None,
        expected_version: int | None,
    ) -> tuple[Action, int]:
        """The action and the seat that may take it, checked (the rules' own checks
        come when it is applied)."""
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
        return action, seat

    async def preview(
        self,
        game_id: str,
        action_data: Any,
        tokens: Mapping[int, str],
        seat: int | None,
        expected_version: int | None,
    ) -> PreviewView:
        """The sheets after the game's last write, judged as :meth:`act` judges it
        but neither stored nor told to anyone: the page shows the write with Undo
        until the player ends the game (then the write is sent as an action).

        The same refusals as an action; :class:`IllegalActionError` for anything but
        a write that ends the game.
        """
        stored, state = await self.load(game_id)
        action, seat = self._judged(stored, state, action_data, tokens, seat, expected_version)
        if isinstance(action, (Roll, SetDice, Undo)) or not state.write_ends_game():
            raise IllegalActionError("only the write that ends the game is previewed")
        after = state.clone()
        after.apply(action, player=seat)
        sheets, totals = sheets_view(after)
        return {"version": stored.version, "sheets": sheets, "totals": totals}

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
        await self._awaited(public, game_id)
        you = await self.you(stored, state, tokens, owner)
        computer = row is not None and state.current_player() in row.stand_ins
        return public, you, bot_is_next(stored, state) or computer


def bot_levels() -> list[str]:
    """The bot levels the server offers (read from the registry at run time)."""
    return list(BOT_LEVELS)


def _typed_dice(state: State, action_data: Any) -> Any:
    """A score pad's dice as typed (``{"dice": "3 3 4 5 6"}``; double dice inner
    first, ``"3/6 2/5 ..."``) read by the library's one dice notation, so that the
    page never guesses at what a person wrote; any other action is left as it is."""
    if isinstance(action_data, dict) and isinstance(action_data.get("dice"), str):
        dice = parse_dice(state.rules, action_data["dice"])
        return {"dice": [list(d) if isinstance(d, tuple) else d for d in dice]}
    return action_data


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
    "record_extras",
    "token_hash",
    "waits_for_undo",
]
