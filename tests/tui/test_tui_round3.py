"""The full-screen game at 80×24 and against a bot (issue 24, terminal 3–5 and 7).

The sheet in two columns on a short screen with the totals and every open box's
points in sight; a write that can be taken back against a bot, which waits and rolls
nothing meanwhile; Enter never rolls; a key that does nothing says which keys work;
kept dice marked without colour; live chances never shown stale.
"""

from __future__ import annotations

import asyncio
import math
import random
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.conftest import covering
from tests.tui.helpers import (
    letter,
    make_app,
    new_state,
    play_to_the_end,
    screen_text,
    settle,
)
from yatzy.cli.tui.app import YatzyApp
from yatzy.cli.tui.keymap import box_letter
from yatzy.game import Roll, Scratch, State
from yatzy.rules import Language, RuleSet

Body = Callable[[Pilot[Any], YatzyApp], Awaitable[None]]


def drive(app: YatzyApp, body: Body, size: tuple[int, int] = (80, 24)) -> None:
    """Run ``app`` headless at ``size`` and play ``body`` on it."""

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            await body(pilot, app)

    asyncio.run(main())


SIZES = [(80, 24), (120, 40)]
"""The screens the sheet must fit."""


# -- the sheet on a short screen -----------------------------------------------------------


# Every rule set, language and size in the fast tier, each pair of them in the whole suite.
@pytest.mark.parametrize(
    ("spec", "lang", "size"),
    covering(["yatzy", "yahtzee", "maxi+saved_rolls", "dubbel"], ["sv", "fi", "en"], SIZES),
    ids=lambda v: f"{v[0]}x{v[1]}" if isinstance(v, tuple) else None,
)
def test_totals_and_every_open_box_in_sight_after_a_roll(
    spec: str, lang: Language, size: tuple[int, int]
) -> None:
    state = new_state(spec, ["Anna", "Bo"], ("greedy",), starter=0)
    app = make_app(state, lang=lang, seed=4)
    rules = state.rules

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        await pilot.press("space")
        await settle(pilot)
        text = screen_text(app)
        lines = text.splitlines()
        assert len(lines) <= size[1] and max(len(ln) for ln in lines) <= size[0]
        for row in ("sum", "bonus", "final" if rules.double else "total"):
            assert rules.label(row, lang) in text, (row, text)
        now = dict(state.preview())
        allowed = set(state.allowed_boxes())
        for box in rules.boxes:
            name = rules.box_name(box, lang)
            row = re.compile(rf"\b{box_letter(rules, box)}\s+{re.escape(name)}( |$)")
            line = next((ln for ln in lines[1:] if row.search(ln)), None)
            assert line is not None, f"{name} is not in sight:\n{text}"
            value = now[box]
            if rules.double:
                want = [str(value[0]), str(value[1])]
            else:
                want = [str(value) if box in allowed else f"({value})"]
            tail = line[row.search(line).end() :]  # type: ignore[union-attr]
            assert tail.split()[: len(want)] == want, (name, line)

    drive(app, body, size)


def test_the_short_screen_splits_and_a_tall_one_does_not() -> None:
    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        assert app.split
        await pilot.resize_terminal(120, 40)
        await settle(pilot)
        assert not app.split
        await pilot.press("space")
        await settle(pilot)
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert app.split
        text = screen_text(app)
        assert "Total" in text and "Yatzy" in text and "Ones" in text

    drive(make_app(new_state("yatzy", ["Anna", "Bo"], starter=0)), body)


# -- a write taken back against a bot ------------------------------------------------------


