"""The game store's action path: asyncpg commits and their notifications on PostgreSQL,
SQLite's checkpoints off the request path, and the schema migration of solo totals."""

from __future__ import annotations

import asyncio
import gc
import json
import secrets
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from tests.helpers import eventually
from tests.postgres import pg_or_skip, postgres_database
from yatzy.store import ConflictError, GameRepository, SeatInfo, StoredGame, UnavailableError
from yatzy.store.db import MIGRATIONS, make_engine
from yatzy.store.pg_writer import NOTIFY_CHANNEL

MOVE = {"roll": [], "dice": [1, 2, 3, 4, 5]}


def _new_game(
    repo: GameRepository, seats: int = 1, record: str = "{}", rules: str = "yatzy", owner: str = "o"
) -> str:
    gid = secrets.token_hex(16)
    repo.insert(
        StoredGame.new(
            game_id=gid,
            rules=rules,
            lang="en",
            pad=False,
            hints=False,
            invite_hash="x" * 64,
            record=record,
            finished=False,
            seats=[SeatInfo(i, f"P{i}", None, "t" * 64, owner * 64) for i in range(seats)],
        )
    )
    return gid


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh PostgreSQL database."""
    pg_or_skip()
    with postgres_database() as url:
        yield url


# -- PostgreSQL: commits from the event loop -------------------------------------------------------


def test_async_commits_are_stored_notified_and_guarded(pg_url: str) -> None:
    repo = GameRepository.open(pg_url)
    gid = _new_game(repo)
    listener = psycopg.connect(pg_url, autocommit=True)
    listener.execute(f"LISTEN {NOTIFY_CHANNEL}")

    async def play() -> None:
        for version in range(3):
            stored = await repo.commit_async(
                gid, version, record=f'{{"v": {version + 1}}}', finished=False, seat=0, action=MOVE
            )
            assert stored == version + 1
        with pytest.raises(ConflictError):  # based on a version that is gone
            await repo.commit_async(gid, 1, record="{}", finished=False, seat=0, action=MOVE)
        await repo.commit_async(
            gid, 3, record='{"v": 4}', finished=True, seat=0, action=MOVE, solo_total=123
        )
        await repo.aclose()  # sends the notes still pending

    asyncio.run(play())
    notes = [n.payload for n in listener.notifies(timeout=2, stop_after=4)]
    listener.close()
    assert [n.split(":")[:2] for n in notes] == [[gid, str(v)] for v in range(1, 5)]
    assert {n.split(":")[2] for n in notes} == {repo.origin}
    stored = repo.get(gid)
    assert (stored.version, stored.record, stored.finished) == (4, '{"v": 4}', True)
    assert [m["version"] for m in repo.moves(gid)] == [1, 2, 3, 4]
    assert repo.best_solo_total("o" * 64, "yatzy") == 123
    repo.close()


def test_a_lost_connection_fails_one_commit_and_the_next_one_reconnects(pg_url: str) -> None:
    repo = GameRepository.open(pg_url)
    gid = _new_game(repo)

    async def play() -> None:
        await repo.commit_async(gid, 0, record="{}", finished=False, seat=0, action=MOVE)
        with psycopg.connect(pg_url, autocommit=True) as admin:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid() "
                "AND application_name = ''"
            )
        outcomes = []
        for _ in range(20):  # every pooled connection that died fails once
            try:
                version = repo.version(gid)
                await repo.commit_async(
                    gid, version, record="{}", finished=False, seat=0, action=MOVE
                )
                outcomes.append("ok")
                break
            except UnavailableError:
                outcomes.append("unavailable")
        assert outcomes[-1] == "ok"
        await repo.aclose()

    asyncio.run(play())
    assert repo.version(gid) == 2  # the failed commits stored nothing
    repo.close()


def test_commits_from_a_second_event_loop_get_connections_of_their_own(pg_url: str) -> None:
    repo = GameRepository.open(pg_url)
    gid = _new_game(repo)
    for version in range(2):
        asyncio.run(
            repo.commit_async(gid, version, record="{}", finished=False, seat=0, action=MOVE)
        )
    assert repo.version(gid) == 2
    repo.close()


def test_closing_on_another_loop_than_the_connections_drops_them(pg_url: str) -> None:
    # Two test clients of one app run on two event loops: the app's shutdown ran on one
    # while the idle connections belonged to the other, already closed ("Event loop is
    # closed", seen in CI); those connections are dropped, not closed on their loop.
    repo = GameRepository.open(pg_url)
    gid = _new_game(repo)
    asyncio.run(repo.commit_async(gid, 0, record="{}", finished=False, seat=0, action=MOVE))
    asyncio.run(repo.aclose())  # another loop: no error, nothing left open
    assert repo.version(gid) == 1
    repo.close()


def test_commits_after_the_connections_closed_fail_at_once_and_a_new_loop_opens_new_ones(
    pg_url: str,
) -> None:
    repo = GameRepository.open(pg_url)
    gid = _new_game(repo)

    async def commit(version: int) -> int:
        return await repo.commit_async(
            gid, version, record="{}", finished=False, seat=0, action=MOVE
        )

    async def close_then_commit() -> None:
        assert await commit(0) == 1
        await repo.aclose()  # as the server does when it stops
        with pytest.raises(UnavailableError, match="closed"):
            await asyncio.wait_for(commit(1), 5)  # refused, not left waiting

    async def commit_again() -> None:
        try:
            assert await commit(1) == 2
        finally:
            await repo.aclose()

    asyncio.run(close_then_commit())
    asyncio.run(commit_again())
    assert repo.get(gid).version == 2
    repo.close()


def test_concurrent_commits_share_batches_and_each_is_guarded_by_its_own_version(
    pg_url: str,
) -> None:
    repo = GameRepository.open(pg_url)
    games = [_new_game(repo) for _ in range(40)]
    writer = repo._pg_writer
    assert writer is not None

    async def move(gid: str, version: int) -> int:
        return await repo.commit_async(
            gid, version, record=f'{{"v": {version + 1}}}', finished=False, seat=0, action=MOVE
        )

    async def play() -> list[int | BaseException]:
        for version in range(3):  # every game moves three times, all games at once
            await asyncio.gather(*(move(gid, version) for gid in games))
        # Two racing moves on each of two games, in the same burst as others.
        racing = [move(games[0], 3), move(games[0], 3), move(games[1], 3), move(games[1], 3)]
        others = [move(gid, 3) for gid in games[2:10]]
        outcomes = await asyncio.gather(*racing, *others, return_exceptions=True)
        await repo.aclose()
        return outcomes

    outcomes = asyncio.run(play())
    assert writer.batches < writer.batched  # commits did share batches
    for pair in (outcomes[0:2], outcomes[2:4]):  # exactly one of two racing moves applies
        assert sorted(type(o).__name__ for o in pair) == ["ConflictError", "int"]
    assert outcomes[4:] == [4] * 8
    for i, gid in enumerate(games):
        stored = repo.get(gid)
        expected = 4 if i < 10 else 3
        assert (stored.version, stored.record) == (expected, f'{{"v": {expected}}}')
        assert [m["version"] for m in repo.moves(gid)] == list(range(1, expected + 1))
    repo.close()


def test_a_batch_refused_by_the_database_is_retried_one_commit_at_a_time(pg_url: str) -> None:
    repo = GameRepository.open(pg_url)
    games = [_new_game(repo) for _ in range(6)]
    poisoned = games[3]
    with psycopg.connect(pg_url, autocommit=True) as admin:  # its move 1 is logged already
        admin.execute(
            "INSERT INTO moves (game_id, version, seat, action, created_at) "
            "VALUES (%s, 1, 0, '{}', now())",
            (poisoned,),
        )
    writer = repo._pg_writer
    assert writer is not None

    async def play() -> list[int | BaseException]:
        outcomes = await asyncio.gather(
            *(
                repo.commit_async(gid, 0, record='{"v": 1}', finished=False, seat=0, action=MOVE)
                for gid in games
            ),
            return_exceptions=True,
        )
        await repo.aclose()
        return outcomes

    outcomes = asyncio.run(play())
    assert isinstance(outcomes[3], UnavailableError)
    assert "refused" in str(outcomes[3])
    assert [o for i, o in enumerate(outcomes) if i != 3] == [1] * 5
    assert writer.batches > len(games) - 4  # the batch that failed and the single retries
    assert repo.version(poisoned) == 0  # nothing of the refused move was stored
    assert all(repo.version(gid) == 1 for gid in games if gid != poisoned)
    repo.close()


# -- SQLite: checkpoints in a thread of their own --------------------------------------------


def _in_database_file(path: Path, gid: str) -> int | None:
    """The game's version as the main database file has it (ignoring the WAL)."""
    conn = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
    try:
        row = conn.execute("SELECT version FROM games WHERE id = ?", (gid,)).fetchone()
    except sqlite3.DatabaseError:
        # Not even the tables are in the file yet, or (read as immutable while the
        # checkpoint writes its pages) a torn file, "malformed": asked again.
        return None
    finally:
        conn.close()
    return None if row is None else int(row[0])


