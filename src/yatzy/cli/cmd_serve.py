"""``yatzy serve``: the web app (FastAPI + uvicorn), by default on http://127.0.0.1:8000."""

from __future__ import annotations

import argparse
from typing import Any


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
    p.add_argument("--log-level", default="info", help="uvicorn log level (default info)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Start uvicorn with the app (imports FastAPI only here, so other commands stay fast)."""
    import os

    import uvicorn

    from yatzy.errors import YatzyError
    from yatzy.store.db import database_url

    if not 0 < args.port < 65536:
        raise YatzyError(f"port {args.port} is not in 1-65535")
    if args.bot_delay < 0:
        raise YatzyError(f"bot delay {args.bot_delay} is negative")
    if args.workers < 1:
        raise YatzyError(f"workers {args.workers} is less than 1")
    root = args.root_path.rstrip("/")
    if root and (not root.startswith("/") or any(c in root for c in "?#\"' <>")):
        raise YatzyError(f"root path {args.root_path!r} is not a path such as /yatzy")
    url = database_url(args.database_url)
    if args.workers > 1 and not url.startswith("postgresql"):
        # Live updates cross processes through PostgreSQL LISTEN/NOTIFY only.
        raise YatzyError("--workers above 1 needs --database-url postgresql://...")
    os.environ["YATZY_DATABASE_URL"] = url
    os.environ["YATZY_BOT_DELAY"] = str(args.bot_delay)
    print(
        f"yatzy: serving http://{args.host}:{args.port}{root}/ (database {_redact(url)})",
        flush=True,
    )
    uvicorn.run(
        "yatzy.web.app:app_from_env",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        log_level=args.log_level,
        root_path=root,
        # Below "info" the access log prints nothing, but uvicorn would still format
        # each line's fields for it.
        access_log=args.log_level.lower() in ("trace", "debug", "info"),
        ws="websockets-sansio",
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
