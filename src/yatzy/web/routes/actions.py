"""A game's actions over HTTP.  The same work is done by the action fast path
(:class:`yatzy.web.transport.ActionFastPath`, which answers well-formed actions
before FastAPI sees them) and the game's WebSocket: all end in
:func:`yatzy.web.transport.act_json`."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from yatzy.web.bodies import ActIn, ContributeIn, HintsIn, SayIn
from yatzy.web.deps import Bots, GameId, HubDep, Limiter, Owner, SeatTokens, Service
from yatzy.web.inputs import BODY, StrictJSONRoute, refusals
from yatzy.web.limits import client_of
from yatzy.web.models import GameView, GoOnView, PreviewView
from yatzy.web.responses import action_json
from yatzy.web.transport import act_json

router = APIRouter(tags=["api"], route_class=StrictJSONRoute)


@router.post(
    "/api/games/{game_id}/actions",
    response_model=GameView,
    responses=refusals(*BODY, 403, 404, 409, 503),
)
async def act(
    request: Request, game_id: GameId, body: ActIn, tokens: SeatTokens, owner: Owner
) -> Response:
    """Apply an action of a seat this browser holds (default: the player to act).

    4xx with a reason for anything illegal (nothing changes); 409 when another
    action got in first or ``version`` is stale.
    """
    answer = await act_json(request.app.state, game_id, body, tokens, owner)
    return Response(answer, media_type="application/json")


@router.post(
    "/api/games/{game_id}/preview",
    response_model=PreviewView,
    responses=refusals(*BODY, 403, 404, 409, 503),
)
async def preview(
    game_id: GameId, body: ActIn, tokens: SeatTokens, service: Service
) -> PreviewView:
    """The sheets after the write that ends the game, as they would stand: judged as
    an action is, but nothing is stored and nobody else is told.

    The page holds the game's last write this way, drawn with Undo, until the player
    ends the game (then it sends the write as an action), so that a mis-tap on the
    last box can be taken back before anything of the game's end happens (records,
    ratings, the dice's seed).  422 for anything but a write that ends the game.
    """
    return await service.preview(game_id, action_json(body.action), tokens, body.seat, body.version)


@router.post(
    "/api/games/{game_id}/go-on",
    response_model=GoOnView,
    responses=refusals(403, 404, 409, 503),
)
async def go_on(game_id: GameId, tokens: SeatTokens, service: Service, bots: Bots) -> GoOnView:
    """The person whose write a computer's move waits on goes on: the computer moves
    now, and the write can no longer be taken back.

    A computer waits (at most ``yatzy serve --undo-grace`` seconds) while the write
    before its move may be undone, as its move begins with a roll.  409 when no
    computer waits on a write of this browser's seats, 403 for another seat's.
    """
    version = await service.go_on(game_id, tokens)
    bots.release(game_id, version)
    return {"version": version}


@router.post(
    "/api/games/{game_id}/hints",
    response_model=GameView,
    responses=refusals(*BODY, 403, 404, 409, 503),
)
async def switch_hints(
    game_id: GameId,
    body: HintsIn,
    tokens: SeatTokens,
    owner: Owner,
    service: Service,
    hub: HubDep,
) -> GameView:
    """Switch the game's hints on or off during the game (a player of it only);
    every viewer's page follows.  422 where the game cannot have hints (a score pad)."""
    stored, _ = await service.set_hints(game_id, body.on, tokens)
    return await _announced(game_id, stored.version, tokens, owner, service, hub)


@router.post(
    "/api/games/{game_id}/contribute",
    response_model=GameView,
    responses=refusals(*BODY, 403, 404, 409, 503),
)
async def contribute(
    game_id: GameId,
    body: ContributeIn,
    tokens: SeatTokens,
    owner: Owner,
    service: Service,
    hub: HubDep,
) -> GameView:
    """Add this player's contribution to the game's verifiable dice (once per seat,
    until the first die of the first turn; the page sends random text from the
    device).  409 once the dice have begun or the seat has contributed, 403 for a
    browser that holds no seat."""
    stored, _ = await service.contribute(game_id, body.text, tokens)
    return await _announced(game_id, stored.version, tokens, owner, service, hub)


@router.post(
    "/api/games/{game_id}/say",
    response_model=GameView,
    responses=refusals(*BODY, 403, 404, 409, 503),
)
async def say(
    request: Request,
    game_id: GameId,
    body: SayIn,
    tokens: SeatTokens,
    owner: Owner,
    service: Service,
    hub: HubDep,
    limiter: Limiter,
) -> GameView:
    """Say a preset phrase to the game (a player of it, during the game or after);
    every viewer reads it in their own language.  422 for a phrase that is not one of
    :data:`yatzy.web.talk.PHRASES`, 403 for a spectator, 429 past the talk limit."""
    await limiter.acheck("talk", client_of(request.scope))
    stored, _ = await service.say(game_id, body.phrase, tokens)
    return await _announced(game_id, stored.version, tokens, owner, service, hub)


async def _announced(
    game_id: str,
    version: int,
    tokens: SeatTokens,
    owner: Owner,
    service: Service,
    hub: HubDep,
) -> GameView:
    """Tell every viewer of the game about ``version``; the asker's view of it."""
    await hub.announce(game_id, version)
    return await service.view(game_id, tokens, owner)
