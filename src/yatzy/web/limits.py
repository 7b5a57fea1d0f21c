"""Abuse limits of a server on the open internet: who the client is, and how much it may do.

* **The client's address** is decided here and only here (:class:`ClientAddress`):
  the peer's address, or — when the peer is one of the configured trusted proxies —
  the nearest untrusted address of its ``X-Forwarded-For`` (and the scheme of its
  ``X-Forwarded-Proto``).  uvicorn's own proxy-header handling is switched off by
  ``yatzy serve`` so that no second mechanism trusts those headers.  IPv6 clients
  count by their /64 network, which one subscriber usually holds whole.
* **Rates** (:class:`RateLimiter`): token buckets per client and kind — games
  created, seats joined, actions, WebSocket openings, downloads (protocols, QR
  codes, analyses), and failed seat-token, invite or owner-link guesses — answered
  with 429 and ``Retry-After``.
* **Caps**: unfinished games created per client (:class:`OpenGames`), sockets per
  game, per client and per process (:meth:`yatzy.web.hub.Hub.admit`: when the
  process is full the socket idle longest makes room), connections (uvicorn's
  ``limit_concurrency``).  Every 429, of a rate or of a cap, carries
  ``Retry-After`` (:class:`RateLimitedError`).

The rates' buckets live in the process, or, with ``yatzy serve --redis-url``, in
Redis, shared by every server process and host (:mod:`yatzy.web.shared_limits`); the
per-client caps (open games, sockets, connections) then count over every process too
(:mod:`yatzy.web.shared_caps`), and per process otherwise.
"""

from __future__ import annotations

