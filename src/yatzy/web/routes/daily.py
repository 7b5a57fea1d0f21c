"""The daily challenges' API: today's challenges and the calendar, a browser's game
of today's challenge, and a challenge's leaderboard (the page is :mod:`.pages`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParam

from yatzy.rules import Language
from yatzy.web.bodies import DailyStartIn
from yatzy.web.deps import Daily, Owner, Secure
from yatzy.web.inputs import BODY, StrictJSONRoute, refusals
from yatzy.web.models import DailyBoardView, DailyStartView, DailyView
from yatzy.web.responses import OWNER_COOKIE, FastJSONResponse, set_cookie, set_seat_cookie
from yatzy.web.routes.pages import root_of
from yatzy.web.service import new_token

router = APIRouter(tags=["daily"], route_class=StrictJSONRoute)

DAY = r"^\d{4}-\d{2}-\d{2}$"
RULES = r"^[a-z0-9_+=.:-]{1,200}$"
Day = Annotated[str, PathParam(pattern=DAY, description="the challenge's day, YYYY-MM-DD (UTC)")]
Rules = Annotated[str, PathParam(pattern=RULES, description="the rule set, e.g. yatzy")]


@router.get("/api/daily", response_model=DailyView, responses=refusals(503))
async def daily_overview(daily: Daily, owner: Owner, lang: Language = "en") -> DailyView:
    """Today's challenges (each rule set's fingerprint, how many played, this
    browser's game) and the calendar of the past days with their revealed seeds."""
    return await daily.overview(owner, lang)


@router.post(
    "/api/daily/{rules}",
    response_model=DailyStartView,
    responses=refusals(*BODY, 404, 409, 503),
)
async def daily_start(
    request: Request, rules: Rules, body: DailyStartIn, daily: Daily, owner: Owner, secure: Secure
) -> FastJSONResponse:
    """This browser's game of today's challenge of ``rules``: a new one (201, the
    seat's cookie set), or the one it has begun (200).  409 once it has played it:
    each browser plays a challenge once."""
    new_owner = owner or new_token()
    game_id, created = await daily.start(rules, body.name, new_owner, body.lang)
    payload: DailyStartView = {"id": game_id, "url": f"g/{game_id}", "existing": created is None}
    response = FastJSONResponse(payload, status_code=200 if created is None else 201)
    root = root_of(request)
    if created is not None:
        for seat, token in created.tokens.items():
            set_seat_cookie(response, game_id, seat, token, secure, root)
    if owner is None:
        set_cookie(response, OWNER_COOKIE, new_owner, secure, root + "/")
    return response


@router.get(
    "/api/daily/{day}/{rules}",
    response_model=DailyBoardView,
    responses=refusals(403, 404, 503),
)
async def daily_board(
    day: Day, rules: Rules, daily: Daily, owner: Owner, limit: int = Query(100, ge=1, le=100)
) -> DailyBoardView:
    """A challenge's leaderboard and what the optimal player scored on its dice
    (null while it is computed); today's only for a browser that has played it (403
    before), and the day's seed once the day is over."""
    board = await daily.board(day, rules, owner)
    board["entries"] = board["entries"][:limit]
    return board