def test_a_write_can_be_taken_back_before_the_bot_rolls() -> None:
    state = new_state("yatzy", ["Anna"], ("greedy",), starter=0)
    app = make_app(state, grace=60.0)

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        await pilot.press("space")
        await settle(pilot)
        dice = list(state.dice or [])
        await pilot.press(letter(app, "chance"), "enter")
        await settle(pilot)
        # The bot waits: its turn, no dice rolled, the person's U still works.
        assert app.in_grace and state.player == 1 and state.dice is None
        assert "U takes your write back" in screen_text(app)
        await pilot.press("u")
        await settle(pilot)
        assert state.player == 0 and state.sheets[0].is_open("chance")
        assert list(state.dice or []) == dice and not app.in_grace
        await pilot.press(letter(app, "chance"), "enter")
        await settle(pilot)
        assert app.in_grace and state.dice is None
        await pilot.press("enter")  # goes on: the bot plays its turn, then Anna's is next
        await settle(pilot)
        assert not app.in_grace and state.player == 0 and state.turn_number == 2
        assert state.sheets[1].open_boxes != list(state.rules.boxes)
        await pilot.press("u")  # the bot has rolled since: nothing to take back
        await settle(pilot)
        assert state.turn_number == 2 and "nothing to undo" in app.error

    drive(app, body)


def test_the_bot_waits_for_the_persons_next_key_however_long() -> None:
    # Issue 24: a write can be taken back until your next action. The full screen's
    # default grace is no timer: the bot waits for Enter, Space or R (it was 3 s).
    from yatzy.cli.tui.app import GRACE_SECONDS

    assert math.isinf(GRACE_SECONDS)
    state = new_state("yatzy", ["Anna"], ("greedy",), starter=0)
    app = make_app(state, grace=GRACE_SECONDS)

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        await pilot.press("space")
        await settle(pilot)
        await pilot.press(letter(app, "chance"), "enter")
        await settle(pilot)
        await pilot.pause(1.0)
        assert app.in_grace and state.player == 1 and state.dice is None
        await pilot.press("r")  # the next action: the bot plays its turn
        await settle(pilot)
        assert not app.in_grace and state.player == 0 and state.turn_number == 2

    drive(app, body)


def test_the_bot_goes_on_by_itself_after_the_grace() -> None:
    state = new_state("yatzy", ["Anna"], ("greedy",), starter=0)
    app = make_app(state, grace=0.05)

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        await pilot.press("space")
        await settle(pilot)
        await pilot.press(letter(app, "chance"), "enter")
        for _ in range(500):
            if state.turn_number == 2:
                break
            await pilot.pause(0.01)
        await settle(pilot)
        assert state.turn_number == 2 and state.player == 0 and not app.in_grace

    drive(app, body)


def test_enter_never_rolls_so_a_double_enter_rolls_nobodys_dice() -> None:
    state = new_state("yatzy", ["Anna", "Bo"], starter=0)
    app = make_app(state)

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        await pilot.press("enter")
        await settle(pilot)
        assert state.dice is None and "Space or R" in app.error
        await pilot.press("r")
        await settle(pilot)
        await pilot.press(letter(app, "chance"), "enter", "enter")  # the second Enter
        await settle(pilot)
        assert state.player == 1 and state.dice is None
        assert "Space or R" in screen_text(app)

    drive(app, body)


# -- keys and marks ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "does nothing"), ("sv", "gör inget"), ("fi", "ei tee mitään")],
)
def test_a_key_that_does_nothing_says_which_keys_work(lang: Language, words: str) -> None:
    state = new_state("yatzy", ["Anna"], starter=0)
    app = make_app(state, lang=lang)

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        await pilot.press("z")
        await settle(pilot)
        assert words in app.error and "1-6" in app.error
        text = screen_text(app)
        assert words in text and state.dice is None

    drive(app, body)


def test_kept_dice_are_marked_without_colour() -> None:
    state = new_state("yatzy", ["Anna"], starter=0)
    state.apply(Roll())
    state.apply_roll([2, 5, 2, 6, 5])
    app = make_app(state)

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        await pilot.press("2", "4")
        await settle(pilot)
        text = screen_text(app)
        assert "2:[5]" in text and "4:[6]" in text and "1: 2 " in text

    drive(app, body)


# -- live chances --------------------------------------------------------------------------


def _chances(first: bool) -> Callable[[State], Any]:
    """Chances that work the first time only (``first``) or never: a failing computation."""
    from yatzy.strategy.win_chance import SeatChance, WinChances

    calls: list[int] = []

    def compute(state: State) -> Any:
        calls.append(1)
        if first and len(calls) == 1:
            seats = (SeatChance(0, "person", 0.71, 0.0, "", 0),)
            seats += (SeatChance(1, "person", 0.29, 0.0, "", 0),)
            return WinChances(seats, True, 0.0)
        raise RuntimeError("the table went missing")

    return compute


