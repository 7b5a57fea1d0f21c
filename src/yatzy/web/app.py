"""The FastAPI application: JSON API, WebSocket, pages.  Routes are thin adapters.

Seats are held by secret tokens in HttpOnly cookies named ``yz_<game>_<seat>``,
sent only to that game's API (path ``/api/games/<game>``); API clients may send
``X-Seat-Token: <seat>:<token>`` instead.  The browser's ``yz_owner`` cookie ties
its games together for the history and solo records.  Actions come as ``POST
/api/games/<game>/actions`` or over the game's WebSocket (:func:`yatzy.web.sockets.socket_session`);
both end in :func:`yatzy.web.transport.act_json`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import inspect
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Annotated, Any, Literal

import orjson
from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool

from yatzy import __version__
from yatzy.errors import YatzyError
from yatzy.rules import LANGUAGES, OPTIONS, VARIANTS, Language
from yatzy.store import GameRepository, NotFoundError
from yatzy.store.db import database_url as normalise_url
from yatzy.store.retention import prune_periodically
from yatzy.web.bodies import (
    ActIn,
    CreateGameIn,
    JoinIn,
)
from yatzy.web.chances import LiveChances
from yatzy.web.hints import advisor_available
from yatzy.web.hub import BotRunner, Hub
from yatzy.web.inputs import REFUSALS, StrictJSONRoute, request_validation_error
from yatzy.web.limits import (
    ClientAddress,
    Limits,
    OpenGames,
    RateLimiter,
    RateLimits,
    TooManySocketsError,
    client_of,
)
from yatzy.web.pages import root_of
from yatzy.web.pages import router as pages_router
from yatzy.web.responses import (
    OWNER_COOKIE,
    FastJSONResponse,
    error_response,
    set_cookie,
    set_seat_cookie,
    status_of,
    tokens_of,
)
from yatzy.web.security import BodyTimeout, SecurityHeaders
from yatzy.web.service import (
    GameService,
    SeatRequest,
    bot_levels,
    new_token,
)
from yatzy.web.sockets import socket_session
from yatzy.web.transport import ActionFastPath, BodyLimit, act_json
from yatzy.web.win_jobs import WinAnalyses

HERE = Path(__file__).parent
GAME_ID = r"^[0-9a-f]{32}$"

GameId = Annotated[str, PathParam(pattern=GAME_ID, description="the game's 128-bit id (hex)")]
Lang = Language  # the languages of the catalog (yatzy.i18n)


# -- helpers ----------------------------------------------------------------------------------


class _App(FastAPI):
    """FastAPI with :class:`ActionFastPath` in front of its whole middleware stack
    (FastAPI's own error, telemetry and body-size layers included), and before
    that the security headers, the client's address, the body's deadline and
    size, and the rate limits (see :mod:`yatzy.web.limits`)."""

    limits: Limits = Limits.off()
    limiter: RateLimiter | None = None

    def build_middleware_stack(self) -> Any:
        """The usual stack behind the outer layers (those switched off are left out)."""
        stack: Any = ActionFastPath(super().build_middleware_stack())
        if self.limiter is not None and self.limiter.buckets:
            stack = RateLimits(stack, self.limiter)
        stack = BodyLimit(stack)
        if self.limits.body_timeout is not None:
            stack = BodyTimeout(stack, self.limits.body_timeout)
        if self.limits.trusted_proxies:
            stack = ClientAddress(stack, self.limits.trusted_proxies)
        return SecurityHeaders(stack)


# -- the app ------------------------------------------------------------------------------------


def _no_telemetry() -> dict[str, Any]:
    """FastAPI's OpenTelemetry bridge (newer FastAPI releases) looks up the global
    providers on every request — measured ~3% of the CPU of an action — and this app
    exports nothing: switch it off where FastAPI has it."""
    if "telemetry" not in inspect.signature(FastAPI.__init__).parameters:
        return {}
    return {"telemetry": {"tracing": False, "metrics": False, "logs": False}}


def create_app(
    database_url: str | None = None,
    *,
    bot_delay: float = 0.6,
    secure_cookies: bool = False,
    server_gc: bool = False,
    limits: Limits | None = None,
    win_chances: bool = True,
    win_budget: float = 0.2,
) -> FastAPI:
    """The web app over the database at ``database_url`` (migrated on start).

    ``server_gc`` tunes the garbage collector of the process for serving (see
    :func:`_tune_gc`); the server process sets it, tests and embedders need not.
    ``limits`` are the abuse limits (:class:`Limits`; ``yatzy serve`` passes its
    defaults and options); left out, nothing is limited, as suits tests and
    embedding.  Cookies are ``Secure`` with ``secure_cookies`` or whenever the
    request came over HTTPS (as a trusted proxy reports it).  ``win_chances`` puts
    every multi-seat game's live win chances in its views, each computed in the
    background within ``win_budget`` CPU seconds (:class:`LiveChances`), and its
    post-game analysis in win chance ``win_budget`` CPU seconds per position
    (:class:`WinAnalyses`; both off without ``win_chances``).
    """
    url = normalise_url(database_url)
    limits = limits or Limits.off()
    open_games = OpenGames(limits.open_games)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        repo = await run_in_threadpool(GameRepository.open, url)
        chances = LiveChances(budget=win_budget, enabled=win_chances)
        analyses = WinAnalyses(budget=win_budget, enabled=win_chances)
        service = GameService(repo, chances=chances, win_analyses=analyses)
        hub = Hub(service)
        loop = asyncio.get_running_loop()

        def notify(game_id: str, version: int, answer: dict[str, Any]) -> None:
            # From the computing thread: the sockets are the event loop's.
            loop.call_soon_threadsafe(hub.send_chances, game_id, version, answer)

        chances.notify = notify
        bots = BotRunner(service, hub, bot_delay)
        app.state.service, app.state.hub, app.state.bots = service, hub, bots
        listener = None
        if repo.asyncpg_dsn is not None:
            listener = asyncio.get_running_loop().create_task(hub.listen_postgres(repo.asyncpg_dsn))
        for game_id in await run_in_threadpool(repo.unfinished_with_bots):
            bots.kick(game_id)  # resume bots of games interrupted by a restart
        pruner = None
        if limits.retention_days is not None:
            pruner = asyncio.get_running_loop().create_task(
                prune_periodically(repo, limits.retention_days)
            )
        if server_gc:
            _tune_gc()
        try:
            yield
        finally:
            chances.stop()
            analyses.stop()
            await bots.stop()
            if pruner is not None:
                pruner.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await pruner
            if listener is not None:
                listener.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await listener
            await repo.aclose()
            repo.close()

    app = _App(
        title="yatzy",
        version=__version__,
        description="Nordic Yatzy and its variants, played in the browser.  The core engine "
        "decides every rule; the server rolls every die.",
        lifespan=lifespan,
        default_response_class=FastJSONResponse,
        responses=REFUSALS,
        **_no_telemetry(),
    )
    app.limits = limits
    app.limiter = RateLimiter(limits)
    app.state.limiter = app.limiter
    app.state.limits = limits
    # Bodies parsed by orjson: NaN, Infinity, 1e400 and lone surrogates are not JSON.
    app.router.route_class = StrictJSONRoute
    app.add_exception_handler(RequestValidationError, request_validation_error)
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    app.include_router(pages_router)

    @app.exception_handler(YatzyError)
    async def _yatzy_error(_request: Request, exc: YatzyError) -> JSONResponse:
        return error_response(status_of(exc), exc)

    def service(request: Request | WebSocket) -> GameService:
        svc: GameService = request.app.state.service
        return svc

    def owner_of(request: Request) -> str | None:
        return request.cookies.get(OWNER_COOKIE)

    def secure(request: Request) -> bool:
        return secure_cookies or request.url.scheme == "https"

    @app.get("/owner", include_in_schema=False)
    async def adopt_local_owner(request: Request, token: str = "") -> Response:
        """Give this browser the owner of this computer's terminal games (the link that
        ``yatzy serve`` prints), so that its history and statistics show them; the
        browser's own games move along."""
        from yatzy.store.local import adopt_owner, existing_local_owner, owner_hash

        local = existing_local_owner()
        if local is None or not hmac.compare_digest(token.encode(), local.encode()):
            detail = "not the link 'yatzy serve' printed on this computer"
            return JSONResponse({"detail": detail, "error": "Forbidden"}, status_code=403)
        old = owner_of(request)
        if old and old != local:
            repo = service(request).repo
            await run_in_threadpool(adopt_owner, repo, owner_hash(old), owner_hash(local))
        response = RedirectResponse(root_of(request) + "/history", status_code=303)
        set_cookie(response, OWNER_COOKIE, local, secure(request), root_of(request) + "/")
        return response

    # -- API -------------------------------------------------------------------------------

    @app.get("/api/rules", tags=["api"])
    async def rules_info() -> dict[str, Any]:
        """Rule sets, their options, languages, bot levels and whether hints exist."""
        return {
            "variants": {
                v.name: {
                    "title": dict(v.title),
                    "num_dice": v.num_dice,
                    "options": [
                        {
                            "name": o,
                            "kind": OPTIONS[o].kind,
                            "choices": list(OPTIONS[o].choices),
                            "help": OPTIONS[o].help,
                            "default": v.defaults.get(o),
                        }
                        for o in v.options
                    ],
                }
                for v in VARIANTS.values()
            },
            "languages": list(LANGUAGES),
            "bots": bot_levels(),
            "hints": advisor_available(),
        }

    @app.post("/api/games", status_code=201, tags=["api"])
    async def create_game(request: Request, body: CreateGameIn) -> JSONResponse:
        """Create a game; seats marked ``here`` are claimed by this browser.

        429 when this client holds as many unfinished games as it may."""
        owner = owner_of(request)
        client = client_of(request.scope)
        if open_games.full(client):
            unfinished = service(request).repo.unfinished_among
            await run_in_threadpool(open_games.admit, client, unfinished)
        created = await service(request).create_async(
            body.rules,
            body.lang,
            [SeatRequest(s.name, s.bot, s.here) for s in body.seats],
            pad=body.pad,
            hints=body.hints,
            owner=owner,
        )
        gid = created.game_id
        open_games.created(client, gid)
        view = await service(request).created_view_async(created)
        base = str(request.base_url).rstrip("/")
        payload = {
            "id": gid,
            "url": f"{base}/g/{gid}",
            "invite_url": f"{base}/g/{gid}?invite={created.invite}",
            "invite": created.invite,
            "spectate_url": f"{base}/g/{gid}",
            "game": view,
        }
        response = FastJSONResponse(payload, status_code=201)
        for seat, token in created.tokens.items():
            set_seat_cookie(response, gid, seat, token, secure(request), root_of(request))
        if owner is None:
            set_cookie(
                response, OWNER_COOKIE, created.owner, secure(request), root_of(request) + "/"
            )
        turn = view["turn"]
        if turn is not None and view["players"][turn["seat"]]["bot"]:
            request.app.state.bots.kick(gid)
        return response

    @app.get("/api/games/{game_id}", tags=["api"])
    async def get_game(request: Request, game_id: GameId) -> dict[str, Any]:
        """The game as this viewer sees it (spectators: ``you.seats`` is empty)."""
        view = await service(request).view_async(
            game_id, tokens_of(request, game_id), owner_of(request)
        )
        turn = view["turn"]
        if turn is not None and view["players"][turn["seat"]]["bot"]:
            request.app.state.bots.kick(game_id)
        return view

    @app.post("/api/games/{game_id}/join", tags=["api"])
    async def join_game(request: Request, game_id: GameId, body: JoinIn) -> JSONResponse:
        """Claim a free seat with the invite code; the seat's token comes as a cookie."""
        owner = owner_of(request)
        new_owner = owner or new_token()
        token, version = await run_in_threadpool(
            service(request).join, game_id, body.invite, body.seat, new_owner
        )
        await request.app.state.hub.announce(game_id, version)
        tokens = {**tokens_of(request, game_id), body.seat: token}
        view = await run_in_threadpool(service(request).view, game_id, tokens, new_owner)
        response = FastJSONResponse(view)
        set_seat_cookie(response, game_id, body.seat, token, secure(request), root_of(request))
        if owner is None:
            set_cookie(response, OWNER_COOKIE, new_owner, secure(request), root_of(request) + "/")
        return response

    @app.post("/api/games/{game_id}/actions", tags=["api"])
    async def act(request: Request, game_id: GameId, body: ActIn) -> Response:
        """Apply an action of a seat this browser holds (default: the player to act).

        4xx with a reason for anything illegal (nothing changes); 409 when another
        action got in first or ``version`` is stale.
        """
        answer = await act_json(
            request.app.state,
            game_id,
            body,
            tokens_of(request, game_id),
            owner_of(request),
        )
        return Response(answer, media_type="application/json")

    @app.get("/api/games/{game_id}/record", tags=["api"])
    async def game_record(request: Request, game_id: GameId) -> Response:
        """The core game record (JSON) — the game's event log, replayable by ``yatzy``."""
        stored = await run_in_threadpool(service(request).repo.get, game_id)
        return Response(stored.record, media_type="application/json")

    @app.get(
        "/api/games/{game_id}/protocol.{fmt}",
        tags=["api"],
        response_class=Response,
        responses={
            200: {
                "content": {
                    "application/pdf": {},
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": {},
                }
            }
        },
    )
    async def game_protocol(
        request: Request,
        game_id: GameId,
        fmt: Literal["pdf", "xlsx"],
        lang: Lang | None = None,
    ) -> Response:
        """The game's protocol (ongoing or finished) as a printable PDF or an Excel
        sheet with live formulas, in the game's language unless ``lang`` is given."""
        stored = await run_in_threadpool(service(request).repo.get, game_id)
        body = await run_in_threadpool(_protocol_file, stored.record, fmt, lang or stored.lang)
        return Response(
            body,
            media_type=_PROTOCOL_TYPES[fmt],
            headers={"Content-Disposition": f'attachment; filename="yatzy-{game_id}.{fmt}"'},
        )

    @app.get("/api/games/{game_id}/moves", tags=["api"])
    async def game_moves(request: Request, game_id: GameId) -> list[dict[str, Any]]:
        """Every stored action with its version and seat (the audit log)."""
        await run_in_threadpool(service(request).repo.get, game_id)
        return await run_in_threadpool(service(request).repo.moves, game_id)

    @app.get("/api/games/{game_id}/analysis", tags=["api"])
    async def game_analysis(
        request: Request, game_id: GameId, lang: Lang | None = None
    ) -> dict[str, Any]:
        """Every person's decisions against the best play, in words in the game's
        language (or ``lang``): own turn numbers, costliest choices, the expected final
        score turn by turn (``{"pending": true}`` while the strategy is prepared; a
        score pad game says what its data allows)."""
        return await run_in_threadpool(service(request).analysis, game_id, lang)

    @app.get("/api/games/{game_id}/win-analysis", tags=["api"])
    async def game_win_analysis(
        request: Request, game_id: GameId, lang: Lang | None = None
    ) -> dict[str, Any]:
        """A finished game's analysis in win chance: every player's chance turn by turn
        (the chart) and each person's decisions with the change in chance they caused
        beside the points (solo: the chance of beating the owner's earlier record),
        ``{"pending": true}`` while it is computed in the background."""
        owner = owner_of(request)
        return await run_in_threadpool(service(request).win_analysis, game_id, lang, owner)

    @app.get("/api/history", tags=["api"])
    async def history(request: Request, lang: Lang = "en") -> list[dict[str, Any]]:
        """The games of this browser, newest first, with dates and rules in words."""
        owner = owner_of(request)
        if not owner:
            return []
        return await run_in_threadpool(service(request).history, owner, lang)

    @app.get("/api/stats", tags=["api"])
    async def statistics(request: Request, lang: Lang = "en") -> dict[str, Any]:
        """This browser's seats in finished games per rule set: games, average, best,
        bonus and Yatzy rates, solo record."""
        owner = owner_of(request)
        if not owner:
            return {"lang": lang, "variants": [], "games": 0}
        return await run_in_threadpool(service(request).stats, owner, lang)

    @app.websocket("/api/games/{game_id}/ws")
    async def game_socket(ws: WebSocket, game_id: str) -> None:
        """Live views of the game, and its actions: see :func:`socket_session`."""
        if not re.fullmatch(GAME_ID, game_id):
            await ws.close(code=4404)
            return
        try:
            view = await service(ws).public_view_async(game_id)
        except NotFoundError:
            await ws.close(code=4404)
            return
        hub: Hub = ws.app.state.hub
        if limits.sockets_per_game is not None and hub.count(game_id) >= limits.sockets_per_game:
            full = TooManySocketsError(
                f"game {game_id} has {limits.sockets_per_game} live sockets, the most it may"
            )
            if "websocket.http.response" in ws.scope.get("extensions", {}):
                await ws.send_denial_response(error_response(status_of(full), full))
            else:
                await ws.close(code=1013, reason=str(full)[:120])
            return
        await ws.accept()
        # ?chances=1: this client also takes {"type": "chances"} messages (the game page).
        hub.subscribe(game_id, ws, chances=ws.query_params.get("chances") == "1")
        try:
            await ws.send_text(orjson.dumps({"type": "state", "game": view}).decode())
            turn = view["turn"]
            if turn is not None and view["players"][turn["seat"]]["bot"]:
                ws.app.state.bots.kick(game_id)
            await socket_session(ws, game_id)
        except WebSocketDisconnect:
            pass
        finally:
            hub.unsubscribe(game_id, ws)

    @app.exception_handler(404)
    async def _not_found(request: Request, exc: Exception) -> Response:
        detail = getattr(exc, "detail", "not found")
        return JSONResponse({"detail": detail, "error": "NotFound"}, status_code=404)

    return app


