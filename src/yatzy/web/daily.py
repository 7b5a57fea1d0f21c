"""The daily challenges: every day, per popular rule set, one solo game on dice that
are the same for everyone (duplicate mode, from a seed committed in the morning and
revealed when the day is over).  Each browser plays a challenge once; who finished
it sees the leaderboard and what the optimal player scored on the same dice.

The dice are :class:`~yatzy.game.fair_dice.FairDice` in duplicate mode: whoever keeps
the same dice in a round gets the same new ones, so the scores compare choices, not
luck.  No contributions (they would give each game other dice) and no hints.
"""

from __future__ import annotations

import asyncio
import logging
import random
import threading
from datetime import date, timedelta

from yatzy.errors import YatzyError
from yatzy.game import FairDice, Game, State
from yatzy.game.fair_dice import commitment_of, is_day
from yatzy.rules import Language, RuleSet
from yatzy.store.daily import AlreadyEnteredError, DailyStore
from yatzy.store.errors import NotFoundError
from yatzy.web.catalog import rules_name
from yatzy.web.models import DailyBoardView, DailyChallengeView, DailyDayView, DailyView
from yatzy.web.prepare import bot_for
from yatzy.web.service import Created, GameService, SeatRequest, token_hash

log = logging.getLogger(__name__)

DAILY_RULES: tuple[str, ...] = ("yatzy", "yahtzee")
"""The rule sets with a challenge every day (the start page's most played presets)."""
CALENDAR_DAYS = 14
"""How many past days the calendar lists."""
BOARD_SIZE = 100


class NotPlayedYetError(YatzyError):
    """Today's leaderboard asked for by a browser that has not finished the challenge."""


class PlayedAlreadyError(AlreadyEnteredError):
    """A second game of a challenge this browser has finished."""


def commitment_of_seed(seed_hex: str) -> str:
    """The commitment of a challenge's seed (what the page shows all day)."""
    return commitment_of(bytes.fromhex(seed_hex))


