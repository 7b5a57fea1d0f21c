"""Ratings (issue 27): rated games, the accounts in their seats, each account's
OpenSkill rating per rule-set family with its history, the analysed rated games
behind the skill index, and the fair-play review's flags.

``rated_games.rated_at`` is set once, by a conditional ``UPDATE ... WHERE rated_at
IS NULL`` in the transaction that writes the new ratings: two server processes that
both see a rated game end rate it exactly once (``analysed_at`` likewise for its
analysis).

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def _account(primary_key: bool = True) -> sa.Column[str]:
    return sa.Column(
        "account_id",
        sa.String(32),
        sa.ForeignKey("accounts.id", ondelete="CASCADE"),
        primary_key=primary_key,
        nullable=False,
    )


def upgrade() -> None:
    """Create the tables."""
    op.create_table(
        "rated_games",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("family", sa.String(60), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rated_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("analysed_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "rated_seats",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("rated_games.game_id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer, primary_key=True),
        _account(primary_key=False),
        sa.UniqueConstraint("game_id", "account_id", name="uq_rated_seats_account"),
    )
    op.create_index("ix_rated_seats_account_id", "rated_seats", ["account_id"])
    op.create_table(
        "ratings",
        _account(),
        sa.Column("family", sa.String(60), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "rating_history",
        _account(),
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("family", sa.String(60), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
    )
    op.create_index("ix_rating_history_at", "rating_history", ["at"])
    op.create_table(
        "skill_games",
        _account(),
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("family", sa.String(60), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("decisions", sa.Integer, nullable=False),
        sa.Column("total_loss", sa.Float, nullable=False),
        sa.Column("best", sa.Integer, nullable=False),
        sa.Column("exact", sa.Boolean, nullable=False),
    )
    op.create_index("ix_skill_games_at", "skill_games", ["at"])
    op.create_table(
        "fairplay_flags",
        _account(),
        sa.Column("family", sa.String(60), primary_key=True),
        sa.Column("first_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("decisions", sa.Integer, nullable=False),
        sa.Column("best", sa.Integer, nullable=False),
        sa.Column("p_value", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Drop the tables."""
    op.drop_table("fairplay_flags")
    op.drop_index("ix_skill_games_at", "skill_games")
    op.drop_table("skill_games")
    op.drop_index("ix_rating_history_at", "rating_history")
    op.drop_table("rating_history")
    op.drop_table("ratings")
    op.drop_index("ix_rated_seats_account_id", "rated_seats")
    op.drop_table("rated_seats")
    op.drop_table("rated_games")
