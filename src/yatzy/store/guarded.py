"""The store's guarded state change: one conditional ``UPDATE`` whose ``WHERE`` names
the state the row must still be in (a stamp, a version, ``state = 'open'``, a time
not yet set), so that of several server processes that try the same change on one
database exactly one wins and the others learn it from the count of rows changed.

The SQL is the same on PostgreSQL and SQLite: the update takes the row's lock
(PostgreSQL's row lock, SQLite's write transaction) before it checks the condition,
so two tries at once cannot both see the old state.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, Table, update


def guarded_update(conn: Any, table: Table, /, *where: ColumnElement[bool], **values: Any) -> bool:
    """``UPDATE table SET values WHERE where`` (all of them) on ``conn``, in the
    caller's transaction; whether exactly one row changed (False: no row was in the
    state ``where`` asks, and nothing was written)."""
    done = conn.execute(update(table).where(*where).values(**values))
    return bool(done.rowcount == 1)


__all__ = ["guarded_update"]