class DailyChallenges:
    """The daily challenges of one server process, over its :class:`GameService`."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.store = DailyStore(service.repo)
        self._computing: set[tuple[str, str]] = set()
        self._lock = threading.Lock()

    def today(self) -> str:
        """Today (ISO date, UTC): the service's clock, which tests set."""
        return self.service.today()

    def _check(self, day: str, rules: str) -> None:
        if rules not in DAILY_RULES:
            raise NotFoundError(f"no daily challenge for {rules!r} (only {', '.join(DAILY_RULES)})")
        if not is_day(day):
            raise YatzyError(f"day {day!r} is not a date (YYYY-MM-DD)")
        if day > self.today():
            raise NotFoundError(f"the challenge of {day} has not begun")

    async def start(
        self, rules: str, name: str, owner: str, lang: str
    ) -> tuple[str, Created | None]:
        """Today's game of ``rules`` for this browser (``owner``): its id, and the new
        game (None: the one it has begun, whose seat it holds already);
        :class:`PlayedAlreadyError` once it is over."""
        day = self.today()
        self._check(day, rules)
        owner_hash = token_hash(owner)
        entry = await asyncio.to_thread(self.store.entry_of, day, rules, owner_hash)
        if entry is not None:
            if entry.finished:
                raise PlayedAlreadyError(f"you have played the challenge of {day} already")
            return entry.game_id, None
        challenge = await asyncio.to_thread(self.store.challenge, day, rules)
        dealer = FairDice(bytes.fromhex(challenge.seed), "duplicate", hold_until=day)
        created = await self.service.create(
            rules, lang, [SeatRequest(name, here=True)], owner=owner, dealer=dealer
        )
        try:
            await asyncio.to_thread(self.store.enter, day, rules, created.game_id, owner_hash, name)
        except AlreadyEnteredError:  # the same browser, twice at once: its first game
            entry = await asyncio.to_thread(self.store.entry_of, day, rules, owner_hash)
            assert entry is not None
            return entry.game_id, None
        return created.game_id, created

    async def overview(self, owner: str | None, lang: Language) -> DailyView:
        """Today's challenges with this browser's part, and the calendar of past days."""
        return await asyncio.to_thread(self._overview, owner, lang)

    def _overview(self, owner: str | None, lang: Language) -> DailyView:
        today = self.today()
        owner_hash = token_hash(owner) if owner else None
        past = [
            (date.fromisoformat(today) - timedelta(days=n)).isoformat()
            for n in range(1, CALENDAR_DAYS + 1)
        ]
        challenges: list[DailyChallengeView] = []
        for rules in DAILY_RULES:
            challenge = self.store.challenge(today, rules)
            entry = self.store.entry_of(today, rules, owner_hash) if owner_hash else None
            [summary] = self.store.calendar([today], rules)
            days: list[DailyDayView] = []
            for s in self.store.calendar(past, rules):
                known = self.store.known(s.day, rules)
                mine = self.store.entry_of(s.day, rules, owner_hash) if owner_hash else None
                days.append(
                    {
                        "day": s.day,
                        "players": s.players,
                        "best": s.best,
                        "optimal_total": s.optimal_total,
                        "yours": None if mine is None else mine.total,
                        "seed": None if known is None else known.seed,
                    }
                )
            challenges.append(
                {
                    "rules": rules,
                    "title": rules_name(rules, lang),
                    "day": today,
                    "commitment": commitment_of_seed(challenge.seed),
                    "players": summary.players,
                    "game_id": None if entry is None else entry.game_id,
                    "finished": entry is not None and entry.finished,
                    "total": None if entry is None else entry.total,
                    "calendar": days,
                }
            )
        return {"today": today, "challenges": challenges}

    async def board(self, day: str, rules: str, owner: str | None) -> DailyBoardView:
        """The leaderboard of a challenge: today's only for a browser that finished it."""
        self._check(day, rules)
        return await asyncio.to_thread(self._board, day, rules, owner)

    def _board(self, day: str, rules: str, owner: str | None) -> DailyBoardView:
        today = self.today()
        mine = self.store.entry_of(day, rules, token_hash(owner)) if owner else None
        if day == today and (mine is None or not mine.finished):
            raise NotPlayedYetError(
                "today's leaderboard opens when you have finished the challenge"
            )
        challenge = self.store.known(day, rules)
        if challenge is None:
            raise NotFoundError(f"nobody played the {rules} challenge of {day}")
        entries = self.store.leaderboard(day, rules, BOARD_SIZE)
        if challenge.optimal_total is None and entries:
            self._compute_optimal(day, rules, challenge.seed)
        place = None
        if mine is not None and mine.finished and mine.total is not None:
            place = 1 + sum(1 for e in entries if e.total is not None and e.total > mine.total)
        return {
            "day": day,
            "rules": rules,
            "commitment": commitment_of_seed(challenge.seed),
            "seed": challenge.seed if day < today else None,
            "optimal_total": challenge.optimal_total,
            "entries": [
                {
                    "place": 1 + sum(1 for o in entries if (o.total or 0) > (e.total or 0)),
                    "name": e.name,
                    "total": e.total or 0,
                    "game_id": e.game_id,
                    "yours": mine is not None and e.game_id == mine.game_id,
                }
                for e in entries
            ],
            "your_place": place,
        }

    def _compute_optimal(self, day: str, rules: str, seed: str) -> None:
        """What the optimal player scores on the challenge's dice, in the background
        (once per process at a time; kept in the store when done)."""
        key = (day, rules)
        with self._lock:
            if key in self._computing:
                return
            self._computing.add(key)

        def run() -> None:
            try:
                total = optimal_total(rules, bytes.fromhex(seed))
                if total is not None:
                    self.store.set_optimal(day, rules, total)
            except Exception:
                log.exception(
                    "the optimal player's score of the %s challenge %s failed", rules, day
                )
            finally:
                with self._lock:
                    self._computing.discard(key)

        threading.Thread(target=run, name=f"daily-optimal-{rules}", daemon=True).start()


def optimal_total(rules: str, seed: bytes) -> int | None:
    """The optimal player's total on a challenge's dice (duplicate mode: its own keeps
    get the rolls anyone with those keeps gets); None while its tables are prepared."""
    ruleset = RuleSet.parse(rules)
    bot, stand_in = bot_for("optimal", ruleset)
    if stand_in:
        return None
    dealer = FairDice(seed, "duplicate")
    state: State = Game(ruleset, ["Optimal"]).new_initial_state()
    rng = random.Random(0)
    while not state.is_terminal():
        if state.is_chance_node():
            state.roll(dealer)
        else:
            state.apply(bot.choose(state, rng))
    return int(state.totals()[0])
