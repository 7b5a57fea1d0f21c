"""The insight side of :class:`yatzy.web.service.GameService`: the viewer's record to
beat with its live chance and hint, a game's analysis and win analysis, and an
owner's records, history and statistics."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any, TypedDict

from yatzy.analysis.measured import earlier_games, rating_levels
from yatzy.game import State
from yatzy.rules import LANGUAGES
from yatzy.store import StoredGame
from yatzy.web.models import (
    AnalysisView,
    HintView,
    HistoryEntry,
    PendingView,
    StatsView,
    WinAnalysisView,
    WinUnavailableView,
    YouView,
)
from yatzy.web.rated import RatedGameError
from yatzy.web.service_base import GameBase, token_hash


class InsightSide(GameBase):
    """Records, chances, hints, analyses, history and statistics."""

    async def you(
        self, stored: StoredGame, state: State, tokens: Mapping[int, str], owner: str | None
    ) -> YouView:
        """The viewer's part: seats held, and for solo games the record to beat (its
        query is awaited)."""
        seats = self.seats_held(stored, tokens)
        if len(stored.seats) != 1 or not owner or not seats:
            return {"seats": seats}
        best = await self.repo.best_solo_total_async(token_hash(owner), stored.rules, stored.id)
        # The chance reads the target table (a numba kernel): off the event loop.
        extras = await asyncio.to_thread(record_extras, stored, state, best)
        you = _with_record(seats, state, best)
        if "record_chance" in extras:
            you["record_chance"] = extras["record_chance"]
        if extras.get("record_chance_pending"):
            you["record_chance_pending"] = True
        if "record_chance_approx" in extras:
            you["record_chance_approx"] = extras["record_chance_approx"]
        if "record_hint" in extras:
            you["record_hint"] = extras["record_hint"]
        return you

    async def analysis(self, game_id: str, lang: str | None = None) -> AnalysisView | PendingView:
        """Every person's decisions against the best ones, in the game's language or
        ``lang`` (see :func:`yatzy.web.hints.analysis`)."""
        from yatzy.web.hints import analysis

        stored, state = await self.load(game_id)
        await asyncio.to_thread(self.rated.refuse_while_running, game_id, state, "analyses")
        if self._in_tournament(stored, state):
            raise RatedGameError("analyses are not available in a tournament game until it is over")
        words: Any = lang if lang in LANGUAGES else stored.lang
        people = {s.seat for s in stored.seats if s.bot is None}
        key = f"{stored.id}:{stored.version}"
        return await asyncio.to_thread(analysis, state, words, people=people, key=key)

    async def win_analysis(
        self, game_id: str, lang: str | None = None, owner: str | None = None
    ) -> WinAnalysisView | WinUnavailableView | PendingView:
        """A finished game's analysis in win chance (solo: the chance of beating the
        owner's record before this game), in the game's language or ``lang`` (see
        :func:`yatzy.web.hints.win_analysis`); ``{"pending": true}`` while computed."""
        from yatzy.web.hints import win_analysis

        stored, state = await self.load(game_id)
        words: Any = lang if lang in LANGUAGES else stored.lang
        people = {s.seat for s in stored.seats if s.bot is None}
        record = None
        if len(stored.seats) == 1 and owner and state.is_terminal():
            record = await self.solo_record(owner, stored.rules, exclude=stored.id)
        # Each person counted at the level their play measured (issue 24), as the
        # analysis ahead rated the turns (so only the last turn is left to rate); where
        # the game still waits for the analysis ahead (behind another game's win
        # analysis, a minute and more), measured here at once (a fraction of a second),
        # so that the estimate comes now rather than a bare "pending" meanwhile.
        measured = await asyncio.to_thread(
            self.ahead.measured_at_end, stored.id, state, earlier_games(self.repo, stored)
        )
        return await asyncio.to_thread(
            win_analysis,
            self.win_analyses,
            state,
            words,
            people=people,
            record=record,
            key=f"{stored.id}:{stored.version}",
            client=token_hash(owner) if owner else None,
            levels=rating_levels(state, measured),
            measured={seat: m.to_json() for seat, m in measured.items()},
            # The turns rated ahead are in this process's memo: a worker would rate
            # them all again (a minute for two players), here only the last is left.
            here=self.ahead.rated_here(stored.id),
        )

    # -- history and records -------------------------------------------------------------------

    async def solo_record(self, owner: str, rules: str, exclude: str | None = None) -> int | None:
        """The owner's best final score in finished solo games of ``rules``."""
        return await self.repo.best_solo_total_async(token_hash(owner), rules, exclude)

    async def history(self, owner: str, lang: str = "en") -> list[HistoryEntry]:
        """The owner's games, newest first: dates, rules in words, players, totals,
        winners, status (see :func:`yatzy.analysis.history.history_entries`)."""
        from yatzy.analysis.history import history_entries

        words: Any = lang if lang in LANGUAGES else "en"
        owner_hash = token_hash(owner)

        def entries() -> list[HistoryEntry]:
            games = self.repo.games_of(owner_hash)
            return history_entries(games, owner_hash, words)  # type: ignore[return-value]

        return await asyncio.to_thread(entries)

    async def stats(self, owner: str, lang: str = "en") -> StatsView:
        """The owner's statistics per rule set (see :func:`yatzy.analysis.history.stats`)."""
        from yatzy.analysis.history import stats
        from yatzy.store.stats import finished_games_of

        words: Any = lang if lang in LANGUAGES else "en"

        def compute() -> StatsView:
            return stats(finished_games_of(self.repo, token_hash(owner)), words)  # type: ignore[return-value]

        return await asyncio.to_thread(compute)


def _with_record(seats: list[int], state: State, best: int | None) -> YouView:
    """The viewer's part of a solo game: the record to beat and whether this game does."""
    total = state.totals()[0]
    return {"seats": seats, "solo_record": best, "beats_record": best is None or total > best}


class RecordExtras(TypedDict, total=False):
    """The live parts of a solo game's :class:`YouView` (see :func:`record_extras`)."""

    record_chance: float | None
    record_chance_pending: bool
    record_chance_approx: float
    record_hint: HintView | None


def record_extras(stored: StoredGame, state: State, best: int | None) -> RecordExtras:
    """Solo, while the game is on: ``record_chance``, the live chance of beating the
    record with target play (``None`` where target tables do not apply or are not
    built yet; while the table builds ``record_chance_approx``, an approximate one),
    and with hints on ``record_hint``, the hint that aims at the record."""
    if best is None or state.is_terminal():
        return {}
    try:
        from yatzy.strategy.target_play import chance_to_beat
        from yatzy.strategy.win_chance import approximate_chance_to_beat
    except ImportError:  # the strategy package is not installed
        return {"record_chance": None}
    chance = chance_to_beat(state, best)
    out: RecordExtras = {"record_chance": None if chance is None else round(chance, 4)}
    if chance is None:
        from yatzy.web.prepare import target_preparing

        # Its table is built in the background (minutes, once): meanwhile an
        # approximate figure, labelled as one (issue 24), or words.
        out["record_chance_pending"] = target_preparing(state.rules)
        if out["record_chance_pending"]:
            approx = approximate_chance_to_beat(state, best)
            if approx is not None:
                out["record_chance_approx"] = round(approx, 2)  # sampled: whole percent
    if chance is not None and stored.hints and not stored.pad:
        from yatzy.web.hints import record_hint

        lang: Any = stored.lang if stored.lang in LANGUAGES else "en"
        out["record_hint"] = record_hint(state, best + 1, lang)
    return out
