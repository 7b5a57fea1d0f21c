"""The games' free text: migration 0014 on SQLite and PostgreSQL (the schema the
models describe, down and up again), and pruning an abandoned game removes its lines
while a finished game keeps its own."""

from __future__ import annotations

import asyncio
import secrets
from datetime import UTC, datetime, timedelta

from sqlalchemy import update

from tests.store.support import alembic
from yatzy.store import GameRepository
from yatzy.store.accounts import AccountStore
from yatzy.store.db import make_engine
from yatzy.store.messages import MessageStore
from yatzy.store.models import Base
from yatzy.store.retention import GAMES, prune
from yatzy.web.service import GameService, SeatRequest


def test_migration_0014_matches_the_models_and_goes_down(url: str) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from sqlalchemy import inspect

    from yatzy.store.db import include_name

    alembic(url, ("upgrade", "head"))
    engine = make_engine(url)
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"include_name": include_name})
        assert compare_metadata(context, Base.metadata) == []
        assert "game_messages" in inspect(conn).get_table_names()
    engine.dispose()
    alembic(url, ("downgrade", "0013"))
    engine = make_engine(url)
    with engine.connect() as conn:
        assert "game_messages" not in inspect(conn).get_table_names()
    engine.dispose()
    alembic(url, ("upgrade", "head"))


def test_pruning_a_game_removes_its_lines(url: str) -> None:
    repo = GameRepository.open(url)
    try:
        service = GameService(repo)
        with asyncio.Runner() as runner:
            ids = [
                runner.run(service.create("yatzy", "en", [SeatRequest("Ann", here=True)])).game_id
                for _ in range(2)
            ]
            runner.run(repo.aclose())
        ann = AccountStore(repo).create(secrets.token_hex(16), "Ann", "ann", "x", [])
        store = MessageStore(repo)
        for gid in ids:
            store.add(gid, ann.id, 0, [], f"in {gid}")
        long_ago = datetime.now(UTC) - timedelta(days=40)
        with repo.write_connection() as conn, conn.begin():
            conn.execute(update(GAMES).where(GAMES.c.id.in_(ids)).values(updated_at=long_ago))
            conn.execute(update(GAMES).where(GAMES.c.id == ids[1]).values(finished=True))
        assert prune(repo, 30).games == 1
        assert store.lines(ids[0]) == []
        assert [m.text for m in store.lines(ids[1])] == [f"in {ids[1]}"]
        assert [m.game_id for m in store.written_by(ann.id)] == [ids[1]]
    finally:
        repo.close()
