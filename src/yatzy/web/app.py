"""The FastAPI application: JSON API, WebSocket, pages.  Routes are thin adapters.

Seats are held by secret tokens in HttpOnly cookies named ``yz_<game>_<seat>``,
sent only to that game's API (path ``/api/games/<game>``); API clients may send
``X-Seat-Token: <seat>:<token>`` instead.  The browser's ``yz_owner`` cookie ties
its games together for the history and solo records.  Actions come as ``POST
/api/games/<game>/actions`` or over the game's WebSocket (:func:`socket_session`);
both end in :func:`act_json`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import inspect
import json
import re
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

import orjson
from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.requests import cookie_parser
from starlette.types import Receive, Scope, Send

from yatzy import __version__
from yatzy.errors import GameOverError, NotYourTurnError, YatzyError
from yatzy.rules import LANGUAGES, OPTIONS, VARIANTS
from yatzy.store import ConflictError, GameRepository, NotFoundError, UnavailableError
from yatzy.store.db import database_url as normalise_url
from yatzy.store.retention import prune_periodically
from yatzy.web.bodies import (
    MAX_REF,
    ActIn,
    ActionIn,
    CreateGameIn,
    JoinIn,
    SocketActIn,
)
from yatzy.web.chances import LiveChances
from yatzy.web.hints import advisor_available
from yatzy.web.hub import BotRunner, Hub
from yatzy.web.inputs import REFUSALS, StrictJSONRoute, reasons, request_validation_error
from yatzy.web.limits import (
    ClientAddress,
    Limits,
    OpenGames,
    RateLimitedError,
    RateLimiter,
    RateLimits,
    TooManyGamesError,
    TooManySocketsError,
    client_of,
    retry_after,
)
from yatzy.web.pages import root_of
from yatzy.web.pages import router as pages_router
from yatzy.web.security import BodyTimeout, SecurityHeaders
from yatzy.web.service import (
    GameService,
    InviteError,
    SeatError,
    SeatRequest,
    bot_levels,
    new_token,
)

HERE = Path(__file__).parent
MAX_BODY = 16 * 1024
OWNER_COOKIE = "yz_owner"
COOKIE_AGE = 400 * 24 * 3600
GAME_ID = r"^[0-9a-f]{32}$"
IDLE_CLOSE = 4408
"""The close code of a WebSocket closed for being idle (see :func:`socket_session`)."""

GameId = Annotated[str, PathParam(pattern=GAME_ID, description="the game's 128-bit id (hex)")]
Lang = Literal["sv", "fi", "en"]


# -- helpers ----------------------------------------------------------------------------------


class FastJSONResponse(JSONResponse):
    """JSON through orjson: the game views are the bulk of every answer, and orjson
    encodes them several times faster than the standard library (same JSON text:
    UTF-8, no NaN, keys in order)."""

    def render(self, content: Any) -> bytes:
        """``content`` as compact UTF-8 JSON."""
        return orjson.dumps(content)


def _refusal(exc: Exception) -> dict[str, str]:
    """The body of every refusal: the reason and the error's name."""
    return {"detail": str(exc), "error": type(exc).__name__}


def _error(status: int, exc: Exception) -> JSONResponse:
    headers = {"Retry-After": retry_after(exc)} if isinstance(exc, RateLimitedError) else None
    return FastJSONResponse(_refusal(exc), status_code=status, headers=headers)


def _status(exc: YatzyError) -> int:
    if isinstance(exc, NotFoundError):
        return 404
    if isinstance(exc, SeatError | InviteError):
        return 403
    if isinstance(exc, UnavailableError):
        return 503
    if isinstance(exc, RateLimitedError | TooManyGamesError | TooManySocketsError):
        return 429
    if isinstance(exc, ConflictError | GameOverError | NotYourTurnError):
        return 409
    return 422


def _tokens(request: Request | WebSocket, game_id: str) -> dict[int, str]:
    return _seat_tokens(request.cookies, request.headers.get("x-seat-token"), game_id)


