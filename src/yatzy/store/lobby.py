"""The lobby in the store (issue 26): invitations of friends into games, open seeks
with their members, and the quick-match queue.

Nothing here makes a game (the web app's service does); the store only keeps who
invited whom, who seeks what, and who waits, and decides who is paired, atomically
in the database so that every server process agrees:

* a seek's joins are serialised on its row (``SELECT ... FOR UPDATE`` on
  PostgreSQL; SQLite's write transactions are serial anyway), so a seek never takes
  more members than it seats;
* the quick-match queue is paired by ``SELECT ... FOR UPDATE SKIP LOCKED`` and a
  conditional ``UPDATE`` (PostgreSQL): two processes pairing at once never take the
  same waiter, and neither waits for the other's locks.

Every time is given by the caller (its clock), so that tests need not sleep.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, cast

import orjson
from sqlalchemy import Table, and_, delete, func, insert, or_, select, update

from yatzy.errors import YatzyError
from yatzy.store.accounts import ACCOUNTS, FRIEND_LINKS
from yatzy.store.errors import NotFoundError
from yatzy.store.guarded import guarded_update
from yatzy.store.models import InvitationRow, QuickWaitRow, SeekMemberRow, SeekRow
from yatzy.store.repo import GAMES, SEATS, GameRepository

INVITATIONS = cast(Table, InvitationRow.__table__)
SEEKS = cast(Table, SeekRow.__table__)
MEMBERS = cast(Table, SeekMemberRow.__table__)
WAITS = cast(Table, QuickWaitRow.__table__)

SEEK_LIFETIME = timedelta(days=1)
"""An open seek nobody filled is listed this long."""
UNMADE_MATCH = timedelta(seconds=30)
"""A pairing whose game was never made (its process died between the two steps)
puts its waiters back in the queue after this long."""


class SeekClosedError(YatzyError):
    """A join of a seek that is full, started or cancelled."""

    http_status = 409


class TooManySeeksError(YatzyError):
    """A new seek of an account that has as many open ones as it may."""

    http_status = 429


class NotYoursError(YatzyError):
    """A seek cancelled by another account than its creator's."""

    http_status = 403


