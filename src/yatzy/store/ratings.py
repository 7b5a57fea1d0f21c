"""Rated games in the store: which games are rated and which account holds each of
their seats, every account's rating per rule-set family and its history, the
analysed games behind the skill index, the leaderboards and the fair-play flags
(tables of migration 0009, see docs/ratings.md).

The store decides nothing about ratings: :meth:`RatingStore.settle` hands the
ratings before a game to the caller's ``update`` (the web layer's OpenSkill model,
:mod:`yatzy.analysis.rating`) and writes what it returns.  It does guarantee that a
game is rated **exactly once**: the transaction that writes the new ratings begins
with the conditional ``UPDATE rated_games SET rated_at = now WHERE game_id = ? AND
rated_at IS NULL``; a second process (or a second look by the same one) changes no
row there and writes nothing.  On PostgreSQL the ratings read are locked (``FOR
UPDATE``), so two games of one player ending at once do not lose an update.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal, cast

from sqlalchemy import Integer, Table, and_, func, insert, select, update
from sqlalchemy import cast as cast_
from sqlalchemy.exc import IntegrityError

from yatzy.errors import YatzyError
from yatzy.store.guarded import guarded_update
from yatzy.store.models import (
    AccountRow,
    FairPlayFlagRow,
    RatedGameRow,
    RatedSeatRow,
    RatingHistoryRow,
    RatingRow,
    SkillGameRow,
)
from yatzy.store.pg_writer import utc_now
from yatzy.store.repo import GAMES, GameRepository

RATED_GAMES = cast(Table, RatedGameRow.__table__)
RATED_SEATS = cast(Table, RatedSeatRow.__table__)
RATINGS = cast(Table, RatingRow.__table__)
HISTORY = cast(Table, RatingHistoryRow.__table__)
SKILL_GAMES = cast(Table, SkillGameRow.__table__)
FLAGS = cast(Table, FairPlayFlagRow.__table__)
ACCOUNTS = cast(Table, AccountRow.__table__)

RatingTuple = tuple[float, float, int]
"""A rating as the store keeps it: ``(mu, sigma, games)``."""
Board = Literal["rating", "skill"]


class SeatTakenError(YatzyError):
    """An account that would hold a second seat of the same rated game."""


@dataclass(frozen=True)
class RatedGame:
    """A rated game: its family, the accounts in its seats, and whether it has been
    rated and analysed."""

    game_id: str
    family: str
    seats: dict[int, str]
    rated: bool
    analysed: bool


@dataclass(frozen=True)
class StoredRating:
    """An account's rating in one family."""

    family: str
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True)
class HistoryPoint:
    """An account's rating after one rated game."""

    game_id: str
    at: datetime
    mu: float
    sigma: float
    games: int
    total: int
    place: int


@dataclass(frozen=True)
class SkillGame:
    """One analysed rated game of an account (``best``: decisions that were the best play)."""

    account_id: str
    game_id: str
    decisions: int
    total_loss: float
    best: int
    exact: bool


@dataclass(frozen=True)
class BoardRow:
    """A leaderboard's row: the account, its rating now, and (skill) its mean loss per
    game and per decision over the period's analysed games; ``games`` in the period."""

    account_id: str
    name: str
    mu: float
    sigma: float
    rated_games: int
    games: int
    loss_per_game: float | None = None
    loss_per_decision: float | None = None
    exact: bool = True


@dataclass(frozen=True)
class Flag:
    """An account flagged for fair-play review."""

    account_id: str
    name: str
    family: str
    first_at: datetime
    last_at: datetime
    games: int
    decisions: int
    best: int
    p_value: float


def _guard(conn: Any, game_id: str, **stamp: datetime) -> bool:
    """Set a rated game's one time ``stamp`` (``rated_at``, ``analysed_at``) if it is
    not set yet (the guarded change of :mod:`yatzy.store.guarded`): whether this
    call set it, so that a game is settled, or analysed, once."""
    ((column, _),) = stamp.items()
    return guarded_update(
        conn,
        RATED_GAMES,
        RATED_GAMES.c.game_id == game_id,
        RATED_GAMES.c[column].is_(None),
        **stamp,
    )


