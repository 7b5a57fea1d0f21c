"""Persistence of web games: SQLAlchemy models, migrations and the game repository.

A game is stored as its core game record (:mod:`yatzy.game.record`, the event log)
plus a row version that every action bumps in the same transaction, and one
``moves`` row per action for the audit trail.  The store never decides a rule:
it saves what the core produced.
"""

from __future__ import annotations

from yatzy.store.db import database_url, default_database_url, make_engine, migrate
from yatzy.store.errors import ConflictError, NotFoundError, UnavailableError
from yatzy.store.repo import GameRepository
from yatzy.store.stored import SeatInfo, StoredGame

__all__ = [
    "ConflictError",
    "GameRepository",
    "NotFoundError",
    "SeatInfo",
    "StoredGame",
    "UnavailableError",
    "database_url",
    "default_database_url",
    "make_engine",
    "migrate",
]
