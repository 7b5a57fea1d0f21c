"""ASGI layers in front of FastAPI: the request body's size limit and the fast path
of the one hot route (a game's actions), which ends in :func:`act_json` as the
documented route and the WebSocket do; and the WebSocket protocol ``yatzy serve``
runs, which can cut a connection that does not read (:class:`SocketProtocol`)."""

from __future__ import annotations

import asyncio
import contextlib
import re
import socket
from typing import Any

import orjson
from fastapi.responses import JSONResponse
from pydantic import ValidationError
from starlette.requests import cookie_parser
from starlette.types import Receive, Scope, Send
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from yatzy.errors import YatzyError
from yatzy.web.accounts import SESSION_COOKIE, identity, is_account_owner
from yatzy.web.bodies import ActIn
from yatzy.web.hub import ABORT, Outbox
from yatzy.web.limits import RateLimitedError, retry_after
from yatzy.web.responses import OWNER_COOKIE, action_json, refusal, seat_tokens, status_of

MAX_BODY = 16 * 1024
"""The largest request body (bytes) any route accepts."""


async def read_body(receive: Receive, limit: int) -> bytes | None:
    """The whole request body, or None when the client went away; reading stops
    once more than ``limit`` bytes came (what came is returned, longer than ``limit``)."""
    chunks = []
    size = 0
    more = True
    while more and size <= limit:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunks.append(message.get("body", b""))
        size += len(chunks[-1])
        more = message.get("more_body", False)
    return b"".join(chunks)


def replaying(body: bytes, receive: Receive) -> Receive:
    """An ASGI ``receive`` that hands on ``body`` (read already) as one message, then
    whatever comes next."""
    first: dict[str, Any] | None = {"type": "http.request", "body": body, "more_body": False}

    async def replay() -> Any:
        nonlocal first
        if first is not None:
            message, first = first, None
            return message
        return await receive()

    return replay


class BodyLimit:
    """ASGI middleware in front of everything: a request body over ``limit`` bytes
    gets 413 before any route runs.

    The body (small by then) is read whole first and handed on as one message, so a
    body sent in chunks without a length is refused by its size just the same.
    """

    def __init__(self, app: Any, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
    ) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers") or []).get(b"content-length")
        # bytes.isdigit() is ASCII only; the length bound keeps int() from refusing
        # (it raises on 4,300 digits and more)
        if length is not None and (
            not length.isdigit() or len(length) > 18 or int(length) > self.limit
        ):
            await self._refuse(scope, receive, send)
            return
        body = await read_body(receive, self.limit)
        if body is None:
            return  # the client went away
        if len(body) > self.limit:
            await self._refuse(scope, receive, send)
            return
        await self.app(scope, replaying(body, receive), send)

    async def _refuse(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
    ) -> None:
        answer = {"detail": f"request body over {self.limit} bytes", "error": "TooLarge"}
        await JSONResponse(answer, 413)(scope, receive, send)


ACTIONS_PATH = re.compile(r"/api/games/([0-9a-f]{32})/actions")
JSON_HEADERS = [(b"content-type", b"application/json")]


class ActionFastPath:
    """ASGI middleware in front of FastAPI: well-formed actions skip its machinery.

    Actions are the one hot route (every click of a game).  A ``POST`` of a JSON
    body that validates as :class:`ActIn` goes straight to :func:`act_json` — the
    same function the documented FastAPI route calls — and its answer is sent as
    raw ASGI messages.  Anything else (another route, a malformed or invalid body,
    another content type) goes on to the app unchanged, so every error keeps
    FastAPI's exact answer.  :class:`BodyLimit` runs before it.
    """

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
    ) -> None:
        match = None
        if scope["type"] == "http" and scope["method"] == "POST":
            path = scope["path"]
            root = scope.get("root_path", "")
            if root and path.startswith(root):
                path = path[len(root) :]  # the ASGI path includes the app's prefix
            match = ACTIONS_PATH.fullmatch(path)
        if match is None:
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        body = await read_body(receive, MAX_BODY)  # one message: BodyLimit read it whole
        if body is None:
            return  # the client went away
        parsed: ActIn | None = None
        content_type = headers.get(b"content-type", b"")
        if content_type.split(b";")[0].strip() == b"application/json":
            with contextlib.suppress(ValidationError):
                parsed = ActIn.model_validate_json(body)
        if parsed is None:
            await self.app(scope, replaying(body, receive), send)
            return
        cookie = headers.get(b"cookie")
        cookies = cookie_parser(cookie.decode("latin-1")) if cookie else {}
        seat_header = headers.get(b"x-seat-token")
        status = 200
        extra: list[tuple[bytes, bytes]] = []
        try:
            tokens = seat_tokens(
                cookies, seat_header.decode("latin-1") if seat_header else None, match.group(1)
            )
            owner = cookies.get(OWNER_COOKIE)
            if SESSION_COOKIE in cookies or is_account_owner(owner):  # guests skip this
                tokens, owner = await identity(
                    scope["app"].state, match.group(1), tokens, cookies, _text(headers)
                )
            answer = await act_json(scope["app"].state, match.group(1), parsed, tokens, owner)
        except YatzyError as exc:
            status = status_of(exc)
            answer = orjson.dumps(refusal(exc))
            if isinstance(exc, RateLimitedError):
                extra.append((b"retry-after", retry_after(exc).encode()))
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    *JSON_HEADERS,
                    (b"content-length", str(len(answer)).encode()),
                    *extra,
                ],
            }
        )
        await send({"type": "http.response.body", "body": answer})


