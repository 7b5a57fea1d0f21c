"""The FastAPI application: settings, lifespan, middleware and error handlers.  The
routes (JSON API, WebSocket, pages, API docs) are the routers of :mod:`yatzy.web.routes`.

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
import functools
import inspect
import logging
import os
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response

from yatzy import __version__
from yatzy.errors import YatzyError
from yatzy.store import GameRepository
from yatzy.store.db import database_url as normalise_url
from yatzy.store.retention import prune_periodically
from yatzy.web.accounts import AccountService, Hasher
from yatzy.web.assets import static_apps
from yatzy.web.chances import LiveChances
from yatzy.web.clocks import CHECK_EVERY, STAND_IN, Clock, check_periodically, clock_from_env
from yatzy.web.deps import WebSettings
from yatzy.web.hub import WATCHING, BotRunner, Hub, watch_key
from yatzy.web.inputs import REFUSALS, StrictJSONRoute, request_validation_error
from yatzy.web.jobs import active_queue
from yatzy.web.limits import (
    ClientAddress,
    Limits,
    OpenGames,
    RateLimiter,
    RateLimits,
)
from yatzy.web.messages import Messages
from yatzy.web.notifications import (
    Notifier,
    loopback_from_env,
    push_contact_of,
    watching_anywhere,
)
from yatzy.web.pg_jobs import install as install_pg_jobs
from yatzy.web.pg_jobs import uninstall as uninstall_pg_jobs
from yatzy.web.responses import FastJSONResponse, error_response, status_of
from yatzy.web.routes import ROUTERS
from yatzy.web.security import (
    AllowedHosts,
    BodyTimeout,
    HeaderTimeoutProtocol,
    SecurityHeaders,
    parse_hosts,
)
from yatzy.web.service import GameService
from yatzy.web.shared_caps import PgCaps, RedisCaps, SharedCounts, SharedOpenGames
from yatzy.web.shared_limits import REDIS_ENV, PgStore, RedisStore
from yatzy.web.tournaments import TournamentService
from yatzy.web.tournaments import stop as stop_tournaments
from yatzy.web.transport import ActionFastPath, BodyLimit
from yatzy.web.warmup import stop_children as stop_warmup_children
from yatzy.web.win_jobs import WinAnalyses

# -- helpers ----------------------------------------------------------------------------------


class _App(FastAPI):
    """FastAPI with :class:`ActionFastPath` in front of its whole middleware stack
    (FastAPI's own error, telemetry and body-size layers included), and before
    that the security headers, the allowed hosts, the client's address, the body's
    deadline and size, and the rate limits (see :mod:`yatzy.web.limits`)."""

    limits: Limits = Limits.off()
    limiter: RateLimiter | None = None
    allowed_hosts: tuple[str, ...] = ()

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
        if self.allowed_hosts and "*" not in self.allowed_hosts:
            stack = AllowedHosts(stack, self.allowed_hosts)
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
    undo_grace: float = 0.0,
    secure_cookies: bool = False,
    server_gc: bool = False,
    limits: Limits | None = None,
    win_chances: bool = True,
    win_budget: float = 0.2,
    public_url: str | None = None,
    allowed_hosts: tuple[str, ...] = (),
    hasher: Hasher | None = None,
    jobs: str = "server",
    redis_url: str | None = None,
    shared_limits: bool = False,
    push_contact: str | None = None,
    push_loopback: bool = False,
    clock: Clock | None = None,
    stand_in: str = STAND_IN,
    clock_every: float = CHECK_EVERY,
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
    (:class:`WinAnalyses`; both off without ``win_chances``).  A computer whose move
    would follow a write that its person may still take back waits until they go on,
    at most ``undo_grace`` seconds (0: it moves after ``bot_delay``, as tests and
    embedders may want; ``yatzy serve`` waits 5 s).

    ``public_url`` (scheme, host and path prefix, as players reach the app) is the
    base of the links the app hands out (a new game's invite URL); without it they
    are built from the request.  ``allowed_hosts`` are the ``Host`` names answered
    (:class:`yatzy.web.security.AllowedHosts`; empty or ``*``: any).  Trailing
    slashes are not redirected (such a redirect would name the request's host).
    ``hasher`` is Argon2id's cost for account passwords (default: RFC 9106's
    low-memory profile; tests pass a cheap one).

    ``jobs`` says who runs table builds, analyses and live win chances: ``server``,
    bounded pools in this process; ``workers``, ``yatzy worker`` processes on the
    same PostgreSQL (:mod:`yatzy.web.pg_jobs`; a :class:`YatzyError` on SQLite).
    With ``redis_url`` the rate limits' counts are kept in that Redis, shared by
    every process that names it (:mod:`yatzy.web.shared_limits`); else, with
    ``shared_limits`` and PostgreSQL, in the database.

    Web Push notifications (:mod:`yatzy.web.notifications`) are signed with
    ``push_contact`` as their VAPID contact; ``push_loopback`` lets a device's push
    endpoint be a plain-HTTP loopback address (the tests' push service).
    Timed games (:mod:`yatzy.web.clocks`) read the time from ``clock`` (default:
    the real time; tests pass a :class:`yatzy.web.clocks.SettableClock`), look for
    overdue clocks every ``clock_every`` seconds, and a computer plays an absent
    player's seat at the player's measured level, else at ``stand_in``.

    Only the wiring is here: the settings (``app.state.settings``), the lifespan,
    the middleware and error handlers; the routes are :data:`yatzy.web.routes.ROUTERS`.
    """
    settings = WebSettings(
        normalise_url(database_url),
        bot_delay=bot_delay,
        undo_grace=undo_grace,
        secure_cookies=secure_cookies,
        server_gc=server_gc,
        limits=limits or Limits.off(),
        win_chances=win_chances,
        win_budget=win_budget,
        public_url=public_url,
        allowed_hosts=allowed_hosts,
        hasher=hasher or Hasher(),
        jobs=jobs,
        push_contact=push_contact,
        push_loopback=push_loopback,
        clock=clock,
        stand_in=stand_in,
        clock_every=clock_every,
    )
    if jobs not in ("server", "workers"):
        raise YatzyError(f"jobs {jobs!r} is neither server nor workers")
    if jobs == "workers" and not settings.database_url.startswith("postgresql"):
        raise YatzyError("jobs on workers need a PostgreSQL database (SQLite: jobs='server')")
    app = _App(
        title="yatzy",
        version=__version__,
        description="Nordic Yatzy and its variants, played in the browser.  The core engine "
        "decides every rule; the server rolls every die.",
        lifespan=lifespan,
        default_response_class=FastJSONResponse,
        responses=REFUSALS,
        # /docs is routes.docs (Swagger UI from a package, under the CSP); FastAPI's
        # pages load their scripts from a CDN, which the CSP blocks.
        docs_url=None,
        redoc_url=None,
        # Starlette's redirect of "/path/" to "/path" is an absolute URL built from
        # the Host header: no such redirect (the pages link without the slash).
        redirect_slashes=False,
        **_no_telemetry(),
    )
    app.limits = settings.limits
    app.allowed_hosts = allowed_hosts
    store: RedisStore | PgStore | None = None
    if redis_url:
        store = RedisStore(redis_url)
    elif shared_limits:
        if not settings.database_url.startswith("postgresql"):
            raise YatzyError("shared rate limits need Redis or a PostgreSQL database")
        store = PgStore(settings.database_url)
    app.limiter = RateLimiter(settings.limits, store)
    app.state.settings = settings
    app.state.limiter = app.limiter
    app.state.limits = settings.limits
    counts: SharedCounts | None = None
    if redis_url:  # the caps where the rates are
        counts = SharedCounts(RedisCaps(redis_url))
    elif store is not None:
        counts = SharedCounts(PgCaps(settings.database_url))
    app.state.shared_counts = counts
    app.state.open_games = (
        OpenGames(settings.limits.open_games)
        if counts is None
        else SharedOpenGames(settings.limits.open_games, counts)
    )
    # Bodies parsed by orjson: NaN, Infinity, 1e400 and lone surrogates are not JSON
    # (the routers' routes are StrictJSONRoutes too; a test checks every route).
    app.router.route_class = StrictJSONRoute
    app.add_exception_handler(RequestValidationError, request_validation_error)
    app.add_exception_handler(YatzyError, _yatzy_error)
    app.add_exception_handler(404, _not_found)
    for path, static in static_apps():  # compressed, and cached by content (assets.py)
        app.mount(path, static)
    for router in ROUTERS:
        app.include_router(router)
    return app


PREBUILD_ENV = "YATZY_PREBUILD_ROUTES"
"""``0``: the lifespan leaves the routes to be put together on first use instead of
building the OpenAPI document at start (about 1 CPU-second an app; the tests, which
start hundreds of apps and call a few routes of each, switch it off)."""


def prebuild_by_env() -> bool:
    """Whether :data:`PREBUILD_ENV` leaves the routes built at start (the default)."""
    return os.environ.get(PREBUILD_ENV, "").strip() != "0"


@contextlib.asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Open the store and start the service, the hub, the bots, the live chances, the
    clocks' periodic look and the pruner (``app.state``); stop them all at the end."""
    settings: WebSettings = app.state.settings
    repo = await asyncio.to_thread(GameRepository.open, settings.database_url)
    backend = None
    if settings.jobs == "workers":  # heavy work to `yatzy worker` processes
        backend = await asyncio.to_thread(install_pg_jobs, settings.database_url)
    chances = LiveChances(
        budget=settings.win_budget, enabled=settings.win_chances, queue=active_queue("chances")
    )
    analyses = WinAnalyses(
        budget=settings.win_budget, enabled=settings.win_chances, queue=active_queue("analyses")
    )
    service = GameService(
        repo,
        chances=chances,
        win_analyses=analyses,
        clock=settings.clock or clock_from_env(),
        stand_in=settings.stand_in,
    )
    hub = Hub(service, settings.limits)
    counts: SharedCounts | None = app.state.shared_counts
    sharing = None
    if counts is not None:  # sockets and connections per client, over every process
        hub.shared = counts
        counts.sources["sockets"] = lambda: dict(hub.clients)
        counts.sources[WATCHING] = hub.watched  # no push to a game's viewers anywhere
        share = HeaderTimeoutProtocol.share or HeaderTimeoutProtocol.configure()
        share.others = functools.partial(counts.other, "connections")
        counts.sources["connections"] = lambda: dict(share.open)
        sharing = asyncio.get_running_loop().create_task(counts.run())
    loop = asyncio.get_running_loop()

    def notify(game_id: str, version: int, answer: dict[str, Any]) -> None:
        # From the computing thread: the sockets are the event loop's.
        loop.call_soon_threadsafe(hub.send_chances, game_id, version, answer)

    chances.notify = notify
    bots = BotRunner(service, hub, settings.bot_delay, settings.undo_grace)
    service.undo_grace = settings.undo_grace

    async def clock_event(game_id: str, version: int) -> None:
        # a time-out, a choice, a seat taken back: every viewer sees it, and a
        # computer that now plays a seat starts
        await hub.announce(game_id, version)
        bots.kick(game_id)

    service.clocks.on_event = clock_event
    app.state.service, app.state.hub, app.state.bots = service, hub, bots
    app.state.accounts = accounts = AccountService(repo, settings.hasher)
    app.state.messages = Messages(repo)  # free text between friends in a game
    app.state.messages.nudge = hub.nudge_messages
    notifier = Notifier(repo, contact=push_contact_of(settings.push_contact, settings.public_url))
    notifier.loopback = settings.push_loopback or loopback_from_env()  # the latter: tests
    await asyncio.to_thread(notifier.start)  # the VAPID key: read, or made the first time
    elsewhere = None
    if counts is not None:  # who watches a game through another process, too
        shared = counts

        def elsewhere(game_id: str, owner: str) -> int | None:
            return shared.elsewhere(WATCHING, watch_key(game_id, owner))

    notifier.watching = watching_anywhere(hub.watching, elsewhere)
    notifier.stood_in = service.clocks.stood_in
    service.moved = notifier.after_move
    accounts.notify = notifier.notify
    app.state.notifier = notifier
    # tournaments start and advance on this task, and on every view of one
    tournaments = app.state.tournaments = TournamentService(service)
    ticker = loop.create_task(tournaments.run_periodically())
    listener = None
    if repo.asyncpg_dsn is not None:
        listener = loop.create_task(hub.listen_postgres(repo.asyncpg_dsn))
    for game_id in await asyncio.to_thread(repo.unfinished_with_bots):
        bots.kick(game_id)  # resume bots of games interrupted by a restart
    for game_id in await asyncio.to_thread(service.rated.store.unsettled):
        try:  # a rated game that ended unrated or unanalysed: loading it settles it
            await service.load(game_id)
        except YatzyError as exc:
            logging.getLogger("yatzy.web").warning("rated game %s not settled: %s", game_id, exc)
    for game_id in await asyncio.to_thread(service.clocks.store.with_stand_ins):
        bots.kick(game_id)  # and the computers playing for absent players
    clocks = loop.create_task(check_periodically(service.clocks, settings.clock_every))
    pruner = None
    if settings.limits.retention_days is not None:
        pruner = loop.create_task(prune_periodically(repo, settings.limits.retention_days))
    # The included routers' routes are put together on first use in newer FastAPI
    # releases (hundreds of ms); the OpenAPI document walks them all, so building it
    # here, before the first request, keeps that off the first client's time.
    if prebuild_by_env():
        app.openapi()
    if settings.server_gc:
        _tune_gc()
    try:
        yield
    finally:
        chances.stop()
        analyses.stop()
        await asyncio.to_thread(notifier.stop)
        service.ahead.stop()  # the analyses made while games are played
        await asyncio.to_thread(stop_warmup_children)  # no process left behind the server
        await bots.stop()
        await stop_tournaments(ticker)
        if sharing is not None and HeaderTimeoutProtocol.share is not None:
            HeaderTimeoutProtocol.share.others = None  # this app's store is closing
        for task in (pruner, listener, clocks, sharing):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        await repo.aclose()
        repo.close()
        if backend is not None:
            uninstall_pg_jobs(backend)


async def _yatzy_error(_request: Request, exc: Exception) -> Response:
    """A refusal of the core or the service: its status and reason (nothing changed)."""
    assert isinstance(exc, YatzyError)
    return error_response(status_of(exc), exc)


async def _not_found(_request: Request, exc: Exception) -> Response:
    """404 in the refusals' shape (an unknown path, or a page's missing game)."""
    detail = getattr(exc, "detail", "not found")
    return JSONResponse({"detail": detail, "error": "NotFound"}, status_code=404)


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
    ``YATZY_UNDO_GRACE`` (seconds; default 5),
    ``YATZY_LIMITS`` (JSON of :class:`Limits`; default: its defaults),
    ``YATZY_WIN_BUDGET`` (CPU seconds per live win-chance update; 0 switches them
    off; default 0.2), ``YATZY_PUBLIC_URL``, ``YATZY_ALLOWED_HOSTS``
    (comma-separated; default: any), ``YATZY_JOBS`` (``server`` or ``workers``) and
    ``YATZY_REDIS_URL`` (the rate limits' shared store; default: none) or
    ``YATZY_SHARED_LIMITS=1`` (that store in PostgreSQL), and ``YATZY_PUSH_CONTACT``
    (Web Push's VAPID contact), for uvicorn."""
    import os

    limits = os.environ.get("YATZY_LIMITS")
    budget = float(os.environ.get("YATZY_WIN_BUDGET", "0.2"))
    return create_app(
        os.environ.get("YATZY_DATABASE_URL") or None,
        bot_delay=float(os.environ.get("YATZY_BOT_DELAY", "0.6")),
        undo_grace=float(os.environ.get("YATZY_UNDO_GRACE", "5")),
        server_gc=True,
        limits=Limits.from_json(limits) if limits else Limits(),
        win_chances=budget > 0,
        win_budget=budget,
        public_url=os.environ.get("YATZY_PUBLIC_URL") or None,
        allowed_hosts=parse_hosts(os.environ.get("YATZY_ALLOWED_HOSTS", "")),
        jobs=os.environ.get("YATZY_JOBS") or "server",
        redis_url=os.environ.get(REDIS_ENV) or None,
        shared_limits=os.environ.get("YATZY_SHARED_LIMITS") == "1",
        push_contact=os.environ.get("YATZY_PUSH_CONTACT") or None,
    )
