"""The lobby's tables (issue 26) on SQLite and PostgreSQL: the migration up from 0007
matches the models and goes down; seeks fill once and no further, are cancelled only
by their creator and bounded per account; the quick-match queue pairs the longest
waiting, drops the silent, recovers a pairing whose game was never made, and — two
"processes" pairing one queue at once — never puts a waiter in two games;
invitations stand until answered, expired, their seat taken or their game over."""

from __future__ import annotations

import secrets
import threading
from datetime import UTC, datetime, timedelta

import pytest

from tests.store.support import alembic, schema_diff, table_names
from yatzy.store import GameRepository, SeatInfo, StoredGame
from yatzy.store.accounts import AccountStore
from yatzy.store.errors import NotFoundError
from yatzy.store.friends import FriendStore
from yatzy.store.lobby import (
    InvitationStore,
    NotYoursError,
    QuickMatchStore,
    SeekClosedError,
    SeekStore,
    TooManySeeksError,
)

NOW = datetime(2026, 11, 26, 12, tzinfo=UTC)
DROP = timedelta(seconds=15)


def people(repo: GameRepository, n: int, base: str = "p") -> list[str]:
    """``n`` new accounts' ids."""
    store = AccountStore(repo)
    ids = []
    for i in range(n):
        name = f"{base}{i}-{secrets.token_hex(3)}"
        ids.append(store.create(secrets.token_hex(16), name, name, "hash", []).id)
    return ids


def a_game(repo: GameRepository, names: list[str]) -> str:
    gid = secrets.token_hex(16)
    seats = [SeatInfo(i, n, None, None, None) for i, n in enumerate(names)]
    record = '{"players": []}'
    repo.insert(StoredGame.new(gid, "yatzy", "en", False, False, "i" * 64, record, False, seats))
    return gid


def test_migration_0010_up_matches_the_models_and_goes_down(url: str) -> None:
    alembic(url, ("upgrade", "0009"), ("upgrade", "head"))
    assert schema_diff(url) == []
    assert {"invitations", "seeks", "seek_members", "quick_waits"} <= table_names(url)
    alembic(url, ("downgrade", "0009"))
    assert "seeks" not in table_names(url)
    alembic(url, ("upgrade", "head"))


def test_a_seek_fills_once(repo: GameRepository) -> None:
    store = SeekStore(repo)
    a, b, c, d = people(repo, 4)
    clock = {"mode": "daily", "days": 3}
    sid = store.create(a, "maxi", "sv", False, 3, clock, NOW, max_open=2)
    assert store.get(sid).time_control == clock
    second = NOW + timedelta(seconds=1)
    assert store.join(sid, b, second).state == "open"
    assert store.join(sid, b, second).state == "open"  # again: nothing changes
    full = store.join(sid, c, NOW + timedelta(seconds=2))
    assert full.state == "full" and [m for m, _ in full.members] == [a, b, c]
    with pytest.raises(SeekClosedError):
        store.join(sid, d, NOW)
    store.started(sid, "g" * 32)
    assert store.started_for(b, NOW) == [(sid, "g" * 32)]
    assert sid not in {s.id for s in store.listing(NOW)}
    with pytest.raises(NotFoundError):
        store.join("0" * 32, d, NOW)


def test_seeks_are_cancelled_by_their_creator_and_bounded(repo: GameRepository) -> None:
    store = SeekStore(repo)
    a, b = people(repo, 2)
    first = store.create(a, "yatzy", "en", False, 2, None, NOW, max_open=2)
    store.create(a, "yatzy", "en", False, 2, None, NOW, max_open=2)
    with pytest.raises(TooManySeeksError):
        store.create(a, "yatzy", "en", False, 2, None, NOW, max_open=2)
    with pytest.raises(NotYoursError):
        store.cancel(first, b)
    store.cancel(first, a)
    with pytest.raises(SeekClosedError):
        store.join(first, b, NOW)
    store.create(a, "yatzy", "en", False, 2, None, NOW, max_open=2)  # room again
    # a day later the old seeks are no longer listed nor counted
    later = NOW + timedelta(days=1, seconds=1)
    assert store.listing(later) == []
    store.create(a, "yatzy", "en", False, 2, None, later, max_open=2)


def test_blocked_people_do_not_meet_in_a_seek(repo: GameRepository) -> None:
    store = SeekStore(repo)
    a, b = people(repo, 2)
    FriendStore(repo).block(a, b)
    sid = store.create(a, "yatzy", "en", False, 2, None, NOW, max_open=3)
    with pytest.raises(SeekClosedError):
        store.join(sid, b, NOW)