def _aware(moment: datetime) -> datetime:
    """``moment`` in UTC (SQLite gives stored times back without their zone)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


class RatingStore:
    """Reads and writes ratings through a :class:`GameRepository`'s engine."""

    def __init__(self, repo: GameRepository) -> None:
        self.repo = repo

    # -- rated games and their seats ----------------------------------------------------

    def mark_rated(self, game_id: str, family: str, seats: Mapping[int, str]) -> None:
        """Make a stored game rated, with the accounts of the seats claimed so far."""
        with self.repo.write_connection() as conn, conn.begin():
            conn.execute(
                insert(RATED_GAMES).values(game_id=game_id, family=family, created_at=utc_now())
            )
            for seat, account in seats.items():
                conn.execute(
                    insert(RATED_SEATS).values(game_id=game_id, seat=seat, account_id=account)
                )

    def add_seat(self, game_id: str, seat: int, account_id: str) -> None:
        """Note the account that claimed a seat of a rated game;
        :class:`SeatTakenError` when it holds another seat of it (or the seat is noted)."""
        try:
            with self.repo.write_connection() as conn, conn.begin():
                conn.execute(
                    insert(RATED_SEATS).values(game_id=game_id, seat=seat, account_id=account_id)
                )
        except IntegrityError:
            raise SeatTakenError(f"this account already plays in rated game {game_id}") from None

    def rated_game(self, game_id: str) -> RatedGame | None:
        """The rated game ``game_id``, or None when it is not rated."""
        with self.repo.engine.connect() as conn:
            row = conn.execute(select(RATED_GAMES).where(RATED_GAMES.c.game_id == game_id)).first()
            if row is None:
                return None
            seats = conn.execute(
                select(RATED_SEATS.c.seat, RATED_SEATS.c.account_id).where(
                    RATED_SEATS.c.game_id == game_id
                )
            ).all()
        return RatedGame(
            game_id,
            row.family,
            {int(s): str(a) for s, a in seats},
            row.rated_at is not None,
            row.analysed_at is not None,
        )

    # -- ratings --------------------------------------------------------------------------

    def settle(
        self,
        game_id: str,
        results: Sequence[tuple[str, int]],
        update_ratings: Callable[[dict[str, RatingTuple | None]], dict[str, RatingTuple]],
        now: datetime | None = None,
    ) -> dict[str, RatingTuple] | None:
        """Rate a finished rated game once: ``results`` are ``(account, total)`` in
        seat order; ``update_ratings`` gets each account's rating before the game
        (None: none yet) and returns the ratings after it, which are written with a
        history row each.  None (nothing written) when the game was rated already.

        Two processes rating games of the same new player at once: the second's
        insert of the rating fails, its transaction (guard included) rolls back and
        it tries again on the rating the first wrote."""
        for attempt in range(3):
            try:
                return self._settle(game_id, results, update_ratings, now or utc_now())
            except IntegrityError:
                if attempt == 2:
                    raise
        return None  # pragma: no cover - the loop returns or raises

    def _settle(
        self,
        game_id: str,
        results: Sequence[tuple[str, int]],
        update_ratings: Callable[[dict[str, RatingTuple | None]], dict[str, RatingTuple]],
        now: datetime,
    ) -> dict[str, RatingTuple] | None:
        with self.repo.write_connection() as conn, conn.begin():
            if not _guard(conn, game_id, rated_at=now):
                return None
            family = conn.execute(
                select(RATED_GAMES.c.family).where(RATED_GAMES.c.game_id == game_id)
            ).scalar_one()
            accounts = sorted(a for a, _ in results)  # one lock order for every process
            query = (
                select(RATINGS.c.account_id, RATINGS.c.mu, RATINGS.c.sigma, RATINGS.c.games)
                .where(and_(RATINGS.c.family == family, RATINGS.c.account_id.in_(accounts)))
                .order_by(RATINGS.c.account_id)
            )
            if self.repo.postgres:
                query = query.with_for_update()
            before: dict[str, RatingTuple | None] = dict.fromkeys(accounts)
            for account, mu, sigma, games in conn.execute(query):
                before[account] = (float(mu), float(sigma), int(games))
            after = update_ratings(before)
            totals = dict(results)
            places = {a: 1 + sum(1 for _, t in results if t > totals[a]) for a in totals}
            for account in accounts:
                mu, sigma, games = after[account]
                values = {"mu": mu, "sigma": sigma, "games": games, "updated_at": now}
                if before[account] is None:
                    conn.execute(
                        insert(RATINGS).values(account_id=account, family=family, **values)
                    )
                else:
                    conn.execute(
                        update(RATINGS)
                        .where(and_(RATINGS.c.account_id == account, RATINGS.c.family == family))
                        .values(**values)
                    )
                conn.execute(
                    insert(HISTORY).values(
                        account_id=account,
                        game_id=game_id,
                        family=family,
                        at=now,
                        mu=mu,
                        sigma=sigma,
                        games=games,
                        total=totals[account],
                        place=places[account],
                    )
                )
        return after

    def ratings_of(self, account_id: str) -> list[StoredRating]:
        """The account's ratings, most games first."""
        with self.repo.engine.connect() as conn:
            rows = conn.execute(
                select(RATINGS.c.family, RATINGS.c.mu, RATINGS.c.sigma, RATINGS.c.games)
                .where(RATINGS.c.account_id == account_id)
                .order_by(RATINGS.c.games.desc(), RATINGS.c.family)
            ).all()
        return [StoredRating(f, float(m), float(s), int(g)) for f, m, s, g in rows]

    def history(self, account_id: str, family: str, limit: int = 50) -> list[HistoryPoint]:
        """The account's ratings after its last ``limit`` rated games, oldest first."""
        with self.repo.engine.connect() as conn:
            rows = conn.execute(
                select(HISTORY)
                .where(and_(HISTORY.c.account_id == account_id, HISTORY.c.family == family))
                .order_by(HISTORY.c.at.desc(), HISTORY.c.game_id)
                .limit(limit)
            ).all()
        return [
            HistoryPoint(
                r.game_id, _aware(r.at), float(r.mu), float(r.sigma), r.games, r.total, r.place
            )
            for r in reversed(rows)
        ]

    # -- the skill index ----------------------------------------------------------------

    def record_analysis(self, game_id: str, games: Sequence[SkillGame]) -> bool:
        """Keep a rated game's analysis for each account in it, once (the same guard
        as :meth:`settle`, on ``analysed_at``); False when it was kept already."""
        now = utc_now()
        with self.repo.write_connection() as conn, conn.begin():
            if not _guard(conn, game_id, analysed_at=now):
                return False
            family = conn.execute(
                select(RATED_GAMES.c.family).where(RATED_GAMES.c.game_id == game_id)
            ).scalar_one()
            for g in games:
                conn.execute(
                    insert(SKILL_GAMES).values(
                        account_id=g.account_id,
                        game_id=game_id,
                        family=family,
                        at=now,
                        decisions=g.decisions,
                        total_loss=g.total_loss,
                        best=g.best,
                        exact=g.exact,
                    )
                )
        return True

    def skill_games(
        self, account_id: str, family: str | None = None, last: int = 50
    ) -> list[SkillGame]:
        """The account's ``last`` analysed rated games (of ``family``, else every
        family), oldest first."""
        where: Any = SKILL_GAMES.c.account_id == account_id
        if family is not None:
            where = and_(where, SKILL_GAMES.c.family == family)
        with self.repo.engine.connect() as conn:
            rows = conn.execute(
                select(SKILL_GAMES)
                .where(where)
                .order_by(SKILL_GAMES.c.at.desc(), SKILL_GAMES.c.game_id)
                .limit(last)
            ).all()
        return [
            SkillGame(
                r.account_id, r.game_id, r.decisions, float(r.total_loss), r.best, bool(r.exact)
            )
            for r in reversed(rows)
        ]

    def unsettled(self, limit: int = 100) -> list[str]:
        """Finished rated games that were not rated or not analysed (a process
        stopped before it was done), the oldest first: the server's start looks at
        them again."""
        pending = and_(
            GAMES.c.finished.is_(True),
            (RATED_GAMES.c.rated_at.is_(None)) | (RATED_GAMES.c.analysed_at.is_(None)),
        )
        with self.repo.engine.connect() as conn:
            rows = conn.execute(
                select(RATED_GAMES.c.game_id)
                .join(GAMES, GAMES.c.id == RATED_GAMES.c.game_id)
                .where(pending)
                .order_by(RATED_GAMES.c.created_at)
                .limit(limit)
            ).all()
        return [r[0] for r in rows]

    # -- leaderboards ---------------------------------------------------------------------

    def leaderboard(
        self,
        family: str,
        by: Board,
        since: datetime | None,
        min_games: int,
        limit: int = 100,
    ) -> list[BoardRow]:
        """The family's players with at least ``min_games`` rated games (``rating``)
        or analysed rated games (``skill``) since ``since`` (None: ever): by the
        conservative rating ``mu - 3 sigma``, or by the least loss per game."""
        table = HISTORY if by == "rating" else SKILL_GAMES
        where: Any = table.c.family == family
        if since is not None:
            where = and_(where, table.c.at >= since)
        columns: list[Any] = [table.c.account_id, func.count().label("n")]
        if by == "skill":
            columns += [
                func.sum(SKILL_GAMES.c.total_loss).label("loss"),
                func.sum(SKILL_GAMES.c.decisions).label("decisions"),
                func.min(cast_(SKILL_GAMES.c.exact, Integer)).label("exact"),
            ]
        where = and_(where, table.c.decisions > 0) if by == "skill" else where
        played = (
            select(*columns)
            .where(where)
            .group_by(table.c.account_id)
            .having(func.count() >= min_games)
            .subquery()
        )
        query = (
            select(
                played,
                ACCOUNTS.c.name,
                RATINGS.c.mu,
                RATINGS.c.sigma,
                RATINGS.c.games,
            )
            .join(ACCOUNTS, ACCOUNTS.c.id == played.c.account_id)
            .join(
                RATINGS,
                and_(RATINGS.c.account_id == played.c.account_id, RATINGS.c.family == family),
            )
        )
        with self.repo.engine.connect() as conn:
            rows = conn.execute(query).mappings().all()
        out = []
        for r in rows:
            n = int(r["n"])
            row = BoardRow(
                r["account_id"], r["name"], float(r["mu"]), float(r["sigma"]), int(r["games"]), n
            )
            if by == "skill":
                decisions = int(r["decisions"])
                row = BoardRow(
                    row.account_id,
                    row.name,
                    row.mu,
                    row.sigma,
                    row.rated_games,
                    n,
                    float(r["loss"]) / n,
                    float(r["loss"]) / decisions if decisions else 0.0,
                    bool(r["exact"]),
                )
            out.append(row)
        if by == "rating":
            out.sort(key=lambda b: (-(b.mu - 3 * b.sigma), b.name))
        else:
            out.sort(key=lambda b: (b.loss_per_game or 0.0, b.name))
        return out[:limit]

    def families(self) -> list[str]:
        """The families anyone has a rating in."""
        with self.repo.engine.connect() as conn:
            rows = conn.execute(select(RATINGS.c.family).distinct().order_by(RATINGS.c.family))
            return [r[0] for r in rows]

    # -- fair play --------------------------------------------------------------------------

    def flag(
        self, account_id: str, family: str, games: int, decisions: int, best: int, p_value: float
    ) -> None:
        """Record (or refresh) an account's flag for review in a family."""
        now = utc_now()
        values = {"last_at": now, "games": games, "decisions": decisions, "best": best}
        values["p_value"] = p_value
        where = and_(FLAGS.c.account_id == account_id, FLAGS.c.family == family)
        for _ in range(2):
            try:
                with self.repo.write_connection() as conn, conn.begin():
                    changed = conn.execute(update(FLAGS).where(where).values(**values))
                    if changed.rowcount == 0:
                        conn.execute(
                            insert(FLAGS).values(
                                account_id=account_id, family=family, first_at=now, **values
                            )
                        )
                return
            except IntegrityError:
                continue  # flagged by another process meanwhile: update its row

    def flags(self) -> list[Flag]:
        """Every flagged account, the latest first (for an operator)."""
        with self.repo.engine.connect() as conn:
            rows = conn.execute(
                select(FLAGS, ACCOUNTS.c.name)
                .join(ACCOUNTS, ACCOUNTS.c.id == FLAGS.c.account_id)
                .order_by(FLAGS.c.last_at.desc())
            ).all()
        return [
            Flag(
                r.account_id,
                r.name,
                r.family,
                _aware(r.first_at),
                _aware(r.last_at),
                r.games,
                r.decisions,
                r.best,
                float(r.p_value),
            )
            for r in rows
        ]

    def is_flagged(self, account_id: str) -> bool:
        """Whether the account has a flag in any family."""
        with self.repo.engine.connect() as conn:
            found = conn.execute(
                select(FLAGS.c.family).where(FLAGS.c.account_id == account_id).limit(1)
            ).first()
        return found is not None
