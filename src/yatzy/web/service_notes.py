"""The notes of :class:`yatzy.web.service.GameService`: what a player adds to a game
besides a move of the dice and boxes, each stored as a move of its own so that
every viewer follows it: hints switched on or off, a contribution to the dice, a
phrase said (:mod:`yatzy.web.talk`)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from yatzy.errors import GameOverError, YatzyError
from yatzy.game import State
from yatzy.game.fair_dice import ContributionsClosedError
from yatzy.store import StoredGame
from yatzy.web.hints import hints_unsupported
from yatzy.web.hints import prepare as prepare_hints
from yatzy.web.service_base import Decided, GameBase, SeatError
from yatzy.web.talk import check_phrase


class HintsUnavailableError(YatzyError):
    """Hints asked for in a game that cannot have them (a score pad, no advisor)."""


class NoteSide(GameBase):
    """Hints switched, contributions to the dice, phrases said."""

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
        decided = Decided(stored, state, seat, note, record)
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
