"""Rate limits whose counts every server process shares, kept in Redis or PostgreSQL.

Each web process keeps its own token buckets (:class:`yatzy.web.limits.Buckets`), so
``N`` processes would let a client do ``N`` times its rate.  With ``yatzy serve
--redis-url`` the buckets live in Redis instead (:class:`RedisStore`): one bucket per
kind and client for every process and host, taken from by one Lua script (atomic,
on Redis's own clock, so hosts need not agree on the time).  The semantics are those
of the in-process buckets: ``burst`` tokens at most, ``per_minute / 60`` more a
second, one per event, the wait until the next token when there is none.

``yatzy serve --shared-limits`` keeps them in the server's PostgreSQL instead
(:class:`PgStore`: one statement per limited request; Redis is cheaper).

The event loop never waits on a store: it asks from a few threads of its own
(:meth:`SharedBuckets.ask`).  A store that does not answer within :data:`TIMEOUT`
seconds does not stop the server:
the process counts alone meanwhile (its own buckets, the limits per process) and
says so in the log once a minute.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from yatzy.web.limits import Buckets, Rate

log = logging.getLogger("yatzy.web")

TIMEOUT = 0.25
"""Seconds a request waits for Redis before the process counts alone."""

REDIS_ENV = "YATZY_REDIS_URL"
"""The environment variable ``yatzy serve --redis-url`` sets (read by the app)."""

# KEYS[1]: the bucket; ARGV: capacity, tokens a second, spend (1) or look (0).
# Returns the seconds to wait as a string (Lua numbers come back as integers).
_TAKE = """
local cap = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local spend = tonumber(ARGV[3])
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local v = redis.call('HMGET', KEYS[1], 't', 's')
local tokens = tonumber(v[1]) or cap
local stamp = tonumber(v[2]) or now
tokens = math.min(cap, tokens + math.max(0, now - stamp) * rate)
local wait = 0
if tokens < 1 then
  wait = (1 - tokens) / rate
elseif spend == 1 then
  tokens = tokens - 1
end
if spend == 1 then
  redis.call('HSET', KEYS[1], 't', tostring(tokens), 's', tostring(now))
  redis.call('EXPIRE', KEYS[1], math.ceil(cap / rate) + 1)
end
return tostring(wait)
"""


class RedisStore:
    """The Redis at ``url`` as the store of every process's rate-limit buckets
    (``prefix`` starts their keys)."""

    def __init__(self, url: str, prefix: str = "yatzy:rate:") -> None:
        import redis

        self.url = url
        self.prefix = prefix
        self.client: Any = redis.Redis.from_url(
            url, socket_timeout=TIMEOUT, socket_connect_timeout=TIMEOUT
        )
        self.script: Any = self.client.register_script(_TAKE)
        self._complained = 0.0

    def buckets(self, kind: str, rate: Rate) -> RedisBuckets:
        """The shared buckets of ``kind``."""
        return RedisBuckets(self, kind, rate)

    def failed(self, exc: Exception) -> None:
        """Redis did not answer: log it (once a minute at most)."""
        now = time.monotonic()
        if now - self._complained > 60:
            self._complained = now
            log.warning("rate limits counted per process: Redis %s: %s", self.url, exc)


_POOL = ThreadPoolExecutor(max_workers=4, thread_name_prefix="yatzy-limits")
"""The threads the event loop asks a shared store from: its own few, so a store that
hangs holds none of the default pool's (the database's, the jobs')."""


class SharedBuckets(Buckets):
    """:class:`yatzy.web.limits.Buckets` kept in a shared store: :meth:`_ask` asks it
    (blocking; None when it fails), the in-process buckets stand in meanwhile.  From the
    event loop (:meth:`ask`) the question goes to a thread and is given up after
    :data:`TIMEOUT` seconds, so a slow store never stalls the loop."""

    def _ask(self, key: str, spend: bool) -> float | None:
        raise NotImplementedError

    def wait(self, key: str, now: float | None = None) -> float:
        """Seconds until ``key`` has a token in the shared bucket; takes nothing."""
        found = self._ask(key, False)
        return super().wait(key, now) if found is None else found

    def take(self, key: str, now: float | None = None) -> float:
        """Take a token of the shared bucket: 0, or the seconds to wait."""
        found = self._ask(key, True)
        return super().take(key, now) if found is None else found

    async def ask(self, key: str, spend: bool) -> float:
        """:meth:`take` or :meth:`wait` off the event loop, bounded by :data:`TIMEOUT`
        (past it, the process's own bucket answers)."""
        loop = asyncio.get_running_loop()
        try:
            found = await asyncio.wait_for(
                loop.run_in_executor(_POOL, self._ask, key, spend), TIMEOUT * 2
            )
        except TimeoutError:
            found = None
        if found is not None:
            return found
        return Buckets.take(self, key) if spend else Buckets.wait(self, key)


class RedisBuckets(SharedBuckets):
    """:class:`yatzy.web.limits.Buckets` kept in Redis (see the module docstring);
    the in-process buckets stand in while Redis does not answer."""

    def __init__(self, store: RedisStore, kind: str, rate: Rate) -> None:
        super().__init__(rate)
        self.store = store
        self.kind = kind

    def _ask(self, key: str, spend: bool) -> float | None:
        try:
            answer = self.store.script(
                keys=[f"{self.store.prefix}{self.kind}:{key}"],
                args=[self.capacity, self.per_second, 1 if spend else 0],
            )
        except Exception as exc:  # Redis away: this process counts alone meanwhile
            self.store.failed(exc)
            return None
        return float(answer)


