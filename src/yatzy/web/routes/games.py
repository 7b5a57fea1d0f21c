"""Games: create one, read it as this viewer sees it, join it with the invite code,
and read its record and its moves."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from yatzy.web.bodies import ClockIn, CreateGameIn, JoinIn
from yatzy.web.clocks import ClockSetting
from yatzy.web.deps import (
    Bots,
    GameId,
    HubDep,
    Limiter,
    OpenGamesDep,
    Owner,
    SeatTokens,
    Secure,
    Service,
    SignedIn,
    public_base,
)
from yatzy.web.inputs import BODY, StrictJSONRoute, refusals
from yatzy.web.limits import client_of
from yatzy.web.models import CreatedView, GameView, MoveView
from yatzy.web.responses import (
    OWNER_COOKIE,
    FastJSONResponse,
    set_cookie,
    set_seat_cookie,
)
from yatzy.web.routes.pages import root_of
from yatzy.web.service import SeatRequest, new_token
from yatzy.web.views import bot_to_act

router = APIRouter(tags=["api"], route_class=StrictJSONRoute)


@router.post(
    "/api/games",
    status_code=201,
    response_model=CreatedView,
    responses=refusals(*BODY, 403, 503),
)
async def create_game(
    request: Request,
    body: CreateGameIn,
    service: Service,
    bots: Bots,
    open_games: OpenGamesDep,
    owner: Owner,
    secure: Secure,
    account: SignedIn,
) -> FastJSONResponse:
    """Create a game; seats marked ``here`` are claimed by this browser.

    ``rated``: a rated game (people only, each signed in; 403 for a guest, 422 with a
    computer player, one seat or hints).  429 when this client holds as many
    unfinished games as it may."""
    client = client_of(request.scope)
    await open_games.check(client, service.repo.unfinished_among)
    created = await service.create(
        body.rules,
        body.lang,
        [SeatRequest(s.name, s.bot, s.here) for s in body.seats],
        pad=body.pad,
        hints=body.hints,
        owner=owner,
        entropy=body.entropy,
        dice_mode=body.dice,
        rated=body.rated,
        account_id=None if account is None else account.id,
        clock=clock_setting(body.clock),
    )
    gid = created.game_id
    await open_games.add(client, gid)
    view = await service.created_view(created)
    base = public_base(request)
    payload: CreatedView = {
        "id": gid,
        "url": f"{base}/g/{gid}",
        "invite_url": f"{base}/g/{gid}?invite={created.invite}",
        "invite": created.invite,
        "spectate_url": f"{base}/g/{gid}",
        "game": view,
    }
    response = FastJSONResponse(payload, status_code=201)
    root = root_of(request)
    for seat, token in created.tokens.items():
        set_seat_cookie(response, gid, seat, token, secure, root)
    if owner is None:
        set_cookie(response, OWNER_COOKIE, created.owner, secure, root + "/")
    if bot_to_act(view):
        bots.kick(gid)
    return response


def clock_setting(body: ClockIn | None) -> ClockSetting | None:
    """The clock a new game asks for (the body checked it already)."""
    return None if body is None else body.setting()


@router.get("/api/games/{game_id}", response_model=GameView, responses=refusals(404, 503))
async def get_game(
    request: Request,
    game_id: GameId,
    service: Service,
    bots: Bots,
    tokens: SeatTokens,
    owner: Owner,
    limiter: Limiter,
) -> FastJSONResponse:
    """The game as this viewer sees it (spectators: ``you.seats`` is empty).

    Seat tokens that hold no seat are ignored, but each spends one of the client's
    guesses (``you.seats`` would tell a guesser which token is right); a client out
    of guesses that presents tokens gets 429."""
    client = client_of(request.scope)
    if tokens:
        await limiter.acheck("guess", client, spend=False)
    view = await service.view(game_id, tokens, owner)
    held = view["you"]["seats"]
    for seat in tokens:
        if seat not in held:
            await limiter.aspend("guess", client)
    if bot_to_act(view):
        bots.kick(game_id)
    return FastJSONResponse(view)


@router.post(
    "/api/games/{game_id}/join",
    response_model=GameView,
    responses=refusals(*BODY, 403, 404, 503),
)
async def join_game(
    request: Request,
    game_id: GameId,
    body: JoinIn,
    service: Service,
    hub: HubDep,
    tokens: SeatTokens,
    owner: Owner,
    secure: Secure,
    account: SignedIn,
) -> FastJSONResponse:
    """Claim a free seat with the invite code; the seat's token comes as a cookie (a
    rated game's seat only for a signed-in account with no other seat in it: 403)."""
    new_owner = owner or new_token()
    account_id = None if account is None else account.id
    token, version = await service.join(game_id, body.invite, body.seat, new_owner, account_id)
    await hub.announce(game_id, version)
    view = await service.view(game_id, {**tokens, body.seat: token}, new_owner)
    response = FastJSONResponse(view)
    root = root_of(request)
    set_seat_cookie(response, game_id, body.seat, token, secure, root)
    if owner is None:
        set_cookie(response, OWNER_COOKIE, new_owner, secure, root + "/")
    return response


@router.get(
    "/api/games/{game_id}/record",
    response_class=Response,
    responses={
        200: {
            "description": "The game record: rules, players, the turn log (the core's format)",
            "content": {"application/json": {"schema": {"type": "object"}}},
        },
        **refusals(404, 503),
    },
)
async def game_record(game_id: GameId, service: Service) -> Response:
    """The core game record (JSON) — the game's event log, replayable by ``yatzy``."""
    stored = await service.stored(game_id)
    return Response(stored.record, media_type="application/json")


@router.get(
    "/api/games/{game_id}/moves", response_model=list[MoveView], responses=refusals(404, 503)
)
async def game_moves(game_id: GameId, service: Service) -> FastJSONResponse:
    """Every stored action with its version and seat (the audit log)."""
    return FastJSONResponse(await service.moves(game_id))
