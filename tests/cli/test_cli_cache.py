"""``yatzy cache`` and the disk budget of the solver's tables (issue 24, terminal 8):
the tables are listed with their rules, size and last use, cleared all or by rule
set (``--dry-run`` deletes nothing), and storing a table keeps the cache within
``YATZY_CACHE_BUDGET`` by deleting the least recently used."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from yatzy.cli.main import main
from yatzy.solver import cache
from yatzy.table_cache import enforce_budget, parse_size, tables

KIB = 1024


@pytest.fixture(autouse=True)
def cache_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """An empty table cache of the test's own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("YATZY_CACHE_BUDGET", raising=False)
    return tmp_path / "xdg" / "yatzy" / "solver"


def _store(spec: str, kib: int, *, root: str = "", age: float = 0.0) -> Path:
    """Store a real table of ``kib`` KiB through the solver's cache, used ``age`` s ago."""
    key = cache.table_key(spec, root, "float32", f"test-{spec}-{root}")
    path = cache.save(key, np.zeros(kib * KIB // 4, dtype=np.float32), 0.5)
    when = time.time() - age
    os.utime(path.with_suffix(".json"), (when, when))
    return path


def _cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["cache", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_list_names_rules_kind_size_and_last_use(
    capsys: pytest.CaptureFixture[str], cache_home: Path
) -> None:
    _store("maxi", 300, age=7200)
    _store("yatzy", 64, age=60)
    _store("yatzy", 8, root="ones,twos", age=30)
    code, out, _ = _cli([], capsys)
    assert code == 0
    rows = out.splitlines()
    assert rows[0] == f"Solver tables in {cache_home}:"
    assert rows[1].split()[:2] == ["Rules", "Table"]
    # The most recently used first, each with its size.
    assert rows[2].startswith("yatzy ") and "part of a game (open boxes: 2)" in rows[2]
    assert rows[3].startswith("yatzy ") and "whole game" in rows[3] and "64.3 KiB" in rows[3]
    assert rows[4].startswith("maxi ") and "300.1 KiB" not in rows[4] and "300 KiB" in rows[4]
    assert "3 tables, 373 KiB of the budget 4.0 GiB (default" in rows[5]


def test_the_list_as_json_and_in_swedish(capsys: pytest.CaptureFixture[str]) -> None:
    _store("maxi", 16)
    code, out, _ = _cli(["list", "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["budget"] == 4 * 1024**3 and data["budget_source"] == "default"
    [table] = data["tables"]
    assert table["spec"] == "maxi" and table["kind"] == "whole" and table["size"] > 16 * KIB
    assert all(Path(f).exists() for f in table["files"])
    code, out, _ = _cli(["--lang", "sv"], capsys)
    assert "Lösartabeller i" in out and "hela spelet" in out


def test_an_empty_cache_says_where_tables_come_from(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _cli(["list", "--lang", "fi"], capsys)
    assert code == 0 and "Ei vielä taulukoita" in out


def test_clear_by_rules_with_and_without_dry_run(capsys: pytest.CaptureFixture[str]) -> None:
    _store("maxi", 32)
    _store("yatzy", 16)
    code, out, _ = _cli(["clear", "--dry-run", "maxi"], capsys)
    assert code == 0 and out.startswith("Would delete 1 tables (32.")
    assert sorted(t.spec for t in tables()) == ["maxi", "yatzy"]
    code, out, _ = _cli(["clear", "maxi"], capsys)
    assert code == 0 and out.startswith("Deleted 1 tables (32.")
    assert [t.spec for t in tables()] == ["yatzy"]
    code, out, _ = _cli(["clear", "yahtzee"], capsys)
    assert code == 0 and "No table of yahtzee" in out
    assert [t.spec for t in tables()] == ["yatzy"]


def test_clear_all_takes_every_table_and_the_leftovers(
    capsys: pytest.CaptureFixture[str], cache_home: Path
) -> None:
    _store("maxi", 8)
    _store("yatzy", 8)
    left = cache_home / ".yatzy-float32-0123.npy.999999999.tmp"  # a build killed midway
    left.write_bytes(b"\0" * 100)
    code, out, _ = _cli([], capsys)
    assert "1 half-written files" in out
    code, out, _ = _cli(["clear"], capsys)
    assert code == 0 and out.startswith("Deleted 2 tables")
    assert list(cache_home.iterdir()) == []


def test_a_bad_spec_or_budget_is_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, err = _cli(["clear", "maxxi"], capsys)
    assert code == 2 and err.count("\n") == 1 and "'maxxi'" in err
    monkeypatch.setenv("YATZY_CACHE_BUDGET", "lots")
    code, _, err = _cli([], capsys)
    assert code == 2 and err.count("\n") == 1 and "'lots'" in err


def test_storing_a_table_keeps_the_budget_least_recently_used_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _store("maxi", 40, age=300)
    _store("yatzy", 40, age=200)
    _store("yahtzee", 40, age=100)
    # The oldest was loaded since: it is used more recently than the other two.
    assert tables()[-1].spec == "maxi"
    key = cache.table_key("maxi", "", "float32", "test-maxi-")
    assert cache.load(key, (40 * KIB // 4,)) is not None
    assert tables()[0].spec == "maxi"
    monkeypatch.setenv("YATZY_CACHE_BUDGET", "130K")
    _store("dubbel", 40)  # 4 x 40 KiB > 130 KiB: the least recently used one goes
    assert sorted(t.spec for t in tables()) == ["dubbel", "maxi", "yahtzee"]
    monkeypatch.setenv("YATZY_CACHE_BUDGET", "10K")
    _store("yatzy", 50, root="ones")  # larger than the budget alone: kept, the rest go
    assert [t.spec for t in tables()] == ["yatzy"]


def test_no_budget_deletes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("YATZY_CACHE_BUDGET", "none")
    paths = [_store(spec, 64) for spec in ("maxi", "yatzy", "yahtzee")]
    assert len(tables()) == 3
    # An explicit limit still applies, and the table to keep stays.
    assert len(enforce_budget(keep=[paths[1]], limit=1)) == 2
    assert [t.spec for t in tables()] == ["yatzy"]


@pytest.mark.parametrize(
    ("text", "size"),
    [("4G", 4 * 1024**3), ("500M", 500 * 1024**2), ("1.5GiB", 3 * 1024**3 // 2), ("none", None)],
)
def test_budget_sizes(text: str, size: int | None) -> None:
    assert parse_size(text) == size


def test_yatzy_cache_imports_no_numpy(cache_home: Path) -> None:
    _store("maxi", 4)
    code = (
        "import sys\n"
        "from yatzy.cli.main import main\n"
        "main(['cache'])\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('numpy', 'numba'))[:3])\n"
    )
    env = {**os.environ, "XDG_CACHE_HOME": str(cache_home.parent.parent)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    assert "maxi" in out.stdout
    assert out.stdout.strip().splitlines()[-1] == "[]"
