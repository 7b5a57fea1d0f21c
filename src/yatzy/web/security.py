"""Security headers on every answer, and timeouts for clients that send too slowly.

* :class:`SecurityHeaders`: a Content-Security-Policy that allows only this
  origin's scripts, styles and sockets (no inline script or ``style=``
  attribute, no framing), ``X-Content-Type-Options: nosniff`` and a
  ``Referrer-Policy`` that keeps invite links (their code is a secret) from
  leaking to other sites.
* :class:`BodyTimeout`: a request body must arrive within a deadline (a client
  that sends its headers and then a byte a minute would hold its connection and
  task forever); 408 otherwise.
* :class:`HeaderTimeoutProtocol`: uvicorn's httptools protocol with a deadline
  for the request line and headers.  uvicorn closes a connection that is idle
  *between* requests (``timeout_keep_alive``) but waits forever for the first
  bytes of a new connection or the rest of a half-sent header.  It also keeps
  each client to its share of connections
  (:class:`yatzy.web.limits.ConnectionShare`).
* :class:`AllowedHosts`: only the configured ``Host`` names are answered (400
  otherwise), so a forged ``Host`` never reaches a link the app builds from it.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any, ClassVar

from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from yatzy.errors import YatzyError
from yatzy.web.limits import TOO_MANY_CONNECTIONS, ConnectionShare, refusal_answer

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "font-src 'self'",
        "object-src 'none'",
        "frame-ancestors 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "manifest-src 'self'",
    ]
)
"""The Content-Security-Policy of every answer.  ``connect-src 'self'`` covers the
page's same-origin WebSocket (CSP Level 3 maps ws/wss to the page's http/https)."""

SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),  # frame-ancestors for browsers without CSP 2
    (b"cross-origin-opener-policy", b"same-origin"),
]


class SecurityHeaders:
    """ASGI middleware: :data:`SECURITY_HEADERS` on every HTTP answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on; add the headers to its answer's start."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                # no route sets these itself: appended, not merged
                message["headers"] = [*message.get("headers", ()), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers)


_TIMEOUT_BODY = b'{"detail":"the request body did not arrive in time","error":"Timeout"}'


