"""What the routes depend on, as FastAPI dependencies: the app's settings and the
objects its lifespan made (service, hub, bots), the viewer's owner cookie and seat
tokens, and whether its cookies must be ``Secure``.

Everything comes from ``app.state`` through these functions (the lifespan fills it,
:func:`yatzy.web.app.create_app` puts the settings there), so a route module holds
no state and no closure over the app.  ``HTTPConnection`` serves both HTTP routes
and the game's WebSocket.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi import Path as PathParam
from starlette.requests import HTTPConnection

from yatzy.store.accounts import Account
from yatzy.store.lobby import Invitation
from yatzy.web.accounts import (
    SESSION_COOKIE,
    AccountService,
    Hasher,
    NotSignedInError,
    check_csrf,
    is_account_owner,
    same_origin,
    with_account,
)
from yatzy.web.clocks import CHECK_EVERY, STAND_IN, Clock
from yatzy.web.daily import DailyChallenges
from yatzy.web.hub import BotRunner, Hub
from yatzy.web.invitations import Invitations
from yatzy.web.limits import Limits, OpenGames, RateLimiter
from yatzy.web.lobby import Lobby
from yatzy.web.messages import Messages
from yatzy.web.notifications import Notifier
from yatzy.web.passkeys import PasskeyService
from yatzy.web.responses import OWNER_COOKIE, tokens_of
from yatzy.web.service import GameService
from yatzy.web.tournaments import TournamentService

GAME_ID = r"^[0-9a-f]{32}$"
"""A game's id: 128 bits in hex."""

GameId = Annotated[str, PathParam(pattern=GAME_ID, description="the game's 128-bit id (hex)")]


@dataclass(frozen=True)
class WebSettings:
    """The settings :func:`yatzy.web.app.create_app` was given (see its docstring)."""

    database_url: str
    bot_delay: float = 0.6
    undo_grace: float = 0.0
    secure_cookies: bool = False
    server_gc: bool = False
    limits: Limits = field(default_factory=Limits.off)
    win_chances: bool = True
    win_budget: float = 0.2
    public_url: str | None = None
    """The app's address as its players reach it (scheme, host, path prefix), for
    the links it hands out; None: the request's own (its ``Host`` header)."""
    allowed_hosts: tuple[str, ...] = ()
    """The ``Host`` names the app answers (see :class:`yatzy.web.security.AllowedHosts`);
    empty: any."""
    hasher: Hasher = field(default_factory=Hasher)
    """Argon2id's cost for the accounts' passwords."""
    push_contact: str | None = None
    """The VAPID ``sub`` of the Web Push requests (``mailto:`` or ``https:``); None:
    the public URL where it is ``https``, else ``mailto:webmaster@localhost``."""
    push_loopback: bool = False
    """Whether a push endpoint may be a plain-HTTP loopback address (the tests' push
    service); else only ``https`` endpoints on a named host are taken."""
    jobs: str = "server"
    """Who runs the heavy jobs: ``server`` (this process's bounded pools) or
    ``workers`` (``yatzy worker`` processes, PostgreSQL only; see
    :mod:`yatzy.web.pg_jobs`)."""
    clock: Clock | None = None
    """Where the timed games' clocks get the time (None: the real time, or the test
    clock of :data:`yatzy.web.clocks.TEST_CLOCK_ENV` where that is set)."""
    stand_in: str = STAND_IN
    """The computer's level for an absent player whose play is not measured yet."""
    clock_every: float = CHECK_EVERY
    """Seconds between the server's looks for overdue clocks."""


def get_settings(conn: HTTPConnection) -> WebSettings:
    """The app's settings."""
    settings: WebSettings = conn.app.state.settings
    return settings


def get_daily(conn: HTTPConnection) -> DailyChallenges:
    """The daily challenges over the game service (made at the first call)."""
    state = conn.app.state
    daily: DailyChallenges | None = getattr(state, "daily", None)
    if daily is None or daily.service is not state.service:
        daily = state.daily = DailyChallenges(state.service)
    return daily


