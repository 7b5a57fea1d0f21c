"""A stored game as the repository hands it out: its settings, its record as JSON,
its row version and its seats (:class:`StoredGame`, :class:`SeatInfo`).  Plain
frozen values, apart from the database (:mod:`yatzy.store.repo` reads and writes
them)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from yatzy.store.pg_writer import utc_now

__all__ = ["SeatInfo", "StoredGame"]


@dataclass(frozen=True)
class SeatInfo:
    """A seat as stored: name, bot level, and the hashes of its token and owner."""

    seat: int
    name: str
    bot: str | None = None
    token_hash: str | None = None
    owner_hash: str | None = None

    @property
    def claimed(self) -> bool:
        """Whether a person holds the seat (bots never need claiming)."""
        return self.token_hash is not None


@dataclass(frozen=True)
class StoredGame:
    """One game as stored: settings, record JSON and row version."""

    id: str
    version: int
    rules: str
    lang: str
    pad: bool
    hints: bool
    invite_hash: str
    record: str
    finished: bool
    created_at: datetime
    updated_at: datetime
    seats: tuple[SeatInfo, ...]

    @classmethod
    def new(
        cls,
        game_id: str,
        rules: str,
        lang: str,
        pad: bool,
        hints: bool,
        invite_hash: str,
        record: str,
        finished: bool,
        seats: Sequence[SeatInfo],
    ) -> StoredGame:
        """A game as it is first stored: version 0, created now."""
        now = utc_now()
        return cls(
            game_id,
            0,
            rules,
            lang,
            pad,
            hints,
            invite_hash,
            record,
            finished,
            now,
            now,
            tuple(seats),
        )

    def moved(self, version: int, record: str, finished: bool) -> StoredGame:
        """The game as stored after a move (a quicker ``dataclasses.replace``)."""
        return StoredGame(
            self.id,
            version,
            self.rules,
            self.lang,
            self.pad,
            self.hints,
            self.invite_hash,
            record,
            finished,
            self.created_at,
            utc_now(),
            self.seats,
        )
