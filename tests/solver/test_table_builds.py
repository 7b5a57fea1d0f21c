"""One builder per table per computer, atomic table files, and tables in use spared
by the disk budget (issue 25, finding 1).

Two games starting at once used to build the same table twice in one process and
collide on its temporary file; now the second asker (thread or process) waits for the
first's build lock and loads its file.  A table a running process has loaded is never
deleted by the budget.
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from tests.helpers import eventually, scaled
from yatzy import table_cache
from yatzy.solver import Solver, cache

BOXES = ["ones", "twos", "chance"]

# A process that builds the sub-game of BOXES once a start file appears; each build is
# logged to a file and slowed by a second, so two processes started together overlap.
_BUILDER = """
import json, sys, time
from pathlib import Path
from yatzy.solver import Solver

log, go = Path(sys.argv[1]), Path(sys.argv[2])
solve = Solver._solve

def logged(self, progress):
    with open(log, "a") as fh:
        fh.write("build\\n")
    time.sleep(1.0)
    return solve(self, progress)

Solver._solve = logged
while not go.exists():
    time.sleep(0.01)
s = Solver("yatzy", open_boxes=BOXES)
print(json.dumps({"from_cache": s.from_cache, "sum": float(s.table.sum())}))
""".replace("BOXES", repr(BOXES))


@pytest.fixture
def cache_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """An empty table cache of the test's own (subprocesses inherit it)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("YATZY_CACHE_BUDGET", raising=False)
    return tmp_path / "xdg" / "yatzy" / "solver"


@pytest.mark.slow
def test_two_processes_building_one_table_build_it_once(cache_home: Path, tmp_path: Path) -> None:
    log, go = tmp_path / "builds.log", tmp_path / "go"
    script = tmp_path / "builder.py"
    script.write_text(_BUILDER)
    procs = [
        subprocess.Popen(
            [sys.executable, str(script), str(log), str(go)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    go.touch()
    answers = []
    for proc in procs:
        out, err = proc.communicate(timeout=scaled(300))
        assert proc.returncode == 0, err
        answers.append(json.loads(out.splitlines()[-1]))
    # One built it; the other waited for the build lock and loaded the file.
    assert log.read_text().splitlines() == ["build"]
    assert sorted(a["from_cache"] for a in answers) == [False, True]
    assert answers[0]["sum"] == answers[1]["sum"]
    assert not table_cache.temporaries(cache_home)
    assert not list(cache_home.glob(".*.tmp"))
    assert [t.kind for t in table_cache.tables(cache_home)] == ["part"]


def test_two_threads_building_one_table_build_it_once(
    cache_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    builds: list[str] = []
    solve = Solver._solve
    started = threading.Event()

    def logged(self: Solver, progress: bool) -> object:
        builds.append(threading.current_thread().name)
        started.set()
        return solve(self, progress)

    monkeypatch.setattr(Solver, "_solve", logged)
    found: dict[str, Solver] = {}

    def build(name: str) -> None:
        found[name] = Solver("yatzy", open_boxes=BOXES)

    first = threading.Thread(target=build, args=("a",), name="a")
    first.start()
    assert started.wait(scaled(120))
    second = threading.Thread(target=build, args=("b",), name="b")
    second.start()  # asks while the first builds: it waits, then loads
    first.join(scaled(300))
    second.join(scaled(300))
    assert builds == ["a"]
    assert not found["a"].from_cache and found["b"].from_cache
    assert np.array_equal(found["a"].table, found["b"].table)


def test_stores_of_one_table_at_once_never_share_a_temporary_file(cache_home: Path) -> None:
    key = cache.table_key("yatzy", "", "float32", "test-same-key")
    errors: list[BaseException] = []

    def store(value: float) -> None:
        try:
            for _ in range(20):
                cache.save(key, np.full(50_000, value, dtype=np.float32), 0.1)
        except BaseException as exc:  # collected for the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=store, args=(v,)) for v in (1.0, 2.0, 3.0)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(scaled(120))
    assert errors == []
    table = cache.load(key, (50_000,))
    assert table is not None and float(table[0]) in (1.0, 2.0, 3.0)
    assert (np.asarray(table) == table[0]).all()  # one writer's file, whole
    assert not list(cache_home.glob(".*.tmp"))


def _store(spec: str, kib: int) -> tuple[dict[str, object], Path]:
    key = cache.table_key(spec, "", "float32", f"test-{spec}")
    return key, cache.save(key, np.zeros(kib * 1024 // 4, dtype=np.float32), 0.1)


def test_the_budget_never_deletes_a_table_in_use(cache_home: Path) -> None:
    key, path = _store("maxi", 64)
    _store("yatzy", 64)
    table = cache.load(key, (64 * 1024 // 4,))
    assert table is not None
    assert table_cache.in_use(next(t for t in table_cache.tables() if t.spec == "maxi"))
    removed = table_cache.enforce_budget(limit=0)
    # The unused table went; the loaded one stayed, though older and over the budget.
    assert [t.spec for t in removed] == ["yatzy"]
    assert path.exists()
    view = table[10:20]
    del table
    gc.collect()
    assert path.exists() and table_cache.enforce_budget(limit=0) == []  # a view holds it
    del view
    gc.collect()
    assert [t.spec for t in table_cache.enforce_budget(limit=0)] == ["maxi"]
    assert not path.exists()


@pytest.mark.slow
def test_the_budget_spares_a_table_another_process_holds(cache_home: Path) -> None:
    key, path = _store("maxi", 64)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import json, sys; from yatzy.solver import cache\n"
            f"t = cache.load(json.loads(sys.argv[1]), ({64 * 1024 // 4},))\n"
            "print(t is not None, flush=True); sys.stdin.read()",
            json.dumps(key),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=os.environ.copy(),
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "True"
        assert table_cache.enforce_budget(limit=0) == []
        assert path.exists()
    finally:
        holder.communicate("", timeout=scaled(60))
    eventually(
        lambda: table_cache.enforce_budget(limit=0),
        what="the table deleted once its process ended",
    )
    assert not path.exists()


def test_a_second_builder_waits_for_the_lock_and_gives_up_clearly(cache_home: Path) -> None:
    data = cache_home / "some-table.npy"
    with table_cache.build_lock(data):
        outcome: list[BaseException | None] = []

        def other() -> None:
            try:
                with table_cache.build_lock(data, timeout=0.2):
                    outcome.append(None)
            except BaseException as exc:  # collected for the assertion below
                outcome.append(exc)

        t = threading.Thread(target=other)
        t.start()
        t.join(scaled(30))
    assert len(outcome) == 1 and isinstance(outcome[0], table_cache.TableBusyError)
    assert "built by another process" in str(outcome[0])
    with table_cache.build_lock(data, timeout=1.0):  # released: free again
        pass
