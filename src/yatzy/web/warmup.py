"""Warming a fresh install's kernels while its first game is played (issue 24).

On a computer that never ran yatzy, numba compiles the kernels on their first use:
tens of seconds to minutes of CPU.  Done when the first game's analyses are asked
for, a short first game waited that long at its end.  So when a server's first game
of a rule set whose strategy table is not built yet is created, :func:`warm_soon`
starts one child process (``python -m yatzy.web.warmup SPEC``) that builds that
table and compiles the kernels the analysis and the win analysis use, into the same
disk caches the server reads (the solver's table cache, ``YATZY_KERNEL_CACHE``).  A
child, not a thread: numba's compilation holds the interpreter's lock, and would
stall the server's event loop.  The analysis in points comes first: it needs only the
table (a turn's values come from numpy while their kernel is not compiled), so the
child says so once the table is cached, and the server's table job, waiting for that
word (:mod:`yatzy.web.warm_children`), then loads it, while the child goes on with the
kernels (the win analysis waits for the child's end).

Once per rule set per server process, at most :data:`MAX_CHILDREN` at a time; never
for a score pad, rules the server prepares no tables for, or where the table is
cached and the child has run to its end for these rules with this version of the
kernels (:func:`warmed_marker`).  A table shipped with the package is cached at once,
so the child's first stage is then immediate, and it goes on to the kernels.
``YATZY_WARM_KERNELS=0`` switches it off (the tests do).
"""

from __future__ import annotations

import contextlib
import logging
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

from yatzy.kernels.cache import mark_warm, warm_marker
from yatzy.rules import RuleSet
from yatzy.web.warm_children import ANALYSIS_READY, warming

log = logging.getLogger("yatzy.web")

WARM_ENV = "YATZY_WARM_KERNELS"
"""``0`` switches the warm-up off."""

MAX_CHILDREN = 1
"""Warm-up processes at a time (each uses a core or more)."""

_lock = threading.Lock()
_started: set[str] = set()
_children: list[subprocess.Popen[bytes]] = []


def enabled_by_env() -> bool:
    """Whether :data:`WARM_ENV` leaves the warm-up on (the default)."""
    return os.environ.get(WARM_ENV, "").strip() != "0"


def warmed_marker(spec: str) -> Path:
    """The file a child leaves when it has warmed ``spec`` to its end
    (:func:`yatzy.kernels.cache.warm_marker`: changed kernels warm again)."""
    return warm_marker(spec)


def needs_warming(rules: RuleSet) -> bool:
    """Whether a game of ``rules`` would wait for a build: the server prepares its
    tables, and the advisor's table is not cached (a fresh install, or new rules) or
    its kernels were not compiled yet (no child warmed these rules to its end)."""
    from yatzy.web.prepare import policy

    if not policy().allows(rules):
        return False
    try:
        from yatzy.strategy.advisor import strategy_ready
    except ImportError:  # the strategy package is not installed
        return False
    try:
        return not strategy_ready(rules) or not warmed_marker(rules.spec).exists()
    except Exception:  # no table can serve these rules: nothing to warm
        return False


def warm_soon(rules: RuleSet) -> subprocess.Popen[bytes] | None:
    """Start the warm-up child for ``rules`` when it is needed (see the module
    docstring); the child, or ``None``.  Returns at once: never waits for the child."""
    if not enabled_by_env():
        return None
    with _lock:
        _children[:] = [c for c in _children if c.poll() is None]
        if rules.spec in _started or len(_children) >= MAX_CHILDREN:
            return None
        _started.add(rules.spec)
    if not needs_warming(rules):
        return None
    try:
        child = subprocess.Popen(
            [sys.executable, "-m", "yatzy.web.warmup", rules.spec],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,  # it says when the table is cached
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # a terminal's Ctrl-C goes to the server alone
        )
    except OSError as exc:  # the game goes on; its analyses build as before
        log.info("no warm-up for %s: %s", rules.spec, exc)
        return None
    log.info("warming the kernels of %s in process %d", rules.spec, child.pid)
    with _lock:
        _children.append(child)
    warming(rules.spec, child)  # the table job waits for it (yatzy.web.warm_children)
    return child


def stop_children(wait: float = 2.0) -> int:
    """End the warm-up children still running (the server stops): each is asked to
    stop (SIGTERM), then killed after ``wait`` seconds.  Its files are written whole
    or not at all (the table cache and numba's write atomically), so what it had
    finished stays cached for the next start.  Returns how many were running."""
    with _lock:
        running = [c for c in _children if c.poll() is None]
        _children.clear()
    for child in running:
        with contextlib.suppress(ProcessLookupError):
            child.terminate()
    for child in running:
        try:
            child.wait(wait)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                child.kill()
            child.wait()
    return len(running)


def warm(spec: str, say: Callable[[str], None] | None = None) -> None:
    """The child's work: the advisor's table of ``spec`` (built once, to the disk
    cache), then ``say(ANALYSIS_READY)``: with the table the analysis in points, the
    hints and the exact computer answer (a turn's values come from numpy until their
    kernel is compiled, :meth:`yatzy.solver.Solver.turn_tables`), so the server's
    table job waits for that much (:mod:`yatzy.web.warm_children`).  Then the kernels:
    a turn's values (faster than numpy for everything after), the points' analysis on
    a short game played greedily, the win chances (one compile serves a person, the
    optimal and the greedy computer as the opponent) and the win analysis."""
    import random

    from yatzy.bots import GreedyBot, play_turn
    from yatzy.game import Game
    from yatzy.strategy.advisor import advise, is_exact, solver_for
    from yatzy.strategy.analyze import analyze
    from yatzy.strategy.win_analysis import analyze_wins
    from yatzy.strategy.win_chance import win_chances

    rules = RuleSet.parse(spec)
    fresh = Game(rules, ["warm-up"]).new_initial_state()
    advise(fresh)  # as the table job does
    if say is not None:
        say(ANALYSIS_READY)
    if is_exact(rules):
        solver_for(rules.spec).turn_tables(fresh.sheet, kernel=True)  # compiled, cached
    game = Game(rules, ["A", "B"])
    state, rng = game.new_initial_state(starter=0), random.Random(1)
    first = state.clone()
    while len(state.sheets[-1].open_boxes) > 2:
        play_turn(state, GreedyBot(), rng)
    start = state.clone()
    while not state.is_terminal():
        play_turn(state, GreedyBot(), rng)
    analyze(state)
    # A greedy (or random) computer's sampling hands the kernel a table of the optimal
    # table's type (yatzy.strategy.outcomes), so this one compile serves them too.
    win_chances(first, budget=0.05, build=False)
    analyze_wins(state, budget=0.05, start=start)
    mark_warm(spec)  # warmed_marker(spec): the next server need not


def _say(line: str) -> None:
    """Write ``line`` to the server reading this child's output."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


if __name__ == "__main__":  # the child: python -m yatzy.web.warmup SPEC
    warm(sys.argv[1], _say)
