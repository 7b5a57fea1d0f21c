"""``yatzy serve``: the web app (FastAPI + uvicorn), by default on http://127.0.0.1:8000.

A command of the ``yatzy`` command line that the web app provides: it is registered
under the entry-point group ``yatzy.commands`` (``pyproject.toml``), where
:mod:`yatzy.cli.main` finds it, so the command line never imports the web app.  Like
the command line's own ``yatzy.cli.cmd_*`` modules it has ``add_parser`` and ``run``;
FastAPI is imported only when the server starts.
"""

from __future__ import annotations

import argparse
import os
from dataclasses import replace
from typing import Any

from yatzy.errors import YatzyError


def add_parser(sub: Any) -> None:
    """Register the subcommand."""
    p = sub.add_parser(
        "serve",
        help="run the web app (play in the browser)",
        description="Serve the web app.  Games are stored in SQLite in the user's data "
        "directory unless --database-url names another database (sqlite:///FILE or "
        "postgresql://...); the schema is migrated on start.",
    )
    p.add_argument("--host", default="127.0.0.1", help="interface to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="TCP port (default 8000)")
    p.add_argument(
        "--database-url",
        default=None,
        help="sqlite:///FILE or postgresql://USER@HOST/DB (default: yatzy.db in the "
        "user data directory, e.g. ~/.local/share/yatzy/yatzy.db)",
    )
    p.add_argument(
        "--bot-delay", type=float, default=0.6, help="seconds between bot actions (default 0.6)"
    )
    p.add_argument(
        "--undo-grace",
        type=float,
        default=5.0,
        help="seconds a computer waits before its move while a person on another device "
        "than the game's other people may still take back the write before it (default 5); "
        "where every person plays on one device it waits for their next action however "
        "long; 0: it moves at once everywhere",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        help="server processes (default 1; more need PostgreSQL, which carries live updates)",
    )
    p.add_argument(
        "--root-path",
        default="",
        help="path prefix the app is served under behind a reverse proxy that strips "
        "it, e.g. /yatzy (default: none)",
    )
    p.add_argument(
        "--public-url",
        default=os.environ.get("YATZY_PUBLIC_URL") or None,
        metavar="URL",
        help="the app's address as players reach it, e.g. https://yatzy.example.org/yatzy: "
        "the base of invite and game links, and its host the one allowed host unless "
        "--allowed-hosts says more (default $YATZY_PUBLIC_URL; none: links name the "
        "request's host)",
    )
    p.add_argument(
        "--allowed-hosts",
        default=os.environ.get("YATZY_ALLOWED_HOSTS") or None,
        metavar="HOST[,HOST...]",
        help="Host header names answered, others get 400: names, addresses, *.domain or * "
        "(default $YATZY_ALLOWED_HOSTS, else the --public-url host, else localhost, "
        "127.0.0.1 and ::1 when listening on loopback, the --host address beside them "
        "when it is another, and * when listening on every interface)",
    )
    p.add_argument("--log-level", default="info", help="uvicorn log level (default info)")
    p.add_argument(
        "--win-budget",
        type=number,
        default=0.2,
        metavar="SECONDS",
        help="CPU seconds one update of a game's live win chances may take (default 0.2; "
        "0 switches them off)",
    )
    p.add_argument(
        "--prepare-specs",
        default="presets",
        metavar="SPECS",
        help="rule sets whose strategy tables this server builds (on disk, once): "
        "presets (default: the start page's, with any on/off house rule), all, none, "
        "or specs besides (presets,yatzy+bonus_points=40); other rule sets are played "
        "greedily with no hints, analyses or win chances",
    )
    p.add_argument(
        "--jobs",
        choices=("auto", "server", "workers"),
        default="auto",
        help="who runs table builds, analyses and live win chances: server (bounded "
        "pools in the server's processes), workers (`yatzy worker` processes on the same "
        "PostgreSQL, this machine or others) or auto (default: workers on PostgreSQL, "
        "server on SQLite)",
    )
    p.add_argument(
        "--redis-url",
        default=os.environ.get("YATZY_REDIS_URL") or None,
        metavar="URL",
        help="redis://HOST:PORT/DB: keep the rate limits' counts there, shared by every "
        "server process and host (default $YATZY_REDIS_URL; none: each process counts "
        "alone)",
    )
    p.add_argument(
        "--push-contact",
        default=os.environ.get("YATZY_PUSH_CONTACT") or None,
        metavar="URL",
        help="mailto: or https: address by which push services may reach the operator, "
        "sent with every Web Push notification (default $YATZY_PUSH_CONTACT, else an "
        "https --public-url, else mailto:webmaster@localhost)",
    )
    p.add_argument(
        "--shared-limits",
        action="store_true",
        help="keep the rate limits' counts in the PostgreSQL database, shared by every "
        "server process and host (one statement per limited request; --redis-url is "
        "cheaper and wins when both are given)",
    )
    add_limit_options(p)
    p.set_defaults(run=run)


def number(text: str) -> float:
    """A finite number >= 0 (argparse names the type by this function in errors)."""
    value = float(text)
    if not value >= 0 or value == float("inf"):
        raise ValueError(text)
    return value


def add_limit_options(p: Any) -> None:
    """The abuse limits and timeouts of a public server (see yatzy.web.limits)."""
    g = p.add_argument_group(
        "abuse limits",
        "Per client (its address; behind a proxy, see --trusted-proxies), per server "
        "process (the rates over every process with --redis-url or --shared-limits).  A "
        "rate is events per minute, refused with 429 and Retry-After; 0 switches a limit off.",
    )
    g.add_argument(
        "--no-limits",
        action="store_true",
        help="switch off every rate limit and cap, the pruning and the WebSocket idle "
        "timeout (benchmarks, trusted LANs); the connection timeouts stay",
    )
    g.add_argument(
        "--limit-create",
        type=number,
        default=30,
        metavar="N",
        help="games created (default 30, bursts of 10)",
    )
    g.add_argument(
        "--limit-join",
        type=number,
        default=60,
        metavar="N",
        help="seats claimed (default 60, bursts of 20)",
    )
    g.add_argument(
        "--limit-actions",
        type=number,
        default=1200,
        metavar="N",
        help="actions, HTTP and WebSocket (default 1200, bursts of 200)",
    )
    g.add_argument(
        "--limit-guesses",
        type=number,
        default=10,
        metavar="N",
        help="refused seat tokens, invite codes and owner links (default 10, bursts of 20)",
    )
    g.add_argument(
        "--limit-logins",
        type=number,
        default=10,
        metavar="N",
        help="account log-ins, per client and per account name (default 10, bursts of 10)",
    )
    g.add_argument(
        "--limit-signups",
        type=number,
        default=5,
        metavar="N",
        help="accounts created (default 5, bursts of 5)",
    )
    g.add_argument(
        "--limit-friends",
        type=number,
        default=30,
        metavar="N",
        help="friend requests, answers and blocks (default 30, bursts of 10)",
    )
    g.add_argument(
        "--limit-tournaments",
        type=number,
        default=5,
        metavar="N",
        help="tournaments created (default 5, bursts of 3)",
    )
    g.add_argument(
        "--limit-talk",
        type=number,
        default=12,
        metavar="N",
        help="phrases said in games (default 12, bursts of 4)",
    )
    g.add_argument(
        "--limit-text",
        type=number,
        default=10,
        metavar="N",
        help="lines of free text written to friends in games, per account (default 10, "
        "bursts of 5)",
    )
    g.add_argument(
        "--limit-seeks",
        type=number,
        default=20,
        metavar="N",
        help="lobby seeks made or joined, quick matches and invitations (default 20, bursts of 6)",
    )
    g.add_argument(
        "--limit-push",
        type=number,
        default=30,
        metavar="N",
        help="Web Push subscriptions, unsubscriptions and settings (default 30, bursts of 10)",
    )
    g.add_argument(
        "--limit-sockets",
        type=number,
        default=120,
        metavar="N",
        help="WebSocket connections opened (default 120, bursts of 60)",
    )
    g.add_argument(
        "--limit-downloads",
        type=number,
        default=120,
        metavar="N",
        help="protocols (PDF, Excel), QR codes and analyses fetched (default 120, bursts of 30)",
    )
    g.add_argument(
        "--max-open-games",
        type=int,
        default=100,
        metavar="N",
        help="unfinished games one client may have created (default 100)",
    )
    g.add_argument(
        "--max-sockets-per-game",
        type=int,
        default=64,
        metavar="N",
        help="live WebSockets per game (default 64)",
    )
    g.add_argument(
        "--max-sockets-per-client",
        type=int,
        default=50,
        metavar="N",
        help="live WebSockets per client (default 50)",
    )
    g.add_argument(
        "--max-connections-per-client",
        type=int,
        default=100,
        metavar="N",
        help="open HTTP connections per client; one more gets 429 and is closed "
        "(default 100; trusted proxies are not capped)",
    )
    g.add_argument(
        "--max-sockets",
        type=int,
        default=1500,
        metavar="N",
        help="live WebSockets per process; past it a newcomer closes the socket idle "
        "longest (idle a minute at least) or is refused (default 1500, below "
        "--limit-concurrency)",
    )
    g.add_argument(
        "--trusted-proxies",
        default="",
        metavar="ADDR[,ADDR...]",
        help="addresses or networks of reverse proxies whose X-Forwarded-For and "
        "X-Forwarded-Proto are believed (default none: the peer is the client)",
    )
    g.add_argument(
        "--retention-days",
        type=number,
        default=30,
        metavar="DAYS",
        help="prune unfinished games untouched this many days, hourly (default 30; "
        "finished games are kept)",
    )
    t = p.add_argument_group("timeouts", "In seconds.")
    t.add_argument(
        "--header-timeout",
        type=number,
        default=10,
        metavar="S",
        help="for a request's line and headers, from the connection or the request's "
        "first byte (default 10)",
    )
    t.add_argument(
        "--body-timeout",
        type=number,
        default=10,
        metavar="S",
        help="for a request body (default 10)",
    )
    t.add_argument(
        "--keep-alive-timeout",
        type=int,
        default=5,
        metavar="S",
        help="an idle connection between requests is closed (default 5)",
    )
    t.add_argument(
        "--ws-idle-timeout",
        type=number,
        default=600,
        metavar="S",
        help="a WebSocket that sends nothing while its game does not change is closed "
        "(code 4408; default 600)",
    )
    t.add_argument(
        "--ws-drain-timeout",
        type=number,
        default=5,
        metavar="S",
        help="a WebSocket that takes longer to take one message is dropped (default 5)",
    )
    t.add_argument(
        "--ws-send-queue",
        type=int,
        default=64,
        metavar="N",
        help="messages that may wait for one WebSocket; more drop it (default 64)",
    )
    t.add_argument(
        "--ws-ping-interval",
        type=number,
        default=20,
        metavar="S",
        help="WebSocket pings (default 20)",
    )
    t.add_argument(
        "--ws-ping-timeout",
        type=number,
        default=20,
        metavar="S",
        help="a socket whose pong is this late is closed (default 20)",
    )
    t.add_argument(
        "--limit-concurrency",
        type=int,
        default=2000,
        metavar="N",
        help="connections and tasks per process before new requests get 503 (default 2000)",
    )


def limits_of(args: argparse.Namespace) -> Any:
    """The :class:`yatzy.web.limits.Limits` the options ask for."""
    from yatzy.web.limits import Limits, Rate, parse_networks

    proxies = parse_networks(p for p in args.trusted_proxies.split(",") if p.strip())
    caps = (
        "max_open_games",
        "max_sockets_per_game",
        "max_sockets_per_client",
        "max_sockets",
        "max_connections_per_client",
    )
    for cap in caps:
        if getattr(args, cap) < 0:
            raise YatzyError(f"--{cap.replace('_', '-')} {getattr(args, cap)} is negative")
    if args.ws_send_queue < 1 or not args.ws_drain_timeout > 0:
        raise YatzyError("--ws-send-queue and --ws-drain-timeout must be > 0")
    body = args.body_timeout or None
    # Back-pressure stays with --no-limits: no action may ever wait on a socket.
    queue = {"socket_queue": args.ws_send_queue, "socket_drain": args.ws_drain_timeout}
    if args.no_limits:
        return replace(Limits.off(), trusted_proxies=proxies, body_timeout=body, **queue)

    def rate(per_minute: float, burst: int) -> Rate | None:
        return Rate(per_minute, max(burst, 1)) if per_minute else None

    return Limits(
        create=rate(args.limit_create, 10),
        join=rate(args.limit_join, 20),
        act=rate(args.limit_actions, 200),
        guess=rate(args.limit_guesses, 20),
        login=rate(args.limit_logins, 10),
        signup=rate(args.limit_signups, 5),
        friend=rate(args.limit_friends, 10),
        tournament=rate(args.limit_tournaments, 3),
        talk=rate(args.limit_talk, 4),
        text=rate(args.limit_text, 5),
        seek=rate(args.limit_seeks, 6),
        push=rate(args.limit_push, 10),
        socket=rate(args.limit_sockets, 60),
        download=rate(args.limit_downloads, 30),
        open_games=args.max_open_games or None,
        sockets_per_game=args.max_sockets_per_game or None,
        sockets_per_client=args.max_sockets_per_client or None,
        sockets_total=args.max_sockets or None,
        connections_per_client=args.max_connections_per_client or None,
        trusted_proxies=proxies,
        socket_idle=args.ws_idle_timeout or None,
        body_timeout=body,
        retention_days=args.retention_days or None,
        **queue,
    )


def public_url_of(text: str | None) -> str | None:
    """``--public-url`` checked: an http(s) URL with a host and no query or fragment,
    without its trailing slash."""
    if not text:
        return None
    from urllib.parse import urlsplit

    parts = urlsplit(text.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise YatzyError(
            f"public URL {text!r} is not an http(s) URL such as https://yatzy.example.org/yatzy"
        )
    return text.strip().rstrip("/")


def allowed_hosts_of(args: argparse.Namespace, public_url: str | None) -> tuple[str, ...]:
    """The ``Host`` names the server answers: ``--allowed-hosts``, else the public
    URL's host, else this computer's names when listening on loopback (with the
    listening address when it is another one), else any (``*``) on a wildcard address."""
    from urllib.parse import urlsplit

    from yatzy.web.security import LOCAL_HOSTS, parse_hosts

    if args.allowed_hosts:
        return parse_hosts(args.allowed_hosts)
    if public_url:
        return parse_hosts(urlsplit(public_url).hostname or "")
    host = args.host.strip().strip("[]").lower()
    if host in ("0.0.0.0", "::", ""):
        return ("*",)
    return LOCAL_HOSTS if host in LOCAL_HOSTS else (*LOCAL_HOSTS, host)


def run(args: argparse.Namespace) -> int:
    """Start uvicorn with the app (imports FastAPI only here, so other commands stay fast)."""
    import uvicorn

    from yatzy.store.db import database_url
    from yatzy.web.logs import logging_config

    if not 0 < args.port < 65536:
        raise YatzyError(f"port {args.port} is not in 1-65535")
    if args.bot_delay < 0:
        raise YatzyError(f"bot delay {args.bot_delay} is negative")
    if args.undo_grace < 0:
        raise YatzyError(f"undo grace {args.undo_grace} is negative")
    if args.workers < 1:
        raise YatzyError(f"workers {args.workers} is less than 1")
    if args.limit_concurrency < 1 or args.keep_alive_timeout < 1 or args.header_timeout <= 0:
        raise YatzyError("--limit-concurrency, --keep-alive-timeout, --header-timeout must be > 0")
    limits = limits_of(args)
    from yatzy.web.prepare import PREPARE_ENV, PreparePolicy

    prepare = PreparePolicy(args.prepare_specs)  # a bad setting: one line, nothing started
    root = args.root_path.rstrip("/")
    if root and (not root.startswith("/") or any(c in root for c in "?#\"' <>")):
        raise YatzyError(f"root path {args.root_path!r} is not a path such as /yatzy")
    public_url = public_url_of(args.public_url)
    hosts = allowed_hosts_of(args, public_url)
    url = database_url(args.database_url)
    if args.workers > 1 and not url.startswith("postgresql"):
        # Live updates cross processes through PostgreSQL LISTEN/NOTIFY only.
        raise YatzyError("--workers above 1 needs --database-url postgresql://...")
    os.environ["YATZY_DATABASE_URL"] = url
    os.environ["YATZY_BOT_DELAY"] = str(args.bot_delay)
    os.environ["YATZY_UNDO_GRACE"] = str(args.undo_grace)
    os.environ["YATZY_LIMITS"] = limits.to_json()
    os.environ["YATZY_HEADER_TIMEOUT"] = str(args.header_timeout)
    os.environ["YATZY_WIN_BUDGET"] = str(args.win_budget)
    os.environ["YATZY_PUBLIC_URL"] = public_url or ""
    os.environ["YATZY_ALLOWED_HOSTS"] = ",".join(hosts)
    os.environ[PREPARE_ENV] = prepare.setting
    jobs = args.jobs
    if jobs == "auto":
        jobs = "workers" if url.startswith("postgresql") else "server"
    if jobs == "workers" and not url.startswith("postgresql"):
        raise YatzyError("--jobs workers needs --database-url postgresql://...")
    os.environ["YATZY_JOBS"] = jobs
    if args.redis_url and not args.redis_url.startswith(("redis://", "rediss://", "unix://")):
        raise YatzyError(f"--redis-url {args.redis_url!r} is not a redis:// URL")
    os.environ["YATZY_REDIS_URL"] = args.redis_url or ""
    if args.push_contact and not args.push_contact.startswith(("mailto:", "https://")):
        raise YatzyError(f"--push-contact {args.push_contact!r} is not a mailto: or https: URL")
    os.environ["YATZY_PUSH_CONTACT"] = args.push_contact or ""
    if args.shared_limits and not url.startswith("postgresql"):
        raise YatzyError("--shared-limits needs --database-url postgresql://... (or --redis-url)")
    os.environ["YATZY_SHARED_LIMITS"] = "1" if args.shared_limits else ""
    print(
        f"yatzy: serving http://{args.host}:{args.port}{root}/ (database {_redact(url)})",
        flush=True,
    )
    if jobs == "workers":
        print(
            "yatzy: tables, analyses and win chances are jobs for `yatzy worker "
            "--database-url ...` processes: start one or more",
            flush=True,
        )
    if "*" in hosts and not public_url:
        print(
            "yatzy: any Host header is answered and links name it; --public-url or "
            "--allowed-hosts names this server's own",
            flush=True,
        )
    if args.database_url is None:
        from yatzy.store.local import existing_local_owner

        local = existing_local_owner()
        if local is not None:
            # Only the person at this computer sees the link: it carries the secret
            # that makes a browser the owner of the terminal games.
            print(
                f"yatzy: your terminal games in a browser's history: "
                f"http://{args.host}:{args.port}{root}/owner?token={local}",
                flush=True,
            )
    uvicorn.run(
        "yatzy.web.app:app_from_env",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        log_level=args.log_level,
        # secrets (owner link, invite codes) redacted from the access log, refusals
        # (429, 503, refused handshakes) sampled: see yatzy.web.logs
        log_config=logging_config(),
        root_path=root,
        # Below "info" the access log prints nothing, but uvicorn would still format
        # each line's fields for it.
        access_log=args.log_level.lower() in ("trace", "debug", "info"),
        # websockets-sansio, able to cut a connection that does not read
        ws="yatzy.web.transport:SocketProtocol",
        # The request line and headers get a deadline (uvicorn has none for them).
        http="yatzy.web.security:HeaderTimeoutProtocol",
        # The client's address is decided by the app (yatzy.web.limits.ClientAddress,
        # --trusted-proxies) alone: uvicorn would otherwise believe X-Forwarded-For
        # from 127.0.0.1 by default.
        proxy_headers=False,
        timeout_keep_alive=args.keep_alive_timeout,
        limit_concurrency=args.limit_concurrency,
        ws_ping_interval=args.ws_ping_interval or None,
        ws_ping_timeout=args.ws_ping_timeout or None,
        # Game views are a few kB of JSON: compressing every live update cost more CPU
        # per action than any other single step (measured), for little bandwidth.
        ws_per_message_deflate=False,
        ws_max_size=64 * 1024,  # clients send only actions: small JSON messages
    )
    return 0


def _redact(url: str) -> str:
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        creds, host = rest.rsplit("@", 1)
        return f"{scheme}://{creds.split(':')[0]}@{host}"
    return url
