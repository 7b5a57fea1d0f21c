"""Store queries behind the history statistics: an owner's finished games."""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple

from sqlalchemy import select

from yatzy.store.repo import GAMES, SEATS, GameRepository


class OwnedGame(NamedTuple):
    """A finished game with the seats a browser (its owner hash) held in it."""

    id: str
    rules: str
    pad: bool
    record: str
    created_at: datetime
    updated_at: datetime
    seats: tuple[int, ...]


def finished_games_of(repo: GameRepository, owner_hash: str, limit: int = 2000) -> list[OwnedGame]:
    """The finished games in which ``owner_hash`` holds a seat, newest first (at most
    ``limit``), each with the owner's seats."""
    query = (
        select(
            GAMES.c.id,
            GAMES.c.rules,
            GAMES.c.pad,
            GAMES.c.record,
            GAMES.c.created_at,
            GAMES.c.updated_at,
            SEATS.c.seat,
        )
        .join(SEATS, SEATS.c.game_id == GAMES.c.id)
        .where(SEATS.c.owner_hash == owner_hash, GAMES.c.finished.is_(True))
        .order_by(GAMES.c.updated_at.desc(), GAMES.c.id, SEATS.c.seat)
    )
    games: dict[str, OwnedGame] = {}
    with repo.engine.connect() as conn, conn.begin():
        for row in conn.execute(query):
            found = games.get(row.id)
            if found is None:
                if len(games) >= limit:
                    break
                games[row.id] = OwnedGame(
                    row.id,
                    row.rules,
                    bool(row.pad),
                    row.record,
                    row.created_at,
                    row.updated_at,
                    (row.seat,),
                )
            else:
                games[row.id] = found._replace(seats=(*found.seats, row.seat))
    return list(games.values())