def _seat_tokens(cookies: Mapping[str, str], header: str | None, game_id: str) -> dict[int, str]:
    """The seat tokens a request holds: cookies ``yz_<game>_<seat>`` and the
    ``X-Seat-Token: <seat>:<token>[, ...]`` header."""
    prefix = f"yz_{game_id}_"
    out: dict[int, str] = {}
    for name, value in cookies.items():
        if name.startswith(prefix) and name[len(prefix) :].isdigit():
            out[int(name[len(prefix) :])] = value
    if header:
        for part in header.split(","):
            seat, _, token = part.strip().partition(":")
            if seat.isdigit() and token:
                out[int(seat)] = token
    return out


def _set_cookie(response: Response, name: str, value: str, secure: bool, path: str = "/") -> None:
    response.set_cookie(
        name, value, max_age=COOKIE_AGE, httponly=True, samesite="strict", secure=secure, path=path
    )


def _set_seat_cookie(
    response: Response, game_id: str, seat: int, token: str, secure: bool, root: str = ""
) -> None:
    # Scoped to the game's API (under the app's path prefix, ``root``): a browser sends
    # it only there, so the cookies of all the games it ever played do not ride along
    # with every request.
    path = f"{root}/api/games/{game_id}"
    _set_cookie(response, f"yz_{game_id}_{seat}", token, secure, path=path)


def _action_json(action: ActionIn) -> dict[str, Any]:
    return action.model_dump(exclude_none=True)


async def _read_body(receive: Receive, limit: int) -> bytes | None:
    """The whole request body, or None when the client went away; reading stops
    once more than ``limit`` bytes came (what came is returned, longer than ``limit``)."""
    chunks = []
    size = 0
    more = True
    while more and size <= limit:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunks.append(message.get("body", b""))
        size += len(chunks[-1])
        more = message.get("more_body", False)
    return b"".join(chunks)


def _replaying(body: bytes, receive: Receive) -> Receive:
    """An ASGI ``receive`` that hands on ``body`` (read already) as one message, then
    whatever comes next."""
    first: dict[str, Any] | None = {"type": "http.request", "body": body, "more_body": False}

    async def replay() -> Any:
        nonlocal first
        if first is not None:
            message, first = first, None
            return message
        return await receive()

    return replay


class BodyLimit:
    """ASGI middleware in front of everything: a request body over ``limit`` bytes
    gets 413 before any route runs.

    The body (small by then) is read whole first and handed on as one message, so a
    body sent in chunks without a length is refused by its size just the same.
    """

    def __init__(self, app: Any, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
    ) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await self._refuse(scope, receive, send)
            return
        body = await _read_body(receive, self.limit)
        if body is None:
            return  # the client went away
        if len(body) > self.limit:
            await self._refuse(scope, receive, send)
            return
        await self.app(scope, _replaying(body, receive), send)

    async def _refuse(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
    ) -> None:
        answer = {"detail": f"request body over {self.limit} bytes", "error": "TooLarge"}
        await JSONResponse(answer, 413)(scope, receive, send)


ACTIONS_PATH = re.compile(r"/api/games/([0-9a-f]{32})/actions")
JSON_HEADERS = [(b"content-type", b"application/json")]


