"""The solver's tables on disk, without numpy: where they are, what each holds, how
much room they take, the disk budget, and clearing them.

:mod:`yatzy.solver.cache` stores and loads the tables (numpy); this module only
reads their ``.json`` descriptions and file sizes, so ``yatzy cache`` starts in
milliseconds.  A table is one ``<name>.npy`` with its ``<name>.json`` beside it in
:func:`cache_dir`; a target table is four such pairs (its parts), listed, kept and
cleared together.  The ``.json`` file's modification time is the table's *last
use*: storing writes it, loading touches it (:func:`touch`).

The disk budget (:func:`budget`) is one setting for everything that stores tables
on this computer — ``yatzy play``, ``yatzy solve``, the bots and ``yatzy serve``
alike: the environment variable :data:`BUDGET_ENV` (``4G``, ``500M``, ``none``),
:data:`DEFAULT_BUDGET` without it.  Each time a table is stored, the tables used
least recently are deleted until the cache fits the budget again
(:func:`enforce_budget`); the table just stored is never deleted, even when it alone
is larger.  A process that has a deleted table memory-mapped keeps reading it; the
next one builds it again.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from yatzy.errors import YatzyError

BUDGET_ENV = "YATZY_CACHE_BUDGET"
"""The environment variable that sets the disk budget of the table cache."""

DEFAULT_BUDGET = 4 * 1024**3
"""The budget without :data:`BUDGET_ENV`: 4 GiB (Maxi with saved rolls alone is 3.2 GiB)."""

_UNITS = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3, "T": 1024**4}
_NO_LIMIT = ("none", "unlimited", "off")
_STALE_TEMPORARY = 24 * 3600.0  # a half-written table older than this was abandoned


class CacheBudgetError(YatzyError):
    """A disk budget that is not a size (``4G``, ``500M``, ``none``)."""


def cache_dir() -> Path:
    """The directory of the solver's tables (honours ``XDG_CACHE_HOME``)."""
    import platformdirs

    return Path(platformdirs.user_cache_dir("yatzy", appauthor=False)) / "solver"


def parse_size(text: str) -> int | None:
    """Bytes from ``4G``, ``500M``, ``1.5GiB``, ``200000`` (binary units); ``None``
    for ``none`` (no limit).  Raises :class:`CacheBudgetError` quoting ``text``."""
    word = text.strip()
    if word.casefold() in _NO_LIMIT:
        return None
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([KMGT]?)(?:i?B)?", word, flags=re.IGNORECASE)
    if m is None:
        raise CacheBudgetError(f"cache budget {text!r} is not a size: give e.g. 4G, 500M or none")
    return int(float(m.group(1)) * _UNITS[m.group(2).upper()])


def budget() -> tuple[int | None, str]:
    """The disk budget in bytes (``None``: no limit) and where it comes from: the
    value of :data:`BUDGET_ENV`, or ``"default"``."""
    value = os.environ.get(BUDGET_ENV, "").strip()
    if not value:
        return DEFAULT_BUDGET, "default"
    return parse_size(value), f"{BUDGET_ENV}={value}"


def size_text(size: int) -> str:
    """A size for people, in binary units as ``yatzy solve`` gives them: ``812 KiB``,
    ``8.0 MiB``, ``3.2 GiB``."""
    for unit, scale in (("GiB", 1024**3), ("MiB", 1024**2), ("KiB", 1024)):
        if size >= scale:
            value = size / scale
            return f"{value:.1f} {unit}" if value < 100 else f"{value:.0f} {unit}"
    return f"{size} B"


@dataclass(frozen=True)
class CachedTable:
    """One table of the cache: its rule set, what it is, its files and their size,
    and when it was last used."""

    spec: str
    """The rules spec it was solved for (``maxi+saved_rolls``)."""
    kind: str
    """``whole`` (the whole game), ``part`` (a game with some boxes filled: ``boxes``
    open ones) or ``target`` (the chances of reaching each total)."""
    boxes: int
    """The boxes open at its start (0: every box)."""
    files: tuple[Path, ...]
    size: int
    """Bytes on disk, every file of it together."""
    last_used: float
    """When it was last stored or loaded (seconds since the epoch)."""


def _group(key: dict[str, Any]) -> str:
    # A target table's parts (values, offsets, bounds) differ in "part" and "dtype" only.
    same = {k: v for k, v in key.items() if k != "part" and not ("part" in key and k == "dtype")}
    return json.dumps(same, sort_keys=True)


def tables(directory: Path | None = None) -> list[CachedTable]:
    """The tables in the cache, the most recently used first (files that do not
    describe a table are left out, and left alone)."""
    folder = directory or cache_dir()
    groups: dict[str, dict[str, Any]] = {}
    try:
        metas = sorted(folder.glob("*.json"))
    except OSError:
        return []
    for meta in metas:
        data_file = meta.with_suffix(".npy")
        try:
            key = json.loads(meta.read_text(encoding="utf-8"))["key"]
            spec = str(key["spec"])
            stat, data_stat = meta.stat(), data_file.stat()
        except (OSError, ValueError, KeyError, TypeError):
            continue
        group = groups.setdefault(
            _group(key),
            {"key": key, "files": [], "size": 0, "used": 0.0, "spec": spec},
        )
        group["files"] += [data_file, meta]
        group["size"] += stat.st_size + data_stat.st_size
        group["used"] = max(group["used"], stat.st_mtime)
    out = []
    for group in groups.values():
        key = group["key"]
        root = str(key.get("root", ""))
        kind = "target" if str(key.get("table", "")).startswith("target") else "whole"
        if kind == "whole" and root:
            kind = "part"
        out.append(
            CachedTable(
                group["spec"],
                kind,
                len(root.split(",")) if root else 0,
                tuple(group["files"]),
                group["size"],
                group["used"],
            )
        )
    out.sort(key=lambda t: t.last_used, reverse=True)
    return out


