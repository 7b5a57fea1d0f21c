"""Alembic environment: runs on the connection that :func:`yatzy.store.migrate` passes."""

from __future__ import annotations

from alembic import context

from yatzy.store.db import include_name
from yatzy.store.models import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata, include_name=include_name)
with context.begin_transaction():
    context.run_migrations()
