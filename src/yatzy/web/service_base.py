"""The base of :class:`yatzy.web.service.GameService` that its every side shares: the
stored games and their states in memory (loaded, replayed, cached by version), their
verifiable dice and records, which seats a request's tokens hold, and an action applied
and stored.  The sides (bots, notes, clocks, insight) and the core of
:mod:`yatzy.web.service` (create, join, act, views) build on :class:`GameBase`.
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
from typing import Any

import orjson

from yatzy.analysis.measured import earlier_games
from yatzy.errors import YatzyError
from yatzy.game import (
    Action,
    FairDice,
    State,
    action_from_json,
    action_to_json,
    default_rng,
    from_record,
    to_record,
)
from yatzy.store import GameRepository, StoredGame
from yatzy.store.clocks import ClockStore
from yatzy.store.daily import write_revealed_record
from yatzy.web.ahead import Ahead, enabled_by_env
from yatzy.web.awaiting import InvitedSeats
from yatzy.web.chances import LiveChances
from yatzy.web.clocks import STAND_IN, Clock, GameClocks
from yatzy.web.models import DiceView
from yatzy.web.rated import RatedGames
from yatzy.web.talk import Talk
from yatzy.web.win_jobs import WinAnalyses

log = logging.getLogger("yatzy.web")

MAX_CACHED = 1000
"""Games in play whose states a server process keeps in memory."""
MAX_TO_MOVE = 20_000
"""Games whose seat to move (at one version) a server process remembers for the
"your turn" lists, past :data:`MAX_CACHED`: a few dozen bytes each."""


class SeatError(YatzyError):
    """A request for a seat that its token does not hold (or that is not a person's)."""


class DiceSeedMissingError(YatzyError):
    """A game whose record commits to a dice seed that the store does not have."""


@dataclass(frozen=True)
class Decided:
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


class GameBase:
    """The state of :class:`yatzy.web.service.GameService` and what every side of it
    uses: loading, caching, dice, records, seats held, storing a move."""

    undo_grace: float = 0.0
    """Seconds a write stays undoable where people play on several devices (``yatzy
    serve --undo-grace``): a computer's move waits that long, and the page holds the
    game's last write that long (set by the app)."""

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
        self._to_move: dict[str, tuple[int, int]] = {}
        """Game id to (version, the seat to move then): what ``turns_of`` learnt
        by replaying a game missing from :attr:`_cache` (not replayed again until it
        moves)."""
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
        self.invited = InvitedSeats(repo)
        """The invited friends each game waits for: its computers move only once
        nobody is awaited (:mod:`yatzy.web.awaiting`)."""
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

    # -- loading -------------------------------------------------------------------------------

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

    def _cached(self, game_id: str) -> tuple[StoredGame, State] | None:
        with self._lock:
            return self._cache.get(game_id)

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

    # -- seats and dice ------------------------------------------------------------------------

    def seats_held(self, stored: StoredGame, tokens: Mapping[int, str]) -> list[int]:
        """The seats of ``stored`` that ``tokens`` hold."""
        return [s for s in sorted(tokens) if self._holds(stored, s, tokens[s])]

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

    # -- storing a move ------------------------------------------------------------------------

    def _apply(self, stored: StoredGame, state: State, action: Action, seat: int) -> Decided:
        dealer = self._dealer(stored)
        new = state.clone()
        new.apply(action, player=seat)
        if new.is_chance_node():
            # The game's verifiable dice; the CSPRNG for games stored before them.
            new.roll(dealer if dealer is not None else self.rng)
        move: dict[str, Any] = action_to_json(action)
        if new.dice is not None and new.game.pad is False and "roll" in move:
            move["dice"] = [list(d) if isinstance(d, tuple) else d for d in new.dice]
        return Decided(stored, new, seat, move, self._record(stored.id, new, dealer))

    async def _store(self, decided: Decided) -> tuple[StoredGame, State]:
        return self._stored(decided, await self.repo.commit_async(**decided.commit))

    def _stored(self, decided: Decided, version: int) -> tuple[StoredGame, State]:
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


def _never(_hold: str) -> bool:
    """No event a seed is held for is known to be over (the default of
    :attr:`GameService.hold_over`)."""
    return False


def utc_day() -> str:
    """Today's date in UTC, as ISO 8601 writes it (the daily challenges' clock)."""
    return datetime.now(UTC).date().isoformat()
