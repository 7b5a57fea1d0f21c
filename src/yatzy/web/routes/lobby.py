"""The lobby and invitations (issue 26): open seeks, "play someone now", and
friends invited straight into a game or a rematch; the lobby's page.

Guests may look at the lobby; seeking, joining, waiting and inviting need an account
(401).  Every ``POST`` wants the ``X-Yatzy-CSRF: 1`` header and the app's own origin,
as the account routes do, and counts against the ``seek`` rate limit (the leave,
cancel and decline routes excepted: they only free things).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import TypedDict

from yatzy.i18n import Language
from yatzy.store.accounts import Account
from yatzy.store.lobby import Invitation, Seek
from yatzy.web import catalog
from yatzy.web.accounts import same_origin
from yatzy.web.catalog import rules_name
from yatzy.web.deps import (
    CsrfChecked,
    GameId,
    HubDep,
    InvitationsDep,
    Limiter,
    LobbyDep,
    Settings,
    SignedIn,
    Tournaments,
    note_account,
    public_base,
    signed_in_only,
)
from yatzy.web.inputs import BODY, StrictJSONRoute, refusal_table
from yatzy.web.limits import client_of
from yatzy.web.lobby import LobbyError, QuickState
from yatzy.web.lobby_words import lobby_words
from yatzy.web.routes.pages import lang_of, render, templates
from yatzy.web.service import bot_levels

templates.env.globals["lobby_words"] = lobby_words
router = APIRouter(route_class=StrictJSONRoute, dependencies=[Depends(note_account)])

SeekId = Annotated[str, PathParam(pattern=r"^[0-9a-f]{32}$", description="the seek's id")]


_refusals = refusal_table(
    {
        401: "Not signed in: seeks, the quick match and invitations are for accounts",
        403: "A request without the CSRF header or from another origin; another's seek; "
        "a person who is not your friend",
        409: "The seek or invitation is no longer open",
    }
)

Player = Annotated[Account, signed_in_only("sign in to use the lobby")]
"""The signed-in account of a lobby route (a guest: 401)."""


# -- bodies and answers ------------------------------------------------------------------------


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class SeekIn(_Strict):
    """A new seek: the rules (a spec, house rules included), the language of the game,
    how many people play, hints, and the time control asked for."""

    rules: str = Field(default="yatzy", max_length=200)
    lang: Language = "en"
    players: int = Field(default=2, ge=2, le=8)
    hints: bool = False
    time_control: dict[str, Any] | None = Field(
        default=None,
        description='null, {"mode": "live", "seconds": 30..600} or {"mode": "daily", "days": 1..7}',
    )


class QuickIn(_Strict):
    """A place in the quick-match queue of these rules and this many players."""

    rules: str = Field(default="yatzy", max_length=200)
    lang: Language = "en"
    players: int = Field(default=2, ge=2, le=8)


class InviteIn(_Strict):
    """A new game with friends invited (by account name) and computers of ``bots``."""

    rules: str = Field(default="yatzy", max_length=200)
    lang: Language = "en"
    friends: list[Annotated[str, Field(min_length=1, max_length=40)]] = Field(
        min_length=1, max_length=7
    )
    bots: list[Annotated[str, Field(max_length=40)]] = Field(default_factory=list, max_length=6)
    hints: bool = False
    time_control: dict[str, Any] | None = Field(
        default=None,
        description='null, {"mode": "live", "seconds": 30..600} or {"mode": "daily", "days": 1..7}',
    )


class LiveClockView(TypedDict):
    """A live time control: seconds a move."""

    mode: Literal["live"]
    seconds: int


class DailyClockView(TypedDict):
    """A daily (correspondence) time control: days a move."""

    mode: Literal["daily"]
    days: int


class SeekView(TypedDict):
    """A seek as the lobby shows it."""

    id: str
    by: str
    rules: str
    title: str
    players: int
    seated: list[str]
    time_control: LiveClockView | DailyClockView | None
    created: str
    state: str
    mine: bool
    joined: bool
    game: str | None


class StartedView(TypedDict):
    """A seek of the asker's that started: its game."""

    seek: str
    game: str


