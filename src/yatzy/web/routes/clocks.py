"""A timed game's absences (issue 26): the other players choose what happens to a
seat whose time ran out, and its absent player takes it back."""

from __future__ import annotations

from fastapi import APIRouter

from yatzy.web.bodies import ClockChoiceIn
from yatzy.web.deps import CsrfChecked, GameId, SeatTokens, Service
from yatzy.web.inputs import BODY, StrictJSONRoute, refusals
from yatzy.web.models import GameView

router = APIRouter(tags=["api"], route_class=StrictJSONRoute)


@router.post(
    "/api/games/{game_id}/clock",
    response_model=GameView,
    responses=refusals(*BODY, 403, 404, 409, 503),
    dependencies=[CsrfChecked],
)
async def choose(
    game_id: GameId, body: ClockChoiceIn, tokens: SeatTokens, service: Service
) -> GameView:
    """``{"choice": "computer"}``: a computer finishes the seat whose time ran out, at
    its player's measured level; ``{"choice": "end"}``: the game ends now (the result
    records the time-out) — either by another player of the game; ``{"choice":
    "back"}``: the absent player takes the seat back (at once while it is paused,
    else when the computer's turn ends).  With ``X-Yatzy-CSRF: 1`` from the app's
    own origin.  409 when no choice waits (or another player's came first), 403 for
    someone who may not make it."""
    return await service.choose(game_id, body.choice, tokens)
