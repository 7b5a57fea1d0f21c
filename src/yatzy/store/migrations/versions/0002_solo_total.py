"""games.solo_total: the final total of a finished one-seat game.

The solo record of a player (their best finished solo game of a rule set) was read
from every such game's record with the database's JSON functions, on every view of
a solo game: a cost that grew with the player's history.  The total is now written
once, by the move that finishes the game, and existing games are filled in here.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

_ONE_SEAT = "(SELECT count(*) FROM seats s WHERE s.game_id = games.id) = 1"


def upgrade() -> None:
    """Add the column and fill it for the finished one-seat games."""
    op.add_column("games", sa.Column("solo_total", sa.Integer, nullable=True))
    if op.get_bind().dialect.name == "postgresql":
        total = "((record::json -> 'totals') ->> 0)::integer"
    else:
        total = "CAST(json_extract(record, '$.totals[0]') AS INTEGER)"
    op.execute(f"UPDATE games SET solo_total = {total} WHERE finished AND {_ONE_SEAT}")


def downgrade() -> None:
    """Drop the column."""
    with op.batch_alter_table("games") as batch:
        batch.drop_column("solo_total")
