"""The jobs' tables on PostgreSQL: procrastinate's schema and ``yatzy_jobs``.

Heavy work on PostgreSQL runs as jobs of procrastinate (:mod:`yatzy.web.pg_jobs`); its
tables, functions and types were made on first use by the web and worker processes,
outside these migrations.  Here they are made by ``yatzy migrate``/``yatzy serve`` like
every other table: procrastinate's own schema SQL (what ``procrastinate schema
--apply`` runs), unless its ``procrastinate_jobs`` table is there already (a deployment
that made it on first use keeps it as it is), and the job layer's ``yatzy_jobs``.  A
later procrastinate release whose schema changes gets a migration of its own that runs
procrastinate's migration SQL for it.  SQLite has no jobs of workers (an in-process
pool): nothing to do there.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-26
"""

from __future__ import annotations

from typing import Any

from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

SCHEMA_LOCK = 0x7A7A_0B5
"""The advisory lock the processes took to make these tables on first use (a process
of an older release starting meanwhile waits for this migration, and then finds them)."""

YATZY_JOBS = """
CREATE TABLE IF NOT EXISTS yatzy_jobs (
    key TEXT PRIMARY KEY,
    pool TEXT NOT NULL,
    kind TEXT NOT NULL,
    args JSONB NOT NULL,
    client TEXT,
    state TEXT NOT NULL,
    result JSONB,
    error TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    updated TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS yatzy_jobs_pool_state ON yatzy_jobs (pool, state);
"""
"""Each job's state and result (as :mod:`yatzy.web.pg_jobs` reads and writes them)."""


def _driver(bind: Any) -> Any:
    """The psycopg connection under SQLAlchemy's, in the migration's transaction: the
    schema SQL is many statements with ``%`` in them, sent as they are."""
    return bind.connection.driver_connection


def upgrade() -> None:
    """Make procrastinate's schema (unless there) and ``yatzy_jobs`` on PostgreSQL."""
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return
    conn = _driver(bind)
    conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
    row = conn.execute("SELECT to_regclass('procrastinate_jobs')").fetchone()
    if row is None or row[0] is None:
        from procrastinate.schema import SchemaManager

        conn.execute(SchemaManager.get_schema())
    conn.execute(YATZY_JOBS)


def downgrade() -> None:
    """Leave the jobs' tables: jobs may be under way, and a deployment of the older
    release makes or uses the same tables on first use."""
