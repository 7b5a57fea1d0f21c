"""Helpers of the full-screen game's tests: build an app, wait for it, play turns by keys."""

from __future__ import annotations

import io
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from textual.pilot import Pilot

from tests.helpers import DEFAULT_TIMEOUT, scaled
from yatzy.bots import make_bot
from yatzy.cli.tui.app import YatzyApp
from yatzy.cli.tui.keymap import box_letter
from yatzy.cli.tui.screens import ConfirmScreen
from yatzy.game import Game, Player, State
from yatzy.rules import Language, RuleSet


def new_state(
    spec: str, people: list[str], bots: tuple[str, ...] = (), starter: int | None = None
) -> State:
    """A new game of ``spec``: the people, then bots named by their level (a roll-off
    for the start unless ``starter`` is given)."""
    players = [Player(n) for n in people] + [Player(b.capitalize(), b) for b in bots]
    return Game(RuleSet.parse(spec), players).new_initial_state(starter)


def make_app(
    state: State,
    *,
    lang: Language = "en",
    seed: int = 1,
    save_path: str | None = None,
    rescue: Path | None = None,
    bot_delay: float = 0.0,
    record: int | None = None,
    record_lookup: Callable[[], int | None] | None = None,
    chances: Callable[[State], Any] | None = None,
    grace: float = 0.0,
) -> YatzyApp:
    """The app over ``state`` with seeded dice and bots (a bot per seat with a level);
    ``chances`` computes the row of live chances to win (none by default); ``grace``
    seconds a bot waits after a person's write (none by default, so scripted turns
    run straight on)."""
    bots = {i: make_bot(p.bot) for i, p in enumerate(state.players) if p.bot}
    return YatzyApp(
        state,
        record=record,
        record_lookup=record_lookup,
        lang=lang,
        rng=random.Random(seed),
        bots=bots,
        bot_rng=lambda s: random.Random(f"{seed}:{s.turn_number}:{s.rolls_used}"),
        save_path=save_path,
        bot_delay=bot_delay,
        rescue_directory=str(rescue) if rescue else None,
        chances=chances,
        grace=grace,
    )


async def settle(pilot: Pilot[Any]) -> None:
    """Wait until a person is to act (a bot waiting for the person's word included),
    a dialog is open, or the game is over.

    The wait is bounded by time, not by a count of pauses: a bot's paced move waits on
    a timer, and under CI's load many quick pauses pass before that timer fires.
    """
    app = pilot.app
    assert isinstance(app, YatzyApp)
    deadline = time.monotonic() + scaled(DEFAULT_TIMEOUT)
    spins = 0
    while time.monotonic() < deadline:
        idle = not app.thinking
        person = app.people_to_play or app.in_grace
        if idle and (len(app.screen_stack) > 1 or app.finished or person):
            await pilot.pause()
            return
        spins += 1
        # Quick pauses first (a person's turn usually comes at once), then real sleeps
        # so that a timer or a thinking thread gets the time it needs.
        await pilot.pause(0.01 if app.thinking or spins > 200 else None)
    raise AssertionError(
        f"the app never came back to a person within {scaled(DEFAULT_TIMEOUT):.0f} s"
    )


def letter(app: YatzyApp, box: str) -> str:
    """The key that chooses ``box``."""
    return box_letter(app.state.rules, box).lower()


async def answer(pilot: Pilot[Any], yes: bool) -> bool:
    """Answer a yes/no dialog if one is open; whether one was."""
    app = pilot.app
    if isinstance(app.screen, ConfirmScreen):
        await pilot.press("y" if yes else "n")
        await settle(pilot)
        return True
    return False


async def write_box(pilot: Pilot[Any], box: str, *, yes: bool = True) -> None:
    """Choose ``box`` by its letter and press Enter (answering a question with ``yes``)."""
    app = pilot.app
    assert isinstance(app, YatzyApp)
    await pilot.press(letter(app, box), "enter")
    await settle(pilot)
    await answer(pilot, yes)


async def play_turn(pilot: Pilot[Any], turn: int) -> None:
    """A person's turn by keys: roll, sometimes keep a die and roll again, write a box.

    The box is the first the rules allow (DubbelYatzy: the first allowed pair),
    so every variant's order rules are followed and every box gets filled.
    """
    app = pilot.app
    assert isinstance(app, YatzyApp)
    state = app.state
    await pilot.press("space")
    await settle(pilot)
    if turn % 3 == 1 and state.rolls_left():
        await pilot.press("1", "space")  # keep the first die, roll the others
        await settle(pilot)
        await answer(pilot, True)
    if turn % 3 == 2 and state.rolls_left():
        await pilot.press("r")  # R rolls again without a keep choice
        await settle(pilot)
        await answer(pilot, True)
    if state.rules.double:
        groups = state.allowed_groups()
        if groups is None:
            allowed = state.allowed_boxes()
            inner, outer = allowed[0], allowed[1]
        else:
            inner, outer = groups[0][0], groups[0][1]
        await write_box(pilot, inner)
        await write_box(pilot, outer)
    else:
        await write_box(pilot, state.allowed_boxes()[0])


async def play_to_the_end(pilot: Pilot[Any]) -> int:
    """Play every person's turn by keys until the game is over; the turns played."""
    app = pilot.app
    assert isinstance(app, YatzyApp)
    await settle(pilot)
    turns = 0
    while not app.state.is_terminal():
        before = app.state.turn_number
        await play_turn(pilot, turns)
        await settle(pilot)
        assert app.state.turn_number > before or app.state.is_terminal(), app.error
        turns += 1
    return turns


def screen_text(app: YatzyApp) -> str:
    """The screen as plain text (what a snapshot compares), trailing blanks removed."""
    width, height = app.size
    console = Console(
        width=width, height=height, file=io.StringIO(), record=True, force_terminal=True
    )
    screens = app._background_screens
    console.print(app.screen._compositor.render_update(full=True, screen_stack=screens))
    text = console.export_text()
    return "\n".join(line.rstrip() for line in text.splitlines()) + "\n"


def run_in_pty(
    argv: list[str], keys: list[tuple[str, bytes]], env: dict[str, str]
) -> tuple[int, str]:
    """Run ``yatzy`` with ``argv`` in an 80×24 pseudo-terminal (so the full screen is
    chosen); for each ``(text, key)`` wait until ``text`` shows, then type ``key``.
    Returns the exit code and all the output as plain text."""
    import fcntl
    import os
    import pty
    import re
    import select
    import struct
    import sys
    import termios
    import time

    ansi = re.compile(rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]")
    pid, fd = pty.fork()
    if pid == 0:  # the child
        os.environ.update({"TERM": "xterm-256color", **env})
        os.execv(sys.executable, [sys.executable, "-m", "yatzy.cli.main", *argv])
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    out = bytearray()

    def text() -> str:
        return ansi.sub(b"", bytes(out)).decode("utf-8", "replace")

    def read(timeout: float) -> bool:
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            return True
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            return False
        out.extend(chunk)
        return bool(chunk)

    try:
        for wanted, key in keys:
            deadline = time.monotonic() + 30
            while wanted not in text().replace("\n", ""):
                if time.monotonic() > deadline or not read(0.1):
                    raise AssertionError(f"{wanted!r} never showed: {text()[-500:]!r}")
            os.write(fd, key)
        while read(10):
            pass
    except BaseException:
        os.kill(pid, 9)  # never leave the game running behind a failed test
        raise
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    return os.waitstatus_to_exitcode(status), text()