def test_sqlite_log_is_checkpointed_by_a_thread_and_the_thread_ends(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    repo = GameRepository.open(f"sqlite:///{path}")
    gid = _new_game(repo)
    for version in range(5):
        repo.commit(gid, version, record="{}", finished=False, seat=0, action=MOVE)
    # the commits' own checkpoint is at 40 MB: only the thread's puts them in the file
    eventually(
        lambda: _in_database_file(path, gid),
        lambda n: n == 5,
        what="the checkpoint of the log by the thread",
    )
    assert repo._checkpointer is not None
    thread = repo._checkpointer._thread
    assert thread.is_alive() and thread.name == "sqlite-checkpoint"
    repo.close()
    assert not thread.is_alive()


def test_the_checkpoint_thread_ends_with_a_repository_nobody_closed(tmp_path: Path) -> None:
    repo = GameRepository.open(f"sqlite:///{tmp_path / 'games.db'}")
    gid = _new_game(repo)
    repo.commit(gid, 0, record="{}", finished=False, seat=0, action=MOVE)
    assert repo._checkpointer is not None
    thread = repo._checkpointer._thread
    repo.engine.dispose()
    del repo
    gc.collect()
    thread.join(timeout=5)
    assert not thread.is_alive()


# -- creating games and reading solo records ----------------------------------------------------


def test_a_game_and_its_seats_are_inserted_together_or_not_at_all(pg_url: str) -> None:
    from dataclasses import replace
    from datetime import UTC, datetime

    repo = GameRepository.open(pg_url)
    now = datetime.now(UTC)
    seats = (
        SeatInfo(0, "Anna", None, "t" * 64, "o" * 64),
        SeatInfo(1, "Bot", "greedy"),
        SeatInfo(2, "Bertil"),
    )
    game = StoredGame(
        secrets.token_hex(16),
        0,
        "yatzy",
        "sv",
        False,
        False,
        "x" * 64,
        "{}",
        False,
        now,
        now,
        seats,
    )

    # The same id again: the statement fails whole; no seat of the second try is stored.
    clash = replace(game, seats=(*seats, SeatInfo(3, "Cecilia")))

    async def insert_twice() -> None:
        try:
            await repo.insert_async(game)
            assert repo.get(game.id).seats == seats
            with pytest.raises(UnavailableError):
                await repo.insert_async(clash)
        finally:
            await repo.aclose()

    asyncio.run(insert_twice())
    assert repo.get(game.id).seats == seats
    repo.close()


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_the_solo_record_is_the_best_finished_one_seat_game_of_the_owner(
    backend: str, tmp_path: Path
) -> None:
    import contextlib

    if backend == "postgres":
        pg_or_skip()
        ctx: contextlib.AbstractContextManager[str] = postgres_database()
    else:
        ctx = contextlib.nullcontext(f"sqlite:///{tmp_path / 'solo.db'}")
    with ctx as url:
        repo = GameRepository.open(url)

        def game(total: int | None, owner: str = "o", rules: str = "yatzy", seats: int = 1) -> str:
            gid = _new_game(repo, seats, rules=rules, owner=owner)
            if total is not None:
                repo.commit(
                    gid, 0, record="{}", finished=True, seat=0, action=MOVE, solo_total=total
                )
            return gid

        assert repo.best_solo_total("o" * 64, "yatzy") is None  # no games yet
        best = game(240)
        game(200)
        game(None)  # still playing
        game(None, seats=2)  # two seats: never a solo record (no solo total is stored)
        game(300, owner="p")  # someone else's
        game(310, rules="maxi")  # another rule set
        assert repo.best_solo_total("o" * 64, "yatzy") == 240
        assert repo.best_solo_total("o" * 64, "yatzy", exclude=best) == 200
        assert repo.best_solo_total("o" * 64, "maxi") == 310
        assert repo.best_solo_total("p" * 64, "yatzy") == 300
        repo.close()


def test_the_solo_record_query_starts_from_the_owner_even_on_a_new_database(pg_url: str) -> None:
    # PostgreSQL plans a prepared statement once for all parameters (a generic plan),
    # on a new database from empty tables.  A plan that scans the games and looks up
    # the owner's seats for each costs games x the owner's games per query: the
    # database's CPU per action doubled within 30 s of a busy start (measured).
    repo = GameRepository.open(pg_url)
    repo.close()
    sql = GameRepository._SQL_BEST_SOLO_PG
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("SET plan_cache_mode = force_generic_plan")
        conn.execute(f"PREPARE best(text, text, text) AS {sql}")
        plan = "\n".join(r[0] for r in conn.execute("EXPLAIN EXECUTE best('o', 'yatzy', '')"))
    assert "Seq Scan" not in plan, plan
    assert plan.index("ix_seats_owner_hash") < plan.index("games_pkey"), plan


# -- migration 0002: solo totals ------------------------------------------------------------


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_migration_fills_in_the_solo_totals_of_finished_games(backend: str, tmp_path: Path) -> None:
    from alembic import command
    from alembic.config import Config

    if backend == "postgres":
        pg_or_skip()
        ctx = postgres_database()
    else:
        import contextlib

        ctx = contextlib.nullcontext(f"sqlite:///{tmp_path / 'old.db'}")
    with ctx as url:
        engine = make_engine(url)
        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "0001")  # a database of the first release
        engine.dispose()
        old = GameRepository.open(url, auto_migrate=False)
        finished = {"totals": [201], "finished": True}
        solo = _insert_0001(old, 1, finished)
        pair = _insert_0001(old, 2, {"totals": [250, 180], "finished": True})
        playing = _insert_0001(old, 1, {"totals": [40], "finished": False})
        old.engine.dispose()
        repo = GameRepository.open(url)  # migrates to the newest revision
        with repo.engine.connect() as conn:
            totals = dict(conn.exec_driver_sql("SELECT id, solo_total FROM games").fetchall())
        assert totals == {solo: 201, pair: None, playing: None}
        assert repo.best_solo_total("o" * 64, "yatzy") == 201
        assert repo.best_solo_total("o" * 64, "yatzy", exclude=solo) is None
        repo.close()


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_games_stored_finished_count_toward_the_solo_record(backend: str, tmp_path: Path) -> None:
    """``yatzy play`` stores its finished games with one insert: a one-seat one is a
    solo record entry at once (on both insert paths), and migration 0003 fills in
    the ones an older version stored without their total."""
    import contextlib

    from alembic import command
    from alembic.config import Config

    if backend == "postgres":
        pg_or_skip()
        ctx: contextlib.AbstractContextManager[str] = postgres_database()
    else:
        ctx = contextlib.nullcontext(f"sqlite:///{tmp_path / 'old.db'}")
    with ctx as url:
        engine = make_engine(url)
        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "0002")
        engine.dispose()
        old = GameRepository.open(url, auto_migrate=False)
        before = _insert_0001(old, 1, {"totals": [187], "finished": True})
        old.engine.dispose()
        repo = GameRepository.open(url)  # migrates: 0003 fills the total in
        assert repo.best_solo_total("o" * 64, "yatzy") == 187

        def finished_solo(total: int) -> StoredGame:
            record = json.dumps({"totals": [total], "finished": True})
            seat = SeatInfo(0, "P", None, "t" * 64, "o" * 64)
            return StoredGame.new(
                secrets.token_hex(16), "yatzy", "en", False, False, "x", record, True, [seat]
            )

        repo.insert(finished_solo(240))
        assert repo.best_solo_total("o" * 64, "yatzy") == 240
        repo.close()
        repo = GameRepository.open(url)

        async def insert_async() -> None:
            try:
                await repo.insert_async(finished_solo(260))
            finally:
                await repo.aclose()

        asyncio.run(insert_async())
        assert repo.best_solo_total("o" * 64, "yatzy") == 260
        assert repo.best_solo_total("o" * 64, "yatzy", exclude=before) == 260
        repo.close()


