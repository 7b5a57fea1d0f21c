"""A game's analyses made while it is played, so that they are there at its end.

The analysis in win chance rates every decision of a game (a fraction of a CPU second
each, a minute for a whole game of two); the analysis in points needs the advisor's
kernels compiled.  Done only after the last box, both made a player wait far beyond
the goals of issue 24 (the analysis within 5 s, the win analysis within 10 s).  So each
turn is analysed when its box is written, by one background thread: the strategy
layer remembers every rated position (:func:`yatzy.strategy.win_analysis.analyze_wins`
on the game so far), and at the end only the last turn is left to rate.

The thread takes at most the win analyses' ``share`` of a core (their
:meth:`yatzy.web.win_jobs.WinAnalyses.pace`), keeps only each game's latest position
(a game several turns ahead is analysed once, from where it is), at most
:data:`GAMES_KEPT` games, and does nothing for games whose strategy is not ready
(their tables are being prepared), score pads, games without a person, or when the
win analyses are off.  A failure is logged and forgotten: the analysis at the end
does the work then.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable

from yatzy.errors import YatzyError
from yatzy.game import State
from yatzy.web.prepare import strategy_status
from yatzy.web.win_jobs import WinAnalyses

log = logging.getLogger("yatzy.web")

GAMES_KEPT = 256
"""Games waiting for their turns' analysis at most (past it the oldest waits for its
next turn)."""

RecordOf = Callable[[], int | None]


def turn_written(state: State) -> bool:
    """Whether ``state`` is just after a box was written (its last turn is complete)."""
    if state.game.pad or not state.log or state.dice is not None:
        return False
    last = state.log[-1]
    return "box" in last or "inner" in last


class Ahead:
    """The background analysis of games in play (see the module docstring)."""

    def __init__(self, analyses: WinAnalyses) -> None:
        self.analyses = analyses
        self._waiting: OrderedDict[str, tuple[State, RecordOf | None]] = OrderedDict()
        self._lock = threading.Condition()
        self._thread: threading.Thread | None = None
        self._busy = False
        self.done = 0  # positions analysed (tests, logs)

    def after_write(self, game_id: str, state: State, record_of: RecordOf | None = None) -> None:
        """A box of ``game_id`` was written, giving ``state``: analyse its turns so far in
        the background.  ``record_of`` gives a solo game's record (its chances are those
        of beating it; without one a solo game's win analysis is not made ahead)."""
        if not self.analyses.enabled or not turn_written(state):
            return
        if all(p.bot is not None for p in state.players):
            return  # nobody reads the analysis of the computers' own game
        if len(state.players) == 1 and record_of is None:
            return
        with self._lock:
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
                self._lock.wait_for(lambda: bool(self._waiting))
                _, (state, record_of) = self._waiting.popitem(last=False)
                self._busy = True
            try:
                self._analyse(state, record_of)
            except Exception as exc:  # the analysis at the end tries again; the server goes on
                log.info("analysis ahead of %s failed: %s", state.rules.spec, exc)

    def _analyse(self, state: State, record_of: RecordOf | None) -> None:
        if strategy_status(state.rules) is not None:
            return  # tables being prepared (or none here): the end does the work
        from yatzy.strategy.analyze import analyze
        from yatzy.strategy.win_analysis import analyze_wins

        analyze(state)  # compiles the advisor's kernels early, the first time
        record = None
        if len(state.players) == 1:
            assert record_of is not None
            record = record_of()
            if record is None:
                return
        try:
            analyze_wins(
                state, record=record, budget=self.analyses.budget, progress=self.analyses.pace
            )
        except YatzyError as exc:
            log.info("no analysis ahead of %s: %s", state.rules.spec, exc)
            return
        self.done += 1

    def wait_idle(self, timeout: float = 60.0) -> bool:
        """Wait until nothing waits or runs (tests); False on timeout."""
        with self._lock:
            return self._lock.wait_for(lambda: not self._waiting and not self._busy, timeout)
