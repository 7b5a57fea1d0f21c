"""The solve kernel loaded as native code (``yatzy.kernels.native``): the same tables
bit for bit as numba's own dispatch, a fresh process that solves without importing
numba, and an object file that is refused rather than loaded when it needs a
symbol nobody provides."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from yatzy.kernels import cache
from yatzy.kernels import native as _native
from yatzy.rules import RuleSet
from yatzy.solver import Solver


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Every test solves into its own table cache (the kernels' cache is shared)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    yield tmp_path / "xdg-cache"


# Sub-games that take every path of the kernels: the Yatzy bonus rows and the forced
# joker, the free joker, last_resort, forced order, six dice, saved rolls.
SUBGAMES = [
    ("yatzy", ["ones", "threes", "sixes", "one_pair", "full_house", "chance", "yatzy"]),
    ("yahtzee", ["twos", "fives", "three_of_a_kind", "full_house", "large_straight", "yatzy"]),
    ("yahtzee+joker=free", ["ones", "small_straight", "large_straight", "chance", "yatzy"]),
    ("yatzy+last_resort", ["fours", "two_pairs", "small_straight", "chance", "yatzy"]),
    ("yatzy+forced", None),
    ("maxi", ["sixes", "three_pairs", "full_straight", "villa", "chance", "maxi_yatzy"]),
    ("maxi+saved_rolls=next", ["fives", "tower", "chance", "maxi_yatzy"]),
]


@pytest.mark.parametrize(("spec", "open_boxes"), SUBGAMES, ids=[s for s, _ in SUBGAMES])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_native_and_numba_solve_the_same_table(
    spec: str, open_boxes: list[str] | None, dtype: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = RuleSet.parse(spec)
    native = Solver(rules, open_boxes=open_boxes, dtype=dtype, use_cache=False)  # type: ignore[arg-type]
    monkeypatch.setattr(_native, "kernel", lambda dtype: None)
    numba = Solver(rules, open_boxes=open_boxes, dtype=dtype, use_cache=False)  # type: ignore[arg-type]
    assert np.isfinite(native.expected_score)
    assert np.array_equal(native.table, numba.table, equal_nan=True)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_the_native_kernel_is_available(dtype: str) -> None:
    # Without it every fresh solve pays numba's start (about 0.45 CPU-s) again.
    assert _native.kernel(dtype) is not None


def test_a_fresh_process_solves_without_importing_numba() -> None:
    _native.kernel("float32")  # built (and its object file written) if need be
    code = (
        "import sys; from yatzy.solver import Solver\n"
        "s = Solver('yahtzee', open_boxes=['fours', 'chance', 'yatzy'], use_cache=False)\n"
        "print('numba' in sys.modules, repr(s.expected_score))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=dict(os.environ), capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    imported, value = out.stdout.split()
    assert imported == "False"
    here = Solver("yahtzee", open_boxes=["fours", "chance", "yatzy"], use_cache=False)
    assert float(value) == here.expected_score


def test_an_object_that_needs_an_unknown_symbol_is_not_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _native.kernel("float32") is not None
    obj, meta = _native._paths("float32", _native._llvm())
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path))
    mine_obj, mine_meta = _native._paths("float32", _native._llvm())
    mine_obj.parent.mkdir(parents=True)
    shutil.copy(obj, mine_obj)
    shutil.copy(meta, mine_meta)
    assert _native._load("float32") is not None
    described = json.loads(mine_meta.read_text())
    described["undefined"].append("yatzy_no_such_symbol")
    mine_meta.write_text(json.dumps(described))
    assert _native._load("float32") is None


def test_the_undefined_symbols_of_the_object_are_numbas_helpers() -> None:
    assert _native.kernel("float32") is not None
    obj, _ = _native._paths("float32", _native._llvm())
    names = _native._undefined_symbols(obj.read_bytes())
    assert "numba_do_raise" in names  # error reporting goes through numba's helpers
    assert not any(name.startswith("_ZN5yatzy") for name in names)  # the kernels are inside
    with pytest.raises(ValueError, match="ELF64"):
        _native._undefined_symbols(b"not an object file")


def test_words_check_every_array() -> None:
    masks = np.arange(3, dtype=np.int64)
    table = np.zeros((2, 1, 4), dtype=np.float32)
    ints = np.zeros(6, dtype=np.int32)
    arrays = [masks, table] + [
        np.zeros((1,) * ndim, np.dtype(kind or "float32")) for _, kind, ndim in _native.ARRAYS[2:]
    ]
    scalars = [0] * len(_native.SCALARS)
    assert _native.words(arrays, scalars, "float32").shape == (_native.WORDS,)
    with pytest.raises(ValueError, match="V is float32"):
        _native.words(arrays, scalars, "float64")
    with pytest.raises(ValueError, match="masks is int32"):
        _native.words([ints, *arrays[1:]], scalars, "float32")
    with pytest.raises(ValueError, match="not contiguous"):
        _native.words([np.arange(6, dtype=np.int64)[::2], *arrays[1:]], scalars, "float32")
    with pytest.raises(ValueError, match="number of arguments"):
        _native.words(arrays[:-1], scalars, "float32")


def test_numba_still_works_after_a_native_solve_in_the_same_process() -> None:
    # The native loader initialises numba's C helpers itself; numba imported
    # afterwards (the advisor's kernels allocate through them) must still work.
    code = (
        "import sys\n"
        "from yatzy.game import BoxEntry, Sheet\n"
        "from yatzy.solver import Solver\n"
        "open_ = ['fours', 'chance', 'yatzy']\n"
        "s = Solver('yatzy', open_boxes=open_, use_cache=False)\n"
        "assert 'numba' not in sys.modules\n"
        "sheet = Sheet(s.rules)\n"
        "for b in s.rules.boxes:\n"
        "    if b not in open_:\n"
        "        sheet.entries[b] = BoxEntry(0)\n"
        "t = s.turn_tables(sheet)\n"
        "assert 'numba' in sys.modules\n"
        "again = Solver('yatzy', open_boxes=open_, use_cache=False)\n"
        "same = again.value(sheet) == s.value(sheet)\n"
        "print(repr(float(t[1].max())), repr(s.value(sheet)), same)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=dict(os.environ), capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    best_keep, value, same = out.stdout.split()
    assert same == "True"
    assert float(best_keep) > 0
    assert 0 < float(value) < 100
