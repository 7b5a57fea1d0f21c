"""Caps that hold across server processes: open games, sockets and connections per
client, counted in Redis or PostgreSQL when the rates are (``yatzy serve --redis-url``
or ``--shared-limits``).

Each process still counts what it holds itself (:class:`yatzy.web.hub.Hub`,
:class:`yatzy.web.limits.ConnectionShare`); :class:`SharedCounts` adds what the
*other* processes hold.  Every :data:`PERIOD` seconds a process publishes its count
per client and kind (``"sockets"``, ``"connections"``) under its own id and learns
the others' sums for the clients it holds or has just seen, in one round trip.  A
count is believed only while its process published within :data:`TTL` seconds, so a
killed process's sockets and connections stop counting by themselves (nothing
leaks), and no count outlives :data:`TTL` in the store.  An asynchronous caller
(a socket's opening) asks the store at once, and publishes its new count once
admitted; a connection (uvicorn's protocol, on the event loop) never waits: it uses what the last
round learnt, so a client new to a process can exceed its share there by what it
opens within one period.

Open games are not held by a process but by the store: each created game's id goes
to a set per client there (:meth:`CapStore.add_game`); a client at its cap has the
finished ones dropped, as in :class:`yatzy.web.limits.OpenGames`.

Every store call runs in a thread, bounded by :data:`TIMEOUT`; a store that does not
answer leaves each process counting alone (logged once a minute), as the rates do.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any, Protocol

from yatzy.web.limits import OpenGames, TooManyGamesError
from yatzy.web.shared_limits import pg_connect

log = logging.getLogger("yatzy.web")

TIMEOUT = 0.5
"""Seconds a call to the store may take before the process counts alone."""

PERIOD = 2.0
"""Seconds between two rounds of publishing and learning counts."""

TTL = 15.0
"""Seconds a process's published counts are believed without a newer round."""

GAMES_TTL = 86_400 * 30
"""Seconds a client's set of created games is kept after its last game (the store
forgets a client that created nothing for a month)."""


class CapStore(Protocol):
    """Where the counts of every process meet (Redis or PostgreSQL)."""

    def sync(self, kind: str, proc: str, counts: dict[str, int]) -> dict[str, int]:
        """Publish ``proc``'s ``counts`` of ``kind`` per client (0: none any more) and
        return what the other live processes hold, for the same clients."""
        ...

    def elsewhere(self, kind: str, proc: str, client: str) -> int:
        """What the live processes other than ``proc`` hold of ``kind`` for
        ``client``, publishing nothing (a question asked from a thread)."""
        ...

    def add_game(self, client: str, game_id: str) -> None:
        """Count a game ``client`` created."""
        ...

    def games(self, client: str) -> list[str]:
        """The games counted for ``client``."""
        ...

    def keep_games(self, client: str, game_ids: list[str]) -> None:
        """Count only ``game_ids`` (the unfinished ones) for ``client`` from now on."""
        ...


# -- Redis -------------------------------------------------------------------------------------

