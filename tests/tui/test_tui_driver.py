"""A terminal that hangs up under the full-screen game (issue 24, terminal 1): the game
is saved and the process ends, whatever the order in which the hang-up shows.

After a hang-up every write to the terminal fails with ``EIO``.  Textual's output
thread dies at the first failure and its queue of 30 writes then blocks the app for
good: under load, where the hang-up signal was handled late, a closed game stayed
running, its record unsaved (CI's closed-terminal test, once in a loaded run)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import pty
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest
from textual.drivers._writer_thread import MAX_QUEUED_WRITES, WriterThread

from tests.tui.helpers import new_state
from yatzy.cli import tui
from yatzy.cli.tui.driver import ClosedTerminalTolerant, SafeLinuxDriver
from yatzy.game import Roll, load


@contextlib.contextmanager
def hung_up_terminal() -> Iterator[IO[str]]:
    """A terminal (the slave side of a pseudo-terminal) whose other side has closed:
    every write to it fails with EIO, as after a closed window or a dropped ssh."""
    master, slave = pty.openpty()
    os.close(master)
    file = os.fdopen(slave, "w", encoding="utf-8")
    try:
        yield file
    finally:
        with contextlib.suppress(OSError):
            file.close()


def _writes_finish(writer: WriterThread, count: int, within: float = 10) -> bool:
    """Whether ``count`` writes and a stop go through ``writer`` within ``within`` s (the first
    alone, and the others once the thread has met the closed terminal)."""

    def write_all() -> None:
        writer.write("\x1b[?1049h")
        time.sleep(0.3)
        for n in range(count):
            writer.write(f"frame {n}\n")
        writer.stop()

    worker = threading.Thread(target=write_all, daemon=True)
    worker.start()
    worker.join(within)
    return not worker.is_alive()


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_textuals_own_output_thread_blocks_the_app_after_a_hang_up() -> None:
    # Why the driver exists: with the terminal's file as it is, the writes after the
    # queue's 30 never return (the thread that would take them died at the first EIO).
    with hung_up_terminal() as terminal:
        writer = WriterThread(terminal)
        writer.start()
        assert not _writes_finish(writer, MAX_QUEUED_WRITES + 20, within=3)


def test_the_tolerant_file_keeps_the_output_thread_emptying_its_queue() -> None:
    closed: list[bool] = []
    with hung_up_terminal() as terminal:
        tolerant = ClosedTerminalTolerant(terminal, lambda: closed.append(True))
        writer = WriterThread(tolerant)  # type: ignore[arg-type]
        writer.start()
        assert _writes_finish(writer, 10 * MAX_QUEUED_WRITES)
    assert tolerant.closed_terminal and closed == [True]  # said once, not per write


def test_a_failed_write_tells_the_app_its_terminal_hung_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # No signal at all (it may come late, or never): the first failed write is enough.
    class App:
        def __init__(self) -> None:
            self.said: list[int] = []

        def hang_up(self, signum: int) -> None:
            self.said.append(signum)

    app = App()

    async def main(terminal: IO[str]) -> None:
        before = {sig: signal.getsignal(sig) for sig in (signal.SIGTSTP, signal.SIGCONT)}
        try:
            driver = SafeLinuxDriver(app)  # type: ignore[arg-type]
        finally:
            for sig, handler in before.items():
                signal.signal(sig, handler)
        driver._file.write("\x1b[?1049h")
        driver._file.flush()
        for _ in range(3):
            await asyncio.sleep(0)

    with hung_up_terminal() as terminal:
        monkeypatch.setattr("sys.__stderr__", terminal)
        asyncio.run(main(terminal))
    assert app.said == [signal.SIGHUP]


def _driver_on(fd: int, app: Any) -> SafeLinuxDriver:
    """A :class:`SafeLinuxDriver` of ``app`` watching terminal ``fd`` (made on the
    running loop, Textual's own signal handlers put back)."""
    before = {sig: signal.getsignal(sig) for sig in (signal.SIGTSTP, signal.SIGCONT)}
    try:
        driver = SafeLinuxDriver(app)
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)
    driver.fileno = fd
    driver._stop_watching = threading.Event()
    return driver


def _watching(fd: int, app: Any) -> tuple[SafeLinuxDriver, threading.Thread]:
    """A driver of ``app`` on terminal ``fd`` and its hang-up watcher, started."""
    driver = _driver_on(fd, app)
    watcher = threading.Thread(target=driver._watch_for_hang_up, daemon=True)
    watcher.start()
    return driver, watcher


class _HangUpApp:
    def __init__(self) -> None:
        self.said: list[int] = []

    def hang_up(self, signum: int) -> None:
        self.said.append(signum)


def test_the_watcher_sees_a_hang_up_while_nothing_is_written() -> None:
    # A game waiting for a key writes nothing: the watcher polls the terminal for its
    # hang-up (reading no input) and tells the app.
    app = _HangUpApp()
    master, slave = pty.openpty()

    async def main() -> None:
        _driver, watcher = _watching(slave, app)
        await asyncio.sleep(0.3)
        assert app.said == [] and watcher.is_alive()  # the terminal is there: nothing
        os.close(master)  # the window closes
        for _ in range(100):
            await asyncio.sleep(0.05)
            if app.said:
                break
        watcher.join(5)
        assert not watcher.is_alive()

    try:
        asyncio.run(main())
    finally:
        os.close(slave)
    assert app.said == [signal.SIGHUP]


def test_the_watcher_stops_with_the_app() -> None:
    app = _HangUpApp()
    master, slave = pty.openpty()

    async def main() -> None:
        driver, watcher = _watching(slave, app)
        driver._stop_watching.set()  # what stop_application_mode does
        watcher.join(5)
        assert not watcher.is_alive()

    try:
        asyncio.run(main())
    finally:
        os.close(master)
        os.close(slave)
    assert app.said == []


def test_the_last_resort_saves_a_stuck_games_record_and_ends_the_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.tui.helpers import make_app

    state = new_state("yatzy", ["Anna"])
    state.apply(Roll())
    app = make_app(state, rescue=tmp_path / "rescue")
    ended: list[int] = []
    monkeypatch.setattr(tui, "HANGUP_GRACE_SECONDS", 0.05)
    monkeypatch.setattr(tui.os, "_exit", ended.append)
    monkeypatch.setattr(tui.os, "write", lambda fd, data: len(data))
    tui._last_resort(app, signal.SIGHUP, threading.Event())  # the app never ended
    assert ended == [128 + signal.SIGHUP]
    [saved] = list((tmp_path / "rescue").iterdir())
    assert load(str(saved)) == state


def test_the_last_resort_does_nothing_once_the_app_has_ended(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.tui.helpers import make_app

    app = make_app(new_state("yatzy", ["Anna"]), rescue=tmp_path / "rescue")
    done = threading.Event()
    done.set()
    ended: list[Any] = []
    monkeypatch.setattr(tui.os, "_exit", ended.append)
    tui._last_resort(app, signal.SIGTERM, done)
    assert ended == [] and not (tmp_path / "rescue").exists()
