"""The lobby (issue 26): open seeks that others join, and "play someone now", a
quick-match queue that pairs people waiting for the same game within seconds and
offers a computer opponent to one who waits alone.

Seeks and the queue are kept in the database (:mod:`yatzy.store.lobby`), so every
server process sees the same lobby and pairs from the same queue; a page polls
(``GET /api/lobby``, ``GET /api/lobby/quick``) and is sent to its game once it is
made.  Only signed-in people seek, join or wait: a lobby game seats each person on
their account (on every device they use), and the lobby names them by their
account names.  Guests may look.

Every game the lobby makes is made by :meth:`LobbyGames.start` (the one place a
seek's time control would reach the game; see there).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from yatzy.errors import YatzyError
from yatzy.rules import LANGUAGES, RuleSet
from yatzy.store.accounts import Account, account_owner, owner_hash
from yatzy.store.lobby import (
    Pairing,
    QuickMatchStore,
    Seek,
    SeekStore,
)
from yatzy.web.catalog import DEFAULT_BOT, computer_name
from yatzy.web.clocks import ClockError, ClockSetting
from yatzy.web.hints import hints_unsupported
from yatzy.web.hub import BotRunner
from yatzy.web.service import MAX_SEATS, GameService, SeatRequest, new_token, token_hash
from yatzy.web.views import bot_to_act

MAX_OPEN_SEEKS = 3
"""Open seeks an account may have at once."""
BOT_WAIT = 20.0
"""Seconds a lone quick-match waiter waits before a computer opponent is offered."""
DROP_AFTER = 15.0
"""Seconds after its page's last poll that a quick-match wait is dropped (the page
polls every second while it waits; a closed page, or one gone offline, stops)."""


class LobbyError(YatzyError):
    """A refusal of the lobby: a bad rule set, number of players or time control."""


def utc_clock() -> datetime:
    """The time now, in UTC (the lobby's default clock)."""
    return datetime.now(UTC)


def clock_of(time_control: dict[str, Any] | None) -> ClockSetting | None:
    """The game clock of a seek's checked ``time_control`` (None: untimed)."""
    if time_control is None:
        return None
    return ClockSetting.of(
        time_control["mode"], time_control.get("seconds"), time_control.get("days")
    )


def check_time_control(value: Any) -> dict[str, Any] | None:
    """A seek's time control as stored: None, ``{"mode": "live", "seconds": 30..600}``
    or ``{"mode": "daily", "days": 1..7}`` (checked by :meth:`ClockSetting.of`, as a
    new game's clock is); else :class:`LobbyError`."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise LobbyError("time_control: null or an object")
    unknown = sorted(str(key) for key in value if key not in ("mode", "seconds", "days"))
    if unknown:
        raise LobbyError(f"time_control: no {', '.join(unknown)} in a time control")
    try:
        setting = ClockSetting.of(value.get("mode"), value.get("seconds"), value.get("days"))
    except ClockError as exc:
        raise LobbyError(f"time_control: {exc}") from None
    return setting.time_control()


def check_game(rules: str, lang: str, players: int, hints: bool = False) -> str:
    """The rule set's normal spec if a game of ``players`` people may be made with it,
    as game creation checks it (the spec, the language, hints where the rules have
    an advisor); else the refusal."""
    spec = RuleSet.parse(rules).spec
    if lang not in LANGUAGES:
        raise LobbyError(f"language {lang!r} is not one of {', '.join(LANGUAGES)}")
    if not 2 <= players <= MAX_SEATS:
        raise LobbyError(f"players: 2 to {MAX_SEATS}")
    if hints:
        reason = hints_unsupported(RuleSet.parse(spec), False)
        if reason is not None:
            raise LobbyError(f"no hints for {spec}: {reason}")
    return spec


class LobbyGames:
    """Makes the games of the lobby and of invitations, each person seated on their
    account."""

    def __init__(self, service: GameService, bots: BotRunner | None) -> None:
        self.service = service
        self.bots = bots

    async def start(
        self,
        rules: str,
        lang: str,
        people: Sequence[tuple[str, str]],
        *,
        hints: bool = False,
        bots: Sequence[str] = (),
        time_control: dict[str, Any] | None = None,
        open_seats: Sequence[str] = (),
        kick: bool = True,
    ) -> str:
        """A new game of ``people`` ((account id, name), each seated on the account in
        this order), then a computer of each level of ``bots``, then ``open_seats``
        (names of seats that wait for an invite link); its id.

        ``time_control`` is the seek's clock (checked by :func:`check_time_control`),
        the game's clock (:mod:`yatzy.web.clocks`).  Without ``kick`` the computers
        are not started (the caller does, once the game's invitations are made)."""
        seats = [SeatRequest(name) for _, name in people]
        seats += [SeatRequest(name) for name in open_seats]
        seats += [SeatRequest(computer_name(level, lang), bot=level) for level in bots]
        created = await self.service.create(
            rules, lang, seats, hints=hints, clock=clock_of(time_control)
        )
        await self.seat(created.game_id, {i: a for i, (a, _) in enumerate(people)})
        if kick:
            view = await self.service.public_view(created.game_id)
            if self.bots is not None and bot_to_act(view):
                self.bots.kick(created.game_id)
        return created.game_id

    async def seat(self, game_id: str, accounts: dict[int, str]) -> int | None:
        """Seat each account at its seat number (a free person's seat); the game's
        version after it, None when a seat was taken already.  The seat's token is
        never handed out: the account's session holds the seat."""

        def claim() -> int | None:
            version = None
            for seat, account_id in accounts.items():
                version = self.service.repo.claim(
                    game_id, seat, token_hash(new_token()), owner_hash(account_owner(account_id))
                )
                if version is None:
                    return None
            return version

        version = await asyncio.to_thread(claim)
        clocks = self.service.clocks
        if version is not None and await clocks.timed(game_id):
            await clocks.joined(*await self.service.load(game_id))  # the clock starts
        return version


@dataclass(frozen=True)
class QuickState:
    """Where an account stands in the quick-match queue."""

    state: str
    """``none`` (not waiting), ``waiting`` or ``matched``."""
    game_id: str | None = None
    waited: float = 0.0
    """Seconds waited so far."""
    computer: bool = False
    """Whether a computer opponent is offered (nobody came within the wait)."""
    rules: str | None = None
    players: int = 0


class Lobby:
    """Seeks and the quick-match queue of one server process, over the database
    every process shares.  ``clock`` gives the time (tests advance their own);
    ``bot_wait`` and ``drop_after`` are :data:`BOT_WAIT` and :data:`DROP_AFTER`."""

    def __init__(
        self,
        service: GameService,
        bots: BotRunner | None = None,
        *,
        clock: Callable[[], datetime] = utc_clock,
        bot_wait: float = BOT_WAIT,
        drop_after: float = DROP_AFTER,
        max_open: int = MAX_OPEN_SEEKS,
        bot_level: str = DEFAULT_BOT,
    ) -> None:
        self.games = LobbyGames(service, bots)
        self.seeks = SeekStore(service.repo)
        self.queue = QuickMatchStore(service.repo)
        self.clock = clock
        self.bot_wait = bot_wait
        self.drop_after = drop_after
        self.max_open = max_open
        self.bot_level = bot_level

    # -- seeks -----------------------------------------------------------------------------

    async def seek(
        self,
        account: Account,
        rules: str,
        lang: str,
        players: int,
        *,
        hints: bool = False,
        time_control: Any = None,
    ) -> Seek:
        """A new open seek of the account (seated in it)."""
        spec = check_game(rules, lang, players, hints)
        clock = check_time_control(time_control)
        now = self.clock()

        def make() -> Seek:
            seek_id = self.seeks.create(
                account.id, spec, lang, hints, players, clock, now, self.max_open
            )
            return self.seeks.get(seek_id)

        return await asyncio.to_thread(make)

    async def listing(self) -> list[Seek]:
        """The open seeks, the oldest first."""
        return await asyncio.to_thread(self.seeks.listing, self.clock())

    async def seek_of(self, seek_id: str) -> Seek:
        """One seek, whatever its state (404 if none)."""
        return await asyncio.to_thread(self.seeks.get, seek_id)

    async def started_for(self, account: Account) -> list[tuple[str, str]]:
        """(seek, game) of the account's seeks started in the last day."""
        return await asyncio.to_thread(self.seeks.started_for, account.id, self.clock())

    async def join(self, account: Account, seek_id: str) -> Seek:
        """Seat the account in the seek; when that fills it, its game is made and every
        member is sent to it (the seek's ``game_id``)."""
        seek = await asyncio.to_thread(self.seeks.join, seek_id, account.id, self.clock())
        if seek.state != "full":
            return seek
        game_id = await self.games.start(
            seek.rules,
            seek.lang,
            seek.members,
            hints=seek.hints,
            time_control=seek.time_control,
        )
        await asyncio.to_thread(self.seeks.started, seek.id, game_id)
        return await asyncio.to_thread(self.seeks.get, seek.id)

    async def leave(self, account: Account, seek_id: str) -> bool:
        """Take the account out of a seek it joined (not its own)."""
        return await asyncio.to_thread(self.seeks.leave, seek_id, account.id)

    async def cancel(self, account: Account, seek_id: str) -> None:
        """Cancel the account's own open seek."""
        await asyncio.to_thread(self.seeks.cancel, seek_id, account.id)

    # -- play someone now --------------------------------------------------------------------

    async def quick(self, account: Account, rules: str, lang: str, players: int = 2) -> QuickState:
        """Put the account in the queue of (``rules``, ``players``) and pair it at once
        if enough people wait there."""
        spec = check_game(rules, lang, players)
        await asyncio.to_thread(self.queue.wait, account.id, spec, players, lang, self.clock())
        await self._pair(spec, players)
        return await self.quick_state(account, touch=False)

    async def _pair(self, rules: str, players: int) -> str | None:
        """Pair a group of the queue if it can be; the game's id."""
        pairing: Pairing | None = await asyncio.to_thread(
            self.queue.pair, rules, players, self.clock(), timedelta(seconds=self.drop_after)
        )
        if pairing is None:
            return None
        game_id = await self.games.start(pairing.rules, pairing.lang, pairing.people)
        await asyncio.to_thread(self.queue.made, pairing.match_id, game_id)
        return game_id

    async def quick_state(self, account: Account, *, touch: bool = True) -> QuickState:
        """The account's place in the queue (a poll of its page: with ``touch`` it
        counts as a sign of life, and the queue is paired)."""
        wait = await asyncio.to_thread(self.queue.get, account.id)
        if wait is None:
            return QuickState("none")
        now = self.clock()
        if touch and (wait.state == "waiting" or wait.game_id is None):
            # a pairing whose game never came (its process died) is undone by the
            # queue's next pairing: a poll of one of its people pairs anew
            await asyncio.to_thread(self.queue.seen, account.id, now)
            await self._pair(wait.rules, wait.players)
            wait = await asyncio.to_thread(self.queue.get, account.id) or wait
        waited = max(0.0, (now - wait.since).total_seconds())
        if wait.state != "waiting":
            return QuickState("matched", wait.game_id, waited, False, wait.rules, wait.players)
        return QuickState(
            "waiting", None, waited, waited >= self.bot_wait, wait.rules, wait.players
        )

    async def quick_leave(self, account: Account) -> bool:
        """Take the account out of the queue."""
        return await asyncio.to_thread(self.queue.leave, account.id)

    async def quick_computer(self, account: Account, name: str) -> str:
        """Take the offered computer opponent: the account leaves the queue (unless
        somebody paired it meanwhile: then that game) and plays the lobby's
        calibrated computer level, one a seat for the other places; the game's id."""
        wait = await asyncio.to_thread(self.queue.get, account.id)
        if wait is None:
            raise LobbyError("not waiting in the quick match")
        if wait.state == "waiting" and (self.clock() - wait.since).total_seconds() < self.bot_wait:
            raise LobbyError("the computer is offered after the wait")
        if not await asyncio.to_thread(self.queue.leave, account.id, only_waiting=True):
            matched = await asyncio.to_thread(self.queue.get, account.id)
            if matched is not None and matched.game_id is not None:
                return matched.game_id
            raise LobbyError("not waiting in the quick match")
        return await self.games.start(
            wait.rules,
            wait.lang,
            [(account.id, name)],
            bots=[self.bot_level] * (wait.players - 1),
        )

    async def queues(self) -> list[tuple[str, int, int]]:
        """(rules, players, people waiting) of each queue (the lobby page shows them)."""
        return await asyncio.to_thread(
            self.queue.queues, self.clock(), timedelta(seconds=self.drop_after)
        )


__all__ = [
    "BOT_WAIT",
    "DROP_AFTER",
    "MAX_OPEN_SEEKS",
    "Lobby",
    "LobbyError",
    "LobbyGames",
    "QuickState",
    "check_game",
    "check_time_control",
    "utc_clock",
]
