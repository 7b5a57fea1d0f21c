"""The commits of the web's action path on PostgreSQL: batched, from the event loop
(asyncpg), with the notifications of every committed move (see :class:`PgActionWriter`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from typing import Any, NamedTuple, TypeVar

import orjson

from yatzy.store.errors import UnavailableError

log = logging.getLogger("yatzy.store")
T = TypeVar("T")

NOTIFY_CHANNEL = "yatzy_games"
"""PostgreSQL channel on which every committed action is announced as
``id:version:origin`` (``origin``: the committing repository's :attr:`GameRepository.origin`)."""


def utc_now() -> datetime:
    """The time now, in UTC (as every stored timestamp)."""
    return datetime.now(UTC)


class Write(NamedTuple):
    """One move to commit: the guarded update of the game and its ``moves`` row (in
    the order of the parameters of :attr:`PgActionWriter.SQL` and ``SQL_ONE``)."""

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
    ) -> Write:
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


class BatchFailed(Exception):
    """PostgreSQL refused a batch of commits as a whole (none of it was stored)."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


class _PendingCommit(NamedTuple):
    """A commit waiting for its batch: the move, its notification and who awaits it."""

    write: Write
    note: str
    done: asyncio.Future[bool]


class _Prepared(NamedTuple):
    """The commit statements as prepared on one connection."""

    batch: Any
    one: Any


class PgActionWriter:
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

    async def commit(self, write: Write, *, note: str) -> bool:
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
        except BatchFailed as failed:
            if len(batch) == 1:
                self._fail(batch, failed.error)
                return
            # One commit may be the cause: each is tried on its own.
            for single in batch:
                try:
                    self._settle([single], await self._send([single]))
                except (BatchFailed, UnavailableError) as exc:
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
                return await statement.fetch(*values, utc_now(), timeout=self.TIMEOUT)
            except asyncpg.PostgresError as exc:
                # Refused by the server (the connection itself is fine): nothing of
                # the batch was stored.
                return BatchFailed(exc)

        result = await self.run(send)
        if isinstance(result, BatchFailed):
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
        # The connections may belong to another event loop than this one (a caller
        # that ran several, e.g. two test clients of one app): those are dropped, as
        # their loop may be closed already.
        ours = asyncio.get_running_loop() is self._loop
        if self._notifier is not None and not ours:
            with contextlib.suppress(Exception):
                self._notifier.cancel()
            self._notifier = None
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
            if ours:
                await conn.close()
            else:
                with contextlib.suppress(Exception):
                    conn.terminate()
