"""Solved value tables on disk, one per rules spec, in the user's cache directory.

A table lives in ``<user cache dir>/yatzy/solver/`` (``$XDG_CACHE_HOME/yatzy`` on
Linux, via platformdirs) as ``<name>.npy`` with a ``<name>.json`` beside it.  The
name carries the spec for people and a digest of the key for uniqueness; the key
holds :data:`FORMAT_VERSION`, the spec, the sub-game, the float type and a
fingerprint of the score tables, so a changed rule or solver never loads an old
table.  Tables load memory-mapped (read-only), which takes milliseconds even for
Maxi's hundreds of megabytes.

The cache has a disk budget (:mod:`yatzy.table_cache`, which lists and clears the
tables without numpy for ``yatzy cache``): storing a table deletes the tables used
least recently until the cache fits it, sparing the tables that running processes
hold; loading one marks it used and holds it while the array lives.  Building goes
through :func:`building`: one builder per table per computer, the others wait and
load its file.

A few tables ship with the package (:data:`SHIPPED_DIR`, lzma-compressed ``.npy``
files under the same names, made by ``scripts/ship_tables.py``): the start page's
whole-game tables that fit in a few megabytes.  A lookup that misses the cache
unpacks the shipped table into it, so a fresh install plays, hints and analyses
those rules exactly at once instead of compiling the solve kernel and solving (about
11 s on an idle machine, a minute under load).  A shipped table is used only under
exactly its key (the fingerprint holds the solve kernels' sources), so a changed
solver never reads an old one; :data:`SHIPPED_ENV` = ``0`` ignores them.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import lzma
import os
import re
import tempfile
import threading
import time
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from yatzy import table_cache

FORMAT_VERSION = 1
"""Bump when the meaning or layout of a cached table changes."""

SHIPPED_DIR = Path(__file__).parent / "shipped"
"""The tables shipped with the package: ``<name>.npy.xz`` with ``<name>.json``."""

SHIPPED_SPECS = ("yatzy", "yatzy+forced", "yatzy+half_forced", "yahtzee", "yatzy+lenient")
"""The rules whose whole-game ``float32`` tables ship: the presets Yatzy, Forced order,
Half-forced and Yahtzee, and ``yatzy+lenient``, the table DubbelYatzy's approximate
strategy reads.  Maxi's (319 MB) and the house rules' variants are built on first use."""

SHIPPED_ENV = "YATZY_SHIPPED_TABLES"
"""Set to ``0`` to ignore the shipped tables (to time or test a fresh build)."""

_stored = 0  # tables this process stored: a memo of "missing" older than one is stale


def cache_dir() -> Path:
    """The directory of the solver's tables (honours ``XDG_CACHE_HOME``)."""
    return table_cache.cache_dir()


def table_key(spec: str, root: str, dtype: str, fingerprint: str) -> dict[str, Any]:
    """The key that a cached table must match exactly to be used."""
    return {
        "format": FORMAT_VERSION,
        "spec": spec,
        "root": root,
        "dtype": dtype,
        "fingerprint": fingerprint,
    }


def _paths(key: dict[str, Any]) -> tuple[Path, Path]:
    digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:16]
    readable = re.sub(r"[^A-Za-z0-9_.=+-]+", "_", key["spec"])[:60]
    base = cache_dir() / f"{readable}-{key['dtype']}-{digest}"
    return base.with_suffix(".npy"), base.with_suffix(".json")


def exists(key: dict[str, Any]) -> bool:
    """Whether a table stored under exactly ``key`` is in the cache or shipped with
    the package (not loaded)."""
    data_path, meta_path = _paths(key)
    try:
        if json.loads(meta_path.read_text()).get("key") == key and data_path.exists():
            return True
    except (OSError, ValueError):
        pass
    return shipped(key) is not None


def shipped(key: dict[str, Any], *, honour_env: bool = True) -> Path | None:
    """The compressed file of the table shipped under exactly ``key``, or ``None``
    (none shipped, or :data:`SHIPPED_ENV` is ``0`` and ``honour_env``)."""
    if honour_env and os.environ.get(SHIPPED_ENV, "").strip() == "0":
        return None
    packed, meta = shipped_paths(key)
    try:
        if json.loads(meta.read_text()).get("key") != key:
            return None
    except (OSError, ValueError):
        return None
    return packed if packed.exists() else None


def shipped_paths(key: dict[str, Any]) -> tuple[Path, Path]:
    """Where the table of ``key`` ships: its compressed data and its description
    (whether or not they exist)."""
    data_path, meta_path = _paths(key)
    return SHIPPED_DIR / (data_path.name + ".xz"), SHIPPED_DIR / meta_path.name


