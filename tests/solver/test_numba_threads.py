"""numba's start from several threads at once (``yatzy.kernels.jit``).

A server solves a table for its bot while its win chances load their own kernels
in another thread.  Before ``jit`` the two threads imported numba's registries at
the same time and one of them got a half-initialised numba (``cannot import name
'rtsys' from partially initialized module 'numba.core.runtime'``), after which no
kernel of the process worked: the bot never moved and the chances stayed pending.
Each run is a fresh process (numba starts once per process)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # a fresh process compiles numba's kernels from several threads

# The web app's three background jobs, started together in a fresh process: the
# bot's table (native solve kernel + numba's thread pool), the live win chances
# (simulation kernels) and target play's kernels.
RACE = """
import sys, threading
errors = []

def solve():
    from yatzy.strategy.advisor import solver_for
    solver_for("yatzy")

def chances():
    from yatzy.game import Game
    from yatzy.rules import RuleSet
    from yatzy.strategy.win_chance import TablesNotReady, win_chances
    state = Game(RuleSet.parse("yatzy"), ["a", "b"]).new_initial_state(starter=0)
    try:
        win_chances(state, ["person", "strong"], budget=0.05, build=False)
    except TablesNotReady:
        pass

def target():
    from yatzy.kernels import target  # noqa: F401

def guarded(job):
    try:
        job()
    except Exception as exc:
        errors.append(f"{job.__name__}: {exc!r}")

threads = [threading.Thread(target=guarded, args=(j,)) for j in (solve, chances, target)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("\\n".join(errors))
sys.exit(1 if errors else 0)
"""


@pytest.mark.parametrize("run", range(3))
def test_kernels_start_in_several_threads_at_once(tmp_path: Path, run: int) -> None:
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-c", RACE], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr
