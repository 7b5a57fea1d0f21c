"""The game repository: every read and write of the web store, in short transactions."""

from __future__ import annotations

import contextlib
import logging
import secrets
import sqlite3
import threading
import weakref
from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Any, cast

import orjson
from sqlalchemy import Engine, Table, and_, func, select, text, update
from sqlalchemy.exc import SQLAlchemyError

from yatzy.store.db import make_engine, migrate, shown_url
from yatzy.store.errors import ConflictError, DatabaseOpenError, NotFoundError, UnavailableError
from yatzy.store.guarded import guarded_update
from yatzy.store.models import DiceSeedRow, GameRow, MoveRow, SeatRow
from yatzy.store.pg_writer import NOTIFY_CHANNEL, PgActionWriter, Write, utc_now
from yatzy.store.stored import SeatInfo, StoredGame

GAMES = cast(Table, GameRow.__table__)
SEATS = cast(Table, SeatRow.__table__)
MOVES = cast(Table, MoveRow.__table__)
DICE_SEEDS = cast(Table, DiceSeedRow.__table__)

log = logging.getLogger("yatzy.store")


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
        "finished, created_at, updated_at, solo_total) VALUES ({})"
    )
    _SQL_INSERT_SEAT = (
        "INSERT INTO seats (game_id, seat, name, bot, token_hash, owner_hash) VALUES ({})"
    )
    # The game and its seats in one statement: the seats come as arrays, one per column.
    _SQL_INSERT_GAME_AND_SEATS_PG = (
        "WITH game AS (" + _SQL_INSERT_GAME.format(_numbered(12)) + " RETURNING id) "
        "INSERT INTO seats (game_id, seat, name, bot, token_hash, owner_hash)"
        " SELECT game.id, s.* FROM game, unnest($13::integer[], $14::text[], $15::text[],"
        " $16::text[], $17::text[]) AS s"
    )
    # The same with the secret seed of the game's verifiable dice (``$18``).
    _SQL_INSERT_GAME_SEATS_AND_SEED_PG = _SQL_INSERT_GAME_AND_SEATS_PG.replace(
        " RETURNING id) ",
        " RETURNING id), seed AS (INSERT INTO dice_seeds (game_id, seed)"
        " SELECT id, $18::text FROM game) ",
        1,
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
        self._pg_writer: PgActionWriter | None = None
        self.asyncpg_dsn: str | None = None
        """The database as asyncpg connects to it (PostgreSQL only)."""
        if self.postgres:
            self.asyncpg_dsn = engine.url.set(drivername="postgresql").render_as_string(
                hide_password=False
            )
            self._pg_writer = PgActionWriter(self.asyncpg_dsn)
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
    def open(
        cls, url: str | None, *, auto_migrate: bool = True, must_exist: bool = False
    ) -> GameRepository:
        """Connect to ``url`` (see :func:`yatzy.store.database_url`) and migrate it.

        A database that cannot be opened (a folder or, with ``must_exist``, a SQLite
        file that does not exist, a file that is not a database, a server that does
        not answer) raises :class:`~yatzy.store.errors.DatabaseOpenError` in one line
        rather than the driver's traceback."""
        from alembic.util.exc import CommandError as AlembicError

        engine = make_engine(url, must_exist=must_exist)
        try:
            if auto_migrate:
                migrate(engine)
            else:
                with engine.connect():
                    pass
        except (SQLAlchemyError, OSError, sqlite3.Error, AlembicError) as exc:
            engine.dispose()
            reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()
            where = shown_url(str(engine.url))
            raise DatabaseOpenError(
                f"cannot open the database {where}: {reason[0] if reason else type(exc).__name__}"
            ) from None
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

    def insert(self, game: StoredGame, dice_seed: str | None = None) -> None:
        """Store a new game and its seats (as :meth:`StoredGame.new` makes them) and,
        in the same transaction, the secret seed of its verifiable dice (hex)."""
        p = "%s" if self.postgres else "?"
        stamp = self._stamp(game.created_at)
        with self._write() as conn, conn.begin():
            conn.exec_driver_sql(
                self._SQL_INSERT_GAME.format(", ".join([p] * 12)),
                (*self._game_row(game)[:-3], stamp, stamp, self._solo_total(game)),
            )
            conn.exec_driver_sql(
                self._SQL_INSERT_SEAT.format(", ".join([p] * 6)), self._seat_rows(game)
            )
            if dice_seed is not None:
                conn.exec_driver_sql(
                    f"INSERT INTO dice_seeds (game_id, seed) VALUES ({p}, {p})",
                    (game.id, dice_seed),
                )

    def dice_seed(self, game_id: str) -> str | None:
        """The secret seed (hex) of the game's verifiable dice; None for a game dealt
        without one (stored before verifiable dice, or a score pad)."""
        with self.engine.connect() as conn:
            found = conn.execute(
                select(DICE_SEEDS.c.seed).where(DICE_SEEDS.c.game_id == game_id)
            ).scalar_one_or_none()
        return None if found is None else str(found)

    async def insert_async(self, game: StoredGame, dice_seed: str | None = None) -> None:
        """:meth:`insert` for the event loop (asyncpg on PostgreSQL, in place on SQLite).

        On PostgreSQL the game and its seats go in ONE statement (atomic on its own):
        one round trip instead of four for a transaction of two inserts (measured:
        a game's creation cost the server 2.4 ms of CPU, a third of it in those trips).
        """
        if self._pg_writer is None:
            self.insert(game, dice_seed)
            return
        row = self._game_row(game)
        seats = list(zip(*self._seat_rows(game), strict=True))[1:]
        sql = self._SQL_INSERT_GAME_AND_SEATS_PG
        extra: tuple[str, ...] = ()
        if dice_seed is not None:
            sql, extra = self._SQL_INSERT_GAME_SEATS_AND_SEED_PG, (dice_seed,)

        async def insert(conn: Any, _prepared: Any) -> None:
            await conn.execute(sql, *row, *seats, *extra, timeout=PgActionWriter.TIMEOUT)

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
            GameRepository._solo_total(game),
        )

    @staticmethod
    def _solo_total(game: StoredGame) -> int | None:
        """The final total of a one-seat game stored already finished (``yatzy play``
        records its games that way), so that it counts toward the solo record."""
        if not game.finished or len(game.seats) != 1:
            return None
        return int(orjson.loads(game.record)["totals"][0])

    @staticmethod
    def _seat_rows(game: StoredGame) -> list[tuple[Any, ...]]:
        return [(game.id, s.seat, s.name, s.bot, s.token_hash, s.owner_hash) for s in game.seats]

    def claim(self, game_id: str, seat: int, token_hash: str, owner_hash: str | None) -> int | None:
        """Give an unclaimed human seat its token; the game's new version, or None when the
        seat is taken (or a bot).  The claim is a move of its own, so every process sees it.
        """
        now = utc_now()
        with self._write() as conn, conn.begin():
            if not guarded_update(
                conn,
                SEATS,
                SEATS.c.game_id == game_id,
                SEATS.c.seat == seat,
                SEATS.c.token_hash.is_(None),
                SEATS.c.bot.is_(None),
                token_hash=token_hash,
                owner_hash=owner_hash,
            ):
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

    def set_hints(self, game_id: str, hints: bool) -> int:
        """Switch the game's hints on or off; its new version.  The switch is a move of
        its own (seat None, ``{"hints": bool}``), so every process sees it."""
        now = utc_now()
        with self._write() as conn, conn.begin():
            result = conn.execute(
                update(GAMES)
                .where(GAMES.c.id == game_id)
                .values(hints=hints, version=GAMES.c.version + 1, updated_at=now)
            )
            if result.rowcount != 1:
                raise NotFoundError(f"no game {game_id}")
            version = int(
                conn.execute(select(GAMES.c.version).where(GAMES.c.id == game_id)).scalar_one()
            )
            self._log_move(conn, game_id, version, None, {"hints": hints}, now)
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

    def many(self, game_ids: Sequence[str]) -> list[StoredGame]:
        """The stored games of ``game_ids`` in that order (each once), those not found
        left out, each as :meth:`get` reads it: two queries however many (the games,
        then their seats)."""
        if not game_ids:
            return []
        with self.engine.connect() as conn, conn.begin():
            return self._many(conn, game_ids)

    @staticmethod
    def _many(conn: Any, game_ids: Sequence[str]) -> list[StoredGame]:
        wanted = list(dict.fromkeys(game_ids))
        rows = {
            r["id"]: dict(r)
            for r in conn.execute(select(GAMES).where(GAMES.c.id.in_(wanted))).mappings()
        }
        seats: dict[str, list[SeatInfo]] = {}
        for s in conn.execute(
            select(SEATS)
            .where(SEATS.c.game_id.in_(list(rows)))
            .order_by(SEATS.c.game_id, SEATS.c.seat)
        ).mappings():
            seats.setdefault(s["game_id"], []).append(
                SeatInfo(s["seat"], s["name"], s["bot"], s["token_hash"], s["owner_hash"])
            )
        found = []
        for game_id in wanted:
            data = rows.get(game_id)
            if data is None:
                continue
            del data["solo_total"]
            found.append(StoredGame(**data, seats=tuple(seats.get(game_id, ()))))
        return found

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
                timeout=PgActionWriter.TIMEOUT,
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
            return self._many(conn, ids)

    def finished_game_with_record(self, owner_hash: str, record: str) -> str | None:
        """The id of a finished game of ``owner_hash`` stored with exactly this record
        text (``None``: none).  A record names every roll and write, so two games share
        one only when they are the same game stored twice."""
        with self.engine.connect() as conn, conn.begin():
            found = conn.execute(
                select(GAMES.c.id)
                .join(SEATS, SEATS.c.game_id == GAMES.c.id)
                .where(
                    and_(
                        SEATS.c.owner_hash == owner_hash,
                        GAMES.c.finished.is_(True),
                        GAMES.c.record == record,
                    )
                )
                .limit(1)
            ).scalar()
        return None if found is None else str(found)

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
        write = Write.of(game_id, based_on, record, finished, seat, action, solo_total)
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
        write = Write.of(game_id, based_on, record, finished, seat, action, solo_total)
        if not await self._pg_writer.commit(write, note=self._note(write)):
            raise _conflict(game_id, based_on)
        return write.new

    def _note(self, write: Write) -> str:
        """The notification of a commit: ``id:version:origin`` (see :data:`NOTIFY_CHANNEL`)."""
        return f"{write.game_id}:{write.new}:{self.origin}"

    def _commit_postgres(self, w: Write) -> bool:
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
                "now": utc_now(),
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

    def _commit_sqlite(self, w: Write) -> bool:
        stamp = self._stamp(utc_now())
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
