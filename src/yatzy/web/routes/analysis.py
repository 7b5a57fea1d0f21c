"""A game's analysis: every person's decisions against the best play, in points
and (finished games) in win chance."""

from __future__ import annotations

from fastapi import APIRouter

from yatzy.rules import Language
from yatzy.web.deps import GameId, Owner, Service
from yatzy.web.inputs import StrictJSONRoute, refusals
from yatzy.web.models import AnalysisView, PendingView, WinAnalysisView, WinUnavailableView
from yatzy.web.responses import FastJSONResponse

router = APIRouter(tags=["api"], route_class=StrictJSONRoute)


@router.get(
    "/api/games/{game_id}/analysis",
    response_model=AnalysisView | PendingView,
    responses=refusals(404, 409, 503),
)
async def game_analysis(
    game_id: GameId, service: Service, lang: Language | None = None
) -> FastJSONResponse:
    """Every person's decisions against the best play, in words in the game's
    language (or ``lang``): own turn numbers, costliest choices, the expected final
    score turn by turn (``{"pending": true}`` while the strategy is prepared; a
    score pad game says what its data allows).  409 while a rated game runs."""
    return FastJSONResponse(await service.analysis(game_id, lang))


@router.get(
    "/api/games/{game_id}/win-analysis",
    response_model=WinAnalysisView | WinUnavailableView | PendingView,
    responses=refusals(404, 503),
)
async def game_win_analysis(
    game_id: GameId, service: Service, owner: Owner, lang: Language | None = None
) -> FastJSONResponse:
    """A finished game's analysis in win chance: every player's chance turn by turn
    (the chart) and each person's decisions with the change in chance they caused
    beside the points (solo: the chance of beating the owner's earlier record),
    ``{"pending": true}`` while it is computed in the background, or why there is
    none (``unavailable``)."""
    return FastJSONResponse(await service.win_analysis(game_id, lang, owner))
