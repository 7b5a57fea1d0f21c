"""The warm-up children under way in this process, by rule set (issue 24's "one builder
per table per machine"): :mod:`yatzy.web.warmup` registers each child it starts, and the
server's table job (:mod:`yatzy.web.prepare`) waits for the child of its rules before
loading the table and kernels the child caches, rather than compile them beside it.
Its own module so that the two import it without importing each other."""

from __future__ import annotations

import logging
import subprocess
import threading

log = logging.getLogger("yatzy.web")

WAIT_LIMIT = 900.0
"""Seconds a table job waits for a warm-up child at most (a stuck child is not
waited for longer: the job then builds what it needs itself)."""

_lock = threading.Lock()
_children: dict[str, list[subprocess.Popen[bytes]]] = {}


def warming(spec: str, child: subprocess.Popen[bytes]) -> None:
    """Record that ``child`` warms the tables and kernels of ``spec``."""
    with _lock:
        _children.setdefault(spec, []).append(child)


def wait_for_warming(spec: str, limit: float = WAIT_LIMIT) -> bool:
    """Wait while this process's warm-up child of ``spec`` runs (at most ``limit``
    seconds); whether one was waited for.  The server's table job calls it before
    loading the tables: the child builds the table and compiles the kernels into the
    disk caches, so the job then loads both rather than compile the same kernels again
    beside it (twice the CPU on a fresh install, and numba's compile holds this
    process's interpreter lock, stalling its requests)."""
    with _lock:
        running = [c for c in _children.get(spec, []) if c.poll() is None]
    for child in running:
        try:
            child.wait(limit)
        except subprocess.TimeoutExpired:
            log.info("the warm-up of %s is still running after %.0f s", spec, limit)
    return bool(running)
