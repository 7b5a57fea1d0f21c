"""Free text between friends in a game (issue 26): ``game_messages``, one row per
line, with the writer's account and seat and the accounts it was delivered to.

Indexed by game (a game's lines are read together, and the oldest past the cap
dropped) and by writer (an account's export and deletion).

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the table and its indexes."""
    op.create_table(
        "game_messages",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "sender_id",
            sa.String(32),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("audience", sa.Text, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_game_messages_game_id", "game_messages", ["game_id"])
    op.create_index("ix_game_messages_sender_id", "game_messages", ["sender_id"])


def downgrade() -> None:
    """Drop the table."""
    op.drop_index("ix_game_messages_sender_id", table_name="game_messages")
    op.drop_index("ix_game_messages_game_id", table_name="game_messages")
    op.drop_table("game_messages")
