"""Retention: unfinished games nobody touched for a while are deleted.

A public server gets games that are started and abandoned (and, from an abusive
client, many of them); without pruning the database only grows.  Finished games
are kept: they are the players' history and solo records.  A game's ``updated_at``
moves with every action and every claimed seat, so a game in play is never
pruned.  Used by the server itself (periodically) and by ``yatzy prune``.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import cast

from sqlalchemy import Table, and_, delete, func, select

from yatzy.errors import YatzyError
from yatzy.store.models import (
    DailyEntryRow,
    DiceSeedRow,
    GameClockRow,
    GameMessageRow,
    GameRow,
    MoveRow,
    SeatRow,
)
from yatzy.store.repo import GameRepository

GAMES = cast(Table, GameRow.__table__)
SEATS = cast(Table, SeatRow.__table__)
MOVES = cast(Table, MoveRow.__table__)
DICE_SEEDS = cast(Table, DiceSeedRow.__table__)
DAILY_ENTRIES = cast(Table, DailyEntryRow.__table__)
CLOCKS = cast(Table, GameClockRow.__table__)
MESSAGES = cast(Table, GameMessageRow.__table__)

DEFAULT_DAYS = 30.0
"""Unfinished games untouched for this many days are pruned (``yatzy serve`` and ``prune``)."""

log = logging.getLogger("yatzy.store")

PRUNE_EVERY = 3600.0
"""Seconds between the server's own prunes."""

BATCH = 500
"""Games deleted per transaction: a long prune never holds the writer for long."""


@dataclass(frozen=True)
class Pruned:
    """What a prune found (and, unless it was a dry run, deleted)."""

    games: int
    cutoff: datetime
    dry_run: bool


def cutoff_of(days: float, now: datetime | None = None) -> datetime:
    """The moment before which an unfinished game counts as abandoned."""
    if not days > 0 or days != days or days == float("inf"):
        raise YatzyError(f"retention of {days!r} days is not a positive number of days")
    return (now or datetime.now(UTC)) - timedelta(days=days)


def prune(repo: GameRepository, days: float, *, dry_run: bool = False) -> Pruned:
    """Delete the unfinished games whose last change is more than ``days`` days old.

    Their seats, moves and free text go with them; finished games are never touched, nor are
    games with a daily clock (played over days and weeks: their clock lets the
    computer finish an absent player's seat, so they end by themselves).  With
    ``dry_run`` only counts them.
    """
    cutoff = cutoff_of(days)
    daily = select(CLOCKS.c.game_id).where(CLOCKS.c.mode == "daily")
    # SQLAlchemy's DateTime binds it as each database stores updated_at (SQLite: text)
    stale = and_(GAMES.c.finished.is_(False), GAMES.c.updated_at < cutoff, GAMES.c.id.not_in(daily))
    if dry_run:
        with repo.engine.connect() as conn:
            count = conn.execute(select(func.count()).select_from(GAMES).where(stale)).scalar_one()
        return Pruned(int(count), cutoff, True)
    total = 0
    while True:
        with repo.write_connection() as conn, conn.begin():
            # Locked (PostgreSQL; SQLite's writer is held already), so an action racing
            # the prune waits and then finds no game rather than a game without moves.
            query = select(GAMES.c.id).where(stale).limit(BATCH)
            if repo.postgres:
                query = query.with_for_update(skip_locked=True)
            ids = [r[0] for r in conn.execute(query)]
            if not ids:
                break
            # Explicit deletes rather than ON DELETE CASCADE: SQLite enforces it only
            # with its foreign-keys pragma, which an older database file may lack.
            conn.execute(delete(MOVES).where(MOVES.c.game_id.in_(ids)))
            conn.execute(delete(DICE_SEEDS).where(DICE_SEEDS.c.game_id.in_(ids)))
            conn.execute(delete(DAILY_ENTRIES).where(DAILY_ENTRIES.c.game_id.in_(ids)))
            conn.execute(delete(CLOCKS).where(CLOCKS.c.game_id.in_(ids)))
            conn.execute(delete(MESSAGES).where(MESSAGES.c.game_id.in_(ids)))
            conn.execute(delete(SEATS).where(SEATS.c.game_id.in_(ids)))
            conn.execute(delete(GAMES).where(GAMES.c.id.in_(ids)))
        total += len(ids)
    return Pruned(total, cutoff, False)


async def prune_periodically(
    repo: GameRepository, days: float, every: float = PRUNE_EVERY, first: float = 60.0
) -> None:
    """Prune abandoned games ``first`` seconds after the start and then every
    ``every`` seconds, in a worker thread, until cancelled (the server's task).
    A failed prune is logged and tried again next time."""
    await asyncio.sleep(first)
    while True:
        try:
            pruned = await asyncio.to_thread(prune, repo, days)
            if pruned.games:
                log.info("pruned %d games untouched since %s", pruned.games, pruned.cutoff)
        except Exception as exc:
            log.warning("pruning abandoned games failed: %s", exc)
        await asyncio.sleep(every)
