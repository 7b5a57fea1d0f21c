"""Web Push in the store: the server's VAPID key, the accounts' subscribed devices and
their notification settings.

Everything lives in the database, so that every server process signs with the same
key and reaches the same devices: the key is made by the first process that asks
for it (:meth:`PushStore.setting`, a race between two is settled by the primary key),
a subscription written through one process is used by all.  A device is known by the
SHA-256 of its push endpoint (the endpoint is a capability URL: whoever knows it may
send to it, so it is never shown back).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC
from typing import Any, cast

from sqlalchemy import Table, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from yatzy.store.accounts import account_owner, owner_hash
from yatzy.store.models import AppSettingRow, PushSettingRow, PushSubscriptionRow
from yatzy.store.pg_writer import utc_now
from yatzy.store.repo import GameRepository

SETTINGS = cast(Table, AppSettingRow.__table__)
SUBSCRIPTIONS = cast(Table, PushSubscriptionRow.__table__)
PREFS = cast(Table, PushSettingRow.__table__)


def endpoint_id(endpoint: str) -> str:
    """The stored key of a push endpoint: its SHA-256, hex."""
    return hashlib.sha256(endpoint.encode("utf-8", "replace")).hexdigest()


@dataclass(frozen=True)
class Device:
    """One subscribed device: where to send, the keys to encrypt for, its language."""

    id: str
    account_id: str
    endpoint: str
    p256dh: str
    auth: str
    lang: str


class PushStore:
    """Reads and writes the push tables over ``repo``'s engine."""

    def __init__(self, repo: GameRepository) -> None:
        self.repo = repo
        self.engine = repo.engine

    # -- the server's settings ---------------------------------------------------------------

    def setting(self, name: str, make: Callable[[], str]) -> str:
        """The setting ``name``; made with ``make`` and stored when there is none yet.
        Two processes that make it at once keep the first one stored (the other's
        insert fails on the primary key and it reads the winner's)."""
        with self.engine.connect() as conn, conn.begin():
            value = conn.execute(select(SETTINGS.c.value).where(SETTINGS.c.name == name)).scalar()
        if value is not None:
            return str(value)
        made = make()
        try:
            with self.repo.write_connection() as conn, conn.begin():
                conn.execute(insert(SETTINGS).values(name=name, value=made))
            return made
        except IntegrityError:
            with self.engine.connect() as conn, conn.begin():
                stored = select(SETTINGS.c.value).where(SETTINGS.c.name == name)
                return str(conn.execute(stored).scalar_one())

    # -- devices -----------------------------------------------------------------------------

    def subscribe(
        self,
        account_id: str,
        endpoint: str,
        p256dh: str,
        auth: str,
        lang: str,
        agent: str,
        most: int,
    ) -> None:
        """Keep (or renew) the account's subscription of this endpoint.  A device
        subscribed by another account before is this account's now (one browser, the
        account signed in last).  Past ``most`` devices, the account's oldest go."""
        key = endpoint_id(endpoint)
        row = {
            "account_id": account_id,
            "owner_hash": owner_hash(account_owner(account_id)),
            "endpoint": endpoint,
            "p256dh": p256dh,
            "auth": auth,
            "lang": lang,
            "agent": agent[:200],
            "created_at": utc_now(),
        }
        with self.repo.write_connection() as conn, conn.begin():
            conn.execute(delete(SUBSCRIPTIONS).where(SUBSCRIPTIONS.c.id == key))
            conn.execute(insert(SUBSCRIPTIONS).values(id=key, **row))
            ids = [
                r[0]
                for r in conn.execute(
                    select(SUBSCRIPTIONS.c.id)
                    .where(SUBSCRIPTIONS.c.account_id == account_id)
                    .order_by(SUBSCRIPTIONS.c.created_at.desc(), SUBSCRIPTIONS.c.id)
                )
            ]
            if len(ids) > most:
                conn.execute(delete(SUBSCRIPTIONS).where(SUBSCRIPTIONS.c.id.in_(ids[most:])))

    def unsubscribe(self, account_id: str, endpoint: str) -> bool:
        """Forget the account's subscription of this endpoint (another account's is
        not found); whether there was one."""
        with self.repo.write_connection() as conn, conn.begin():
            gone = conn.execute(
                delete(SUBSCRIPTIONS).where(
                    SUBSCRIPTIONS.c.id == endpoint_id(endpoint),
                    SUBSCRIPTIONS.c.account_id == account_id,
                )
            )
        return bool(gone.rowcount)

    def set_lang(self, account_id: str, endpoint: str, lang: str) -> None:
        """Word the account's notifications to this device in ``lang`` from now on."""
        with self.repo.write_connection() as conn, conn.begin():
            conn.execute(
                update(SUBSCRIPTIONS)
                .where(
                    SUBSCRIPTIONS.c.id == endpoint_id(endpoint),
                    SUBSCRIPTIONS.c.account_id == account_id,
                    SUBSCRIPTIONS.c.lang != lang,
                )
                .values(lang=lang)
            )

    def remove(self, device_id: str) -> None:
        """Forget a device the push service no longer knows (it answered 404 or 410)."""
        with self.repo.write_connection() as conn, conn.begin():
            conn.execute(delete(SUBSCRIPTIONS).where(SUBSCRIPTIONS.c.id == device_id))

    def count(self, account_id: str) -> int:
        """How many devices of the account take notifications."""
        with self.engine.connect() as conn, conn.begin():
            n = conn.execute(
                select(func.count())
                .select_from(SUBSCRIPTIONS)
                .where(SUBSCRIPTIONS.c.account_id == account_id)
            ).scalar_one()
        return int(n)

    def has(self, account_id: str, endpoint: str) -> bool:
        """Whether the account takes notifications at this endpoint."""
        with self.engine.connect() as conn, conn.begin():
            found = conn.execute(
                select(SUBSCRIPTIONS.c.id).where(
                    SUBSCRIPTIONS.c.id == endpoint_id(endpoint),
                    SUBSCRIPTIONS.c.account_id == account_id,
                )
            ).first()
        return found is not None

    def listed(self, account_id: str) -> list[tuple[str, str, str]]:
        """The account's devices as its export shows them: when each subscribed
        (ISO), its browser and its language, oldest first (never the endpoint)."""
        with self.engine.connect() as conn, conn.begin():
            rows = conn.execute(
                select(SUBSCRIPTIONS.c.created_at, SUBSCRIPTIONS.c.agent, SUBSCRIPTIONS.c.lang)
                .where(SUBSCRIPTIONS.c.account_id == account_id)
                .order_by(SUBSCRIPTIONS.c.created_at)
            ).all()
        # SQLite gives the times back without their zone: they are UTC
        return [
            (
                (r[0] if r[0].tzinfo else r[0].replace(tzinfo=UTC)).isoformat(timespec="seconds"),
                str(r[1]),
                str(r[2]),
            )
            for r in rows
        ]

    def owners(self) -> list[str]:
        """The owner hashes of the accounts that have a device."""
        with self.engine.connect() as conn, conn.begin():
            return [str(r[0]) for r in conn.execute(select(SUBSCRIPTIONS.c.owner_hash).distinct())]

    def devices(
        self, kind: str, *, account_id: str | None = None, owners: Iterable[str] = ()
    ) -> list[Device]:
        """The devices that take notifications of ``kind``: those of ``account_id``, or
        of the accounts whose owner hashes are ``owners``, unless the account turned
        the kind off."""
        owners = list(owners)
        if account_id is None and not owners:
            return []
        where: Any = (
            SUBSCRIPTIONS.c.account_id == account_id
            if account_id is not None
            else SUBSCRIPTIONS.c.owner_hash.in_(owners)
        )
        with self.engine.connect() as conn, conn.begin():
            rows = conn.execute(
                select(SUBSCRIPTIONS, PREFS.c.off)
                .outerjoin(PREFS, PREFS.c.account_id == SUBSCRIPTIONS.c.account_id)
                .where(where)
            ).mappings()
            return [
                Device(r["id"], r["account_id"], r["endpoint"], r["p256dh"], r["auth"], r["lang"])
                for r in rows
                if kind not in (r["off"] or "").split(",")
            ]

    # -- settings ----------------------------------------------------------------------------

    def off(self, account_id: str) -> set[str]:
        """The kinds of notification the account turned off."""
        with self.engine.connect() as conn, conn.begin():
            value = conn.execute(
                select(PREFS.c.off).where(PREFS.c.account_id == account_id)
            ).scalar()
        return {k for k in str(value or "").split(",") if k}

    def set_off(self, account_id: str, kinds: Iterable[str]) -> None:
        """The account turns these kinds off (and every other on)."""
        value = ",".join(sorted(set(kinds)))
        with self.repo.write_connection() as conn, conn.begin():
            changed = conn.execute(
                update(PREFS).where(PREFS.c.account_id == account_id).values(off=value)
            )
            if not changed.rowcount:
                conn.execute(insert(PREFS).values(account_id=account_id, off=value))


__all__ = ["Device", "PushStore", "endpoint_id"]
