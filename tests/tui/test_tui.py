"""The full-screen game (``yatzy play`` at a terminal), driven by Textual's Pilot.

Whole games of every variant by keys, with people and bots; the guards against
stray keys (Space, Enter, a Yatzy rolled away, a wasted 0); undo; hints; saving,
quitting and the rescue file; the choice between full screen and line mode.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.tui.helpers import (
    answer,
    letter,
    make_app,
    new_state,
    play_to_the_end,
    screen_text,
    settle,
    write_box,
)
from yatzy.bots import prepare_tables
from yatzy.cli.play_common import keep_in_stats
from yatzy.cli.tui.app import YatzyApp
from yatzy.cli.tui.keymap import BOX_KEYS, COMMAND_KEYS, box_for_key
from yatzy.cli.tui.screens import ConfirmScreen, PathScreen, TextScreen
from yatzy.game import Roll, Score, State, load
from yatzy.rules import RuleSet
from yatzy.store import GameRepository
from yatzy.store.local import local_owner, owner_hash
from yatzy.store.stats import finished_games_of

Body = Callable[[Pilot[Any], YatzyApp], Awaitable[None]]


def drive(app: YatzyApp, body: Body, size: tuple[int, int] = (80, 24)) -> Any:
    """Run ``app`` headless at ``size`` and play ``body`` on it; the app's return value."""

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            await body(pilot, app)

    asyncio.run(main())
    return app.return_value


def rolled(state: State, dice: list[int]) -> State:
    """``state`` with the player's first roll showing ``dice``."""
    state.apply(Roll())
    state.apply_roll(dice)
    return state