def get_tournaments(conn: HTTPConnection) -> TournamentService:
    """The tournaments over the game service (the lifespan makes it and runs its
    periodic task; made here at the first call where it did not)."""
    state = conn.app.state
    tournaments: TournamentService | None = getattr(state, "tournaments", None)
    if tournaments is None or tournaments.service is not state.service:
        tournaments = state.tournaments = TournamentService(state.service)
    return tournaments


def get_service(conn: HTTPConnection) -> GameService:
    """The game service the lifespan started."""
    service: GameService = conn.app.state.service
    return service


def get_hub(conn: HTTPConnection) -> Hub:
    """The hub of the games' WebSockets."""
    hub: Hub = conn.app.state.hub
    return hub


def get_bots(conn: HTTPConnection) -> BotRunner:
    """The runner of the bots' moves."""
    bots: BotRunner = conn.app.state.bots
    return bots


def get_open_games(conn: HTTPConnection) -> OpenGames:
    """The count of unfinished games per client (the cap on creating more)."""
    open_games: OpenGames = conn.app.state.open_games
    return open_games


def get_limiter(conn: HTTPConnection) -> RateLimiter:
    """The rate limits' buckets (the guesses a route counts itself among them)."""
    limiter: RateLimiter = conn.app.state.limiter
    return limiter


def public_base(request: Request) -> str:
    """The base of the links the app hands out (no trailing slash): the configured
    public URL, else the request's own base URL (which the ``Host`` header names,
    checked against the allowed hosts where those are set)."""
    settings: WebSettings = request.app.state.settings
    if settings.public_url:
        return settings.public_url.rstrip("/")
    return str(request.base_url).rstrip("/")


def get_accounts(conn: HTTPConnection) -> AccountService:
    """The accounts' service."""
    accounts: AccountService = conn.app.state.accounts
    return accounts


def get_messages(conn: HTTPConnection) -> Messages:
    """The games' free text between friends (:mod:`yatzy.web.messages`)."""
    messages: Messages = conn.app.state.messages
    return messages


def get_notifier(conn: HTTPConnection) -> Notifier:
    """The Web Push notifications of this process."""
    notifier: Notifier = conn.app.state.notifier
    return notifier


def get_passkeys(conn: HTTPConnection) -> PasskeyService:
    """The passkeys' service (made on first use)."""
    passkeys: PasskeyService | None = getattr(conn.app.state, "passkeys", None)
    if passkeys is None:
        passkeys = PasskeyService(get_service(conn).repo, get_accounts(conn))
        conn.app.state.passkeys = passkeys
    return passkeys


def get_lobby(conn: HTTPConnection) -> Lobby:
    """The lobby: seeks and the quick-match queue (made on first use; a test may put
    its own on ``app.state.lobby``, with its clock)."""
    state = conn.app.state
    lobby: Lobby | None = getattr(state, "lobby", None)
    if lobby is None or lobby.games.service is not state.service:
        lobby = state.lobby = Lobby(state.service, state.bots)
    return lobby


def get_invitations(conn: HTTPConnection) -> Invitations:
    """The invitations of friends into games (made on first use, over the lobby)."""
    state = conn.app.state
    lobby = get_lobby(conn)
    invitations: Invitations | None = getattr(state, "invitations", None)
    if invitations is None or invitations.lobby is not lobby:
        invitations = state.invitations = Invitations(lobby, get_accounts(conn).store)
        notifier: Notifier | None = getattr(state, "notifier", None)
        if notifier is not None:
            invitations.listeners.append(_invite_pusher(notifier))
    return invitations


def _invite_pusher(notifier: Notifier) -> Callable[[Invitation], None]:
    """The invitations' listener that tells the invited friend's devices (Web Push,
    ``invite``): queued, never blocking the invitation."""

    def push(invitation: Invitation) -> None:
        payload = {
            "game": invitation.game_id,
            "name": invitation.from_name,
            "rules": invitation.rules,
        }
        notifier.notify(invitation.to_id, "invite", payload)

    return push


