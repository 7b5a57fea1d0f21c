"""The rows of the online tables that belong to one account, as its data export
shows them ("export my data", ``GET /api/account/export``): its passkeys (never
their keys), invitations sent and received, lobby seeks and quick-match wait,
ratings with their history and skill index, and tournaments entered or made.

The account itself, its sessions, friends, push devices, games and statistics are
exported by their own services; what :meth:`AccountStore.delete
<yatzy.store.accounts.AccountStore.delete>` does with each table is listed in
``docs/accounts.md``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import Table, or_, select
from typing_extensions import TypedDict

from yatzy.store.accounts import ACCOUNTS
from yatzy.store.lobby import INVITATIONS, MEMBERS, SEEKS, WAITS
from yatzy.store.models import PasskeyRow
from yatzy.store.ratings import HISTORY, RATINGS, SKILL_GAMES
from yatzy.store.repo import GameRepository
from yatzy.store.tournaments import PLAYERS, TOURNAMENTS, TSEATS

_PASSKEYS = cast(Table, PasskeyRow.__table__)


class PasskeyRecord(TypedDict):
    """A passkey: its credential id, when and in which browser it was made."""

    id: str
    created: str
    agent: str


class InvitationRecord(TypedDict):
    """An invitation the account sent (``sent``) or received, with the other
    account's name (empty once that account is deleted)."""

    sent: bool
    other: str
    game: str
    seat: int
    state: str
    created: str
    expires: str


class SeekRecord(TypedDict):
    """A lobby seek the account made (``mine``) or sits in."""

    id: str
    mine: bool
    rules: str
    lang: str
    players: int
    hints: bool
    time_control: str | None
    state: str
    game: str | None
    created: str
    joined: str


class WaitRecord(TypedDict):
    """The account's place in a quick-match queue."""

    rules: str
    players: int
    lang: str
    state: str
    since: str
    seen: str
    game: str | None


class RatingRecord(TypedDict):
    """A rating in a rule-set family (OpenSkill ``mu`` and ``sigma``)."""

    family: str
    mu: float
    sigma: float
    games: int
    updated: str


class RatingPointRecord(TypedDict):
    """The account's rating after one rated game, its place and total in it."""

    family: str
    game: str
    at: str
    mu: float
    sigma: float
    games: int
    total: int
    place: int


class SkillRecord(TypedDict):
    """One analysed rated game: decisions, points lost against optimal play, best plays."""

    family: str
    game: str
    at: str
    decisions: int
    total_loss: float
    best: int
    exact: bool


class TournamentSeatRecord(TypedDict):
    """The account's table, game and seat in a round, and its result once closed."""

    round: int
    table: int
    game: str
    seat: int
    score: int | None
    points: int | None


class TournamentRecord(TypedDict):
    """A tournament the account entered: its name there, when it joined, its seats."""

    id: str
    tournament: str
    name: str
    joined: str
    seats: list[TournamentSeatRecord]


class MadeTournamentRecord(TypedDict):
    """A tournament the account made."""

    id: str
    tournament: str
    state: str
    created: str


class PersonalRecords(TypedDict):
    """Every online row of an account (see the module's docstring)."""

    passkeys: list[PasskeyRecord]
    invitations: list[InvitationRecord]
    seeks: list[SeekRecord]
    quick_match: list[WaitRecord]
    ratings: list[RatingRecord]
    rating_history: list[RatingPointRecord]
    skill_games: list[SkillRecord]
    tournaments: list[TournamentRecord]
    tournaments_made: list[MadeTournamentRecord]


def _when(moment: datetime | None) -> str:
    """ISO 8601 in UTC (SQLite gives stored times back without their zone); empty for none."""
    if moment is None:
        return ""
    return (moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)).isoformat()


def _invitations(conn: Any, account_id: str) -> list[InvitationRecord]:
    i = INVITATIONS
    rows = conn.execute(
        select(i, ACCOUNTS.c.name.label("from_name"))
        .select_from(i.outerjoin(ACCOUNTS, ACCOUNTS.c.id == i.c.from_id))
        .where(or_(i.c.from_id == account_id, i.c.to_id == account_id))
        .order_by(i.c.created_at, i.c.id)
    ).all()
    names = dict(
        conn.execute(
            select(ACCOUNTS.c.id, ACCOUNTS.c.name).where(ACCOUNTS.c.id.in_({r.to_id for r in rows}))
        ).all()
    )
    return [
        {
            "sent": r.from_id == account_id,
            "other": names.get(r.to_id, "") if r.from_id == account_id else r.from_name or "",
            "game": r.game_id,
            "seat": r.seat,
            "state": r.state,
            "created": _when(r.created_at),
            "expires": _when(r.expires_at),
        }
        for r in rows
    ]


