"""A game's WebSocket: live views out, actions in (see :func:`yatzy.web.sockets.socket_session`)."""

from __future__ import annotations

import re

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from yatzy.store import NotFoundError
from yatzy.web.accounts import SESSION_COOKIE, identity
from yatzy.web.deps import GAME_ID, Bots, HubDep, Service
from yatzy.web.limits import TooManySocketsError, client_of
from yatzy.web.responses import error_response, status_of
from yatzy.web.service import token_hash
from yatzy.web.sockets import refuse_bad_tokens, socket_session
from yatzy.web.views import bot_to_act

router = APIRouter()


@router.websocket("/api/games/{game_id}/ws")
async def game_socket(
    ws: WebSocket, game_id: str, service: Service, hub: HubDep, bots: Bots
) -> None:
    """Live views of the game, and its actions: see :func:`socket_session`.

    An id that is not a game's closes the socket with 4404; a socket the hub has no
    room for (the game's, the client's or the process's sockets: see
    :meth:`yatzy.web.hub.Hub.admit`) is refused with 429 (or closed with 1013 where
    the server cannot send a denial response); one whose ``X-Seat-Token`` is not one
    is closed with 4422 before any view (see :func:`refuse_bad_tokens`)."""
    # The id is checked here, not by a path pattern: a refused socket closes with 4404.
    if not re.fullmatch(GAME_ID, game_id):
        await ws.close(code=4404)
        return
    try:
        view = await service.public_view(game_id)
    except NotFoundError:
        await ws.close(code=4404)
        return
    # A malformed X-Seat-Token is refused (4422) before the socket takes a place or
    # has anything queued: its close is the one frame it gets.
    tokens = await refuse_bad_tokens(ws, game_id)
    if tokens is None:
        return
    # a signed-in account's seats, and its games as the owner (one query each)
    given = tokens  # the request's own seat tokens, without the account's

    async def recheck() -> tuple[dict[int, str], str | None]:
        return await identity(ws.app.state, game_id, given, ws.cookies, ws.headers)

    tokens, owner = await recheck()
    client = client_of(ws.scope)
    await hub.learn(client)  # the client's sockets on the other processes
    try:
        hub.admit(game_id, client)
    except TooManySocketsError as full:
        if "websocket.http.response" in ws.scope.get("extensions", {}):
            await ws.send_denial_response(error_response(status_of(full), full))
        else:
            await ws.close(code=1013, reason=str(full)[:120])
        return
    await ws.accept()
    # ?chances=1: this client also takes {"type": "chances"} messages (the game page).
    box = hub.subscribe(
        game_id,
        ws,
        client=client,
        chances=ws.query_params.get("chances") == "1",
        owner=token_hash(owner) if owner else None,  # who watches: no push to them
    )
    try:
        await hub.learn(client)  # the other processes count this socket from now on
        await hub.publish_watching(box)  # and push nothing of the game to its viewer
        box.put(orjson.dumps({"type": "state", "game": view}).decode())
        if bot_to_act(view):
            bots.kick(game_id)
        signed_in = SESSION_COOKIE in ws.cookies
        await socket_session(ws, game_id, box, tokens, owner, recheck if signed_in else None)
    except WebSocketDisconnect:
        pass
    finally:
        hub.unsubscribe(box)