# -- whole games ---------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    "spec",
    ["yatzy", "yahtzee", "maxi", "maxi+saved_rolls", "dubbel", "yatzy+forced", "dubbel+forced"],
)
def test_whole_game_by_keys_with_people_and_bots(spec: str, tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    people = ["Anna", "Bo"] if spec == "yatzy" else ["Anna"]
    state = new_state(spec, people, ("greedy", "random"))
    app = make_app(state, save_path=str(record))
    db = f"sqlite:///{tmp_path / 'stats.db'}"
    app.on_finished = lambda s: keep_in_stats(s, db, "en")  # as yatzy play sets it

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        turns = await play_to_the_end(pilot)
        assert turns == len(people) * state.rules.turns  # every turn of the people, by keys
        assert app.finished
        assert isinstance(app.screen, TextScreen)  # the results
        text = screen_text(app)
        assert "Game over" in text and "Final standings" in text and "Winner" in text
        await pilot.press("escape", "q")

    assert drive(app, body) == 0
    assert state.is_terminal()
    assert all(not sheet.open_boxes for sheet in state.sheets)
    saved = load(str(record))  # --save's file holds the finished game
    assert saved.is_terminal() and saved.totals() == state.totals()
    assert any("Final standings" in line for line in app.exit_lines)
    assert any("kept in your statistics" in line for line in app.exit_lines)
    repo = GameRepository.open(db)
    try:
        (kept,) = finished_games_of(repo, owner_hash(local_owner()))
    finally:
        repo.close()
    assert kept.rules == state.rules.spec and len(kept.seats) == len(people)  # bots hold none


@pytest.mark.slow
@pytest.mark.parametrize("threaded", [False, True])
def test_bots_alone_play_paced_to_the_end(threaded: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if threaded:  # as the advised levels do: decide in a background thread
        monkeypatch.setattr("yatzy.cli.tui.app.QUICK_BOTS", frozenset())
    state = new_state("yatzy", [], ("greedy", "random"))
    app = make_app(state, bot_delay=0.01)

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        while not app.finished:
            await settle(pilot)
        await pilot.press("escape", "q")

    assert drive(app, body) == 0
    assert state.is_terminal()
    assert any("Winner" in line for line in app.exit_lines)
    assert any("Total" in line for line in app.exit_lines)  # the final protocol


def test_solo_record_chance_is_on_the_status_line(monkeypatch: pytest.MonkeyPatch) -> None:
    # Maxi has no target tables: the line says so; a table's chance is shown as a percentage.
    maxi = make_app(new_state("maxi", ["Anna"]), record=300, lang="sv")

    async def unavailable(pilot: Pilot[Any], app: YatzyApp) -> None:
        await pilot.press("space")
        await settle(pilot)
        assert "rekord 300: ingen chans för dessa regler" in screen_text(app)

    drive(maxi, unavailable)
    import yatzy.strategy.target_play as target_play

    monkeypatch.setattr(target_play, "chance_to_beat", lambda state, record: 0.412)
    yatzy = make_app(new_state("yatzy", ["Anna"]), record=250, lang="fi")

    async def shown(pilot: Pilot[Any], app: YatzyApp) -> None:
        await pilot.press("space")
        await settle(pilot)
        assert "ennätys 250: 41,2\u00a0% rikkoa se" in screen_text(app)

    drive(yatzy, shown)


# -- guards against stray keys -------------------------------------------------------------


def test_space_after_a_roll_needs_a_keep_choice_and_enter_never_rolls() -> None:
    state = new_state("yatzy", ["Anna"])
    app = make_app(state)

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        await pilot.press("space")
        await settle(pilot)
        first = list(state.dice or [])
        assert state.rolls_used == 1
        await pilot.press("space", "enter")
        await settle(pilot)
        assert state.dice == first and state.rolls_used == 1  # neither rolled nor wrote
        assert state.turn_number == 0
        await pilot.press("2", "space")  # a keep choice: now Space rolls, die 2 kept
        await settle(pilot)
        assert state.rolls_used == 2
        assert state.dice is not None and state.dice[1] == first[1]

    drive(app, body)


def test_rolling_away_a_yatzy_asks_and_no_keeps_it() -> None:
    state = rolled(new_state("yatzy", ["Anna"]), [4, 4, 4, 4, 4])
    app = make_app(state)

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        assert "Yatzy!" in screen_text(app)  # the moment is named
        await pilot.press("r")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("enter")  # a stray Enter answers no (No has the focus)
        await settle(pilot)
        assert state.dice == [4, 4, 4, 4, 4] and state.rolls_used == 1
        await pilot.press("r")
        await settle(pilot)
        assert await answer(pilot, True)
        assert state.rolls_used == 2

    drive(app, body)


def test_enter_writes_only_a_box_chosen_since_the_roll() -> None:
    state = rolled(new_state("yatzy", ["Anna"]), [1, 1, 2, 5, 6])
    app = make_app(state)

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        await pilot.press("enter")
        await settle(pilot)
        assert state.turn_number == 0 and "Choose the box first" in screen_text(app)
        await pilot.press("down", "up", "enter")  # arrows choose among the allowed boxes
        await settle(pilot)
        assert state.turn_number == 1

    drive(app, body)


def test_a_wasted_zero_asks_first() -> None:
    state = rolled(new_state("yatzy", ["Anna"]), [1, 1, 2, 3, 5])
    app = make_app(state)

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        await pilot.press(letter(app, "sixes"), "enter")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        assert "Sixes gets 0 points" in screen_text(app)
        await pilot.press("n")
        await settle(pilot)
        assert state.sheet.is_open("sixes") and state.turn_number == 0
        await write_box(pilot, "ones")  # a box that scores: no question
        assert state.sheets[0].points("ones") == 2

    drive(app, body)


def test_scratch_mode_asks_and_scratches() -> None:
    state = rolled(new_state("yatzy", ["Anna"]), [1, 1, 2, 3, 5])
    app = make_app(state)

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        await pilot.press("x")
        await settle(pilot)
        assert "Scratch mode" in screen_text(app)
        await write_box(pilot, "yatzy", yes=True)
        entry = state.sheets[0].entries["yatzy"]
        assert entry is not None and entry.scratched

    drive(app, body)


def test_undo_until_the_next_roll() -> None:
    state = new_state("yatzy", ["Anna", "Bo"])
    app = make_app(state)

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        await pilot.press("space")
        await settle(pilot)
        writer = state.player
        dice = list(state.dice or [])
        box = state.allowed_boxes()[0]
        await write_box(pilot, box)
        assert state.player != writer
        await pilot.press("u")
        await settle(pilot)
        assert state.player == writer and state.sheet.is_open(box) and state.dice == dice
        assert "takes back" in screen_text(app)
        await write_box(pilot, box)
        await pilot.press("space", "u")  # the next roll ends the chance to undo
        await settle(pilot)
        assert not state.sheets[writer].is_open(box)
        assert "nothing to undo" in screen_text(app)

    drive(app, body)


def test_dubbel_two_enters_fill_inner_then_outer() -> None:
    state = rolled(new_state("dubbel", ["Anna"]), [(6, 6), (6, 5), (6, 4), (1, 3), (2, 2), (3, 1)])
    app = make_app(state)

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        await pilot.press(letter(app, "chance"), "enter")
        await settle(pilot)
        assert "Inner result: Chance" in screen_text(app)
        await pilot.press("escape")  # start over
        await pilot.press(letter(app, "chance"), "enter", letter(app, "chance"), "enter")
        await settle(pilot)
        assert "twice" in screen_text(app) or state.turn_number == 0
        await pilot.press(letter(app, "sixes"), "enter")
        await settle(pilot)
        await answer(pilot, True)
        turn = state.log[-1]
        assert turn["inner"]["box"] == "chance" and turn["outer"]["box"] == "sixes"

    drive(app, body)


def test_a_refused_write_says_why_and_changes_nothing() -> None:
    state = rolled(new_state("yatzy+forced", ["Anna"]), [6, 6, 6, 2, 3])
    app = make_app(state)

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        before = state.clone()
        await pilot.press(letter(app, "sixes"), "enter")
        await settle(pilot)
        assert state == before
        assert "may not" in screen_text(app) or "Ones" in app.error
        # the sheet greys what the order forbids: Sixes' points are in parentheses
        assert "(18)" in screen_text(app)

    drive(app, body, size=(120, 40))


# -- hints and help ----------------------------------------------------------------------


def test_hint_lists_options_and_labels_approximate_advice() -> None:
    prepare_tables("optimal", "dubbel")  # the table there, as after the background build
    state = rolled(new_state("dubbel", ["Anna"]), [(6, 6), (6, 5), (6, 4), (1, 3), (2, 2), (3, 1)])
    app = make_app(state)

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        await pilot.press("h")
        await settle(pilot)
        assert isinstance(app.screen, TextScreen)
        text = screen_text(app)
        assert "best options" in text and "approximate" in text.lower()
        assert "Expected final score" in text
        await pilot.press("escape")
        await settle(pilot)
        assert len(app.screen_stack) == 1

    drive(app, body, size=(120, 40))


@pytest.mark.parametrize("looked_up", [False, True])
def test_solo_hint_aims_at_the_record_then_at_points(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, looked_up: bool
) -> None:
    """A record given, or looked up (in the local database) after the first screen."""
    from tests.solver.test_solver import sheet_of
    from yatzy.solver.target import TargetTable
    from yatzy.strategy import target_play

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    # The points' table counts as ready (built here: seconds); while it is not, the
    # hint says so and builds it in the background (test_cli_round3).
    monkeypatch.setattr("yatzy.bots.preparing", lambda level, rules: False)
    open_boxes = ["threes", "full_house", "chance"]
    table = TargetTable("yatzy", open_boxes=open_boxes)  # a sub-game's: seconds to solve
    monkeypatch.setitem(target_play._TABLES, "yatzy", table)
    state = new_state("yatzy", ["Anna"], starter=0)
    state.sheets[0] = sheet_of(state.rules, open_boxes, {"sixes": 24, "fives": 20})
    state = rolled(state, [3, 3, 3, 5, 1])
    chance = 100 * table.probability(state, 76)
    found = {"record_lookup": lambda: 75} if looked_up else {"record": 75}
    app = make_app(state, **found)  # type: ignore[arg-type]

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        await settle(pilot)
        assert app.record == 75
        assert "record 75: " in screen_text(app)
        await pilot.press("h")
        await settle(pilot)
        assert isinstance(app.screen, TextScreen)
        text = screen_text(app)
        want = f"the chance of beating it with the best play is {chance:.1f}\u00a0%"
        assert f"Aiming at your record (75): {want}" in text
        assert "percentage points)" in text
        assert text.index("Aiming at your record") < text.index("highest expected score instead")
        assert "Expected final score with the best play" in text

    drive(app, body, size=(120, 40))


@pytest.mark.slow
def test_the_record_chance_is_in_sight_at_80x24(monkeypatch: pytest.MonkeyPatch) -> None:
    """The status line is full with the keys at 80 columns: the chance of beating
    the record goes on the rolls line once the dice are out, and stays in sight."""
    from tests.solver.test_solver import sheet_of
    from yatzy.solver.target import TargetTable
    from yatzy.strategy import target_play

    open_boxes = ["threes", "full_house", "chance"]
    table = TargetTable("yatzy", open_boxes=open_boxes)
    monkeypatch.setitem(target_play._TABLES, "yatzy", table)
    state = new_state("yatzy", ["Anna"], starter=0)
    state.sheets[0] = sheet_of(state.rules, open_boxes, {"sixes": 24, "fives": 20})
    app = make_app(state, record=75, lang="sv")

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        await settle(pilot)
        assert "rekord 75: " in screen_text(app)  # before the roll
        await pilot.press("r")
        await settle(pilot)
        assert "rekord 75: " in screen_text(app)

    drive(app, body, size=(80, 24))


def test_help_shows_keys_and_the_rules_of_the_variant() -> None:
    app = make_app(new_state("maxi", ["Anna"]), lang="sv")

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        await pilot.press("question_mark")
        await settle(pilot)
        text = screen_text(app)
        assert "Tangenter" in text and "Maxi" in text
        await pilot.press("escape")
        await settle(pilot)
        assert len(app.screen_stack) == 1

    drive(app, body, size=(120, 40))


# -- saving and quitting ---------------------------------------------------------------


def test_quit_offers_the_rescue_file_and_enter_saves_it(tmp_path: Path) -> None:
    state = new_state("yatzy", ["Anna"])
    app = make_app(state, rescue=tmp_path / "rescue")

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        await pilot.press("space")
        await settle(pilot)
        await pilot.press("q")
        await settle(pilot)
        assert isinstance(app.screen, PathScreen)
        await pilot.press("enter")  # the offered rescue file
        await settle(pilot)

    assert drive(app, body) == 1
    files = list((tmp_path / "rescue").glob("unfinished-*.json"))
    assert len(files) == 1
    assert load(str(files[0])) == state
    assert any("--resume" in line for line in app.exit_lines)


def test_ctrl_c_asks_too_and_escape_goes_back(tmp_path: Path) -> None:
    state = new_state("yatzy", ["Anna"])
    app = make_app(state, rescue=tmp_path)

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        await pilot.press("space", "ctrl+c")
        await settle(pilot)
        assert isinstance(app.screen, PathScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert len(app.screen_stack) == 1 and app.return_value is None
        await pilot.press("q")
        await settle(pilot)
        await pilot.click("#nosave")
        await settle(pilot)

    assert drive(app, body) == 1
    assert not list(tmp_path.glob("*.json"))


def test_quit_never_replaces_a_file_unasked(tmp_path: Path) -> None:
    state = new_state("yatzy", ["Anna"])
    app = make_app(state, rescue=tmp_path)
    target = tmp_path / "keep.json"
    target.write_text("precious", encoding="utf-8")

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        await pilot.press("space")
        await settle(pilot)
        await pilot.press("ctrl+s")
        await settle(pilot)
        field = app.screen.query_one("#path")
        field.value = str(target)  # type: ignore[attr-defined]
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await settle(pilot)
        assert "not saved" in screen_text(app)
        await pilot.press("ctrl+s")  # a new file is saved at once
        await settle(pilot)
        app.screen.query_one("#path").value = str(fresh)  # type: ignore[attr-defined]
        await pilot.press("enter")
        await settle(pilot)
        text = screen_text(app)
        assert len(app.screen_stack) == 1 and "Saved to" in text and "not saved" not in text

    fresh = tmp_path / "new.json"
    drive(app, body)
    assert target.read_text(encoding="utf-8") == "precious"
    assert load(str(fresh)) == state


def test_with_save_quitting_saves_without_asking(tmp_path: Path) -> None:
    record = tmp_path / "g.json"
    state = new_state("yatzy", ["Anna"])
    app = make_app(state, save_path=str(record))

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        await pilot.press("space")
        await settle(pilot)
        await write_box(pilot, state.allowed_boxes()[0])
        await pilot.press("q")
        await settle(pilot)

    assert drive(app, body) == 1
    assert load(str(record)) == state and state.turn_number == 1


# -- keys and the command line ---------------------------------------------------------


def test_box_letters_skip_the_command_keys_and_cover_maxi() -> None:
    assert not set(BOX_KEYS) & COMMAND_KEYS
    maxi = RuleSet.parse("maxi")
    assert [box_for_key(maxi, k) for k in BOX_KEYS[: len(maxi.boxes)]] == list(maxi.boxes)
    assert box_for_key(maxi, "h") is None and box_for_key(maxi, "Q") is None


def test_full_screen_only_at_a_terminal_and_not_with_plain(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import argparse

    from yatzy.cli import cmd_play

    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert cmd_play._full_screen(argparse.Namespace(plain=False))
    assert not cmd_play._full_screen(argparse.Namespace(plain=True))
    monkeypatch.setattr(sys.stdout, "isatty", lambda: False, raising=False)
    assert not cmd_play._full_screen(argparse.Namespace(plain=False))


def test_score_and_piped_play_import_no_textual(tmp_path: Path) -> None:
    code = (
        "import io, sys\n"
        "sys.stdin = io.StringIO('q\\n')\n"
        "from yatzy.cli.main import main\n"
        "main(['score', 'yatzy', '1', '2', '3', '4', '5'])\n"
        "main(['play', '--seed', '1', 'A'])\n"
        "print('TEXTUAL', 'textual' in sys.modules)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=tmp_path
    )
    assert proc.stdout.rstrip().endswith("TEXTUAL False"), proc.stderr


def test_start_and_resume_give_the_same_app_state(tmp_path: Path) -> None:
    record = tmp_path / "r.json"
    state = rolled(new_state("maxi+saved_rolls", ["Anna", "Bo"], starter=0), [1, 2, 3, 4, 5, 6])
    state.apply(Score("chance"))
    record.write_text(json.dumps(json.loads(_dumps(state))), encoding="utf-8")
    resumed = load(str(record))
    app = make_app(resumed)
    app.resumed_from = str(record)

    async def body(pilot: Pilot[Any], app: YatzyApp) -> None:
        text = screen_text(app)
        assert "Resumed" in text and "Saved rolls" in text

    drive(app, body, size=(120, 40))


def _dumps(state: State) -> str:
    from yatzy.game import dumps

    return dumps(state)


# -- the sheet's colours (sheetview) ---------------------------------------------------


def _row(rows: list[Any], key: str) -> Any:
    return next(r for r in rows if r.key == key)


def test_sheet_marks_the_best_box_grey_forbidden_boxes_and_a_won_bonus() -> None:
    from yatzy.cli.tui.sheetview import BEST, GREY, YATZY, sheet_rows

    state = rolled(new_state("yatzy+forced", ["Anna"]), [6, 6, 6, 6, 6])
    rows = sheet_rows(state, "en")
    assert _row(rows, "ones").now.style == "dim"  # the one box allowed scores 0
    sixes = _row(rows, "sixes")
    assert sixes.now.text == "(30)" and sixes.now.style == GREY and sixes.label.style == GREY

    free = rolled(new_state("yatzy", ["Anna"]), [6, 6, 6, 6, 6])
    rows = sheet_rows(free, "en")
    assert _row(rows, "yatzy").now.style == BEST and _row(rows, "yatzy").now.text == "50"
    free.apply(Score("yatzy"))
    rows = sheet_rows(free, "en")
    assert _row(rows, "yatzy").cells[0].style.startswith(YATZY)
    assert "underline" in _row(rows, "yatzy").cells[0].style  # the last write

    won = new_state("yatzy", ["Anna"])
    for box, dice in [("fours", [4, 4, 4, 4, 1]), ("fives", [5, 5, 5, 5, 1])]:
        rolled(won, dice).apply(Score(box))
    for box, face in [("sixes", 6), ("threes", 3)]:
        rolled(won, [face] * 4 + [1]).apply(Score(box))
    rows = sheet_rows(won, "en")
    bonus = _row(rows, "bonus").cells[0]
    assert bonus.text == "50" and bonus.style == BEST
    assert _row(rows, "par").cells[0].style == "green"  # ahead of the pace


def test_many_players_get_short_columns_and_keys_cover_every_box() -> None:
    from yatzy.cli.tui.sheetview import player_heads, sheet_rows

    state = new_state("maxi", [f"Player number {i}" for i in range(14)], starter=0)
    heads = player_heads(state, 6)
    assert all(len(h) <= 6 for h in heads) and heads[0] == "Playe…"
    rows = [r for r in sheet_rows(state, "fi") if r.box]
    assert [r.letter for r in rows] == [c.upper() for c in BOX_KEYS[:20]]


def test_yatzy_play_at_a_terminal_is_full_screen_and_resumes(tmp_path: Path) -> None:
    from tests.tui.helpers import run_in_pty

    record = tmp_path / "g.json"
    env = {"XDG_STATE_HOME": str(tmp_path / "state")}
    keys = [("1-6 keep", b" "), ("Rolls left", b"\x11")]  # roll, Ctrl-Q
    code, _ = run_in_pty(["play", "--seed", "4", "--save", str(record), "Anna"], keys, env)
    assert code == 1 and load(str(record)).dice is not None  # --save: saved, no question
    keys = [("Fortsätter", b"q")]
    code, text = run_in_pty(["play", "--resume", str(record), "--lang", "sv"], keys, env)
    assert code == 1
    assert "Sparat i" in text and "--resume" in text


def test_every_tui_message_speaks_sv_fi_en_with_the_same_fields() -> None:
    import string

    from yatzy.cli.i18n import MESSAGES

    keys = [k for k in MESSAGES if k.startswith("tui_")]
    assert len(keys) > 20
    for key in keys:
        texts = MESSAGES[key]
        assert set(texts) == {"sv", "fi", "en"}, key
        fields = [{f for _, f, _, _ in string.Formatter().parse(t) if f} for t in texts.values()]
        assert all(f == fields[0] for f in fields), key


def test_a_bot_without_its_table_plays_greedily_at_once_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Issue 24: a strong bot whose table is not built yet does not keep the game
    # waiting: the greedy strategy plays for it (its own bot is never asked), the
    # status line and the messages say so, and its own strategy takes over (said too)
    # once the table is there.
    ready = {"yes": False}
    started: list[tuple[str, str]] = []
    monkeypatch.setattr("yatzy.cli.tui.app.QUICK_BOTS", frozenset())
    monkeypatch.setattr(
        "yatzy.cli.play_common.strategy_pending", lambda state, seat: not ready["yes"]
    )
    monkeypatch.setattr(
        "yatzy.cli.play_common.prepare_in_background",
        lambda level, state: started.append((level, state.rules.spec)) or True,
    )
    state = new_state("yatzy", ["Anna"], ("greedy",), starter=1)
    app = make_app(state, lang="sv")
    bot = app.bots[1]
    asked: list[int] = []
    choose = bot.choose
    monkeypatch.setattr(bot, "choose", lambda s, rng: (asked.append(1), choose(s, rng))[1])
    said_all: list[str] = []  # the message area keeps 3 lines: every one said, here
    say = app._say
    monkeypatch.setattr(app, "_say", lambda text: (said_all.append(text), say(text))[1])

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert state.player == 0 and asked == [] and set(started) == {("greedy", "yatzy")}
            assert app.preparing and app.stand_in_seats == {1}
            said = "Greedy (dator) spelar en enkel strategi så länge"
            assert any(said in m for m in said_all), said_all
            ready["yes"] = True
            state.apply(Roll(()))
            state.apply_roll([1, 1, 2, 3, 4])
            state.apply(Score("ones"))
            app._advance()
            await settle(pilot)
            assert asked and not app.preparing and state.player == 0
            assert any("spelar nu sin egen strategi" in m for m in said_all)

    asyncio.run(main())
