"""Time controls of web games (issue 26): live and daily clocks, and absence.

A game may be created with a clock: ``{"mode": "live", "seconds": 30..600}`` (each
turn has that many seconds) or ``{"mode": "daily", "days": 1..7}`` (each turn has
that many days).  The deadline of the seat to move is stored with the game
(:mod:`yatzy.store.clocks`) and set anew whenever the turn passes; it does not run
while a computer moves or while an invited seat is still free.

When the person to move passes the deadline the seat is paused and the game's
other people choose: a computer finishes the seat, at the level measured from the
absent person's play so far (:meth:`yatzy.web.ahead.Ahead.levels_of`; else the
calibrated ``casual``), or the game ends now (the result records the time-out).
Without a choice within the grace (:data:`GRACE`) the computer takes over.  The
absent person may come back: a paused seat is theirs at once, one the computer
plays is theirs again at the end of the computer's turn; the clock's view lists
the turns the computer played.

Time comes from a :class:`Clock` (real by default; tests set one), and the server
looks at due clocks itself: every view and action of a timed game checks its
clock, and a periodic task (:func:`check_periodically`) finds the overdue games
with one indexed query.  Each change is conditional on the clock's stamp and the
game's version (:meth:`yatzy.store.clocks.ClockStore.event`), so of several server
processes exactly one acts on a time-out.
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import threading
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Literal, Protocol

from typing_extensions import TypedDict

from yatzy.errors import YatzyError
from yatzy.game import State
from yatzy.store import StoredGame
from yatzy.store.clocks import ClockRow, ClockStore
from yatzy.web.models import ClockView

log = logging.getLogger("yatzy.web")

LIVE_SECONDS = (30, 600)
"""A live clock's seconds per turn, lowest and highest."""
DAILY_DAYS = (1, 7)
"""A daily clock's days per turn, lowest and highest."""
DAY = 86_400
GRACE = {"live": 60.0, "daily": float(DAY)}
"""Seconds the other people have to choose after a time-out, per mode, before the
computer takes the seat over by itself."""
CHECK_EVERY = 5.0
"""Seconds between the server's looks for overdue clocks."""
STAND_IN = "casual"
"""The computer's level for an absent person whose play is not measured yet."""
TEST_CLOCK_ENV = "YATZY_TEST_CLOCK_FILE"
"""Test only: a file holding seconds (a number) that the server's clock adds to
the real time, read at every look; unset (always, outside tests), the clock is real."""

Choice = Literal["computer", "end", "back"]


class ClockError(YatzyError):
    """A clock setting the game cannot have (422)."""


class NothingToChooseError(YatzyError):
    """A choice about a time-out where none waits (nobody ran out of time, or the
    choice was made already), or a seat taken back that nobody plays for (409)."""

    http_status = 409


class ComputerPlaysError(YatzyError):
    """An action for a seat that a computer plays while its person is away (409)."""

    http_status = 409


class NotAPlayerError(YatzyError):
    """A choice by someone who holds no seat that may make it (403)."""

    http_status = 403


# -- the time ---------------------------------------------------------------------------------


class Clock(Protocol):
    """Where the server's clocks get the time."""

    def now(self) -> datetime:
        """The time now (aware, UTC)."""
        ...


class SystemClock:
    """The real time."""

    def now(self) -> datetime:
        """The time now (aware, UTC)."""
        return datetime.now(UTC)


class SettableClock:
    """A clock that tests set and advance (it stands still otherwise)."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime.now(UTC)
        self._lock = threading.Lock()

    def now(self) -> datetime:
        """The time the test set."""
        with self._lock:
            return self._now

    def set(self, moment: datetime) -> None:
        """Set the time."""
        with self._lock:
            self._now = moment

    def advance(self, seconds: float = 0.0, days: float = 0.0) -> datetime:
        """Move the time on; the new time."""
        with self._lock:
            self._now += timedelta(seconds=seconds, days=days)
            return self._now


class FileClock:
    """Test only (:data:`TEST_CLOCK_ENV`): the real time plus the seconds written in
    a file, so that a browser test moves a served app's time on from outside."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def now(self) -> datetime:
        """The real time plus the file's seconds (0 while it is missing or unreadable)."""
        try:
            offset = float(self.path.read_text().strip() or 0)
        except (OSError, ValueError):
            offset = 0.0
        return datetime.now(UTC) + timedelta(seconds=offset)


def clock_from_env() -> Clock:
    """The real clock, or the test clock where :data:`TEST_CLOCK_ENV` is set."""
    path = os.environ.get(TEST_CLOCK_ENV)
    return FileClock(Path(path)) if path else SystemClock()


