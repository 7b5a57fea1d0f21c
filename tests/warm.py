"""The kernels compiled once before a test run's workers start (tests/conftest.py).

On a fresh clone numba compiles every kernel on its first use (about 170 CPU-s for
the ones warmed here), and two processes that want a kernel not compiled yet both
compile it: the two xdist workers, and the ``yatzy serve`` servers the tests start.
So the controller runs :data:`PARTS` first, each part in a process of its own (two cores,
two parts of about equal CPU), into the same disk caches the tests read: numba's
kernel cache (:mod:`yatzy.kernels.cache`) and the solver's tables in
``$XDG_CACHE_HOME``, built under the cache's one-builder-per-table lock.  The tests
then load what was compiled; a kernel or a signature left out here is compiled by
the first test that calls it, as before, so this changes only when the work is done.

Each part is a few small games of the public API that reach the kernels the way the
tests do (the float types, tables built and tables loaded from the cache); the
server's own warm-up (:func:`yatzy.web.warmup.warm`) is one of them.  Run one part
with ``python -m tests.warm N`` (N an index of :data:`PARTS`).
"""

from __future__ import annotations

import hashlib
import random
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from yatzy.game import Sheet
from yatzy.rules import RuleSet

THREE = ["threes", "full_house", "chance"]
"""A small sub-game of Yatzy (three boxes open)."""


def _server() -> None:
    """What a server warms for a fresh install's first game: Yatzy's advisor table
    (the native solve kernel, float32), the points' analysis, the win chances and the
    win analysis."""
    from yatzy.web.warmup import warm

    warm("yatzy")


def _simulate() -> None:
    """The optimal bot's simulation kernel on Yatzy's cached table (after
    :func:`_server`)."""
    from yatzy.strategy.simulate import simulate

    simulate("yatzy", "optimal", 200, seed=1, workers=1)


def _sheet(rules: RuleSet, open_boxes: list[str]) -> Sheet:
    """A sheet with every box but ``open_boxes`` filled with 0."""
    from yatzy.game import BoxEntry, Sheet

    sheet = Sheet(rules)
    for box in rules.boxes:
        if box not in open_boxes:
            sheet.entries[box] = BoxEntry(0)
    return sheet


def _subgames() -> None:
    """A sub-game solved in both float types (the native kernels of float64 and float32)
    and its turn tables, as the solver's tests read them."""
    from yatzy.solver import Solver

    rules = RuleSet.parse("yatzy")
    for dtype in ("float64", "float32"):
        Solver(rules, open_boxes=THREE, dtype=dtype).turn_tables(_sheet(rules, THREE))


def _target() -> None:
    """Target tables of a sub-game: both modes, both float types."""
    from yatzy.solver.target import TargetTable

    for dtype in ("float64", "float32"):
        for mode in ("max", "optimal"):
            TargetTable("yatzy", mode=mode, open_boxes=THREE, dtype=dtype)


def _saved() -> None:
    """Maxi's saved rolls that accumulate: a sub-game in both float types, and its
    turn tables."""
    from yatzy.solver import Solver

    rules, boxes = RuleSet.parse("maxi+saved_rolls"), ["fives", "chance"]
    for dtype in ("float64", "float32"):
        Solver(rules, open_boxes=boxes, dtype=dtype).turn_tables(_sheet(rules, boxes))


def _winner() -> None:
    """The winner bot's kernels: a two-box end game of two seats, its tables solved in
    memory as the bot's tests solve them."""
    from yatzy.bots import GreedyBot, play_turn
    from yatzy.game import BoxEntry, Game, Player
    from yatzy.solver.target import TargetTable
    from yatzy.strategy.winbot import WinnerBot, make_tables

    last = ["chance", "yatzy"]
    tables = make_tables(
        *(
            TargetTable("yatzy", mode=m, open_boxes=last, use_cache=False)
            for m in ("max", "optimal")
        )
    )
    state = Game("yatzy", [Player("A", "winner"), Player("B", None)]).new_initial_state(starter=0)
    for sheet in state.sheets:
        for box in state.rules.boxes:
            if box not in last:
                sheet.entries[box] = BoxEntry(0)
    state.turn_number = 2 * (len(state.rules.boxes) - len(last))
    bots, rng = (WinnerBot(tables), GreedyBot()), random.Random(1)
    while not state.is_terminal():
        play_turn(state, bots[state.player], rng)


