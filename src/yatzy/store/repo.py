"""The game repository: every read and write of the web store, in short transactions."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import sqlite3
import threading
import weakref
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, NamedTuple, TypeVar, cast

import orjson
from sqlalchemy import Engine, Table, and_, func, select, text, update

from yatzy.errors import YatzyError
from yatzy.store.db import make_engine, migrate
from yatzy.store.models import GameRow, MoveRow, SeatRow

GAMES = cast(Table, GameRow.__table__)
SEATS = cast(Table, SeatRow.__table__)
MOVES = cast(Table, MoveRow.__table__)

log = logging.getLogger("yatzy.store")
T = TypeVar("T")

NOTIFY_CHANNEL = "yatzy_games"
"""PostgreSQL channel on which every committed action is announced as
``id:version:origin`` (``origin``: the committing repository's :attr:`GameRepository.origin`)."""


class NotFoundError(YatzyError):
    """No game with the given id."""


class ConflictError(YatzyError):
    """The game changed since it was read (another action won the race)."""


class UnavailableError(YatzyError):
    """The database connection failed mid-request (an action may or may not be stored)."""


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

    @classmethod
    def new(
        cls,
        game_id: str,
        rules: str,
        lang: str,
        pad: bool,
        hints: bool,
        invite_hash: str,
        record: str,
        finished: bool,
        seats: Sequence[SeatInfo],
    ) -> StoredGame:
        """A game as it is first stored: version 0, created now."""
        now = _now()
        return cls(
            game_id,
            0,
            rules,
            lang,
            pad,
            hints,
            invite_hash,
            record,
            finished,
            now,
            now,
            tuple(seats),
        )

    def moved(self, version: int, record: str, finished: bool) -> StoredGame:
        """The game as stored after a move (a quicker ``dataclasses.replace``)."""
        return StoredGame(
            self.id,
            version,
            self.rules,
            self.lang,
            self.pad,
            self.hints,
            self.invite_hash,
            record,
            finished,
            self.created_at,
            _now(),
            self.seats,
        )


def _now() -> datetime:
    return datetime.now(UTC)


def _numbered(n: int) -> str:
    """asyncpg's placeholders for ``n`` values: ``$1, $2, ...``."""
    return ", ".join(f"${i}" for i in range(1, n + 1))


def _conflict(game_id: str, based_on: int) -> ConflictError:
    return ConflictError(f"game {game_id} changed since version {based_on}; reload and try again")


class GameRepository:
    """Reads and writes games; an action commits only over the version it was based on."""

    # Driven by the owner's seats, each game looked up by its key.  Not a join: on a
    # new, unanalysed database PostgreSQL's generic plan for the join scanned every
    # game and, for each, the owner's seats (measured: the database's CPU per action
    # doubled within 30 s of a busy start); a correlated subquery keeps the order.
    _SQL_BEST_SOLO = (
        "SELECT MAX((SELECT g.solo_total FROM games g WHERE g.id = s.game_id "
        "AND g.rules = {rules} AND g.id <> {exclude})) FROM seats s WHERE s.owner_hash = {owner}"
    )
    _SQL_BEST_SOLO_PG = _SQL_BEST_SOLO.format(owner="$1", rules="$2", exclude="$3")
    # Plain driver SQL (SQLAlchemy's statement building cost more than the inserts),
    # with the driver's placeholders filled in: ``%s``, ``?`` or ``$n``.
    _SQL_INSERT_GAME = (
        "INSERT INTO games (id, version, rules, lang, pad, hints, invite_hash, record, "
        "finished, created_at, updated_at) VALUES ({})"
    )
    _SQL_INSERT_SEAT = (
        "INSERT INTO seats (game_id, seat, name, bot, token_hash, owner_hash) VALUES ({})"
    )
    # The game and its seats in one statement: the seats come as arrays, one per column.
    _SQL_INSERT_GAME_AND_SEATS_PG = (
        "WITH game AS (" + _SQL_INSERT_GAME.format(_numbered(11)) + " RETURNING id) "
        "INSERT INTO seats (game_id, seat, name, bot, token_hash, owner_hash)"
        " SELECT game.id, s.* FROM game, unnest($12::integer[], $13::text[], $14::text[],"
        " $15::text[], $16::text[]) AS s"
    )

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.postgres = engine.dialect.name == "postgresql"
        self.origin = secrets.token_hex(8)
        """Tags this process's notifications: it announces its own commits itself."""
        self._writer_lock: Any = contextlib.nullcontext() if self.postgres else threading.Lock()
        # SQLite: one connection kept for the action path's writes, used under the
        # writer lock (opened on first use; SQLite has a single writer anyway).
        self._sqlite_writer: Any = None
        self._checkpointer: _Checkpointer | None = None
        self._pg_writer: _PgActionWriter | None = None
        self.asyncpg_dsn: str | None = None
        """The database as asyncpg connects to it (PostgreSQL only)."""
        if self.postgres:
            self.asyncpg_dsn = engine.url.set(drivername="postgresql").render_as_string(
                hide_password=False
            )
            self._pg_writer = _PgActionWriter(self.asyncpg_dsn)
            # The whole action in ONE statement (one round trip, atomic in autocommit):
            # the guarded UPDATE, the move row and the notification all happen only
            # when the game is still at the version the action was based on.
            self._sql_version = "SELECT version FROM games WHERE id = %s"
            self._sql_commit = (
                "WITH bumped AS ("
                " UPDATE games SET version = %(new)s, record = %(record)s,"
                " finished = %(finished)s, solo_total = %(solo_total)s, updated_at = %(now)s"
                " WHERE id = %(id)s AND version = %(old)s RETURNING id),"
                " logged AS ("
                " INSERT INTO moves (game_id, version, seat, action, created_at)"
                " SELECT id, %(new)s, %(seat)s::integer, %(action)s::text, %(now)s::timestamptz"
                " FROM bumped RETURNING 1)"
                " SELECT (SELECT count(*) FROM logged),"
                " (SELECT pg_notify(%(channel)s, %(note)s) FROM bumped)"
            )
        else:
            self._sql_version = "SELECT version FROM games WHERE id = ?"
            # ``finished`` only when the game ends: SQLite rewrites the entry of an
            # indexed column that an UPDATE sets, even to the same value (measured:
            # a quarter of the commit's time and log).
            self._sql_commit = (
                "UPDATE games SET version = ?, record = ?, updated_at = ? "
                "WHERE id = ? AND version = ?"
            )
            self._sql_commit_final = (
                "UPDATE games SET version = ?, record = ?, updated_at = ?, finished = 1, "
                "solo_total = ? WHERE id = ? AND version = ?"
            )
        p = "%s" if self.postgres else "?"  # the driver's placeholder
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

    def insert(self, game: StoredGame) -> None:
        """Store a new game and its seats (as :meth:`StoredGame.new` makes them)."""
        p = "%s" if self.postgres else "?"
        stamp = self._stamp(game.created_at)
        with self._write() as conn, conn.begin():
            conn.exec_driver_sql(
                self._SQL_INSERT_GAME.format(", ".join([p] * 11)),
                (*self._game_row(game)[:-2], stamp, stamp),
            )
            conn.exec_driver_sql(
                self._SQL_INSERT_SEAT.format(", ".join([p] * 6)), self._seat_rows(game)
            )

    async def insert_async(self, game: StoredGame) -> None:
        """:meth:`insert` for the event loop (asyncpg on PostgreSQL, in place on SQLite).

        On PostgreSQL the game and its seats go in ONE statement (atomic on its own):
        one round trip instead of four for a transaction of two inserts (measured:
        a game's creation cost the server 2.4 ms of CPU, a third of it in those trips).
        """
        if self._pg_writer is None:
            self.insert(game)
            return
        row = self._game_row(game)
        seats = list(zip(*self._seat_rows(game), strict=True))[1:]

        async def insert(conn: Any, _prepared: Any) -> None:
            await conn.execute(
                self._SQL_INSERT_GAME_AND_SEATS_PG, *row, *seats, timeout=_PgActionWriter.TIMEOUT
            )

        await self._pg_writer.run(insert)

    @staticmethod
    def _game_row(game: StoredGame) -> tuple[Any, ...]:
        return (
            game.id,
            game.version,
            game.rules,
            game.lang,
            game.pad,
            game.hints,
            game.invite_hash,
            game.record,
            game.finished,
            game.created_at,
            game.updated_at,
        )

    @staticmethod
    def _seat_rows(game: StoredGame) -> list[tuple[Any, ...]]:
        return [(game.id, s.seat, s.name, s.bot, s.token_hash, s.owner_hash) for s in game.seats]

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

    def write_connection(self) -> contextlib.AbstractContextManager[Any]:
        """A connection for one write transaction, queued with the other writers of
        this process (for maintenance such as :mod:`yatzy.store.retention`)."""
        return self._write()

    def _stamp(self, now: datetime) -> Any:
        # SQLite keeps times as text in SQLAlchemy's own format ("%Y-%m-%d %H:%M:%S.%f",
        # here without strftime's cost); PostgreSQL takes datetimes.
        return now if self.postgres else now.isoformat(" ", "microseconds")[:26]

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
            (game_id, version, seat, orjson.dumps(action).decode(), self._stamp(now)),
        )
        if self.postgres:
            # Delivered to every listening server process when this transaction commits.
            conn.exec_driver_sql(
                "SELECT pg_notify(%s, %s)", (NOTIFY_CHANNEL, f"{game_id}:{version}:{self.origin}")
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
        del data["solo_total"]
        return StoredGame(**data, seats=infos)

    def version(self, game_id: str) -> int:
        """The game's row version (raises :class:`NotFoundError`); a cheap freshness check."""
        # The hot path of every read: plain driver SQL skips statement compilation, and
        # on PostgreSQL autocommit makes it one round trip (no BEGIN/ROLLBACK).
        if self.postgres:
            try:
                row = self._pg_one(self._sql_version, (game_id,))
            except UnavailableError:
                row = self._pg_one(self._sql_version, (game_id,))  # a read: safe to repeat
        else:
            raw = self.engine.raw_connection()
            try:
                cur = raw.cursor()
                cur.execute(self._sql_version, (game_id,))
                row = cur.fetchone()
                cur.close()
            finally:
                raw.close()  # back to the pool, which ends the read transaction
        if row is None:
            raise NotFoundError(f"no game {game_id!r}")
        return int(row[0])

    async def version_async(self, game_id: str) -> int:
        """:meth:`version` for the event loop (asyncpg on PostgreSQL, in place on SQLite)."""
        if self._pg_writer is None:
            return self.version(game_id)
        version = await self._pg_writer.fetchval("SELECT version FROM games WHERE id = $1", game_id)
        if version is None:
            raise NotFoundError(f"no game {game_id!r}")
        return int(version)

    async def moves_since_async(
        self, game_id: str, version: int, until: int
    ) -> list[tuple[int, int | None, str]]:
        """The moves that took the game from ``version`` to ``until``: (version, seat,
        action JSON) in order (asyncpg on PostgreSQL, in place on SQLite)."""
        sql = (
            "SELECT version, seat, action FROM moves WHERE game_id = {0} "
            "AND version > {1} AND version <= {2} ORDER BY version"
        )
        if self._pg_writer is None:
            raw = self.engine.raw_connection()
            try:
                cur = raw.cursor()
                cur.execute(sql.format("?", "?", "?"), (game_id, version, until))
                rows = cur.fetchall()
                cur.close()
            finally:
                raw.close()
            return [(int(v), s, a) for v, s, a in rows]

        async def fetch(conn: Any, _prepared: Any) -> Any:
            return await conn.fetch(
                sql.format("$1", "$2", "$3"),
                game_id,
                version,
                until,
                timeout=_PgActionWriter.TIMEOUT,
            )

        rows = await self._pg_writer.run(fetch)
        return [(int(r[0]), r[1], r[2]) for r in rows]

    def moves(self, game_id: str) -> list[dict[str, Any]]:
        """The audit log of a game: version, seat and action of every move."""
        with self.engine.connect() as conn, conn.begin():
            rows = conn.execute(
                select(MOVES).where(MOVES.c.game_id == game_id).order_by(MOVES.c.version)
            ).mappings()
            return [
                {"version": r["version"], "seat": r["seat"], "action": orjson.loads(r["action"])}
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

    def best_solo_total(
        self, owner_hash: str, rules: str, exclude: str | None = None
    ) -> int | None:
        """The best final total of the finished one-seat games of ``rules`` held by
        ``owner_hash`` (None: no such game)."""
        query = text(self._SQL_BEST_SOLO.format(owner=":owner", rules=":rules", exclude=":exclude"))
        with self.engine.connect() as conn, conn.begin():
            best = conn.execute(
                query, {"owner": owner_hash, "rules": rules, "exclude": exclude or ""}
            ).scalar()
        return None if best is None else int(best)

    async def best_solo_total_async(
        self, owner_hash: str, rules: str, exclude: str | None = None
    ) -> int | None:
        """:meth:`best_solo_total` for the event loop (asyncpg on PostgreSQL; SQLite
        answers from the local file in place)."""
        if self._pg_writer is None:
            return self.best_solo_total(owner_hash, rules, exclude)
        best = await self._pg_writer.fetchval(
            self._SQL_BEST_SOLO_PG, owner_hash, rules, exclude or ""
        )
        return None if best is None else int(best)

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

    def unfinished_among(self, game_ids: Sequence[str]) -> list[str]:
        """Those of ``game_ids`` that are stored and not finished."""
        if not game_ids:
            return []
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(GAMES.c.id).where(
                    and_(GAMES.c.id.in_(list(game_ids)), GAMES.c.finished.is_(False))
                )
            )
            return [r[0] for r in rows]

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
        solo_total: int | None = None,
    ) -> int:
        """Store the new record and the move over version ``based_on``; the new version.

        ``solo_total`` is the final total of a one-seat game that this move finishes.
        Raises :class:`ConflictError` when the game is no longer at ``based_on``:
        exactly one of two racing actions commits.
        """
        write = _Write.of(game_id, based_on, record, finished, seat, action, solo_total)
        applied = self._commit_postgres(write) if self.postgres else self._commit_sqlite(write)
        if not applied:
            raise _conflict(game_id, based_on)
        return write.new

    async def commit_async(
        self,
        game_id: str,
        based_on: int,
        *,
        record: str,
        finished: bool,
        seat: int | None,
        action: dict[str, Any],
        solo_total: int | None = None,
    ) -> int:
        """:meth:`commit` for the event loop of the web server.

        PostgreSQL commits go through asyncpg connections of this repository without
        tying up a thread each (measured: the thread hop and GIL contention of
        the synchronous driver more than doubled the CPU time of an action); SQLite
        commits in well under a millisecond from the local file, so it runs the
        synchronous commit in place.
        """
        if self._pg_writer is None:
            return self.commit(
                game_id,
                based_on,
                record=record,
                finished=finished,
                seat=seat,
                action=action,
                solo_total=solo_total,
            )
        write = _Write.of(game_id, based_on, record, finished, seat, action, solo_total)
        if not await self._pg_writer.commit(write, note=self._note(write)):
            raise _conflict(game_id, based_on)
        return write.new

    def _note(self, write: _Write) -> str:
        """The notification of a commit: ``id:version:origin`` (see :data:`NOTIFY_CHANNEL`)."""
        return f"{write.game_id}:{write.new}:{self.origin}"

    def _commit_postgres(self, w: _Write) -> bool:
        # Not repeated when the connection fails: the statement may have committed.
        row = self._pg_one(
            self._sql_commit,
            {
                "new": w.new,
                "old": w.old,
                "id": w.game_id,
                "record": w.record,
                "finished": w.finished,
                "solo_total": w.solo_total,
                "now": _now(),
                "seat": w.seat,
                "action": w.move,
                "channel": NOTIFY_CHANNEL,
                "note": self._note(w),
            },
        )
        return bool(row and row[0] == 1)

    def _pg_one(self, sql: str, params: Any) -> Any:
        """Run one statement in autocommit on a pooled connection; its first row.

        The pool does not ping connections on checkout (a round trip per action);
        a connection found dead here makes the whole pool reconnect instead, and
        the caller gets :class:`UnavailableError`.
        """
        import psycopg

        raw = self.engine.raw_connection()
        try:
            conn: Any = raw.driver_connection
            try:
                conn.autocommit = True  # the one statement is its own transaction
                try:
                    return conn.execute(sql, params).fetchone()
                finally:
                    # Whatever happened, the pool must get the connection back in
                    # transaction mode (or not at all): the other queries rely on it.
                    try:
                        conn.autocommit = False
                    except Exception:
                        raw.invalidate()
            except psycopg.OperationalError as exc:
                if raw.is_valid:
                    raw.invalidate()
                self.engine.dispose(close=False)  # the others are likely dead too
                raise UnavailableError(f"the database connection failed ({exc})") from exc
        finally:
            raw.close()

    def _commit_sqlite(self, w: _Write) -> bool:
        stamp = self._stamp(_now())
        with self._writer_lock:
            if self._sqlite_writer is None:
                self._sqlite_writer = self.engine.raw_connection()
                path = self.engine.url.database
                if path not in (None, "", ":memory:"):
                    self._checkpointer = _Checkpointer(str(path), self)
            cur = self._sqlite_writer.cursor()
            try:
                # IMMEDIATE: take the write lock now (other processes queue on the busy
                # timeout); the guarded UPDATE and the move commit together or not at all.
                cur.execute("BEGIN IMMEDIATE")
                if w.finished:
                    cur.execute(
                        self._sql_commit_final,
                        (w.new, w.record, stamp, w.solo_total, w.game_id, w.old),
                    )
                else:
                    cur.execute(self._sql_commit, (w.new, w.record, stamp, w.game_id, w.old))
                if cur.rowcount != 1:
                    cur.execute("ROLLBACK")
                    return False
                cur.execute(self._sql_move, (w.game_id, w.new, w.seat, w.move, stamp))
                cur.execute("COMMIT")
                return True
            except BaseException:
                with contextlib.suppress(Exception):
                    cur.execute("ROLLBACK")
                raise
            finally:
                cur.close()

    async def aclose(self) -> None:
        """Close the event loop's connections (those of :meth:`commit_async`)."""
        if self._pg_writer is not None:
            await self._pg_writer.close()

    def close(self) -> None:
        """Release the connections (the kept SQLite writer and the pool)."""
        if self._checkpointer is not None:
            self._checkpointer.stop()
            self._checkpointer = None
        with self._writer_lock:
            if self._sqlite_writer is not None:
                self._sqlite_writer.close()
                self._sqlite_writer = None
        self.engine.dispose()


