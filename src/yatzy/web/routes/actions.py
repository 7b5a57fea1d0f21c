"""A game's actions over HTTP.  The same work is done by the action fast path
(:class:`yatzy.web.transport.ActionFastPath`, which answers well-formed actions
before FastAPI sees them) and the game's WebSocket: all end in
:func:`yatzy.web.transport.act_json`."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from yatzy.web.bodies import ActIn
from yatzy.web.deps import GameId, Owner, SeatTokens
from yatzy.web.inputs import BODY, StrictJSONRoute, refusals
from yatzy.web.models import GameView
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
