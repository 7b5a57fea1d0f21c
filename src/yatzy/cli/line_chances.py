"""The line mode's live chances to win, worked out in a thread of their own.

The line mode prints a board and waits for a line; the chances it prints on the board
used to be worked out in its one thread, so a fresh install's first figures (about a
minute while the kernels compile) held the game, and a computation that never returned
held it for good.  :class:`ChancesInBackground` runs each computation in a daemon
thread, waits for it a short while (:data:`LINE_CHANCES_WAIT` at a terminal), and
otherwise tells the board that the figures are being worked out, or that no answer
came in :data:`~yatzy.cli.play_common.CHANCES_TIMEOUT_SECONDS`.  Never more than one
computation at a time, and never a figure of an earlier position as current.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from yatzy.cli.play_common import CHANCES_TIMEOUT_SECONDS, chance_position
from yatzy.game import State

LINE_CHANCES_WAIT = 3.0
"""How long a board at a terminal waits for its chances before it says they are being
worked out and lets the player go on (the issue's goal for the computer's first move)."""


@dataclass(frozen=True)
class ChanceAnswer:
    """What the board can say of the chances now: the ``result`` of the computation
    (``None`` where a table is not built), its ``error``, or that it is still
    ``working`` (``overdue`` past the time-out)."""

    result: Any = None
    error: Exception | None = None
    working: bool = False
    overdue: bool = False


@dataclass
class _Job:
    key: tuple[Any, ...]
    started: float
    done: threading.Event = field(default_factory=threading.Event)
    result: Any = None
    error: Exception | None = None


class ChancesInBackground:
    """The live chances of the positions a board shows, one computation at a time.

    ``compute`` is called with a copy of the position in a daemon thread; :meth:`ask`
    waits up to ``wait`` seconds for it.  ``timeout`` (default
    :data:`~yatzy.cli.play_common.CHANCES_TIMEOUT_SECONDS`) is how long a computation
    may be out before it counts as overdue."""

    def __init__(
        self,
        compute: Callable[[State], Any],
        *,
        wait: float = LINE_CHANCES_WAIT,
        timeout: float = CHANCES_TIMEOUT_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.compute = compute
        self.wait = wait
        self.timeout = timeout
        self._clock = clock
        self._job: _Job | None = None

    def ask(self, state: State) -> ChanceAnswer:
        """The chances of ``state`` if they come within the wait; else that they are
        being worked out.  A computation of an earlier position still out is waited
        for (not doubled): its position's figures are never shown for this one."""
        here = chance_position(state)
        job = self._job
        if job is None or (job.done.is_set() and job.key != here):
            job = self._start(state.clone(), here)
        if job.key == here:
            job.done.wait(self.wait)
            if job.done.is_set():
                return ChanceAnswer(result=job.result, error=job.error)
        overdue = self._clock() - job.started > self.timeout
        return ChanceAnswer(working=True, overdue=overdue)

    def _start(self, position: State, key: tuple[Any, ...]) -> _Job:
        job = self._job = _Job(key, self._clock())

        def run() -> None:
            try:
                job.result = self.compute(position)
            except Exception as exc:  # said on the board, never a reason to stop the game
                job.error = exc
            finally:
                job.done.set()

        threading.Thread(target=run, daemon=True, name="yatzy-chances").start()
        return job
