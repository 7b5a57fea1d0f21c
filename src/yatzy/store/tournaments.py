"""Tournaments in the store: the tournaments, their players, their rounds and each
player's seat in each round (tables of migration 0012).

The store decides nothing about the play; it keeps what the web app's tournament
service hands it, and makes every change of a tournament's course a *conditional*
update, so that several server processes on one database can all try it and only
one succeeds: a join only while the tournament is open, before its start and under
its cap; the start only from round 0; a round's close only while it is open; a
cancellation only by its creator before the start.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import ColumnElement, Table, and_, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from yatzy.errors import YatzyError
from yatzy.store.errors import NotFoundError
from yatzy.store.guarded import guarded_update
from yatzy.store.models import (
    TournamentPlayerRow,
    TournamentRoundRow,
    TournamentRow,
    TournamentSeatRow,
)
from yatzy.store.repo import GAMES, GameRepository

TOURNAMENTS = cast(Table, TournamentRow.__table__)
PLAYERS = cast(Table, TournamentPlayerRow.__table__)
ROUNDS = cast(Table, TournamentRoundRow.__table__)
TSEATS = cast(Table, TournamentSeatRow.__table__)

STATES = ("open", "running", "finished", "cancelled")
"""A tournament's states: ``open`` (taking players until its start), ``running``,
``finished`` (every round closed) and ``cancelled`` (by its creator, or nobody came)."""


class TournamentError(YatzyError):
    """A refusal of a tournament's change; ``http_status`` is its status."""

    http_status = 409


class NotJoinableError(TournamentError):
    """A join after the start, into a full or cancelled tournament, or a second one."""


class NotCancellableError(TournamentError):
    """A cancellation after the start (or of a cancelled tournament)."""


class NotCreatorError(TournamentError):
    """A cancellation by someone other than the tournament's creator."""

    http_status = 403


_NOT_BEGUN = (TOURNAMENTS.c.state == "open", TOURNAMENTS.c.round == 0)
"""A tournament that has not begun: open, round 0 (it may start, or be cancelled)."""


def _move(conn: Any, tournament_id: str, *where: ColumnElement[bool], **values: Any) -> bool:
    """The tournament's guarded change (:func:`yatzy.store.guarded.guarded_update` of
    its row): whether it was in the state ``where`` asks, and so changed."""
    return guarded_update(conn, TOURNAMENTS, TOURNAMENTS.c.id == tournament_id, *where, **values)


