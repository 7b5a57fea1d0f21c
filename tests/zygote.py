"""``yatzy`` commands started by forking a process that has imported them already.

A ``yatzy serve`` started anew spends about 1.7 CPU-seconds before it answers, most
of it importing the web app, its libraries and the migrations (FastAPI, SQLAlchemy,
alembic, uvicorn, cryptography): the suite starts about a hundred servers, so a
fifth of its CPU went to importing the same modules again.  Each test process
(an xdist worker) starts one *zygote* (the word of Android's app starter; gunicorn's
``--preload`` is the same idea): a child that imports what a server imports, once,
and then forks a process per command asked of it.  The forked process runs the
command line's own :func:`yatzy.cli.main.main` with the command's words, in its
own session, working folder, environment and log, exactly as the ``yatzy``
program would; only the imports are shared.

The test side is :func:`start`, which returns a :class:`Forked`, the part of
:class:`subprocess.Popen` the tests use (``pid``, ``poll``, ``wait``, ``returncode``).
The forked process is the zygote's child, not the test's: the test waits for its end
through a pidfd and asks the zygote, which reaps it, for its exit code.

``YATZY_TEST_FORK=0`` switches this off (every command is ``exec``'d as before); so
does a zygote that fails to start.  The commands whose own start-up is under test (the
command line's start-up time and imports, tests/cli/test_cli_startup.py) never come
through here: they run the program.

Run as ``python -m tests.zygote``: requests are JSON lines on standard input, answers
JSON lines on standard output.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import select
import subprocess
import sys
import threading
import types
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

FORK_ENV = "YATZY_TEST_FORK"
"""``0``: no zygote; every command is ``exec``'d."""

PRELOAD = (
    "yatzy.cli.main",
    "yatzy.web.serve",
    "yatzy.web.app",
    "yatzy.web.logs",
    "yatzy.web.worker",
    "yatzy.store.migrate",
    "alembic.command",
    "alembic.config",
    "alembic.runtime.migration",
    "alembic.runtime.environment",
    "alembic.operations",
    "alembic.autogenerate",
    "sqlalchemy.dialects.sqlite",
    "sqlalchemy.dialects.postgresql",
    "argon2",
    "py_vapid",
    "pywebpush",
    "cryptography.hazmat.primitives.asymmetric.ec",
    "cryptography.hazmat.backends.openssl",
    "uvicorn.main",
    "uvicorn.config",
    "uvicorn.server",
    "uvicorn.lifespan.on",
    "uvicorn.loops.auto",
    "uvicorn.loops.uvloop",
    "uvicorn.protocols.http.h11_impl",
    "uvicorn.protocols.http.httptools_impl",
    "uvicorn.protocols.websockets.websockets_sansio_impl",
    "uvloop",
)
"""What the zygote imports before it forks (a ``yatzy serve``'s modules, measured:
about 1,000 of them); a module missing here is imported by the command itself."""


# -- the zygote ---------------------------------------------------------------------------


def _preload() -> None:
    import gc

    for name in PRELOAD:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)
    # The entry points the command line reads at each start (importlib.metadata).
    from yatzy.cli.main import registered_commands

    registered_commands()
    gc.collect()
    gc.freeze()  # the forked commands' collectors never walk (and copy) these pages


def _child(request: Mapping[str, Any], keep: Sequence[int], started: int) -> None:
    """In the forked process: become the command and run it; never returns.  Closing
    ``started`` tells the zygote it is in a session of its own (as ``Popen`` returns
    only once its child has called ``setsid``)."""
    code = 1
    try:
        os.setsid()
        os.close(started)
        for fd in keep:
            os.close(fd)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        null = os.open(os.devnull, os.O_RDWR)
        log = request.get("log")
        out = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644) if log else null
        os.dup2(null, 0)
        os.dup2(out, 1)
        os.dup2(out, 2)
        import random

        random.seed()  # the zygote's state is every child's otherwise
        program = request["program"]
        main_module = types.ModuleType("__main__")
        main_module.__file__ = program  # as the program's: multiprocessing's spawn reads it
        sys.modules["__main__"] = main_module
        sys.argv = [program, *request["argv"]]
        from yatzy.cli.main import main

        try:
            code = main(request["argv"])
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:
        import traceback

        traceback.print_exc()
    finally:
        with contextlib.suppress(BaseException):
            import atexit

            atexit._run_exitfuncs()
        with contextlib.suppress(BaseException):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


