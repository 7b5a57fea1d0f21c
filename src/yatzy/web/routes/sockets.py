"""A game's WebSocket: live views out, actions in (see :func:`yatzy.web.sockets.socket_session`)."""

from __future__ import annotations

import re

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from yatzy.store import NotFoundError
from yatzy.web.deps import GAME_ID, Bots, HubDep, Service, Settings
from yatzy.web.limits import TooManySocketsError
from yatzy.web.responses import error_response, status_of
from yatzy.web.sockets import socket_session
from yatzy.web.views import bot_to_act

router = APIRouter()


@router.websocket("/api/games/{game_id}/ws")
async def game_socket(
    ws: WebSocket, game_id: str, service: Service, hub: HubDep, bots: Bots, settings: Settings
) -> None:
    """Live views of the game, and its actions: see :func:`socket_session`.

    An id that is not a game's closes the socket with 4404; a game with as many live
    sockets as it may have refuses with 429 (or closes with 1013 where the server
    cannot send a denial response)."""
    # The id is checked here, not by a path pattern: a refused socket closes with 4404.
    if not re.fullmatch(GAME_ID, game_id):
        await ws.close(code=4404)
        return
    try:
        view = await service.public_view(game_id)
    except NotFoundError:
        await ws.close(code=4404)
        return
    most = settings.limits.sockets_per_game
    if most is not None and hub.count(game_id) >= most:
        full = TooManySocketsError(f"game {game_id} has {most} live sockets, the most it may")
        if "websocket.http.response" in ws.scope.get("extensions", {}):
            await ws.send_denial_response(error_response(status_of(full), full))
        else:
            await ws.close(code=1013, reason=str(full)[:120])
        return
    await ws.accept()
    # ?chances=1: this client also takes {"type": "chances"} messages (the game page).
    hub.subscribe(game_id, ws, chances=ws.query_params.get("chances") == "1")
    try:
        await ws.send_text(orjson.dumps({"type": "state", "game": view}).decode())
        if bot_to_act(view):
            bots.kick(game_id)
        await socket_session(ws, game_id)
    except WebSocketDisconnect:
        pass
    finally:
        hub.unsubscribe(game_id, ws)
