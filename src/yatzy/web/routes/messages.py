"""A game's free text between friends (:mod:`yatzy.web.messages`): reading the lines
the signed-in player may see, and writing one to their friends among the players.

Writing is a state-changing account request: it wants the ``X-Yatzy-CSRF: 1`` header
and the app's own origin (:func:`yatzy.web.accounts.check_csrf`), and has a rate
limit of its own (``text``, per account).
"""

from __future__ import annotations

from fastapi import APIRouter, Query, Request

from yatzy.web.accounts import check_csrf
from yatzy.web.bodies import MessageIn
from yatzy.web.deps import GameId, Limiter, MessagesDep, Settings, SignedIn
from yatzy.web.inputs import BODY, StrictJSONRoute, refusals
from yatzy.web.messages import MessagesView

router = APIRouter(tags=["api"], route_class=StrictJSONRoute)


@router.get(
    "/api/games/{game_id}/messages",
    response_model=MessagesView,
    responses=refusals(403, 404, 503),
)
async def read_messages(
    game_id: GameId,
    account: SignedIn,
    messages: MessagesDep,
    after: int = Query(default=0, ge=0, le=2**53, description="only lines after this id"),
) -> MessagesView:
    """The game's free text that this signed-in player may read: their own lines,
    and those their friends among the players wrote to them (while still friends).
    403 for a guest or anyone who holds no seat of the game by their account."""
    return await messages.read(game_id, account, after)


@router.post(
    "/api/games/{game_id}/messages",
    status_code=201,
    response_model=MessagesView,
    responses=refusals(*BODY, 403, 404, 503),
)
async def write_message(
    request: Request,
    game_id: GameId,
    body: MessageIn,
    account: SignedIn,
    messages: MessagesDep,
    limiter: Limiter,
    settings: Settings,
) -> MessagesView:
    """Write a line (1 to 200 characters) to your friends among the game's other
    players; only they and you ever read it.  403 without the CSRF header, for a
    guest, a spectator or a player with no friend in the game; 422 for an empty or
    too long line or one with control characters (nothing is stored); 429 past the
    ``text`` limit.  The answer: every line this player now reads."""
    check_csrf(request.headers, settings.public_url)
    if account is not None:
        await limiter.acheck("text", "account:" + account.id)
    await messages.write(game_id, account, body.text)
    return await messages.read(game_id, account)
