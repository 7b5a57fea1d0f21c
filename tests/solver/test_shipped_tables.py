"""The solver tables shipped with the package (issue 24: no waiting on a fresh install).

The start page's whole-game tables that compress to a few megabytes ship in
``src/yatzy/solver/shipped`` (``scripts/ship_tables.py`` makes them).  A fresh cache
unpacks one on its first use instead of compiling the solve kernel and solving; each
must be exactly what the solver computes now, under exactly its current key.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from yatzy.rules import RuleSet
from yatzy.solver import Model, Solver, cache, table_cached

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def fresh_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """An empty table cache, as on a computer that never ran yatzy."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv(cache.SHIPPED_ENV, raising=False)
    return cache.cache_dir()


def _key(spec: str) -> dict[str, object]:
    rules = RuleSet.parse(spec)
    return cache.table_key(rules.spec, "", "float32", Model.build(rules).fingerprint())


def test_every_shipped_table_is_current() -> None:
    # A change to the solve kernels changes the key: the old table is then never used,
    # and this fails until `scripts/ship_tables.py` is run again.
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "ship_tables.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    shipped = {p.name for p in cache.SHIPPED_DIR.iterdir()}
    wanted = {p.name for spec in cache.SHIPPED_SPECS for p in cache.shipped_paths(_key(spec))}
    assert shipped == wanted  # nothing stale left beside them


@pytest.mark.parametrize("spec", cache.SHIPPED_SPECS)
def test_a_fresh_cache_plays_a_shipped_table_at_once_and_exactly(
    fresh_cache: Path, spec: str
) -> None:
    assert table_cached(RuleSet.parse(spec))  # the front ends then need no stand-in
    shipped = Solver(spec)
    assert shipped.from_cache  # unpacked, not solved
    assert list(fresh_cache.glob("*.npy"))  # into the user's cache, for the next process
    solved = Solver(spec, use_cache=False)
    assert np.array_equal(shipped.table, solved.table, equal_nan=True)  # NaN: unreachable
    assert shipped.expected_score == solved.expected_score


def test_without_shipped_tables_a_fresh_cache_builds(
    fresh_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(cache.SHIPPED_ENV, "0")
    assert not table_cached(RuleSet.parse("yatzy+forced"))
    assert not Solver("yatzy+forced").from_cache


def test_a_damaged_shipped_table_is_passed_over(
    fresh_cache: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    spec = "yatzy+forced"
    damaged = tmp_path / "shipped"
    shutil.copytree(cache.SHIPPED_DIR, damaged)
    packed, _ = cache.shipped_paths(_key(spec))
    (damaged / packed.name).write_bytes(packed.read_bytes()[:100])
    monkeypatch.setattr(cache, "SHIPPED_DIR", damaged)
    built = Solver(spec)
    assert not built.from_cache  # solved, as without it
    assert built.expected_score == pytest.approx(122.5585, abs=1e-4)


def test_a_shipped_table_is_used_under_its_own_key_only(fresh_cache: Path) -> None:
    key = _key("yatzy")
    assert cache.shipped(key) is not None
    assert cache.shipped({**key, "fingerprint": "0" * 64}) is None  # another solver's
    assert cache.shipped({**key, "dtype": "float64"}) is None


@pytest.mark.parametrize(
    ("lang", "word", "best"), [("en", "hint", "(best)"), ("sv", "tips", "(bäst)")]
)
def test_a_fresh_installs_first_hint_comes_at_once_with_nothing_compiled(
    tmp_path: Path, lang: str, word: str, best: str
) -> None:
    # Before, the terminal's first hint on a fresh install said the table was being
    # prepared and came 13 s later (idle machine; 40-80 s under load), after a child
    # process had compiled the solve kernel and solved.
    env = {
        **{k: v for k, v in os.environ.items() if k != cache.SHIPPED_ENV},
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "YATZY_KERNEL_CACHE": str(tmp_path / "kernels"),
    }
    yatzy = str(Path(sys.executable).with_name("yatzy"))
    out = subprocess.run(
        [yatzy, "play", "--plain", "--lang", lang, "--seed", "3", "Anna"],
        input=f"r\n{word}\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    ).stdout
    hint = out.partition(f"> {word}\n")[2]
    options = [line for line in hint.splitlines() if line.startswith("  ") and line.endswith(")")]
    assert len(options) >= 6 and options[0].endswith(best), out
    assert list((tmp_path / "cache").rglob("yatzy-float32-*.npy"))  # unpacked for next time
    assert not [p for p in (tmp_path / "kernels").rglob("*") if p.is_file()]  # no compile
