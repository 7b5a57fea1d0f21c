"""Live chances to win at a terminal: the line mode prints every player's chance
after each turn (``--chances``; by default only when output is a terminal), the
full-screen sheet keeps them in its first row, and the numbers are the library's."""

from __future__ import annotations

import asyncio
import io
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.tui.helpers import make_app, settle
from yatzy.cli import play_common
from yatzy.cli.main import main
from yatzy.cli.play_common import chance_text, chances_line, live_chances
from yatzy.game import Game, save
from yatzy.game.state import State
from yatzy.strategy import outcomes


@pytest.fixture(autouse=True)
def _private(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setattr(outcomes, "_whole_table", lambda rules: None)
    # These tests are about the figures' shape: the people count as playing their best
    # (exact chances).  Whether they are measured depends on the strategy table being
    # in this process already (an earlier test may have built it), so measuring is
    # left out here and tested in test_cli_measured.py.
    monkeypatch.setattr(play_common, "measured_levels", lambda state, history=None: {})
    yield


def late_game(names: list[str], bots: dict[int, str] | None = None) -> State:
    """A game played by greedy moves until each player has three boxes open, seat 0
    to roll (the record replays: every move is in its log)."""
    import random

    from yatzy.bots import make_bot, play_turn
    from yatzy.game import Player

    bots = bots or {}
    game = Game("yatzy", [Player(n, bots.get(i)) for i, n in enumerate(names)])
    state = game.new_initial_state(starter=0)
    greedy, rng = make_bot("greedy"), random.Random(5)
    while len(state.sheets[-1].open_boxes) > 3:
        play_turn(state, greedy, rng)
    return state


def test_chance_text_in_each_language() -> None:
    assert chance_text(0.5432, 0.0, "en") == "54.3\u00a0%"
    assert chance_text(0.5432, 0.0, "sv") == "54,3\u00a0%"
    # Simulated: plain words, as the web page says them (no "±" jargon).
    assert chance_text(0.5432, 0.0173, "fi") == "noin 54\u00a0%"
    assert chance_text(0.5432, 0.0173, "sv") == "cirka 54\u00a0%"
    assert chance_text(0.5432, 0.0173, "en") == "about 54\u00a0%"
    assert chance_text(0.5432, 0.004, "en") == "about 54.3\u00a0%"
    assert chance_text(0.99991, 0.0, "en") == ">\u00a099.9\u00a0%"
    assert chance_text(0.00004, 0.0, "sv") == "<\u00a00,1\u00a0%"
    assert chance_text(1.0, 0.0, "en") == "100.0\u00a0%"


def test_a_lopsided_simulated_chance_is_bounded_by_its_margin() -> None:
    # "about 0 %" would claim a certainty the simulation does not give: the figure
    # plus its margin is what can be said (0.3 % + 2 points: under 3 %).
    assert chance_text(0.003, 0.02, "en") == "under 3\u00a0%"
    assert chance_text(0.003, 0.02, "sv") == "under 3\u00a0%"
    assert chance_text(0.0, 0.004 + 0.006, "fi") == "alle 1\u00a0%"
    assert chance_text(0.996, 0.02, "en") == "over 97\u00a0%"
    assert chance_text(0.996, 0.02, "sv") == "över 97\u00a0%"
    assert chance_text(1.0, 0.02, "fi") == "yli 98\u00a0%"
    # A margin under half a point keeps the tenths, which say it already.
    assert chance_text(0.002, 0.004, "en") == "about 0.2\u00a0%"
    assert chance_text(0.012, 0.02, "en") == "about 1\u00a0%"


@pytest.mark.slow
def test_line_mode_prints_the_chances_after_each_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "late.json"
    state = late_game(["Anna", "Bo"])
    save(state, record)
    rules = state.rules
    turns = zip(*(s.open_boxes for s in state.sheets), strict=True)
    script = "".join(f"r\ns {rules.box_name(b, 'en')}\n" for turn in turns for b in turn)
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    code = main(["play", "--plain", "--chances", "--seed", "3", "--resume", str(record)])
    out = capsys.readouterr().out
    assert code == 0
    found = re.findall(
        r"Chance to win: Anna ([\d.<>\u00a0]+)\u00a0% · Bo ([\d.<>\u00a0]+)\u00a0%", out
    )
    assert len(found) == 6  # before each of the six turns (exact: people, sub-games)
    for a, b in found:
        if "<" not in a + b and ">" not in a + b:
            assert float(a) + float(b) == pytest.approx(100, abs=0.11)
    assert "Chance to win (simulated" not in out
    # In a pipe they are left out unless asked for.
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    save(late_game(["Anna", "Bo"]), record)
    assert main(["play", "--plain", "--seed", "3", "--resume", str(record)]) == 0
    assert "Chance to win" not in capsys.readouterr().out


def test_chances_line_says_when_simulated() -> None:
    state = late_game(["Anna", "Kim"], {1: "strong"})
    result = live_chances(state)
    assert result is not None and not result.exact
    line = chances_line(state, result, "sv")
    assert line.startswith("Chans att vinna (simulerad")
    assert "Anna cirka " in line and "Kim cirka " in line and "±" not in line
    assert "procentenheter" in line
    assert live_chances(Game("yatzy", ["Solo"]).new_initial_state()) is None


def test_full_screen_sheet_shows_the_chances_row() -> None:
    state = late_game(["Anna", "Bo"])
    app = make_app(state, chances=live_chances)
    rows: list[Any] = []

    async def main_() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            table = app.sheet
            rows.append([str(c) for c in table.get_row("win")])

    asyncio.run(main_())
    label, _now, anna, bo = (r.strip() for r in rows[0][1:5])  # then the blank pad
    assert label == "Win %"
    assert anna.isdigit() and bo.isdigit()  # exact: whole percents, no margin
    assert abs(int(anna) + int(bo) - 100) <= 1


def test_the_sheets_chance_row_says_about_not_plus_minus() -> None:
    # Issue 24: "≈54" (about 54), never the "54±2" jargon; exact figures stay bare.
    from types import SimpleNamespace

    from yatzy.cli.tui.sheetview import chance_cells

    simulated = SimpleNamespace(
        seats=[
            SimpleNamespace(chance=0.543, margin=0.017),
            SimpleNamespace(chance=0.457, margin=0.02),
        ]
    )
    cells = chance_cells(simulated, stale=False)
    assert cells is not None
    assert [c.text for c in cells] == ["≈54", "≈46"]
    exact = SimpleNamespace(
        seats=[SimpleNamespace(chance=0.996, margin=0.0), SimpleNamespace(chance=0.004, margin=0.0)]
    )
    cells = chance_cells(exact, stale=False)
    assert cells is not None and [c.text for c in cells] == [">99", "<1"]
