"""The clocks of timed games (issue 26): one ``game_clocks`` row per timed game.

The row says the clock's mode and time per turn, whose turn its deadline belongs
to, and what happened when a seat ran out of time (see :class:`ClockRow`).  Every
change is conditional on the ``stamp`` it read (``UPDATE ... WHERE stamp = ?``),
so of several server processes that find the same overdue game exactly one acts.
A change that the game's viewers must see (a time-out, a choice, a seat taken
back) is also a move of the game: in the same transaction the game's version is
bumped (only over the version the change was judged on), a ``{"clock": ...}``
move is logged and, on PostgreSQL, every server process is notified.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, cast

import orjson
from sqlalchemy import Table, and_, insert, select, text

from yatzy.store.guarded import guarded_update
from yatzy.store.models import GameClockRow, GameRow, MoveRow
from yatzy.store.pg_writer import NOTIFY_CHANNEL
from yatzy.store.repo import SEATS, GameRepository

CLOCKS = cast(Table, GameClockRow.__table__)
GAMES = cast(Table, GameRow.__table__)
MOVES = cast(Table, MoveRow.__table__)


def as_utc(moment: datetime | None) -> datetime | None:
    """``moment`` as an aware UTC time (SQLite gives stored times back naive)."""
    if moment is None:
        return None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


@dataclass(frozen=True)
class ClockRow:
    """A timed game's clock as stored.

    ``phase``: ``running`` (the seat to move has until ``deadline``; None while a
    computer is to move), ``paused`` (``seat`` ran out of time; the others choose
    until ``due``) or ``ended`` (the game was ended for a time-out).  ``turn`` names
    the turn the deadline belongs to (seat and turn number).  ``stand_ins``: the
    seats a computer plays for an absent person, at a level; ``returning``: those
    whose person came back (the computer stops at the turn's end); ``timed_out``:
    every time-out in order; ``computer_turns``: (seat, turn number) of each turn
    a computer played for a person; ``ended_by``: the seat whose time-out ended it.
    """

    game_id: str
    mode: str
    seconds: int
    stamp: int = 0
    phase: str = "running"
    seat: int | None = None
    turn: str = ""
    deadline: datetime | None = None
    due: datetime | None = None
    stand_ins: dict[int, str] = field(default_factory=dict)
    returning: tuple[int, ...] = ()
    timed_out: tuple[int, ...] = ()
    computer_turns: tuple[tuple[int, int], ...] = ()
    ended_by: int | None = None

    def detail(self) -> str:
        """The row's ``detail`` column: the absences as JSON."""
        return orjson.dumps(
            {
                "stand_ins": {str(s): lvl for s, lvl in sorted(self.stand_ins.items())},
                "returning": list(self.returning),
                "timed_out": list(self.timed_out),
                "computer_turns": [list(t) for t in self.computer_turns],
                "ended_by": self.ended_by,
            }
        ).decode()

    @classmethod
    def of(cls, row: Any) -> ClockRow:
        """A row of ``game_clocks`` (a mapping) as a :class:`ClockRow`."""
        data = orjson.loads(row["detail"] or "{}")
        return cls(
            game_id=row["game_id"],
            mode=row["mode"],
            seconds=int(row["seconds"]),
            stamp=int(row["stamp"]),
            phase=row["phase"],
            seat=row["seat"],
            turn=row["turn"],
            deadline=as_utc(row["deadline"]),
            due=as_utc(row["due"]),
            stand_ins={int(s): str(lvl) for s, lvl in data.get("stand_ins", {}).items()},
            returning=tuple(int(s) for s in data.get("returning", [])),
            timed_out=tuple(int(s) for s in data.get("timed_out", [])),
            computer_turns=tuple((int(s), int(t)) for s, t in data.get("computer_turns", [])),
            ended_by=data.get("ended_by"),
        )

    def values(self) -> dict[str, Any]:
        """The columns that a change writes (the stamp counted up)."""
        return {
            "stamp": self.stamp + 1,
            "phase": self.phase,
            "seat": self.seat,
            "turn": self.turn,
            "deadline": as_utc(self.deadline),
            "due": as_utc(self.due),
            "detail": self.detail(),
        }

    def changed(self, **kw: Any) -> ClockRow:
        """A copy with the fields of ``kw`` changed."""
        return replace(self, **kw)


def _over_stamp(conn: Any, row: ClockRow) -> bool:
    """Write ``row`` over the stored clock if that is still at ``row.stamp`` (the
    guarded change of :mod:`yatzy.store.guarded`); whether it was."""
    return guarded_update(
        conn, CLOCKS, CLOCKS.c.game_id == row.game_id, CLOCKS.c.stamp == row.stamp, **row.values()
    )


class _Lost(Exception):
    """A clock's change found its row or game changed first (rolled back)."""


class ClockStore:
    """Reads and writes the ``game_clocks`` rows of one repository's database."""

    def __init__(self, repo: GameRepository) -> None:
        self.repo = repo

    def insert(self, row: ClockRow) -> None:
        """Store the clock of a new game."""
        with self.repo.write_connection() as conn, conn.begin():
            conn.execute(
                insert(CLOCKS).values(
                    game_id=row.game_id, mode=row.mode, seconds=row.seconds, **row.values()
                )
            )

    def get(self, game_id: str) -> ClockRow | None:
        """The game's clock (None: an untimed game)."""
        with self.repo.engine.connect() as conn:
            found = conn.execute(select(CLOCKS).where(CLOCKS.c.game_id == game_id)).mappings()
            row = found.first()
        return None if row is None else ClockRow.of(row)

    def many(self, game_ids: list[str]) -> dict[str, ClockRow]:
        """The clocks of those of ``game_ids`` that are timed."""
        if not game_ids:
            return {}
        with self.repo.engine.connect() as conn:
            rows = conn.execute(select(CLOCKS).where(CLOCKS.c.game_id.in_(game_ids))).mappings()
            return {r["game_id"]: ClockRow.of(r) for r in rows}

    def waiting_for(self, owner_hash: str, limit: int = 100) -> list[str]:
        """The unfinished timed games whose seat to move (running, or paused for a
        time-out) is held by ``owner_hash``, the nearest deadline first: one query
        from the owner's seats (indexed) to their clocks, so an account in thousands
        of daily games finds those that wait for it however long ago they moved."""
        with self.repo.engine.connect() as conn:
            rows = conn.execute(
                select(CLOCKS.c.game_id)
                .join(
                    SEATS,
                    and_(SEATS.c.game_id == CLOCKS.c.game_id, SEATS.c.seat == CLOCKS.c.seat),
                )
                .join(GAMES, GAMES.c.id == CLOCKS.c.game_id)
                .where(
                    SEATS.c.owner_hash == owner_hash,
                    CLOCKS.c.phase != "ended",
                    GAMES.c.finished.is_(False),
                )
                .order_by(CLOCKS.c.due.is_(None), CLOCKS.c.due, CLOCKS.c.game_id)
                .limit(limit)
            )
            return [r[0] for r in rows]

    def update(self, row: ClockRow) -> bool:
        """Write ``row`` over the stored one if that is still at ``row.stamp``
        (False: another process changed it first; nothing was written)."""
        with self.repo.write_connection() as conn, conn.begin():
            return _over_stamp(conn, row)

    def event(
        self,
        row: ClockRow,
        version: int,
        seat: int | None,
        move: dict[str, Any],
        *,
        finish: bool = False,
    ) -> int | None:
        """Write ``row`` (over ``row.stamp``) and, in the same transaction, make it a
        move of the game over ``version`` (``finish``: the game ends with it); the
        game's new version, or None when the clock or the game changed first (then
        nothing was written)."""
        now = datetime.now(UTC)
        try:
            return self._event(row, version, seat, move, finish, now)
        except _Lost:
            return None

    def _event(
        self,
        row: ClockRow,
        version: int,
        seat: int | None,
        move: dict[str, Any],
        finish: bool,
        now: datetime,
    ) -> int:
        with self.repo.write_connection() as conn, conn.begin():
            if not _over_stamp(conn, row):
                raise _Lost  # rolls the transaction back
            values: dict[str, Any] = {"version": version + 1, "updated_at": now}
            if finish:
                values["finished"] = True
            if not guarded_update(
                conn, GAMES, GAMES.c.id == row.game_id, GAMES.c.version == version, **values
            ):
                raise _Lost
            conn.execute(
                insert(MOVES).values(
                    game_id=row.game_id,
                    version=version + 1,
                    seat=seat,
                    action=orjson.dumps(move).decode(),
                    created_at=now,
                )
            )
            if self.repo.postgres:  # delivered to every server process at the commit
                conn.execute(
                    text("SELECT pg_notify(:channel, :note)"),
                    {
                        "channel": NOTIFY_CHANNEL,
                        "note": f"{row.game_id}:{version + 1}:{self.repo.origin}",
                    },
                )
        return version + 1

    def with_stand_ins(self) -> list[str]:
        """The unfinished games where a computer plays for an absent person (to
        resume after a restart)."""
        # the detail is written by ClockRow.detail: a non-empty stand_ins object
        # begins with a key
        with self.repo.engine.connect() as conn:
            rows = conn.execute(
                select(CLOCKS.c.game_id)
                .join(GAMES, GAMES.c.id == CLOCKS.c.game_id)
                .where(
                    and_(
                        GAMES.c.finished.is_(False),
                        CLOCKS.c.detail.like('%"stand_ins":{"%'),
                    )
                )
            )
            return [r[0] for r in rows]

    def overdue(self, now: datetime, limit: int = 100) -> list[str]:
        """The games whose clock is due by ``now``, the longest overdue first (one
        query on the ``due`` index)."""
        with self.repo.engine.connect() as conn:
            rows = conn.execute(
                select(CLOCKS.c.game_id)
                .where(CLOCKS.c.due <= now.astimezone(UTC))
                .order_by(CLOCKS.c.due)
                .limit(limit)
            )
            return [r[0] for r in rows]


__all__ = ["CLOCKS", "ClockRow", "ClockStore", "as_utc"]
