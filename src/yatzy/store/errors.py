"""The store's refusals (they subclass :class:`yatzy.errors.YatzyError`, a ``ValueError``)."""

from __future__ import annotations

from yatzy.errors import YatzyError


class NotFoundError(YatzyError):
    """No game with the given id."""


class ConflictError(YatzyError):
    """The game changed since it was read (another action won the race)."""


class UnavailableError(YatzyError):
    """The database connection failed mid-request (an action may or may not be stored)."""


class DatabaseOpenError(YatzyError):
    """The database cannot be opened: a URL that names no database, a folder that does
    not exist, a file that is not a database, a server that does not answer.  The
    message is one line and names the URL (without its password)."""
