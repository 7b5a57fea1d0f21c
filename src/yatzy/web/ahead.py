"""A game's analyses made while it is played, so that they are there at its end.

The analysis in win chance rates every decision of a game (a fraction of a CPU second
each, a minute for a whole game of two); the analysis in points needs the advisor's
kernels compiled.  Done only after the last box, both made a player wait far beyond
the goals of issue 24 (the analysis within 5 s, the win analysis within 10 s).  So each
turn is analysed when its box is written, by one background thread: the strategy
layer remembers every rated position (:func:`yatzy.strategy.win_analysis.analyze_wins`
on the game so far), and at the end only the last turn is left to rate.  The same
pass measures each person's play so far (the points lost per turn, scaled to a game)
together with their earlier finished games of the same rules (this browser's or
account's, :data:`~yatzy.analysis.measured.EARLIER_GAMES` at most, each analysed once per
process), and maps it to a calibrated level
(:func:`~yatzy.analysis.measured.measured_people`), so the live chances and the win
analysis at the end count a beginner as a beginner rather than as a perfect player
(:meth:`Ahead.levels_of`, :meth:`Ahead.measured_of`).  A person's earlier games count
only where their browser or account holds one seat of this game (on one shared
device the games of the people taking turns cannot be told apart).

The thread takes at most the win analyses' ``share`` of a core (their
:meth:`yatzy.web.win_jobs.WinAnalyses.pace`), keeps only each game's latest position
(a game several turns ahead is analysed once, from where it is), at most
:data:`GAMES_KEPT` games, and does nothing for games whose strategy is not ready
(their tables are being prepared), score pads and games without a person; with the
win analyses off it only measures the people (when the live chances are on).  A
failure is logged and forgotten: the analysis at the end does the work then.

With the win analyses on worker processes (``--jobs workers``, the scaled-out set-up of
issue 25) the thread only measures the people, a few of the advisor's look-ups per
decision, each decision once: a web process rates no turn in win chance, and the
analysis at the end is a worker's job from the game's start (a finished game's win
analysis then takes the worker's seconds to a minute rather than its last turn's).
"""

from __future__ import annotations

import copy
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from yatzy.analysis import AHEAD_ENV as AHEAD_ENV  # named here too (the tests)
from yatzy.analysis import ahead_enabled
from yatzy.analysis.measured import (
    EARLIER_GAMES,
    Earlier,
    Measured,
    game_loss,
    measured_from,
    rating_levels,
)
from yatzy.errors import YatzyError
from yatzy.game import State
from yatzy.web.prepare import strategy_status
from yatzy.web.warm_children import still_warming
from yatzy.web.win_jobs import WinAnalyses

if TYPE_CHECKING:  # the strategy package loads numpy: only where a game is analysed
    from yatzy.analysis.rating import GameLoss

log = logging.getLogger("yatzy.web")

GAMES_KEPT = 256
"""Games waiting for their turns' analysis at most (past it the oldest waits for its
next turn)."""

RecordOf = Callable[[], int | None]

enabled_by_env = ahead_enabled
"""Whether :data:`~yatzy.analysis.AHEAD_ENV` leaves the analysis ahead on (the default)."""


class _Stopped(Exception):
    """Raised between the turns of a win analysis when the server stops."""


def turn_written(state: State) -> bool:
    """Whether ``state`` is just after a box was written (its last turn is complete)."""
    if state.game.pad or not state.log or state.dice is not None:
        return False
    last = state.log[-1]
    return "box" in last or "inner" in last


@dataclass(frozen=True)
class _Tally:
    """What the measure of one game has analysed: copies of its first ``len(turns)``
    log turns, the position after them, and per person seat ``(turns, points lost)``."""

    turns: list[dict[str, Any]]
    replay: State
    seen: dict[int, tuple[int, float]]


