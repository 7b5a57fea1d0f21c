"""SQLAlchemy 2 table models of the web store."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """Declarative base of the store's tables."""


class GameRow(Base):
    """A game: its settings, the core record (JSON text) and the row version."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, nullable=False)
    rules: Mapped[str] = mapped_column(String(200), nullable=False)
    lang: Mapped[str] = mapped_column(String(2), nullable=False)
    pad: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    hints: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    invite_hash: Mapped[str] = mapped_column(String(64), nullable=False)
    record: Mapped[str] = mapped_column(Text, nullable=False)
    finished: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False, index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    solo_total: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The final total of a finished one-seat game (what solo records are made of)."""


class SeatRow(Base):
    """A seat of a game: bot level, or the hash of the secret token that holds it."""

    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40), nullable=False)
    bot: Mapped[str | None] = mapped_column(String(40), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    owner_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)


class MoveRow(Base):
    """One applied action, written in the same transaction as the new record."""

    __tablename__ = "moves"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    action: Mapped[str] = mapped_column(Text, nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)


class DiceSeedRow(Base):
    """The secret seed of a game's verifiable dice (:mod:`yatzy.game.fair_dice`).

    Kept apart from the game's record, which every viewer may read: the record shows
    only the seed's commitment until the game is over, then the seed itself."""

    __tablename__ = "dice_seeds"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seed: Mapped[str] = mapped_column(String(128), nullable=False)
