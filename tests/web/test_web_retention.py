"""Retention: unfinished games untouched for N days are pruned, by ``yatzy prune``
and by the server itself; finished games, and games in play, are kept."""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select, update

from tests.e2e.support import YATZY, pg_or_skip, postgres_database
from yatzy.store import GameRepository
from yatzy.store.retention import GAMES, MOVES, SEATS, prune, prune_periodically
from yatzy.web.service import GameService, SeatRequest


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database per test and backend."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'r.db'}"
        return
    pg_or_skip()
    with postgres_database() as url:
        yield url


def _games(url: str) -> tuple[GameRepository, dict[str, str]]:
    """Four games: old and unfinished (2, one with moves), old and finished, fresh."""
    repo = GameRepository.open(url)
    service = GameService(repo)
    ids = {}
    with asyncio.Runner() as runner:  # the service's one loop (asyncpg's pool is bound to it)
        for label in ("old", "old_moved", "old_finished", "fresh"):
            created = runner.run(service.create("yatzy", "en", [SeatRequest("Ann", here=True)]))
            ids[label] = created.game_id
            if label == "old_moved":
                runner.run(service.act(created.game_id, {"roll": []}, created.tokens))
        runner.run(repo.aclose())
    long_ago = datetime.now(UTC) - timedelta(days=40)
    with repo.write_connection() as conn, conn.begin():
        for label in ("old", "old_moved", "old_finished"):
            conn.execute(update(GAMES).where(GAMES.c.id == ids[label]).values(updated_at=long_ago))
        conn.execute(update(GAMES).where(GAMES.c.id == ids["old_finished"]).values(finished=True))
    return repo, ids


def _count(repo: GameRepository, table: object, ids: list[str]) -> int:
    column = table.c.id if table is GAMES else table.c.game_id  # type: ignore[attr-defined]
    with repo.engine.connect() as conn:
        query = select(func.count()).select_from(table).where(column.in_(ids))  # type: ignore[arg-type]
        return int(conn.execute(query).scalar_one())


def test_prune_deletes_only_unfinished_games_untouched_for_the_days(db_url: str) -> None:
    repo, ids = _games(db_url)
    try:
        gone = [ids["old"], ids["old_moved"]]
        kept = [ids["old_finished"], ids["fresh"]]
        dry = prune(repo, 30, dry_run=True)
        assert (dry.games, dry.dry_run) == (2, True)
        assert _count(repo, GAMES, gone) == 2
        assert prune(repo, 30).games == 2
        assert _count(repo, GAMES, gone) == 0
        assert _count(repo, SEATS, gone) == 0
        assert _count(repo, MOVES, gone) == 0
        assert _count(repo, GAMES, kept) == 2 and _count(repo, SEATS, kept) == 2
        assert prune(repo, 30).games == 0
        assert prune(repo, 50).games == 0  # 40 days old is not older than 50
    finally:
        repo.close()


@pytest.mark.slow  # three `yatzy prune` processes
def test_yatzy_prune_command(db_url: str) -> None:
    repo, _ = _games(db_url)
    repo.close()
    run = [YATZY, "prune", "--database-url", db_url]
    out = subprocess.run([*run, "--dry-run"], capture_output=True, text=True, check=True)
    assert "would delete 2 unfinished games untouched since" in out.stdout
    out = subprocess.run([*run, "--days", "30"], capture_output=True, text=True, check=True)
    assert "deleted 2 unfinished games" in out.stdout
    bad = subprocess.run([*run, "--days", "0"], capture_output=True, text=True)
    assert bad.returncode == 2
    assert (
        bad.stderr.strip() == "yatzy: error: retention of 0.0 days is not a positive number of days"
    )


def test_the_server_prunes_by_itself(db_url: str) -> None:
    repo, ids = _games(db_url)

    async def run() -> None:
        task = asyncio.create_task(prune_periodically(repo, 30, every=0.05, first=0))
        for _ in range(100):
            await asyncio.sleep(0.05)
            if _count(repo, GAMES, [ids["old"]]) == 0:
                break
        task.cancel()

    try:
        asyncio.run(run())
        assert _count(repo, GAMES, [ids["old"], ids["old_moved"]]) == 0
        assert _count(repo, GAMES, [ids["old_finished"], ids["fresh"]]) == 2
    finally:
        repo.close()


def test_prune_keeps_a_game_that_was_touched_again(db_url: str) -> None:
    repo, ids = _games(db_url)
    try:
        # an action or a claimed seat moves updated_at: the game is in play again
        with repo.write_connection() as conn, conn.begin():
            now = datetime.now(UTC)
            conn.execute(update(GAMES).where(GAMES.c.id == ids["old"]).values(updated_at=now))
        assert prune(repo, 30).games == 1
        assert _count(repo, GAMES, [ids["old"]]) == 1
    finally:
        repo.close()
