"""Tournaments: the tournaments, their players, rounds and each player's seat per round.

A tournament's secret (``tournaments.secret``) derives every round's dice seed, the
first round's table order and every table's game id, so that any server process
building a round builds the same one; the conditional updates of
:mod:`yatzy.store.tournaments` let only one of them do it.  The games themselves are
ordinary rows of ``games`` (no foreign key: a pruned game leaves the round's scores).

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def _tournament_fk() -> sa.Column[str]:
    return sa.Column(
        "tournament_id",
        sa.String(32),
        sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
        primary_key=True,
    )


def upgrade() -> None:
    """Create the tables."""
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("rules", sa.String(200), nullable=False),
        sa.Column("lang", sa.String(2), nullable=False),
        sa.Column("creator_id", sa.String(32), nullable=False, index=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("table_size", sa.Integer, nullable=False),
        sa.Column("duplicate", sa.Boolean, nullable=False),
        sa.Column("public", sa.Boolean, nullable=False, index=True),
        sa.Column("cap", sa.Integer, nullable=False),
        sa.Column("round_minutes", sa.Integer, nullable=False),
        sa.Column("state", sa.String(10), nullable=False, index=True),
        sa.Column("round", sa.Integer, nullable=False, server_default="0"),
        sa.Column("players", sa.Integer, nullable=False, server_default="0"),
        sa.Column("secret", sa.String(64), nullable=False),
    )
    op.create_table(
        "tournament_players",
        _tournament_fk(),
        sa.Column("account_id", sa.String(32), primary_key=True, index=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "tournament_rounds",
        _tournament_fk(),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "tournament_seats",
        _tournament_fk(),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.String(32), primary_key=True),
        sa.Column("table_no", sa.Integer, nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False, index=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("score", sa.Integer, nullable=True),
        sa.Column("points", sa.Integer, nullable=True),
    )


def downgrade() -> None:
    """Drop the tables."""
    op.drop_table("tournament_seats")
    op.drop_table("tournament_rounds")
    op.drop_table("tournament_players")
    op.drop_table("tournaments")
