"""The game repository: every read and write of the web store, in short transactions."""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import Engine, Table, and_, func, insert, select, update

from yatzy.errors import YatzyError
from yatzy.store.db import make_engine, migrate
from yatzy.store.models import GameRow, MoveRow, SeatRow

GAMES = cast(Table, GameRow.__table__)
SEATS = cast(Table, SeatRow.__table__)
MOVES = cast(Table, MoveRow.__table__)

NOTIFY_CHANNEL = "yatzy_games"
"""PostgreSQL channel on which every committed action is announced as ``id:version``."""


class NotFoundError(YatzyError):
    """No game with the given id."""


class ConflictError(YatzyError):
    """The game changed since it was read (another action won the race)."""


@dataclass(frozen=True)
class SeatInfo:
    """A seat as stored: name, bot level, and the hashes of its token and owner."""

    seat: int
    name: str
    bot: str | None = None
    token_hash: str | None = None
    owner_hash: str | None = None

    @property
    def claimed(self) -> bool:
        """Whether a person holds the seat (bots never need claiming)."""
        return self.token_hash is not None


@dataclass(frozen=True)
class StoredGame:
    """One game as stored: settings, record JSON and row version."""

    id: str
    version: int
    rules: str
    lang: str
    pad: bool
    hints: bool
    invite_hash: str
    record: str
    finished: bool
    created_at: datetime
    updated_at: datetime
    seats: tuple[SeatInfo, ...]


def _now() -> datetime:
    return datetime.now(UTC)


