"""The friends a game waits for (issue 26): a game made with friends invited to its
seats does not start until each has taken their seat, or their invitation stopped
standing (declined, lapsed after a day, or ended by a block).  Meanwhile its
computers make no move, its clock does not run (it starts once every person is
seated anyway: :meth:`yatzy.web.clocks.GameClocks.joined`), and its view names them
(``waiting_for``).  A seat whose invitation stops standing unanswered waits for the
game's invite link as before: the game then goes on, and its turn order waits at
that empty seat.

The invitations are in the database, so every process sees the same; a game found
waiting for nobody is remembered in the process (a game's invitations are made with
it, so it never waits again), and its views and computers ask nothing more.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from yatzy.store import GameRepository
from yatzy.store.lobby import InvitationStore

MOST_REMEMBERED = 100_000
"""Games remembered as waiting for nobody, at most (then forgotten all at once)."""


@dataclass(frozen=True)
class Awaited:
    """The friends a game waits for: their seats' names (in seat order) and when the
    first of their invitations lapses (None: nobody is awaited)."""

    names: tuple[str, ...] = ()
    until: datetime | None = None

    def __bool__(self) -> bool:
        return bool(self.names)


NOBODY = Awaited()
"""A game that waits for nobody."""


def utc_now() -> datetime:
    """The time now, in UTC (the invitations' default clock)."""
    return datetime.now(UTC)


class InvitedSeats:
    """Which invited friends each game waits for (see the module docstring)."""

    def __init__(self, repo: GameRepository) -> None:
        self.store = InvitationStore(repo)
        self.clock: Callable[[], datetime] = utc_now
        """The time the invitations lapse by (the lobby's; tests move their own)."""
        self._nobody: set[str] = set()
        self._until: dict[str, datetime] = {}

    async def of(self, game_id: str) -> Awaited:
        """The friends ``game_id`` waits for now (one query while it waits; none once
        it was found waiting for nobody)."""
        if game_id in self._nobody:
            return NOBODY
        rows = await asyncio.to_thread(self.store.awaited, game_id, self.clock())
        if not rows:
            if len(self._nobody) >= MOST_REMEMBERED:
                self._nobody.clear()
            self._nobody.add(game_id)
            self._until.pop(game_id, None)
            return NOBODY
        found = Awaited(tuple(name for _, name, _ in rows), min(t for _, _, t in rows))
        assert found.until is not None
        if len(self._until) >= MOST_REMEMBERED:
            self._until.clear()
        self._until[game_id] = found.until
        return found

    def until(self, game_id: str) -> datetime | None:
        """When the first standing invitation of ``game_id`` lapses, as last read by
        :meth:`of` (None: not waiting, or not read here)."""
        return self._until.get(game_id)

    def invited(self, game_id: str) -> None:
        """An invitation into ``game_id`` was just made here: it may wait again
        (a view read between the game's making and its invitations' is forgotten)."""
        self._nobody.discard(game_id)


__all__ = ["NOBODY", "Awaited", "InvitedSeats", "utc_now"]
