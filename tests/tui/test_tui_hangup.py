"""The full-screen game loses nothing (issue 24, terminal 1 and 2): every move is
autosaved, quitting with "do not save" deletes the autosave, a finished game's file
is renamed ``finished-…``, and a hang-up (the terminal closed) or SIGTERM saves the
game and leaves the alternate screen."""

from __future__ import annotations

import asyncio
import contextlib
import os
import select
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.tui.helpers import make_app, new_state, play_to_the_end, settle, write_box
from yatzy.cli.tui.app import YatzyApp
from yatzy.cli.tui.screens import PathScreen
from yatzy.game import load


def drive(app: YatzyApp, body: Any) -> Any:
    """Run ``app`` headless at 80x24 with ``body``; the app's return value."""

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await body(pilot, app)

    asyncio.run(main())
    return app.return_value


def test_every_move_is_autosaved_and_sigterm_saves_and_leaves(tmp_path: Path) -> None:
    auto = tmp_path / "rescue" / "unfinished-1.json"
    state = new_state("yatzy", ["Anna"])
    app = make_app(state, rescue=tmp_path / "rescue")
    app.autosave_path = str(auto)

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        assert not auto.exists()  # nothing played, nothing saved
        await pilot.press("space")
        await settle(pilot)
        assert load(str(auto)) == state
        await write_box(pilot, state.allowed_boxes()[0])
        assert load(str(auto)) == state and state.turn_number == 1
        await pilot.press("space")
        await settle(pilot)
        app.hang_up(signal.SIGTERM)
        await pilot.pause()

    assert drive(app, body) == 128 + signal.SIGTERM
    assert load(str(auto)) == state and state.dice is not None
    assert f"The unfinished game was saved to {auto}." in app.exit_lines


def test_a_hang_up_saves_even_without_autosave(tmp_path: Path) -> None:
    state = new_state("yatzy", ["Anna"])
    app = make_app(state, rescue=tmp_path / "rescue")  # autosave_path None: --no-autosave

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        await pilot.press("space")
        await settle(pilot)
        assert not (tmp_path / "rescue").exists()
        app.hang_up(signal.SIGHUP)
        await pilot.pause()

    assert drive(app, body) == 128 + signal.SIGHUP
    [saved] = list((tmp_path / "rescue").iterdir())
    assert saved.name.startswith("unfinished-") and load(str(saved)) == state


def test_quitting_without_saving_deletes_the_autosave(tmp_path: Path) -> None:
    auto = tmp_path / "rescue" / "unfinished-1.json"
    state = new_state("yatzy", ["Anna"])
    app = make_app(state, rescue=tmp_path / "rescue")
    app.autosave_path = str(auto)

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        await pilot.press("space")
        await settle(pilot)
        assert auto.exists()
        await pilot.press("q")
        await settle(pilot)
        assert isinstance(app.screen, PathScreen)
        await pilot.click("#nosave")
        await settle(pilot)

    assert drive(app, body) == 1
    assert not auto.exists()


def test_quitting_keeps_the_autosave_where_it_is(tmp_path: Path) -> None:
    auto = tmp_path / "rescue" / "unfinished-1.json"
    state = new_state("yatzy", ["Anna"])
    app = make_app(state, rescue=tmp_path / "rescue")
    app.autosave_path = str(auto)

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        await pilot.press("space")
        await settle(pilot)
        await pilot.press("q")
        await settle(pilot)
        await pilot.press("enter")  # the offered file: the autosave itself, no question
        await settle(pilot)

    assert drive(app, body) == 1
    assert [p.name for p in (tmp_path / "rescue").iterdir()] == ["unfinished-1.json"]
    assert load(str(auto)) == state


def test_a_finished_games_file_is_renamed(tmp_path: Path) -> None:
    auto = tmp_path / "rescue" / "unfinished-7.json"
    state = new_state("yatzy", ["Anna"])
    app = make_app(state, rescue=tmp_path / "rescue")
    app.autosave_path = str(auto)

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        await play_to_the_end(pilot)
        await pilot.press("q")

    drive(app, body)
    done = tmp_path / "rescue" / "finished-7.json"
    assert not auto.exists() and load(str(done)).is_terminal()
    assert f"The finished game's record is in {done}." in app.exit_lines


