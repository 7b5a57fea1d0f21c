"""Accounts in the store: names, password hashes, sessions and recovery codes.

The store keeps what the web app's account service hands it and decides nothing:
the password is already an Argon2id hash, a session or recovery code already a
SHA-256 of its secret.  Every write is one short transaction on the repository's
engine (SQLite or PostgreSQL), queued with the repository's other writers.

An account's games are the seats whose owner hash is the account's own
(:func:`account_owner`), the same column a guest browser's ``yz_owner`` cookie
fills; a browser that signs in hands its guest seats to the account
(:meth:`AccountStore.adopt`).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, cast

import orjson
from sqlalchemy import Table, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from yatzy.errors import YatzyError
from yatzy.store.models import (
    AccountRow,
    AccountSessionRow,
    DailyEntryRow,
    FriendLinkRow,
    GameMessageRow,
    PasskeyChallengeRow,
    PasskeyRow,
    PushSettingRow,
    PushSubscriptionRow,
    RecoveryCodeRow,
    TournamentPlayerRow,
    TournamentRow,
)
from yatzy.store.pg_writer import utc_now
from yatzy.store.repo import GAMES, SEATS, GameRepository

ACCOUNTS = cast(Table, AccountRow.__table__)
SESSIONS = cast(Table, AccountSessionRow.__table__)
CODES = cast(Table, RecoveryCodeRow.__table__)
FRIEND_LINKS = cast(Table, FriendLinkRow.__table__)
_PASSKEYS = cast(Table, PasskeyRow.__table__)
_CHALLENGES = cast(Table, PasskeyChallengeRow.__table__)
_PUSH_DEVICES = cast(Table, PushSubscriptionRow.__table__)
_PUSH_SETTINGS = cast(Table, PushSettingRow.__table__)
DAILY = cast(Table, DailyEntryRow.__table__)
DAILY_MINE = DAILY.alias("mine")
_TOURNAMENT_PLAYERS = cast(Table, TournamentPlayerRow.__table__)
_TOURNAMENTS = cast(Table, TournamentRow.__table__)
_MESSAGES = cast(Table, GameMessageRow.__table__)

ACCOUNT_OWNER_PREFIX = "account."
"""How an account's owner token begins.  A guest's owner token (a cookie) is URL-safe
base64, which has no ``.``, and the web app ignores an owner cookie with this prefix,
so an account's games cannot be claimed by setting a cookie."""

SEEN_EVERY = timedelta(minutes=5)
"""A session's ``seen_at`` is written at most this often (not on every request)."""


class NameTakenError(YatzyError):
    """An account name that another account has (names are unique case-insensitively)."""


def account_owner(account_id: str) -> str:
    """The owner token of an account's games (its seats' owner hash is this token's
    SHA-256, as for a guest's ``yz_owner`` cookie)."""
    return ACCOUNT_OWNER_PREFIX + account_id


def owner_hash(token: str) -> str:
    """The stored form of an owner token (SHA-256, hex)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def _aware(moment: datetime) -> datetime:
    """``moment`` in UTC (SQLite gives stored times back without their zone)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


@dataclass(frozen=True)
class Account:
    """An account as stored."""

    id: str
    name: str
    password_hash: str
    created_at: datetime

    @property
    def owner(self) -> str:
        """The owner token of the account's games (see :func:`account_owner`)."""
        return account_owner(self.id)


@dataclass(frozen=True)
class SessionInfo:
    """A session as an account's owner may see it (never its secret)."""

    id_hash: str
    created_at: datetime
    seen_at: datetime
    agent: str


