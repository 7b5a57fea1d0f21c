"""Migration 0013: the jobs' tables (procrastinate's schema and ``yatzy_jobs``) are made
by the store's migrations on PostgreSQL, also where an older release made them on first
use (kept as they are), and not at all on SQLite."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text

from tests.postgres import pg_or_skip, postgres_database
from tests.store.support import alembic, schema_diff
from tests.store.support import table_names as tables
from yatzy.store.db import make_engine

JOB_TABLES = {"procrastinate_jobs", "procrastinate_workers", "yatzy_jobs"}


def test_sqlite_has_no_job_tables(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'yatzy.db'}"
    alembic(url, ("upgrade", "head"))
    assert not JOB_TABLES & tables(url)
    assert "games" in tables(url)


@pytest.mark.pg
def test_the_migration_makes_the_job_tables_and_the_models_still_match() -> None:
    pg_or_skip()
    with postgres_database() as url:
        alembic(url, ("upgrade", "0012"))
        assert not JOB_TABLES & tables(url)  # before 0013: made on first use only
        alembic(url, ("upgrade", "head"))
        assert tables(url) >= JOB_TABLES
        assert schema_diff(url) == []


@pytest.mark.pg
def test_a_deployment_that_made_them_on_first_use_keeps_them_and_its_jobs() -> None:
    import psycopg
    from procrastinate.schema import SchemaManager

    from yatzy.web.pg_jobs import conninfo, ensure_schema

    pg_or_skip()
    with postgres_database() as url:
        alembic(url, ("upgrade", "0012"))
        with psycopg.connect(conninfo(url), autocommit=True) as conn:  # the old way
            conn.execute(SchemaManager.get_schema())
            conn.execute(
                "CREATE TABLE yatzy_jobs (key TEXT PRIMARY KEY, pool TEXT NOT NULL, "
                "kind TEXT NOT NULL, args JSONB NOT NULL, client TEXT, state TEXT NOT NULL, "
                "result JSONB, error TEXT, attempts INTEGER NOT NULL DEFAULT 0, "
                "updated TIMESTAMPTZ NOT NULL DEFAULT now())"
            )
            conn.execute(
                "INSERT INTO yatzy_jobs (key, pool, kind, args, state) "
                "VALUES ('k', 'tables', 'table', '{}', 'queued')"
            )
        ensure_schema(conninfo(url))  # a worker's start: the migrations, 0013 included
        engine = make_engine(url)
        with engine.connect() as conn:
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
            assert conn.execute(text("SELECT state FROM yatzy_jobs")).scalar() == "queued"
        engine.dispose()
        assert tables(url) >= JOB_TABLES