class ActionFastPath:
    """ASGI middleware in front of FastAPI: well-formed actions skip its machinery.

    Actions are the one hot route (every click of a game).  A ``POST`` of a JSON
    body that validates as :class:`ActIn` goes straight to :func:`act_json` — the
    same function the documented FastAPI route calls — and its answer is sent as
    raw ASGI messages.  Anything else (another route, a malformed or invalid body,
    another content type) goes on to the app unchanged, so every error keeps
    FastAPI's exact answer.  :class:`BodyLimit` runs before it.
    """

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
    ) -> None:
        match = None
        if scope["type"] == "http" and scope["method"] == "POST":
            path = scope["path"]
            root = scope.get("root_path", "")
            if root and path.startswith(root):
                path = path[len(root) :]  # the ASGI path includes the app's prefix
            match = ACTIONS_PATH.fullmatch(path)
        if match is None:
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        body = await _read_body(receive, MAX_BODY)  # one message: BodyLimit read it whole
        if body is None:
            return  # the client went away
        parsed: ActIn | None = None
        content_type = headers.get(b"content-type", b"")
        if content_type.split(b";")[0].strip() == b"application/json":
            with contextlib.suppress(ValidationError):
                parsed = ActIn.model_validate_json(body)
        if parsed is None:
            await self.app(scope, _replaying(body, receive), send)
            return
        cookie = headers.get(b"cookie")
        cookies = cookie_parser(cookie.decode("latin-1")) if cookie else {}
        seat_header = headers.get(b"x-seat-token")
        tokens = _seat_tokens(
            cookies, seat_header.decode("latin-1") if seat_header else None, match.group(1)
        )
        status = 200
        try:
            answer = await act_json(
                scope["app"].state, match.group(1), parsed, tokens, cookies.get(OWNER_COOKIE)
            )
        except YatzyError as exc:
            status = _status(exc)
            answer = orjson.dumps(_refusal(exc))
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [*JSON_HEADERS, (b"content-length", str(len(answer)).encode())],
            }
        )
        await send({"type": "http.response.body", "body": answer})


async def act_json(
    app_state: Any,
    game_id: str,
    body: ActIn,
    tokens: dict[int, str],
    owner: str | None,
    answered: WebSocket | None = None,
) -> bytes:
    """Apply an action for the seats of ``tokens``; the game as JSON for this viewer.

    The move reaches the game's WebSocket clients (but ``answered``, the socket the
    action came by, which gets this answer instead), and its bots are started when
    one of them is to act next.  A :class:`YatzyError` means nothing changed.
    """
    public, you, bot_next = await app_state.service.act_view_async(
        game_id, _action_json(body.action), tokens, body.seat, body.version, owner
    )
    public_json = orjson.dumps(public)
    await app_state.hub.announce(game_id, public["version"], public_json, skip=answered)
    if bot_next:
        app_state.bots.kick(game_id)
    # {**public, "you": you} without encoding the view a second time
    return public_json[:-1] + b',"you":' + orjson.dumps(you) + b"}"


async def socket_session(ws: WebSocket, game_id: str) -> None:
    """Answer the actions that come over a game's WebSocket until it closes.

    Every change of the game comes as ``{"type": "state", "game": view}``.  A client
    may also act here, as ``POST .../actions`` does but without a request per
    click: it sends ``{"type": "act", "ref": n, "action": ..., "seat": ...,
    "version": ...}`` and gets ``{"type": "state", "ref": n, "game": view}`` (with
    ``you``, the action's answer, instead of the plain update) or ``{"type":
    "error", "ref": n, "status": 4xx, "error": name, "detail": reason}``, after
    which nothing changed.  The seats it acts for are those of the cookies and
    ``X-Seat-Token`` of the socket's opening request; a page of another origin may
    watch but not act (its browser would send the player's cookies along).

    A socket that sent nothing for :attr:`Limits.socket_idle` seconds while its
    game did not change either is closed with code 4408 (reason ``idle``; see
    :class:`_IdleWatch`).
    """
    tokens = _tokens(ws, game_id)
    owner = ws.cookies.get(OWNER_COOKIE)
    origin = ws.headers.get("origin")
    foreign = origin is not None and urlsplit(origin).netloc != ws.headers.get("host")
    idle: float | None = ws.app.state.limits.socket_idle
    watch = None if idle is None else _IdleWatch(ws.app.state.hub, game_id, idle)
    try:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            if watch is not None:
                watch.heard = watch.loop.time()
            raw = message.get("text") or message.get("bytes") or b""
            answer = await _socket_answer(ws, game_id, raw, tokens, owner, foreign)
            await ws.send_text(answer.decode())
    except asyncio.CancelledError:
        if watch is None or not watch.fired:
            raise
        watch.task.uncancel()
        await ws.close(code=IDLE_CLOSE, reason="idle")
    finally:
        if watch is not None:
            watch.stop()


