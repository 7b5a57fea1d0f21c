"""Helpers of the web tests: live server processes, and a simple player that picks its
actions from the server's view (never from its own rules).  PostgreSQL test databases
come from tests/postgres.py (re-exported here for the tests that import them from here).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx

from tests import zygote
from tests.helpers import eventually
from tests.postgres import pg_or_skip, postgres_database

__all__ = ["YATZY", "Server", "free_port", "next_action", "pg_or_skip", "postgres_database"]

YATZY = str(Path(sys.executable).with_name("yatzy"))


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


LIVE_WIN_BUDGET = 0.005
"""CPU seconds of one live win-chance update in the tests' servers and shared apps
(the product's default is 0.2; see :data:`LIVE_DEFAULTS`)."""

LIVE_DEFAULTS = (
    *("--limit-create", "0", "--limit-actions", "0"),
    *("--win-budget", str(LIVE_WIN_BUDGET)),
)
"""Options every live server of the tests starts with, before the test's own ``args``
(which may set them again):

- no limit on the games created and the actions sent from one address.  Every test's
  browser and client is 127.0.0.1, and a browser module creates and plays its games
  faster than a person (in chromium's headless shell a module once passed the 30 games
  a minute of ``--limit-create``'s default).  The limits themselves are tested in
  tests/web (test_web_hostile.py, test_web_limits.py and the live servers of
  test_web_logs.py and test_web_shared_limits.py, which set them);
- live win chances sampled for 0.005 CPU-s an update, not 0.2 (and a finished game's
  win analysis for 0.005 a position): every version of every game with two seats or
  more is computed while a page shows it, and the sampler spends its whole budget.
  At 0.2 the browser modules' servers spent about 90 CPU-s sampling (py-spy), the
  most of any of their work; at 0.02 the in-process apps of tests/web still spent
  about 40 CPU-s of their 200 in the sampling kernel (tests/web: 216 -> 204 CPU-s at
  0.005).  The answer is the same kind, less precise; the analyses' and the chances'
  own tests (tests/web/test_web_ahead.py, test_web_win_analysis.py,
  tests/strategy/test_win_chance.py, tests/web/test_web_chances.py) keep their
  budgets."""


class Server:
    """``yatzy serve`` in a child process (its own process group, killed at the end);
    ``args`` are further options of ``yatzy serve`` (after :data:`LIVE_DEFAULTS`)."""

    def __init__(
        self,
        database_url: str,
        *,
        bot_delay: float = 0.0,
        undo_grace: float = 0.0,
        port: int | None = None,
        log: Path | None = None,
        args: Sequence[str] = (),
        root_path: str = "",
    ) -> None:
        self.database_url = database_url
        self.args = list(args)
        self.root_path = root_path
        self.port = port or free_port()
        self.bot_delay = bot_delay
        self.undo_grace = undo_grace
        self.log = log
        self.proc: zygote.Forked | subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The server's base URL."""
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 120.0) -> Server:
        """Start and wait until the API answers (the deadline is generous: a loaded
        machine takes seconds to import the app)."""
        self.proc = zygote.start(
            YATZY,
            [
                "serve",
                "--port",
                str(self.port),
                "--database-url",
                self.database_url,
                "--bot-delay",
                str(self.bot_delay),
                "--undo-grace",
                str(self.undo_grace),
                "--log-level",
                "warning",
                *LIVE_DEFAULTS,
                *self.args,
                *(["--root-path", self.root_path] if self.root_path else []),
            ],
            log=self.log,
        )
        proc = self.proc

        def answers() -> bool:
            if proc.poll() is not None:
                raise RuntimeError(f"server exited with {proc.returncode}")
            try:
                # verify=False: plain HTTP on loopback; otherwise every probe (ten a
                # second while the server starts) loads the CA bundle, 23 ms of CPU each
                # (py-spy: about 60 CPU-s of one tests/web run)
                probe = httpx.get(self.url + "/api/rules", timeout=5, verify=False)
                return probe.status_code == 200
            except httpx.HTTPError:
                return False

        try:
            eventually(answers, timeout=timeout, interval=0.1, what="the server's start")
        except AssertionError:
            self.stop()
            raise RuntimeError("server did not start") from None
        return self

    def kill9(self) -> None:
        """Kill the server at once (SIGKILL), as a crash would."""
        assert self.proc is not None
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL), its worker processes included: what
        is left of its process group is killed even when the server itself has ended."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill9()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)  # workers orphaned by a crash

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def served(tmp_path_factory: Any, name: str, **kw: Any) -> Iterator[Server]:
    """A ``yatzy serve`` on a fresh SQLite database in a folder of its own (its log
    beside it), for a module's ``server`` fixture to yield from."""
    folder: Path = tmp_path_factory.mktemp(name)
    with Server(f"sqlite:///{folder / 'e2e.db'}", log=folder / "server.log", **kw) as s:
        yield s


# -- a player that reads everything from the server's view ---------------------------------


def next_action(view: dict[str, Any], rolls_wanted: int = 2) -> dict[str, Any]:
    """A sensible action for the player to act: roll up to ``rolls_wanted`` times, then
    write the box the server previews as best (DubbelYatzy: the two best boxes)."""
    turn = view["turn"]
    assert turn is not None
    if view["pad"]:
        if turn["dice"] is None:
            n = view["num_dice"]
            return {"dice": [[6, 5]] * n if view["double"] else [6] * n}
    elif turn["dice"] is None or (turn["rolls_left"] > 0 and turn["rolls_used"] < rolls_wanted):
        return {"roll": []}
    preview = {b: p for b, p in turn["preview"].items() if b in turn["allowed"]}
    if not view["double"]:
        return {"score": max(preview, key=lambda b: (preview[b], b))}
    boxes = sorted(preview, key=lambda b: -max(preview[b]))
    inner = max(preview, key=lambda b: preview[b][0])
    outer = max((b for b in boxes if b != inner), key=lambda b: preview[b][1])
    return {"inner": {"score": inner}, "outer": {"score": outer}}
