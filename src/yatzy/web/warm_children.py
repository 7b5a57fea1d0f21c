"""The warm-up children under way in this process, by rule set (issue 24's "one builder
per table per machine"): :mod:`yatzy.web.warmup` registers each child it starts, and the
server's table job (:mod:`yatzy.web.prepare`) waits for the child of its rules before
loading the table and kernels the child caches, rather than compile them beside it.

The child works in two stages: first the table, all the analysis in points needs (a
turn's values come from numpy until their kernel is compiled), then it says
:data:`ANALYSIS_READY` on its standard output and goes on with the kernels: a turn's
values', the win chances'.  The table job waits for the first stage only (a short
first game's analysis, hints and exact computer are there that much sooner); what
needs the win chances' kernels waits while the child runs (:func:`still_warming`).
The table jobs wait outside the one table worker (:func:`table_wait`,
:func:`warmed_wait`: the waits they register, :func:`yatzy.web.jobs.register`), so
the worker runs other table jobs meanwhile.
Its own module so that the two import it without importing each other."""

from __future__ import annotations

import functools
import logging
import os
import select
import subprocess
import threading
import time
import weakref
from collections.abc import Callable

log = logging.getLogger("yatzy.web")

WAIT_LIMIT = 900.0
"""Seconds a table job waits for a warm-up child at most (a stuck child is not
waited for longer: the job then builds what it needs itself)."""

ANALYSIS_READY = "analysis-ready"
"""The line a warm-up child writes once the table is cached (the analysis in points
needs nothing more)."""

_lock = threading.Lock()
_read_lock = threading.Lock()  # one reader of the children's output at a time
_children: dict[str, list[subprocess.Popen[bytes]]] = {}
# The children that said ANALYSIS_READY: the objects, not their ids (an ended child's
# id, reused by a later one, read as said: that one was then not waited for).
_said_ready: weakref.WeakSet[subprocess.Popen[bytes]] = weakref.WeakSet()


def warming(spec: str, child: subprocess.Popen[bytes]) -> None:
    """Record that ``child`` warms the tables and kernels of ``spec``."""
    with _lock:
        _children.setdefault(spec, []).append(child)


def wait_for_warming(spec: str, limit: float = WAIT_LIMIT) -> bool:
    """Wait while this process's warm-up child of ``spec`` builds the table (until it
    says :data:`ANALYSIS_READY` or ends; at most ``limit`` seconds); whether one was
    waited for.  The server's table job calls it before loading the table: the child
    builds it (compiling the solve kernel) into the disk cache, so the job then loads
    it rather than compile and solve the same beside it (twice the CPU on a fresh
    install, and numba's compile holds this process's interpreter lock, stalling its
    requests)."""
    with _lock:
        running = [c for c in _children.get(spec, []) if c.poll() is None and c not in _said_ready]
    deadline = time.monotonic() + limit
    for child in running:
        if not _first_stage(child, deadline):
            log.info("the warm-up of %s is still running after %.0f s", spec, limit)
    return bool(running)


def _first_stage(child: subprocess.Popen[bytes], deadline: float) -> bool:
    """Wait until ``child`` says :data:`ANALYSIS_READY` or ends (False: ``deadline``
    passed first)."""
    out = getattr(child, "stdout", None)
    if out is None:  # no word from it: its end
        try:
            child.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            return False
        return True
    fd = out.fileno()  # read unbuffered: a buffered line would hide from select
    with _read_lock:
        said = b""
        while child not in _said_ready:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            readable, _, _ = select.select([fd], [], [], left)
            if not readable:
                continue
            chunk = os.read(fd, 4096)
            if not chunk:  # it ended (or closed its output) without the word
                try:
                    child.wait(max(0.0, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    return False
                return True
            said += chunk
            lines = said.split(b"\n")
            said = lines.pop()  # an unfinished line waits for its end
            if any(ln.decode(errors="replace").strip() == ANALYSIS_READY for ln in lines):
                with _lock:
                    _said_ready.add(child)
    return True


def wait_until_warmed(spec: str, limit: float = WAIT_LIMIT) -> bool:
    """Wait while this process's warm-up child of ``spec`` runs at all (at most
    ``limit`` seconds); whether one was waited for.  The table jobs of the win chances
    call it: they use the kernels the child compiles last."""
    with _lock:
        running = [c for c in _children.get(spec, []) if c.poll() is None]
    for child in running:
        try:
            child.wait(limit)
        except subprocess.TimeoutExpired:
            log.info("the warm-up of %s is still running after %.0f s", spec, limit)
    return bool(running)


def still_warming(spec: str) -> bool:
    """Whether a warm-up child of ``spec`` still runs in this process (it compiles the
    win chances' kernels after the analysis'): the win analysis waits for it rather
    than compile them here, beside it, holding this process's interpreter lock."""
    with _lock:
        return any(c.poll() is None for c in _children.get(spec, []))


def table_wait(spec: str) -> Callable[[], object] | None:
    """The wait of a job that needs the table of ``spec`` (the strategy job's): the
    function that waits for this process's warm-up child's first stage
    (:func:`wait_for_warming`), or ``None`` when no child of ``spec`` is before it."""
    with _lock:
        before = any(c.poll() is None and c not in _said_ready for c in _children.get(spec, []))
    return functools.partial(wait_for_warming, spec) if before else None


def warmed_wait(spec: str) -> Callable[[], object] | None:
    """The wait of a job that needs the win chances' kernels of ``spec`` (the win
    tables', the winner bot's, the target tables'): the function that waits for this
    process's warm-up child's end (:func:`wait_until_warmed`), or ``None`` when none
    runs."""
    return functools.partial(wait_until_warmed, spec) if still_warming(spec) else None
