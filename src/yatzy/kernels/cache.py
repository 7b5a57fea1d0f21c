"""Where the kernels' machine code is kept: one directory per version of this package.

numba's own cache (``cache=True``) stamps each function with its own source file
only, so a kernel that calls a helper from another file would go on loading the
machine code it was compiled with after that helper changed.  Every kernel of
:mod:`yatzy.kernels` is therefore cached in one directory named by a SHA-256 digest
of all the package's sources (:func:`source_digest`): a change to any of them starts
a fresh directory, and every kernel is compiled anew from the sources it now
reads.  The native solve kernel (:mod:`yatzy.kernels.native`) keeps its object file
in the same directory.

The directories live under :func:`cache_root`: ``$YATZY_KERNEL_CACHE`` when set,
else ``$NUMBA_CACHE_DIR/yatzy`` when numba's cache is redirected, else the package's
own ``__pycache__`` when it can be written (where numba and Python keep theirs, so a
test or a server that moves ``XDG_CACHE_HOME`` for its tables still finds the
compiled kernels), else ``<user cache dir>/yatzy/kernels``.  This module imports no
numba, so a process that only loads native code or cached tables never pays for it.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
from pathlib import Path

import platformdirs

__all__ = [
    "CACHE_ENV",
    "PACKAGE_DIR",
    "cache_dir",
    "cache_root",
    "mark_warm",
    "source_digest",
    "warm_marker",
]

CACHE_ENV = "YATZY_KERNEL_CACHE"
"""The environment variable that overrides :func:`cache_root`."""

PACKAGE_DIR = Path(__file__).resolve().parent
"""The directory of this package's sources (what :func:`source_digest` reads)."""


@functools.cache
def source_digest(*names: str) -> str:
    """The SHA-256 (hex) of the named source files of this package, ``"common.py"``
    and the like; of every ``*.py`` file in it when no name is given.

    Each file's name goes into the digest with its bytes, so renaming or adding a
    module changes it too.  Computed once per process: the kernels it keys were
    compiled from the sources read at import.
    """
    files = sorted(set(names)) if names else sorted(p.name for p in PACKAGE_DIR.glob("*.py"))
    h = hashlib.sha256()
    for name in files:
        data = (PACKAGE_DIR / name).read_bytes()
        h.update(f"{name}\0{len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()


def cache_root() -> Path:
    """The folder that holds one cache directory per version of the kernels' sources."""
    env = os.environ.get(CACHE_ENV, "")
    if env:
        return Path(env)
    numba_dir = os.environ.get("NUMBA_CACHE_DIR", "")
    if numba_dir:
        return Path(numba_dir) / "yatzy"
    pycache = PACKAGE_DIR / "__pycache__"
    if os.access(pycache if pycache.exists() else PACKAGE_DIR, os.W_OK):
        return pycache
    return Path(platformdirs.user_cache_dir("yatzy", appauthor=False)) / "kernels"


def cache_dir() -> Path:
    """This version's cache directory: :func:`cache_root` / the first 16 hex digits of
    :func:`source_digest` (not created here)."""
    return cache_root() / source_digest()[:16]


def warm_marker(name: str) -> Path:
    """The file that a process warming kernels in the background leaves when it has
    compiled them for ``name`` (a rule set's spec, or a purpose and a spec): in
    :func:`cache_dir`, so kernels changed since are warmed again.  A front end that
    must not compile on its own thread (numba holds the interpreter's lock) waits for
    it; the marker is not created here."""
    return cache_dir() / "warmed" / re.sub(r"[^A-Za-z0-9_.=+-]+", "_", name)


def mark_warm(name: str) -> None:
    """Leave :func:`warm_marker` of ``name`` (a folder that cannot be written is passed
    over: the next program warms again)."""
    marker = warm_marker(name)
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()
    except OSError:
        pass
