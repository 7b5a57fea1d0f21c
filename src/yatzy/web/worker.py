"""``yatzy worker``: a process that runs the web app's heavy jobs from PostgreSQL.

With ``yatzy serve --database-url postgresql://...`` the web processes queue table
builds, analyses, win analyses and live win chances as jobs (:mod:`yatzy.web.pg_jobs`)
instead of running them; one or more ``yatzy worker`` processes on the same database,
on this machine or others (sharing the table directory, ``YATZY_CACHE_DIR``), run them
with procrastinate.  A worker killed mid-job loses nothing: every worker looks for the
jobs of workers whose heartbeat stopped and queues them again.  Registered like
``yatzy serve`` under the entry-point group ``yatzy.commands``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
from typing import Any

from yatzy.errors import YatzyError

POOLS = ("tables", "analyses", "chances")
"""The job pools (procrastinate queues): table builds, (win) analyses, live chances."""

NICE = 10
"""How much a worker lowers its CPU priority by default.  The jobs are background
work: at 1,000 games on two cores shared with the web processes, the workers' live
chances took the cores from the players' moves (p99 853 ms, benchmarks/bench_cluster.py).
On a machine of their own the workers lose nothing by it."""


def add_parser(sub: Any) -> None:
    """Register the subcommand."""
    p = sub.add_parser(
        "worker",
        help="run the web app's heavy jobs (tables, analyses, win chances) from PostgreSQL",
        description="Run the jobs that `yatzy serve` queues on PostgreSQL: strategy table "
        "builds, game analyses, win analyses and live win chances.  Start one or more "
        "beside the servers, on this machine or others with the same database and table "
        "directory; a worker that dies mid-job has its jobs run again by another (or by "
        "itself, restarted).  SQLite servers run their jobs themselves and need none.",
    )
    p.add_argument(
        "--database-url",
        default=os.environ.get("YATZY_DATABASE_URL") or None,
        help="postgresql://USER@HOST/DB, the servers' database (default $YATZY_DATABASE_URL)",
    )
    p.add_argument(
        "--concurrency",
        type=int,
        default=1,
        metavar="N",
        help="jobs run at once (default 1: a table build uses every core by itself)",
    )
    p.add_argument(
        "--queues",
        default=",".join(POOLS),
        metavar="POOL[,POOL...]",
        help="the pools whose jobs this worker runs: tables, analyses, chances (default all three)",
    )
    p.add_argument(
        "--stalled-after",
        type=float,
        default=30.0,
        metavar="S",
        help="seconds without a worker's heartbeat after which its running jobs are "
        "queued again (default 30)",
    )
    p.add_argument(
        "--nice",
        type=int,
        default=NICE,
        metavar="N",
        help=f"lower this worker's CPU priority by N, 0-19 (default {NICE}): on a machine "
        "it shares with web processes, players' moves then come before the jobs",
    )
    p.add_argument("--log-level", default="info", help="log level (default info)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run jobs until stopped (Ctrl-C or SIGTERM: the running job finishes first)."""
    from yatzy.store.db import is_postgres

    url = args.database_url
    if not url or not is_postgres(_plain(url)):
        raise YatzyError(
            "yatzy worker needs --database-url postgresql://... (SQLite servers run "
            "their jobs themselves)"
        )
    if args.concurrency < 1:
        raise YatzyError(f"--concurrency {args.concurrency} is less than 1")
    if not args.stalled_after > 0:
        raise YatzyError(f"--stalled-after {args.stalled_after} is not positive")
    if not 0 <= args.nice <= 19:
        raise YatzyError(f"--nice {args.nice} is not in 0-19")
    queues = [q.strip() for q in args.queues.split(",") if q.strip()]
    unknown = [q for q in queues if q not in POOLS]
    if unknown or not queues:
        raise YatzyError(f"--queues {args.queues!r}: the pools are {', '.join(POOLS)}")
    level = logging.getLevelName(args.log_level.upper())
    if not isinstance(level, int):
        raise YatzyError(f"--log-level {args.log_level!r} is not debug, info, warning or error")
    logging.basicConfig(level=level, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    if level > logging.DEBUG:
        # procrastinate says two lines per job at "info": one per move of every game
        # followed, for the live chances; its warnings and errors still show.
        logging.getLogger("procrastinate").setLevel(max(level, logging.WARNING))
    # the migrations it runs first (ensure_schema) say a line per plugin at "info"
    logging.getLogger("alembic").setLevel(max(level, logging.WARNING))
    import psycopg
    import sqlalchemy.exc

    from yatzy.store.db import shown_url
    from yatzy.web.pg_jobs import conninfo, ensure_schema

    try:
        ensure_schema(conninfo(url))  # and a first check that the database answers
    except (psycopg.Error, sqlalchemy.exc.SQLAlchemyError) as exc:
        reason = getattr(exc, "orig", None) or exc  # SQLAlchemy's wraps the driver's
        first = str(reason).strip().splitlines()[0] if str(reason).strip() else type(exc).__name__
        raise YatzyError(f"cannot use the database {shown_url(url)}: {first}") from None
    if args.nice:
        os.nice(args.nice)  # the children it starts (none yet) would inherit it
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(work(url, queues, args.concurrency, args.stalled_after))
    return 0


def _plain(url: str) -> str:
    return "postgresql://" + url.split("://", 1)[1] if url.startswith("postgres") else url


async def work(url: str, queues: list[str], concurrency: int, stalled_after: float) -> None:
    """Run the jobs of ``queues`` (and, every few seconds, queue again those of stalled
    workers and prune old results) until cancelled."""
    # The job kinds' functions are registered by the modules that own them.
    import yatzy.web.chances
    import yatzy.web.hints
    import yatzy.web.prepare
    import yatzy.web.rated  # noqa: F401
    from yatzy.web.pg_jobs import JobRunner, conninfo, ensure_schema, procrastinate_app

    dsn = conninfo(url)
    await asyncio.to_thread(ensure_schema, dsn)
    app = procrastinate_app(dsn, JobRunner(dsn))
    print(f"yatzy worker: running {', '.join(queues)} jobs", flush=True)
    async with app.open_async():
        janitor = asyncio.get_running_loop().create_task(_janitor(app, dsn, stalled_after))
        try:
            await app.run_worker_async(
                queues=queues,
                concurrency=concurrency,
                # The heartbeat is what tells the others this worker lives.
                update_heartbeat_interval=max(0.5, stalled_after / 4),
                stalled_worker_timeout=stalled_after,
                # A job's row in yatzy_jobs keeps its result; procrastinate's is spent.
                delete_jobs="successful",
            )
        finally:
            janitor.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await janitor


async def _janitor(app: Any, dsn: str, stalled_after: float) -> None:
    from yatzy.web.pg_jobs import prune, requeue_orphans, retry_stalled

    log = logging.getLogger("yatzy.web")
    rounds = 0
    while True:
        try:
            await retry_stalled(app, stalled_after)
            if rounds % 12 == 0:
                await requeue_orphans(app, dsn)
            if rounds % 600 == 0:
                await asyncio.to_thread(prune, dsn)
        except Exception as exc:  # the database went away: the next round tries again
            log.warning("worker janitor: %s", exc)
        rounds += 1
        await asyncio.sleep(max(0.5, min(5.0, stalled_after / 4)))
