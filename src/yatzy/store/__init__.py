"""Persistence of web games: SQLAlchemy models, migrations and the game repository.

A game is stored as its core game record (:mod:`yatzy.game.record`, the event log)
plus a row version that every action bumps in the same transaction, and one
``moves`` row per action for the audit trail.  The store never decides a rule:
it saves what the core produced.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from yatzy.store.db import database_url, default_database_url, make_engine, migrate
    from yatzy.store.errors import ConflictError, NotFoundError, UnavailableError
    from yatzy.store.repo import GameRepository
    from yatzy.store.stored import SeatInfo, StoredGame

# Loaded on first use (PEP 562): a command that needs only one of the store's modules
# (`yatzy worker`'s and `yatzy serve`'s checks of a URL, `yatzy play --database-url`'s)
# then does not import the models and the repository with it (about 0.2 CPU-s).
_HOME = {
    "database_url": "yatzy.store.db",
    "default_database_url": "yatzy.store.db",
    "make_engine": "yatzy.store.db",
    "migrate": "yatzy.store.db",
    "ConflictError": "yatzy.store.errors",
    "NotFoundError": "yatzy.store.errors",
    "UnavailableError": "yatzy.store.errors",
    "GameRepository": "yatzy.store.repo",
    "SeatInfo": "yatzy.store.stored",
    "StoredGame": "yatzy.store.stored",
}

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


def __getattr__(name: str) -> Any:
    """The public names, each imported from its module on first use."""
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'yatzy.store' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value  # once: later uses skip this function
    return value
