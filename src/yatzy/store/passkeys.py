"""Passkeys in the store: accounts' WebAuthn credentials and the ceremonies under way.

The web app checks every ceremony (the ``webauthn`` package); the store keeps the
credentials' public keys and counters, and each ceremony's challenge until its answer
spends it (a challenge answers once, and only within :data:`CHALLENGE_AGE`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import cast

from sqlalchemy import Table, delete, insert, select, update

from yatzy.store.models import PasskeyChallengeRow, PasskeyRow
from yatzy.store.pg_writer import utc_now
from yatzy.store.repo import GameRepository

PASSKEYS = cast(Table, PasskeyRow.__table__)
CHALLENGES = cast(Table, PasskeyChallengeRow.__table__)

CHALLENGE_AGE = timedelta(minutes=5)
"""How long a ceremony's challenge may be answered."""


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


@dataclass(frozen=True)
class Passkey:
    """A stored passkey (ids and keys base64url, as WebAuthn's JSON writes them)."""

    credential_id: str
    account_id: str
    public_key: str
    sign_count: int
    agent: str
    created_at: datetime


class PasskeyStore:
    """Reads and writes passkeys and challenges over ``repo``'s engine."""

    def __init__(self, repo: GameRepository) -> None:
        self.repo = repo
        self.engine = repo.engine

    def begin(self, id_hash: str, challenge: str, account_id: str | None) -> None:
        """Remember a ceremony's challenge (stale ones go)."""
        now = utc_now()
        with self.repo.write_connection() as conn, conn.begin():
            conn.execute(delete(CHALLENGES).where(CHALLENGES.c.created_at < now - CHALLENGE_AGE))
            conn.execute(
                insert(CHALLENGES).values(
                    id_hash=id_hash, challenge=challenge, account_id=account_id, created_at=now
                )
            )

    def spend(self, id_hash: str) -> tuple[str, str | None] | None:
        """The challenge and account of a ceremony, once (it is deleted), if it is
        not stale."""
        with self.repo.write_connection() as conn, conn.begin():
            row = (
                conn.execute(select(CHALLENGES).where(CHALLENGES.c.id_hash == id_hash))
                .mappings()
                .first()
            )
            if row is None:
                return None
            conn.execute(delete(CHALLENGES).where(CHALLENGES.c.id_hash == id_hash))
        if utc_now() - _aware(row["created_at"]) > CHALLENGE_AGE:
            return None
        return str(row["challenge"]), row["account_id"]

    def add(self, key: Passkey) -> None:
        """Store a new passkey."""
        with self.repo.write_connection() as conn, conn.begin():
            conn.execute(
                insert(PASSKEYS).values(
                    credential_id=key.credential_id,
                    account_id=key.account_id,
                    public_key=key.public_key,
                    sign_count=key.sign_count,
                    agent=key.agent[:200],
                    created_at=key.created_at,
                )
            )

    def get(self, credential_id: str) -> Passkey | None:
        """The passkey with this credential id, if any."""
        with self.engine.connect() as conn, conn.begin():
            row = (
                conn.execute(select(PASSKEYS).where(PASSKEYS.c.credential_id == credential_id))
                .mappings()
                .first()
            )
        return None if row is None else _passkey(row)

    def of(self, account_id: str) -> list[Passkey]:
        """The account's passkeys, oldest first."""
        with self.engine.connect() as conn, conn.begin():
            rows = conn.execute(
                select(PASSKEYS)
                .where(PASSKEYS.c.account_id == account_id)
                .order_by(PASSKEYS.c.created_at)
            ).mappings()
            return [_passkey(r) for r in rows]

    def counted(self, credential_id: str, sign_count: int) -> None:
        """The authenticator's signature counter after a log-in."""
        with self.repo.write_connection() as conn, conn.begin():
            conn.execute(
                update(PASSKEYS)
                .where(PASSKEYS.c.credential_id == credential_id)
                .values(sign_count=sign_count)
            )

    def remove(self, account_id: str, credential_id: str) -> bool:
        """Delete one of the account's passkeys; whether it had it."""
        with self.repo.write_connection() as conn, conn.begin():
            gone = conn.execute(
                delete(PASSKEYS).where(
                    PASSKEYS.c.account_id == account_id,
                    PASSKEYS.c.credential_id == credential_id,
                )
            )
        return bool(gone.rowcount)


def _passkey(row: object) -> Passkey:
    r = cast(dict[str, object], row)
    return Passkey(
        str(r["credential_id"]),
        str(r["account_id"]),
        str(r["public_key"]),
        int(cast(int, r["sign_count"])),
        str(r["agent"]),
        _aware(cast(datetime, r["created_at"])),
    )