def _seeks(conn: Any, account_id: str) -> list[SeekRecord]:
    rows = conn.execute(
        select(SEEKS, MEMBERS.c.joined_at)
        .select_from(SEEKS.join(MEMBERS, MEMBERS.c.seek_id == SEEKS.c.id))
        .where(MEMBERS.c.account_id == account_id)
        .order_by(SEEKS.c.created_at, SEEKS.c.id)
    ).all()
    return [
        {
            "id": r.id,
            "mine": r.account_id == account_id,
            "rules": r.rules,
            "lang": r.lang,
            "players": r.players,
            "hints": bool(r.hints),
            "time_control": r.time_control,
            "state": r.state,
            "game": r.game_id,
            "created": _when(r.created_at),
            "joined": _when(r.joined_at),
        }
        for r in rows
    ]


def _tournaments(conn: Any, account_id: str) -> list[TournamentRecord]:
    entries = conn.execute(
        select(PLAYERS, TOURNAMENTS.c.name.label("tournament"))
        .select_from(PLAYERS.join(TOURNAMENTS, TOURNAMENTS.c.id == PLAYERS.c.tournament_id))
        .where(PLAYERS.c.account_id == account_id)
        .order_by(PLAYERS.c.joined_at, PLAYERS.c.tournament_id)
    ).all()
    seats: dict[str, list[TournamentSeatRecord]] = {}
    for s in conn.execute(
        select(TSEATS).where(TSEATS.c.account_id == account_id).order_by(TSEATS.c.round)
    ).all():
        seats.setdefault(s.tournament_id, []).append(
            {
                "round": s.round,
                "table": s.table_no,
                "game": s.game_id,
                "seat": s.seat,
                "score": s.score,
                "points": s.points,
            }
        )
    return [
        {
            "id": e.tournament_id,
            "tournament": e.tournament,
            "name": e.name,
            "joined": _when(e.joined_at),
            "seats": seats.get(e.tournament_id, []),
        }
        for e in entries
    ]


def personal_records(repo: GameRepository, account_id: str) -> PersonalRecords:
    """Every online row of the account, oldest first (blocking: one read connection)."""
    with repo.engine.connect() as conn:
        passkeys: list[PasskeyRecord] = [
            {"id": r.credential_id, "created": _when(r.created_at), "agent": r.agent}
            for r in conn.execute(
                select(_PASSKEYS.c.credential_id, _PASSKEYS.c.created_at, _PASSKEYS.c.agent)
                .where(_PASSKEYS.c.account_id == account_id)
                .order_by(_PASSKEYS.c.created_at)
            ).all()
        ]
        waits: list[WaitRecord] = [
            {
                "rules": r.rules,
                "players": r.players,
                "lang": r.lang,
                "state": r.state,
                "since": _when(r.since),
                "seen": _when(r.seen_at),
                "game": r.game_id,
            }
            for r in conn.execute(select(WAITS).where(WAITS.c.account_id == account_id)).all()
        ]
        ratings: list[RatingRecord] = [
            {
                "family": r.family,
                "mu": float(r.mu),
                "sigma": float(r.sigma),
                "games": r.games,
                "updated": _when(r.updated_at),
            }
            for r in conn.execute(
                select(RATINGS).where(RATINGS.c.account_id == account_id).order_by(RATINGS.c.family)
            ).all()
        ]
        history: list[RatingPointRecord] = [
            {
                "family": r.family,
                "game": r.game_id,
                "at": _when(r.at),
                "mu": float(r.mu),
                "sigma": float(r.sigma),
                "games": r.games,
                "total": r.total,
                "place": r.place,
            }
            for r in conn.execute(
                select(HISTORY)
                .where(HISTORY.c.account_id == account_id)
                .order_by(HISTORY.c.at, HISTORY.c.game_id)
            ).all()
        ]
        skill: list[SkillRecord] = [
            {
                "family": r.family,
                "game": r.game_id,
                "at": _when(r.at),
                "decisions": r.decisions,
                "total_loss": float(r.total_loss),
                "best": r.best,
                "exact": bool(r.exact),
            }
            for r in conn.execute(
                select(SKILL_GAMES)
                .where(SKILL_GAMES.c.account_id == account_id)
                .order_by(SKILL_GAMES.c.at, SKILL_GAMES.c.game_id)
            ).all()
        ]
        made: list[MadeTournamentRecord] = [
            {"id": r.id, "tournament": r.name, "state": r.state, "created": _when(r.created_at)}
            for r in conn.execute(
                select(TOURNAMENTS.c.id, TOURNAMENTS.c.name, TOURNAMENTS.c.state)
                .add_columns(TOURNAMENTS.c.created_at)
                .where(TOURNAMENTS.c.creator_id == account_id)
                .order_by(TOURNAMENTS.c.created_at)
            ).all()
        ]
        return {
            "passkeys": passkeys,
            "invitations": _invitations(conn, account_id),
            "seeks": _seeks(conn, account_id),
            "quick_match": waits,
            "ratings": ratings,
            "rating_history": history,
            "skill_games": skill,
            "tournaments": _tournaments(conn, account_id),
            "tournaments_made": made,
        }


__all__ = [
    "InvitationRecord",
    "MadeTournamentRecord",
    "PasskeyRecord",
    "PersonalRecords",
    "RatingPointRecord",
    "RatingRecord",
    "SeekRecord",
    "SkillRecord",
    "TournamentRecord",
    "TournamentSeatRecord",
    "WaitRecord",
    "personal_records",
]