async def account_of(conn: HTTPConnection) -> Account | None:
    """The account signed in by the request's session cookie, if any (guests: no
    query at all)."""
    session = conn.cookies.get(SESSION_COOKIE)
    if not session:
        return None
    return await get_accounts(conn).account_of(session)


SignedIn = Annotated[Account | None, Depends(account_of)]


async def note_account(request: Request, account: SignedIn) -> None:
    """Keep the signed-in account on the request, for the pages' header
    (``request.state.account``; a dependency of the page routers)."""
    request.state.account = account


async def owner_of(conn: HTTPConnection, account: SignedIn) -> str | None:
    """Whose games these are: the signed-in account's, else the browser's owner token
    (the ``yz_owner`` cookie), if it has one.  A cookie may not name an account's
    owner (see :data:`yatzy.store.accounts.ACCOUNT_OWNER_PREFIX`)."""
    if account is not None:
        return account.owner
    owner = conn.cookies.get(OWNER_COOKIE)
    return None if is_account_owner(owner) else owner


async def seat_tokens(conn: HTTPConnection, game_id: GameId, account: SignedIn) -> dict[int, str]:
    """The seat tokens of the game in the path that this request or socket holds; a
    signed-in account's session holds its seats too, from the app's own pages."""
    tokens = tokens_of(conn, game_id)
    if account is None or not same_origin(conn.headers, get_settings(conn).public_url):
        return tokens
    return await with_account(get_accounts(conn), game_id, tokens, account)


def secure_cookies(
    request: Request, settings: Annotated[WebSettings, Depends(get_settings)]
) -> bool:
    """Whether cookies set now must be ``Secure``: by the settings, or because the
    request came over HTTPS (as a trusted proxy reports it)."""
    return settings.secure_cookies or request.url.scheme == "https"


Settings = Annotated[WebSettings, Depends(get_settings)]
Accounts = Annotated[AccountService, Depends(get_accounts)]
Passkeys = Annotated[PasskeyService, Depends(get_passkeys)]
Push = Annotated[Notifier, Depends(get_notifier)]
MessagesDep = Annotated[Messages, Depends(get_messages)]
LobbyDep = Annotated[Lobby, Depends(get_lobby)]
InvitationsDep = Annotated[Invitations, Depends(get_invitations)]
Service = Annotated[GameService, Depends(get_service)]
Daily = Annotated[DailyChallenges, Depends(get_daily)]
Tournaments = Annotated[TournamentService, Depends(get_tournaments)]
HubDep = Annotated[Hub, Depends(get_hub)]
Bots = Annotated[BotRunner, Depends(get_bots)]
OpenGamesDep = Annotated[OpenGames, Depends(get_open_games)]
Limiter = Annotated[RateLimiter, Depends(get_limiter)]
Owner = Annotated[str | None, Depends(owner_of)]
SeatTokens = Annotated[dict[int, str], Depends(seat_tokens)]
Secure = Annotated[bool, Depends(secure_cookies)]


def signed_in_only(reason: str = "not signed in") -> Any:
    """The dependency of a route for accounts only: the signed-in account, else
    :class:`yatzy.web.accounts.NotSignedInError` (401) with ``reason``.  As a
    dependency it answers before the route runs (and before a body is checked)."""

    async def need_account(account: SignedIn) -> Account:
        if account is None:
            raise NotSignedInError(reason)
        return account

    return Depends(need_account)


Member = Annotated[Account, signed_in_only()]
"""The signed-in account of a route for accounts only (401 ``not signed in`` for a
guest); a router with a reason of its own makes its own with :func:`signed_in_only`."""


def csrf_checked(request: Request, settings: Settings) -> None:
    """Refuse (403, :func:`yatzy.web.accounts.check_csrf`) a state-changing request
    without the ``X-Yatzy-CSRF: 1`` header or from another origin."""
    check_csrf(request.headers, settings.public_url)


CsrfChecked = Depends(csrf_checked)
"""``dependencies=[CsrfChecked]``: the route wants the CSRF header and the app's own
origin (:func:`csrf_checked`)."""
