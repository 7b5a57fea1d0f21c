"""Initial schema: games, seats, moves.

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the three tables."""
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("rules", sa.String(200), nullable=False),
        sa.Column("lang", sa.String(2), nullable=False),
        sa.Column("pad", sa.Boolean, nullable=False),
        sa.Column("hints", sa.Boolean, nullable=False),
        sa.Column("invite_hash", sa.String(64), nullable=False),
        sa.Column("record", sa.Text, nullable=False),
        sa.Column("finished", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_games_finished", "games", ["finished"])
    op.create_table(
        "seats",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("bot", sa.String(40), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("owner_hash", sa.String(64), nullable=True),
    )
    op.create_index("ix_seats_owner_hash", "seats", ["owner_hash"])
    op.create_table(
        "moves",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("version", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop the tables."""
    op.drop_table("moves")
    op.drop_table("seats")
    op.drop_table("games")