def _text(headers: dict[bytes, bytes]) -> dict[str, str]:
    """The headers an origin check reads, as text."""
    names = ("host", "origin", "sec-fetch-site")
    return {n: headers[n.encode()].decode("latin-1") for n in names if n.encode() in headers}


async def act_json(
    app_state: Any,
    game_id: str,
    body: ActIn,
    tokens: dict[int, str],
    owner: str | None,
    answered: Outbox | None = None,
) -> bytes:
    """Apply an action for the seats of ``tokens``; the game as JSON for this viewer.

    The move reaches the game's WebSocket clients (but ``answered``, the socket the
    action came by, which gets this answer instead), and its bots are started when
    one of them is to act next.  A :class:`YatzyError` means nothing changed.
    """
    public, you, bot_next = await app_state.service.act_view(
        game_id, action_json(body.action), tokens, body.seat, body.version, owner
    )
    public_json = orjson.dumps(public)
    await app_state.hub.announce(game_id, public["version"], public_json, skip=answered)
    if bot_next:
        app_state.bots.kick(game_id)
    # {**public, "you": you} without encoding the view a second time
    return public_json[:-1] + b',"you":' + orjson.dumps(you) + b"}"


class SocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol (``websockets-sansio``) that can cut a connection.

    uvicorn closes a connection gracefully, after its buffered output is written: for
    a peer that stopped reading that is never, so the connection, its buffer and any
    task waiting to send on it stayed for good (an unanswered keepalive ping closed it
    the same graceful way, which freed nothing).  Here (``yatzy serve`` uses it):

    * the app may cut the connection at once through the :data:`ABORT` extension
      (:class:`yatzy.web.hub.Outbox` does for a socket that does not drain);
    * a ping not answered in time cuts a connection that has output waiting;
    * a connection still open :attr:`linger` seconds after its app ended is cut;
    * the kernel's send buffer of a socket is capped at :attr:`send_buffer` bytes:
      on its own it grows to megabytes for a peer that does not read (4 MiB on
      loopback, measured), which a few thousand such peers turn into gigabytes, and
      the back-pressure of :class:`yatzy.web.hub.Outbox` would only start after that.
    """

    linger = 10.0
    """Seconds a connection may take to close after its app ended."""
    send_buffer = 128 * 1024
    """``SO_SNDBUF`` of a WebSocket (Linux doubles it): some 25 game views of 8 players."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Take over the upgraded connection; cap its kernel send buffer."""
        super().connection_made(transport)
        sock = transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.send_buffer)

    async def run_asgi(self) -> None:
        """Run the app with the :data:`ABORT` extension; cut the connection if it
        lingers afterwards."""
        self.scope["extensions"][ABORT] = {"abort": self.abort}
        try:
            await super().run_asgi()
        finally:
            if not self.disconnected:
                self.loop.call_later(self.linger, self.abort)

    def abort(self) -> None:
        """Cut the connection now, dropping what waits to be sent."""
        if not self.disconnected and self.transport is not None:
            self.transport.abort()

    def keepalive_timeout(self) -> None:
        """The peer did not answer a ping: close, and cut what cannot be flushed."""
        super().keepalive_timeout()
        if self.transport.get_write_buffer_size():
            self.abort()