def _win_row(app: YatzyApp) -> list[str]:
    row = app._rows()[0]
    assert row.key == "win"
    return [c.text for c in row.cells]


def test_a_failed_chance_is_shown_failed_never_the_last_figure() -> None:
    state = new_state("yatzy", ["Anna", "Bo"], starter=0)
    app = make_app(state, chances=_chances(first=True))

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        assert _win_row(app) == ["71", "29"]
        await pilot.press("space")
        await settle(pilot)
        assert _win_row(app) == ["?", "?"]
        text = screen_text(app)
        assert "71" not in text and "could not be computed" in text

    drive(app, body)


@pytest.mark.parametrize("lang", ["sv", "fi", "en"])
def test_chances_not_available_show_a_dash_and_say_why_once(lang: Language) -> None:
    # Issue 24: a two-person Maxi game at a terminal showed a bare "…" the whole game
    # (its table not built): the row now shows "–" and one message says why.
    from yatzy.cli.i18n import tr

    state = new_state("maxi", ["Anna", "Bo"], starter=0)
    app = make_app(state, lang=lang, chances=lambda position: None)
    # in plain words: what is happening, never a command to run
    said = tr("win_line_pending", lang, reason=tr("win_reason_table", lang))
    assert "yatzy solve" not in said

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        await settle(pilot)
        assert _win_row(app) == ["–", "–"]
        await pilot.press("space")
        await settle(pilot)
        assert _win_row(app) == ["–", "–"]
        assert [m for m in app.messages if said in m] == [said]  # once, not every move

    drive(app, body, size=(120, 40))


@pytest.mark.parametrize("lang", ["sv", "fi", "en"])
def test_a_slow_first_chance_says_what_the_dots_wait_for(lang: Language) -> None:
    # Issue 24: anything over a second says in words what happens (on a fresh
    # install the first figures wait some seconds for their kernels to compile).
    import threading

    from yatzy.cli.i18n import tr
    from yatzy.cli.tui import drawing

    release = threading.Event()
    figures = _chances(first=True)

    def slow(position: State) -> Any:
        release.wait(10)
        return figures(position)

    state = new_state("yatzy", ["Anna", "Bo"], starter=0)
    app = make_app(state, lang=lang, chances=slow)
    said = tr("tui_chances_pending", lang)

    async def main() -> None:
        # not drive(): its settling would wait for the chances themselves
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause(0.1)
            assert _win_row(app) == ["…", "…"]
            for _ in range(50):
                await pilot.pause(0.1)
                if said in app.messages:
                    break
            assert said in app.messages and _win_row(app) == ["…", "…"]
            release.set()
            for _ in range(50):
                await pilot.pause(0.1)
                if _win_row(app) == ["71", "29"]:
                    break
            assert _win_row(app) == ["71", "29"]
            assert app.messages.count(said) == 1

    assert drawing.CHANCES_SLOW_SECONDS <= 1.0
    try:
        asyncio.run(main())
    finally:
        release.set()


