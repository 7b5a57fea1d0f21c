"""Tournaments: the list of public ones, creating one, joining, cancelling, a
tournament's view (standings, rounds, your game, the podium) and their pages.

Every ``POST`` wants a signed-in account, the ``X-Yatzy-CSRF: 1`` header and the
app's own origin (:func:`yatzy.web.accounts.check_csrf`); creating has a rate limit
of its own (``tournament`` in :class:`yatzy.web.limits.Limits`).  The logic is
:mod:`yatzy.web.tournaments`.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse

from yatzy.rules import Language
from yatzy.store.accounts import Account
from yatzy.web import catalog
from yatzy.web.deps import (
    CsrfChecked,
    Limiter,
    SignedIn,
    Tournaments,
    note_account,
    signed_in_only,
)
from yatzy.web.inputs import BODY, StrictJSONRoute, refusal_table
from yatzy.web.limits import client_of
from yatzy.web.routes.pages import lang_of, render, templates
from yatzy.web.tournament_models import (
    CreateTournamentIn,
    TournamentListView,
    TournamentView,
)
from yatzy.web.tournament_words import tournament_words

templates.env.globals["tournament_words"] = tournament_words
router = APIRouter(route_class=StrictJSONRoute, dependencies=[Depends(note_account)])

TournamentId = Annotated[
    str, PathParam(pattern=r"^[0-9a-f]{32}$", description="the tournament's 128-bit id (hex)")
]


_refusals = refusal_table(
    {
        401: "Not signed in: the reason",
        403: "A request without the CSRF header, from another origin, or not the creator's",
        409: "The tournament has begun, is full, or you are in it already",
    }
)
"""The OpenAPI ``responses`` of a tournament route: 401 not signed in, 403 a
cross-site request or not the creator, 409 too late or full, and the usual."""

Entrant = Annotated[Account, signed_in_only("sign in to take part in tournaments")]
"""The signed-in account of a tournament route that needs one (a guest: 401)."""


@router.get(
    "/api/tournaments",
    tags=["tournaments"],
    response_model=TournamentListView,
    responses=_refusals(503),
)
async def list_tournaments(tournaments: Tournaments, lang: Language = "en") -> TournamentListView:
    """The public tournaments: those to come and under way (the soonest first), then
    the finished ones."""
    return await tournaments.listing(lang)


@router.post(
    "/api/tournaments",
    tags=["tournaments"],
    status_code=201,
    response_model=TournamentView,
    responses=_refusals(*BODY, 401, 403, 503),
    dependencies=[CsrfChecked],
)
async def create_tournament(
    request: Request,
    body: CreateTournamentIn,
    tournaments: Tournaments,
    mine: Entrant,
    limiter: Limiter,
) -> TournamentView:
    """Make a tournament (signed in): its rules are checked as a game's, its start
    must be in the future.  The creator does not join by making it."""
    await limiter.acheck("tournament", client_of(request.scope))
    made = await tournaments.create(mine, body)
    return await tournaments.view(made.id, mine, body.lang)


@router.get(
    "/api/tournaments/{tournament_id}",
    tags=["tournaments"],
    response_model=TournamentView,
    responses=_refusals(404, 503),
)
async def get_tournament(
    tournament_id: TournamentId, tournaments: Tournaments, account: SignedIn, lang: Language = "en"
) -> TournamentView:
    """The tournament: settings, players, rounds, live standings, the viewer's game
    in the round being played, the podium once it is over.  Reading it also starts
    it at its start time and moves it on when a round is over."""
    return await tournaments.view(tournament_id, account, lang)


@router.post(
    "/api/tournaments/{tournament_id}/join",
    tags=["tournaments"],
    response_model=TournamentView,
    responses=_refusals(*BODY, 401, 403, 404, 409, 503),
    dependencies=[CsrfChecked],
)
async def join_tournament(
    tournament_id: TournamentId, tournaments: Tournaments, mine: Entrant, lang: Language = "en"
) -> TournamentView:
    """Join (signed in, before the start, under the cap, once)."""
    await tournaments.join(tournament_id, mine)
    return await tournaments.view(tournament_id, mine, lang)


@router.post(
    "/api/tournaments/{tournament_id}/cancel",
    tags=["tournaments"],
    response_model=TournamentView,
    responses=_refusals(*BODY, 401, 403, 404, 409, 503),
    dependencies=[CsrfChecked],
)
async def cancel_tournament(
    tournament_id: TournamentId, tournaments: Tournaments, mine: Entrant, lang: Language = "en"
) -> TournamentView:
    """Cancel the tournament (its creator only, before the start)."""
    await tournaments.cancel(tournament_id, mine)
    return await tournaments.view(tournament_id, mine, lang)


# -- pages ---------------------------------------------------------------------------------------


@router.get("/tournaments", response_class=HTMLResponse, include_in_schema=False)
async def tournaments_page(
    request: Request, tournaments: Tournaments, account: SignedIn
) -> HTMLResponse:
    """The public tournaments and, signed in, the form that makes one."""
    lang = lang_of(request)
    listing = await tournaments.listing(lang)
    presets = [{"spec": p.spec, "name": catalog.pick(p.name, lang)} for p in catalog.PRESETS]
    return render(
        request,
        "tournaments.html",
        lang,
        listing=listing["tournaments"],
        presets=presets,
        signed_in=account is not None,
    )


@router.get("/tournaments/{tournament_id}", response_class=HTMLResponse, include_in_schema=False)
async def tournament_page(
    request: Request, tournament_id: TournamentId, tournaments: Tournaments, account: SignedIn
) -> HTMLResponse:
    """A tournament: its settings, join or cancel, live standings, your game, the
    podium."""
    lang = lang_of(request)
    view = await tournaments.view(tournament_id, account, lang)
    return render(request, "tournament.html", lang, tm=view)
