"""What the store tests share: Alembic run on a database, and what is in it (its
tables, and how its schema differs from the models)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import inspect

from yatzy.store.db import MIGRATIONS, include_name, make_engine
from yatzy.store.models import Base


def alembic(url: str, *steps: tuple[str, str]) -> None:
    """Run the store's migrations on ``url``: each step ``(command, revision)``, such
    as ``("upgrade", "head")`` or ``("downgrade", "0003")``, in one transaction."""
    from alembic import command
    from alembic.config import Config

    engine = make_engine(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        for how, revision in steps:
            getattr(command, how)(cfg, revision)
    engine.dispose()


def table_names(url: str) -> set[str]:
    """The tables of the database at ``url``."""
    engine = make_engine(url)
    with engine.connect() as conn:
        names = set(inspect(conn).get_table_names())
    engine.dispose()
    return names


def schema_diff(url: str) -> list[Any]:
    """What Alembic would change to make the database at ``url`` match the models
    (empty: it matches)."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    engine = make_engine(url)
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"include_name": include_name})
        diff = list(compare_metadata(context, Base.metadata))
    engine.dispose()
    return diff