class AccountStore:
    """Reads and writes accounts, sessions and recovery codes over ``repo``'s engine."""

    def __init__(self, repo: GameRepository) -> None:
        self.repo = repo
        self.engine = repo.engine

    # -- accounts ------------------------------------------------------------------------

    def create(
        self, account_id: str, name: str, name_key: str, password_hash: str, codes: Sequence[str]
    ) -> Account:
        """Store a new account with the hashes of its recovery codes;
        :class:`NameTakenError` when ``name_key`` is taken (nothing stored)."""
        now = utc_now()
        try:
            with self.repo.write_connection() as conn, conn.begin():
                conn.execute(
                    insert(ACCOUNTS).values(
                        id=account_id,
                        name=name,
                        name_key=name_key,
                        password_hash=password_hash,
                        created_at=now,
                    )
                )
                if codes:
                    conn.execute(
                        insert(CODES), [{"account_id": account_id, "code_hash": c} for c in codes]
                    )
        except IntegrityError:
            raise NameTakenError(f"the account name {name!r} is taken") from None
        return Account(account_id, name, password_hash, now)

    def by_name(self, name_key: str) -> Account | None:
        """The account whose name has this key, if any."""
        return self._one(ACCOUNTS.c.name_key == name_key)

    def by_id(self, account_id: str) -> Account | None:
        """The account with this id, if any."""
        return self._one(ACCOUNTS.c.id == account_id)

    def _one(self, where: Any) -> Account | None:
        with self.engine.connect() as conn, conn.begin():
            row = conn.execute(select(ACCOUNTS).where(where)).mappings().first()
        if row is None:
            return None
        return Account(row["id"], row["name"], row["password_hash"], _aware(row["created_at"]))

    def set_password_hash(self, account_id: str, password_hash: str) -> None:
        """Replace the account's password hash (a rehash with newer parameters)."""
        with self.repo.write_connection() as conn, conn.begin():
            conn.execute(
                update(ACCOUNTS)
                .where(ACCOUNTS.c.id == account_id)
                .values(password_hash=password_hash)
            )

    def delete(self, account: Account, labels: Mapping[str, str]) -> list[str]:
        """Delete the account, its sessions, codes, passkeys, friend links, push
        devices and the free text it wrote in games.  Its games stay: their seats
        lose the account (no owner any more), and a seat named as the account is renamed
        ``labels[game's language]`` (else ``labels["en"]``) in the seat and the game's
        record.  The ids of the games renamed."""
        mine = owner_hash(account.owner)
        key = account.name.casefold()
        with self.repo.write_connection() as conn, conn.begin():
            seats = conn.execute(
                select(SEATS.c.game_id, SEATS.c.seat, SEATS.c.name).where(
                    SEATS.c.owner_hash == mine
                )
            ).all()
            renamed = []
            for game_id, seat, name in seats:
                if name.casefold() != key:
                    continue
                renamed.append(game_id)
                record, lang = conn.execute(
                    select(GAMES.c.record, GAMES.c.lang).where(GAMES.c.id == game_id)
                ).one()
                label = labels.get(lang, labels["en"])
                conn.execute(
                    update(SEATS)
                    .where(SEATS.c.game_id == game_id, SEATS.c.seat == seat)
                    .values(name=label)
                )
                conn.execute(
                    update(GAMES)
                    .where(GAMES.c.id == game_id)
                    .values(record=_renamed(record, seat, label))
                )
            conn.execute(update(SEATS).where(SEATS.c.owner_hash == mine).values(owner_hash=None))
            # its daily challenge entries stay on the leaderboards, anonymous: a fresh
            # owner each (nobody holds it), and its name replaced like a seat's
            for game_id, name in conn.execute(
                select(DAILY.c.game_id, DAILY.c.name).where(DAILY.c.owner_hash == mine)
            ).all():
                lang = conn.execute(select(GAMES.c.lang).where(GAMES.c.id == game_id)).scalar()
                label = labels.get(lang or "en", labels["en"])
                conn.execute(
                    update(DAILY)
                    .where(DAILY.c.game_id == game_id)
                    .values(
                        owner_hash=secrets.token_hex(32),
                        name=label if name.casefold() == key else name,
                    )
                )
            # its places in tournaments stay in the standings, under the word for a
            # deleted account in each tournament's language
            joined = conn.execute(
                select(_TOURNAMENTS.c.id, _TOURNAMENTS.c.lang)
                .join(_TOURNAMENT_PLAYERS, _TOURNAMENT_PLAYERS.c.tournament_id == _TOURNAMENTS.c.id)
                .where(_TOURNAMENT_PLAYERS.c.account_id == account.id)
            ).all()
            for tournament_id, lang in joined:
                conn.execute(
                    update(_TOURNAMENT_PLAYERS)
                    .where(
                        _TOURNAMENT_PLAYERS.c.tournament_id == tournament_id,
                        _TOURNAMENT_PLAYERS.c.account_id == account.id,
                    )
                    .values(name=labels.get(lang, labels["en"]))
                )
            # sessions and codes go with the account (ON DELETE CASCADE), but SQLite
            # applies that only with its foreign keys on: delete them here as well
            conn.execute(delete(SESSIONS).where(SESSIONS.c.account_id == account.id))
            conn.execute(delete(CODES).where(CODES.c.account_id == account.id))
            conn.execute(
                delete(FRIEND_LINKS).where(
                    (FRIEND_LINKS.c.account_id == account.id)
                    | (FRIEND_LINKS.c.other_id == account.id)
                )
            )
            conn.execute(delete(_PASSKEYS).where(_PASSKEYS.c.account_id == account.id))
            conn.execute(delete(_CHALLENGES).where(_CHALLENGES.c.account_id == account.id))
            conn.execute(delete(_PUSH_DEVICES).where(_PUSH_DEVICES.c.account_id == account.id))
            conn.execute(delete(_PUSH_SETTINGS).where(_PUSH_SETTINGS.c.account_id == account.id))
            conn.execute(delete(_MESSAGES).where(_MESSAGES.c.sender_id == account.id))
            conn.execute(delete(ACCOUNTS).where(ACCOUNTS.c.id == account.id))
        return renamed

    def adopt(self, guest_owner_hash: str, account: Account) -> int:
        """Hand every seat of the guest owner ``guest_owner_hash`` (a browser's
        ``yz_owner``) to the account; the number of seats moved."""
        mine = owner_hash(account.owner)
        if guest_owner_hash == mine:
            return 0
        with self.repo.write_connection() as conn, conn.begin():
            moved = conn.execute(
                update(SEATS).where(SEATS.c.owner_hash == guest_owner_hash).values(owner_hash=mine)
            )
            # the browser's daily challenges go along, except one the account has
            # played that day already (the account's own game of it stays its entry)
            taken = select(DAILY_MINE.c.game_id).where(
                DAILY_MINE.c.owner_hash == mine,
                DAILY_MINE.c.day == DAILY.c.day,
                DAILY_MINE.c.rules == DAILY.c.rules,
            )
            conn.execute(
                update(DAILY)
                .where(DAILY.c.owner_hash == guest_owner_hash, ~taken.exists())
                .values(owner_hash=mine)
            )
        return int(moved.rowcount or 0)

    def seats_of(self, game_id: str, account: Account) -> list[int]:
        """The seats of ``game_id`` that a person of the account holds."""
        with self.engine.connect() as conn, conn.begin():
            return [
                int(r[0])
                for r in conn.execute(
                    select(SEATS.c.seat).where(
                        SEATS.c.game_id == game_id,
                        SEATS.c.owner_hash == owner_hash(account.owner),
                        SEATS.c.token_hash.is_not(None),
                    )
                )
            ]

    # -- recovery codes --------------------------------------------------------------------

    def replace_codes(self, account_id: str, codes: Sequence[str]) -> None:
        """The account's recovery codes are these hashes now (the old ones are spent)."""
        with self.repo.write_connection() as conn, conn.begin():
            conn.execute(delete(CODES).where(CODES.c.account_id == account_id))
            conn.execute(insert(CODES), [{"account_id": account_id, "code_hash": c} for c in codes])

    def spend_code(self, account_id: str, code_hash: str) -> bool:
        """Spend the recovery code with this hash; whether the account had it (a code
        logs in once: two racing logins with one code cannot both delete it)."""
        with self.repo.write_connection() as conn, conn.begin():
            gone = conn.execute(
                delete(CODES).where(
                    CODES.c.account_id == account_id, CODES.c.code_hash == code_hash
                )
            )
        return bool(gone.rowcount)

    def codes_left(self, account_id: str) -> int:
        """How many unspent recovery codes the account has."""
        with self.engine.connect() as conn, conn.begin():
            left = conn.execute(
                select(func.count()).select_from(CODES).where(CODES.c.account_id == account_id)
            ).scalar_one()
        return int(left)

    # -- sessions ----------------------------------------------------------------------------

    def add_session(
        self, id_hash: str, account_id: str, agent: str, idle: timedelta | None = None
    ) -> None:
        """Store a new session (the hash of its id) of the account; the account's
        sessions unused for longer than ``idle`` go (nobody presented them again)."""
        now = utc_now()
        with self.repo.write_connection() as conn, conn.begin():
            if idle is not None:
                conn.execute(
                    delete(SESSIONS).where(
                        SESSIONS.c.account_id == account_id, SESSIONS.c.seen_at < now - idle
                    )
                )
            conn.execute(
                insert(SESSIONS).values(
                    id_hash=id_hash,
                    account_id=account_id,
                    created_at=now,
                    seen_at=now,
                    agent=agent[:200],
                )
            )

    def session(self, id_hash: str, idle: timedelta) -> Account | None:
        """The account of the session with this hash, unless it is unknown or unused
        for longer than ``idle`` (then it is deleted); marks it seen."""
        now = utc_now()
        with self.engine.connect() as conn, conn.begin():
            row = (
                conn.execute(
                    select(ACCOUNTS, SESSIONS.c.seen_at)
                    .join(SESSIONS, SESSIONS.c.account_id == ACCOUNTS.c.id)
                    .where(SESSIONS.c.id_hash == id_hash)
                )
                .mappings()
                .first()
            )
        if row is None:
            return None
        seen = _aware(row["seen_at"])
        if now - seen > idle:
            self.end_session(id_hash)
            return None
        if now - seen > SEEN_EVERY:
            with self.repo.write_connection() as conn, conn.begin():
                conn.execute(
                    update(SESSIONS).where(SESSIONS.c.id_hash == id_hash).values(seen_at=now)
                )
        return Account(row["id"], row["name"], row["password_hash"], _aware(row["created_at"]))

    def sessions(self, account_id: str) -> list[SessionInfo]:
        """The account's sessions, most recently seen first."""
        with self.engine.connect() as conn, conn.begin():
            rows = conn.execute(
                select(SESSIONS)
                .where(SESSIONS.c.account_id == account_id)
                .order_by(SESSIONS.c.seen_at.desc())
            ).mappings()
            return [
                SessionInfo(r["id_hash"], _aware(r["created_at"]), _aware(r["seen_at"]), r["agent"])
                for r in rows
            ]

    def end_session(self, id_hash: str, account_id: str | None = None) -> bool:
        """Delete the session with this hash (only the account's own, when
        ``account_id`` is given); whether there was one."""
        where = [SESSIONS.c.id_hash == id_hash]
        if account_id is not None:
            where.append(SESSIONS.c.account_id == account_id)
        with self.repo.write_connection() as conn, conn.begin():
            gone = conn.execute(delete(SESSIONS).where(*where))
        return bool(gone.rowcount)

    def end_sessions(self, account_id: str) -> int:
        """Delete every session of the account (log out everywhere); how many."""
        with self.repo.write_connection() as conn, conn.begin():
            gone = conn.execute(delete(SESSIONS).where(SESSIONS.c.account_id == account_id))
        return int(gone.rowcount or 0)


def _renamed(record: str, seat: int, label: str) -> str:
    """The game record ``record`` with player ``seat`` called ``label``."""
    data = orjson.loads(record)
    players = data.get("players") if isinstance(data, dict) else None
    if isinstance(players, list) and 0 <= seat < len(players):
        player = players[seat]
        if isinstance(player, dict):
            player["name"] = label
        else:
            players[seat] = label
    return orjson.dumps(data).decode()