class GameRepository:
    """Reads and writes games; an action commits only over the version it was based on."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.postgres = engine.dialect.name == "postgresql"
        self._writer_lock: Any = contextlib.nullcontext() if self.postgres else threading.Lock()
        p = "%s" if self.postgres else "?"  # the driver's placeholder
        self._sql_version = f"SELECT version FROM games WHERE id = {p}"
        self._sql_commit = (
            f"UPDATE games SET version = {p}, record = {p}, finished = {p}, updated_at = {p} "
            f"WHERE id = {p} AND version = {p}"
        )
        self._sql_move = (
            f"INSERT INTO moves (game_id, version, seat, action, created_at) "
            f"VALUES ({p}, {p}, {p}, {p}, {p})"
        )

    @classmethod
    def open(cls, url: str | None, *, auto_migrate: bool = True) -> GameRepository:
        """Connect to ``url`` (see :func:`yatzy.store.database_url`) and migrate it."""
        engine = make_engine(url)
        if auto_migrate:
            migrate(engine)
        return cls(engine)

    @contextlib.contextmanager
    def _write(self) -> Iterator[Any]:
        """A connection for one write transaction.

        SQLite has one writer at a time; within a process the writers queue on a lock
        here, which is fair and immediate, rather than on SQLite's busy handler, which
        polls with sleeps.  Other processes still queue on the busy timeout.
        """
        with self._writer_lock, self.engine.connect() as conn:
            yield conn.execution_options(write=True)

    # -- creating and claiming ---------------------------------------------------------

    def create(
        self,
        *,
        game_id: str,
        rules: str,
        lang: str,
        pad: bool,
        hints: bool,
        invite_hash: str,
        record: str,
        finished: bool,
        seats: Sequence[SeatInfo],
    ) -> None:
        """Store a new game (version 0) and its seats."""
        now = _now()
        with self._write() as conn, conn.begin():
            conn.execute(
                insert(GAMES).values(
                    id=game_id,
                    version=0,
                    rules=rules,
                    lang=lang,
                    pad=pad,
                    hints=hints,
                    invite_hash=invite_hash,
                    record=record,
                    finished=finished,
                    created_at=now,
                    updated_at=now,
                )
            )
            conn.execute(
                insert(SEATS),
                [
                    {
                        "game_id": game_id,
                        "seat": s.seat,
                        "name": s.name,
                        "bot": s.bot,
                        "token_hash": s.token_hash,
                        "owner_hash": s.owner_hash,
                    }
                    for s in seats
                ],
            )

    def claim(self, game_id: str, seat: int, token_hash: str, owner_hash: str | None) -> int | None:
        """Give an unclaimed human seat its token; the game's new version, or None when the
        seat is taken (or a bot).  The claim is a move of its own, so every process sees it.
        """
        now = _now()
        with self._write() as conn, conn.begin():
            result = conn.execute(
                update(SEATS)
                .where(
                    and_(
                        SEATS.c.game_id == game_id,
                        SEATS.c.seat == seat,
                        SEATS.c.token_hash.is_(None),
                        SEATS.c.bot.is_(None),
                    )
                )
                .values(token_hash=token_hash, owner_hash=owner_hash)
            )
            if result.rowcount != 1:
                return None
            conn.execute(
                update(GAMES)
                .where(GAMES.c.id == game_id)
                .values(version=GAMES.c.version + 1, updated_at=now)
            )
            version = int(
                conn.execute(select(GAMES.c.version).where(GAMES.c.id == game_id)).scalar_one()
            )
            self._log_move(conn, game_id, version, seat, {"claim": seat}, now)
        return version

    def _stamp(self, now: datetime) -> Any:
        # SQLite keeps times as text in SQLAlchemy's own format; PostgreSQL takes datetimes.
        return now if self.postgres else now.strftime("%Y-%m-%d %H:%M:%S.%f")

    def _log_move(
        self,
        conn: Any,
        game_id: str,
        version: int,
        seat: int | None,
        action: dict[str, Any],
        now: datetime,
    ) -> None:
        conn.exec_driver_sql(
            self._sql_move,
            (game_id, version, seat, json.dumps(action, separators=(",", ":")), self._stamp(now)),
        )
        if self.postgres:
            # Delivered to every listening server process when this transaction commits.
            conn.exec_driver_sql(
                "SELECT pg_notify(%s, %s)", (NOTIFY_CHANNEL, f"{game_id}:{version}")
            )

    # -- reading -----------------------------------------------------------------------------

    def get(self, game_id: str) -> StoredGame:
        """The stored game (raises :class:`NotFoundError`)."""
        with self.engine.connect() as conn, conn.begin():
            row = conn.execute(select(GAMES).where(GAMES.c.id == game_id)).mappings().first()
            if row is None:
                raise NotFoundError(f"no game {game_id!r}")
            seats = conn.execute(
                select(SEATS).where(SEATS.c.game_id == game_id).order_by(SEATS.c.seat)
            ).mappings()
            infos = tuple(
                SeatInfo(s["seat"], s["name"], s["bot"], s["token_hash"], s["owner_hash"])
                for s in seats
            )
        data = dict(row)
        return StoredGame(**data, seats=infos)

    def version(self, game_id: str) -> int:
        """The game's row version (raises :class:`NotFoundError`); a cheap freshness check."""
        # The hot path of every request: plain driver SQL skips statement compilation.
        raw = self.engine.raw_connection()
        try:
            cur = raw.cursor()
            cur.execute(self._sql_version, (game_id,))
            row = cur.fetchone()
            cur.close()
        finally:
            raw.close()  # back to the pool, which ends any transaction
        if row is None:
            raise NotFoundError(f"no game {game_id!r}")
        return int(row[0])

    def moves(self, game_id: str) -> list[dict[str, Any]]:
        """The audit log of a game: version, seat and action of every move."""
        with self.engine.connect() as conn, conn.begin():
            rows = conn.execute(
                select(MOVES).where(MOVES.c.game_id == game_id).order_by(MOVES.c.version)
            ).mappings()
            return [
                {"version": r["version"], "seat": r["seat"], "action": json.loads(r["action"])}
                for r in rows
            ]

    def games_of(self, owner_hash: str, limit: int = 100) -> list[StoredGame]:
        """Games in which ``owner_hash`` holds a seat, newest first."""
        with self.engine.connect() as conn, conn.begin():
            ids = [
                r[0]
                for r in conn.execute(
                    select(GAMES.c.id)
                    .join(SEATS, SEATS.c.game_id == GAMES.c.id)
                    .where(SEATS.c.owner_hash == owner_hash)
                    .group_by(GAMES.c.id, GAMES.c.updated_at)
                    .order_by(GAMES.c.updated_at.desc())
                    .limit(limit)
                )
            ]
        return [self.get(i) for i in ids]

    def unfinished_with_bots(self) -> list[str]:
        """Ids of unfinished games that have a bot seat (to resume after a restart)."""
        with self.engine.connect() as conn, conn.begin():
            return [
                r[0]
                for r in conn.execute(
                    select(GAMES.c.id)
                    .join(SEATS, SEATS.c.game_id == GAMES.c.id)
                    .where(and_(GAMES.c.finished.is_(False), SEATS.c.bot.is_not(None)))
                    .group_by(GAMES.c.id)
                )
            ]

    def count(self) -> int:
        """How many games are stored."""
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(GAMES)).scalar_one())

    # -- the one write path of play ------------------------------------------------------------

    def commit(
        self,
        game_id: str,
        based_on: int,
        *,
        record: str,
        finished: bool,
        seat: int | None,
        action: dict[str, Any],
    ) -> int:
        """Store the new record and the move over version ``based_on``; the new version.

        Raises :class:`ConflictError` when the game is no longer at ``based_on``:
        exactly one of two racing actions commits.
        """
        new = based_on + 1
        now = _now()
        with self._write() as conn, conn.begin():
            result = conn.exec_driver_sql(
                self._sql_commit, (new, record, finished, self._stamp(now), game_id, based_on)
            )
            if result.rowcount != 1:
                raise ConflictError(
                    f"game {game_id} changed since version {based_on}; reload and try again"
                )
            self._log_move(conn, game_id, new, seat, action, now)
        return new
