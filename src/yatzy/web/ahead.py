"""A game's analyses made while it is played, so that they are there at its end.

The analysis in win chance rates every decision of a game (a fraction of a CPU second
each, a minute for a whole game of two); the analysis in points needs the advisor's
kernels compiled.  Done only after the last box, both made a player wait far beyond
the goals of issue 24 (the analysis within 5 s, the win analysis within 10 s).  So each
turn is analysed when its box is written, by one background thread: the strategy
layer remembers every rated position (:func:`yatzy.strategy.win_analysis.analyze_wins`
on the game so far), and at the end only the last turn is left to rate.  The same
pass measures each person's play so far (the points lost per turn, scaled to a game)
and maps it to a calibrated level (:func:`measured_levels`), so the live chances count
a beginner as a beginner rather than as a perfect player (:meth:`Ahead.levels_of`).

The thread takes at most the win analyses' ``share`` of a core (their
:meth:`yatzy.web.win_jobs.WinAnalyses.pace`), keeps only each game's latest position
(a game several turns ahead is analysed once, from where it is), at most
:data:`GAMES_KEPT` games, and does nothing for games whose strategy is not ready
(their tables are being prepared), score pads and games without a person; with the
win analyses off it only measures the people (when the live chances are on).  A
failure is logged and forgotten: the analysis at the end does the work then.
"""

from __future__ import annotations

import logging
import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING

from yatzy.errors import YatzyError
from yatzy.game import State
from yatzy.web.prepare import strategy_status
from yatzy.web.win_jobs import WinAnalyses

if TYPE_CHECKING:  # the strategy package loads numpy: only where a game is analysed
    from yatzy.strategy.analyze import Analysis

log = logging.getLogger("yatzy.web")

GAMES_KEPT = 256
"""Games waiting for their turns' analysis at most (past it the oldest waits for its
next turn)."""

RecordOf = Callable[[], int | None]


AHEAD_ENV = "YATZY_ANALYSE_AHEAD"
"""``0`` switches the analysis made while games are played off (the analyses are then
made at the end, as before; the live chances count every person as playing their best)."""


def enabled_by_env() -> bool:
    """Whether :data:`AHEAD_ENV` leaves the analysis ahead on (the default)."""
    return os.environ.get(AHEAD_ENV, "").strip() != "0"


class _Stopped(Exception):
    """Raised between the turns of a win analysis when the server stops."""


MEASURED_AFTER = 3
"""A person's own turns seen before their play is mapped to a level (before that they
count as playing their best, as the chances always did)."""


def measured_levels(state: State, analysis: Analysis) -> dict[int, str]:
    """Each person's level from their decisions so far in ``analysis`` (of ``state``):
    the points they lost per turn, scaled to a whole game, mapped to the nearest
    calibrated level (:func:`yatzy.analysis.rating.level_of`); people with fewer than
    :data:`MEASURED_AFTER` turns, and bots, are left out."""
    from yatzy.analysis.rating import level_of  # openskill: only where people are measured

    levels: dict[int, str] = {}
    for summary in analysis.players:
        seat = summary.player
        turns = len(summary.expected)
        if state.players[seat].bot is not None or turns < MEASURED_AFTER:
            continue
        per_game = summary.total_loss / turns * state.rules.turns
        levels[seat] = level_of(max(per_game, 1e-9))
    return levels


def turn_written(state: State) -> bool:
    """Whether ``state`` is just after a box was written (its last turn is complete)."""
    if state.game.pad or not state.log or state.dice is not None:
        return False
    last = state.log[-1]
    return "box" in last or "inner" in last