def serve() -> None:
    """The zygote's loop: a request per line on standard input until it closes."""
    requests = os.fdopen(os.dup(0), "r")
    answers = os.fdopen(os.dup(1), "w")
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    os.dup2(2, 1)  # stray prints go to the zygote's log, not into the answers
    _preload()
    codes: dict[int, int] = {}

    def reap(pid: int | None = None) -> None:
        if pid is not None and pid not in codes:
            with contextlib.suppress(ChildProcessError):
                _, status = os.waitpid(pid, 0)
                codes[pid] = os.waitstatus_to_exitcode(status)
        while True:
            try:
                done, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if done == 0:
                return
            codes[done] = os.waitstatus_to_exitcode(status)

    for line in requests:
        request = json.loads(line)
        if request["op"] == "ping":
            answer: dict[str, Any] = {}
        elif request["op"] == "start":
            sys.stdout.flush()
            sys.stderr.flush()
            ready, started = os.pipe()
            pid = os.fork()
            if pid == 0:
                _child(request, (requests.fileno(), answers.fileno(), ready), started)
            os.close(started)
            os.read(ready, 1)  # the end of the pipe: the child has its session
            os.close(ready)
            answer = {"pid": pid}
        else:  # "code": the exit code of a child known to have ended
            reap(request["pid"])  # and any other that has ended (kept until asked for)
            answer = {"code": codes.pop(request["pid"], None)}
        answers.write(json.dumps(answer) + "\n")
        answers.flush()


# -- the test's side ----------------------------------------------------------------------


class Forked:
    """A command forked by the zygote: the part of :class:`subprocess.Popen` the tests
    use."""

    def __init__(self, zygote: _Zygote, pid: int, args: list[str]) -> None:
        self.args = args
        self.pid = pid
        self.returncode: int | None = None
        self._zygote = zygote
        try:
            self._pidfd = os.pidfd_open(pid)
        except ProcessLookupError:  # ended and reaped already (another thread's request)
            self._pidfd = -1
            self.returncode = zygote.exit_code(pid)

    def _ended(self, timeout: float | None) -> bool:
        if self.returncode is not None:
            return True
        readable, _, _ = select.select([self._pidfd], [], [], timeout)
        if not readable:
            return False
        self.returncode = self._zygote.exit_code(self.pid)
        os.close(self._pidfd)
        return True

    def poll(self) -> int | None:
        """The exit code, or ``None`` while the command runs."""
        self._ended(0)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Wait for the end (``subprocess.TimeoutExpired`` after ``timeout`` seconds)."""
        if not self._ended(timeout):
            raise subprocess.TimeoutExpired(self.args, timeout or 0)
        assert self.returncode is not None
        return self.returncode


class _Zygote:
    """The test process's connection to its zygote."""

    def __init__(self) -> None:
        from tests.conftest import ROOT, RUN  # here: the zygote's own process needs none

        with open(RUN / f"zygote-{os.getpid()}.log", "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "tests.zygote"],
                cwd=ROOT,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
                text=True,
            )
        self.lock = threading.Lock()

    def ask(self, request: Mapping[str, Any]) -> Any:
        with self.lock:
            stdin, stdout = self.proc.stdin, self.proc.stdout
            assert stdin is not None and stdout is not None
            stdin.write(json.dumps(request) + "\n")
            stdin.flush()
            line = stdout.readline()
        if not line:
            raise RuntimeError(f"the zygote ended (exit {self.proc.poll()})")
        return json.loads(line)

    def exit_code(self, pid: int) -> int:
        code = self.ask({"op": "code", "pid": pid})["code"]
        if code is None:
            raise RuntimeError(f"the zygote knows no exit code of process {pid}")
        return int(code)


_zygote: _Zygote | None = None
_broken = False
_starting = threading.Lock()


def _the_zygote() -> _Zygote | None:
    global _zygote, _broken
    with _starting:
        if _zygote is None and not _broken:
            try:
                _zygote = _Zygote()
                _zygote.ask({"op": "ping"})  # answers once it has imported
            except (OSError, RuntimeError, ValueError):
                _broken = True
                _zygote = None
        return _zygote


def start(
    program: str,
    argv: Sequence[str],
    *,
    log: Path | None = None,
    env: Mapping[str, str] | None = None,
) -> Forked | subprocess.Popen[bytes]:
    """Start ``program`` (the ``yatzy`` command) with ``argv`` in a session of its own,
    its output appended to ``log`` (or discarded), in ``env`` (default: this process's
    environment): forked by this process's zygote, or ``exec``'d where there is none
    (``YATZY_TEST_FORK=0``)."""
    zygote = None if os.environ.get(FORK_ENV, "").strip() == "0" else _the_zygote()
    if zygote is None:
        out: IO[bytes] | int = open(log, "ab") if log else subprocess.DEVNULL  # noqa: SIM115
        return subprocess.Popen(
            [program, *argv], stdout=out, stderr=out, start_new_session=True, env=env
        )
    request = {
        "op": "start",
        "program": program,
        "argv": list(argv),
        "cwd": os.getcwd(),
        "env": dict(os.environ if env is None else env),
        "log": str(log) if log else None,
    }
    return Forked(zygote, int(zygote.ask(request)["pid"]), [program, *argv])


if __name__ == "__main__":
    serve()