class _Write(NamedTuple):
    """One move to commit: the guarded update of the game and its ``moves`` row (in
    the order of the parameters of :attr:`_PgActionWriter.SQL` and ``SQL_ONE``)."""

    game_id: str
    old: int
    new: int
    record: str
    finished: bool
    seat: int | None
    move: str
    solo_total: int | None

    @classmethod
    def of(
        cls,
        game_id: str,
        based_on: int,
        record: str,
        finished: bool,
        seat: int | None,
        action: dict[str, Any],
        solo_total: int | None,
    ) -> _Write:
        """The write of ``action`` over version ``based_on`` (a solo total only for the
        move that finishes the game)."""
        return cls(
            game_id,
            based_on,
            based_on + 1,
            record,
            finished,
            seat,
            orjson.dumps(action).decode(),
            solo_total if finished else None,
        )


class _BatchFailed(Exception):
    """PostgreSQL refused a batch of commits as a whole (none of it was stored)."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


class _Checkpointer:
    """Copies SQLite's write-ahead log into the database file from a thread of its own.

    SQLite otherwise checkpoints inside the commit that fills the log past 1,000
    pages: a burst of writes and two disk flushes that stalled every request of the
    server's event loop (several times a second at a thousand actions per second).
    Here a passive checkpoint, which never blocks the writer, runs every quarter of
    a second; the connections' own automatic checkpoint (at 10,000 pages, see
    :func:`yatzy.store.db.make_engine`) only acts if this thread falls behind.  The
    thread ends with :meth:`stop`, or by itself once its repository is gone.
    """

    INTERVAL = 0.25

    def __init__(self, path: str, owner: object) -> None:
        self.path = path
        self._owner = weakref.ref(owner)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sqlite-checkpoint", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        conn: sqlite3.Connection | None = None
        while not self._stop.wait(self.INTERVAL) and self._owner() is not None:
            try:
                if conn is None:
                    conn = sqlite3.connect(self.path, timeout=5, check_same_thread=False)
                conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            except sqlite3.Error as exc:  # e.g. the file went away: try again later
                log.warning("SQLite checkpoint of %s failed: %s", self.path, exc)
                if conn is not None:
                    conn.close()
                    conn = None
        if conn is not None:
            conn.close()

    def stop(self) -> None:
        """End the thread (after its current checkpoint)."""
        self._stop.set()
        self._thread.join()


class _PendingCommit(NamedTuple):
    """A commit waiting for its batch: the move, its notification and who awaits it."""

    write: _Write
    note: str
    done: asyncio.Future[bool]


class _Prepared(NamedTuple):
    """The commit statements as prepared on one connection."""

    batch: Any
    one: Any


class _PgActionWriter:
    """The commits of the action path on PostgreSQL, from the event loop (asyncpg), and
    its few reads (versions, new moves, the solo record when a game ends).

    **Group commit.** Commits are sent in batches: up to :attr:`FLUSHERS` batches are
    in flight at once, each one statement (and one transaction, one disk flush of
    PostgreSQL's log) for every commit that arrived while the others were on their
    way, of at most :attr:`MAX_BATCH`.  A commit on a quiet server goes alone, at
    once; under load the batches grow by themselves (1.7 commits a batch at a
    steady 1,000 actions/s, more when saturated).  Measured with 32 games acting as
    fast as answered: PostgreSQL's CPU per action 0.37 -> 0.23 ms, 1,158 -> 1,657
    actions/s, p99 65 -> 37 ms (one commit per round trip on 16 connections before;
    fewer backends also fight less for the two cores).  Each move is still
    guarded by its own row version and stored with its new record, atomically: a
    batch updates exactly the games still at their expected version and logs exactly
    those moves; the others are conflicts.  Two commits for one game never share a
    batch (the second waits for the next); should a batch fail inside PostgreSQL
    (a deadlock with another process's batch, say), its commits are retried one by
    one, so one bad move cannot fail the others.

    Up to ``size`` connections are opened on first use, each with the batch
    statement prepared once.  Idle connections wait in a queue (asyncpg's own pool
    checks connections in and out with several times the CPU of the query itself,
    measured).  A connection that fails is dropped and replaced on a later use.

    The notification of a commit is sent right after it, by one notifier task for
    all of them, not in the committing transaction: PostgreSQL holds one
    database-wide lock from a notifying transaction's commit until its WAL is on
    disk, so notifying commits queue behind each other's disk flushes (measured: 8 ms
    per commit with 32 busy games).  The notifier sends whatever notes have gathered
    in one statement, with ``synchronous_commit`` off (a note needs no disk flush:
    the move it announces is already durable).  Should the process die in between,
    the other processes learn of the move with the next one (their commits and
    reads check the row version, so nothing stale is ever applied or shown).
    """

    # A batch of moves in ONE statement (one round trip, atomic in autocommit): each
    # game is updated only when it is still at the version its move was based on,
    # and only the moves of the games updated are logged; their ids come back.
    SQL = (
        "WITH input AS ("
        " SELECT * FROM unnest($1::text[], $2::integer[], $3::integer[], $4::text[],"
        " $5::boolean[], $6::integer[], $7::text[], $8::integer[])"
        " AS i(id, old, new, record, finished, seat, action, solo_total)),"
        " bumped AS ("
        " UPDATE games AS g SET version = i.new, record = i.record, finished = i.finished,"
        " updated_at = $9, solo_total = i.solo_total"
        " FROM input AS i WHERE g.id = i.id AND g.version = i.old"
        " RETURNING g.id, i.new, i.seat, i.action),"
        " logged AS ("
        " INSERT INTO moves (game_id, version, seat, action, created_at)"
        " SELECT id, new, seat, action, $9 FROM bumped RETURNING game_id)"
        " SELECT game_id FROM logged"
    )
    # The same for a batch of one, which is most of them on a quiet server (a fifth
    # less of PostgreSQL's time than unnesting arrays of one, measured).
    SQL_ONE = (
        "WITH bumped AS ("
        " UPDATE games SET version = $3, record = $4, finished = $5, updated_at = $9,"
        " solo_total = $8"
        " WHERE id = $1 AND version = $2 RETURNING id),"
        " logged AS ("
        " INSERT INTO moves (game_id, version, seat, action, created_at)"
        " SELECT id, $3, $6::integer, $7::text, $9 FROM bumped RETURNING game_id)"
        " SELECT game_id FROM logged"
    )
    NOTIFY_SQL = f"SELECT pg_notify('{NOTIFY_CHANNEL}', note) FROM unnest($1::text[]) AS note"
    TIMEOUT = 10.0
    """Seconds before a commit is given up (it may or may not have been stored)."""
    MAX_NOTES = 10_000
    """Notes kept while the notifier cannot reach the database (the oldest go first)."""
    NOTIFY_EVERY = 0.01
    """Seconds between two sends of notifications at most."""
    FLUSHERS = 4
    """Batches in flight at once."""
    MAX_BATCH = 64
    """Commits in one batch at most."""

    def __init__(self, dsn: str, size: int = 8) -> None:
        self.dsn = dsn
        self.max_size = size
        self.notes: list[str] = []
        self.batches = 0
        """Batches sent so far (with :attr:`batched`, the commits in them: for tests
        and figures)."""
        self.batched = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._bind(None)

    def _bind(self, loop: asyncio.AbstractEventLoop | None) -> None:
        # Connections and queues belong to one event loop (a server has one; a
        # caller that runs several in turn gets fresh ones for each).
        self._loop = loop
        self.size = self.max_size
        self.closed = False
        self.opened = 0
        self.idle: asyncio.LifoQueue[tuple[Any, _Prepared]] = asyncio.LifoQueue()
        self._wake = asyncio.Event()
        self._notifier: asyncio.Task[None] | None = None
        self.pending: list[_PendingCommit] = []
        self.flushing = 0
        self._flushers: set[asyncio.Task[None]] = set()

    async def _connect(self) -> Any:
        import asyncpg

        return await asyncpg.connect(self.dsn, timeout=self.TIMEOUT)

    async def _checkout(self) -> tuple[Any, _Prepared]:
        if self.closed:  # else it would wait for a connection that never comes back
            raise UnavailableError("the database connections were closed (the server stops)")
        if self.idle.empty() and self.opened < self.size:
            self.opened += 1
            try:
                conn = await self._connect()
                return conn, _Prepared(
                    await conn.prepare(self.SQL), await conn.prepare(self.SQL_ONE)
                )
            except BaseException:
                self.opened -= 1
                raise
        return await self.idle.get()

    async def commit(self, write: _Write, *, note: str) -> bool:
        """Store one move with its batch; whether the game was still at ``write.old``.

        ``note`` is sent on the notification channel once the commit succeeded.
        Raises :class:`UnavailableError` when the database cannot be reached or the
        outcome is unknown.
        """
        self._own_loop()
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self.pending.append(_PendingCommit(write, note, done))
        if self.flushing < self.FLUSHERS:
            self.flushing += 1
            flusher = asyncio.get_running_loop().create_task(self._flush())
            self._flushers.add(flusher)  # the loop keeps only a weak reference
            flusher.add_done_callback(self._flushers.discard)
        return await done

    def _take(self) -> list[_PendingCommit]:
        """The next batch: the oldest pending commits, one per game, in the order of
        their ids (batches that race for the same rows lock them in one order)."""
        batch: dict[str, _PendingCommit] = {}
        rest: list[_PendingCommit] = []
        for waiting in self.pending:
            if waiting.done.done():  # its request is gone: nothing was stored
                continue
            game_id = waiting.write.game_id
            if game_id in batch or len(batch) >= self.MAX_BATCH:
                rest.append(waiting)
            else:
                batch[game_id] = waiting
        self.pending = rest
        return [batch[game_id] for game_id in sorted(batch)]

    async def _flush(self) -> None:
        """Send batches while commits are pending (one of the :attr:`FLUSHERS`)."""
        try:
            while batch := self._take():
                try:
                    await self._commit_batch(batch)
                except BaseException as exc:  # cancelled: so are its commits not yet settled
                    self._fail(batch, UnavailableError(f"the commit was interrupted ({exc!r})"))
                    raise
        finally:
            self.flushing -= 1

    async def _commit_batch(self, batch: list[_PendingCommit]) -> None:
        try:
            self._settle(batch, await self._send(batch))
        except UnavailableError as exc:
            self._fail(batch, exc)
        except _BatchFailed as failed:
            if len(batch) == 1:
                self._fail(batch, failed.error)
                return
            # One commit may be the cause: each is tried on its own.
            for single in batch:
                try:
                    self._settle([single], await self._send([single]))
                except (_BatchFailed, UnavailableError) as exc:
                    self._fail([single], exc)

    async def _send(self, batch: list[_PendingCommit]) -> set[str]:
        """Commit ``batch`` in one statement; the ids of the games it moved."""
        import asyncpg

        if len(batch) == 1:
            values: Sequence[Any] = batch[0].write
        else:
            values = list(zip(*(commit.write for commit in batch), strict=True))
        self.batches += 1
        self.batched += len(batch)

        async def send(_conn: Any, prepared: _Prepared) -> Any:
            statement = prepared.one if len(batch) == 1 else prepared.batch
            try:
                return await statement.fetch(*values, _now(), timeout=self.TIMEOUT)
            except asyncpg.PostgresError as exc:
                # Refused by the server (the connection itself is fine): nothing of
                # the batch was stored.
                return _BatchFailed(exc)

        result = await self.run(send)
        if isinstance(result, _BatchFailed):
            raise result
        return {row[0] for row in result}

    def _settle(self, batch: list[_PendingCommit], applied: set[str]) -> None:
        for commit in batch:
            moved = commit.write.game_id in applied
            if moved:
                self._notify(commit.note)
            if not commit.done.done():
                commit.done.set_result(moved)

    @staticmethod
    def _fail(batch: list[_PendingCommit], error: Exception) -> None:
        if not isinstance(error, UnavailableError):
            error = UnavailableError(f"the database refused the commit ({error})")
        for commit in batch:
            if not commit.done.done():
                commit.done.set_exception(error)

    async def fetchval(self, sql: str, *args: Any) -> Any:
        """The first value of a statement, in autocommit."""

        async def fetch(conn: Any, _prepared: Any) -> Any:
            return await conn.fetchval(sql, *args, timeout=self.TIMEOUT)

        return await self.run(fetch)

    async def run(self, work: Callable[[Any, _Prepared], Awaitable[T]]) -> T:
        """``work(connection, prepared_statements)`` on a connection of this writer."""
        self._own_loop()
        try:
            conn, statement = await self._checkout()
        except UnavailableError:
            raise
        except Exception as exc:
            raise UnavailableError(f"cannot connect to the database ({exc})") from exc
        try:
            value = await work(conn, statement)
        except BaseException as exc:
            # The statement may or may not have committed, and the connection is in
            # an unknown state: drop it; the caller is told the outcome is unknown.
            self.opened -= 1
            conn.terminate()
            if isinstance(exc, Exception):
                raise UnavailableError(f"the database connection failed ({exc})") from exc
            raise
        if self.opened > self.size:  # closed meanwhile
            self.opened -= 1
            await conn.close()
        else:
            self.idle.put_nowait((conn, statement))
        return value

    def _own_loop(self) -> None:
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            while self._loop is not None and not self.idle.empty():
                with contextlib.suppress(Exception):  # its loop may be closed already
                    self.idle.get_nowait()[0].terminate()
            self._bind(loop)

    def _notify(self, note: str) -> None:
        self.notes.append(note)
        del self.notes[: -self.MAX_NOTES]
        self._wake.set()
        if self._notifier is None:
            self._notifier = asyncio.get_running_loop().create_task(self._notify_forever())

    async def _notify_forever(self) -> None:
        conn: Any = None
        while True:
            await self._wake.wait()
            self._wake.clear()
            notes, self.notes = self.notes, []
            try:
                if conn is None:
                    conn = await self._connect()
                    await conn.execute("SET synchronous_commit = off")
                await conn.execute(self.NOTIFY_SQL, notes, timeout=self.TIMEOUT)
                # The notes of the next moments gather meanwhile and go together.
                await asyncio.sleep(self.NOTIFY_EVERY)
            except asyncio.CancelledError:
                self.notes[:0] = notes
                if conn is not None:
                    conn.terminate()
                raise
            except Exception as exc:
                log.warning("cannot send %d notifications (%s); retrying", len(notes), exc)
                self.notes[:0] = notes
                del self.notes[: -self.MAX_NOTES]
                if conn is not None:
                    conn.terminate()
                    conn = None
                self._wake.set()
                await asyncio.sleep(1.0)

    async def close(self) -> None:
        """Send the notes still pending and close the idle connections (those in
        use are closed when they come back).  Commits on this event loop fail from now
        on; another event loop gets connections of its own again."""
        self.size = 0
        self.closed = True
        if self._notifier is not None:
            for _ in range(100):  # at most a second for the last notes
                if not self.notes and not self._wake.is_set():
                    break
                await asyncio.sleep(0.01)
            self._notifier.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._notifier
            self._notifier = None
        while not self.idle.empty():
            conn, _ = self.idle.get_nowait()
            self.opened -= 1
            await conn.close()