import asyncio
import ipaddress
import math
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any, NoReturn, Protocol

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from yatzy.errors import YatzyError

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class RateLimitedError(YatzyError):
    """Too many requests or held things of one kind: try again after ``retry_after`` s.

    The base of every 429: its answer carries ``Retry-After`` (see :func:`retry_after`).
    """

    default_retry: float = 1.0
    """The wait a subclass suggests when the raiser names none."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = self.default_retry if retry_after is None else retry_after


class TooManyGamesError(RateLimitedError):
    """A client holds as many unfinished games as it may (finish or leave some first)."""

    # A game ends by play or by pruning: a minute is an honest first guess.
    default_retry = 60.0


class TooManySocketsError(RateLimitedError):
    """A game has as many live sockets as it may."""

    # A socket frees up when a page closes, which is soon on a busy game.
    default_retry = 10.0


@dataclass(frozen=True)
class Rate:
    """A sustained rate (events per minute) with a burst allowed on top."""

    per_minute: float
    burst: int

    def __post_init__(self) -> None:
        if not (self.per_minute > 0 and math.isfinite(self.per_minute)) or self.burst < 1:
            raise YatzyError(f"rate {self.per_minute!r}/min, burst {self.burst!r} is not positive")


@dataclass(frozen=True)
class Limits:
    """Every abuse limit of the server; ``None`` switches one off.

    The defaults suit a public server: a person creates a few games a minute and
    acts a few times a second; a hotseat table of 8 and a busy NAT stay well within.
    """

    create: Rate | None = Rate(30, 10)
    """Games created per client."""
    join: Rate | None = Rate(60, 20)
    """Seats claimed per client."""
    act: Rate | None = Rate(1200, 200)
    """Actions per client (HTTP and WebSocket together)."""
    guess: Rate | None = Rate(10, 20)
    """Refused seat tokens, invite codes and owner links per client (by ``POST``, over
    the WebSocket, in a game's view or ``/owner``); once spent, every request that
    presents a token, an invite or an owner link is refused until the bucket refills."""
    socket: Rate | None = Rate(120, 60)
    """WebSocket openings per client."""
    login: Rate | None = Rate(10, 10)
    """Log-in attempts per client and per account name (a wrong password, a spent
    code: each counts; a person who typed wrong a few times is not held up)."""
    signup: Rate | None = Rate(5, 5)
    """Accounts created per client."""
    friend: Rate | None = Rate(30, 10)
    """Friend requests, answers and blocks per client."""
    tournament: Rate | None = Rate(5, 3)
    """Tournaments created per client (each may seat up to 1,000 players)."""
    talk: Rate | None = Rate(12, 4)
    """Phrases said per client (a few in a row, then one every five seconds)."""
    text: Rate | None = Rate(10, 5)
    """Lines of free text written per account (:mod:`yatzy.web.messages`): a few in a
    row, then one every six seconds."""
    seek: Rate | None = Rate(20, 6)
    """Lobby seeks made or joined, quick-match entries and invitations per client
    (the lobby's polls are not counted)."""
    push: Rate | None = Rate(30, 10)
    """Web Push requests per client: a device subscribed, unsubscribed or asked
    about, and the notification settings changed (each writes the store; an account
    page asks about its device once when opened)."""
    download: Rate | None = Rate(120, 30)
    """Protocols (PDF, XLSX), QR codes and analyses fetched per client: each costs a
    rendering or starts a computation.  A game page polls its analyses every 2 s
    while they are prepared, well within."""
    open_games: int | None = 100
    """Unfinished games per client (created by it through this process, or through any
    with a shared store: :mod:`yatzy.web.shared_caps`)."""
    sockets_per_game: int | None = 64
    """Live WebSockets per game in this process."""
    sockets_per_client: int | None = 50
    """Live WebSockets per client in this process, or in all of them with a shared
    store (well below :attr:`sockets_total`: no one address fills the server)."""
    sockets_total: int | None = 1500
    """Live WebSockets of this process; a newcomer past it closes the socket idle
    longest instead (see :meth:`yatzy.web.hub.Hub.admit`).  Below the connection cap
    of ``yatzy serve --limit-concurrency`` (2,000), so plain requests still get in."""
    connections_per_client: int | None = 100
    """Open HTTP connections per client in this process, or in all of them with a
    shared store (``yatzy serve``; see :class:`ConnectionShare`)."""
    socket_queue: int = 64
    """Messages that may wait for one socket; a socket with more is dropped (it does
    not read).  Not switched off by :meth:`off`: nothing ever waits on a socket."""
    socket_drain: float = 5.0
    """Seconds one message may take to go out to a socket before it is dropped."""
    trusted_proxies: tuple[Network, ...] = ()
    """Peers whose ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed."""
    socket_idle: float | None = 600.0
    """Seconds after which a socket that sent nothing, and whose game did not
    change, is closed."""
    body_timeout: float | None = 10.0
    """Seconds a request body may take to arrive, in all."""
    retention_days: float | None = 30.0
    """Unfinished games untouched this many days are pruned (hourly)."""

    @classmethod
    def off(cls) -> Limits:
        """No rate limit, cap or timeout (tests, benchmarks, embedding)."""
        return cls(
            create=None,
            join=None,
            act=None,
            guess=None,
            login=None,
            signup=None,
            friend=None,
            tournament=None,
            talk=None,
            text=None,
            seek=None,
            push=None,
            socket=None,
            download=None,
            open_games=None,
            sockets_per_game=None,
            sockets_per_client=None,
            sockets_total=None,
            connections_per_client=None,
            socket_idle=None,
            body_timeout=None,
            retention_days=None,
        )

    def to_json(self) -> str:
        """The limits as JSON (how ``yatzy serve`` hands them to its worker processes)."""
        data: dict[str, Any] = {}
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if isinstance(value, Rate):
                value = [value.per_minute, value.burst]
            elif name == "trusted_proxies":
                value = [str(n) for n in value]
            data[name] = value
        return orjson.dumps(data).decode()

    @classmethod
    def from_json(cls, text: str) -> Limits:
        """The limits :meth:`to_json` wrote."""
        data = orjson.loads(text)
        values: dict[str, Any] = {}
        for name, value in data.items():
            if name in _WHAT:
                values[name] = None if value is None else Rate(value[0], int(value[1]))
            elif name == "trusted_proxies":
                values[name] = parse_networks(value)
            else:
                values[name] = value
        return replace(cls(), **values)


def parse_networks(items: Iterable[str]) -> tuple[Network, ...]:
    """Addresses or networks (``10.0.0.1``, ``10.0.0.0/8``, ``::1``) as networks."""
    out = []
    for item in items:
        try:
            out.append(ipaddress.ip_network(item.strip(), strict=False))
        except ValueError:
            raise YatzyError(f"{item!r} is not an IP address or network") from None
    return tuple(out)


def client_key(address: str) -> str:
    """The key a client's limits are kept under: its address, an IPv6 one by its /64."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address  # not an IP (a test client, a Unix socket): itself
    if ip.version == 6:
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


# -- the client's address ------------------------------------------------------------------


def _trusted(address: str, proxies: tuple[Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in proxies)


def resolve_client(
    peer: str, forwarded_for: str | None, proxies: tuple[Network, ...]
) -> tuple[str, bool]:
    """The client's address, and whether a trusted proxy stands between.

    ``X-Forwarded-For`` lists the addresses a request passed, the nearest last; each
    proxy appends the peer it got the request from.  Walking it from the right, the
    first address that is not a trusted proxy is the client (anything left of it
    could be forged by that client).
    """
    if not proxies or not _trusted(peer, proxies):
        return peer, False
    if not forwarded_for:
        return peer, True
    hops = [h.strip() for h in forwarded_for.split(",") if h.strip()]
    for hop in reversed(hops):
        if not _trusted(hop, proxies):
            try:
                return str(ipaddress.ip_address(hop)), True
            except ValueError:
                return peer, True  # garbage: count it against the proxy's own address
    return (hops[0] if hops else peer), True


class ClientAddress:
    """ASGI middleware: sets ``scope["client"]`` to the real client and
    ``scope["scheme"]`` to what a trusted proxy says the client used."""

    def __init__(self, app: ASGIApp, proxies: tuple[Network, ...]) -> None:
        self.app = app
        self.proxies = proxies

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Rewrite the scope when the peer is a trusted proxy, then go on."""
        if self.proxies and scope["type"] in ("http", "websocket"):
            client = scope.get("client")
            peer = client[0] if client else ""
            if _trusted(peer, self.proxies):
                headers = dict(scope["headers"])
                forwarded = headers.get(b"x-forwarded-for")
                address, _ = resolve_client(
                    peer, forwarded.decode("latin-1") if forwarded else None, self.proxies
                )
                scope = dict(scope)
                scope["client"] = (address, 0)
                proto = headers.get(b"x-forwarded-proto", b"").split(b",")[0].strip().lower()
                if proto == b"https":
                    scope["scheme"] = "wss" if scope["type"] == "websocket" else "https"
                elif proto == b"http":
                    scope["scheme"] = "ws" if scope["type"] == "websocket" else "http"
        await self.app(scope, receive, send)


def client_of(scope: Scope) -> str:
    """The limits key of the client of ``scope`` (after :class:`ClientAddress`)."""
    client = scope.get("client")
    return client_key(client[0]) if client else "unknown"


# -- rates ----------------------------------------------------------------------------------


class Buckets:
    """Token buckets of one kind, one per client key.

    A bucket holds up to ``burst`` tokens and gains ``per_minute / 60`` a second;
    each event takes one.  The table forgets full buckets when it grows past
    ``max_keys``, so a flood of addresses cannot grow it without bound.
    """

    def __init__(self, rate: Rate, max_keys: int = 100_000) -> None:
        self.capacity = float(rate.burst)
        self.per_second = rate.per_minute / 60.0
        self.max_keys = max_keys
        self._state: dict[str, tuple[float, float]] = {}

    def _level(self, key: str, now: float) -> float:
        tokens, stamp = self._state.get(key, (self.capacity, now))
        return min(self.capacity, tokens + (now - stamp) * self.per_second)

    def wait(self, key: str, now: float | None = None) -> float:
        """Seconds until ``key`` has a token (0: it has one now); takes nothing."""
        now = time.monotonic() if now is None else now
        tokens = self._level(key, now)
        return 0.0 if tokens >= 1 else (1 - tokens) / self.per_second

    def take(self, key: str, now: float | None = None) -> float:
        """Take a token for ``key``: 0 if there was one, else the seconds to wait
        (and nothing is taken)."""
        now = time.monotonic() if now is None else now
        tokens = self._level(key, now)
        if tokens < 1:
            self._state[key] = (tokens, now)
            return (1 - tokens) / self.per_second
        self._state[key] = (tokens - 1, now)
        if len(self._state) > self.max_keys:
            self._sweep(now)
        return 0.0

    async def ask(self, key: str, spend: bool) -> float:
        """:meth:`take` (``spend``) or :meth:`wait` from the event loop: in the process
        at once (a shared store's buckets ask it in a thread instead)."""
        return self.take(key) if spend else self.wait(key)

    def _sweep(self, now: float) -> None:
        self._state = {
            k: (t, s)
            for k, (t, s) in self._state.items()
            if t + (now - s) * self.per_second < self.capacity
        }
        if len(self._state) > self.max_keys:  # still full of busy clients: start over
            self._state.clear()


_WHAT = {
    "create": "games created",
    "join": "seats claimed",
    "act": "actions",
    "guess": "refused seat tokens or invite codes",
    "login": "log-in attempts",
    "signup": "accounts created",
    "friend": "friend requests, answers and blocks",
    "tournament": "tournaments created",
    "talk": "phrases said",
    "text": "lines of free text written",
    "seek": "seeks, joins, quick matches and invitations",
    "push": "push subscriptions and settings",
    "socket": "WebSocket connections",
    "download": "downloads (protocols, QR codes, analyses)",
}


class BucketStore(Protocol):
    """Where the buckets of a kind are kept when not in the process (Redis: see
    :class:`yatzy.web.shared_limits.RedisStore`)."""

    def buckets(self, kind: str, rate: Rate) -> Buckets:
        """The buckets of ``kind`` at ``rate``."""
        ...


class RateLimiter:
    """The buckets of every kind of :class:`Limits` that has a rate: in the process,
    or in ``store``, shared by every process that uses it."""

    def __init__(self, limits: Limits, store: BucketStore | None = None) -> None:
        self.limits = limits
        self.buckets: dict[str, Buckets] = {}
        for kind in _WHAT:
            rate = getattr(limits, kind)
            if rate is not None:
                self.buckets[kind] = Buckets(rate) if store is None else store.buckets(kind, rate)

    def check(self, kind: str, key: str, *, spend: bool = True) -> None:
        """Raise :class:`RateLimitedError` if ``key`` is over its rate of ``kind``;
        otherwise take a token (unless ``spend`` is false)."""
        buckets = self.buckets.get(kind)
        if buckets is None:
            return
        wait = buckets.take(key) if spend else buckets.wait(key)
        if wait > 0:
            self._refuse(kind, key, wait)

    def spend(self, kind: str, key: str) -> None:
        """Take a token of ``kind`` for ``key`` if there is one (a refused guess)."""
        buckets = self.buckets.get(kind)
        if buckets is not None:
            buckets.take(key)

    async def acheck(self, kind: str, key: str, *, spend: bool = True) -> None:
        """:meth:`check` for the event loop: a shared store is asked in a thread,
        bounded in time (see :meth:`Buckets.ask`)."""
        buckets = self.buckets.get(kind)
        if buckets is None:
            return
        wait = await buckets.ask(key, spend)
        if wait > 0:
            self._refuse(kind, key, wait)

    async def aspend(self, kind: str, key: str) -> None:
        """:meth:`spend` for the event loop."""
        buckets = self.buckets.get(kind)
        if buckets is not None:
            await buckets.ask(key, True)

    def _refuse(self, kind: str, key: str, wait: float) -> NoReturn:
        rate = getattr(self.limits, kind)
        raise RateLimitedError(
            f"too many {_WHAT[kind]} from {key} (at most {rate.per_minute:g} a minute); "
            f"try again in {math.ceil(wait)} s",
            wait,
        )


def retry_after(exc: RateLimitedError) -> str:
    """The ``Retry-After`` header value: whole seconds, at least 1."""
    return str(max(1, math.ceil(exc.retry_after)))


# -- open games -----------------------------------------------------------------------------


@dataclass
class OpenGames:
    """The unfinished games each client created through this process, capped.

    Only a client at its cap costs a query: which of its games are still
    unfinished (``unfinished``, given the ids).
    """

    cap: int | None
    games: dict[str, list[str]] = field(default_factory=dict)

    def full(self, key: str) -> bool:
        """Whether ``key`` has created as many games as it may hold (some of which
        may have finished since: :meth:`admit` finds out)."""
        return self.cap is not None and len(self.games.get(key, ())) >= self.cap

    def admit(self, key: str, unfinished: Callable[[list[str]], list[str]]) -> None:
        """Raise :class:`TooManyGamesError` if ``key`` may not create another game."""
        if self.cap is None:
            return
        held = self.games.get(key, [])
        if len(held) < self.cap:
            return
        still = unfinished(held)
        self.games[key] = still
        if len(still) >= self.cap:
            raise TooManyGamesError(
                f"{key} has {len(still)} unfinished games, the most one client may have; "
                "finish some, or wait until abandoned games are pruned"
            )

    async def check(self, key: str, unfinished: Callable[[list[str]], list[str]]) -> None:
        """:meth:`admit` without blocking the event loop (the query in a thread), for
        the route; the shared kind (:class:`yatzy.web.shared_caps.SharedOpenGames`)
        asks its store."""
        if self.full(key):
            await asyncio.to_thread(self.admit, key, unfinished)

    async def add(self, key: str, game_id: str) -> None:
        """:meth:`created`, for the route (the shared kind also tells its store)."""
        self.created(key, game_id)

    max_clients: int = 50_000
    """Clients remembered; past that the longest-known one is forgotten (memory stays
    bounded when very many addresses create games)."""

    def created(self, key: str, game_id: str) -> None:
        """Count a game ``key`` has just created."""
        if self.cap is not None:
            self.games.setdefault(key, []).append(game_id)
            if len(self.games) > self.max_clients:
                del self.games[next(iter(self.games))]


# -- connections ----------------------------------------------------------------------------

_TOO_MANY_BODY = (
    b'{"detail":"too many open connections from this client","error":"TooManyConnections"}'
)
TOO_MANY_CONNECTIONS = (
    b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\n"
    b"retry-after: 1\r\nconnection: close\r\ncontent-length: "
    + str(len(_TOO_MANY_BODY)).encode()
    + b"\r\n\r\n"
    + _TOO_MANY_BODY
)
"""The answer to a connection over its client's share (see :class:`ConnectionShare`)."""


class ConnectionShare:
    """Each client's share of a server process's connections, kept by ``yatzy serve``'s
    HTTP protocol (:class:`yatzy.web.security.HeaderTimeoutProtocol`) through
    :meth:`admit`, :meth:`release`, :meth:`keep_alive` and :meth:`make_room`.

    uvicorn's ``limit_concurrency`` is one cap for everyone, and idle connections
    count: one address could hold them all and every other client got 503.  Here

    * a client (its peer address, IPv6 by /64) holds at most ``per_client``
      connections at once; one more is answered 429 and closed at once.  Trusted
      proxies are not capped (every client behind one shares its address: cap per
      address there, e.g. nginx's ``limit_conn``);
    * past half the process's cap, a connection idle between requests is closed
      after 1 s instead of the keep-alive timeout;
    * a request that would get 503 because the process is full first closes the
      connections that are idle (between requests, or silent since they opened).

    WebSockets leave the count when they upgrade: the hub caps them
    (:meth:`yatzy.web.hub.Hub.admit`).
    """

    def __init__(self, per_client: int | None, proxies: tuple[Network, ...] = ()) -> None:
        self.per_client = per_client
        self.proxies = proxies
        self.open: dict[str, int] = {}
        """Open connections per client key."""
        self.others: Callable[[str], int] | None = None
        """The open connections of a client key on the other server processes (as
        last learnt: :class:`yatzy.web.shared_caps.SharedCounts`), when they share."""

    @classmethod
    def from_env(cls, text: str | None) -> ConnectionShare:
        """The share the limits of ``YATZY_LIMITS`` (``yatzy serve``) ask for."""
        limits = Limits.from_json(text) if text else Limits()
        return cls(limits.connections_per_client, limits.trusted_proxies)

    def admit(self, peer: tuple[str, int] | None) -> str | None:
        """Count a new connection of ``peer``: its client key (give it to
        :meth:`release`), or None when it is over its share (and not counted)."""
        if self.per_client is None or peer is None or _trusted(peer[0], self.proxies):
            return ""
        key = client_key(peer[0])
        held = self.open.get(key, 0)
        if held >= self.per_client:
            return None
        if self.others is not None and held + self.others(key) >= self.per_client:
            return None
        self.open[key] = held + 1
        return key

    def release(self, key: str) -> None:
        """A connection :meth:`admit` counted under ``key`` closed (or upgraded)."""
        if key:
            held = self.open.get(key, 0) - 1
            if held > 0:
                self.open[key] = held
            else:
                self.open.pop(key, None)

    @staticmethod
    def keep_alive(configured: int, open_now: int, cap: int | None) -> int:
        """The keep-alive timeout for a connection that just answered a request."""
        return 1 if cap is not None and open_now * 2 >= cap else configured

    @staticmethod
    def make_room(connections: set[Any], cap: int | None, idle: Callable[[Any], bool]) -> int:
        """When there are ``cap`` ``connections`` (uvicorn's protocols) already, close
        ``idle`` ones until a tenth of the cap is free; how many were closed."""
        if cap is None or len(connections) < cap:
            return 0
        need = len(connections) - cap + 1 + cap // 10
        closed = 0
        for conn in list(connections):
            if closed >= need:
                break
            if idle(conn):
                conn.transport.close()
                connections.discard(conn)  # now: the caller counts them next
                closed += 1
        return closed


# -- the ASGI layer ---------------------------------------------------------------------------

GAME_ROUTE = re.compile(r"/api/games/([0-9a-f]{32})/(join|actions|ws)")
DOWNLOAD_ROUTE = re.compile(
    r"/qr\.svg|/api/games/[0-9a-f]{32}/(protocol\.pdf|protocol\.xlsx|analysis|win-analysis)"
)
GUARDED = ("join", "act", "owner")
"""The kinds of request that carry a secret (seat token, invite code, owner link):
refused while the client is out of guesses, and each 403 spends one."""


def app_path(scope: Scope) -> str:
    """The request's path within the app: the ASGI path includes the app's prefix
    (``root_path``, behind a reverse proxy), the routes do not."""
    path: str = scope["path"]
    root: str = scope.get("root_path", "")
    if root and path.startswith(root):
        return path[len(root) :] or "/"
    return path


def _kind(scope: Scope) -> str | None:
    """Which rate a request counts against (None: none); ``owner`` has no rate of
    its own, only guesses."""
    path = app_path(scope)
    if scope["type"] == "websocket":
        return "socket" if path.startswith("/api/games/") else None
    if scope["method"] in ("GET", "HEAD"):
        if path == "/owner":
            return "owner"
        return "download" if DOWNLOAD_ROUTE.fullmatch(path) else None
    if scope["method"] != "POST" or not path.startswith("/api/games"):
        return None
    if path == "/api/games":
        return "create"
    match = GAME_ROUTE.fullmatch(path)
    if match is None:
        return None
    return "join" if match.group(2) == "join" else "act"


def refusal_answer(
    scope: Scope, status: int, exc: YatzyError, headers: list[tuple[bytes, bytes]]
) -> Any:
    """An ASGI answer refusing the request or WebSocket opening of ``scope`` with
    ``status``, ``headers`` and the refusal's JSON body (a layer's own refusal,
    before any route runs)."""
    body = orjson.dumps({"detail": str(exc), "error": type(exc).__name__})

    async def answer(receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            # Refused before the handshake is accepted: an HTTP answer where the
            # server supports it (uvicorn does), which the client sees as a failed
            # opening with that status; elsewhere a close ("try again later").
            if "websocket.http.response" not in scope.get("extensions", {}):
                await send({"type": "websocket.close", "code": 1013, "reason": str(exc)[:120]})
                return
            await send(
                {
                    "type": "websocket.http.response.start",
                    "status": status,
                    "headers": [(b"content-type", b"application/json"), *headers],
                }
            )
            await send({"type": "websocket.http.response.body", "body": body})
            return
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    *headers,
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    return answer


class RateLimits:
    """ASGI middleware: 429 with ``Retry-After`` for a client over one of its rates.

    Games created, seats joined, actions by ``POST``, WebSocket openings and
    downloads are counted here (WebSocket actions by
    :func:`yatzy.web.sockets.socket_session`).  Joins, actions and the owner link
    (``/owner?token=``) carry seat tokens, invite codes or the owner's secret: each
    one refused (403) spends a guess, and a client out of guesses is refused before
    its secret is even looked at, so secrets cannot be tried at speed (the seat
    tokens of a game's view and of a socket's actions are counted by their routes).
    """

    def __init__(self, app: ASGIApp, limiter: RateLimiter) -> None:
        self.app = app
        self.limiter = limiter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Count the request against its client's rate, or refuse it."""
        kind = _kind(scope) if scope["type"] in ("http", "websocket") else None
        if kind is None:
            await self.app(scope, receive, send)
            return
        key = client_of(scope)
        try:
            if kind in GUARDED:
                await self.limiter.acheck("guess", key, spend=False)
            await self.limiter.acheck(kind, key)
        except RateLimitedError as exc:
            headers = [(b"retry-after", retry_after(exc).encode())]
            await refusal_answer(scope, 429, exc, headers)(receive, send)
            return
        if kind not in GUARDED:
            await self.app(scope, receive, send)
            return
        limiter = self.limiter

        async def counting(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] == 403:
                await limiter.aspend("guess", key)
            await send(message)

        await self.app(scope, receive, counting)
