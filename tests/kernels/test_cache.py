"""The kernels' cache is keyed by a digest of the whole package (``yatzy.kernels.cache``).

numba's own ``cache=True`` stamps a function with its own file, so a kernel that
calls a helper from another file kept its stale machine code after the helper
changed.  Here a copy of the package runs in fresh processes: a kernel in one module
calling a shared helper in ``common.py`` is compiled, then loaded from the cache,
then compiled anew (with the helper's new behaviour) once only ``common.py`` changed.
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import yatzy
from yatzy.kernels import cache

# A caller in a module of its own (written into the copy), of a helper in common.py.
PROBE = '''"""A kernel of the test that calls a shared helper from another module."""

from yatzy.kernels.common import roll_index
from yatzy.kernels.jit import njit


@njit(cache=True)
def probe(dice, roll_of_code, powers):
    """The roll index of ``dice`` (through ``common.roll_index``)."""
    return roll_index(dice, roll_of_code, powers)
'''

RUN = """
import json
import numpy as np
from yatzy.kernels import cache, probe

dice = np.array([1, 1, 2, 3, 6], dtype=np.int64)
powers = np.array([1, 6, 36, 216, 1296, 7776], dtype=np.int64)
roll_of_code = np.arange(6**6, dtype=np.int64)  # every code is its own roll here
value = int(probe.probe(dice, roll_of_code, powers))
stats = probe.probe.stats
print(json.dumps({
    "dir": str(cache.cache_dir()),
    "path": stats.cache_path,
    "value": value,
    "hits": sum(stats.cache_hits.values()),
    "misses": sum(stats.cache_misses.values()),
    "file": probe.__file__,
}))
"""

SHARED_LINE = "    index: int = roll_of_code[code]\n"


def _run(root: Path) -> dict[str, Any]:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(root / "home"),
        "XDG_CACHE_HOME": str(root / "xdg-cache"),
        "PYTHONPATH": str(root / "src"),
        cache.CACHE_ENV: str(root / "kernel-cache"),
    }
    done = subprocess.run(
        [sys.executable, "-c", RUN], env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def _files(folder: Path, *patterns: str) -> list[Path]:
    return [p for pattern in patterns for p in folder.rglob(pattern) if p.is_file()]


@pytest.mark.slow  # three fresh processes compile a kernel (about 6 CPU-s)
def test_changing_a_shared_helper_recompiles_its_callers(tmp_path: Path) -> None:
    package = tmp_path / "src" / "yatzy"
    shutil.copytree(
        Path(yatzy.__file__).parent, package, ignore=shutil.ignore_patterns("__pycache__")
    )
    (package / "kernels" / "probe.py").write_text(PROBE)
    common = package / "kernels" / "common.py"
    assert SHARED_LINE in common.read_text()

    first = _run(tmp_path)
    assert Path(first["file"]).is_relative_to(package)  # the copy, not the installed one
    assert first["value"] == 2 * 1 + 6 + 36 + 7776  # the code of 1 1 2 3 6
    assert first["misses"] == 1 and first["hits"] == 0  # compiled...
    assert first["path"] == first["dir"]
    assert Path(first["dir"]).parent == tmp_path / "kernel-cache"

    again = _run(tmp_path)
    assert again["dir"] == first["dir"]
    assert again["hits"] == 1 and again["misses"] == 0  # ...then loaded from the cache

    # Only the helper's file changes: the caller in probe.py must not load old code.
    common.write_text(common.read_text().replace(SHARED_LINE, SHARED_LINE[:-1] + " + 1\n"))
    changed = _run(tmp_path)
    assert changed["dir"] != first["dir"]
    assert changed["misses"] == 1 and changed["hits"] == 0
    assert changed["value"] == first["value"] + 1

    # Everything numba wrote is under the configured cache, one folder per version.
    assert not _files(tmp_path / "src", "*.nbi", "*.nbc")
    assert not _files(tmp_path / "home", "*") and not _files(tmp_path / "xdg-cache", "*")
    versions = {p.parent for p in _files(tmp_path / "kernel-cache", "*.nbi")}
    assert versions == {Path(first["dir"]), Path(changed["dir"])}


def test_the_digest_covers_every_source_of_the_package() -> None:
    names = sorted(p.name for p in cache.PACKAGE_DIR.glob("*.py"))
    assert {"common.py", "solve.py", "winbot.py", "__init__.py"} <= set(names)
    assert cache.source_digest() == cache.source_digest(*names)
    assert cache.source_digest("common.py") != cache.source_digest("solve.py")
    assert len(cache.source_digest()) == 64


def test_the_cache_root_follows_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(cache.CACHE_ENV, raising=False)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    assert cache.cache_root() == tmp_path / "numba" / "yatzy"
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "mine"))
    assert cache.cache_root() == tmp_path / "mine"
    assert cache.cache_dir() == tmp_path / "mine" / cache.source_digest()[:16]


MODULES = ["common", "final", "solve", "saved", "target", "native_entry"]
MODULES += ["simulate", "saved_simulate", "win", "win_double", "winbot"]


@pytest.mark.parametrize("name", MODULES)
def test_every_kernel_is_cached_by_the_package_digest(name: str) -> None:
    module = importlib.import_module(f"yatzy.kernels.{name}")
    from numba.core.registry import CPUDispatcher

    kernels = [
        f
        for f in vars(module).values()
        if isinstance(f, CPUDispatcher) and f.__module__ == module.__name__
    ]
    assert kernels or name == "native_entry"
    for kernel in kernels:
        path = kernel.stats.cache_path
        assert path is not None, kernel
        assert Path(path).name == cache.source_digest()[:16], kernel


def test_the_locator_names_its_file_as_numbas_own_do() -> None:
    # numba's cache reads the locator's ``_py_file`` to warn that a kernel cannot be
    # cached (its own locators set it); ours lacked it, an AttributeError mid-compile.
    from yatzy.kernels import common
    from yatzy.kernels.jit import PackageCacheLocator

    py_func = common.roll_index.py_func
    locator = PackageCacheLocator.from_function(py_func, common.__file__)
    assert locator is not None
    assert locator._py_file == common.__file__


NATIVE_AT_OPT_0 = """
from yatzy.kernels import native_entry
print("built", native_entry.native_entry("float64").address > 0)
"""


@pytest.mark.slow  # a fresh process compiles the solve kernel unoptimised (about 7 CPU-s)
def test_the_native_solve_kernel_compiles_with_numba_opt_0(tmp_path: Path) -> None:
    # At NUMBA_OPT=0 numba cannot cache the kernels (their code keeps "dynamic
    # globals") and warns so, naming the locator's file: the native build's fallback
    # once ended there with an AttributeError.
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path / "home"),
        "XDG_CACHE_HOME": str(tmp_path / "xdg-cache"),
        "PYTHONPATH": str(Path(yatzy.__file__).parent.parent),
        "NUMBA_OPT": "0",
        cache.CACHE_ENV: str(tmp_path / "kernel-cache"),
    }
    done = subprocess.run(
        [sys.executable, "-c", NATIVE_AT_OPT_0],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["built", "True"]
