"""A game's WebSocket session: live views out, actions in (see :func:`socket_session`)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

import orjson
from fastapi import WebSocket
from pydantic import ValidationError

from yatzy.errors import YatzyError
from yatzy.web.bodies import MAX_REF, SocketActIn
from yatzy.web.hub import Outbox
from yatzy.web.inputs import reasons
from yatzy.web.limits import RateLimitedError, client_of, retry_after
from yatzy.web.responses import OWNER_COOKIE, SeatTokenError, refusal, status_of, tokens_of
from yatzy.web.service import SeatError
from yatzy.web.transport import act_json

BAD_TOKENS_CLOSE = 4422
"""The close code of a WebSocket whose ``X-Seat-Token`` is not one (the reason says why)."""


SESSION_RECHECK = 15.0
"""Seconds after which a socket's next action reads its account's session again, so
a session ended elsewhere (logged out, revoked, the account deleted) stops acting for
the account's seats within that time."""

Identity = Callable[[], Awaitable[tuple[dict[int, str], str | None]]]
"""Reads a socket's seats and owner again (the session may have ended since)."""


async def socket_session(
    ws: WebSocket,
    game_id: str,
    box: Outbox,
    tokens: dict[int, str],
    owner: str | None = None,
    recheck: Identity | None = None,
) -> None:
    """Answer the actions that come over a game's WebSocket until it closes.

    Every change of the game comes as ``{"type": "state", "game": view}``.  A client
    may also act here, as ``POST .../actions`` does but without a request per
    click: it sends ``{"type": "act", "ref": n, "action": ..., "seat": ...,
    "version": ...}`` and gets ``{"type": "state", "ref": n, "game": view}`` (with
    ``you``, the action's answer, instead of the plain update) or ``{"type":
    "error", "ref": n, "status": 4xx, "error": name, "detail": reason}`` (a 429
    with ``retry_after``, its seconds to wait), after which nothing changed.  The
    seats it acts for are ``tokens``, those of the cookies and ``X-Seat-Token`` of
    the socket's opening request and a signed-in account's (read by the route, which
    refuses a malformed header before anything is sent: see :func:`refuse_bad_tokens`);
    ``owner`` is the account's owner token, else the owner cookie's.  A page of another
    origin may watch but not act (its browser would send the player's cookies along).
    ``recheck`` (a signed-in socket's) reads the seats and owner again before an
    action once :data:`SESSION_RECHECK` seconds have passed since the last read.

    Everything goes out through the socket's :class:`Outbox` (``box``), answers
    included, so they keep their order with the updates and nothing here waits for
    the client to read.  A socket that sent nothing for :attr:`Limits.socket_idle`
    seconds while its game did not change either is closed with code 4408 (reason
    ``idle``); one that does not read is dropped; either ends this session.
    """
    # ``owner``: the viewer's (a signed-in account's), else the owner cookie's
    owner = owner or ws.cookies.get(OWNER_COOKIE)
    origin = ws.headers.get("origin")
    foreign = origin is not None and urlsplit(origin).netloc != ws.headers.get("host")
    checked = box.loop.time()
    try:
        while not box.ended:
            message = await ws.receive()  # the outbox cancels the session here only
            if message["type"] == "websocket.disconnect":
                return
            box.busy = True
            box.heard = box.loop.time()
            if recheck is not None and box.heard - checked >= SESSION_RECHECK:
                tokens, account_owner = await recheck()
                owner = account_owner or ws.cookies.get(OWNER_COOKIE)
                checked = box.heard
            raw = message.get("text") or message.get("bytes") or b""
            answer = await _socket_answer(ws, game_id, raw, tokens, owner, foreign, box)
            box.put(answer.decode())
            box.busy = False
    except asyncio.CancelledError:
        if not box.ended:
            raise
        asyncio.current_task().uncancel()  # type: ignore[union-attr]


async def _socket_answer(
    ws: WebSocket,
    game_id: str,
    raw: str | bytes,
    tokens: dict[int, str],
    owner: str | None,
    foreign: bool,
    box: Outbox,
) -> bytes:
    """The answer (JSON) to one message of :func:`socket_session`."""
    limiter = ws.app.state.limiter
    client = client_of(ws.scope)
    try:
        # every message counts, as every POST does: garbage is no way around the rate;
        # and a client out of guesses may not try its tokens here either
        await limiter.acheck("act", client)
        await limiter.acheck("guess", client, spend=False)
    except RateLimitedError as exc:
        return _socket_error(_quoted_ref(raw), status_of(exc), refusal(exc), exc)
    try:
        parsed = SocketActIn.model_validate_json(raw)
    except ValidationError as exc:
        invalid = {"detail": reasons(exc.errors(include_url=False)), "error": "ValidationError"}
        return _socket_error(_quoted_ref(raw), 422, invalid)
    if foreign:
        denied = SeatError("a page of another origin may not act on this game")
        return _socket_error(parsed.ref, status_of(denied), refusal(denied))
    try:
        game = await act_json(ws.app.state, game_id, parsed, tokens, owner, answered=box)
    except YatzyError as exc:
        status = status_of(exc)
        if status == 403:
            await limiter.aspend("guess", client)  # a refused seat token, as by POST
        return _socket_error(parsed.ref, status, refusal(exc), exc)
    return b'{"type":"state","ref":' + orjson.dumps(parsed.ref) + b',"game":' + game + b"}"


async def refuse_bad_tokens(ws: WebSocket, game_id: str) -> dict[int, str] | None:
    """The seat tokens of a socket's opening request, or None after refusing it.

    A socket opened with an ``X-Seat-Token`` header that is not one
    (:class:`SeatTokenError`) is accepted and closed at once with code 4422 and the
    reason: the close is the only thing it gets, no view before it.  This runs before
    the socket has an :class:`Outbox`, so nothing else can be on its way to it (a
    close sent beside the outbox's writer raced the queued first view).
    """
    try:
        return tokens_of(ws, game_id)
    except SeatTokenError as exc:
        await ws.accept()
        await ws.close(code=BAD_TOKENS_CLOSE, reason=str(exc)[:120])
        return None


def _socket_error(
    ref: int | None, status: int, body: dict[str, Any], exc: Exception | None = None
) -> bytes:
    """An error message; a 429 says in ``retry_after`` how many seconds to wait, as
    the ``Retry-After`` of an HTTP 429 does."""
    message: dict[str, object] = {"type": "error", "ref": ref, "status": status, **body}
    if isinstance(exc, RateLimitedError):
        message["retry_after"] = int(retry_after(exc))
    return orjson.dumps(message)


def _quoted_ref(raw: str | bytes) -> int | None:
    """The ``ref`` of a message that did not validate, where it has a usable one."""
    # Python's lenient parser: a message refused for a NaN elsewhere still has its ref.
    try:
        ref = json.loads(raw).get("ref")
    except (ValueError, AttributeError, RecursionError):
        return None
    return (
        ref if isinstance(ref, int) and not isinstance(ref, bool) and 0 <= ref <= MAX_REF else None
    )
