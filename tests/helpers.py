"""The one way the tests wait for something that happens in the background (a bot's
move, a table solved off the request path, a message on a socket), and for the
threads a test starts (:func:`join_all`).

Deadlines are generous on purpose: the suite must pass on a loaded machine, and a
deadline only bounds how long a broken test hangs; how fast things happen is measured
in benchmarks/, not asserted here.  ``YATZY_TEST_TIME_SCALE`` multiplies every deadline
(e.g. 3 on a very slow machine).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

T = TypeVar("T")

DEFAULT_TIMEOUT = 60.0


def scaled(seconds: float) -> float:
    """``seconds`` times ``$YATZY_TEST_TIME_SCALE`` (1 when unset)."""
    return seconds * float(os.environ.get("YATZY_TEST_TIME_SCALE", "1"))


def eventually(
    probe: Callable[[], T],
    until: Callable[[T], object] = bool,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    interval: float = 0.05,
    what: str = "the awaited condition",
) -> T:
    """Call ``probe`` until ``until`` holds for what it returns, and return that value.

    ``interval`` is the first pause between calls (0 for a probe that blocks by
    itself, such as a socket's receive); each later pause is half as long again, up to
    :data:`LONGEST_PAUSE` (or ``interval`` when that is longer).  A quick event is
    seen at once, and a slow one is not polled hundreds of times: a probe is often a
    request to a server in this very process, whose work it would slow down by taking
    the interpreter's lock.  After ``timeout`` seconds (scaled) the test fails with
    ``what`` and the last value seen.
    """
    deadline = time.monotonic() + scaled(timeout)
    pause, longest = interval, max(interval, LONGEST_PAUSE)
    while True:
        value = probe()
        if until(value):
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(
                f"{what} did not happen within {scaled(timeout):.0f} s; last: {value!r:.300}"
            )
        if pause:
            time.sleep(pause)
            pause = min(pause * 1.5, longest)


LONGEST_PAUSE = 0.1
"""The longest pause :func:`eventually` makes between two calls of its probe, unless
its first pause is longer."""


def join_all(
    threads: Iterable[threading.Thread],
    *,
    timeout: float = DEFAULT_TIMEOUT,
    what: str = "the test's threads",
) -> None:
    """Join every thread of ``threads`` within ``timeout`` seconds (scaled) in all; a
    thread still running then fails the test with its name (never a silent hang)."""
    deadline = time.monotonic() + scaled(timeout)
    stuck = []
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
        if thread.is_alive():
            stuck.append(thread.name)
    if stuck:
        raise AssertionError(f"{what} did not end within {scaled(timeout):.0f} s: {stuck}")


def record_table_builds(monkeypatch: Any) -> list[object]:
    """Stand in for the strategy table's build and a turn's kernel compile: what a
    warm-up asks for is appended to the returned list instead ("table" when
    ``yatzy.strategy.advisor.advise`` builds the table, ``("turn kernel", kernel)``
    when a solver's ``turn_tables`` compiles a turn's kernel)."""
    from yatzy.strategy import advisor

    done: list[object] = []

    class Solver:
        def turn_tables(self, sheet: object, *, kernel: bool | None = None) -> None:
            done.append(("turn kernel", kernel))

    monkeypatch.setattr(advisor, "advise", lambda state: done.append("table"))
    monkeypatch.setattr(advisor, "solver_for", lambda spec: Solver())
    return done
