"""The tests' zygote (tests/zygote.py): a forked ``yatzy`` command behaves as the program
would, in its own session, folder, environment and log, with its exit code."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import pytest

from tests import zygote
from tests.e2e.support import YATZY, free_port


@pytest.fixture(autouse=True)
def _forked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(zygote.FORK_ENV, raising=False)


def _run(argv: list[str], log: Path, **kw: object) -> zygote.Forked:
    proc = zygote.start(YATZY, argv, log=log, **kw)  # type: ignore[arg-type]
    assert isinstance(proc, zygote.Forked), "the zygote did not start (see its log)"
    return proc


def test_a_command_writes_its_log_and_exits_0(tmp_path: Path) -> None:
    log = tmp_path / "score.log"
    proc = _run(["score", "--json", "yatzy", "3", "3", "3", "6", "6"], log)
    assert proc.wait(60) == 0 and proc.returncode == 0 and proc.poll() == 0
    assert '"full_house": 21' in log.read_text()


def test_bad_input_exits_2_with_its_line(tmp_path: Path) -> None:
    log = tmp_path / "bad.log"
    assert _run(["score", "yatzy", "7"], log).wait(60) == 2
    assert log.read_text().startswith("yatzy: error:")


def test_the_environment_and_folder_are_the_test_s(tmp_path: Path) -> None:
    # The cache folder comes from the environment given at the start (not the zygote's),
    # and a relative output path from the working folder of that moment.
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "elsewhere")}
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        cache = _run(["cache"], tmp_path / "cache.log", env=env)
        protocol = _run(["protocol", "yatzy", "-o", "protocol.pdf"], tmp_path / "p.log")
    finally:
        os.chdir(cwd)
    assert cache.wait(60) == 0 and protocol.wait(60) == 0, (tmp_path / "p.log").read_text()
    assert str(tmp_path / "elsewhere" / "yatzy" / "solver") in (tmp_path / "cache.log").read_text()
    assert (tmp_path / "protocol.pdf").stat().st_size > 0


def test_a_process_of_its_own_session_killed_by_its_group(tmp_path: Path) -> None:
    server = _run(
        ["serve", "--port", str(free_port()), "--database-url", f"sqlite:///{tmp_path / 'x.db'}"],
        tmp_path / "s.log",
    )
    assert os.getsid(server.pid) == server.pid  # its own session, as start_new_session
    assert server.poll() is None
    with pytest.raises(subprocess.TimeoutExpired):
        server.wait(0.1)
    os.killpg(server.pid, signal.SIGKILL)
    assert server.wait(60) == -signal.SIGKILL