def temporaries(directory: Path | None = None) -> list[Path]:
    """Half-written tables left behind by a process that was killed while storing
    (``.<name>.<random>.<pid>.tmp`` of a process that is gone, or older than a day)."""
    folder = directory or cache_dir()
    try:
        found = list(folder.glob(".*.tmp"))
    except OSError:
        return []
    out = []
    for path in found:
        pid = path.name.rsplit(".", 2)[-2]
        with contextlib.suppress(OSError):
            old = time.time() - path.stat().st_mtime > _STALE_TEMPORARY
            if old or not (pid.isdigit() and _alive(int(pid))):
                out.append(path)
    return out


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # someone else's process: alive
        return True
    return True


def remove(table: CachedTable) -> int:
    """Delete ``table``'s files (the description last, so a half-deleted table never
    looks whole); the bytes freed."""
    freed = 0
    for path in sorted(table.files, key=lambda p: p.suffix == ".json"):
        with contextlib.suppress(OSError):
            size = path.stat().st_size
            path.unlink()
            freed += size
    return freed


BUILD_WAIT = 6 * 3600.0
"""Seconds a process waits for another's build of the same table before giving up
(Maxi with saved rolls, the longest build, takes tens of minutes)."""


class TableBusyError(YatzyError):
    """Another process has been building the same table for longer than the wait."""


def lock_path(data_file: Path) -> Path:
    """The build lock of the table whose data file is ``data_file`` (hidden, beside it)."""
    return data_file.with_name(f".{data_file.stem}.lock")


@contextlib.contextmanager
def build_lock(data_file: Path, timeout: float = BUILD_WAIT) -> Iterator[None]:
    """Hold the build lock of the table stored as ``data_file`` (see the module
    docstring): at most one thread or process of this computer builds it at a time;
    the others wait here.  Raises :class:`TableBusyError` after ``timeout`` seconds."""
    import filelock

    data_file.parent.mkdir(parents=True, exist_ok=True)
    # thread_local=False: every thread opens its own lock file (flock excludes them).
    lock = filelock.FileLock(str(lock_path(data_file)), timeout=timeout)
    try:
        lock.acquire()
    except filelock.Timeout:
        raise TableBusyError(
            f"{data_file.name} has been built by another process for over {timeout:.0f} s"
        ) from None
    try:
        yield
    finally:
        lock.release()


def hold(data_file: Path) -> int | None:
    """Mark the table stored as ``data_file`` in use by this process: a shared lock on
    the file, kept until the descriptor returned is closed (``None``: the file is
    gone).  The budget and ``yatzy cache clear`` never delete a held table."""
    try:
        fd = os.open(data_file, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH)
    except OSError:
        os.close(fd)
        return None
    return fd


def in_use(table: CachedTable) -> bool:
    """Whether some process (this one included) holds a file of ``table`` (:func:`hold`)."""
    with _unused(table) as free:
        return not free


@contextlib.contextmanager
def _unused(table: CachedTable) -> Iterator[bool]:
    """Whether nobody holds ``table``; while True, nobody can start to (its data files
    are locked exclusively until the block ends), so it can be deleted safely."""
    fds = []
    try:
        for path in table.files:
            if path.suffix != ".npy":
                continue
            try:
                fd = os.open(path, os.O_RDONLY)
            except OSError:
                continue
            fds.append(fd)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                yield False
                return
        yield True
    finally:
        for fd in fds:
            os.close(fd)  # closing releases the lock


def touch(meta: Path) -> None:
    """Mark the table described by ``meta`` as used now (its last use, for the budget)."""
    with contextlib.suppress(OSError):
        os.utime(meta)


def enforce_budget(
    keep: Iterable[Path] = (), limit: int | None = None, directory: Path | None = None
) -> list[CachedTable]:
    """Delete the tables used least recently until the cache fits ``limit`` bytes
    (default :func:`budget`); never the table holding a file of ``keep``, nor one in
    use by a process (:func:`in_use`).  The tables deleted."""
    if limit is None:
        limit, _ = budget()
        if limit is None:
            return []
    kept = {Path(p).resolve() for p in keep}
    found = tables(directory)
    total = sum(t.size for t in found)
    removed = []
    for table in reversed(found):  # least recently used first
        if total <= limit:
            break
        if any(f.resolve() in kept for f in table.files):
            continue
        with _unused(table) as free:
            if not free:  # loaded by a running process: it stays
                continue
            remove(table)
        total -= table.size
        removed.append(table)
    return removed