def _unpack_shipped(key: dict[str, Any], shape: tuple[int, ...]) -> bool:
    """Store the shipped table of ``key`` in the cache; whether there was one of
    ``shape`` (a damaged file is passed over: the table is built as without it)."""
    packed = shipped(key)
    if packed is None:
        return False
    try:
        with lzma.open(packed) as fh:
            table = np.load(io.BytesIO(fh.read()), allow_pickle=False)
    except (OSError, ValueError, EOFError, lzma.LZMAError):
        return False
    if table.shape != shape or table.dtype != np.dtype(key["dtype"]):
        return False
    save(key, table, 0.0)
    return True


def load(key: dict[str, Any], shape: tuple[int, ...]) -> npt.NDArray[Any] | None:
    """The cached table for ``key`` (unpacked from the package's shipped tables on a
    first use), or ``None`` when missing, stale or damaged."""
    found = _load_cached(key, shape)
    if found is None and _unpack_shipped(key, shape):
        found = _load_cached(key, shape)
    return found


def _load_cached(key: dict[str, Any], shape: tuple[int, ...]) -> npt.NDArray[Any] | None:
    data_path, meta_path = _paths(key)
    try:
        meta = json.loads(meta_path.read_text())
        if meta.get("key") != key or tuple(meta.get("shape", ())) != shape:
            return None
    except (OSError, ValueError):
        return None
    # Held before it is mapped: the budget never deletes a table a process reads.
    held = table_cache.hold(data_path)
    if held is None:
        return None
    try:
        table: npt.NDArray[Any] = np.load(data_path, mmap_mode="r", allow_pickle=False)
    except (OSError, ValueError):
        os.close(held)
        return None
    if table.shape != shape or table.dtype != np.dtype(key["dtype"]):
        os.close(held)
        return None
    weakref.finalize(table, os.close, held)  # let go with the array (views keep it)
    table_cache.touch(meta_path)  # used now: the budget deletes the least recently used
    return table


def frozen(table: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """``table`` made read-only, as :func:`load` maps it: numba types a read-only array
    apart from a writable one, so a kernel compiled for a table solved in one process
    (the warm-up child, a table job) would be compiled again for the same table loaded
    in another.  One kind of table, one compile; a table is never written once made."""
    table.flags.writeable = False
    return table


@contextlib.contextmanager
def building(key: dict[str, Any]) -> Iterator[None]:
    """Hold the build lock of the table stored under ``key``: a thread or process that
    builds it while another does waits here, then should :func:`load` (see
    :func:`yatzy.table_cache.build_lock`)."""
    data_path, _ = _paths(key)
    with table_cache.build_lock(data_path):
        yield


def save(key: dict[str, Any], table: npt.NDArray[Any], seconds: float) -> Path:
    """Store ``table`` under ``key`` atomically; returns the data file's path."""
    global _stored
    data_path, meta_path = _paths(key)
    data_path.parent.mkdir(parents=True, exist_ok=True)
    meta = {"key": key, "shape": list(table.shape), "solve_seconds": round(seconds, 3)}
    # The description goes last: a table without one is not a table (tables(), load).
    _replace(data_path, lambda fh: np.save(fh, table, allow_pickle=False))
    _replace(meta_path, lambda fh: fh.write(json.dumps(meta, indent=1).encode()))
    _stored += 1
    # A bad budget setting is reported by `yatzy cache`; it never stops a table's store.
    with contextlib.suppress(table_cache.CacheBudgetError):
        table_cache.enforce_budget(keep=[data_path])
    return data_path


def _replace(path: Path, write: Any) -> None:
    """Write ``path`` atomically: to a temporary file of its own in the same folder
    (``.<name>.<random>.<pid>.tmp``, unique even between two threads of one process),
    then renamed over ``path``."""
    fd, name = tempfile.mkstemp(
        dir=path.parent, prefix=f".{path.name}.", suffix=f".{os.getpid()}.tmp"
    )
    try:
        with os.fdopen(fd, "wb") as fh:
            write(fh)
        os.replace(name, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(name)


class MissingMemo:
    """Remembers for ``seconds`` that a spec's table was not in the cache, so that a
    server asking on every move does not build the model to look again each time.

    The memo is forgotten early when this process stores any table or the cache
    directory changes (a table built by another part of the program is found at
    once; a test's private cache is not confused with the user's).
    """

    def __init__(self, seconds: float = 60.0) -> None:
        self.seconds = seconds
        self._lock = threading.Lock()
        self._until: dict[str, tuple[float, int, str]] = {}

    def known_missing(self, spec: str) -> bool:
        """Whether ``spec`` was found missing recently, with nothing stored since."""
        with self._lock:
            found = self._until.get(spec)
        if found is None:
            return False
        deadline, stored, where = found
        return time.monotonic() < deadline and stored == _stored and where == str(cache_dir())

    def mark(self, spec: str) -> None:
        """Remember that ``spec``'s table was just looked for and not found."""
        with self._lock:
            self._until[spec] = (time.monotonic() + self.seconds, _stored, str(cache_dir()))
