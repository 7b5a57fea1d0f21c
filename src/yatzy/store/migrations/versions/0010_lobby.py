"""The lobby (issue 26): invitations of friends into games, open seeks and their
members, and the quick-match queue.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def _account(name: str, *, nullable: bool = False, primary_key: bool = False) -> sa.Column[str]:
    return sa.Column(
        name,
        sa.String(32),
        sa.ForeignKey("accounts.id", ondelete="CASCADE"),
        nullable=nullable,
        primary_key=primary_key,
    )


def upgrade() -> None:
    """Create the four tables."""
    op.create_table(
        "invitations",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seat", sa.Integer, nullable=False),
        _account("from_id", nullable=False),
        _account("to_id", nullable=False),
        sa.Column("state", sa.String(10), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_invitations_game_id", "invitations", ["game_id"])
    op.create_index("ix_invitations_to_id", "invitations", ["to_id"])
    op.create_table(
        "seeks",
        sa.Column("id", sa.String(32), primary_key=True),
        _account("account_id", nullable=False),
        sa.Column("rules", sa.String(200), nullable=False),
        sa.Column("lang", sa.String(2), nullable=False),
        sa.Column("hints", sa.Boolean, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("time_control", sa.String(200), nullable=True),
        sa.Column("state", sa.String(10), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_seeks_account_id", "seeks", ["account_id"])
    op.create_index("ix_seeks_state", "seeks", ["state"])
    op.create_table(
        "seek_members",
        sa.Column(
            "seek_id",
            sa.String(32),
            sa.ForeignKey("seeks.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        _account("account_id", primary_key=True),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_seek_members_account_id", "seek_members", ["account_id"])
    op.create_table(
        "quick_waits",
        _account("account_id", primary_key=True),
        sa.Column("rules", sa.String(200), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("lang", sa.String(2), nullable=False),
        sa.Column("state", sa.String(10), nullable=False),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("match_id", sa.String(32), nullable=True),
        sa.Column("matched_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("game_id", sa.String(32), nullable=True),
    )
    op.create_index("ix_quick_waits_match_id", "quick_waits", ["match_id"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_quick_waits_match_id", "quick_waits")
    op.drop_table("quick_waits")
    op.drop_index("ix_seek_members_account_id", "seek_members")
    op.drop_table("seek_members")
    op.drop_index("ix_seeks_state", "seeks")
    op.drop_index("ix_seeks_account_id", "seeks")
    op.drop_table("seeks")
    op.drop_index("ix_invitations_to_id", "invitations")
    op.drop_index("ix_invitations_game_id", "invitations")
    op.drop_table("invitations")
