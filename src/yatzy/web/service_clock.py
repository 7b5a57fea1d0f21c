"""The clocks' side of :class:`yatzy.web.service.GameService`: a timed game's clock
acted on before a view, the other players' choice about an absent player (and the
absent player back), and the games where an account's turn waits (with their
deadlines).  The clocks themselves are :mod:`yatzy.web.clocks`."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import orjson

from yatzy.game import from_record
from yatzy.rules import LANGUAGES
from yatzy.store import StoredGame
from yatzy.store.clocks import ClockRow
from yatzy.web.catalog import rules_name
from yatzy.web.clocks import Choice, clock_fields
from yatzy.web.models import GameView, WaitingGame
from yatzy.web.service_base import MAX_TO_MOVE, GameBase, token_hash


class ClockSide(GameBase):
    """Clocks settled before a view, time-out choices, the turns that wait."""

    if TYPE_CHECKING:  # the core's (yatzy.web.service.GameService)

        async def view(
            self, game_id: str, tokens: Mapping[int, str] | None = None, owner: str | None = None
        ) -> GameView: ...

    async def _settled(self, game_id: str) -> ClockRow | None:
        """A timed game's clock, acted on if it is due (None: untimed)."""
        if not await self.clocks.timed(game_id):
            return None
        return await self.clocks.settle(game_id)

    def _clocked(self, view: GameView, row: ClockRow | None) -> GameView:
        view["clock"] = self.clocks.view(row)
        return view

    async def choose(self, game_id: str, choice: Choice, tokens: Mapping[int, str]) -> GameView:
        """A player's choice about an absent player's time-out, or the absent player
        back (:meth:`yatzy.web.clocks.GameClocks.choose`); the game as stored now,
        for the asker."""
        stored, _ = await self.load(game_id)
        await self.clocks.choose(game_id, self.seats_held(stored, tokens), choice)
        return await self.view(game_id, tokens)

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
            # a few queries in all, however many games: the recent games and their
            # seats, the timed games that wait, those read together, their clocks
            games = self.repo.games_of(mine)
            seen = {g.id for g in games}
            games += self.repo.many(
                [g for g in self.clocks.store.waiting_for(mine) if g not in seen]
            )
            for stored in games:
                if stored.finished:
                    continue
                seat = self._seat_to_move(stored)
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

    def _seat_to_move(self, stored: StoredGame) -> int:
        """The seat to move in ``stored`` (or CHANCE, TERMINAL): from the cached state,
        else from ``_to_move`` at the same version, else by replaying its record
        (then remembered, the oldest forgotten past :data:`MAX_TO_MOVE`)."""
        cached = self._cached(stored.id)
        if cached is not None and cached[0].version == stored.version:
            return cached[1].current_player()
        known = self._to_move.get(stored.id)
        if known is not None and known[0] == stored.version:
            return known[1]
        seat = from_record(orjson.loads(stored.record)).current_player()
        with self._lock:
            self._to_move.pop(stored.id, None)
            self._to_move[stored.id] = (stored.version, seat)
            while len(self._to_move) > MAX_TO_MOVE:
                del self._to_move[next(iter(self._to_move))]
        return seat