class _IdleWatch:
    """Closes an idle socket: one timer per socket, not one per message (the socket
    is the action path).  When neither the socket (``heard``) nor its game (the
    hub's last update) did anything for ``idle`` seconds, it cancels the session's
    task, which is then waiting for the socket's next message: a message is
    answered within milliseconds, far inside any idle timeout."""

    def __init__(self, hub: Hub, game_id: str, idle: float) -> None:
        task = asyncio.current_task()
        assert task is not None
        self.task = task
        self.loop = task.get_loop()
        self.hub = hub
        self.game_id = game_id
        self.idle = idle
        self.heard = self.loop.time()
        self.fired = False
        self.timer = self.loop.call_later(idle, self._check)

    def _check(self) -> None:
        due = max(self.heard, self.hub.changed_at(self.game_id)) + self.idle
        if self.loop.time() >= due:
            self.fired = True
            self.task.cancel()
        else:
            self.timer = self.loop.call_at(due, self._check)

    def stop(self) -> None:
        """No more checks (the session ended)."""
        self.timer.cancel()


async def _socket_answer(
    ws: WebSocket,
    game_id: str,
    raw: str | bytes,
    tokens: dict[int, str],
    owner: str | None,
    foreign: bool,
) -> bytes:
    """The answer (JSON) to one message of :func:`socket_session`."""
    try:
        # every message counts, as every POST does: garbage is no way around the rate
        ws.app.state.limiter.check("act", client_of(ws.scope))
    except RateLimitedError as exc:
        return _socket_error(_quoted_ref(raw), _status(exc), _refusal(exc))
    try:
        parsed = SocketActIn.model_validate_json(raw)
    except ValidationError as exc:
        invalid = {"detail": reasons(exc.errors(include_url=False)), "error": "ValidationError"}
        return _socket_error(_quoted_ref(raw), 422, invalid)
    if foreign:
        refusal = SeatError("a page of another origin may not act on this game")
        return _socket_error(parsed.ref, _status(refusal), _refusal(refusal))
    try:
        game = await act_json(ws.app.state, game_id, parsed, tokens, owner, answered=ws)
    except YatzyError as exc:
        return _socket_error(parsed.ref, _status(exc), _refusal(exc))
    return b'{"type":"state","ref":' + orjson.dumps(parsed.ref) + b',"game":' + game + b"}"


def _socket_error(ref: int | None, status: int, refusal: dict[str, str]) -> bytes:
    return orjson.dumps({"type": "error", "ref": ref, "status": status, **refusal})


def _quoted_ref(raw: str | bytes) -> int | None:
    """The ``ref`` of a message that did not validate, where it has a usable one."""
    # Python's lenient parser: a message refused for a NaN elsewhere still has its ref.
    try:
        ref = json.loads(raw).get("ref")
    except (ValueError, AttributeError, RecursionError):
        return None
    return (
        ref if isinstance(ref, int) and not isinstance(ref, bool) and 0 <= ref <= MAX_REF else None
    )


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
    background within ``win_budget`` CPU seconds (:class:`LiveChances`).
    """
    url = normalise_url(database_url)
    limits = limits or Limits.off()
    open_games = OpenGames(limits.open_games)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        repo = await run_in_threadpool(GameRepository.open, url)
        chances = LiveChances(budget=win_budget, enabled=win_chances)
        service = GameService(repo, chances=chances)
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
        return _error(_status(exc), exc)

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
        _set_cookie(response, OWNER_COOKIE, local, secure(request), root_of(request) + "/")
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
            _set_seat_cookie(response, gid, seat, token, secure(request), root_of(request))
        if owner is None:
            _set_cookie(
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
            game_id, _tokens(request, game_id), owner_of(request)
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
        tokens = {**_tokens(request, game_id), body.seat: token}
        view = await run_in_threadpool(service(request).view, game_id, tokens, new_owner)
        response = FastJSONResponse(view)
        _set_seat_cookie(response, game_id, body.seat, token, secure(request), root_of(request))
        if owner is None:
            _set_cookie(response, OWNER_COOKIE, new_owner, secure(request), root_of(request) + "/")
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
            _tokens(request, game_id),
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
        lang: Literal["sv", "fi", "en"] | None = None,
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
                await ws.send_denial_response(_error(_status(full), full))
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
