"""Tournaments: people with accounts join before the start; at the start round 1's
tables are made, each an ordinary web game with the players seated on their
accounts; when every game of a round is over (or its deadline has passed) the round
is scored and the next one seated; after the last, the podium.

How it is decided (docs/tournaments.md says it for players):

* **Everything comes from the tournament's secret** (drawn when it is made, never
  shown): each round's dice seed, each table's seed (duplicate off), the first
  round's table order and every table's game id are HMAC-SHA256 of it with their
  own label (:func:`derive`).  Any server process that builds a round builds the
  same one, and a round's revealed seed says nothing of the next.
* **Once across processes**: the start and each round's close are conditional
  updates (:class:`yatzy.store.tournaments.TournamentStore`): the process whose update
  takes makes the round's seats; the games, whose ids are fixed, are then made by
  whoever finds them missing (a second insert of the same id fails harmlessly).
* **Duplicate dice**: every table of a round is dealt by :class:`FairDice` from the
  round's seed (:func:`dice_mode`), so whoever keeps the same dice in a round gets
  the same rolls at every table (at tables of several, whoever has the same place
  in the round's order: the others at a table play other streams, so nobody sees
  their own coming dice in the others' turns).  The seed is committed (its SHA-256 on the
  page from the round's start) and held back past each game's end until the round
  is over (``hold_for``; :attr:`GameService.hold_over` asks :meth:`hold_over`).
  Tournament games take no contributions and no hints.
* **Tables**: round 1 in a shuffled order (seeded by the secret); later rounds by
  the standings, the leaders together (:func:`tables_of`).  Table size 1: everyone
  alone.  Tables are as even as they can be (sizes differ by at most one).
* **Scores**: a round's score is the game's total; a game not over at the deadline
  counts what its players have by then (later moves no longer count).  A table
  gives placement points: ``players at the table - place`` (equal totals share the
  better place).  The standings: the sum of the rounds' scores, then the placement
  points; equal in both share a place.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import math
import random
import secrets
import weakref
from bisect import bisect_left
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import orjson

from yatzy.errors import YatzyError
from yatzy.game import FairDice
from yatzy.game.fair_dice import Mode, commitment_of
from yatzy.game.names import check_name
from yatzy.rules import LANGUAGES, Language, RuleSet
from yatzy.store.accounts import Account, AccountStore, account_owner
from yatzy.store.errors import NotFoundError
from yatzy.store.tournaments import (
    Player,
    Seating,
    SeatResult,
    Tournament,
    TournamentStore,
)
from yatzy.web.catalog import rules_name
from yatzy.web.service import GameService, SeatRequest
from yatzy.web.tournament_models import (
    CreateTournamentIn,
    RoundView,
    StandingView,
    TableView,
    TournamentListView,
    TournamentSummaryView,
    TournamentView,
)

log = logging.getLogger(__name__)

TICK_SECONDS = 10.0
"""How often the app's periodic task looks for tournaments to start or advance."""
MAX_AHEAD = timedelta(days=365)
"""How far ahead a tournament may be set to start."""
HOLD_PREFIX = "tournament/"


class BadTournamentError(YatzyError):
    """A tournament's settings that cannot be: a start in the past, a bad name."""


def utc_now() -> datetime:
    """The time now, in UTC (the tournaments' default clock)."""
    return datetime.now(UTC)


def derive(secret_hex: str, label: str) -> bytes:
    """A value of the tournament's secret for ``label`` (HMAC-SHA256)."""
    return hmac.new(bytes.fromhex(secret_hex), label.encode("ascii"), hashlib.sha256).digest()


def round_seed(t: Tournament, round_no: int) -> bytes:
    """The dice seed every table of a duplicate round plays."""
    return derive(t.secret, f"round/{round_no}/dice")


def table_seed(t: Tournament, round_no: int, table: int) -> bytes:
    """A table's own dice seed (duplicate off)."""
    return derive(t.secret, f"round/{round_no}/table/{table}/dice")


def game_id_of(t: Tournament, round_no: int, table: int) -> str:
    """The id of a table's game (the same in every process)."""
    return derive(t.secret, f"round/{round_no}/table/{table}/game").hex()[:32]


def hold_name(tournament_id: str, round_no: int) -> str:
    """What a round's games hold their seed for (``FairDice.hold_for``)."""
    return f"{HOLD_PREFIX}{tournament_id}/round/{round_no}"