def test_the_queue_pairs_the_longest_waiting(repo: GameRepository) -> None:
    queue = QuickMatchStore(repo)
    a, b, c = people(repo, 3)
    queue.wait(a, "yatzy", 2, "sv", NOW)
    assert queue.pair("yatzy", 2, NOW, DROP) is None
    queue.wait(c, "maxi", 2, "en", NOW)  # another queue
    queue.wait(b, "yatzy", 2, "en", NOW + timedelta(seconds=1))
    pairing = queue.pair("yatzy", 2, NOW + timedelta(seconds=1), DROP)
    assert pairing is not None and [p for p, _ in pairing.people] == [a, b]
    assert pairing.lang == "sv"
    wait = queue.get(a)
    assert wait is not None and wait.state == "matched" and wait.game_id is None
    queue.made(pairing.match_id, "g" * 32)
    assert queue.get(b) is not None and queue.get(b).game_id == "g" * 32  # type: ignore[union-attr]
    assert queue.queues(NOW, DROP) == [("maxi", 2, 1)]


def test_the_queue_drops_the_silent_and_recovers_unmade_games(repo: GameRepository) -> None:
    queue = QuickMatchStore(repo)
    a, b, c = people(repo, 3)
    queue.wait(a, "yatzy", 2, "en", NOW)
    later = NOW + DROP + timedelta(seconds=1)
    queue.wait(b, "yatzy", 2, "en", later)
    assert queue.pair("yatzy", 2, later, DROP) is None  # a was not seen: dropped
    assert queue.get(a) is None
    queue.wait(c, "yatzy", 2, "en", later)
    pairing = queue.pair("yatzy", 2, later, DROP)
    assert pairing is not None
    # the process died before it made the game: after a while they wait again
    much_later = later + timedelta(seconds=31)
    queue.seen(b, much_later)
    again = queue.pair("yatzy", 2, much_later, DROP)
    assert again is not None and {p for p, _ in again.people} == {b, c}
    assert queue.leave(b) and not queue.leave(b)


def test_two_processes_pairing_at_once_never_share_a_waiter(url: str) -> None:
    repos = [GameRepository.open(url) for _ in range(2)]
    try:
        ids = people(repos[0], 40, "q")
        QuickMatchStore(repos[0]).many([(a, "yatzy", 2, "en") for a in ids], NOW)
        found: list[list[str]] = []
        lock = threading.Lock()

        def pair_all(repo: GameRepository) -> None:
            queue = QuickMatchStore(repo)
            while (pairing := queue.pair("yatzy", 2, NOW, DROP)) is not None:
                with lock:
                    found.append([p for p, _ in pairing.people])

        threads = [threading.Thread(target=pair_all, args=(r,)) for r in repos]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
        paired = [p for pair in found for p in pair]
        assert sorted(paired) == sorted(ids)  # everyone, each once
        assert all(len(pair) == 2 for pair in found)
    finally:
        for r in repos:
            r.close()


def test_invitations_stand_until_answered_expired_taken_or_over(repo: GameRepository) -> None:
    store = InvitationStore(repo)
    a, b = people(repo, 2)
    friends = FriendStore(repo)
    assert not store.are_friends(a, b)
    friends.request(a, b)
    assert not store.are_friends(a, b)  # asked, not accepted
    friends.accept(b, a)
    assert store.are_friends(a, b)
    gid = a_game(repo, ["A", "B"])
    day = timedelta(days=1)
    first = store.add(gid, 1, a, b, NOW, day)
    (shown,) = store.pending(b, NOW)
    assert (shown.id, shown.game_id, shown.seat, shown.players) == (first, gid, 1, ["A", "B"])
    assert store.pending(a, NOW) == []
    assert store.pending(b, NOW + day) == []  # expired
    with pytest.raises(NotFoundError):
        store.get(first, a)  # not a's
    assert store.answer(first, b, "declined") and not store.answer(first, b, "accepted")
    assert store.pending(b, NOW) == []
    # the seat taken by someone else, or the game over: it no longer stands
    second = store.add(gid, 1, a, b, NOW, day)
    repo.claim(gid, 1, "t" * 64, None)
    assert store.pending(b, NOW) == []
    other = a_game(repo, ["A", "B"])
    store.add(other, 1, a, b, NOW, day)
    assert len(store.pending(b, NOW)) == 1
    friends.block(b, a)
    assert store.pending(b, NOW) == [] and not store.are_friends(a, b)
    assert [i.id for i in store.of_game(gid)] == [first, second]


def test_deleting_an_account_deletes_its_lobby_rows(repo: GameRepository) -> None:
    accounts = AccountStore(repo)
    a, b = people(repo, 2)
    seeks, queue, invitations = SeekStore(repo), QuickMatchStore(repo), InvitationStore(repo)
    mine = seeks.create(a, "yatzy", "en", False, 3, None, NOW, max_open=3)
    theirs = seeks.create(b, "yatzy", "en", False, 3, None, NOW, max_open=3)
    seeks.join(theirs, a, NOW + timedelta(seconds=1))
    queue.wait(a, "yatzy", 2, "en", NOW)
    invitations.add(a_game(repo, ["A", "B"]), 1, b, a, NOW, timedelta(days=1))
    account = accounts.by_id(a)
    assert account is not None
    accounts.delete(account, {"en": "Anonymous"})
    with pytest.raises(NotFoundError):
        seeks.get(mine)
    assert [m for m, _ in seeks.get(theirs).members] == [b]
    assert queue.get(a) is None and invitations.pending(a, NOW) == []