def _reaped(pid: int, timeout: float) -> int:
    """The wait status of child ``pid`` once it has ended; killed (and the test failed)
    when it is still running after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        time.sleep(0.05)
    raise AssertionError(f"the game (pid {pid}) did not end within {timeout:.0f} s")


def _pty_game(argv: list[str], env: dict[str, str], then: str) -> tuple[int, bytes, bytes]:
    """Start ``yatzy`` full screen in an 80x24 pseudo-terminal, roll once (Space), then
    ``then``: ``"term"`` sends SIGTERM, ``"close"`` closes the terminal (SIGHUP).  The
    exit code, the output before and the output after."""
    import fcntl
    import pty
    import re
    import struct
    import termios

    ansi = re.compile(rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]")

    pid, fd = pty.fork()
    if pid == 0:  # the child
        os.environ.update({"TERM": "xterm-256color", **env})
        os.execv(sys.executable, [sys.executable, "-m", "yatzy.cli.main", *argv])
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    out = bytearray()

    def wait_for(text: bytes) -> None:
        deadline = time.monotonic() + 60
        while text not in ansi.sub(b"", bytes(out)).replace(b"\n", b""):
            assert time.monotonic() < deadline, bytes(out[-400:])
            ready, _, _ = select.select([fd], [], [], 0.1)
            if ready:
                out.extend(os.read(fd, 65536))

    after = bytearray()
    try:
        wait_for(b"1-6 keep")
        os.write(fd, b" ")
        wait_for(b"Rolls left")  # the dice are out
        mark = len(out)
        if then == "close":
            os.close(fd)
        else:
            os.kill(pid, signal.SIGTERM)
            deadline = time.monotonic() + 60
            while True:  # until the game closes its terminal (a bounded wait)
                assert time.monotonic() < deadline, bytes(out[-400:])
                ready, _, _ = select.select([fd], [], [], 1)
                if not ready and time.monotonic() < deadline:
                    continue
                try:
                    chunk = os.read(fd, 65536) if ready else b""
                except OSError:
                    chunk = b""
                if not chunk:
                    break
                out.extend(chunk)
            after = out[mark:]
            os.close(fd)
        # Generous: on a loaded two-core machine (CI, its browsers and servers beside it)
        # the game once took over 60 s to save and leave after its terminal closed;
        # alone it takes under 2 s.  A game that never ends still fails, after 240 s.
        status = _reaped(pid, 240)
    except BaseException:
        with contextlib.suppress(ProcessLookupError, ChildProcessError):
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        raise
    return os.waitstatus_to_exitcode(status), bytes(out[:mark]), bytes(after)


@pytest.mark.slow
@pytest.mark.parametrize("then", ["term", "close"])
def test_sigterm_or_a_closed_terminal_in_a_real_terminal(tmp_path: Path, then: str) -> None:
    env = {"XDG_STATE_HOME": str(tmp_path / "state")}
    argv = ["play", "--seed", "4", "--no-autosave", "Anna"]
    code, before, after = _pty_game(argv, env, then)
    assert code == 128 + (signal.SIGTERM if then == "term" else signal.SIGHUP)
    [saved] = list((tmp_path / "state" / "yatzy").iterdir())
    assert load(str(saved)).dice is not None
    if then == "term":
        assert b"\x1b[?1049h" in before  # the game ran in the alternate screen ...
        assert b"\x1b[?1049l" in after  # ... and left it
        assert b"--resume" in after


def test_work_that_ends_after_the_app_leaves_nothing_behind(tmp_path: Path) -> None:
    """A background result (a bot's move, a hint) that comes after the app has stopped
    is dropped: nothing runs, no error, and no coroutine is left unawaited (Textual's
    ``call_from_thread`` on a stopped app once left one: a RuntimeWarning at the end of
    a test run)."""
    import gc
    import threading
    import warnings

    release = threading.Event()
    handed: list[object] = []

    def task() -> str:
        release.wait(10)
        return "late"

    def done(result: object) -> None:
        handed.append(result)

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        app._in_background(task, done)

    app = make_app(new_state("yatzy", ["Ann"]), rescue=tmp_path / "rescue")
    drive(app, body)
    assert not app.is_running
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        release.set()
        for thread in threading.enumerate():
            if thread.name == "yatzy-think":
                thread.join(10)
        gc.collect()
    assert handed == []
    assert [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)] == []
