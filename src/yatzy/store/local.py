"""This computer's games: finished terminal games in the web app's local database.

``yatzy play`` records every finished game in the same store the web app uses by
default (SQLite in the user's data directory), so ``yatzy stats`` and the web
history show terminal and browser games together.  The people at this computer are
one *owner*, the same thing a browser's ``yz_owner`` cookie is to the web app: a
secret token kept in ``$XDG_STATE_HOME/yatzy/owner`` (made on first use, readable
by the user only).  ``yatzy serve`` prints a link that gives a browser that owner
(``/owner?token=...``), after which its history holds both.
"""

from __future__ import annotations

import hashlib
import os
import secrets
from pathlib import Path

import orjson

from yatzy.game import State, to_record
from yatzy.store.repo import GameRepository
from yatzy.store.stored import SeatInfo, StoredGame

__all__ = [
    "adopt_owner",
    "existing_local_owner",
    "finished_game_id",
    "local_owner",
    "local_solo_record",
    "owner_file",
    "owner_hash",
    "record_finished_game",
    "record_finished_game_once",
]


def owner_file() -> Path:
    """Where this computer's owner token lives: ``$XDG_STATE_HOME/yatzy/owner``."""
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "state"
    )
    return Path(base) / "yatzy" / "owner"


def local_owner() -> str:
    """This computer's owner token, made (256 random bits, URL-safe) on first use."""
    path = owner_file()
    try:
        token = path.read_text(encoding="ascii").strip()
        if token:
            return token
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    token = secrets.token_urlsafe(32)
    # O_EXCL: two games finishing at once must not end up with two owners.
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text(encoding="ascii").strip()
    with os.fdopen(fd, "w", encoding="ascii") as out:
        out.write(token + "\n")
    return token


def existing_local_owner() -> str | None:
    """This computer's owner token if a terminal game has made one, else ``None``."""
    try:
        token = owner_file().read_text(encoding="ascii").strip()
    except (FileNotFoundError, UnicodeDecodeError):
        return None
    return token or None


def adopt_owner(repo: GameRepository, old_hash: str, new_hash: str) -> int:
    """Move every seat held by the owner ``old_hash`` to ``new_hash`` (a browser that
    takes this computer's owner keeps its own games); the number of seats moved."""
    from sqlalchemy import update

    from yatzy.store.repo import SEATS

    if old_hash == new_hash:
        return 0
    with repo.engine.begin() as conn:
        moved = conn.execute(
            update(SEATS).where(SEATS.c.owner_hash == old_hash).values(owner_hash=new_hash)
        )
    return int(moved.rowcount or 0)


def owner_hash(token: str) -> str:
    """The stored form of an owner token (SHA-256, hex), as the web app stores it."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def finished_game_id(record: str, holder: str) -> str:
    """The store's id of the finished game with the record text ``record`` held by the
    owner hash ``holder``: a digest of the two, so the same game recorded again (a
    finished game's file resumed) has the same id and is stored once."""
    return hashlib.sha256(f"{holder}\n{record}".encode()).hexdigest()[:32]


def record_finished_game(
    state: State, *, url: str | None = None, owner: str | None = None, lang: str = "en"
) -> str:
    """Store a finished game of ``yatzy play`` for this computer's owner; its id.

    The people's seats belong to ``owner`` (default :func:`local_owner`); bots hold
    none.  Nobody can join or act in it: its invite and seat tokens are random and
    thrown away.  A game is stored once: recording it again (its file resumed after
    the end) finds it by its id, a digest of the owner and the record (or, stored
    before that, by the record itself) and stores nothing (see
    :func:`record_finished_game_once`).  Raises :class:`ValueError` for a game that
    is not over.
    """
    return record_finished_game_once(state, url=url, owner=owner, lang=lang)[0]


def record_finished_game_once(
    state: State, *, url: str | None = None, owner: str | None = None, lang: str = "en"
) -> tuple[str, bool]:
    """:func:`record_finished_game`, and whether this call stored it (``False``: the
    game was in the store already)."""
    from sqlalchemy.exc import IntegrityError

    if not state.is_terminal():
        raise ValueError("only a finished game is recorded")
    holder = owner_hash(owner or local_owner())
    record = orjson.dumps(to_record(state)).decode()
    seats = [
        SeatInfo(
            i,
            p.name,
            p.bot,
            None if p.bot else owner_hash(secrets.token_urlsafe(32)),
            None if p.bot else holder,
        )
        for i, p in enumerate(state.players)
    ]
    game_id = finished_game_id(record, holder)
    stored = StoredGame.new(
        game_id,
        state.rules.spec,
        lang,
        state.game.pad,
        False,
        owner_hash(secrets.token_urlsafe(32)),
        record,
        True,
        seats,
    )
    repo = GameRepository.open(url)
    try:
        earlier = repo.finished_game_with_record(holder, record)
        if earlier is not None:
            return earlier, False
        try:
            repo.insert(stored)
        except IntegrityError:  # the same game, recorded by another process just now
            return game_id, False
    finally:
        repo.close()
    return game_id, True


def local_solo_record(
    spec: str, url: str | None = None, *, leave_out: State | None = None
) -> int | None:
    """This computer's solo record for the rules ``spec``: the best final total of its
    finished one-seat games in the local database (``None``: no such game, no owner
    yet, or a database that cannot be read, which only means there is no record).

    ``leave_out``: a finished game not to count even when it is stored (``yatzy
    play`` stores every finished game; rating a record-setting game against itself
    would be wrong).
    """
    token = existing_local_owner()
    if token is None:
        return None
    holder = owner_hash(token)
    try:
        repo = GameRepository.open(url)
    except Exception:  # no database to read: no record
        return None
    try:
        itself = None
        if leave_out is not None and leave_out.is_terminal():
            record = orjson.dumps(to_record(leave_out)).decode()
            itself = repo.finished_game_with_record(holder, record)
        return repo.best_solo_total(holder, spec, exclude=itself)
    except Exception:  # a database that cannot be read: no record
        return None
    finally:
        repo.close()
