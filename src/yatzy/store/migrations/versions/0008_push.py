"""Web Push: the server's settings (its VAPID key pair), the accounts' devices that
take notifications, and each account's choice of notifications.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the tables."""
    op.create_table(
        "app_settings",
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("value", sa.Text(), nullable=False),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column(
            "account_id",
            sa.String(32),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("owner_hash", sa.String(64), nullable=False),
        sa.Column("endpoint", sa.Text(), nullable=False),
        sa.Column("p256dh", sa.String(200), nullable=False),
        sa.Column("auth", sa.String(100), nullable=False),
        sa.Column("lang", sa.String(2), nullable=False),
        sa.Column("agent", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_push_subscriptions_account_id", "push_subscriptions", ["account_id"])
    op.create_index("ix_push_subscriptions_owner_hash", "push_subscriptions", ["owner_hash"])
    op.create_table(
        "push_settings",
        sa.Column(
            "account_id",
            sa.String(32),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("off", sa.String(200), nullable=False),
    )


def downgrade() -> None:
    """Drop them."""
    op.drop_table("push_settings")
    op.drop_index("ix_push_subscriptions_owner_hash", "push_subscriptions")
    op.drop_index("ix_push_subscriptions_account_id", "push_subscriptions")
    op.drop_table("push_subscriptions")
    op.drop_table("app_settings")