# -- PostgreSQL ------------------------------------------------------------------------------

_PG_TABLE = """
CREATE UNLOGGED TABLE IF NOT EXISTS yatzy_rate_buckets (
    key TEXT PRIMARY KEY,
    tokens DOUBLE PRECISION NOT NULL,
    stamp DOUBLE PRECISION NOT NULL,
    took BOOLEAN NOT NULL
)
"""
"""The buckets' table: unlogged (a crash may forget the counts; nothing else is lost),
made on first use by the limits (not a game-store table)."""

_LEVEL = "least(%(cap)s, b.tokens + greatest(0, EXCLUDED.stamp - b.stamp) * %(rate)s)"

_PG_TAKE = f"""
INSERT INTO yatzy_rate_buckets AS b (key, tokens, stamp, took)
VALUES (%(key)s, %(cap)s - 1, extract(epoch FROM clock_timestamp()), true)
ON CONFLICT (key) DO UPDATE SET
    took = {_LEVEL} >= 1,
    tokens = {_LEVEL} - CASE WHEN {_LEVEL} >= 1 THEN 1 ELSE 0 END,
    stamp = EXCLUDED.stamp
RETURNING took, tokens
"""

_PG_LOOK = """
SELECT least(%(cap)s, tokens + greatest(0, extract(epoch FROM clock_timestamp()) - stamp)
    * %(rate)s) FROM yatzy_rate_buckets WHERE key = %(key)s
"""


def pg_connect(url: str, timeout: float, tables: Sequence[str]) -> Any:
    """A psycopg connection to the shared counts at ``url`` (autocommit, 2 s to
    connect, ``timeout`` seconds a statement at most), with ``tables`` made (each
    ``CREATE ... IF NOT EXISTS``; one made by another process at the same moment,
    a ``UniqueViolation``, is no error)."""
    import psycopg

    conn = psycopg.connect(
        url,
        autocommit=True,
        connect_timeout=2,
        options=f"-c statement_timeout={int(timeout * 1000)}",
    )
    for sql in tables:
        with contextlib.suppress(psycopg.errors.UniqueViolation):
            conn.execute(sql)
    return conn


class PgStore:
    """The server's PostgreSQL as the store of every process's buckets (``yatzy serve
    --shared-limits``): one statement per limited request, on the database's clock.
    Dearer than :class:`RedisStore` (a round trip to the database, asked from a thread
    of the event loop's), so Redis is preferred where there is one."""

    def __init__(self, url: str) -> None:
        # a libpq URL (the store's SQLAlchemy URL names its driver)
        self.url = url.replace("postgresql+psycopg://", "postgresql://", 1)
        self._conn: Any = None
        self._lock = threading.Lock()
        self._complained = 0.0
        self._rows = 0

    def buckets(self, kind: str, rate: Rate) -> PgBuckets:
        """The shared buckets of ``kind``."""
        return PgBuckets(self, kind, rate)

    def run(self, sql: str, params: dict[str, Any]) -> Any:
        """One statement on the store's connection (made, with the table, on first use)."""
        # another question in flight past the timeout: the database is slow, do not queue
        if not self._lock.acquire(timeout=TIMEOUT):
            raise TimeoutError("another rate-limit statement is still waiting")
        try:
            return self._run(sql, params)
        finally:
            self._lock.release()

    def _run(self, sql: str, params: dict[str, Any]) -> Any:
        if self._conn is None or self._conn.closed or self._conn.broken:
            self._conn = pg_connect(self.url, TIMEOUT, (_PG_TABLE,))
            self._rows = 0
        self._rows += 1
        if self._rows % 100_000 == 0:  # full buckets need no row: forget the old
            self._conn.execute(
                "DELETE FROM yatzy_rate_buckets "
                "WHERE stamp < extract(epoch FROM clock_timestamp()) - 86400"
            )
        return self._conn.execute(sql, params).fetchone()

    def failed(self, exc: Exception) -> None:
        """The database did not answer: log it (once a minute at most)."""
        now = time.monotonic()
        if now - self._complained > 60:
            self._complained = now
            log.warning("rate limits counted per process: PostgreSQL: %s", exc)


class PgBuckets(SharedBuckets):
    """:class:`yatzy.web.limits.Buckets` kept in PostgreSQL; the in-process buckets
    stand in while the database does not answer."""

    def __init__(self, store: PgStore, kind: str, rate: Rate) -> None:
        super().__init__(rate)
        self.store = store
        self.kind = kind

    def _params(self, key: str) -> dict[str, Any]:
        return {"key": f"{self.kind}:{key}", "cap": self.capacity, "rate": self.per_second}

    def _ask(self, key: str, spend: bool) -> float | None:
        try:
            if spend:
                took, tokens = self.store.run(_PG_TAKE, self._params(key))
                return 0.0 if took else (1 - float(tokens)) / self.per_second
            row = self.store.run(_PG_LOOK, self._params(key))
        except Exception as exc:  # the database away: this process counts alone
            self.store.failed(exc)
            return None
        level = self.capacity if row is None else float(row[0])
        return 0.0 if level >= 1 else (1 - level) / self.per_second
