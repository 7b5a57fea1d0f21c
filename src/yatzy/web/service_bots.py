"""The bots' side of :class:`yatzy.web.service.GameService`: a bot's move, or a
computer's standing in for an absent person, and the wait on a person's take-back
("go on") before a bot moves on."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import replace

from yatzy.errors import YatzyError
from yatzy.game import CHANCE, TERMINAL, Action, State
from yatzy.store import StoredGame
from yatzy.web.prepare import bot_for
from yatzy.web.service_base import GameBase, SeatError


class NothingWaitsError(YatzyError):
    """A "go on" when no computer waits on the asker's write."""


class BotSide(GameBase):
    """The bots' moves and the wait for a take-back before them."""

    async def bot_step(self, game_id: str) -> int | None:
        """Let the bot to act make one action; the new version, or None if no bot is to act.

        A race lost to another server process raises :class:`ConflictError`.  No
        bot moves while the game waits for invited friends (:attr:`invited`).
        """
        if await self.invited.of(game_id):
            return None
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

    def _bot_choice(self, level: str, state: State) -> Action:
        """The bot's action; the greedy strategy stands in while the level's tables
        are prepared (a job), or where this server prepares none for the rules, so
        the game never waits for a table (:func:`yatzy.web.prepare.bot_for`)."""
        bot, _ = bot_for(level, state.rules)
        return bot.choose(state, self.rng)

    async def undo_window(self, game_id: str) -> tuple[int, bool] | None:
        """While a person may still take back a write that a bot's move would follow
        (see :func:`waits_for_undo`): the game's version, and whether the bot waits for
        that person to go on however long it takes (:func:`on_one_device`: nobody else
        waits meanwhile); else None."""
        stored, state = await self.load(game_id)
        if not waits_for_undo(stored, state):
            return None
        return stored.version, on_one_device(stored)

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


def waits_for_undo(stored: StoredGame, state: State) -> bool:
    """Whether a bot is to act while a person may still take back the write before it.

    The bot's move begins with a roll, and a roll ends the undo (the core's rule:
    nobody sees new dice for a decision that can still be taken back), so the bots
    wait here until the person goes on or a grace passes (:class:`BotRunner`).
    """
    seat = state.undo_seat()
    return seat is not None and stored.seats[seat].bot is None and bot_is_next(stored, state)


def on_one_device(stored: StoredGame) -> bool:
    """Whether every person of the game plays on one device (or one account): against
    the computer, or pass and play.  Every person's seat is taken, all by one owner.
    There a computer waits for the person's next action after their write, however
    long (nobody else waits for it); with people on several devices it waits the
    server's grace, so that one absent person never holds the others up."""
    people = [s for s in stored.seats if s.bot is None]
    owners = {s.owner_hash for s in people}
    return (
        bool(people) and all(s.claimed for s in people) and len(owners) == 1 and None not in owners
    )


def bot_is_next(stored: StoredGame, state: State) -> bool:
    """Whether a bot seat is to act in ``state``."""
    seat = state.current_player()
    return seat not in (CHANCE, TERMINAL) and stored.seats[seat].bot is not None
