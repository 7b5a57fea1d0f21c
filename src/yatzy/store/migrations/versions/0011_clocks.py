"""Clocks of timed web games (issue 26): live (seconds per turn) or daily (days per
turn), the deadline of the seat to move, and the absences (time-outs, the seats the
computer plays for an absent person, the turns it played).

``due`` is indexed: the servers' periodic check finds the overdue games with one
query.  One row per timed game; untimed games have none.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the table and its index."""
    op.create_table(
        "game_clocks",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("mode", sa.String(5), nullable=False),
        sa.Column("seconds", sa.Integer, nullable=False),
        sa.Column("stamp", sa.Integer, nullable=False, server_default="0"),
        sa.Column("phase", sa.String(10), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("turn", sa.String(20), nullable=False, server_default=""),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=True),
        sa.Column("due", sa.DateTime(timezone=True), nullable=True),
        sa.Column("detail", sa.Text, nullable=False, server_default="{}"),
    )
    op.create_index("ix_game_clocks_due", "game_clocks", ["due"])


def downgrade() -> None:
    """Drop the table."""
    op.drop_index("ix_game_clocks_due", table_name="game_clocks")
    op.drop_table("game_clocks")