def _dubbel() -> None:
    """What a server warms for DubbelYatzy (its win chances sample with their own
    kernels)."""
    from yatzy.web.warmup import warm

    warm("dubbel")


PARTS: list[list[Callable[[], None]]] = [
    [_server, _simulate, _dubbel],
    [_subgames, _target, _winner, _saved],
]
"""The work of each warm-up process, split so that the parts take about as long.  The
winner bot's kernels come after the target tables', whose helpers they share: beside
the server's part they were compiled twice (both parts at once on a fresh clone,
2026-11-30: 142 CPU-s and 72 s before, 137 and 71 s after; one after the other they
take 128)."""


def _cpu(who: int = resource.RUSAGE_SELF) -> float:
    """CPU seconds of this process, or with ``RUSAGE_CHILDREN`` of its children that
    have ended.  The children's count runs from before ``exec``: scripts/test's shell
    ran pip and dpkg, then became pytest, and their time was once reported as the
    warm-up's (162-188 CPU-s for parts that took 116-125)."""
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def main(part: int) -> None:
    """Run part ``part`` of :data:`PARTS`, saying what each step cost."""
    for step in PARTS[part]:
        start = _cpu()
        step()
        print(f"{step.__name__.lstrip('_')}: {_cpu() - start:.1f} CPU-s", flush=True)


WARM_ENV = "YATZY_TEST_WARM"
"""``0``: never warm; ``1``: warm even a run of chosen test files (by default only a
run of the whole suite or of a tier, where most kernels are used, warms)."""

LIMIT_S = 900
"""A part still running after this long is ended (the tests then compile what is left)."""


def stamp_path() -> Path:
    """The file that says this warm-up was done for this version of the kernels: in
    the kernels' own cache directory (:func:`yatzy.kernels.cache.cache_dir`, one per
    digest of their sources), named by a digest of this module."""
    from yatzy.kernels.cache import cache_dir

    digest = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]
    return cache_dir() / f"tests-warm-{digest}"


def warm_all(log_dir: Path) -> str | None:
    """Run every part at once, one process each, and wait for them; a line to show
    (what it cost, or why a part failed), or ``None`` when already warm."""
    stamp = stamp_path()
    if stamp.exists():
        return None
    root = Path(__file__).resolve().parents[1]
    log_dir.mkdir(parents=True, exist_ok=True)
    start, cpu_before = time.monotonic(), _cpu(resource.RUSAGE_CHILDREN)
    children = []
    for part in range(len(PARTS)):
        log = log_dir / f"warm-{part}.log"
        with log.open("wb") as out:
            child = subprocess.Popen(
                [sys.executable, "-m", "tests.warm", str(part)],
                cwd=root,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        children.append((child, log))
    failed = []
    for child, log in children:
        try:
            code = child.wait(timeout=max(1.0, LIMIT_S - (time.monotonic() - start)))
        except subprocess.TimeoutExpired:
            child.kill()
            code = child.wait()
        if code != 0:
            failed.append(f"{log} (exit {code})")
    cpu = _cpu(resource.RUSAGE_CHILDREN) - cpu_before
    cost = f"{time.monotonic() - start:.0f} s, {cpu:.0f} CPU-s"
    if failed:
        return f"kernel warm-up failed ({cost}): see {', '.join(failed)}"
    stamp.parent.mkdir(parents=True, exist_ok=True)
    stamp.write_text(cost + "\n")
    return f"kernels warmed for the workers (tests/warm.py): {cost}"


if __name__ == "__main__":
    main(int(sys.argv[1]))
