"""The Web Push tables on SQLite and PostgreSQL: migration 0008 (up from 0007 as the
models say, down and up again), the server's setting made once by whichever process
comes first, devices (one endpoint one account, bounded per account, only one's own
removed), settings per kind, and deletion with the account."""

from __future__ import annotations

import threading

from tests.store.support import alembic, table_names
from yatzy.store import GameRepository
from yatzy.store.accounts import AccountStore, account_owner, owner_hash
from yatzy.store.push import PushStore, endpoint_id


def test_migration_0008_up_and_down(url: str) -> None:
    tables = {"app_settings", "push_subscriptions", "push_settings"}
    alembic(url, ("upgrade", "0007"), ("upgrade", "0008"))
    assert tables <= table_names(url)
    alembic(url, ("downgrade", "0007"))
    assert not tables & table_names(url)
    alembic(url, ("upgrade", "head"))


def test_a_setting_is_made_once_by_racing_processes(url: str) -> None:
    repos = [GameRepository.open(url) for _ in range(4)]
    got: list[str] = []
    start = threading.Barrier(len(repos))

    def first(repo: GameRepository, n: int) -> None:
        start.wait()
        got.append(PushStore(repo).setting("k", lambda: f"made by {n}"))

    threads = [threading.Thread(target=first, args=(r, n)) for n, r in enumerate(repos)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert len(got) == 4 and len(set(got)) == 1
    assert PushStore(repos[0]).setting("k", lambda: "again") == got[0]
    for repo in repos:
        repo.close()


def test_devices_and_settings(url: str) -> None:
    repo = GameRepository.open(url)
    accounts, push = AccountStore(repo), PushStore(repo)
    anna = accounts.create("a" * 32, "Anna", "anna", "h", [])
    bo = accounts.create("b" * 32, "Bo", "bo", "h", [])
    push.subscribe(anna.id, "https://p.example/1", "k1", "a1", "sv", "agent", most=2)
    push.subscribe(anna.id, "https://p.example/2", "k2", "a2", "en", "agent", most=2)
    assert push.count(anna.id) == 2
    (device,) = push.devices("turn", owners=[owner_hash(account_owner(anna.id))])[:1]
    assert device.account_id == anna.id
    assert {d.lang for d in push.devices("turn", account_id=anna.id)} == {"sv", "en"}
    # one browser, the account signed in last: Bo takes endpoint 1 over
    push.subscribe(bo.id, "https://p.example/1", "k1", "a1", "fi", "agent", most=2)
    assert push.count(anna.id) == 1 and push.has(bo.id, "https://p.example/1")
    # bounded: a third device of Anna's pushes the oldest out
    push.subscribe(anna.id, "https://p.example/3", "k3", "a3", "en", "agent", most=2)
    push.subscribe(anna.id, "https://p.example/4", "k4", "a4", "en", "agent", most=2)
    assert push.count(anna.id) == 2 and not push.has(anna.id, "https://p.example/2")
    # only one's own device goes
    assert not push.unsubscribe(anna.id, "https://p.example/1")
    assert push.unsubscribe(bo.id, "https://p.example/1")
    # kinds off
    push.set_off(anna.id, ["friend"])
    assert push.off(anna.id) == {"friend"}
    assert push.devices("friend", account_id=anna.id) == []
    assert len(push.devices("turn", account_id=anna.id)) == 2
    push.set_off(anna.id, [])
    assert len(push.devices("friend", account_id=anna.id)) == 2
    push.remove(endpoint_id("https://p.example/3"))
    assert push.count(anna.id) == 1
    accounts.delete(anna, {"en": "Anonymous"})
    assert push.count(anna.id) == 0 and push.off(anna.id) == set()
    repo.close()
