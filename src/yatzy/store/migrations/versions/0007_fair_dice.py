"""Verifiable dice: each web game's secret seed, and the daily challenges.

The web app deals every new game with dice anyone can verify (commit, roll from the
seed, reveal: :mod:`yatzy.game.fair_dice`).  The record, which every viewer may read,
carries the seed's commitment; the seed itself waits here until the game is over.
Games from before have no row and keep their dice from the operating system's source.

``daily_challenges`` holds each day's seed per rule set (everyone plays the same
dice, duplicate mode, revealed when the day is over) and what the optimal player
scored on them; ``daily_entries`` ties each browser's one game of a challenge to it.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the tables."""
    op.create_table(
        "dice_seeds",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seed", sa.String(128), nullable=False),
    )
    op.create_table(
        "daily_challenges",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("rules", sa.String(200), primary_key=True),
        sa.Column("seed", sa.String(128), nullable=False),
        sa.Column("optimal_total", sa.Integer, nullable=True),
    )
    op.create_table(
        "daily_entries",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("day", sa.String(10), nullable=False),
        sa.Column("rules", sa.String(200), nullable=False),
        sa.Column("owner_hash", sa.String(64), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.UniqueConstraint("day", "rules", "owner_hash", name="uq_daily_entries_player"),
    )


def downgrade() -> None:
    """Drop the tables."""
    op.drop_table("daily_entries")
    op.drop_table("daily_challenges")
    op.drop_table("dice_seeds")
