"""Free text in games, between friends only (issue 26): the ``game_messages`` table.

A line is never a move of its game (moves are public: every viewer and every export
reads them).  It keeps the writer's account and seat, and ``audience``: the
accounts it was delivered to, the writer's friends among the game's players when it
was written.  Who may read a line is decided when it is read
(:meth:`MessageStore.visible`): the writer, and each account of its audience that
has been the writer's friend ever since (a block or an unfriending hides earlier
lines for good).
A game keeps its latest :data:`KEPT` lines; older ones are dropped as new ones come.

On PostgreSQL a line written is announced on :data:`MESSAGES_CHANNEL` as
``game:origin:owner,owner,...`` (the owner hashes of the writer and its audience),
so that every server process nudges the sockets of those people only.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import Table, delete, insert, select, text

from yatzy.store.accounts import ACCOUNTS, account_owner, owner_hash
from yatzy.store.errors import NotFoundError
from yatzy.store.models import FriendLinkRow, GameMessageRow
from yatzy.store.pg_writer import utc_now
from yatzy.store.repo import GAMES, SEATS, GameRepository

MESSAGES = cast(Table, GameMessageRow.__table__)
LINKS = cast(Table, FriendLinkRow.__table__)

KEPT = 200
"""The most lines a game keeps (the oldest go first): no game grows without bound."""
MESSAGES_CHANNEL = "yatzy_messages"
"""PostgreSQL channel on which a line written is announced (see the module's text)."""


@dataclass(frozen=True)
class Message:
    """A line of free text as stored, with its writer's account name."""

    id: int
    game_id: str
    sender_id: str
    sender: str
    """The writer's account name."""
    seat: int
    audience: tuple[str, ...]
    text: str
    created_at: datetime


def _aware(moment: datetime) -> datetime:
    """``moment`` with its zone (SQLite gives stored times back naive, in UTC)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _message(row: Any) -> Message:
    return Message(
        id=int(row.id),
        game_id=str(row.game_id),
        sender_id=str(row.sender_id),
        sender=str(row.name),
        seat=int(row.seat),
        audience=tuple(str(row.audience).split()),
        text=str(row.text),
        created_at=_aware(row.created_at),
    )


class MessageStore:
    """Reads and writes the games' free text over ``repo``'s engine."""

    def __init__(self, repo: GameRepository) -> None:
        self.repo = repo
        self.engine = repo.engine

    # -- who is who -------------------------------------------------------------------------

    def seats_held(self, game_id: str) -> dict[str, list[int]]:
        """The owner hashes that hold seats of the game (claimed seats only), each
        with its seats in order; :class:`NotFoundError` for a game that does not exist."""
        with self.engine.connect() as conn, conn.begin():
            if conn.execute(select(GAMES.c.id).where(GAMES.c.id == game_id)).first() is None:
                raise NotFoundError(f"no game {game_id!r}")
            rows = conn.execute(
                select(SEATS.c.owner_hash, SEATS.c.seat)
                .where(
                    SEATS.c.game_id == game_id,
                    SEATS.c.owner_hash.is_not(None),
                    SEATS.c.token_hash.is_not(None),
                )
                .order_by(SEATS.c.seat)
            ).all()
        held: dict[str, list[int]] = {}
        for owner, seat in rows:
            held.setdefault(str(owner), []).append(int(seat))
        return held

    def friends(self, account_id: str) -> dict[str, datetime]:
        """The accounts that are ``account_id``'s friends, both ways (a block or a
        removal ends either side: see :mod:`yatzy.store.friends`), each with when
        the friendship as it stands began (a friendship ended and made again begins
        anew)."""
        theirs = LINKS.alias("theirs")
        with self.engine.connect() as conn, conn.begin():
            rows = conn.execute(
                select(LINKS.c.other_id, LINKS.c.created_at, theirs.c.created_at)
                .join(
                    theirs,
                    (theirs.c.account_id == LINKS.c.other_id)
                    & (theirs.c.other_id == LINKS.c.account_id),
                )
                .where(
                    LINKS.c.account_id == account_id,
                    LINKS.c.state == "friends",
                    theirs.c.state == "friends",
                )
            ).all()
        return {str(r[0]): max(_aware(r[1]), _aware(r[2])) for r in rows}

    def names(self, account_ids: Iterable[str]) -> dict[str, str]:
        """The account names of these accounts (those that exist)."""
        ids = list(account_ids)
        if not ids:
            return {}
        with self.engine.connect() as conn, conn.begin():
            rows = conn.execute(
                select(ACCOUNTS.c.id, ACCOUNTS.c.name).where(ACCOUNTS.c.id.in_(ids))
            ).all()
        return {str(r[0]): str(r[1]) for r in rows}

    # -- writing ----------------------------------------------------------------------------

    def add(
        self, game_id: str, sender_id: str, seat: int, audience: Iterable[str], line: str
    ) -> int:
        """Store a line (its text checked already) delivered to ``audience``; its id.
        The game's lines past :data:`KEPT` are dropped, the oldest first; on
        PostgreSQL the line is announced to every server process at the commit."""
        heard = sorted(set(audience))
        with self.repo.write_connection() as conn, conn.begin():
            new_id = conn.execute(
                insert(MESSAGES)
                .values(
                    game_id=game_id,
                    sender_id=sender_id,
                    seat=seat,
                    audience=" ".join(heard),
                    text=line,
                    created_at=utc_now(),
                )
                .returning(MESSAGES.c.id)
            ).scalar_one()
            # the newest line past the game's KEPT latest, if any: it and older go
            dropped = conn.execute(
                select(MESSAGES.c.id)
                .where(MESSAGES.c.game_id == game_id)
                .order_by(MESSAGES.c.id.desc())
                .offset(KEPT)
                .limit(1)
            ).scalar()
            if dropped is not None:
                conn.execute(
                    delete(MESSAGES).where(MESSAGES.c.game_id == game_id, MESSAGES.c.id <= dropped)
                )
            if self.repo.postgres:  # delivered to every server process at the commit
                owners = ",".join(owner_hash(account_owner(a)) for a in [sender_id, *heard])
                conn.execute(
                    text("SELECT pg_notify(:channel, :note)"),
                    {"channel": MESSAGES_CHANNEL, "note": f"{game_id}:{self.repo.origin}:{owners}"},
                )
        return int(new_id)

    def announce_ties(self, account_ids: Iterable[str]) -> None:
        """Tell every server process (PostgreSQL) that the ties of these accounts
        changed: their pages read their games' lines again (``*`` for the game)."""
        if not self.repo.postgres:
            return
        owners = ",".join(owner_hash(account_owner(a)) for a in account_ids)
        with self.engine.connect() as conn, conn.begin():
            conn.execute(
                text("SELECT pg_notify(:channel, :note)"),
                {"channel": MESSAGES_CHANNEL, "note": f"*:{self.repo.origin}:{owners}"},
            )

    # -- reading ----------------------------------------------------------------------------

    def lines(self, game_id: str, after: int = 0) -> list[Message]:
        """The game's lines after the id ``after``, oldest first (for everyone: the
        caller filters with :meth:`visible`)."""
        with self.engine.connect() as conn, conn.begin():
            rows = conn.execute(
                select(MESSAGES, ACCOUNTS.c.name)
                .join(ACCOUNTS, ACCOUNTS.c.id == MESSAGES.c.sender_id)
                .where(MESSAGES.c.game_id == game_id, MESSAGES.c.id > after)
                .order_by(MESSAGES.c.id)
            ).all()
        return [_message(r) for r in rows]

    def visible(self, game_id: str, viewer_id: str, after: int = 0) -> list[Message]:
        """The game's lines after ``after`` that the account ``viewer_id`` may read:
        its own, and those delivered to it whose writer has been its friend ever
        since (a block or an unfriending hides them for good, even once they are
        friends again)."""
        friends = self.friends(viewer_id)
        return [
            m
            for m in self.lines(game_id, after)
            if m.sender_id == viewer_id
            or (
                viewer_id in m.audience
                and m.sender_id in friends
                and friends[m.sender_id] <= m.created_at
            )
        ]

    def written_by(self, account_id: str) -> list[Message]:
        """Every line the account wrote, oldest first (its data export)."""
        with self.engine.connect() as conn, conn.begin():
            rows = conn.execute(
                select(MESSAGES, ACCOUNTS.c.name)
                .join(ACCOUNTS, ACCOUNTS.c.id == MESSAGES.c.sender_id)
                .where(MESSAGES.c.sender_id == account_id)
                .order_by(MESSAGES.c.id)
            ).all()
        return [_message(r) for r in rows]


__all__ = ["KEPT", "MESSAGES", "MESSAGES_CHANNEL", "Message", "MessageStore"]