class QueueView(TypedDict):
    """A quick-match queue with people in it."""

    rules: str
    title: str
    players: int
    waiting: int


class LobbyView(TypedDict):
    """The lobby: the open seeks, the quick-match queues, and (signed in) the
    asker's seeks that started."""

    signed_in: bool
    seeks: list[SeekView]
    queues: list[QueueView]
    started: list[StartedView]


class QuickView(TypedDict):
    """The asker's place in the quick-match queue."""

    state: Literal["none", "waiting", "matched"]
    game: str | None
    waited: float
    computer: bool
    """A computer opponent is offered (nobody came within the wait)."""
    rules: str | None
    players: int


class GameLinkView(TypedDict):
    """A game made or joined: its id and address."""

    game: str
    url: str


class InvitationView(TypedDict):
    """An invitation into a game, as the invited friend sees it."""

    id: str
    game: str
    by: str
    title: str
    players: list[str]
    expires: str


class InvitationsView(TypedDict):
    """The asker's invitations that stand, the newest first."""

    invitations: list[InvitationView]


class InvitedView(TypedDict):
    """A game made with friends invited: its id, address and the friends invited."""

    game: str
    url: str
    invited: list[str]


def _seek_view(seek: Seek, me: Account | None, lang: Language) -> SeekView:
    return {
        "id": seek.id,
        "by": seek.by,
        "rules": seek.rules,
        "title": rules_name(seek.rules, lang),
        "players": seek.players,
        "seated": [name for _, name in seek.members],
        "time_control": seek.time_control,  # type: ignore[typeddict-item]  # checked when stored
        "created": seek.created_at.isoformat(timespec="seconds"),
        "state": seek.state,
        "mine": me is not None and seek.account_id == me.id,
        "joined": me is not None and any(a == me.id for a, _ in seek.members),
        "game": seek.game_id,
    }


def _quick_view(state: QuickState) -> QuickView:
    shown: Literal["none", "waiting", "matched"] = (
        "matched" if state.state == "matched" else "waiting" if state.state == "waiting" else "none"
    )
    return {
        "state": shown,
        "game": state.game_id,
        "waited": round(state.waited, 1),
        "computer": state.computer,
        "rules": state.rules,
        "players": state.players,
    }


def _invitation_view(inv: Invitation, lang: Language) -> InvitationView:
    return {
        "id": inv.id,
        "game": inv.game_id,
        "by": inv.from_name,
        "title": rules_name(inv.rules, lang),
        "players": inv.players,
        "expires": inv.expires_at.isoformat(timespec="seconds"),
    }


def _link(request: Request, game_id: str) -> GameLinkView:
    return {"game": game_id, "url": f"{public_base(request)}/g/{game_id}"}


# -- the lobby ------------------------------------------------------------------------------------


@router.get("/api/lobby", tags=["lobby"], response_model=LobbyView, responses=_refusals(503))
async def lobby(
    lobby: LobbyDep, account: SignedIn, lang: Literal["sv", "fi", "en"] = "en"
) -> LobbyView:
    """The open seeks (the oldest first), the quick-match queues with people in them,
    and, for a signed-in asker, its seeks that started (a page that waits in one goes
    to the game)."""
    seeks = await lobby.listing()
    queues = await lobby.queues()
    started = await lobby.started_for(account) if account is not None else []
    return {
        "signed_in": account is not None,
        "seeks": [_seek_view(s, account, lang) for s in seeks],
        "queues": [
            {"rules": r, "title": rules_name(r, lang), "players": p, "waiting": n}
            for r, p, n in queues
        ],
        "started": [{"seek": s, "game": g} for s, g in started],
    }