class BodyTimeout:
    """ASGI middleware: a request body must have come within ``seconds`` of the
    request's start, or the client gets 408 and the request ends.

    One timer per request that has a body, cancelled as soon as its last part is
    in (:class:`yatzy.web.transport.BodyLimit`, behind this, reads the body before
    anything else runs, so the timer can only catch the request waiting for it);
    when it fires it cancels the request's task.  Measured: a few microseconds,
    where an ``asyncio.timeout`` around each read cost 20-30.
    """

    def __init__(self, app: ASGIApp, seconds: float) -> None:
        self.app = app
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Run the request with a deadline on its body."""
        if scope["type"] != "http" or not _has_body(scope):
            await self.app(scope, receive, send)
            return
        task = asyncio.current_task()
        assert task is not None
        expired: list[bool] = []

        def expire() -> None:
            expired.append(True)
            task.cancel()

        timer = task.get_loop().call_later(self.seconds, expire)

        async def timed_receive() -> Message:
            message = await receive()
            if message["type"] != "http.request" or not message.get("more_body", False):
                timer.cancel()
            return message

        try:
            await self.app(scope, timed_receive, send)
        except asyncio.CancelledError:
            if not expired:
                raise
            task.uncancel()
            await send(
                {
                    "type": "http.response.start",
                    "status": 408,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"content-length", str(len(_TIMEOUT_BODY)).encode()),
                        (b"connection", b"close"),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": _TIMEOUT_BODY})
        finally:
            timer.cancel()


def _has_body(scope: Scope) -> bool:
    for name, value in scope["headers"]:
        if name == b"content-length":
            return bool(value != b"0")
        if name == b"transfer-encoding":
            return True
    return False


class HeaderTimeoutProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, closing a connection whose request line and
    headers have not all come within :attr:`header_timeout` seconds of the
    connection or of the request's first byte."""

    header_timeout: ClassVar[float] = 10.0
    """Seconds, from ``YATZY_HEADER_TIMEOUT`` (set by ``yatzy serve --header-timeout``;
    see :meth:`configure`)."""

    share: ClassVar[ConnectionShare | None] = None
    """Each client's share of the process's connections, from ``YATZY_LIMITS`` (see
    :meth:`configure`)."""

    @classmethod
    def configure(cls) -> ConnectionShare:
        """Read :attr:`header_timeout` and :attr:`share` from the environment that
        ``yatzy serve`` set for its server processes; the process's first connection
        does.  Read when the class was imported, they depended on the import order:
        ``yatzy serve`` imports this module (for the allowed hosts) before it sets
        them, and every client then got the default share of 100 connections, not
        ``--max-connections-per-client``."""
        cls.header_timeout = float(os.environ.get("YATZY_HEADER_TIMEOUT") or 10.0)
        cls.share = ConnectionShare.from_env(os.environ.get("YATZY_LIMITS"))
        return cls.share

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.connections_share = self.share or self.configure()
        self._header_timer: asyncio.TimerHandle | None = None
        self._configured_keep_alive = self.timeout_keep_alive
        self._share_key: str | None = None

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(self.header_timeout, self._headers_late)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_late(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Start the clock for the first request's headers; a client over its share of
        connections gets 429 and the connection closes."""
        super().connection_made(transport)
        self._share_key = self.connections_share.admit(self.client)
        if self._share_key is None:
            transport.write(TOO_MANY_CONNECTIONS)
            transport.close()
            return
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        """Stop the clock."""
        self._disarm()
        self._release()
        super().connection_lost(exc)

    def _release(self) -> None:
        if self._share_key is not None:
            self.connections_share.release(self._share_key)
            self._share_key = None

    def handle_websocket_upgrade(self) -> None:
        """A WebSocket leaves the count of connections (the hub caps sockets)."""
        self._release()
        super().handle_websocket_upgrade()

    def on_message_begin(self) -> None:
        """A request begins: its headers must complete in time."""
        super().on_message_begin()
        self._arm()

    def on_headers_complete(self) -> None:
        """The headers are in: no more deadline (the body has its own).  When the
        process is full, idle connections make room before uvicorn would answer 503."""
        self._disarm()
        self.connections_share.make_room(
            self.connections, self.limit_concurrency, lambda c: c is not self and _idle(c)
        )
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        """Between requests, uvicorn's keep-alive timeout watches the connection (1 s
        while the process holds half its cap of connections or more)."""
        self._disarm()
        self.timeout_keep_alive = self.connections_share.keep_alive(
            self._configured_keep_alive, len(self.connections), self.limit_concurrency
        )
        super().on_response_complete()


def _idle(conn: Any) -> bool:
    """Whether a connection of uvicorn's may be closed to make room: an HTTP one
    between requests, or silent since it opened (a WebSocket never)."""
    if not isinstance(conn, HttpToolsProtocol) or conn.transport.is_closing():
        return False
    return conn.cycle is None or (conn.cycle.response_complete and not conn.pipeline)


# -- allowed hosts ------------------------------------------------------------------------------

LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
"""The names of this computer: the allowed hosts of a server that listens on loopback."""


class BadHostError(YatzyError):
    """A request whose ``Host`` header names no host this server answers to."""


def host_name(header: str) -> str:
    """The host of a ``Host`` header, without its port, in lower case (IPv6 without
    its brackets)."""
    host = header.strip().lower()
    if host.startswith("["):
        return host[1:].partition("]")[0]
    return host.rpartition(":")[0] if host.count(":") == 1 else host


def host_allowed(host: str, patterns: tuple[str, ...]) -> bool:
    """Whether ``host`` (from :func:`host_name`) matches one of ``patterns``: a name,
    an address, ``*.example.org`` (any name under it) or ``*`` (any host)."""
    for pattern in patterns:
        if pattern == "*" or host == pattern:
            return True
        if pattern.startswith("*.") and host.endswith(pattern[1:]):
            return True
    return False


def parse_hosts(text: str) -> tuple[str, ...]:
    """``--allowed-hosts`` (comma-separated host names, addresses, ``*.domain`` or
    ``*``) as patterns for :func:`host_allowed`."""
    out = []
    for item in text.split(","):
        item = item.strip().lower()
        if not item:
            continue
        name = item[2:] if item.startswith("*.") else item
        if item != "*" and (not name or any(c in name for c in "/?#@ *\\") or "[" in name):
            raise YatzyError(f"allowed host {item!r} is not a host name, address, *.domain or *")
        out.append(item)
    return tuple(out)


class AllowedHosts:
    """ASGI middleware: a request or WebSocket whose ``Host`` is not one of
    ``patterns`` (see :func:`host_allowed`) gets 400 with the reason.

    The app builds links (a new game's invite and spectator URLs, a redirect's
    address) from the request's base URL where no public URL is configured; this
    keeps a forged ``Host`` out of them, and out of the pages a cache may keep.
    """

    def __init__(self, app: ASGIApp, patterns: tuple[str, ...]) -> None:
        self.app = app
        self.patterns = patterns

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on if its host is allowed; otherwise refuse it."""
        if scope["type"] in ("http", "websocket"):
            raw = dict(scope["headers"]).get(b"host")
            header = raw.decode("latin-1") if raw is not None else ""
            if not host_allowed(host_name(header), self.patterns):
                shown = header if len(header) <= 60 else header[:60] + "..."
                exc = BadHostError(
                    f"host {shown!r} is not one this server answers to "
                    "(yatzy serve --allowed-hosts, --public-url)"
                )
                await refusal_answer(scope, 400, exc, [])(receive, send)
                return
        await self.app(scope, receive, send)