# -- the arithmetic ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ClockSetting:
    """A game's clock: ``live`` or ``daily``, and the seconds each turn has."""

    mode: Literal["live", "daily"]
    seconds: int

    @classmethod
    def live(cls, seconds: int) -> ClockSetting:
        """A live clock of ``seconds`` per turn (:class:`ClockError` out of range)."""
        low, high = LIVE_SECONDS
        if isinstance(seconds, bool) or not isinstance(seconds, int) or not low <= seconds <= high:
            raise ClockError(f"a live clock has {low} to {high} seconds per turn, not {seconds!r}")
        return cls("live", seconds)

    @classmethod
    def daily(cls, days: int) -> ClockSetting:
        """A daily clock of ``days`` per turn (:class:`ClockError` out of range)."""
        low, high = DAILY_DAYS
        if isinstance(days, bool) or not isinstance(days, int) or not low <= days <= high:
            raise ClockError(f"a daily clock has {low} to {high} days per turn, not {days!r}")
        return cls("daily", days * DAY)

    @classmethod
    def of(cls, mode: object, seconds: object = None, days: object = None) -> ClockSetting:
        """The one check of a time control, however it came (a new game's ``clock``,
        a seek's or an invitation's ``time_control``): ``live`` with ``seconds`` per
        turn or ``daily`` with ``days``, exactly the mode's one measure, a whole
        number in its range (:data:`LIVE_SECONDS`, :data:`DAILY_DAYS`); else
        :class:`ClockError`, quoting what is wrong."""
        if mode == "live":
            if seconds is None or days is not None:
                low, high = LIVE_SECONDS
                raise ClockError(f"a live clock takes seconds ({low} to {high}), not days")
            return cls.live(seconds)  # type: ignore[arg-type]  # live() checks it
        if mode == "daily":
            if days is None or seconds is not None:
                low, high = DAILY_DAYS
                raise ClockError(f"a daily clock takes days ({low} to {high}), not seconds")
            return cls.daily(days)  # type: ignore[arg-type]  # daily() checks it
        raise ClockError(f"a clock's mode is 'live' or 'daily', not {mode!r}")

    @property
    def days(self) -> int | None:
        """A daily clock's days per turn (None: a live clock)."""
        return self.seconds // DAY if self.mode == "daily" else None

    def time_control(self) -> dict[str, Any]:
        """The setting as a seek or an invitation keeps it: ``{"mode": "live",
        "seconds": ...}`` or ``{"mode": "daily", "days": ...}``."""
        if self.mode == "live":
            return {"mode": "live", "seconds": self.seconds}
        return {"mode": "daily", "days": self.days}


def deadline_after(start: datetime, seconds: int) -> datetime:
    """The deadline of a turn that starts at ``start`` and has ``seconds``."""
    return start + timedelta(seconds=seconds)


def seconds_left(deadline: datetime, now: datetime) -> int:
    """Whole seconds until ``deadline``, rounded up (0 once it has passed)."""
    return max(0, math.ceil((deadline - now).total_seconds()))


def days_left(deadline: datetime, now: datetime) -> int:
    """Whole days until ``deadline``, rounded up (0 once it has passed): what the
    account page shows for a daily game."""
    return math.ceil(seconds_left(deadline, now) / DAY)


def turn_key(state: State) -> str:
    """The turn a deadline belongs to: the seat and the turn's number ("" when no
    seat has the turn: the roll-off, or the game is over)."""
    if state.player < 0 or state.is_terminal():
        return ""
    return f"{state.player}:{state.turn_number}"


def all_seated(stored: StoredGame) -> bool:
    """Whether every person's seat is claimed (a clock waits for the invited)."""
    return all(s.claimed for s in stored.seats if s.bot is None)


def iso(moment: datetime | None) -> str | None:
    """``moment`` in ISO 8601 (UTC, to the second), as the views carry times."""
    return None if moment is None else moment.astimezone(UTC).isoformat(timespec="seconds")


class WaitingClock(TypedDict):
    """A timed game's clock in the list of the games that wait for a player."""

    deadline: str | None
    days_left: int | None


def clock_fields(row: ClockRow, now: datetime) -> WaitingClock:
    """What the "your turn" list shows of a game's clock: the deadline, and for a
    daily game the whole days left."""
    daily = row.mode == "daily" and row.deadline is not None
    return {
        "deadline": iso(row.deadline),
        "days_left": days_left(row.deadline, now) if daily and row.deadline else None,
    }


# -- the clocks of a server process -------------------------------------------------------------