@router.post(
    "/api/lobby/seeks",
    tags=["lobby"],
    status_code=201,
    response_model=SeekView,
    responses=_refusals(*BODY, 401, 403, 503),
    dependencies=[CsrfChecked],
)
async def new_seek(
    request: Request, body: SeekIn, lobby: LobbyDep, mine: Player, limiter: Limiter
) -> SeekView:
    """Open a seek (the asker sits in it); 429 past the open seeks an account may have
    (:data:`yatzy.web.lobby.MAX_OPEN_SEEKS`) or the ``seek`` rate."""
    await limiter.acheck("seek", client_of(request.scope))
    seek = await lobby.seek(
        mine, body.rules, body.lang, body.players, hints=body.hints, time_control=body.time_control
    )
    return _seek_view(seek, mine, body.lang)


@router.post(
    "/api/lobby/seeks/{seek_id}/{action}",
    tags=["lobby"],
    response_model=SeekView,
    responses=_refusals(401, 403, 404, 409, 503),
    dependencies=[CsrfChecked],
)
async def seek_action(
    request: Request,
    seek_id: SeekId,
    action: Literal["join", "leave", "cancel"],
    lobby: LobbyDep,
    mine: Player,
    limiter: Limiter,
    lang: Literal["sv", "fi", "en"] = "en",
) -> SeekView:
    """Join a seek (when that fills it, its game is made: ``game`` names it), leave one
    joined, or cancel one's own (403 for another's, 409 for one no longer open)."""
    if action == "join":
        await limiter.acheck("seek", client_of(request.scope))
        seek = await lobby.join(mine, seek_id)
    else:
        if action == "leave":
            await lobby.leave(mine, seek_id)
        else:
            await lobby.cancel(mine, seek_id)
        seek = await lobby.seek_of(seek_id)
    return _seek_view(seek, mine, lang)


@router.post(
    "/api/lobby/quick",
    tags=["lobby"],
    response_model=QuickView,
    responses=_refusals(*BODY, 401, 403, 503),
    dependencies=[CsrfChecked],
)
async def quick(
    request: Request, body: QuickIn, lobby: LobbyDep, mine: Player, limiter: Limiter
) -> QuickView:
    """Play someone now: wait in the queue of these rules and players (in place of any
    earlier wait), paired at once if enough people wait there.  The page then polls
    ``GET /api/lobby/quick`` every second; a wait not polled for
    :data:`yatzy.web.lobby.DROP_AFTER` seconds is dropped."""
    await limiter.acheck("seek", client_of(request.scope))
    return _quick_view(await lobby.quick(mine, body.rules, body.lang, body.players))


@router.get(
    "/api/lobby/quick", tags=["lobby"], response_model=QuickView, responses=_refusals(401, 503)
)
async def quick_state(
    request: Request, lobby: LobbyDep, mine: Player, settings: Settings
) -> QuickView:
    """The asker's place in the queue (a sign of life of its page; pairs the queue):
    ``matched`` with its ``game``, or ``waiting`` (``computer``: a computer opponent
    is offered after :data:`yatzy.web.lobby.BOT_WAIT` seconds alone).  Asked from
    another site's page (a link, an image), it only reads: no page of another origin
    keeps a wait alive."""
    touch = same_origin(request.headers, settings.public_url)
    return _quick_view(await lobby.quick_state(mine, touch=touch))


@router.post(
    "/api/lobby/quick/leave",
    tags=["lobby"],
    response_model=QuickView,
    responses=_refusals(401, 403, 503),
    dependencies=[CsrfChecked],
)
async def quick_leave(lobby: LobbyDep, mine: Player) -> QuickView:
    """Stop waiting."""
    await lobby.quick_leave(mine)
    return _quick_view(QuickState("none"))


@router.post(
    "/api/lobby/quick/computer",
    tags=["lobby"],
    response_model=GameLinkView,
    responses=_refusals(401, 403, 503),
    dependencies=[CsrfChecked],
)
async def quick_computer(request: Request, lobby: LobbyDep, mine: Player) -> GameLinkView:
    """Take the offered computer opponent (422 before the wait is over): a game against
    the lobby's calibrated computer level."""
    return _link(request, await lobby.quick_computer(mine, mine.name))


# -- invitations ------------------------------------------------------------------------------


