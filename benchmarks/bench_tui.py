"""Measure the full-screen game's start: ``yatzy play`` in a pseudo-terminal until
its first screen is drawn (goal < 1 s).

Each run starts a fresh ``python -m yatzy.cli.main play`` process in a pty of the
given size (so the full-screen mode is chosen, as at a real terminal), reads its
output until the last line of the screen (the key legend) has been drawn, notes
the time, presses Space and waits for the dice, then ends the process.  Prints
every time and the median, and the median time from Space to the dice on screen.

Run: ``.venv/bin/python benchmarks/bench_tui.py [--runs 7] [--size 80x24]``.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import re
import select
import signal
import statistics
import struct
import sys
import tempfile
import termios
import time

_ANSI = re.compile(rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]")


def _plain(data: bytes) -> str:
    """The text of terminal output, escape sequences removed."""
    return _ANSI.sub(b"", data).decode("utf-8", "replace")


def _read_until(fd: int, pattern: str, start: float, out: bytearray, limit: float = 20.0) -> float:
    """Read from ``fd`` until ``pattern`` shows in the text; seconds since ``start``."""
    while True:
        if time.perf_counter() - start > limit:
            tail = _plain(bytes(out))[-300:]
            raise TimeoutError(f"no {pattern!r} within {limit} s; got {tail!r}")
        ready, _, _ = select.select([fd], [], [], 0.05)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            raise TimeoutError(f"the game ended before {pattern!r}") from None
        out += chunk
        if pattern in _plain(bytes(out)).replace("\n", ""):
            return time.perf_counter() - start


def run_once(cols: int, rows: int, state_home: str) -> tuple[float, float]:
    """One start: seconds to the first screen and from Space to the dice on it."""
    argv = [sys.executable, "-m", "yatzy.cli.main", "play", "--seed", "1", "Anna"]
    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:  # the child: the game, in the pty
        os.environ.update({"TERM": "xterm-256color", "XDG_STATE_HOME": state_home})
        os.execv(sys.executable, argv)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    out = bytearray()
    try:
        first = _read_until(fd, "1-6 keep", start, out)
        out.clear()
        pressed = time.perf_counter()
        os.write(fd, b" ")
        rolled = _read_until(fd, "Rolls left", pressed, out)
    finally:
        os.kill(pid, signal.SIGTERM)
        os.waitpid(pid, 0)
        os.close(fd)
    return first, rolled


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--size", default="80x24", help="terminal COLSxROWS (default 80x24)")
    args = parser.parse_args()
    cols, rows = (int(x) for x in args.size.split("x"))
    firsts, rolls = [], []
    with tempfile.TemporaryDirectory() as state_home:
        for _ in range(args.runs):
            first, rolled = run_once(cols, rows, state_home)
            firsts.append(first)
            rolls.append(rolled)
    shown = ", ".join(f"{t:.2f}" for t in firsts)
    print(f"start to first screen at {cols}x{rows}: {shown} s")
    print(f"  median {statistics.median(firsts):.3f} s (goal < 1 s)")
    print(f"Space to the dice on screen: median {statistics.median(rolls) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
