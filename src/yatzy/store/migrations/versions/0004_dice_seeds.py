"""dice_seeds: the secret seed of each web game's verifiable dice.

The web app deals every new game with dice anyone can verify (commit, roll from the
seed, reveal: :mod:`yatzy.game.fair_dice`).  The record, which every viewer may read,
carries the seed's commitment; the seed itself waits here until the game is over.
Games from before have no row and keep their dice from the operating system's source.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the table."""
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


def downgrade() -> None:
    """Drop the table."""
    op.drop_table("dice_seeds")
