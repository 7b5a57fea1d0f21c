"""PostgreSQL for the tests: the server on 127.0.0.1:5432 when it answers, else a
throwaway cluster of this test process, made with the Debian ``postgresql`` package's
``initdb`` and ``pg_ctl`` (scripts/test installs it) and removed when the session ends.

``YATZY_TEST_PG`` names the administrator URL to use as is (it must answer);
``YATZY_TEST_PG_THROWAWAY=1`` starts a throwaway cluster even when 5432 answers (the
way to test this path on a machine that runs a server).  Every test that needs
PostgreSQL calls :func:`admin_url` (through ``postgres_database``), so a run that
selects no such test starts nothing.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/test"
PG_ENV = "YATZY_TEST_PG"
THROWAWAY_ENV = "YATZY_TEST_PG_THROWAWAY"


class ThrowawayError(RuntimeError):
    """No throwaway cluster could be started (the message says which step failed)."""


def _connect(url: str, timeout: int = 5) -> Any:
    import psycopg

    return psycopg.connect(url, autocommit=True, connect_timeout=timeout)


def _answers(url: str) -> bool:
    try:
        with _connect(url, timeout=3):
            return True
    except Exception:
        return False


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _pg_bin(tool: str) -> str:
    """``tool`` of the newest PostgreSQL that Debian installed (its tools are not on PATH)."""
    found = sorted(
        Path("/usr/lib/postgresql").glob(f"*/bin/{tool}"), key=lambda p: int(p.parts[-3])
    )
    if found:
        return str(found[-1])
    on_path = shutil.which(tool)
    if on_path:
        return on_path
    raise ThrowawayError(
        f"no {tool!r} found: install the Debian package postgresql (scripts/test does)"
    )


class Throwaway:
    """A PostgreSQL cluster in a temporary folder on a free port, trust authentication
    on 127.0.0.1 only.  PostgreSQL refuses to run as root, so under root (CI, containers)
    it runs as the ``postgres`` user that the Debian package creates."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="yatzy-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.started = False

    def _run(self, *cmd: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        done = subprocess.run(
            [*prefix, *cmd], capture_output=True, text=True, timeout=300, check=False
        )
        if done.returncode != 0:
            raise ThrowawayError(
                f"{Path(cmd[0]).name} failed ({done.returncode}): {done.stderr or done.stdout}"
            )

    def start(self) -> str:
        """Make and start the cluster; its administrator URL."""
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres", "postgres")
        # Durability is of no use to a cluster thrown away at the end: no fsync.
        self._run(
            _pg_bin("initdb"),
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
            "--no-instructions",
        )
        options = (
            f"-c listen_addresses=127.0.0.1 -p {self.port} "
            f"-c unix_socket_directories={self.root} "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
            "-c max_connections=200"
        )
        self._run(
            _pg_bin("pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.root / "server.log"),
            "-w",
            "-t",
            "120",
            "start",
        )
        self.started = True
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def stop(self) -> None:
        """Stop the cluster at once and remove its folder."""
        if self.started:
            with contextlib.suppress(ThrowawayError, subprocess.TimeoutExpired):
                self._run(_pg_bin("pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
            self.started = False
        shutil.rmtree(self.root, ignore_errors=True)


_url: str | None = None
_throwaway: Throwaway | None = None


def admin_url() -> str:
    """The administrator URL of this process's PostgreSQL (a database it may create
    databases from), starting a throwaway cluster on first use when none answers."""
    global _url, _throwaway
    if _url is not None:
        return _url
    given = os.environ.get(PG_ENV)
    if given:
        _url = given
    elif os.environ.get(THROWAWAY_ENV) != "1" and _answers(DEFAULT_URL):
        _url = DEFAULT_URL
    else:
        _throwaway = Throwaway()
        try:
            _url = _throwaway.start()
        except BaseException:
            _throwaway.stop()
            _throwaway = None
            raise
    return _url


def stop() -> None:
    """Drop this process's migrated template and stop its throwaway cluster, if it made
    them (end of the session)."""
    global _url, _throwaway, _template
    if _template is not None and _url is not None:
        with contextlib.suppress(Exception), _connect(_url) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{_template}" WITH (FORCE)')
    _template = None
    if _throwaway is not None:
        _throwaway.stop()
        _throwaway = None
        _url = None


def pg_or_skip() -> None:
    """Fail (not skip) when no PostgreSQL answers and none can be started: CI has the
    Debian package and the tests must run there."""
    import pytest  # here: benchmarks/ and docs/ import the web tests' helpers without it

    try:
        url = admin_url()
        with _connect(url):
            pass
    except Exception as exc:  # pragma: no cover - environment problem
        pytest.fail(f"PostgreSQL is needed by the web tests: {exc}")


LOCK_TIMEOUT = "120s"
"""How long a statement in a test database waits for a lock (PostgreSQL's default is
for ever)."""


_template: str | None = None


def _migrated_template(admin: str) -> str:
    """The name of this process's database migrated to the store's newest revision, made
    on first use: :func:`postgres_database` clones it (``CREATE DATABASE ... TEMPLATE``,
    a file copy) instead of running every migration again in each module's database.
    Nothing stays connected to it (PostgreSQL clones only an idle database)."""
    global _template
    if _template is None:
        from yatzy.store.db import make_engine, migrate

        name = f"yatzy_template_{os.getpid()}_{uuid.uuid4().hex[:8]}"
        with _connect(admin) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        engine = make_engine(f"{admin.rsplit('/', 1)[0]}/{name}")
        try:
            migrate(engine)
        finally:
            engine.dispose()
        _template = name
    return _template


@contextlib.contextmanager
def postgres_database(*, migrated: bool = False) -> Iterator[str]:
    """A fresh PostgreSQL database of its own (safe under ``pytest -n``); dropped after.

    ``migrated``: a copy of a database already at the store's newest revision (for the
    tests of what runs on the schema; an app's migration on start then finds nothing to
    do).  Without it the database is empty, as a new installation's, for the tests of
    the migrations and of a server's first start."""
    admin = admin_url()
    name = f"yatzy_test_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    with _connect(admin) as conn:
        if migrated:
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{_migrated_template(admin)}"')
        else:
            conn.execute(f'CREATE DATABASE "{name}"')
        # A lock that is never released (a connection left in a transaction) fails
        # the waiting statement after two minutes instead of hanging the test.
        conn.execute(f"ALTER DATABASE \"{name}\" SET lock_timeout = '{LOCK_TIMEOUT}'")
    base = admin.rsplit("/", 1)[0]
    try:
        yield f"{base}/{name}"
    finally:
        with _connect(admin) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