@router.get(
    "/api/invitations",
    tags=["lobby"],
    response_model=InvitationsView,
    responses=_refusals(401, 503),
)
async def invitations(
    invites: InvitationsDep, mine: Player, lang: Literal["sv", "fi", "en"] = "en"
) -> InvitationsView:
    """The asker's invitations that stand (every page of a signed-in player shows
    their number in its header)."""
    standing = await invites.pending(mine)
    return {"invitations": [_invitation_view(i, lang) for i in standing]}


@router.post(
    "/api/invitations",
    tags=["lobby"],
    status_code=201,
    response_model=InvitedView,
    responses=_refusals(*BODY, 401, 403, 404, 503),
    dependencies=[CsrfChecked],
)
async def invite(
    request: Request,
    body: InviteIn,
    invites: InvitationsDep,
    mine: Player,
    limiter: Limiter,
) -> InvitedView:
    """A new game with friends invited straight into it (each to a seat, on their
    account); 404 for an unknown name, 403 for one who is not a friend."""
    await limiter.acheck("seek", client_of(request.scope))
    for level in body.bots:
        if level not in bot_levels():
            raise LobbyError(f"unknown computer level {level!r}")
    game_id, made = await invites.new_game(
        mine,
        body.rules,
        body.lang,
        body.friends,
        hints=body.hints,
        bots=body.bots,
        time_control=body.time_control,
    )
    return {**_link(request, game_id), "invited": [i.to_name for i in made]}


@router.post(
    "/api/games/{game_id}/rematch",
    tags=["lobby"],
    status_code=201,
    response_model=InvitedView,
    responses=_refusals(401, 403, 404, 409, 503),
    dependencies=[CsrfChecked],
)
async def rematch(
    request: Request,
    game_id: GameId,
    invites: InvitationsDep,
    mine: Player,
    limiter: Limiter,
) -> InvitedView:
    """The same game again (rules, settings, players), the asker seated, its friends
    invited; 409 while the game is not over."""
    await limiter.acheck("seek", client_of(request.scope))
    new_id, made = await invites.rematch(mine, game_id)
    return {**_link(request, new_id), "invited": [i.to_name for i in made]}


@router.post(
    "/api/invitations/{invitation_id}/{answer}",
    tags=["lobby"],
    response_model=GameLinkView | InvitationsView,
    responses=_refusals(401, 403, 404, 409, 503),
    dependencies=[CsrfChecked],
)
async def answer_invitation(
    request: Request,
    invitation_id: SeekId,
    answer: Literal["accept", "decline"],
    invites: InvitationsDep,
    mine: Player,
    hub: HubDep,
    lang: Literal["sv", "fi", "en"] = "en",
) -> GameLinkView | InvitationsView:
    """Accept (the seat is the account's: the game's address) or decline (the
    invitations left)."""
    if answer == "accept":
        game_id, version = await invites.accept(mine, invitation_id)
        await hub.announce(game_id, version)
        return _link(request, game_id)
    game_id = await invites.decline(mine, invitation_id)
    await hub.refresh(game_id)  # its viewers no longer read that the game waits for them
    standing = await invites.pending(mine)
    return {"invitations": [_invitation_view(i, lang) for i in standing]}


# -- the page ----------------------------------------------------------------------------------


@router.get("/lobby", response_class=HTMLResponse, include_in_schema=False)
async def lobby_page(request: Request, lobby: LobbyDep, tournaments: Tournaments) -> HTMLResponse:
    """The lobby: open seeks, a new seek, play someone now, and the public tournaments
    that take players (joined on their own pages)."""
    lang = lang_of(request)
    presets = [{"spec": p.spec, "name": catalog.pick(p.name, lang)} for p in catalog.PRESETS]
    listed = (await tournaments.listing(lang))["tournaments"]
    open_ones = [x for x in listed if x["state"] == "open"][:10]
    return render(
        request,
        "lobby.html",
        lang,
        presets=presets,
        bot_wait=round(lobby.bot_wait),
        tournaments=open_ones,
    )
