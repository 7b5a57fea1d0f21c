"""The clocks' store (``game_clocks``) on SQLite and PostgreSQL: a row round trip,
changes conditional on the stamp (two writers over one stamp: one wins), a clock
event that is a move of the game (over its version, once), and the overdue query."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta

from tests.store.test_web_store import _new_game
from yatzy.store import GameRepository
from yatzy.store.clocks import ClockRow, ClockStore
from yatzy.store.stored import SeatInfo, StoredGame

NOON = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)


def test_a_clock_round_trips(repo: GameRepository) -> None:
    store = ClockStore(repo)
    gid = _new_game(repo, seats=2)
    assert store.get(gid) is None
    row = ClockRow(gid, "live", 30, seat=1, turn="1:0", deadline=NOON, due=NOON)
    store.insert(row)
    got = store.get(gid)
    assert got == row.changed(stamp=1)
    full = got.changed(
        phase="paused",
        stand_ins={1: "casual"},
        returning=(1,),
        timed_out=(1, 0),
        computer_turns=((1, 3),),
        ended_by=None,
    )
    assert store.update(full)
    assert store.get(gid) == full.changed(stamp=2)
    assert store.many([gid, "f" * 32]) == {gid: full.changed(stamp=2)}
    assert store.with_stand_ins() == [gid]
    assert store.update(full.changed(stamp=2, stand_ins={}))
    assert store.with_stand_ins() == []


def test_changes_are_conditional_on_the_stamp(repo: GameRepository) -> None:
    store = ClockStore(repo)
    gid = _new_game(repo, seats=2)
    store.insert(ClockRow(gid, "live", 30, seat=0, deadline=NOON, due=NOON))
    seen = store.get(gid)
    assert seen is not None
    assert store.update(seen.changed(phase="paused"))
    assert not store.update(seen.changed(phase="ended"))  # a second writer over the old stamp
    now = store.get(gid)
    assert now is not None and now.phase == "paused"


def test_a_clock_event_is_one_move_of_the_game(repo: GameRepository) -> None:
    store = ClockStore(repo)
    gid = _new_game(repo, seats=2)
    store.insert(ClockRow(gid, "live", 30, seat=0, deadline=NOON, due=NOON))
    seen = store.get(gid)
    assert seen is not None
    version = repo.version(gid)
    paused = seen.changed(phase="paused", timed_out=(0,))
    move = {"clock": "timeout", "seat": 0}
    assert store.event(paused, version, 0, move) == version + 1
    assert store.event(paused, version, 0, move) is None  # the same change again: not twice
    fresh = store.get(gid)
    assert fresh is not None
    assert store.event(fresh, version, 0, move) is None  # over an old game version: none
    assert store.get(gid) == fresh  # and nothing written
    assert repo.moves(gid)[-1] == {"version": version + 1, "seat": 0, "action": move}
    ended = fresh.changed(phase="ended", ended_by=0)
    assert store.event(ended, version + 1, 0, {"clock": "end", "seat": 0}, finish=True)
    assert repo.get(gid).finished


def test_the_overdue_games_longest_first(repo: GameRepository) -> None:
    store = ClockStore(repo)
    ids = [_new_game(repo, seats=2) for _ in range(3)]
    dues = [NOON + timedelta(seconds=5), NOON - timedelta(days=1), None]
    for gid, due in zip(ids, dues, strict=True):
        store.insert(ClockRow(gid, "live", 30, deadline=due, due=due))
    assert store.overdue(NOON) == [ids[1]]
    assert store.overdue(NOON + timedelta(seconds=5)) == [ids[1], ids[0]]
    assert store.overdue(NOON - timedelta(days=2)) == []


def _duel(repo: GameRepository, owners: tuple[str, str], finished: bool = False) -> str:
    """A two-seat game whose seats are held by ``owners`` (owner hashes)."""
    gid = secrets.token_hex(16)
    seats = [SeatInfo(i, f"P{i}", None, "t" * 64, owners[i]) for i in range(2)]
    repo.insert(
        StoredGame.new(
            game_id=gid,
            rules="yatzy",
            lang="en",
            pad=False,
            hints=False,
            invite_hash="x" * 64,
            record="{}",
            finished=finished,
            seats=seats,
        )
    )
    return gid


def test_the_timed_games_that_wait_for_an_owner(repo: GameRepository) -> None:
    """Those whose clock's seat (running or paused) is the owner's, the nearest
    deadline first; not another's turn, not a clock ended, not a finished game."""
    store = ClockStore(repo)
    me, other = "a" * 64, "b" * 64
    later, sooner, paused, theirs, ended, finished = (
        _duel(repo, (other, me)),
        _duel(repo, (me, other)),
        _duel(repo, (other, me)),
        _duel(repo, (other, me)),
        _duel(repo, (other, me)),
        _duel(repo, (other, me), finished=True),
    )
    day, two = NOON + timedelta(days=1), NOON + timedelta(days=2)
    store.insert(ClockRow(later, "daily", 86400, seat=1, deadline=two, due=two))
    store.insert(ClockRow(sooner, "daily", 86400, seat=0, deadline=day, due=day))
    store.insert(ClockRow(paused, "daily", 86400, phase="paused", seat=1, due=None))
    store.insert(ClockRow(theirs, "daily", 86400, seat=0, deadline=NOON, due=NOON))
    store.insert(ClockRow(ended, "daily", 86400, phase="ended", seat=1))
    store.insert(ClockRow(finished, "daily", 86400, seat=1, deadline=NOON, due=NOON))
    assert store.waiting_for(me) == [sooner, later, paused]
    assert store.waiting_for(me, limit=1) == [sooner]
    assert store.waiting_for(other) == [theirs]
    assert store.waiting_for("c" * 64) == []
