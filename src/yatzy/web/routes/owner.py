"""This browser's games: its history and statistics (by its ``yz_owner`` cookie),
and the link that gives it the owner of this computer's terminal games."""

from __future__ import annotations

import asyncio
import hmac

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response

from yatzy.rules import Language
from yatzy.web.accounts import is_account_owner
from yatzy.web.deps import Owner, Secure, Service
from yatzy.web.inputs import StrictJSONRoute, refusals
from yatzy.web.models import HistoryEntry, StatsView
from yatzy.web.responses import OWNER_COOKIE, FastJSONResponse, set_cookie
from yatzy.web.routes.pages import root_of

router = APIRouter(route_class=StrictJSONRoute)


@router.get("/owner", include_in_schema=False)
async def adopt_local_owner(
    request: Request, service: Service, owner: Owner, secure: Secure, token: str = ""
) -> Response:
    """Give this browser the owner of this computer's terminal games (the link that
    ``yatzy serve`` prints), so that its history and statistics show them; the
    browser's own games move along."""
    from yatzy.store.local import adopt_owner, existing_local_owner, owner_hash

    local = existing_local_owner()
    if local is None or not hmac.compare_digest(token.encode(), local.encode()):
        detail = "not the link 'yatzy serve' printed on this computer"
        return JSONResponse({"detail": detail, "error": "Forbidden"}, status_code=403)
    if owner and owner != local and not is_account_owner(owner):  # an account keeps its own
        await asyncio.to_thread(adopt_owner, service.repo, owner_hash(owner), owner_hash(local))
    root = root_of(request)
    response = RedirectResponse(root + "/history", status_code=303)
    set_cookie(response, OWNER_COOKIE, local, secure, root + "/")
    return response


@router.get(
    "/api/history", tags=["api"], response_model=list[HistoryEntry], responses=refusals(503)
)
async def history(service: Service, owner: Owner, lang: Language = "en") -> FastJSONResponse:
    """The games of this browser, newest first, with dates and rules in words."""
    if not owner:
        return FastJSONResponse([])
    return FastJSONResponse(await service.history(owner, lang))


@router.get("/api/stats", tags=["api"], response_model=StatsView, responses=refusals(503))
async def statistics(service: Service, owner: Owner, lang: Language = "en") -> FastJSONResponse:
    """This browser's seats in finished games per rule set: games, average, best,
    bonus and Yatzy rates, solo record."""
    if not owner:
        empty: StatsView = {"lang": lang, "variants": [], "games": 0}
        return FastJSONResponse(empty)
    return FastJSONResponse(await service.stats(owner, lang))