def _aware(moment: datetime) -> datetime:
    """``moment`` in UTC (SQLite gives stored times back without their zone)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def new_id() -> str:
    """A fresh id (128 random bits, hex)."""
    return secrets.token_hex(16)


# -- invitations --------------------------------------------------------------------------


@dataclass(frozen=True)
class Invitation:
    """An invitation as its invited friend sees it."""

    id: str
    game_id: str
    seat: int
    from_id: str
    from_name: str
    to_id: str
    state: str
    created_at: datetime
    expires_at: datetime
    rules: str = ""
    players: list[str] = field(default_factory=list)
    to_name: str = ""


class InvitationStore:
    """Invitations of friends into games, over ``repo``'s engine."""

    def __init__(self, repo: GameRepository) -> None:
        self.repo = repo
        self.engine = repo.engine

    def are_friends(self, a: str, b: str) -> bool:
        """Whether the two accounts are friends both ways (accepted, and neither has
        blocked the other: a block ends the friendship)."""
        with self.engine.connect() as conn, conn.begin():
            n = conn.execute(
                select(func.count())
                .select_from(FRIEND_LINKS)
                .where(
                    FRIEND_LINKS.c.state == "friends",
                    or_(
                        and_(FRIEND_LINKS.c.account_id == a, FRIEND_LINKS.c.other_id == b),
                        and_(FRIEND_LINKS.c.account_id == b, FRIEND_LINKS.c.other_id == a),
                    ),
                )
            ).scalar_one()
        return int(n) == 2

    def add(
        self,
        game_id: str,
        seat: int,
        from_id: str,
        to_id: str,
        now: datetime,
        lasts: timedelta,
    ) -> str:
        """Store a pending invitation; its id.  (The web app's
        :meth:`yatzy.web.invitations.Invitations.create` is the one caller.)"""
        invitation_id = new_id()
        with self.repo.write_connection() as conn, conn.begin():
            conn.execute(
                insert(INVITATIONS).values(
                    id=invitation_id,
                    game_id=game_id,
                    seat=seat,
                    from_id=from_id,
                    to_id=to_id,
                    state="pending",
                    created_at=now,
                    expires_at=now + lasts,
                )
            )
        return invitation_id

    def _select(self) -> Any:
        return (
            select(
                INVITATIONS,
                ACCOUNTS.c.name.label("from_name"),
                GAMES.c.rules,
                GAMES.c.finished,
            )
            .join(ACCOUNTS, ACCOUNTS.c.id == INVITATIONS.c.from_id)
            .join(GAMES, GAMES.c.id == INVITATIONS.c.game_id)
        )

    @staticmethod
    def _of(row: Any, players: list[str] | None = None) -> Invitation:
        return Invitation(
            row.id,
            row.game_id,
            int(row.seat),
            row.from_id,
            row.from_name,
            row.to_id,
            row.state,
            _aware(row.created_at),
            _aware(row.expires_at),
            row.rules,
            players or [],
        )

    def _standing(self, now: datetime, *where: Any) -> Any:
        """The invitations that still stand (and ``where``): pending, not expired,
        their game not over, their seat still free, neither side blocking the other."""
        return (
            self._select()
            .join(
                SEATS,
                and_(SEATS.c.game_id == INVITATIONS.c.game_id, SEATS.c.seat == INVITATIONS.c.seat),
            )
            .where(
                *where,
                INVITATIONS.c.state == "pending",
                INVITATIONS.c.expires_at > now,
                GAMES.c.finished.is_(False),
                SEATS.c.token_hash.is_(None),
                ~select(FRIEND_LINKS.c.state)
                .where(
                    FRIEND_LINKS.c.state == "blocked",
                    or_(
                        and_(
                            FRIEND_LINKS.c.account_id == INVITATIONS.c.to_id,
                            FRIEND_LINKS.c.other_id == INVITATIONS.c.from_id,
                        ),
                        and_(
                            FRIEND_LINKS.c.account_id == INVITATIONS.c.from_id,
                            FRIEND_LINKS.c.other_id == INVITATIONS.c.to_id,
                        ),
                    ),
                )
                .exists(),
            )
        )

    def awaited(self, game_id: str, now: datetime) -> list[tuple[int, str, datetime]]:
        """The game's invitations that still stand (see :meth:`pending`), by seat: the
        friends its computers wait for, each as (seat, the seat's name, when the
        invitation lapses)."""
        with self.engine.connect() as conn, conn.begin():
            rows = conn.execute(
                self._standing(now, INVITATIONS.c.game_id == game_id)
                .add_columns(SEATS.c.name.label("seat_name"))
                .order_by(INVITATIONS.c.seat)
            ).all()
        return [(int(r.seat), r.seat_name, _aware(r.expires_at)) for r in rows]

    def pending(self, to_id: str, now: datetime) -> list[Invitation]:
        """The account's invitations that still stand: pending, not expired, their
        game not over and their seat still free; the newest first."""
        with self.engine.connect() as conn, conn.begin():
            rows = conn.execute(
                self._standing(now, INVITATIONS.c.to_id == to_id)
                .order_by(INVITATIONS.c.created_at.desc())
                .limit(50)
            ).all()
            games = list({r.game_id for r in rows})
            names: dict[str, list[str]] = {}
            if games:
                for g, name in conn.execute(
                    select(SEATS.c.game_id, SEATS.c.name)
                    .where(SEATS.c.game_id.in_(games))
                    .order_by(SEATS.c.game_id, SEATS.c.seat)
                ):
                    names.setdefault(g, []).append(name)
        return [self._of(r, names.get(r.game_id)) for r in rows]

    def get(self, invitation_id: str, to_id: str) -> Invitation:
        """The account's invitation ``invitation_id`` (another account's is not found)."""
        with self.engine.connect() as conn, conn.begin():
            row = conn.execute(
                self._select().where(
                    INVITATIONS.c.id == invitation_id, INVITATIONS.c.to_id == to_id
                )
            ).first()
        if row is None:
            raise NotFoundError("no such invitation")
        return self._of(row)

    def answer(self, invitation_id: str, to_id: str, state: str) -> bool:
        """Mark a pending invitation of the account ``accepted`` or ``declined``;
        whether it was pending."""
        with self.repo.write_connection() as conn, conn.begin():
            return guarded_update(
                conn,
                INVITATIONS,
                INVITATIONS.c.id == invitation_id,
                INVITATIONS.c.to_id == to_id,
                INVITATIONS.c.state == "pending",
                state=state,
            )

    def of_game(self, game_id: str) -> list[Invitation]:
        """Every invitation into a game (its inviter's view of who answered)."""
        with self.engine.connect() as conn, conn.begin():
            rows = conn.execute(
                self._select().where(INVITATIONS.c.game_id == game_id).order_by(INVITATIONS.c.seat)
            ).all()
        return [self._of(r) for r in rows]