class Ahead:
    """The background analysis of games in play (see the module docstring)."""

    def __init__(
        self, analyses: WinAnalyses, *, measure: bool = False, enabled: bool = True
    ) -> None:
        self.analyses = analyses
        self.measure = measure
        self.enabled = enabled
        # game id -> (turns seen, {seat: measured}): each person's play so far as a level
        self._levels: OrderedDict[str, tuple[int, dict[int, Measured]]] = OrderedDict()
        self._tallies: OrderedDict[str, _Tally] = OrderedDict()
        """Per game measured, what :meth:`_tally` has analysed of it so far."""
        # game id -> {seat: losses of their earlier games}: read once per game
        self._earlier: OrderedDict[str, dict[int, list[GameLoss]]] = OrderedDict()
        # (earlier game id, seat) -> its loss: each earlier game analysed once
        self._losses: OrderedDict[tuple[str, int], GameLoss] = OrderedDict()
        self._waiting: OrderedDict[str, tuple[State, RecordOf | None, Earlier | None]] = (
            OrderedDict()
        )
        # game id -> turns rated in this process (its memo holds them)
        self._rated: OrderedDict[str, int] = OrderedDict()
        self._lock = threading.Condition()
        self._thread: threading.Thread | None = None
        self._busy = False
        self._stopped = False
        self.done = 0  # positions analysed (tests, logs)

    def after_write(
        self,
        game_id: str,
        state: State,
        record_of: RecordOf | None = None,
        earlier: Earlier | None = None,
    ) -> None:
        """A box of ``game_id`` was written, giving ``state``: analyse its turns so far in
        the background.  ``record_of`` gives a solo game's record (its chances are those
        of beating it; without one a solo game's win analysis is not made ahead);
        ``earlier`` the people's earlier games (read once per game, in the background)."""
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
            self._waiting[game_id] = (state.clone(), record_of, earlier)
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
                game_id, (state, record_of, _) = self._waiting.popitem(last=False)
            self._guarded(self._rate, game_id, state, record_of)

    def _measure_waiting(self) -> None:
        with self._lock:
            pending = [(g, state, earlier) for g, (state, _, earlier) in self._waiting.items()]
        for game_id, state, earlier in pending:
            self._guarded(self._measure, game_id, state, earlier)

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

    def _measure(self, game_id: str, state: State, earlier: Earlier | None = None) -> None:
        """Each person's level so far, with their earlier games (the points' analysis;
        it also compiles the advisor's kernels early, the first time)."""
        with self._lock:
            seen = self._levels.get(game_id)
        if not self.measure or (seen is not None and seen[0] == len(state.log)):
            return
        if strategy_status(state.rules) is not None:
            return  # tables being prepared (or none here)
        so_far = self._tally(game_id, state)
        levels = measured_from(state, so_far, self._earlier_losses(game_id, earlier))
        with self._lock:
            self._levels[game_id] = (len(state.log), levels)
            self._levels.move_to_end(game_id)
            while len(self._levels) > GAMES_KEPT:
                self._levels.popitem(last=False)

    def _tally(self, game_id: str, state: State) -> dict[int, tuple[int, float]]:
        """The people's turns and points lost in ``state`` (seat to ``(turns, loss)``),
        analysing only the turns since the game was last measured and only the people's
        decisions: measuring a game turn by turn costs each decision once, not the
        whole game so far for every seat each time (most of a server's CPU per action
        with the live chances on).  A game whose earlier turns changed (an undo and
        another box) is analysed again from its start."""
        from yatzy.strategy.analyze import analyze, replay_decisions

        with self._lock:
            tally = self._tallies.get(game_id)
        done = 0 if tally is None else len(tally.turns)
        if tally is None or done > len(state.log) or state.log[:done] != tally.turns:
            assert state.starter is not None  # a game played has its starter
            tally = _Tally([], state.game.new_initial_state(starter=state.starter), {})
            done = 0
        if done < len(state.log):
            people = {i for i, p in enumerate(state.players) if p.bot is None}
            part = analyze(state, start=tally.replay, seats=people)
            seen = dict(tally.seen)
            for summary in part.players:
                if summary.player in people:
                    turns, loss = seen.get(summary.player, (0, 0.0))
                    seen[summary.player] = (
                        turns + len(summary.expected),
                        loss + summary.total_loss,
                    )
            replay = tally.replay.clone()
            for _ in replay_decisions(state, replay):
                pass  # the position after the turns analysed: the next measure's start
            tally = _Tally(copy.deepcopy(state.log), replay, seen)
            if len(replay.log) == len(state.log) and replay.dice is None:
                with self._lock:
                    self._tallies[game_id] = tally
                    self._tallies.move_to_end(game_id)
                    while len(self._tallies) > GAMES_KEPT:
                        self._tallies.popitem(last=False)
        return dict(tally.seen)

    def _earlier_losses(self, game_id: str, earlier: Earlier | None) -> dict[int, list[GameLoss]]:
        """The losses of the people's earlier games (read and analysed on the game's
        first measure; each earlier game analysed once per process)."""
        if earlier is None:
            return {}
        with self._lock:
            found = self._earlier.get(game_id)
        if found is not None:
            return found
        losses: dict[int, list[GameLoss]] = {}
        for seat, games in earlier().items():
            for other_id, other_seat, other in games[:EARLIER_GAMES]:
                key = (other_id, other_seat)
                with self._lock:
                    loss = self._losses.get(key)
                if loss is None:
                    loss = game_loss(other, other_seat)
                    if loss is None:  # a game the analysis refuses: not counted
                        log.info("earlier game %s not counted", other_id)
                        continue
                    with self._lock:
                        self._losses[key] = loss
                        while len(self._losses) > GAMES_KEPT * EARLIER_GAMES:
                            self._losses.popitem(last=False)
                losses.setdefault(seat, []).append(loss)
        with self._lock:
            self._earlier[game_id] = losses
            while len(self._earlier) > GAMES_KEPT:
                self._earlier.popitem(last=False)
        return losses

    def _rate(self, game_id: str, state: State, record_of: RecordOf | None) -> None:
        """The game's turns so far in win chance (remembered for the end)."""
        if not self.analyses.enabled or strategy_status(state.rules) is not None:
            return  # off, or tables being prepared (or none here): the end does the work
        if self.analyses.queue is not None:
            # Worker processes make the win analyses (--jobs workers, issue 25): rating
            # every turn here was most of a web process's CPU per action (bench_cluster).
            return
        if still_warming(state.rules.spec):
            return  # a warm-up child compiles the win chances' kernels: not beside it
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
                state,
                record=record,
                levels=rating_levels(state, self.measured_of(game_id)),
                budget=self.analyses.budget,
                progress=self._between_turns,
            )
        except YatzyError as exc:
            log.info("no analysis ahead of %s: %s", state.rules.spec, exc)
            return
        with self._lock:
            self._rated[game_id] = len(state.log)
            self._rated.move_to_end(game_id)
            while len(self._rated) > GAMES_KEPT:
                self._rated.popitem(last=False)
        self.done += 1

    def stop(self) -> None:
        """Analyse no more (the server stops): the waiting games are dropped, and a win
        analysis under way ends after its turn."""
        with self._lock:
            self._stopped = True
            self._waiting.clear()
            self._lock.notify_all()

    def measured_at_end(
        self, game_id: str, state: State, earlier: Earlier | None = None
    ) -> dict[int, Measured]:
        """:meth:`measured_of` for the analysis at the end of ``game_id`` (at ``state``),
        measured here and now where this process has not measured that position (a game
        finished before a restart, dropped from the waiting games, or still waiting
        behind another game's win analysis: its people's turns not yet tallied, a
        fraction of a second with the tables ready): the win analysis of a game counts
        its people at the same levels whichever process makes it, and its estimate is
        shown at once rather than after the analysis ahead's queue.  Nothing is
        measured before the end, in a score pad, or with the analysis ahead off."""
        if self.enabled and self.measure and state.is_terminal() and not state.game.pad:
            self._guarded(self._measure, game_id, state, earlier)
        return self.measured_of(game_id)

    def levels_of(self, game_id: str) -> dict[int, str]:
        """Each person's level measured so far in ``game_id`` (seat to level), where
        their play has been seen for :data:`~yatzy.analysis.measured.MEASURED_AFTER`
        turns or in earlier games."""
        return {seat: m.level for seat, m in self.measured_of(game_id).items()}

    def rated_here(self, game_id: str) -> bool:
        """Whether this process rated turns of ``game_id`` in win chance (its memo
        holds them): its win analysis at the end is made here, with only the turns
        since left to rate, rather than from nothing by a worker process."""
        with self._lock:
            return game_id in self._rated

    def measured_of(self, game_id: str) -> dict[int, Measured]:
        """:meth:`levels_of` with what each level was measured from."""
        with self._lock:
            found = self._levels.get(game_id)
        return dict(found[1]) if found is not None else {}

    def wait_idle(self, timeout: float = 60.0) -> bool:
        """Wait until nothing waits or runs (tests); False on timeout."""
        with self._lock:
            return self._lock.wait_for(lambda: not self._waiting and not self._busy, timeout)