def dice_mode(t: Tournament) -> Mode:
    """How a tournament's tables are dealt: duplicate off, each its own dice; tables of
    one, everyone the round's dice (``duplicate``); larger tables, the round's dice
    per place in the round's order (``duplicate_seat``: the k-th player of a round at
    every table shares a stream, and nobody sees at their own table the dice the same
    keeps will give them)."""
    if not t.duplicate:
        return "standard"
    return "duplicate" if t.table_size == 1 else "duplicate_seat"


def split(count: int, size: int) -> list[int]:
    """The sizes of the tables for ``count`` players at tables of at most ``size``:
    as few tables as fit, as even as can be (the larger ones first)."""
    if count == 0:
        return []
    tables = math.ceil(count / size)
    base, extra = divmod(count, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def tables_of(order: Sequence[str], size: int) -> list[list[str]]:
    """``order`` (account ids) cut into tables of :func:`split`'s sizes, in order."""
    out: list[list[str]] = []
    at = 0
    for n in split(len(order), size):
        out.append(list(order[at : at + n]))
        at += n
    return out


def placement_points(scores: Sequence[int]) -> list[int]:
    """Each seat's placement points at a table of ``scores``: the players at the
    table minus the place, equal scores sharing the better place (alone: 0)."""
    n = len(scores)
    return [n - (1 + sum(1 for o in scores if o > s)) for s in scores]


@dataclass(frozen=True)
class Standing:
    """A player's standing: the closed rounds' scores, their sum and placement
    points, and the live score of the round being played."""

    account_id: str
    name: str
    total: int
    points: int
    rounds: list[int | None]
    live: int | None
    place: int = 0


def standings(
    t: Tournament,
    players: Sequence[Player],
    seats: Sequence[SeatResult],
    live: dict[str, int] | None = None,
) -> list[Standing]:
    """The standings: total score of the closed rounds, then placement points (see
    the module's docstring); equal in both share a place, listed by name."""
    scores: dict[str, list[int | None]] = {p.account_id: [None] * t.rounds for p in players}
    points: dict[str, int] = {p.account_id: 0 for p in players}
    for s in seats:
        if s.score is not None and s.account_id in scores and 1 <= s.round <= t.rounds:
            scores[s.account_id][s.round - 1] = s.score
            points[s.account_id] += s.points or 0
    rows = [
        Standing(
            p.account_id,
            p.name,
            sum(x for x in scores[p.account_id] if x is not None),
            points[p.account_id],
            scores[p.account_id],
            None if live is None else live.get(p.account_id),
        )
        for p in players
    ]
    # a place is 1 + how many are strictly ahead: the index of the first equal key in
    # the keys sorted best first (bisect on the negated keys, ascending)
    keyed = sorted((-s.total, -s.points) for s in rows)
    placed = [
        Standing(**{**s.__dict__, "place": 1 + bisect_left(keyed, (-s.total, -s.points))})
        for s in rows
    ]
    return sorted(placed, key=lambda s: (s.place, s.name.casefold(), s.account_id))


class TournamentService:
    """The tournaments of one server process, over its :class:`GameService`.

    ``clock`` is the time now (tests set it).  :meth:`advance` does what is due for
    one tournament (called on every view and by :meth:`run_periodically`); it is
    safe to call from several processes at once.
    """

    def __init__(self, service: GameService, clock: Callable[[], datetime] = utc_now) -> None:
        self.service = service
        self.store = TournamentStore(service.repo)
        self.accounts = AccountStore(service.repo)
        self.clock = clock
        self._released: set[str] = set()
        # one advance at a time per tournament in this process (weak: an id asked for
        # once, or a made-up one, leaves nothing behind)
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._totals: OrderedDict[tuple[str, int], list[int]] = OrderedDict()
        service.hold_over = self.hold_over

    # -- the seeds held back ----------------------------------------------------------------

    def hold_over(self, name: str) -> bool:
        """Whether the round a seed is held for is over (from a worker thread)."""
        if name in self._released:
            return True
        parts = name.split("/")
        if len(parts) != 4 or parts[0] + "/" != HOLD_PREFIX or parts[2] != "round":
            return False
        if not parts[3].isdigit():
            return False
        if self.store.round_closed(parts[1], int(parts[3])):
            self._released.add(name)
            return True
        return False

    # -- making, joining, cancelling ---------------------------------------------------------

    async def create(self, account: Account, body: CreateTournamentIn) -> Tournament:
        """A new tournament of ``account`` (:class:`BadTournamentError` and the rules'
        errors for settings that cannot be: nothing is stored then)."""
        name = check_name(body.name)
        spec = RuleSet.parse(body.rules).spec  # as a game's rules are checked
        if body.lang not in LANGUAGES:
            raise BadTournamentError(f"language {body.lang!r} is not one of {LANGUAGES}")
        starts = _parse_time(body.starts_at)
        now = self.clock()
        if starts <= now:
            raise BadTournamentError(f"the start {body.starts_at!r} is not in the future")
        if starts > now + MAX_AHEAD:
            raise BadTournamentError("the start is more than a year ahead")
        t = Tournament(
            id=secrets.token_hex(16),
            name=name,
            rules=spec,
            lang=body.lang,
            creator_id=account.id,
            created_at=now,
            starts_at=starts,
            rounds=body.rounds,
            table_size=body.table_size,
            duplicate=body.duplicate,
            public=body.public,
            cap=body.cap,
            round_minutes=body.round_minutes,
            state="open",
            round=0,
            players=0,
            secret=secrets.token_hex(32),
        )
        await asyncio.to_thread(self.store.create, t)
        return t

    async def join(self, tournament_id: str, account: Account) -> None:
        """Put the account into the tournament (refused after the start, when full,
        the second time: :class:`yatzy.store.tournaments.NotJoinableError`)."""
        await self.advance(tournament_id)
        await asyncio.to_thread(
            self.store.join, tournament_id, account.id, account.name, self.clock()
        )

    async def cancel(self, tournament_id: str, account: Account) -> None:
        """Cancel the tournament (its creator, before the start)."""
        await self.advance(tournament_id)
        await asyncio.to_thread(self.store.cancel, tournament_id, account.id)

    # -- running -------------------------------------------------------------------------------

    async def tick(self) -> None:
        """Advance every tournament that may have something to do."""
        for tournament_id in await asyncio.to_thread(self.store.due, self.clock()):
            try:
                await self.advance(tournament_id)
            except Exception:  # one tournament's trouble must not stop the others
                log.exception("tournament %s could not advance", tournament_id)

    async def run_periodically(self, every: float = TICK_SECONDS) -> None:
        """:meth:`tick` every ``every`` seconds (the app's lifespan runs it)."""
        while True:
            try:
                await self.tick()
            except Exception:
                log.exception("the tournaments' tick failed")
            await asyncio.sleep(every)

    async def advance(self, tournament_id: str) -> Tournament:
        """Do what is due: start at the start time, make missing games, close a round
        whose games are all over (or whose deadline passed) and seat the next; the
        tournament as it is after.  Idempotent, and safe in several processes."""
        lock = self._locks.get(tournament_id)
        if lock is None:
            lock = self._locks[tournament_id] = asyncio.Lock()
        async with lock:
            t = await asyncio.to_thread(self.store.get, tournament_id)
            now = self.clock()
            if t.state == "open" and t.starts_at <= now:
                await self._start(t, now)
                t = await asyncio.to_thread(self.store.get, tournament_id)
            if t.state == "running":
                await self._make_games(t)
                if await self._close_if_over(t, now):
                    t = await asyncio.to_thread(self.store.get, tournament_id)
                    if t.state == "running":
                        await self._make_games(t)
            return t

    async def _start(self, t: Tournament, now: datetime) -> None:
        players = await asyncio.to_thread(self.store.players, t.id)
        if not players:
            await asyncio.to_thread(self.store.cancel_empty, t.id)
            return
        order = sorted(p.account_id for p in players)
        random.Random(derive(t.secret, "round/1/order")).shuffle(order)
        seats = self._seating(t, 1, tables_of(order, t.table_size))
        deadline = now + timedelta(minutes=t.round_minutes)
        await asyncio.to_thread(self.store.begin, t.id, seats, now, deadline)

    def _seating(self, t: Tournament, round_no: int, tables: list[list[str]]) -> list[Seating]:
        return [
            Seating(account_id, k, game_id_of(t, round_no, k), seat)
            for k, table in enumerate(tables)
            for seat, account_id in enumerate(table)
        ]

    async def _make_games(self, t: Tournament) -> None:
        """Make the games of the round being played that are not stored yet."""
        missing = await asyncio.to_thread(self.store.missing_games, t.id, t.round)
        if not missing:
            return
        tables = _by_game(await asyncio.to_thread(self.store.seats, t.id, t.round))
        for game_id in missing:
            if game_id in tables:
                await self._make_game(t, t.round, tables[game_id])

    async def _make_game(self, t: Tournament, round_no: int, table: list[SeatResult]) -> None:
        table_no = table[0].table_no
        seed = round_seed(t, round_no) if t.duplicate else table_seed(t, round_no, table_no)
        dealer = FairDice(seed, dice_mode(t), hold_for=hold_name(t.id, round_no))
        seats = [
            SeatRequest(s.name, here=True, owner=account_owner(s.account_id))
            for s in sorted(table, key=lambda s: s.seat)
        ]
        try:
            await self.service.create(
                t.rules, t.lang, seats, dealer=dealer, game_id=table[0].game_id
            )
        except Exception:
            # Another process made it meanwhile (its id is fixed): then all is well.
            try:
                await asyncio.to_thread(self.service.repo.get, table[0].game_id)
            except NotFoundError:
                raise
            return

    async def _close_if_over(self, t: Tournament, now: datetime) -> bool:
        """Close the round if all its games are over or its deadline has passed."""
        rounds = await asyncio.to_thread(self.store.rounds, t.id)
        current = next((r for r in rounds if r.round == t.round), None)
        if current is None or current.closed_at is not None:
            return False
        if now < current.deadline:
            left = await asyncio.to_thread(self.store.unfinished, t.id, t.round)
            if left:
                return False
        seats = await asyncio.to_thread(self.store.seats, t.id, t.round, games=True)
        live = await asyncio.to_thread(self._live_scores, seats)
        results: dict[str, tuple[int, int]] = {}
        for table in _by_game(seats).values():
            scores = [live.get(s.account_id, 0) for s in table]
            for s, score, points in zip(table, scores, placement_points(scores), strict=True):
                results[s.account_id] = (score, points)
        next_seats = None
        deadline = None
        if t.round < t.rounds:
            players = await asyncio.to_thread(self.store.players, t.id)
            every = await asyncio.to_thread(self.store.seats, t.id)
            closed = [
                s
                if s.round != t.round
                else SeatResult(
                    **{
                        **s.__dict__,
                        "score": results[s.account_id][0],
                        "points": results[s.account_id][1],
                    }
                )
                for s in every
            ]
            order = [s.account_id for s in standings(t, players, closed)]
            next_seats = self._seating(t, t.round + 1, tables_of(order, t.table_size))
            deadline = now + timedelta(minutes=t.round_minutes)
        done = await asyncio.to_thread(
            self.store.close, t.id, t.round, results, now, next_seats, deadline
        )
        if done:
            self._released.add(hold_name(t.id, t.round))
        return done

    def _live_scores(self, seats: Sequence[SeatResult]) -> dict[str, int]:
        """Each seat's total in its game as stored now (records read only for games
        that moved since this process last read them)."""
        wanted = [
            s.game_id
            for s in seats
            if s.version is not None and (s.game_id, s.version) not in self._totals
        ]
        for game_id, (version, record) in self.store.records(sorted(set(wanted))).items():
            totals = orjson.loads(record).get("totals") or []
            self._totals[(game_id, version)] = [int(x) for x in totals]
            while len(self._totals) > 20_000:
                self._totals.popitem(last=False)
        out: dict[str, int] = {}
        for s in seats:
            totals = self._totals.get((s.game_id, s.version or 0))
            if totals is not None and s.seat < len(totals):
                out[s.account_id] = totals[s.seat]
        return out

    # -- reading -------------------------------------------------------------------------------

    async def listing(self, lang: Language) -> TournamentListView:
        """The public tournaments (advanced first where due, on the periodic task)."""
        found = await asyncio.to_thread(self.store.listed)
        return {"tournaments": [_summary(t, lang) for t in found]}

    async def view(
        self, tournament_id: str, account: Account | None, lang: Language
    ) -> TournamentView:
        """The tournament as its page shows it to ``account`` (after doing what is
        due: the check on view)."""
        t = await self.advance(tournament_id)
        return await asyncio.to_thread(self._view, t, account, lang)

    def _view(self, t: Tournament, account: Account | None, lang: Language) -> TournamentView:
        players = self.store.players(t.id)
        every = self.store.seats(t.id, games=True)
        rounds = self.store.rounds(t.id)
        current = [s for s in every if s.round == t.round]
        live = None
        round_open = any(r.round == t.round and r.closed_at is None for r in rounds)
        if t.state == "running" and round_open:
            live = self._live_scores(current)
        table = standings(t, players, every, live)
        mine = account.id if account is not None else None
        joined = mine is not None and any(p.account_id == mine for p in players)
        now = self.clock()
        creator = self.accounts.by_id(t.creator_id)
        my_game = next((s.game_id for s in current if s.account_id == mine), None)
        round_info: list[RoundView] = []
        played = _by_round(every)
        for r in rounds:
            seed = round_seed(t, r.round) if t.duplicate else None
            closed_tables: list[TableView] = []
            if r.closed_at is not None:
                closed_tables = [
                    {
                        "table": at[0].table_no + 1,
                        "game_id": game_id,
                        "players": [s.name for s in at],
                        "finished": bool(at[0].finished),
                    }
                    for game_id, at in _by_game(played.get(r.round, [])).items()
                ]
            round_info.append(
                {
                    "round": r.round,
                    "started_at": r.started_at.isoformat(),
                    "deadline": r.deadline.isoformat(),
                    "closed": r.closed_at is not None,
                    "commitment": None if seed is None else commitment_of(seed),
                    "seed": seed.hex() if seed is not None and r.closed_at is not None else None,
                    "tables": closed_tables,
                }
            )
        tables: list[TableView] = []
        if round_open:
            for game_id, at in _by_game(current).items():
                watch = not t.duplicate or any(s.account_id == mine for s in at)
                tables.append(
                    {
                        "table": at[0].table_no + 1,
                        "game_id": game_id if watch else None,
                        "players": [s.name for s in at],
                        "finished": bool(at[0].finished),
                    }
                )
        lines = [_standing(s, mine) for s in table]
        return {
            "id": t.id,
            "name": t.name,
            "rules": t.rules,
            "rules_title": rules_name(t.rules, lang),
            "lang": t.lang,
            "state": t.state,
            "starts_at": t.starts_at.isoformat(),
            "rounds": t.rounds,
            "round": t.round,
            "table_size": t.table_size,
            "duplicate": t.duplicate,
            "public": t.public,
            "cap": t.cap,
            "round_minutes": t.round_minutes,
            "players": [p.name for p in players],
            "creator": creator.name if creator is not None else "",
            "you": {
                "signed_in": account is not None,
                "joined": joined,
                "creator": mine is not None and mine == t.creator_id,
                "game_id": my_game if round_open else None,
                "can_join": account is not None
                and not joined
                and t.state == "open"
                and t.starts_at > now
                and len(players) < t.cap,
                "can_cancel": mine == t.creator_id and t.state == "open",
            },
            "round_info": round_info,
            "standings": lines,
            "tables": tables,
            "podium": [s for s in lines if s["place"] <= 3] if t.state == "finished" else [],
        }

    async def standings_of(self, tournament_id: str) -> list[Standing]:
        """The standings now (closed rounds, and the live round's scores)."""
        t = await asyncio.to_thread(self.store.get, tournament_id)

        def compute() -> list[Standing]:
            players = self.store.players(t.id)
            every = self.store.seats(t.id, games=True)
            current = [s for s in every if s.round == t.round and s.score is None]
            return standings(t, players, every, self._live_scores(current))

        return await asyncio.to_thread(compute)


def _by_round(seats: Sequence[SeatResult]) -> dict[int, list[SeatResult]]:
    """The seats grouped by their round."""
    out: dict[int, list[SeatResult]] = {}
    for s in seats:
        out.setdefault(s.round, []).append(s)
    return out


def _by_game(seats: Sequence[SeatResult]) -> dict[str, list[SeatResult]]:
    """The seats grouped by their game, in the order the games first come."""
    out: dict[str, list[SeatResult]] = {}
    for s in seats:
        out.setdefault(s.game_id, []).append(s)
    return out


def _standing(s: Standing, mine: str | None) -> StandingView:
    return {
        "place": s.place,
        "name": s.name,
        "total": s.total,
        "points": s.points,
        "rounds": list(s.rounds),
        "live": s.live,
        "yours": s.account_id == mine,
    }


def _summary(t: Tournament, lang: Language) -> TournamentSummaryView:
    return {
        "id": t.id,
        "name": t.name,
        "rules_title": rules_name(t.rules, lang),
        "state": t.state,
        "starts_at": t.starts_at.isoformat(),
        "rounds": t.rounds,
        "round": t.round,
        "table_size": t.table_size,
        "duplicate": t.duplicate,
        "players": t.players,
        "cap": t.cap,
    }


def _parse_time(text: str) -> datetime:
    """An ISO 8601 time with its zone, in UTC (:class:`BadTournamentError` else)."""
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise BadTournamentError(f"start {text!r} is not an ISO 8601 time") from None
    if moment.tzinfo is None:
        raise BadTournamentError(f"start {text!r} has no time zone (add Z or +02:00)")
    return moment.astimezone(UTC)


async def stop(task: asyncio.Task[Any] | None) -> None:
    """Cancel the periodic task and wait for it."""
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
