"""Friends between accounts: requests, acceptance, removal and blocks.

Each tie is stored one way, as ``friend_links(account_id, other_id, state)``:
``requested`` (``account_id`` asked ``other_id``), ``friends`` (written both ways when a
request is accepted) or ``blocked`` (``account_id`` blocked ``other_id``).  A block
removes every other tie between the two, and the blocked account is never told: its
requests stay pending on its side and are shown to nobody.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, cast

from sqlalchemy import Table, and_, delete, insert, select

from yatzy.errors import YatzyError
from yatzy.store.accounts import ACCOUNTS, SESSIONS, account_owner, owner_hash
from yatzy.store.models import FriendLinkRow
from yatzy.store.pg_writer import utc_now
from yatzy.store.repo import GAMES, SEATS, GameRepository

LINKS = cast(Table, FriendLinkRow.__table__)


class BlockedFriendError(YatzyError):
    """A friend request to an account that the asker has blocked (unblock it first)."""


@dataclass(frozen=True)
class FriendLists:
    """An account's ties by the other accounts' names, each list in name order."""

    friends: list[str]
    incoming: list[str]
    """Requests to this account, waiting for its answer."""
    outgoing: list[str]
    """Its own requests, not answered yet."""
    blocked: list[str]
    online: list[str] = field(default_factory=list)
    """Friends seen in the last :data:`ONLINE_WITHIN` (a session's last request)."""
    playing: list[str] = field(default_factory=list)
    """Friends with a game in play that moved in the last :data:`ONLINE_WITHIN`."""


ONLINE_WITHIN = timedelta(minutes=10)
"""How recent a friend's last request (or game's move) must be to count as online (or
playing).  Sessions note their last request at most every five minutes
(:data:`yatzy.store.accounts.SEEN_EVERY`), so presence is that coarse, and the same
from every server process, as it is read from the database."""


class FriendStore:
    """Reads and writes friend links over ``repo``'s engine."""

    def __init__(self, repo: GameRepository) -> None:
        self.repo = repo
        self.engine = repo.engine

    def lists(self, me: str) -> FriendLists:
        """The account's friends, requests both ways and blocks."""
        with self.engine.connect() as conn, conn.begin():
            mine = conn.execute(
                select(LINKS.c.state, ACCOUNTS.c.name)
                .join(ACCOUNTS, ACCOUNTS.c.id == LINKS.c.other_id)
                .where(LINKS.c.account_id == me)
            ).all()
            blocked_ids = select(LINKS.c.other_id).where(
                LINKS.c.account_id == me, LINKS.c.state == "blocked"
            )
            incoming = conn.execute(
                select(ACCOUNTS.c.name)
                .join(LINKS, ACCOUNTS.c.id == LINKS.c.account_id)
                .where(
                    LINKS.c.other_id == me,
                    LINKS.c.state == "requested",
                    LINKS.c.account_id.not_in(blocked_ids),
                )
            ).all()

        def names(state: str) -> list[str]:
            return sorted((n for s, n in mine if s == state), key=str.casefold)

        online, playing = self._presence(me)
        return FriendLists(
            names("friends"),
            sorted((r[0] for r in incoming), key=str.casefold),
            names("requested"),
            names("blocked"),
            online,
            playing,
        )

    def _presence(self, me: str) -> tuple[list[str], list[str]]:
        """The account's friends online, and those of them in a game that moves."""
        since = utc_now() - ONLINE_WITHIN
        with self.engine.connect() as conn, conn.begin():
            rows = conn.execute(
                select(ACCOUNTS.c.id, ACCOUNTS.c.name)
                .join(LINKS, ACCOUNTS.c.id == LINKS.c.other_id)
                .where(LINKS.c.account_id == me, LINKS.c.state == "friends")
            ).all()
            friends = [(str(r[0]), str(r[1])) for r in rows]
            if not friends:
                return [], []
            ids = [f for f, _ in friends]
            seen = {
                r[0]
                for r in conn.execute(
                    select(SESSIONS.c.account_id).where(
                        SESSIONS.c.account_id.in_(ids), SESSIONS.c.seen_at >= since
                    )
                )
            }
            owners = {owner_hash(account_owner(f)): f for f in ids}
            busy = {
                owners[r[0]]
                for r in conn.execute(
                    select(SEATS.c.owner_hash)
                    .join(GAMES, GAMES.c.id == SEATS.c.game_id)
                    .where(
                        SEATS.c.owner_hash.in_(list(owners)),
                        GAMES.c.finished.is_(False),
                        GAMES.c.updated_at >= since,
                    )
                )
            }
        by_name = sorted(friends, key=lambda f: f[1].casefold())
        return (
            [n for f, n in by_name if f in seen or f in busy],
            [n for f, n in by_name if f in busy],
        )

    @staticmethod
    def _state(conn: Any, a: str, b: str) -> str | None:
        state = conn.execute(
            select(LINKS.c.state).where(LINKS.c.account_id == a, LINKS.c.other_id == b)
        ).scalar()
        return None if state is None else str(state)

    @staticmethod
    def _set(conn: Any, a: str, b: str, state: str) -> None:
        conn.execute(delete(LINKS).where(LINKS.c.account_id == a, LINKS.c.other_id == b))
        conn.execute(
            insert(LINKS).values(account_id=a, other_id=b, state=state, created_at=utc_now())
        )

    def tie(self, me: str, other: str) -> str | None:
        """``me``'s tie to ``other`` (``requested``, ``friends``, ``blocked``), if any."""
        with self.engine.connect() as conn, conn.begin():
            return self._state(conn, me, other)

    def request(self, me: str, other: str) -> str:
        """``me`` asks ``other`` to be friends: ``friends`` when ``other`` had asked
        already (or they are), else ``requested`` (also when ``other`` blocked ``me``:
        the request then waits unseen).  :class:`BlockedFriendError` when ``me``
        blocked ``other``."""
        with self.repo.write_connection() as conn, conn.begin():
            mine, theirs = self._state(conn, me, other), self._state(conn, other, me)
            if mine == "blocked":
                raise BlockedFriendError("you have blocked this account: unblock it first")
            if mine == "friends":
                return "friends"
            if theirs == "requested":
                self._set(conn, other, me, "friends")
                self._set(conn, me, other, "friends")
                return "friends"
            if mine is None:
                self._set(conn, me, other, "requested")
            return "requested"

    def accept(self, me: str, other: str) -> bool:
        """``me`` accepts ``other``'s request; whether there was one (and ``me`` has
        not blocked ``other``)."""
        with self.repo.write_connection() as conn, conn.begin():
            if self._state(conn, other, me) != "requested":
                return False
            if self._state(conn, me, other) == "blocked":
                return False
            self._set(conn, other, me, "friends")
            self._set(conn, me, other, "friends")
            return True

    def remove(self, me: str, other: str) -> None:
        """End the friendship or the request between the two, either way (a block
        stays)."""
        with self.repo.write_connection() as conn, conn.begin():
            conn.execute(
                delete(LINKS).where(
                    LINKS.c.state != "blocked",
                    ((LINKS.c.account_id == me) & (LINKS.c.other_id == other))
                    | ((LINKS.c.account_id == other) & (LINKS.c.other_id == me)),
                )
            )

    def block(self, me: str, other: str) -> None:
        """``me`` blocks ``other``: every tie between them ends, ``other``'s requests
        are seen no more."""
        with self.repo.write_connection() as conn, conn.begin():
            conn.execute(
                delete(LINKS).where(
                    and_(
                        LINKS.c.account_id == other,
                        LINKS.c.other_id == me,
                        LINKS.c.state == "friends",
                    )
                )
            )
            self._set(conn, me, other, "blocked")

    def unblock(self, me: str, other: str) -> None:
        """``me`` no longer blocks ``other``."""
        with self.repo.write_connection() as conn, conn.begin():
            conn.execute(
                delete(LINKS).where(
                    LINKS.c.account_id == me,
                    LINKS.c.other_id == other,
                    LINKS.c.state == "blocked",
                )
            )

    def forget(self, account_id: str) -> None:
        """Every tie of an account, both ways (it is being deleted)."""
        with self.repo.write_connection() as conn, conn.begin():
            conn.execute(
                delete(LINKS).where(
                    (LINKS.c.account_id == account_id) | (LINKS.c.other_id == account_id)
                )
            )
