"""What the routes depend on, as FastAPI dependencies: the app's settings and the
objects its lifespan made (service, hub, bots), the viewer's owner cookie and seat
tokens, and whether its cookies must be ``Secure``.

Everything comes from ``app.state`` through these functions (the lifespan fills it,
:func:`yatzy.web.app.create_app` puts the settings there), so a route module holds
no state and no closure over the app.  ``HTTPConnection`` serves both HTTP routes
and the game's WebSocket.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends, Request
from fastapi import Path as PathParam
from starlette.requests import HTTPConnection

from yatzy.web.hub import BotRunner, Hub
from yatzy.web.limits import Limits, OpenGames, RateLimiter
from yatzy.web.responses import OWNER_COOKIE, tokens_of
from yatzy.web.service import GameService

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
    jobs: str = "server"
    """Who runs the heavy jobs: ``server`` (this process's bounded pools) or
    ``workers`` (``yatzy worker`` processes, PostgreSQL only; see
    :mod:`yatzy.web.pg_jobs`)."""


def get_settings(conn: HTTPConnection) -> WebSettings:
    """The app's settings."""
    settings: WebSettings = conn.app.state.settings
    return settings


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


def owner_of(conn: HTTPConnection) -> str | None:
    """The browser's owner token (the ``yz_owner`` cookie), if it has one."""
    return conn.cookies.get(OWNER_COOKIE)


def seat_tokens(conn: HTTPConnection, game_id: GameId) -> dict[int, str]:
    """The seat tokens of the game in the path that this request or socket holds."""
    return tokens_of(conn, game_id)


def secure_cookies(
    request: Request, settings: Annotated[WebSettings, Depends(get_settings)]
) -> bool:
    """Whether cookies set now must be ``Secure``: by the settings, or because the
    request came over HTTPS (as a trusted proxy reports it)."""
    return settings.secure_cookies or request.url.scheme == "https"


Settings = Annotated[WebSettings, Depends(get_settings)]
Service = Annotated[GameService, Depends(get_service)]
HubDep = Annotated[Hub, Depends(get_hub)]
Bots = Annotated[BotRunner, Depends(get_bots)]
OpenGamesDep = Annotated[OpenGames, Depends(get_open_games)]
Limiter = Annotated[RateLimiter, Depends(get_limiter)]
Owner = Annotated[str | None, Depends(owner_of)]
SeatTokens = Annotated[dict[int, str], Depends(seat_tokens)]
Secure = Annotated[bool, Depends(secure_cookies)]
