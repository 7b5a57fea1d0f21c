"""The accounts' tables: migration 0004 on SQLite and PostgreSQL (up from 0003, the
schema the models describe, and down again), and the store's account operations."""

from __future__ import annotations

import secrets
from datetime import timedelta

import pytest

from tests.store.support import alembic, schema_diff, table_names
from yatzy.store import GameRepository, SeatInfo, StoredGame
from yatzy.store.accounts import AccountStore, NameTakenError, owner_hash


def test_migration_0004_up_matches_the_models_and_goes_down(url: str) -> None:
    """From 0003 up: the three tables exist as the models say (alembic finds nothing
    to change); down to 0003 they are gone, up again they are back."""
    alembic(url, ("upgrade", "0003"), ("upgrade", "head"))
    diff = schema_diff(url)
    assert diff == [], diff
    assert {"accounts", "account_sessions", "recovery_codes"} <= table_names(url)
    alembic(url, ("downgrade", "0003"))
    assert "accounts" not in table_names(url)
    alembic(url, ("upgrade", "head"))


def test_the_store_keeps_accounts_sessions_codes_and_seats(url: str) -> None:
    """Create (a taken key refused), sessions seen and ended, codes spent once, a
    guest's seats adopted, and deletion leaving the games with an anonymous name."""
    repo = GameRepository.open(url)
    store = AccountStore(repo)
    account = store.create("a" * 32, "Anna", "anna", "hash", ["c1", "c2"])
    with pytest.raises(NameTakenError):
        store.create("b" * 32, "ANNA", "anna", "hash", [])
    assert store.by_name("anna") == account
    store.add_session("s" * 64, account.id, "agent")
    assert store.session("s" * 64, timedelta(days=1)) == account
    assert store.session("s" * 64, timedelta(0)) is None  # idle too long: ended
    assert store.sessions(account.id) == []
    store.add_session("t" * 64, account.id, "agent")
    store.add_session("u" * 64, account.id, "agent", idle=timedelta(0))  # "t" is idle
    assert [s.id_hash for s in store.sessions(account.id)] == ["u" * 64]
    assert store.spend_code(account.id, "c1") and not store.spend_code(account.id, "c1")
    assert store.codes_left(account.id) == 1
    gid = secrets.token_hex(16)
    guest = owner_hash("guest-token")
    record = '{"players": [{"name": "anna"}, {"name": "Bo"}]}'
    seats = [SeatInfo(0, "anna", None, "t" * 64, guest), SeatInfo(1, "Bo", None, "u" * 64, "x")]
    repo.insert(StoredGame.new(gid, "yatzy", "sv", False, False, "i" * 64, record, False, seats))
    assert store.adopt(guest, account) == 1
    assert store.seats_of(gid, account) == [0]
    assert store.delete(account, {"sv": "Anonym", "en": "Anonymous"}) == [gid]
    stored = repo.get(gid)
    assert [s.name for s in stored.seats] == ["Anonym", "Bo"]
    assert stored.seats[0].owner_hash is None and '"Anonym"' in stored.record
    assert store.by_id(account.id) is None and store.codes_left(account.id) == 0
    repo.close()


def test_passkeys_and_their_ceremonies(url: str) -> None:
    """A ceremony's challenge is spent once; a passkey is kept, counted, listed,
    removed only by its account, and goes with the account."""
    from yatzy.store.passkeys import Passkey, PasskeyStore
    from yatzy.store.pg_writer import utc_now

    repo = GameRepository.open(url)
    accounts, keys = AccountStore(repo), PasskeyStore(repo)
    account = accounts.create("c" * 32, "Cai", "cai", "hash", [])
    keys.begin("h" * 64, "challenge", account.id)
    assert keys.spend("h" * 64) == ("challenge", account.id)
    assert keys.spend("h" * 64) is None
    key = Passkey("cred", account.id, "pk", 0, "agent", utc_now())
    keys.add(key)
    keys.counted("cred", 5)
    assert keys.get("cred") is not None and keys.get("cred").sign_count == 5  # type: ignore[union-attr]
    assert [k.credential_id for k in keys.of(account.id)] == ["cred"]
    assert not keys.remove("d" * 32, "cred")
    keys.begin("i" * 64, "challenge", account.id)
    accounts.delete(account, {"en": "Anonymous"})
    assert keys.get("cred") is None and keys.spend("i" * 64) is None
    repo.close()