# -- seeks ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Seek:
    """A seek of the lobby with the names of its members (its creator first)."""

    id: str
    account_id: str
    by: str
    rules: str
    lang: str
    hints: bool
    players: int
    time_control: dict[str, Any] | None
    state: str
    game_id: str | None
    created_at: datetime
    members: list[tuple[str, str]]
    """(account id, name) of each member, in the order they joined."""

    @property
    def full(self) -> bool:
        """Whether every seat is taken."""
        return len(self.members) >= self.players


class SeekStore:
    """The lobby's open seeks and their members, over ``repo``'s engine."""

    def __init__(self, repo: GameRepository) -> None:
        self.repo = repo
        self.engine = repo.engine
        self.postgres = self.engine.dialect.name == "postgresql"

    def create(
        self,
        account_id: str,
        rules: str,
        lang: str,
        hints: bool,
        players: int,
        time_control: dict[str, Any] | None,
        now: datetime,
        max_open: int,
    ) -> str:
        """A new open seek of the account, which sits in it; its id.
        :class:`TooManySeeksError` when the account has ``max_open`` open seeks."""
        seek_id = new_id()
        with self.repo.write_connection() as conn, conn.begin():
            mine = conn.execute(
                select(func.count())
                .select_from(SEEKS)
                .where(
                    SEEKS.c.account_id == account_id,
                    SEEKS.c.state == "open",
                    SEEKS.c.created_at > now - SEEK_LIFETIME,
                )
            ).scalar_one()
            if int(mine) >= max_open:
                raise TooManySeeksError(f"at most {max_open} open seeks at a time")
            conn.execute(
                insert(SEEKS).values(
                    id=seek_id,
                    account_id=account_id,
                    rules=rules,
                    lang=lang,
                    hints=hints,
                    players=players,
                    time_control=None
                    if time_control is None
                    else orjson.dumps(time_control).decode(),
                    state="open",
                    game_id=None,
                    created_at=now,
                )
            )
            conn.execute(
                insert(MEMBERS).values(seek_id=seek_id, account_id=account_id, joined_at=now)
            )
        return seek_id

    def _members(self, conn: Any, seek_ids: Sequence[str]) -> dict[str, list[tuple[str, str]]]:
        out: dict[str, list[tuple[str, str]]] = {s: [] for s in seek_ids}
        if not seek_ids:
            return out
        for seek_id, account_id, name in conn.execute(
            select(MEMBERS.c.seek_id, MEMBERS.c.account_id, ACCOUNTS.c.name)
            .join(ACCOUNTS, ACCOUNTS.c.id == MEMBERS.c.account_id)
            .where(MEMBERS.c.seek_id.in_(list(seek_ids)))
            .order_by(MEMBERS.c.joined_at, MEMBERS.c.account_id)
        ):
            out[seek_id].append((account_id, name))
        return out

    @staticmethod
    def _seek(row: Any, members: list[tuple[str, str]]) -> Seek:
        # the creator first (it joined first; with equal times the order is by id)
        members = sorted(members, key=lambda m: m[0] != row.account_id)
        return Seek(
            row.id,
            row.account_id,
            row.by,
            row.rules,
            row.lang,
            bool(row.hints),
            int(row.players),
            None if row.time_control is None else orjson.loads(row.time_control),
            row.state,
            row.game_id,
            _aware(row.created_at),
            members,
        )

    def _query(self) -> Any:
        return select(SEEKS, ACCOUNTS.c.name.label("by")).join(
            ACCOUNTS, ACCOUNTS.c.id == SEEKS.c.account_id
        )

    def listing(self, now: datetime, limit: int = 200) -> list[Seek]:
        """The open seeks of the last day, the oldest first."""
        with self.engine.connect() as conn, conn.begin():
            rows = conn.execute(
                self._query()
                .where(SEEKS.c.state == "open", SEEKS.c.created_at > now - SEEK_LIFETIME)
                .order_by(SEEKS.c.created_at, SEEKS.c.id)
                .limit(limit)
            ).all()
            members = self._members(conn, [r.id for r in rows])
        return [self._seek(r, members[r.id]) for r in rows]

    def get(self, seek_id: str) -> Seek:
        """One seek, whatever its state."""
        with self.engine.connect() as conn, conn.begin():
            row = conn.execute(self._query().where(SEEKS.c.id == seek_id)).first()
            if row is None:
                raise NotFoundError("no such seek")
            return self._seek(row, self._members(conn, [seek_id])[seek_id])

    def started_for(self, account_id: str, since: datetime) -> list[tuple[str, str]]:
        """(seek id, game id) of the account's seeks that started since ``since``."""
        with self.engine.connect() as conn, conn.begin():
            rows = conn.execute(
                select(SEEKS.c.id, SEEKS.c.game_id)
                .join(MEMBERS, MEMBERS.c.seek_id == SEEKS.c.id)
                .where(
                    MEMBERS.c.account_id == account_id,
                    SEEKS.c.state == "started",
                    SEEKS.c.created_at > since - SEEK_LIFETIME,
                )
            ).all()
        return [(r[0], r[1]) for r in rows if r[1] is not None]

    def _blocked(self, conn: Any, a: str, others: Sequence[str]) -> bool:
        """Whether ``a`` and any of ``others`` have blocked one another."""
        links = FRIEND_LINKS
        return (
            conn.execute(
                select(links.c.account_id).where(
                    links.c.state == "blocked",
                    or_(
                        and_(links.c.account_id == a, links.c.other_id.in_(list(others))),
                        and_(links.c.other_id == a, links.c.account_id.in_(list(others))),
                    ),
                )
            ).first()
            is not None
        )

    def join(self, seek_id: str, account_id: str, now: datetime) -> Seek:
        """Seat the account in an open seek; the seek after it (``full`` when this
        join filled it: its state is then ``full`` and the caller makes the game and
        calls :meth:`started`).  A member joining again changes nothing.
        :class:`SeekClosedError` for a seek that is full, started or cancelled (or
        whose members and the joiner have blocked one another: it is not said)."""
        with self.repo.write_connection() as conn, conn.begin():
            query = self._query().where(SEEKS.c.id == seek_id)
            if self.postgres:  # joins of one seek wait for each other here
                query = query.with_for_update(of=SEEKS)
            row = conn.execute(query).first()
            if row is None or _aware(row.created_at) <= now - SEEK_LIFETIME:
                raise NotFoundError("no such seek")
            members = self._members(conn, [seek_id])[seek_id]
            if any(a == account_id for a, _ in members):
                return self._seek(row, members)
            if row.state != "open" or len(members) >= int(row.players):
                raise SeekClosedError("the seek is no longer open")
            if self._blocked(conn, account_id, [a for a, _ in members]):
                raise SeekClosedError("the seek is no longer open")
            conn.execute(
                insert(MEMBERS).values(seek_id=seek_id, account_id=account_id, joined_at=now)
            )
            name = conn.execute(
                select(ACCOUNTS.c.name).where(ACCOUNTS.c.id == account_id)
            ).scalar_one()
            members.append((account_id, name))
            state = row.state
            if len(members) >= int(row.players):
                state = "full"
                conn.execute(update(SEEKS).where(SEEKS.c.id == seek_id).values(state="full"))
        seek = self._seek(row, members)
        return Seek(**{**seek.__dict__, "state": state})

    def leave(self, seek_id: str, account_id: str) -> bool:
        """Take a member (not its creator) out of an open seek; whether it was in."""
        with self.repo.write_connection() as conn, conn.begin():
            open_seek = conn.execute(
                select(SEEKS.c.account_id).where(SEEKS.c.id == seek_id, SEEKS.c.state == "open")
            ).scalar()
            if open_seek is None or open_seek == account_id:
                return False
            done = conn.execute(
                delete(MEMBERS).where(
                    MEMBERS.c.seek_id == seek_id, MEMBERS.c.account_id == account_id
                )
            )
        return bool(done.rowcount == 1)

    def cancel(self, seek_id: str, account_id: str) -> None:
        """The creator cancels its open seek.  :class:`NotYoursError` for another
        account's, :class:`SeekClosedError` for one no longer open."""
        with self.repo.write_connection() as conn, conn.begin():
            row = conn.execute(
                select(SEEKS.c.account_id, SEEKS.c.state).where(SEEKS.c.id == seek_id)
            ).first()
            if row is None:
                raise NotFoundError("no such seek")
            if row.account_id != account_id:
                raise NotYoursError("only the seek's creator may cancel it")
            if not guarded_update(
                conn, SEEKS, SEEKS.c.id == seek_id, SEEKS.c.state == "open", state="cancelled"
            ):
                raise SeekClosedError("the seek is no longer open")

    def started(self, seek_id: str, game_id: str) -> None:
        """The full seek's game is made: its members are sent to it."""
        with self.repo.write_connection() as conn, conn.begin():
            conn.execute(
                update(SEEKS).where(SEEKS.c.id == seek_id).values(state="started", game_id=game_id)
            )