class Ahead:
    """The background analysis of games in play (see the module docstring)."""

    def __init__(
        self, analyses: WinAnalyses, *, measure: bool = False, enabled: bool = True
    ) -> None:
        self.analyses = analyses
        self.measure = measure
        self.enabled = enabled
        # game id -> (turns seen, {seat: level}): each person's play so far as a level
        self._levels: OrderedDict[str, tuple[int, dict[int, str]]] = OrderedDict()
        self._waiting: OrderedDict[str, tuple[State, RecordOf | None]] = OrderedDict()
        self._lock = threading.Condition()
        self._thread: threading.Thread | None = None
        self._busy = False
        self._stopped = False
        self.done = 0  # positions analysed (tests, logs)

    def after_write(self, game_id: str, state: State, record_of: RecordOf | None = None) -> None:
        """A box of ``game_id`` was written, giving ``state``: analyse its turns so far in
        the background.  ``record_of`` gives a solo game's record (its chances are those
        of beating it; without one a solo game's win analysis is not made ahead)."""
        if not self.enabled or not (self.analyses.enabled or self.measure):
            return
        if not turn_written(state):
            return
        if all(p.bot is not None for p in state.players):
            return  # nobody reads the analysis of the computers' own game
        if len(state.players) == 1 and (record_of is None or not self.analyses.enabled):
            return  # alone: no live chances to measure for, nothing to rate without a record
        with self._lock:
            if self._stopped:
                return
            self._waiting.pop(game_id, None)
            self._waiting[game_id] = (state.clone(), record_of)
            while len(self._waiting) > GAMES_KEPT:
                self._waiting.popitem(last=False)
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, name="ahead", daemon=True)
                self._thread.start()
            self._lock.notify()

    def _work(self) -> None:
        while True:
            with self._lock:
                self._busy = False
                self._lock.notify_all()
                self._lock.wait_for(lambda: bool(self._waiting) or self._stopped)
                if self._stopped:
                    self._thread = None
                    return
                self._busy = True
            # First every waiting game's people (milliseconds each, for the live chances
            # of the next move), then one game's win analysis (up to a second a turn,
            # measuring the games written meanwhile between its turns).
            self._measure_waiting()
            with self._lock:
                if not self._waiting:
                    continue
                game_id, (state, record_of) = self._waiting.popitem(last=False)
            self._guarded(self._rate, game_id, state, record_of)

    def _measure_waiting(self) -> None:
        with self._lock:
            pending = [(game_id, state) for game_id, (state, _) in self._waiting.items()]
        for game_id, state in pending:
            self._guarded(self._measure, game_id, state)

    def _between_turns(self, done: int, total: int) -> None:
        """After each turn of a win analysis: rest (the win analyses' share of a core),
        then measure the people of the games written meanwhile."""
        if self._stopped:
            raise _Stopped("the server is stopping")
        self.analyses.pace(done, total)
        self._measure_waiting()

    @staticmethod
    def _guarded(task: Callable[..., None], game_id: str, state: State, *args: object) -> None:
        try:
            task(game_id, state, *args)
        except Exception as exc:  # the analysis at the end tries again; the server goes on
            log.info("analysis ahead of %s failed: %s", state.rules.spec, exc)

    def _measure(self, game_id: str, state: State) -> None:
        """Each person's level so far (the points' analysis; it also compiles the
        advisor's kernels early, the first time)."""
        with self._lock:
            seen = self._levels.get(game_id)
        if not self.measure or (seen is not None and seen[0] == len(state.log)):
            return
        if strategy_status(state.rules) is not None:
            return  # tables being prepared (or none here)
        from yatzy.strategy.analyze import analyze

        levels = measured_levels(state, analyze(state))
        with self._lock:
            self._levels[game_id] = (len(state.log), levels)
            self._levels.move_to_end(game_id)
            while len(self._levels) > GAMES_KEPT:
                self._levels.popitem(last=False)

    def _rate(self, game_id: str, state: State, record_of: RecordOf | None) -> None:
        """The game's turns so far in win chance (remembered for the end)."""
        if not self.analyses.enabled or strategy_status(state.rules) is not None:
            return  # off, or tables being prepared (or none here): the end does the work
        from yatzy.strategy.win_analysis import analyze_wins

        record = None
        if len(state.players) == 1:
            if record_of is None:
                return
            record = record_of()
            if record is None:
                return
        try:
            analyze_wins(
                state, record=record, budget=self.analyses.budget, progress=self._between_turns
            )
        except YatzyError as exc:
            log.info("no analysis ahead of %s: %s", state.rules.spec, exc)
            return
        self.done += 1

    def stop(self) -> None:
        """Analyse no more (the server stops): the waiting games are dropped, and a win
        analysis under way ends after its turn."""
        with self._lock:
            self._stopped = True
            self._waiting.clear()
            self._lock.notify_all()

    def levels_of(self, game_id: str) -> dict[int, str]:
        """Each person's level measured so far in ``game_id`` (seat to level), where
        their play has been seen for :data:`MEASURED_AFTER` turns."""
        with self._lock:
            found = self._levels.get(game_id)
        return dict(found[1]) if found is not None else {}

    def wait_idle(self, timeout: float = 60.0) -> bool:
        """Wait until nothing waits or runs (tests); False on timeout."""
        with self._lock:
            return self._lock.wait_for(lambda: not self._waiting and not self._busy, timeout)