_PROTOCOL_TYPES = {
    "pdf": "application/pdf",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


def _protocol_file(record: str, fmt: str, lang: Any) -> bytes:
    """Render a stored game's protocol (the protocols adapter, imported on first use)."""
    import io

    from yatzy.game import loads
    from yatzy.protocols import Protocol

    protocol = Protocol.from_state(loads(record), lang)
    out = io.BytesIO()
    if fmt == "pdf":
        from yatzy.protocols.pdf import write_pdf

        write_pdf(protocol, out)
    else:
        from yatzy.protocols.xlsx import write_xlsx

        write_xlsx(protocol, out)
    return out.getvalue()


def _tune_gc() -> None:
    """Keep the cyclic garbage collector off the request path of a server process.

    Measured on the benchmark: a full collection walked the ~115,000 objects of the
    imported modules in 80-170 ms, stalling every request in flight, and young
    collections took a tenth of the CPU.  Everything alive after start-up is moved
    to the permanent generation (never walked again), and the youngest generation
    is collected after 20,000 allocations instead of 700, so most of a request's
    temporary objects are freed by reference counting before a collection sees
    them.  Cycles are still collected, only less often.
    """
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 10, 10)


def app_from_env() -> FastAPI:
    """The app configured by ``YATZY_DATABASE_URL``, ``YATZY_BOT_DELAY``,
    ``YATZY_LIMITS`` (JSON of :class:`Limits`; default: its defaults) and
    ``YATZY_WIN_BUDGET`` (CPU seconds per live win-chance update; 0 switches them
    off; default 0.2), for uvicorn."""
    import os

    limits = os.environ.get("YATZY_LIMITS")
    budget = float(os.environ.get("YATZY_WIN_BUDGET", "0.2"))
    return create_app(
        os.environ.get("YATZY_DATABASE_URL") or None,
        bot_delay=float(os.environ.get("YATZY_BOT_DELAY", "0.6")),
        server_gc=True,
        limits=Limits.from_json(limits) if limits else Limits(),
        win_chances=budget > 0,
        win_budget=budget,
    )