# The hung computation's thread, let go after the app has closed, finds no app to hand
# its answer to (Textual's un-awaited callback): as designed, so not a warning here.
@pytest.mark.filterwarnings("ignore:coroutine .* was never awaited:RuntimeWarning")
@pytest.mark.parametrize("lang", ["sv", "fi", "en"])
def test_a_chance_computation_that_never_returns_is_timed_out(
    lang: Language, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 24 (terminal 5): a chance computation that never returned froze Win % for
    # rounds. Past the time-out the row shows "?" and one message says why; the app
    # no longer counts as thinking, and no second computation piles up beside it.
    import threading

    from yatzy.cli.i18n import tr
    from yatzy.cli.tui import drawing

    monkeypatch.setattr(drawing, "CHANCES_TIMEOUT_SECONDS", 1.0)
    never = threading.Event()
    calls: list[int] = []

    def hung(position: State) -> Any:
        calls.append(position.turn_number)
        never.wait(30)
        return None

    state = new_state("yatzy", ["Anna", "Bo"], starter=0)
    app = make_app(state, lang=lang, chances=hung)
    said = tr("tui_chances_overdue", lang, seconds=1)

    async def main() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause(0.1)
            if said not in app.messages:  # (a loaded machine may start the app late)
                assert _win_row(app) == ["…", "…"]
            for _ in range(100):
                await pilot.pause(0.1)
                if said in app.messages:
                    break
            assert said in app.messages
            assert _win_row(app) == ["?", "?"] and not app.thinking
            await pilot.press("space")  # a new position: still "?", nothing piled up
            await pilot.pause(0.3)
            assert _win_row(app) == ["?", "?"]
            assert len(calls) == 1 and app.messages.count(said) == 1

    try:
        asyncio.run(main())
    finally:
        never.set()


def _to_the_last_round(state: State) -> None:
    """Every seat writes all its boxes but one through the state itself (not by keys):
    the game is at its last round."""
    rng = random.Random(5)
    while any(len(sheet.open_boxes) > 1 for sheet in state.sheets):
        state.apply(Roll())
        state.roll(rng)
        state.apply(next(a for a in state.legal_actions() if not isinstance(a, Roll)))


@pytest.mark.slow
def test_the_final_sheet_shows_the_result_not_a_chance_from_before() -> None:
    # The last round by keys (the whole game by keys is test_tui.py's): the chances
    # worked once, when the app opened, and failed after.
    state = new_state("yatzy", ["Anna", "Bo"], starter=0)
    _to_the_last_round(state)
    app = make_app(state, chances=_chances(first=True))

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        assert _win_row(app) == ["71", "29"]  # a chance from before the end
        assert await play_to_the_end(pilot) == 2
        assert state.is_terminal()
        totals = state.totals()
        winner = 0 if totals[0] > totals[1] else 1
        cells = _win_row(app)
        if totals[0] == totals[1]:
            assert cells == ["50", "50"]
        else:
            assert cells[winner] == "100" and cells[1 - winner] == "0"

    drive(app, body)


@pytest.mark.parametrize("lang", ["sv", "fi", "en"])
def test_the_record_line_fits_80_columns(lang: Language) -> None:
    from yatzy.cli.play_common import record_line

    state = new_state("maxi+saved_rolls", ["Anna"], starter=0)
    app = make_app(state, lang=lang, record=250)

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        await pilot.press("space")
        await settle(pilot)
        lines = screen_text(app).splitlines()
        line = next(ln for ln in lines if "250" in ln)
        assert line.endswith(record_line(state, 250, lang, short=True)), line
        assert len(line) <= 78  # inside the padding

    drive(app, body)


def test_the_record_line_never_compiles_on_the_screens_thread(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # With the table shipped, a fresh install's first solo turn worked out the
    # approximate chance at once, and numba compiled its kernels on the screen's
    # thread: the screen froze for 9 s.  Now a child compiles them meanwhile.
    import subprocess

    import yatzy.bots as bots
    from yatzy.cli import play_common
    from yatzy.strategy import target_play, win_chance

    started: list[list[str]] = []

    class Child:
        def __init__(self, args: list[str], **kw: object) -> None:
            started.append(args)

        def poll(self) -> int:
            return 0

    marker = tmp_path / "warmed" / "record-yatzy"
    monkeypatch.setattr("yatzy.kernels.cache.warm_marker", lambda name: marker)
    monkeypatch.setattr(subprocess, "Popen", Child)
    monkeypatch.setattr(play_common, "_builds", {})
    monkeypatch.setattr(play_common, "_record_chance_here", set())
    monkeypatch.setattr(bots, "preparing", lambda level, rules: False)
    monkeypatch.setattr(target_play, "chance_to_beat", lambda *a, **k: None)
    worked_out: list[object] = []
    monkeypatch.setattr(
        win_chance, "approximate_chance_to_beat", lambda *a, **k: worked_out.append(a) or 0.5834
    )
    state = new_state("yatzy", ["Anna"], starter=0)
    for _ in range(3):  # the screen redrawn: one child, no figure worked out here
        assert "58" not in play_common.record_line(state, 250, "en")
    assert len(started) == 1 and "warm_record_chance" in started[0][2]
    assert started[0][3] == "yatzy" and not worked_out
    marker.parent.mkdir()
    marker.touch()  # the child is done
    assert "about 58\u00a0%" in play_common.record_line(state, 250, "en")
    assert len(worked_out) == 1 and len(started) == 1


def test_the_record_chances_child_leaves_its_marker(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from yatzy.cli import play_common

    marker = tmp_path / "warmed" / "record-yatzy+forced"
    monkeypatch.setattr("yatzy.kernels.cache.warm_marker", lambda name: marker)
    play_common.warm_record_chance("yatzy+forced")  # kernels cached by the tests: quick
    assert marker.exists()


@pytest.mark.parametrize("lang", ["sv", "fi", "en"])
def test_the_record_line_says_an_approximate_chance_before_the_target_table(
    lang: Language, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 24: the terminal builds the target table in the background (minutes once):
    # meanwhile the best-points strategy's chance, said as approximate, within 80 columns,
    # never a command to run.
    import subprocess

    import yatzy.bots as bots
    from yatzy.cli import play_common
    from yatzy.cli.play_common import record_line
    from yatzy.strategy import target_play, win_chance

    # The best-points tables are at hand (whether an earlier test built them or not),
    # and the approximate chance's kernels too.
    monkeypatch.setattr(bots, "preparing", lambda level, rules: False)
    monkeypatch.setattr(play_common, "record_chance_at_hand", lambda spec: True)
    monkeypatch.setattr(target_play, "chance_to_beat", lambda *a, **k: None)
    monkeypatch.setattr(win_chance, "approximate_chance_to_beat", lambda *a, **k: 0.5834)
    started: list[list[str]] = []

    class Child:
        def __init__(self, args: list[str], **kwargs: object) -> None:
            started.append(args)

        def poll(self) -> int | None:
            return None  # still building

    monkeypatch.setenv(play_common.TARGET_BUILD_ENV, "1")
    monkeypatch.setattr(subprocess, "Popen", Child)
    monkeypatch.setattr(play_common, "_builds", {})
    state = new_state("yatzy", ["Anna"], starter=0)
    about = {"sv": "cirka 58\u00a0%", "fi": "noin 58\u00a0%", "en": "about 58\u00a0%"}[lang]
    assert about in record_line(state, 250, lang, short=True)
    long = record_line(state, 250, lang)
    assert about in long and "yatzy solve" not in long
    # one build of the target table, in a child process, however often the line is drawn
    assert len(started) == 1 and started[0][-1] == "yatzy" and "target_table_for" in started[0][2]
    # Before the best-points tables are built, no figure is worked out on the screen's
    # thread: "not available" with its reason, as before.
    monkeypatch.setattr(bots, "preparing", lambda level, rules: True)
    assert about not in record_line(state, 250, lang)
    monkeypatch.setattr(bots, "preparing", lambda level, rules: False)
    app = make_app(state, lang=lang, record=250)

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        await pilot.press("space")
        await settle(pilot)
        line = next(ln for ln in screen_text(app).splitlines() if "250" in ln)
        assert line.endswith(record_line(state, 250, lang, short=True)), line
        assert len(line) <= 78

    drive(app, body)


@pytest.mark.parametrize(
    ("lang", "word", "said"),
    [("sv", "lagom", "Lagom (dator)"), ("fi", "TAVALLINEN", "Tavallinen (tietokone)")],
)
def test_the_computer_is_named_in_the_game_s_language(
    lang: Language, word: str, said: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 24: a Swedish game's computer was "Casual" where the web says "Lagom".
    import argparse

    from yatzy.cli.cmd_play import _new_game
    from yatzy.cli.terminal import player_label
    from yatzy.game import Game

    args = argparse.Namespace(rules=None, names=["Anna"], bot=[word], lang=lang)
    players = _new_game(args).players
    assert [(p.name, p.bot) for p in players] == [("Anna", None), (said.split()[0], "casual")]
    state = Game(RuleSet.parse("yatzy"), players).new_initial_state(0)  # Anna starts
    app = make_app(state, lang=lang)

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        text = screen_text(app)
        # The sheet's head: the name whole, even in the two-column sheet at 80×24
        # ("Tavallinen" was cut to "Taval…" there).
        assert said.split()[0] in text.splitlines()[1]
        assert "Casual" not in text
        # The label the status line and the messages write for the computer's moves.
        assert player_label(app.state, 1, lang) == said

    drive(app, body)


def test_an_open_hint_gets_its_options_once_the_table_is_ready(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Issue 24: the first hint of a fresh install says its table is being prepared;
    # left open, it asks again (every HINT_RETRY_SECONDS) and shows the options by
    # itself once the table is built, rather than until it is closed and asked again.
    from yatzy.cli.i18n import tr
    from yatzy.cli.play_advice import AdvisorLines
    from yatzy.cli.tui import app as app_module

    ready = False

    def hint_lines(position: State, record: int | None, lang: Language) -> AdvisorLines:
        if ready:
            return AdvisorLines(["Keep the three 6s  (best)"])
        return AdvisorLines.waiting(tr("hint_preparing", lang))

    monkeypatch.setattr(app_module, "hint_lines", hint_lines)
    monkeypatch.setattr(app_module, "HINT_RETRY_SECONDS", 0.1)
    app = make_app(new_state("yatzy", ["Anna"], starter=0))

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        nonlocal ready
        await pilot.press("space")
        await settle(pilot)
        await pilot.press("h")
        await settle(pilot)
        assert "being prepared" in screen_text(app)
        ready = True  # the background build is done
        for _ in range(50):
            await pilot.pause(0.1)
            if "Keep the three 6s" in screen_text(app):
                break
        text = screen_text(app)
        assert "Keep the three 6s" in text and "being prepared" not in text

    drive(app, body, size=(120, 40))


# -- a finished game's analysis --------------------------------------------------------------


def _finished(spec: str, people: list[str], boxes: list[State] | None = None) -> State:
    """A game of ``spec`` played to its end through the state (a casual bot's choices,
    so there are mistakes to find); ``boxes`` collects the position after each
    written box but the last (what the full screen hands to its analysis ahead)."""
    from yatzy.bots import make_bot

    state = new_state(spec, people, starter=0)
    bot, rng = make_bot("casual"), random.Random(7)
    while not state.is_terminal():
        turn = state.turn_number
        action = bot.choose(state, rng)
        state.apply(action)
        if isinstance(action, Roll) or state.is_chance_node():
            state.roll(rng)
        if boxes is not None and state.turn_number > turn and not state.is_terminal():
            boxes.append(state.clone())
    return state


@pytest.mark.parametrize("lang", ["sv", "fi", "en"])
def test_a_finished_games_analysis_is_one_key_away(
    lang: Language, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 24: the analysis within seconds of the last box, in the terminal too: A at
    # the end shows each player's points lost to the best play and the costliest
    # decisions, in the game's language, as `yatzy analyze` rates them.
    from yatzy.cli import play_advice, play_common
    from yatzy.cli.i18n import tr
    from yatzy.strategy.advice_words import number
    from yatzy.strategy.analyze import analyze
    from yatzy.strategy.win_analysis import analyze_wins

    monkeypatch.setattr(play_advice, "ANALYSIS_WIN_BUDGET", 0.01)  # a second, not 15
    state = _finished("yatzy", ["Anna", "Bo"])
    expected = analyze(state, lang)
    # each person at the level their play has shown, as the web counts them
    measured = play_common.measured_levels(state)
    assert measured, "the casual bot's play, rated as people's, measures as a level"
    levels = play_advice.rating_levels_of(state, measured)
    win = analyze_wins(state, levels=levels, budget=0.01)
    app = make_app(state, lang=lang)

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        assert tr("tui_keys_over", lang) in screen_text(app)
        from yatzy.cli.tui.screens import TextScreen

        results = app.screen
        assert isinstance(results, TextScreen)
        assert tr("tui_analysis_key", lang) in results.lines  # the results say how
        await pilot.press("a")  # from the results at once
        for _ in range(100):
            await pilot.pause(0.1)
            if tr("analysis_costliest", lang) in getattr(app.screen, "lines", []):
                break
        shown = app.screen
        assert isinstance(shown, TextScreen)
        assert shown.title_text == tr("tui_analysis_title", lang)
        text = "\n".join(shown.lines)
        for p in expected.players:
            line = tr(
                "analysis_player",
                lang,
                name=p.name,
                points=p.final,
                mistakes=p.mistakes,
                decisions=p.decisions,
                loss=number(p.total_loss, lang),
            )
            assert line in text
        worst = max(expected.decisions, key=lambda d: d.loss)
        assert f"−{number(worst.loss, lang)}" in text
        # and in chance to win, as `yatzy analyze --win` rates it
        assert tr("analysis_win_title_measured", lang) in text
        assert play_common.measured_words(state, measured, lang) in text
        for w in win.players:
            start = number(100 * win.points[0].chances[w.player], lang)
            given = number(100 * w.total_cost, lang)
            line = tr(
                "analysis_win_player", lang, name=w.name, start=start, given=given, costly=w.costly
            )
            assert line in text

    drive(app, body, size=(120, 40))


@pytest.mark.slow
def test_the_analysis_at_the_end_is_rated_in_workers_under_the_full_screen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The full screen replaces sys.stderr with one whose descriptor is -1, which
    # multiprocessing's resource tracker hands to its child: no worker could start
    # ("bad value(s) in fds_to_keep"), and the analysis fell back to one process.
    from yatzy.cli import play_advice
    from yatzy.cli.i18n import tr
    from yatzy.strategy import win_analysis

    monkeypatch.setenv("YATZY_JOBS", "2")
    monkeypatch.setattr(play_advice, "ANALYSIS_WIN_BUDGET", 0.01)
    win_analysis.forget_analysed()
    rated_here: list[int] = []
    rate = win_analysis._rate
    monkeypatch.setattr(win_analysis, "_rate", lambda *a: rated_here.append(1) or rate(*a))
    app = make_app(_finished("yatzy", ["Anna", "Bo"]))

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        await pilot.press("a")
        for _ in range(600):
            await pilot.pause(0.1)
            if tr("analysis_costliest", "en") in getattr(app.screen, "lines", []):
                break
        assert tr("analysis_costliest", "en") in getattr(app.screen, "lines", [])

    drive(app, body, size=(120, 40))
    assert rated_here == []  # every position came from a worker
    win_analysis.forget_analysed()


def test_the_analysis_comes_by_itself_once_its_table_is_ready(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from yatzy.cli.i18n import tr
    from yatzy.cli.play_advice import AdvisorLines
    from yatzy.cli.tui import app as app_module

    ready = False

    def analysis_lines(state: State, lang: Language, history: object = None) -> AdvisorLines:
        if ready:
            return AdvisorLines(["Anna: 200 points"])
        return AdvisorLines.waiting(tr("analysis_preparing", lang))

    monkeypatch.setattr(app_module, "analysis_lines", analysis_lines)
    monkeypatch.setattr(app_module, "HINT_RETRY_SECONDS", 0.1)
    app = make_app(_finished("yatzy", ["Anna"]))

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        nonlocal ready
        await pilot.press("a")
        await pilot.pause(0.3)
        assert "being prepared" in screen_text(app)
        ready = True
        for _ in range(50):
            await pilot.pause(0.1)
            if "Anna: 200 points" in screen_text(app):
                break
        assert "Anna: 200 points" in screen_text(app)

    drive(app, body, size=(120, 40))


def test_the_win_analysis_is_rated_while_the_game_is_played(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Rated ahead after each box (as the web server does), the end has only the last
    # turn left to rate: the win analysis at the end comes in a fraction of a second
    # (0.06 s against 15 s for a game of two, measured).
    from yatzy.cli import play_advice
    from yatzy.strategy import win_analysis

    monkeypatch.setattr(play_advice, "ANALYSIS_WIN_BUDGET", 0.01)
    win_analysis.forget_analysed()
    positions: list[State] = []
    state = _finished("yatzy+forced", ["Anna", "Bo"], positions)
    rated: list[int] = []
    rate = win_analysis._rate

    def counted(replay: State, *args: Any) -> Any:
        rated.append(replay.turn_number)
        return rate(replay, *args)

    monkeypatch.setattr(win_analysis, "_rate", counted)
    for position in positions:  # as the full screen hands them over
        play_advice.win_analysis_ahead(position)
    before_end = len(rated)
    assert before_end > 0
    lines = play_advice.analysis_lines(state, "en")
    assert any("at the start" in line for line in lines)
    last = {t for t in rated[before_end:]}
    assert last <= {len(state.log) - 1}, "the end rated turns that were rated ahead"
    win_analysis.forget_analysed()


def test_the_full_screen_hands_each_written_box_to_the_analysis_ahead(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import threading

    handed: list[int] = []
    done = threading.Event()

    def ahead(position: State) -> None:
        handed.append(position.turn_number)
        done.set()

    from yatzy.analysis import AHEAD_ENV
    from yatzy.cli import play_advice

    monkeypatch.setenv(AHEAD_ENV, "1")
    state = new_state("yatzy", ["Anna", "Bo"], starter=0)
    app = make_app(state)
    app.ahead = play_advice.AnalysisAhead(ahead)

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        await pilot.press("space")
        await settle(pilot)
        assert handed == []  # a roll is no written box
        await pilot.press("o", "enter")  # Chance
        await settle(pilot)
        assert done.wait(5)
        assert handed == [1]

    drive(app, body, size=(120, 40))


# -- the game's last write -----------------------------------------------------------------


def _at_the_last_box() -> State:
    """Anna's solo game with every box but Chance scratched: the next write ends it."""
    state = new_state("yatzy", ["Anna"], starter=0)
    dice = random.Random(5)
    while not state.write_ends_game():
        state.apply(Roll())
        state.roll(dice)
        state.apply(Scratch(next(b for b in state.allowed_boxes() if b != "chance")))
    return state


def test_the_games_last_write_can_be_taken_back_until_the_next_key() -> None:
    from yatzy.cli.tui.app import GRACE_SECONDS

    state = _at_the_last_box()
    app = make_app(state, grace=GRACE_SECONDS)
    recorded: list[int] = []
    app.on_finished = lambda s: str(recorded.append(s.totals()[0]))

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        await pilot.press("space")
        await settle(pilot)
        dice = list(state.dice or [])
        await pilot.press(letter(app, "chance"), "enter")
        await settle(pilot)
        # written and drawn, the game not yet ended: no results, nothing recorded
        assert state.is_terminal() and app.in_grace and not app.finished
        assert len(app.screen_stack) == 1 and recorded == []
        text = screen_text(app)
        assert "Anna: the game's last box · U takes it back · Enter ends the game" in text
        await pilot.press("a")  # no analysis of a game not yet ended
        await settle(pilot)
        assert len(app.screen_stack) == 1 and app.in_grace
        await pilot.press("u")
        await settle(pilot)
        assert not state.is_terminal() and state.sheets[0].is_open("chance")
        assert list(state.dice or []) == dice and not app.in_grace and app.people_to_play
        await pilot.press(letter(app, "chance"), "enter")
        await settle(pilot)
        assert app.in_grace and not app.finished
        await pilot.press("enter")  # the next key: the game ends, its results show
        await settle(pilot)
        assert app.finished and recorded == state.totals()
        assert state.log[-1]["undone"][0]["box"] == "chance"

    drive(app, body)


def test_quitting_over_the_held_last_write_ends_the_game_first() -> None:
    from yatzy.cli.tui.app import GRACE_SECONDS

    state = _at_the_last_box()
    app = make_app(state, grace=GRACE_SECONDS)
    recorded: list[int] = []
    app.on_finished = lambda s: str(recorded.append(s.totals()[0]))

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        await pilot.press("space")
        await settle(pilot)
        await pilot.press(letter(app, "chance"), "enter")
        await settle(pilot)
        assert app.in_grace and recorded == []
        await pilot.press("q")
        await settle(pilot)
        assert app.finished and recorded == state.totals()

    drive(app, body)