def _aware(moment: datetime) -> datetime:
    """``moment`` in UTC (SQLite gives stored times back without their zone)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


@dataclass(frozen=True)
class Tournament:
    """A tournament as stored."""

    id: str
    name: str
    rules: str
    lang: str
    creator_id: str
    created_at: datetime
    starts_at: datetime
    rounds: int
    table_size: int
    duplicate: bool
    public: bool
    cap: int
    round_minutes: int
    state: str
    round: int
    players: int
    secret: str

    @classmethod
    def of(cls, row: Any) -> Tournament:
        """The tournament of a ``tournaments`` row (a mapping)."""
        values = dict(row)
        values["created_at"] = _aware(values["created_at"])
        values["starts_at"] = _aware(values["starts_at"])
        values["duplicate"] = bool(values["duplicate"])
        values["public"] = bool(values["public"])
        return cls(**values)


@dataclass(frozen=True)
class Player:
    """An account in a tournament."""

    account_id: str
    name: str
    joined_at: datetime


@dataclass(frozen=True)
class Round:
    """A round as stored (``closed_at`` None while it is played)."""

    round: int
    started_at: datetime
    deadline: datetime
    closed_at: datetime | None


@dataclass(frozen=True)
class Seating:
    """A player's seat in a round as the round is made: the table (from 0), its game
    and the seat in it."""

    account_id: str
    table_no: int
    game_id: str
    seat: int


@dataclass(frozen=True)
class SeatResult:
    """A player's seat in a round with its game as stored now (``finished``,
    ``version`` are None when the game is not there, or not asked for) and, once
    the round is closed, its score and placement points."""

    round: int
    account_id: str
    name: str
    table_no: int
    game_id: str
    seat: int
    score: int | None
    points: int | None
    finished: bool | None
    version: int | None


class TournamentStore:
    """Reads and writes tournaments through a :class:`GameRepository`'s engine."""

    def __init__(self, repo: GameRepository) -> None:
        self.repo = repo
        self.engine = repo.engine

    # -- making, joining, cancelling -----------------------------------------------------

    def create(self, tournament: Tournament) -> None:
        """Store a new tournament (open, round 0, nobody in it)."""
        values = {
            **tournament.__dict__,
            "state": "open",
            "round": 0,
            "players": 0,
        }
        with self.repo.write_connection() as conn, conn.begin():
            conn.execute(insert(TOURNAMENTS).values(**values))

    def get(self, tournament_id: str) -> Tournament:
        """The tournament; :class:`NotFoundError` if there is none of that id."""
        with self.engine.connect() as conn:
            row = (
                conn.execute(select(TOURNAMENTS).where(TOURNAMENTS.c.id == tournament_id))
                .mappings()
                .first()
            )
        if row is None:
            raise NotFoundError(f"no tournament {tournament_id!r}")
        return Tournament.of(row)

    def listed(self, limit: int = 50) -> list[Tournament]:
        """The public tournaments not cancelled: those to come and under way first
        (the soonest first), then the finished ones (the latest first)."""
        query = (
            select(TOURNAMENTS)
            .where(and_(TOURNAMENTS.c.public.is_(True), TOURNAMENTS.c.state != "cancelled"))
            .order_by((TOURNAMENTS.c.state == "finished"), TOURNAMENTS.c.starts_at)
            .limit(500)
        )
        with self.engine.connect() as conn:
            rows = [Tournament.of(r) for r in conn.execute(query).mappings()]
        live = [t for t in rows if t.state != "finished"]
        done = sorted((t for t in rows if t.state == "finished"), key=lambda t: t.starts_at)
        return (live + done[::-1])[:limit]

    def join(self, tournament_id: str, account_id: str, name: str, now: datetime) -> None:
        """Put the account into the tournament: only while it is open, before its
        start and under its cap, and once (:class:`NotJoinableError` says which
        refused; nothing changes then).  The count and the player go in one
        transaction, the count's conditional update first: it locks the row, so two
        joins at once cannot both take the last place."""
        try:
            with self.repo.write_connection() as conn, conn.begin():
                if _move(
                    conn,
                    tournament_id,
                    TOURNAMENTS.c.state == "open",
                    TOURNAMENTS.c.starts_at > now,
                    TOURNAMENTS.c.players < TOURNAMENTS.c.cap,
                    players=TOURNAMENTS.c.players + 1,
                ):
                    conn.execute(
                        insert(PLAYERS).values(
                            tournament_id=tournament_id,
                            account_id=account_id,
                            name=name,
                            joined_at=now,
                        )
                    )
                    return
        except IntegrityError:
            raise NotJoinableError("you are in this tournament already") from None
        t = self.get(tournament_id)
        if t.state != "open" or t.starts_at <= now:
            raise NotJoinableError("the tournament has begun (or was cancelled): joining is over")
        raise NotJoinableError(f"the tournament is full ({t.cap} players)")

    def cancel(self, tournament_id: str, account_id: str) -> None:
        """Cancel an open tournament (its creator only, before the start)."""
        t = self.get(tournament_id)
        if t.creator_id != account_id:
            raise NotCreatorError("only the tournament's creator may cancel it")
        with self.repo.write_connection() as conn, conn.begin():
            done = _move(conn, tournament_id, *_NOT_BEGUN, state="cancelled")
        if not done:
            raise NotCancellableError("the tournament has begun or is over: it cannot be cancelled")

    def cancel_empty(self, tournament_id: str) -> bool:
        """Cancel an open tournament that nobody joined (at its start); whether done."""
        with self.repo.write_connection() as conn, conn.begin():
            return _move(
                conn,
                tournament_id,
                TOURNAMENTS.c.state == "open",
                TOURNAMENTS.c.players == 0,
                state="cancelled",
            )

    def players(self, tournament_id: str) -> list[Player]:
        """The tournament's players, in the order they joined."""
        query = (
            select(PLAYERS.c.account_id, PLAYERS.c.name, PLAYERS.c.joined_at)
            .where(PLAYERS.c.tournament_id == tournament_id)
            .order_by(PLAYERS.c.joined_at, PLAYERS.c.account_id)
        )
        with self.engine.connect() as conn:
            return [Player(a, n, _aware(j)) for a, n, j in conn.execute(query)]

    def is_player(self, tournament_id: str, account_id: str) -> bool:
        """Whether the account is in the tournament."""
        with self.engine.connect() as conn:
            found = conn.execute(
                select(PLAYERS.c.account_id).where(
                    PLAYERS.c.tournament_id == tournament_id, PLAYERS.c.account_id == account_id
                )
            ).first()
        return found is not None

    def due(self, now: datetime) -> list[str]:
        """The tournaments that may have something to do: open ones whose start has
        come, and running ones."""
        query = select(TOURNAMENTS.c.id).where(
            or_(
                and_(TOURNAMENTS.c.state == "open", TOURNAMENTS.c.starts_at <= now),
                TOURNAMENTS.c.state == "running",
            )
        )
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(query)]

    # -- the rounds -------------------------------------------------------------------------

    def begin(
        self, tournament_id: str, seats: Sequence[Seating], now: datetime, deadline: datetime
    ) -> bool:
        """Start the tournament with round 1 seated as ``seats``; False (nothing
        written) when another process started it first."""
        with self.repo.write_connection() as conn, conn.begin():
            if not _move(conn, tournament_id, *_NOT_BEGUN, state="running", round=1):
                return False
            self._seat(conn, tournament_id, 1, seats, now, deadline)
        return True

    def close(
        self,
        tournament_id: str,
        round_no: int,
        results: dict[str, tuple[int, int]],
        now: datetime,
        next_seats: Sequence[Seating] | None,
        deadline: datetime | None = None,
    ) -> bool:
        """Close round ``round_no`` with each player's ``(score, points)``, then seat
        the next round (``next_seats``) or, after the last, finish the tournament;
        False (nothing written) when another process closed it first."""
        with self.repo.write_connection() as conn, conn.begin():
            if not guarded_update(
                conn,
                ROUNDS,
                ROUNDS.c.tournament_id == tournament_id,
                ROUNDS.c.round == round_no,
                ROUNDS.c.closed_at.is_(None),
                closed_at=now,
            ):
                return False
            for account_id, (score, points) in results.items():
                conn.execute(
                    update(TSEATS)
                    .where(
                        TSEATS.c.tournament_id == tournament_id,
                        TSEATS.c.round == round_no,
                        TSEATS.c.account_id == account_id,
                    )
                    .values(score=score, points=points)
                )
            where = (TOURNAMENTS.c.state == "running", TOURNAMENTS.c.round == round_no)
            if next_seats is None:
                _move(conn, tournament_id, *where, state="finished")
            else:
                assert deadline is not None
                _move(conn, tournament_id, *where, round=round_no + 1)
                self._seat(conn, tournament_id, round_no + 1, next_seats, now, deadline)
        return True

    @staticmethod
    def _seat(
        conn: Any,
        tournament_id: str,
        round_no: int,
        seats: Sequence[Seating],
        now: datetime,
        deadline: datetime,
    ) -> None:
        conn.execute(
            insert(ROUNDS).values(
                tournament_id=tournament_id, round=round_no, started_at=now, deadline=deadline
            )
        )
        if seats:
            conn.execute(
                insert(TSEATS),
                [
                    {
                        "tournament_id": tournament_id,
                        "round": round_no,
                        "account_id": s.account_id,
                        "table_no": s.table_no,
                        "game_id": s.game_id,
                        "seat": s.seat,
                    }
                    for s in seats
                ],
            )

    def rounds(self, tournament_id: str) -> list[Round]:
        """The tournament's rounds so far, the first first."""
        query = (
            select(ROUNDS.c.round, ROUNDS.c.started_at, ROUNDS.c.deadline, ROUNDS.c.closed_at)
            .where(ROUNDS.c.tournament_id == tournament_id)
            .order_by(ROUNDS.c.round)
        )
        with self.engine.connect() as conn:
            return [
                Round(r, _aware(s), _aware(d), None if c is None else _aware(c))
                for r, s, d, c in conn.execute(query)
            ]

    def round_closed(self, tournament_id: str, round_no: int) -> bool:
        """Whether the round is over (its seed may be shown)."""
        with self.engine.connect() as conn:
            closed = conn.execute(
                select(ROUNDS.c.closed_at).where(
                    ROUNDS.c.tournament_id == tournament_id, ROUNDS.c.round == round_no
                )
            ).scalar_one_or_none()
        return closed is not None

    def seats(
        self, tournament_id: str, round_no: int | None = None, *, games: bool = False
    ) -> list[SeatResult]:
        """The seats of one round (or of every round), with their games' state when
        ``games`` (whether each is finished, and its version)."""
        columns = [
            TSEATS.c.round,
            TSEATS.c.account_id,
            PLAYERS.c.name,
            TSEATS.c.table_no,
            TSEATS.c.game_id,
            TSEATS.c.seat,
            TSEATS.c.score,
            TSEATS.c.points,
        ]
        game_columns = [GAMES.c.finished, GAMES.c.version] if games else []
        query = (
            select(*columns, *game_columns)
            .select_from(TSEATS)
            .join(
                PLAYERS,
                and_(
                    PLAYERS.c.tournament_id == TSEATS.c.tournament_id,
                    PLAYERS.c.account_id == TSEATS.c.account_id,
                ),
            )
            .where(TSEATS.c.tournament_id == tournament_id)
            .order_by(TSEATS.c.round, TSEATS.c.table_no, TSEATS.c.seat)
        )
        if games:
            query = query.outerjoin(GAMES, GAMES.c.id == TSEATS.c.game_id)
        if round_no is not None:
            query = query.where(TSEATS.c.round == round_no)
        with self.engine.connect() as conn:
            out = []
            for row in conn.execute(query):
                finished = version = None
                if games:
                    finished = None if row.finished is None else bool(row.finished)
                    version = row.version
                out.append(
                    SeatResult(
                        row.round,
                        row.account_id,
                        row.name,
                        row.table_no,
                        row.game_id,
                        row.seat,
                        row.score,
                        row.points,
                        finished,
                        version,
                    )
                )
            return out

    def records(self, game_ids: Sequence[str]) -> dict[str, tuple[int, str]]:
        """The version and record of each stored game of ``game_ids``."""
        out: dict[str, tuple[int, str]] = {}
        ids = list(game_ids)
        with self.engine.connect() as conn:
            for start in range(0, len(ids), 500):
                query = select(GAMES.c.id, GAMES.c.version, GAMES.c.record).where(
                    GAMES.c.id.in_(ids[start : start + 500])
                )
                for game_id, version, record in conn.execute(query):
                    out[game_id] = (int(version), record)
        return out

    def unfinished(self, tournament_id: str, round_no: int) -> int:
        """How many seats of the round are at a game not finished (or not stored)."""
        query = (
            select(func.count())
            .select_from(TSEATS)
            .outerjoin(GAMES, GAMES.c.id == TSEATS.c.game_id)
            .where(
                TSEATS.c.tournament_id == tournament_id,
                TSEATS.c.round == round_no,
                or_(GAMES.c.id.is_(None), GAMES.c.finished.is_(False)),
            )
        )
        with self.engine.connect() as conn:
            return int(conn.execute(query).scalar_one())

    def missing_games(self, tournament_id: str, round_no: int) -> list[str]:
        """The game ids of the round's tables that are not stored (yet)."""
        query = (
            select(TSEATS.c.game_id)
            .select_from(TSEATS)
            .outerjoin(GAMES, GAMES.c.id == TSEATS.c.game_id)
            .where(
                TSEATS.c.tournament_id == tournament_id,
                TSEATS.c.round == round_no,
                GAMES.c.id.is_(None),
            )
            .distinct()
        )
        with self.engine.connect() as conn:
            return sorted(r[0] for r in conn.execute(query))

    def current_game(self, tournament_id: str, account_id: str, round_no: int) -> str | None:
        """The account's game in the round, if it has one."""
        with self.engine.connect() as conn:
            found = conn.execute(
                select(TSEATS.c.game_id).where(
                    TSEATS.c.tournament_id == tournament_id,
                    TSEATS.c.round == round_no,
                    TSEATS.c.account_id == account_id,
                )
            ).scalar_one_or_none()
        return None if found is None else str(found)

    def count(self) -> int:
        """How many tournaments are stored."""
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(TOURNAMENTS)).scalar_one())
