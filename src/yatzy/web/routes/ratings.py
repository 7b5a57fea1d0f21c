"""Ratings: the leaderboards, a player's public ratings and skill index, and the
signed-in account's own with their history (the pages are :mod:`.pages`)."""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse

from yatzy.rules import Language
from yatzy.store.accounts import Account
from yatzy.web.accounts import NoSuchAccountError, name_key
from yatzy.web.deps import Accounts, Service, note_account, signed_in_only
from yatzy.web.inputs import Refusal, StrictJSONRoute, refusals
from yatzy.web.rating_words import rating_words
from yatzy.web.ratings_view import (
    LeaderboardError,
    LeaderboardView,
    ProfileView,
    family_title,
    leaderboard,
    profile,
)
from yatzy.web.routes.pages import lang_of, render, templates

router = APIRouter(tags=["ratings"], route_class=StrictJSONRoute)

FAMILY = r"^[a-z0-9_+]{1,60}$"


@router.get("/api/leaderboard", response_model=LeaderboardView, responses=refusals(503))
async def get_leaderboard(
    service: Service,
    family: Annotated[str, Query(pattern=FAMILY, description="rule-set family")] = "yatzy",
    by: Annotated[str, Query(description="rating or skill")] = "rating",
    period: Annotated[str, Query(description="day, month or all")] = "all",
    lang: Language = "en",
    limit: Annotated[int, Query(ge=1, le=100)] = 100,
) -> LeaderboardView:
    """A rule-set family's leaderboard by rating (the conservative ``mu - 3 sigma``)
    or by skill index (least points lost a game against optimal play), for today,
    this month or all time (UTC), among players with the period's minimum of games."""
    return await asyncio.to_thread(
        leaderboard, service.rated.store, family, by, period, lang, limit=limit
    )


@router.get(
    "/api/players/{name}",
    response_model=ProfileView,
    responses={404: {"model": Refusal, "description": "No such player"}, **refusals(503)},
)
async def player_profile(
    name: Annotated[str, PathParam(min_length=1, max_length=40)],
    service: Service,
    accounts: Accounts,
    lang: Language = "en",
) -> ProfileView:
    """A player's public profile: their ratings per family (provisional marked) and
    their skill index over their last analysed rated games, in plain words."""
    account = await asyncio.to_thread(accounts.store.by_name, name_key(name))
    if account is None:
        raise NoSuchAccountError(f"no player is called {name!r}")
    return await asyncio.to_thread(profile, service.rated.store, account.id, account.name, lang)


@router.get(
    "/api/account/ratings",
    response_model=ProfileView,
    responses={401: {"model": Refusal, "description": "Not signed in"}, **refusals(503)},
)
async def my_ratings(
    service: Service,
    account: Annotated[Account, signed_in_only("log in to see your ratings")],
    lang: Language = "en",
) -> ProfileView:
    """The signed-in account's ratings and skill index (401 for a guest)."""
    return await asyncio.to_thread(profile, service.rated.store, account.id, account.name, lang)


# -- the pages ----------------------------------------------------------------------------

templates.env.globals["rating_words"] = rating_words
pages = APIRouter(include_in_schema=False, dependencies=[Depends(note_account)])


@pages.get("/leaderboard", response_class=HTMLResponse)
async def leaderboard_page(
    request: Request,
    service: Service,
    family: Annotated[str, Query(max_length=60)] = "yatzy",
    by: Annotated[str, Query(max_length=10)] = "rating",
    period: Annotated[str, Query(max_length=10)] = "all",
) -> HTMLResponse:
    """The leaderboards: a form (family, ranking, period) and the table; an unknown
    choice shows the default board."""
    lang = lang_of(request)
    try:
        board = await asyncio.to_thread(leaderboard, service.rated.store, family, by, period, lang)
    except LeaderboardError:
        board = await asyncio.to_thread(
            leaderboard, service.rated.store, "yatzy", "rating", "all", lang
        )
    families = sorted({*board["families"], board["family"], "yatzy"})
    titles = {f: family_title(f, lang) for f in families}
    return render(request, "leaderboard.html", lang, board=board, titles=titles)


@pages.get("/players/{name}", response_class=HTMLResponse)
async def player_page(
    request: Request,
    name: Annotated[str, PathParam(min_length=1, max_length=40)],
    service: Service,
    accounts: Accounts,
) -> HTMLResponse:
    """A player's public profile (404 page for an unknown name)."""
    lang = lang_of(request)
    account = await asyncio.to_thread(accounts.store.by_name, name_key(name))
    if account is None:
        raise NoSuchAccountError(f"no player is called {name!r}")
    shown = await asyncio.to_thread(profile, service.rated.store, account.id, account.name, lang)
    return render(request, "player.html", lang, profile=shown)