# -- the quick-match queue -------------------------------------------------------------------


@dataclass(frozen=True)
class Wait:
    """An account's place in the quick-match queue."""

    account_id: str
    rules: str
    players: int
    lang: str
    state: str
    since: datetime
    seen_at: datetime
    match_id: str | None
    game_id: str | None


@dataclass(frozen=True)
class Pairing:
    """Waiters the queue paired: the match's id and (account id, name) of each, the
    longest waiting first."""

    match_id: str
    rules: str
    lang: str
    people: list[tuple[str, str]]


class QuickMatchStore:
    """The quick-match queue, over ``repo``'s engine."""

    def __init__(self, repo: GameRepository) -> None:
        self.repo = repo
        self.engine = repo.engine
        self.postgres = self.engine.dialect.name == "postgresql"

    def wait(self, account_id: str, rules: str, players: int, lang: str, now: datetime) -> None:
        """Put the account in the queue of (``rules``, ``players``), in place of any
        earlier wait of its."""
        with self.repo.write_connection() as conn, conn.begin():
            conn.execute(delete(WAITS).where(WAITS.c.account_id == account_id))
            conn.execute(
                insert(WAITS).values(
                    account_id=account_id,
                    rules=rules,
                    players=players,
                    lang=lang,
                    state="waiting",
                    since=now,
                    seen_at=now,
                    match_id=None,
                    matched_at=None,
                    game_id=None,
                )
            )

    def many(self, waits: Sequence[tuple[str, str, int, str]], now: datetime) -> None:
        """Queue many (account id, rules, players, lang) at once (the benchmark)."""
        with self.repo.write_connection() as conn, conn.begin():
            conn.execute(
                insert(WAITS),
                [
                    {
                        "account_id": a,
                        "rules": r,
                        "players": p,
                        "lang": lang,
                        "state": "waiting",
                        "since": now,
                        "seen_at": now,
                    }
                    for a, r, p, lang in waits
                ],
            )

    def get(self, account_id: str) -> Wait | None:
        """The account's wait, if it has one."""
        with self.engine.connect() as conn, conn.begin():
            row = conn.execute(select(WAITS).where(WAITS.c.account_id == account_id)).first()
        if row is None:
            return None
        return Wait(
            row.account_id,
            row.rules,
            int(row.players),
            row.lang,
            row.state,
            _aware(row.since),
            _aware(row.seen_at),
            row.match_id,
            row.game_id,
        )

    def seen(self, account_id: str, now: datetime) -> None:
        """The account's page is still there (a waiter not seen for a while is dropped)."""
        with self.repo.write_connection() as conn, conn.begin():
            conn.execute(
                update(WAITS)
                .where(WAITS.c.account_id == account_id, WAITS.c.state == "waiting")
                .values(seen_at=now)
            )

    def leave(self, account_id: str, *, only_waiting: bool = False) -> bool:
        """Take the account out of the queue; whether it was there (``only_waiting``:
        only if nobody has paired it meanwhile)."""
        where = [WAITS.c.account_id == account_id]
        if only_waiting:
            where.append(WAITS.c.state == "waiting")
        with self.repo.write_connection() as conn, conn.begin():
            done = conn.execute(delete(WAITS).where(*where))
        return bool(done.rowcount == 1)

    def pair(
        self, rules: str, players: int, now: datetime, drop_after: timedelta
    ) -> Pairing | None:
        """Pair the ``players`` longest waiting people of (``rules``, ``players``), if
        there are as many; their waits are then ``matched`` under the returned match
        id.  Waiters not seen for ``drop_after`` are dropped first.  On PostgreSQL the
        waiters are taken ``FOR UPDATE SKIP LOCKED``: two processes pairing at once
        take different people, and neither waits on the other."""
        key = and_(WAITS.c.rules == rules, WAITS.c.players == players)
        with self.repo.write_connection() as conn, conn.begin():
            conn.execute(
                delete(WAITS).where(
                    key, WAITS.c.state == "waiting", WAITS.c.seen_at < now - drop_after
                )
            )
            conn.execute(
                update(WAITS)
                .where(
                    key,
                    WAITS.c.state == "matched",
                    WAITS.c.game_id.is_(None),
                    WAITS.c.matched_at < now - UNMADE_MATCH,
                )
                .values(state="waiting", match_id=None, matched_at=None, seen_at=now)
            )
            query = (
                select(WAITS.c.account_id, WAITS.c.lang)
                .where(key, WAITS.c.state == "waiting")
                .order_by(WAITS.c.since, WAITS.c.account_id)
                .limit(players)
            )
            if self.postgres:
                query = query.with_for_update(skip_locked=True)
            rows = conn.execute(query).all()
            if len(rows) < players:
                return None
            ids = [r[0] for r in rows]
            match_id = new_id()
            conn.execute(
                update(WAITS)
                .where(WAITS.c.account_id.in_(ids), WAITS.c.state == "waiting")
                .values(state="matched", match_id=match_id, matched_at=now)
            )
            names = {
                r[0]: r[1]
                for r in conn.execute(
                    select(ACCOUNTS.c.id, ACCOUNTS.c.name).where(ACCOUNTS.c.id.in_(ids))
                )
            }
        return Pairing(match_id, rules, rows[0][1], [(a, names[a]) for a in ids])

    def made(self, match_id: str, game_id: str) -> None:
        """The pairing's game is made: each of its waiters is sent to it."""
        with self.repo.write_connection() as conn, conn.begin():
            conn.execute(update(WAITS).where(WAITS.c.match_id == match_id).values(game_id=game_id))

    def queues(self, now: datetime, drop_after: timedelta) -> list[tuple[str, int, int]]:
        """(rules, players, people waiting) of every queue with someone in it."""
        with self.engine.connect() as conn, conn.begin():
            rows = conn.execute(
                select(WAITS.c.rules, WAITS.c.players, func.count())
                .where(WAITS.c.state == "waiting", WAITS.c.seen_at >= now - drop_after)
                .group_by(WAITS.c.rules, WAITS.c.players)
            ).all()
        return [(r[0], int(r[1]), int(r[2])) for r in rows]


__all__ = [
    "Invitation",
    "InvitationStore",
    "NotYoursError",
    "Pairing",
    "QuickMatchStore",
    "Seek",
    "SeekClosedError",
    "SeekStore",
    "TooManySeeksError",
    "Wait",
    "new_id",
]