Loader = Callable[[str], Awaitable[tuple[StoredGame, State]]]
Events = Callable[[str, int], Awaitable[None]]


class GameClocks:
    """The clocks of the games one server process serves (one per :class:`GameService`).

    ``loader`` reads a game as stored now, ``levels`` gives each person's measured
    level in a game, and ``on_event`` is awaited with the game's new version after
    every change that is a move (the lifespan announces it and starts the bots).
    """

    def __init__(
        self,
        store: ClockStore,
        loader: Loader,
        levels: Callable[[str], Mapping[int, str]],
        clock: Clock | None = None,
        stand_in: str = STAND_IN,
    ) -> None:
        self.store = store
        self.loader = loader
        self.levels = levels
        self.clock: Clock = clock or SystemClock()
        self.stand_in_level = stand_in
        self.on_event: Events | None = None
        self._timed: dict[str, bool] = {}

    # -- reading ------------------------------------------------------------------------------

    async def timed(self, game_id: str) -> bool:
        """Whether the game has a clock (asked of the store once per process: a
        game's clock is set when it is made)."""
        known = self._timed.get(game_id)
        if known is None:
            known = await asyncio.to_thread(self.store.get, game_id) is not None
            if len(self._timed) > 100_000:
                self._timed.clear()
            self._timed[game_id] = known
        return known

    def stood_in(self, game_id: str, seat: int) -> bool:
        """Whether a computer plays ``seat`` of the game for its absent person now
        (blocking: reads the store; the notifications' thread asks)."""
        if self._timed.get(game_id) is False:
            return False
        row = self.store.get(game_id)
        return row is not None and seat in row.stand_ins

    def untimed(self, game_id: str) -> None:
        """Note a game made here without a clock (its actions ask the store nothing)."""
        self._timed[game_id] = False

    async def row(self, game_id: str) -> ClockRow | None:
        """The game's clock as stored now (None: untimed; no query for a game known
        to be untimed)."""
        if self._timed.get(game_id) is False:
            return None
        row = await asyncio.to_thread(self.store.get, game_id)
        self._timed[game_id] = row is not None
        return row

    def start(self, game_id: str, setting: ClockSetting, stored: StoredGame, state: State) -> None:
        """Store the clock of a new game (blocking: called in a worker thread)."""
        row = ClockRow(game_id, setting.mode, setting.seconds)
        self.store.insert(self._turned(row, stored, state, self.clock.now()))
        self._timed[game_id] = True

    def _turned(self, row: ClockRow, stored: StoredGame, state: State, now: datetime) -> ClockRow:
        """``row`` for the turn of ``state``: whose turn, and its deadline (None when
        the game is over, a computer is to move, or a person's seat is still free)."""
        key = turn_key(state)
        seat = state.player if key else None
        deadline = None
        if (
            seat is not None
            and not stored.finished
            and stored.seats[seat].bot is None
            and seat not in row.stand_ins
            and all_seated(stored)
        ):
            deadline = deadline_after(now, row.seconds)
        return row.changed(phase="running", turn=key, seat=seat, deadline=deadline, due=deadline)

    # -- as the game moves ------------------------------------------------------------------------

    async def after_move(
        self,
        stored: StoredGame,
        before: State,
        after: State,
        *,
        by_computer: bool = False,
        known: ClockRow | None = None,
    ) -> None:
        """After a move of a timed game: note a turn the computer played for a
        person; when the turn passed, the next seat's deadline, and a person who came
        back gets their seat from the computer.  ``known``: the clock as read before
        the move (else it is read now)."""
        for _ in range(3):  # another process may change the clock between read and write
            row = known if known is not None else await self.row(stored.id)
            known = None
            if row is None or row.phase == "ended":
                return
            played = row.computer_turns
            if by_computer and before.player >= 0:
                turn = (before.player, before.turn_number + 1)
                if turn not in played:
                    played = (*played, turn)
            new = row.changed(computer_turns=played)
            if turn_key(after) != row.turn:
                gone = before.player
                if gone in row.returning:  # the computer's turn ended: theirs again
                    new = new.changed(
                        stand_ins={s: v for s, v in row.stand_ins.items() if s != gone},
                        returning=tuple(s for s in row.returning if s != gone),
                    )
                new = self._turned(new, stored, after, self.clock.now())
            if new == row:
                return
            if await asyncio.to_thread(self.store.update, new):
                return

    async def joined(self, stored: StoredGame, state: State) -> None:
        """A seat was claimed: once every person is seated the clock runs."""
        row = await self.row(stored.id)
        if row is None or row.phase != "running" or row.deadline is not None:
            return
        new = self._turned(row, stored, state, self.clock.now())
        if new != row:
            await asyncio.to_thread(self.store.update, new)

    async def stand_in(self, game_id: str, seat: int) -> str | None:
        """The level at which a computer plays ``seat`` for its absent person (None:
        the person plays it)."""
        row = await self.row(game_id)
        return None if row is None else row.stand_ins.get(seat)

    # -- time-outs ---------------------------------------------------------------------------------

    async def settle(self, game_id: str) -> ClockRow | None:
        """Act on the game's clock if it is due: the seat to move ran out of time
        (it pauses, the others choose), or the grace after a time-out passed (the
        computer takes the seat).  The clock as it is now."""
        for _ in range(3):  # a time-out and its grace may both have passed
            row = await self.row(game_id)
            now = self.clock.now()
            if row is None or row.due is None or row.due > now:
                return row
            stored, state = await self.loader(game_id)
            if not await self._act(row, stored, state, now):
                continue  # another process acted, or the turn had passed: look again
        return await self.row(game_id)

    async def _act(self, row: ClockRow, stored: StoredGame, state: State, now: datetime) -> bool:
        """The due clock's change; whether it was made here."""
        seat = row.seat
        if stored.finished or state.is_terminal() or seat is None:
            new = row.changed(phase="ended" if stored.finished else "running", due=None)
            await asyncio.to_thread(self.store.update, new)
            return False
        if row.phase == "running":
            if row.turn != turn_key(state):  # the turn passed, its deadline was not moved
                await asyncio.to_thread(self.store.update, self._turned(row, stored, state, now))
                return False
            grace = GRACE[row.mode]
            new = row.changed(
                phase="paused",
                due=now + timedelta(seconds=grace),
                timed_out=(*row.timed_out, seat),
            )
            return await self._event(new, stored, seat, {"clock": "timeout", "seat": seat})
        return await self._take_over(row, stored, seat, by=None)

    async def _take_over(
        self, row: ClockRow, stored: StoredGame, seat: int, by: int | None
    ) -> bool:
        """A computer plays the paused ``seat`` from now on (chosen by seat ``by``;
        None: by default, the grace having passed)."""
        level = self.levels(stored.id).get(seat) or self.stand_in_level
        new = row.changed(
            phase="running",
            stand_ins={**row.stand_ins, seat: level},
            deadline=None,
            due=None,
        )
        move = {"clock": "computer", "seat": seat, "level": level, "by": by}
        return await self._event(new, stored, seat, move)

    async def _event(
        self,
        new: ClockRow,
        stored: StoredGame,
        seat: int | None,
        move: dict[str, object],
        finish: bool = False,
    ) -> bool:
        version = await asyncio.to_thread(
            self.store.event, new, stored.version, seat, move, finish=finish
        )
        if version is None:
            return False
        if self.on_event is not None:
            await self.on_event(stored.id, version)
        return True

    async def choose(self, game_id: str, seats: list[int], choice: Choice) -> None:
        """A player's choice about a time-out (``seats``: those the asker holds):
        ``computer`` (a computer finishes the seat), ``end`` (the game ends now) or,
        by the absent person, ``back`` (their seat again: at once while paused, at
        the end of the computer's turn otherwise).  :class:`NothingToChooseError`
        where nothing waits for it (or another choice came first),
        :class:`NotAPlayerError` for someone who may not make it."""
        row = await self.settle(game_id)
        if row is None:
            raise NothingToChooseError("this game has no clock")
        stored, state = await self.loader(game_id)  # as settled
        if row.phase == "ended" or stored.finished or state.is_terminal():
            raise NothingToChooseError("the game is over")
        if choice == "back":
            await self._back(row, stored, state, seats)
            return
        if row.phase != "paused" or row.seat is None:
            raise NothingToChooseError("nobody's time ran out, or the choice was made already")
        others = [s for s in seats if s != row.seat and stored.seats[s].bot is None]
        if not others:
            raise NotAPlayerError("only the game's other players choose for an absent player")
        if choice == "computer":
            done = await self._take_over(row, stored, row.seat, by=others[0])
        else:
            new = row.changed(phase="ended", ended_by=row.seat, deadline=None, due=None)
            move = {"clock": "end", "seat": row.seat, "by": others[0]}
            done = await self._event(new, stored, row.seat, move, finish=True)
        if not done:
            raise NothingToChooseError("the choice was made already")

    async def _back(
        self, row: ClockRow, stored: StoredGame, state: State, seats: list[int]
    ) -> None:
        """The absent person of one of ``seats`` takes their seat back."""
        away = [s for s in seats if s in row.stand_ins or (row.phase == "paused" and s == row.seat)]
        if not away:
            if any(s in row.returning for s in seats):
                return  # asked already: theirs at the end of the computer's turn
            raise NothingToChooseError("no seat of yours is played by the computer or paused")
        seat = away[0]
        now = self.clock.now()
        if row.phase == "paused" and seat == row.seat:
            deadline = deadline_after(now, row.seconds)
            new = row.changed(phase="running", deadline=deadline, due=deadline)
        elif state.player != seat or (state.rolls_used == 0 and state.dice is None):
            # not in the middle of the computer's turn for it: theirs at once
            new = self._turned(
                row.changed(stand_ins={s: v for s, v in row.stand_ins.items() if s != seat}),
                stored,
                state,
                now,
            )
        else:
            new = row.changed(returning=(*row.returning, seat))
        if not await self._event(new, stored, seat, {"clock": "back", "seat": seat}):
            raise NothingToChooseError("the game changed meanwhile; try again")

    async def before_act(
        self, game_id: str, seats_of: Callable[[StoredGame], list[int]], seat: int | None
    ) -> tuple[ClockRow | None, bool]:
        """Before a person's action in a timed game (``seats_of``: the seats the
        asker holds in a game): the clock settled, and a person whose seat is paused
        for a time-out is back by acting.  The clock as read (None: changed here) and
        whether the game moved.  :class:`ComputerPlaysError` for a seat that the
        computer plays."""
        row = await self.settle(game_id)
        if row is None or row.phase == "ended" or (row.phase != "paused" and not row.stand_ins):
            return row, False  # the common case: one read of the clock
        stored, state = await self.loader(game_id)
        seats = seats_of(stored)
        acting = seat if seat is not None else state.current_player()
        if acting in row.stand_ins and acting in seats:
            raise ComputerPlaysError(
                "the computer plays this seat while you were away; take it back first"
            )
        if row.phase == "paused" and acting == row.seat and acting in seats:
            await self._back(row, stored, state, [acting])
            return None, True
        return row, False

    async def sweep(self, limit: int = 100) -> int:
        """Act on every overdue clock (one indexed query); how many were due."""
        due = await asyncio.to_thread(self.store.overdue, self.clock.now(), limit)
        for game_id in due:
            try:
                await self.settle(game_id)
            except Exception as exc:  # one game's trouble must not stop the others'
                log.warning("the clock of game %s failed: %s", game_id, exc)
        return len(due)

    # -- the view -------------------------------------------------------------------------------

    def view(self, row: ClockRow | None) -> ClockView | None:
        """The clock as every viewer sees it (None: an untimed game)."""
        if row is None:
            return None
        now = self.clock.now()
        paused = row.phase == "paused"
        return {
            "mode": "daily" if row.mode == "daily" else "live",
            "seconds": row.seconds,
            "days": row.seconds // DAY if row.mode == "daily" else None,
            "phase": "paused" if paused else "ended" if row.phase == "ended" else "running",
            "seat": row.seat,
            "deadline": None if paused else iso(row.deadline),
            "seconds_left": (
                None if paused or row.deadline is None else seconds_left(row.deadline, now)
            ),
            "choose_until": iso(row.due) if paused else None,
            "choose_left": seconds_left(row.due, now) if paused and row.due else None,
            "computer": sorted(row.stand_ins),
            "returning": list(row.returning),
            "timed_out": list(row.timed_out),
            "computer_turns": [list(t) for t in row.computer_turns],
            "ended_by": row.ended_by,
        }


async def check_periodically(clocks: GameClocks, every: float = CHECK_EVERY) -> None:
    """Look for overdue clocks every ``every`` seconds until cancelled (the server's
    task; a failed look is logged and tried again next time)."""
    while True:
        await asyncio.sleep(every)
        try:
            await clocks.sweep()
        except Exception as exc:
            log.warning("looking for overdue clocks failed: %s", exc)


__all__ = [
    "CHECK_EVERY",
    "DAILY_DAYS",
    "DAY",
    "GRACE",
    "LIVE_SECONDS",
    "STAND_IN",
    "TEST_CLOCK_ENV",
    "Clock",
    "ClockError",
    "ClockSetting",
    "ComputerPlaysError",
    "FileClock",
    "GameClocks",
    "NotAPlayerError",
    "NothingToChooseError",
    "SettableClock",
    "SystemClock",
    "WaitingClock",
    "check_periodically",
    "clock_fields",
    "clock_from_env",
    "days_left",
    "deadline_after",
    "seconds_left",
    "turn_key",
]
