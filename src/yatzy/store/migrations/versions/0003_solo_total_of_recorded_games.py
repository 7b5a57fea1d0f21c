"""games.solo_total for the one-seat games stored already finished.

``yatzy play`` records a finished game with one insert, and until 2026-11-24 that
insert left ``solo_total`` empty (only the move that finishes a web game wrote it),
so the terminal's solo games never counted toward the solo record.  The insert
writes it now; the games stored before are filled in here.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24
"""

from __future__ import annotations

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

_ONE_SEAT = "(SELECT count(*) FROM seats s WHERE s.game_id = games.id) = 1"


def upgrade() -> None:
    """Fill the total of every finished one-seat game that has none."""
    if op.get_bind().dialect.name == "postgresql":
        total = "((record::json -> 'totals') ->> 0)::integer"
    else:
        total = "CAST(json_extract(record, '$.totals[0]') AS INTEGER)"
    op.execute(
        f"UPDATE games SET solo_total = {total} "
        f"WHERE finished AND solo_total IS NULL AND {_ONE_SEAT}"
    )


def downgrade() -> None:
    """Nothing to undo: the totals filled in are the games' own."""