# KEYS[1]: the live processes (a sorted set by last round); KEYS[2..]: a hash per client
# (process -> count).  ARGV: this process, the TTL, then a count per client hash.
_SYNC = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local proc = ARGV[1]
local ttl = tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], now, proc)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - ttl * 4)
redis.call('EXPIRE', KEYS[1], math.ceil(ttl * 4))
local out = {}
for i = 2, #KEYS do
  local n = tonumber(ARGV[i + 1])
  if n > 0 then
    redis.call('HSET', KEYS[i], proc, n)
    redis.call('EXPIRE', KEYS[i], math.ceil(ttl))
  else
    redis.call('HDEL', KEYS[i], proc)
  end
  local sum = 0
  local fields = redis.call('HGETALL', KEYS[i])
  for j = 1, #fields, 2 do
    local other = fields[j]
    if other ~= proc then
      local seen = tonumber(redis.call('ZSCORE', KEYS[1], other))
      if seen and seen >= now - ttl then
        sum = sum + tonumber(fields[j + 1])
      else
        redis.call('HDEL', KEYS[i], other)
      end
    end
  end
  out[#out + 1] = sum
end
return out
"""

# KEYS[1]: the live processes; KEYS[2]: a client's hash.  ARGV: the asking process, the TTL.
_ELSEWHERE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local sum = 0
local fields = redis.call('HGETALL', KEYS[2])
for j = 1, #fields, 2 do
  if fields[j] ~= ARGV[1] then
    local seen = tonumber(redis.call('ZSCORE', KEYS[1], fields[j]))
    if seen and seen >= now - tonumber(ARGV[2]) then
      sum = sum + tonumber(fields[j + 1])
    end
  end
end
return sum
"""


class RedisCaps:
    """The counts in the Redis at ``url`` (``prefix`` starts their keys)."""

    def __init__(self, url: str, prefix: str = "yatzy:cap:", ttl: float = TTL) -> None:
        import redis

        self.prefix = prefix
        self.ttl = ttl
        self.client: Any = redis.Redis.from_url(
            url, socket_timeout=TIMEOUT, socket_connect_timeout=TIMEOUT
        )
        self.script: Any = self.client.register_script(_SYNC)
        self.read: Any = self.client.register_script(_ELSEWHERE)

    def sync(self, kind: str, proc: str, counts: dict[str, int]) -> dict[str, int]:
        """See :meth:`CapStore.sync` (one Lua script, on Redis's clock)."""
        if not counts:
            return {}
        clients = list(counts)
        keys = [f"{self.prefix}alive", *(f"{self.prefix}{kind}:{c}" for c in clients)]
        sums = self.script(keys=keys, args=[proc, self.ttl, *(counts[c] for c in clients)])
        return {c: int(n) for c, n in zip(clients, sums, strict=True)}

    def elsewhere(self, kind: str, proc: str, client: str) -> int:
        """See :meth:`CapStore.elsewhere` (one Lua script, on Redis's clock)."""
        keys = [f"{self.prefix}alive", f"{self.prefix}{kind}:{client}"]
        return int(self.read(keys=keys, args=[proc, self.ttl]))

    def _games_key(self, client: str) -> str:
        return f"{self.prefix}games:{client}"

    def add_game(self, client: str, game_id: str) -> None:
        """See :meth:`CapStore.add_game`."""
        key = self._games_key(client)
        self.client.pipeline().sadd(key, game_id).expire(key, GAMES_TTL).execute()

    def games(self, client: str) -> list[str]:
        """See :meth:`CapStore.games`."""
        return sorted(m.decode() for m in self.client.smembers(self._games_key(client)))

    def keep_games(self, client: str, game_ids: list[str]) -> None:
        """See :meth:`CapStore.keep_games`."""
        gone = set(self.games(client)) - set(game_ids)
        if gone:
            self.client.srem(self._games_key(client), *gone)


# -- PostgreSQL ------------------------------------------------------------------------------

_PG_TABLES = (
    """CREATE UNLOGGED TABLE IF NOT EXISTS yatzy_cap_counts (
        kind TEXT NOT NULL, client TEXT NOT NULL, proc TEXT NOT NULL,
        n INTEGER NOT NULL, seen DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (kind, client, proc))""",
    """CREATE UNLOGGED TABLE IF NOT EXISTS yatzy_cap_games (
        client TEXT NOT NULL, game_id TEXT NOT NULL, made DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (client, game_id))""",
)
"""The counts' tables: unlogged, made on first use (not game-store tables; a crash may
forget them, and the caps then start afresh)."""

_NOW = "extract(epoch FROM clock_timestamp())"


class PgCaps:
    """The counts in the server's PostgreSQL (``yatzy serve --shared-limits``)."""

    def __init__(self, url: str, ttl: float = TTL) -> None:
        self.url = url.replace("postgresql+psycopg://", "postgresql://", 1)
        self.ttl = ttl
        self._conn: Any = None
        self._lock = threading.Lock()

    def _run(self, work: Callable[[Any], Any]) -> Any:
        with self._lock:
            if self._conn is None or self._conn.closed or self._conn.broken:
                self._conn = pg_connect(self.url, TIMEOUT, _PG_TABLES)
            with self._conn.transaction():
                return work(self._conn)

    def sync(self, kind: str, proc: str, counts: dict[str, int]) -> dict[str, int]:
        """See :meth:`CapStore.sync` (one transaction, on the database's clock)."""
        if not counts:
            return {}
        clients = list(counts)
        held = [c for c in clients if counts[c] > 0]

        def work(conn: Any) -> dict[str, int]:
            # only the clients asked about (a socket's own round names one), as in Redis
            conn.execute(
                "DELETE FROM yatzy_cap_counts WHERE kind = %s AND proc = %s "
                "AND client = ANY(%s) AND NOT (client = ANY(%s))",
                (kind, proc, clients, held),
            )
            conn.execute(
                "INSERT INTO yatzy_cap_counts (kind, client, proc, n, seen) "
                f"SELECT %s, c, %s, n, {_NOW} FROM unnest(%s::text[], %s::int[]) AS u(c, n) "
                "ON CONFLICT (kind, client, proc) DO UPDATE SET n = EXCLUDED.n, "
                "seen = EXCLUDED.seen",
                (kind, proc, held, [counts[c] for c in held]),
            )
            conn.execute(f"DELETE FROM yatzy_cap_counts WHERE seen < {_NOW} - %s", (self.ttl * 4,))
            rows = conn.execute(
                "SELECT client, sum(n) FROM yatzy_cap_counts WHERE kind = %s "
                f"AND client = ANY(%s) AND proc <> %s AND seen >= {_NOW} - %s GROUP BY client",
                (kind, clients, proc, self.ttl),
            ).fetchall()
            found = {c: int(n) for c, n in rows}
            return {c: found.get(c, 0) for c in clients}

        result: dict[str, int] = self._run(work)
        return result

    def elsewhere(self, kind: str, proc: str, client: str) -> int:
        """See :meth:`CapStore.elsewhere` (on the database's clock)."""
        row = self._run(
            lambda conn: conn.execute(
                "SELECT coalesce(sum(n), 0) FROM yatzy_cap_counts WHERE kind = %s "
                f"AND client = %s AND proc <> %s AND seen >= {_NOW} - %s",
                (kind, client, proc, self.ttl),
            ).fetchone()
        )
        return int(row[0])

    def add_game(self, client: str, game_id: str) -> None:
        """See :meth:`CapStore.add_game`."""
        self._run(
            lambda conn: conn.execute(
                "INSERT INTO yatzy_cap_games (client, game_id, made) "
                f"VALUES (%s, %s, {_NOW}) ON CONFLICT DO NOTHING",
                (client, game_id),
            )
        )

    def games(self, client: str) -> list[str]:
        """See :meth:`CapStore.games`."""

        def work(conn: Any) -> list[str]:
            conn.execute(f"DELETE FROM yatzy_cap_games WHERE made < {_NOW} - {GAMES_TTL}")
            rows = conn.execute(
                "SELECT game_id FROM yatzy_cap_games WHERE client = %s ORDER BY game_id",
                (client,),
            ).fetchall()
            return [r[0] for r in rows]

        result: list[str] = self._run(work)
        return result

    def keep_games(self, client: str, game_ids: list[str]) -> None:
        """See :meth:`CapStore.keep_games`."""
        self._run(
            lambda conn: conn.execute(
                "DELETE FROM yatzy_cap_games WHERE client = %s AND NOT (game_id = ANY(%s))",
                (client, game_ids),
            )
        )


# -- the process's side ----------------------------------------------------------------------


class SharedCounts:
    """What the other processes hold, per kind and client, as this process last learnt
    it from ``store`` (see the module docstring).  ``sources`` give this process's own
    counts per kind (registered by the hub and the connections' share)."""

    def __init__(self, store: CapStore, proc: str | None = None) -> None:
        self.store = store
        self.proc = proc or uuid.uuid4().hex
        self.sources: dict[str, Callable[[], dict[str, int]]] = {}
        self.others: dict[str, dict[str, int]] = {}
        """Per kind: the other processes' count per client (absent: 0 or not known)."""
        self._sent: dict[str, set[str]] = {}
        self._wanted: dict[str, set[str]] = {}
        self._known: dict[str, set[str]] = {}
        self._complained = 0.0

    def other(self, kind: str, client: str) -> int:
        """What the other processes hold of ``kind`` for ``client`` (as last learnt;
        a client not known yet is asked about in the next round)."""
        if client not in self._known.get(kind, ()):
            self._wanted.setdefault(kind, set()).add(client)
        return self.others.get(kind, {}).get(client, 0)

    async def learn(self, kind: str, client: str) -> int:
        """Publish this process's count of ``kind`` for ``client`` and return what the
        other processes hold, asked of the store now (for a caller that may wait a
        moment: a socket's opening, before it is admitted and once it is counted)."""
        own = self.sources[kind]().get(client, 0) if kind in self.sources else 0
        found = await self.call(self.store.sync, kind, self.proc, {client: own})
        if found is not None:
            self._note(kind, found)
            if own:
                self._sent.setdefault(kind, set()).add(client)
        return self.others.get(kind, {}).get(client, 0)

    def _note(self, kind: str, found: dict[str, int]) -> None:
        others = self.others.setdefault(kind, {})
        known = self._known.setdefault(kind, set())
        for client, n in found.items():
            known.add(client)
            if n:
                others[client] = n
            else:
                others.pop(client, None)

    def elsewhere(self, kind: str, client: str) -> int | None:
        """What the other processes hold of ``kind`` for ``client``, asked of the
        store now, publishing nothing; None when the store fails (logged).
        Blocking, at most the store's timeout: for a thread (the push sender's),
        never the event loop."""
        try:
            return self.store.elsewhere(kind, self.proc, client)
        except Exception as exc:  # the store away: the caller decides alone
            self._complain(exc)
            return None

    def _complain(self, exc: BaseException) -> None:
        now = time.monotonic()
        if now - self._complained > 60:
            self._complained = now
            log.warning("caps counted per process: %s", exc or type(exc).__name__)

    async def sync(self) -> None:
        """One round: publish every kind's counts, learn the others'."""
        for kind, source in list(self.sources.items()):
            counts = {c: n for c, n in source().items() if n > 0}
            wanted = self._wanted.pop(kind, set())
            asked = {c: counts.get(c, 0) for c in counts.keys() | self._sent.get(kind, set())}
            asked.update({c: counts.get(c, 0) for c in wanted})
            found = await self.call(self.store.sync, kind, self.proc, asked)
            if found is None:
                continue
            self._sent[kind] = set(counts)
            # forget clients this process no longer holds or asks about
            self.others[kind] = {}
            self._known[kind] = set()
            self._note(kind, found)

    async def run(self, period: float = PERIOD) -> None:
        """Rounds every ``period`` seconds until cancelled."""
        while True:
            await self.sync()
            await asyncio.sleep(period)

    async def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in a thread, None when the store fails or is slow (logged)."""
        try:
            return await asyncio.wait_for(asyncio.to_thread(fn, *args), TIMEOUT * 4)
        except Exception as exc:  # the store away: this process counts alone meanwhile
            self._complain(exc)
            return None


class SharedOpenGames(OpenGames):
    """:class:`yatzy.web.limits.OpenGames` kept in ``counts``'s store: a client's
    unfinished games count wherever it created them.  The in-process count stands in
    while the store does not answer."""

    def __init__(self, cap: int | None, counts: SharedCounts) -> None:
        super().__init__(cap)
        self.counts = counts

    async def check(self, key: str, unfinished: Callable[[list[str]], list[str]]) -> None:
        """Raise :class:`TooManyGamesError` if ``key`` may not create another game."""
        if self.cap is None:
            return
        store = self.counts.store
        held = await self.counts.call(store.games, key)
        if held is None:  # the store away: the process's own count
            await super().check(key, unfinished)
            return
        if len(held) < self.cap:
            return
        still = await asyncio.to_thread(unfinished, held)
        await self.counts.call(store.keep_games, key, still)
        if len(still) >= self.cap:
            raise TooManyGamesError(
                f"{key} has {len(still)} unfinished games, the most one client may have; "
                "finish some, or wait until abandoned games are pruned"
            )

    async def add(self, key: str, game_id: str) -> None:
        """Count a game ``key`` has just created (here and in the store)."""
        await super().add(key, game_id)
        if self.cap is not None:
            await self.counts.call(self.counts.store.add_game, key, game_id)