def _insert_0001(repo: GameRepository, seats: int, record: dict[str, object]) -> str:
    """A game as the first schema stored it (no solo_total column yet)."""
    from datetime import UTC, datetime

    gid = secrets.token_hex(16)
    now = datetime.now(UTC)
    p = "%s" if repo.postgres else "?"
    with repo.engine.begin() as conn:
        conn.exec_driver_sql(
            "INSERT INTO games (id, version, rules, lang, pad, hints, invite_hash, record, "
            f"finished, created_at, updated_at) VALUES ({p}, 9, 'yatzy', 'en', {p}, {p}, 'x', "
            f"{p}, {p}, {p}, {p})",
            (gid, False, False, json.dumps(record), bool(record["finished"]), now, now),
        )
        for seat in range(seats):
            conn.exec_driver_sql(
                f"INSERT INTO seats (game_id, seat, name, owner_hash) VALUES ({p}, {p}, 'P', {p})",
                (gid, seat, "o" * 64),
            )
    return gid


def test_many_games_are_read_together_in_the_order_asked(tmp_path: Path) -> None:
    """``GameRepository.many`` gives the games asked for in that order, each with its
    seats in seat order, leaves out an id not stored, and reads each game as ``get``
    does; ``games_of`` reads through it."""
    repo = GameRepository.open(f"sqlite:///{tmp_path / 'many.db'}")
    try:
        ids = [_new_game(repo, seats=n, owner="m") for n in (1, 3, 2)]
        asked = [ids[2], "f" * 32, ids[0], ids[2], ids[1]]
        found = repo.many(asked)
        assert [g.id for g in found] == [ids[2], ids[0], ids[1]]
        assert [[s.seat for s in g.seats] for g in found] == [[0, 1], [0], [0, 1, 2]]
        assert found == [repo.get(g) for g in (ids[2], ids[0], ids[1])]
        assert repo.many([]) == []
        assert {g.id for g in repo.games_of("m" * 64)} == set(ids)
    finally:
        repo.close()
