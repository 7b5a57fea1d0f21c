"""The daily challenges' store: each day's seed per rule set, each browser's one game
of a challenge, the leaderboard and the calendar (tables of migration 0007)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import cast

from sqlalchemy import Table, and_, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from yatzy.errors import YatzyError
from yatzy.store.models import DailyChallengeRow, DailyEntryRow, GameRow
from yatzy.store.repo import GameRepository

CHALLENGES = cast(Table, DailyChallengeRow.__table__)
ENTRIES = cast(Table, DailyEntryRow.__table__)
GAMES = cast(Table, GameRow.__table__)


class AlreadyEnteredError(YatzyError):
    """A browser's second game of the same day's challenge."""


@dataclass(frozen=True)
class Challenge:
    """A day's challenge for one rule set (``seed``: hex, secret until the day is over)."""

    day: str
    rules: str
    seed: str
    optimal_total: int | None


@dataclass(frozen=True)
class Entry:
    """A browser's game of a challenge: its id, the player's name, the total once
    the game is over (None while it runs)."""

    game_id: str
    name: str
    total: int | None
    finished: bool


@dataclass(frozen=True)
class DaySummary:
    """A challenge in the calendar: how many finished it and the best total."""

    day: str
    rules: str
    players: int
    best: int | None
    optimal_total: int | None


class DailyStore:
    """Reads and writes the daily challenges through a :class:`GameRepository`'s engine."""

    def __init__(self, repo: GameRepository) -> None:
        self.repo = repo

    def challenge(self, day: str, rules: str) -> Challenge:
        """The challenge of ``day`` for ``rules``, its seed drawn on first use (two
        processes drawing at once: the first insert wins, both read it back)."""
        found = self._challenge(day, rules)
        if found is not None:
            return found
        try:
            with self.repo.write_connection() as conn, conn.begin():
                conn.execute(
                    insert(CHALLENGES).values(
                        day=day, rules=rules, seed=secrets.token_bytes(32).hex()
                    )
                )
        except IntegrityError:
            pass  # drawn by another process meanwhile
        again = self._challenge(day, rules)
        assert again is not None
        return again

    def _challenge(self, day: str, rules: str) -> Challenge | None:
        with self.repo.engine.connect() as conn:
            row = (
                conn.execute(
                    select(CHALLENGES).where(
                        and_(CHALLENGES.c.day == day, CHALLENGES.c.rules == rules)
                    )
                )
                .mappings()
                .first()
            )
        if row is None:
            return None
        return Challenge(row["day"], row["rules"], row["seed"], row["optimal_total"])

    def known(self, day: str, rules: str) -> Challenge | None:
        """The challenge if it was ever drawn (nobody played it otherwise)."""
        return self._challenge(day, rules)

    def set_optimal(self, day: str, rules: str, total: int) -> None:
        """Keep what the optimal player scored on the challenge's dice."""
        with self.repo.write_connection() as conn, conn.begin():
            conn.execute(
                update(CHALLENGES)
                .where(and_(CHALLENGES.c.day == day, CHALLENGES.c.rules == rules))
                .values(optimal_total=total)
            )

    def enter(self, day: str, rules: str, game_id: str, owner_hash: str, name: str) -> None:
        """Tie a new game to the challenge; :class:`AlreadyEnteredError` when this
        browser has a game of it already."""
        try:
            with self.repo.write_connection() as conn, conn.begin():
                conn.execute(
                    insert(ENTRIES).values(
                        game_id=game_id, day=day, rules=rules, owner_hash=owner_hash, name=name
                    )
                )
        except IntegrityError:
            raise AlreadyEnteredError(f"this browser has played the {day} challenge") from None

    def entry_of(self, day: str, rules: str, owner_hash: str) -> Entry | None:
        """This browser's game of the challenge, if any."""
        rows = self._entries(
            and_(ENTRIES.c.day == day, ENTRIES.c.rules == rules, ENTRIES.c.owner_hash == owner_hash)
        )
        return rows[0] if rows else None

    def is_daily(self, game_id: str) -> bool:
        """Whether the game is a daily challenge's."""
        with self.repo.engine.connect() as conn:
            found = conn.execute(
                select(ENTRIES.c.game_id).where(ENTRIES.c.game_id == game_id)
            ).first()
        return found is not None

    def leaderboard(self, day: str, rules: str, limit: int = 100) -> list[Entry]:
        """The finished games of the challenge, best total first (ties: who finished
        first)."""
        rows = self._entries(
            and_(ENTRIES.c.day == day, ENTRIES.c.rules == rules, GAMES.c.finished.is_(True)),
            limit=limit,
        )
        return rows

    def _entries(self, where: object, limit: int = 100) -> list[Entry]:
        query = (
            select(ENTRIES.c.game_id, ENTRIES.c.name, GAMES.c.solo_total, GAMES.c.finished)
            .join(GAMES, GAMES.c.id == ENTRIES.c.game_id)
            .where(where)  # type: ignore[arg-type]
            .order_by(GAMES.c.solo_total.desc().nulls_last(), GAMES.c.updated_at)
            .limit(limit)
        )
        with self.repo.engine.connect() as conn:
            return [
                Entry(r.game_id, r.name, r.solo_total, bool(r.finished))
                for r in conn.execute(query)
            ]

    def calendar(self, days: list[str], rules: str) -> list[DaySummary]:
        """The challenges of ``days`` for ``rules`` that were drawn, newest first."""
        finished = and_(GAMES.c.id == ENTRIES.c.game_id, GAMES.c.finished.is_(True))
        query = (
            select(
                CHALLENGES.c.day,
                CHALLENGES.c.optimal_total,
                func.count(GAMES.c.id),
                func.max(GAMES.c.solo_total),
            )
            .select_from(CHALLENGES)
            .outerjoin(
                ENTRIES,
                and_(ENTRIES.c.day == CHALLENGES.c.day, ENTRIES.c.rules == CHALLENGES.c.rules),
            )
            .outerjoin(GAMES, finished)
            .where(and_(CHALLENGES.c.rules == rules, CHALLENGES.c.day.in_(days)))
            .group_by(CHALLENGES.c.day, CHALLENGES.c.optimal_total)
            .order_by(CHALLENGES.c.day.desc())
        )
        with self.repo.engine.connect() as conn:
            return [
                DaySummary(day, rules, int(count), best, optimal)
                for day, optimal, count, best in conn.execute(query)
            ]


def write_revealed_record(repo: GameRepository, game_id: str, record: str) -> None:
    """Store a finished game's record again with the seed it held back until its day
    was over (the record's only change; its version stays)."""
    with repo.write_connection() as conn, conn.begin():
        conn.execute(update(GAMES).where(GAMES.c.id == game_id).values(record=record))
