"""Database URLs, engines and the automatic schema migration (Alembic)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.pool import StaticPool

from yatzy.errors import YatzyError
from yatzy.store.errors import DatabaseOpenError

MIGRATIONS = Path(__file__).with_name("migrations")


def default_database_url() -> str:
    """SQLite in the user's data directory (``~/.local/share/yatzy/yatzy.db`` on Linux)."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir("yatzy", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'yatzy.db'}"


def database_url(url: str | None) -> str:
    """The SQLAlchemy URL for ``url`` (default SQLite file; ``postgresql://`` uses psycopg 3)."""
    if not url:
        return default_database_url()
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    if url.startswith(("sqlite:", "postgresql+psycopg:")):
        return url
    raise YatzyError(f"database URL {url!r} is neither sqlite:///FILE nor postgresql://...")


def is_postgres(url: str) -> bool:
    """Whether ``url`` names a PostgreSQL database."""
    return url.startswith("postgresql")


def shown_url(url: str) -> str:
    """``url`` as a message may show it: without its password."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return url


def sqlite_file(url: str) -> Path | None:
    """The file a ``sqlite:`` URL names (``None``: in memory, or not SQLite)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    if not url.startswith("sqlite:"):
        return None
    try:
        name = make_url(url).database
    except ArgumentError:
        raise DatabaseOpenError(f"database URL {url!r} is not a valid sqlite:///FILE") from None
    if not name or name == ":memory:" or name.startswith("file:"):
        return None
    return Path(name)


def check_url(url: str | None, *, must_exist: bool = False) -> str:
    """The SQLAlchemy URL for ``url``, checked without connecting: a SQLite file's folder
    must exist (nothing is created where the user did not ask; only the default
    database's own folder is made), and with ``must_exist`` the file too.  Raises
    :class:`~yatzy.store.errors.DatabaseOpenError` (one line) otherwise."""
    given = url
    url = database_url(url)
    path = sqlite_file(url)
    if given and path is not None:
        if not path.parent.is_dir():
            raise DatabaseOpenError(
                f"database URL {given!r}: the folder {path.parent} does not exist"
            )
        if must_exist and not path.is_file():
            raise DatabaseOpenError(f"database URL {given!r}: there is no database file {path}")
    return url


def make_engine(url: str | None, *, must_exist: bool = False) -> Engine:
    """An engine for ``url``; SQLite gets WAL, a busy timeout and foreign keys.

    The URL is checked first (:func:`check_url`): a SQLite file in a folder that does
    not exist is refused, not created."""
    url = check_url(url, must_exist=must_exist)
    if not is_postgres(url):
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": 5},
            poolclass=StaticPool if url in ("sqlite://", "sqlite:///:memory:") else None,
        )

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            # WAL: readers never block the writer; NORMAL sync stays durable when the
            # process is killed (only a power loss may drop the last transactions).
            # The driver's own transaction handling is off; the "begin" hook emits BEGIN.
            dbapi_connection.isolation_level = None
            cur = dbapi_connection.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=5000")
            # The repository checkpoints from a thread of its own; a commit checkpoints
            # only if the log grows past 40 MB regardless.
            cur.execute("PRAGMA wal_autocheckpoint=10000")
            cur.close()

        @event.listens_for(engine, "begin")
        def _begin(conn: Any) -> None:
            # A write transaction takes the write lock at once, so two writers queue
            # on the busy timeout instead of failing on a stale read snapshot.
            write = conn.get_execution_options().get("write", False)
            conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

        return engine
    # No pre-ping: it costs a round trip per checkout.  A connection that died (server
    # restart) fails its request once and the pool reconnects.  The hot paths use the
    # repository's asyncpg connections (8 + 2 per process); this pool serves the
    # rarer reads and writes from worker threads, so 4 server processes stay well
    # under PostgreSQL's default of 100 connections (4 x (10 + 6)).
    return create_engine(url, pool_size=4, max_overflow=2, pool_pre_ping=False)


NOT_MODELLED = ("procrastinate_", "yatzy_jobs", "yatzy_rate_buckets", "yatzy_cap_")
"""Names of tables (and their indexes, types, functions) in the store's database that
the models do not describe: the job library's and the shared limits' (made by
migration 0013 or on first use)."""


def include_name(name: str | None, type_: str, parent_names: Any = None) -> bool:
    """Alembic's ``include_name`` filter: the store's own objects, not those of
    :data:`NOT_MODELLED` (for autogenerate and schema comparisons)."""
    return not (type_ == "table" and name is not None and name.startswith(NOT_MODELLED))


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest Alembic revision (safe when processes race)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            # Several server processes may start at once: one migrates, the rest wait.
            conn.execute(text("SELECT pg_advisory_xact_lock(7355608)"))
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
