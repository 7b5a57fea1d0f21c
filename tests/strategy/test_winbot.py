"""The bot that plays for the win: legal choices in every supported variant, the
right risks when behind and safety when ahead, the numba head-to-head kernel against
the Python bot, the fallback where it cannot play for the win, and its wiring into
the front ends.  Everything runs on small sub-games (a whole game's target tables
take minutes)."""

from __future__ import annotations

import io
import math
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from yatzy.bots import BOT_LEVELS, RandomBot, is_exact, make_bot
from yatzy.errors import YatzyError
from yatzy.game import Action, BoxEntry, Game, Player, Roll, Score, Scratch, State, save
from yatzy.rules import RuleSet
from yatzy.solver import Solver
from yatzy.solver.target import TargetTable
from yatzy.strategy import winbot
from yatzy.strategy.outcomes import policy_for
from yatzy.strategy.winbot import WinnerBot, WinTables, make_tables, win_curve

LAST = ["chance", "yatzy"]


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Nothing here reads or writes the user's table cache."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    winbot._TABLES.clear()
    yield
    winbot._TABLES.clear()


_BUILT: dict[tuple[str, tuple[str, ...]], WinTables] = {}


def tables_of(spec: str, boxes: list[str]) -> WinTables:
    """The bot's tables of a sub-game (solved in memory, once per test session)."""
    key = (spec, tuple(boxes))
    if key not in _BUILT:
        _BUILT[key] = make_tables(
            TargetTable(spec, mode="max", open_boxes=boxes, use_cache=False),
            TargetTable(spec, mode="optimal", open_boxes=boxes, use_cache=False),
        )
    return _BUILT[key]


def position(
    spec: str,
    open_boxes: list[list[str]],
    filled: list[dict[str, int]],
    *,
    bots: tuple[str | None, ...] = ("winner", None),
) -> State:
    """Seat ``i`` has ``open_boxes[i]`` open (the others hold ``filled[i]`` or 0); seat
    0 is to start its turn."""
    game = Game(spec, [Player(f"P{i}", b) for i, b in enumerate(bots)])
    state = game.new_initial_state(starter=0)
    for i, sheet in enumerate(state.sheets):
        for box in state.rules.boxes:
            if box not in open_boxes[i]:
                sheet.entries[box] = BoxEntry(filled[i].get(box, 0))
    state.turn_number = len(bots) * (len(state.rules.boxes) - len(open_boxes[0]))
    return state


def rolled(state: State, dice: list[int], keep: tuple[int, ...] | None = None) -> State:
    """Roll ``dice`` (the first roll, or a re-roll keeping ``keep``)."""
    state.apply(Roll(() if keep is None else keep))
    state.apply_roll(dice)
    return state


# -- the win curve -----------------------------------------------------------------------


def test_win_curve_counts_ties_half_and_follows_the_opponent() -> None:
    tables = tables_of("yatzy", LAST)
    state = position("yatzy", [LAST, []], [{}, {"chance": 20, "sixes": 18}])
    curve = win_curve(state, 0, tables)
    assert curve[37] == 0.0 and curve[38] == 0.5 and curve[39] == 1.0
    # An opponent with a box left: a real distribution, from the optimal-mode table.
    state = position("yatzy", [LAST, ["chance"]], [{}, {"sixes": 18}])
    curve = win_curve(state, 0, tables)
    assert np.all(np.diff(curve) >= -1e-12)
    assert 0.0 < curve[18 + 20] < 1.0 and curve[18 + 5] < 0.01 and curve[18 + 31] == 1.0
    with pytest.raises(YatzyError):
        win_curve(state, 0, tables, levels=[None])


def test_win_curve_with_two_opponents_shares_a_three_way_tie() -> None:
    tables = tables_of("yatzy", LAST)
    done = {"sixes": 30, "chance": 20}
    state = position("yatzy", [LAST, [], []], [{}, done, done], bots=("winner", None, "strong"))
    curve = win_curve(state, 0, tables)
    assert curve[49] == 0.0 and curve[50] == pytest.approx(1 / 3) and curve[51] == 1.0
    # One opponent still to play Chance: the product of the two chances to stay below.
    state = position(
        "yatzy", [LAST, ["chance"], []], [{}, {"sixes": 30}, done], bots=("winner", None, None)
    )
    one = position("yatzy", [LAST, ["chance"]], [{}, {"sixes": 30}])
    both, alone = win_curve(state, 0, tables), win_curve(one, 0, tables)
    assert both[51:] == pytest.approx(alone[51:])  # above 50 only the open sheet matters
    assert both[:50] == pytest.approx(np.zeros(50))


# -- choices in constructed positions ---------------------------------------------------------


def _ev_choice(state: State, boxes: list[str]) -> Action | None:
    return Solver(state.rules, open_boxes=boxes, use_cache=False).advise(state).best


@pytest.mark.parametrize("alpha", [0.0, 0.5, 1.0])
def test_far_behind_late_it_chases_the_yatzy_that_loses_points(alpha: float) -> None:
    # 40 behind a finished opponent with Chance and Yatzy open, and 1-1-1-1-2 after the
    # last roll: points say scratch the Yatzy (Chance is worth ~23 next turn), but
    # only a Yatzy can still win.
    state = position("yatzy", [LAST, []], [{"sixes": 30}, {"sixes": 30, "chance": 40}])
    tables = tables_of("yatzy", LAST)
    rolled(state, [1, 1, 1, 1, 2])
    rolled(state, [1, 2], keep=(0, 1, 2))
    rolled(state, [1, 2], keep=(0, 1, 2))
    assert state.rolls_left() == 0
    assert _ev_choice(state, LAST) in (Score("yatzy"), Scratch("yatzy"))
    choice = WinnerBot(tables, alpha=alpha).choose(state, random.Random(1))
    assert choice == Score("chance")


@pytest.mark.parametrize("alpha", [0.0, 0.5, 1.0])
def test_ahead_it_takes_the_sure_win_instead_of_the_yatzy_chance(alpha: float) -> None:
    # 6-6-6-6-5 with a roll left; a Chance of 29 now wins for sure.  Points say go for
    # the Yatzy (re-roll the 5), which risks the win.
    state = position("yatzy", [LAST, []], [{"sixes": 30}, {"sixes": 30, "chance": 28}])
    tables = tables_of("yatzy", LAST)
    rolled(state, [6, 6, 6, 6, 5])
    rolled(state, [6, 5], keep=(0, 1, 2))
    assert state.rolls_left() == 1
    best = _ev_choice(state, LAST)
    assert isinstance(best, Roll) and len(best.keep) == 4
    choice = WinnerBot(tables, alpha=alpha).choose(state, random.Random(1))
    assert choice == Score("chance")


@pytest.mark.parametrize("alpha", [0.0, 0.5, 1.0])
def test_box_choice_matches_a_direct_evaluation_of_every_legal_box(alpha: float) -> None:
    """The kernel's box is the best of the legal fills valued through game states."""
    boxes = ["ones", "twos", "chance", "yatzy"]
    tables = tables_of("yatzy", boxes)
    rng = random.Random(5)
    bot = WinnerBot(tables, alpha=alpha)
    checked = 0
    for _ in range(40):
        state = position("yatzy", [boxes, boxes[1:]], [{}, {"ones": rng.randint(0, 5)}])
        state.apply(Roll())
        state.roll(rng)
        plan = bot.plan(state)
        fills = [a for a in state.legal_actions() if isinstance(a, (Score, Scratch))]
        values = [bot.fill_value(state, a, plan, tables) for a in fills]
        dice = tuple(sorted(state.layer("all")))
        assert max(values) == pytest.approx(plan.F[tables.keep_index[dice]], abs=1e-9)
        while state.rolls_left() > 0:
            state.apply(Roll())
            state.roll(rng)
        chosen = bot.choose(state, rng)
        assert chosen in fills
        assert bot.fill_value(state, chosen, plan, tables) == pytest.approx(max(
            bot.fill_value(state, a, plan, tables)
            for a in state.legal_actions()
            if isinstance(a, (Score, Scratch))
        ), abs=1e-9)  # fmt: skip
        checked += 1
    assert checked == 40


# -- legal in every variant ---------------------------------------------------------------------


def _play(state: State, bots: dict[int, Any], rng: random.Random) -> State:
    while not state.is_terminal():
        if state.is_chance_node():
            state.roll(rng)
            continue
        action = bots[state.player].choose(state, rng)
        assert action in state.legal_actions(), (state.rules.spec, action)
        state.apply(action)
    return state


@pytest.mark.parametrize(
    "spec",
    ["yatzy", "yatzy+forced", "yatzy+last_resort", "yatzy+lenient", "yahtzee",
     "yahtzee+joker=free", "yahtzee+joker=none"],
)  # fmt: skip
def test_choices_are_legal_in_every_supported_variant(spec: str) -> None:
    # The forced order's sheets end in protocol order; elsewhere an upper box too.
    first = "large_straight" if "forced" in spec else "ones"
    boxes = [first, "full_house", "chance", "yatzy"]
    tables = tables_of(spec, boxes)
    rng = random.Random(len(spec))
    for game in range(3):
        state = position(spec, [boxes, boxes], [{}, {}])
        winner = WinnerBot(tables, levels=[None, None])
        bots: dict[int, Any] = {game % 2: winner, 1 - game % 2: RandomBot()}
        _play(state, bots, rng)


def test_forced_joker_goes_where_the_rules_say() -> None:
    spec = "yahtzee"
    boxes = ["ones", "full_house", "chance"]
    tables = tables_of(spec, boxes)
    state = position(spec, [boxes, []], [{"yatzy": 50}, {"chance": 30}])
    rolled(state, [5, 5, 5, 5, 5])
    for _ in range(2):
        rolled(state, [5, 5], keep=(0, 1, 2))
    choice = WinnerBot(tables).choose(state, random.Random(0))
    assert choice in state.legal_actions()
    assert choice in (Score("full_house"), Score("chance"))


# -- the kernel against the Python bot ---------------------------------------------------------


class _SubgameOptimal:
    """The optimal bot of a sub-game (the whole game's table is not needed)."""

    name = "optimal"

    def __init__(self, spec: str, boxes: list[str]) -> None:
        self.solver = Solver(spec, open_boxes=boxes, use_cache=False)

    def choose(self, state: State, rng: random.Random) -> Action:
        best = None if state.dice is None else self.solver.advise(state).best
        return Roll() if best is None else best


@pytest.mark.slow
@pytest.mark.parametrize(
    ("spec", "boxes"),
    [("yatzy", ["ones", "twos", "chance", "yatzy"]), ("yahtzee", ["fives", "yatzy", "chance"])],
)
def test_kernel_and_python_bot_win_as_often(spec: str, boxes: list[str]) -> None:
    tables = tables_of(spec, boxes)
    # 8,000 games a side: the bot's edge over the optimal bot here (about 8 points in
    # Yatzy, 4 in Yahtzee) is 3.5 or more of the margins (about 1 point), and the
    # control's rate within 3 margins of one half (20,000 games: 2.5 times the CPU).
    kernel = winbot.head_to_head(tables, 8_000, 11)
    control = winbot.head_to_head(tables, 8_000, 12, control=True)
    assert abs(control.rate - 0.5) < 3 * control.margin / 1.96 + 0.002
    assert kernel.rate > control.rate  # it does play for the win
    # The kernel's optimal bot scores what the solver says the sub-game is worth.
    optimal = _SubgameOptimal(spec, boxes)
    worth = optimal.solver.value(position(spec, [boxes, boxes], [{}, {}]).sheets[0])
    se = float(np.concatenate([control.scores[:, 0], control.scores[:, 1]]).std()) / math.sqrt(
        2 * control.games
    )
    assert abs(float(np.mean(control.means)) - worth) < 4 * se, (control.means, worth)
    rng = random.Random(3)
    games = 200
    points = 0.0
    for g in range(games):
        state = position(spec, [boxes, boxes], [{}, {}], bots=("winner", "optimal"))
        seat = g % 2  # the bot for the win sits in seat g % 2; seat 0 starts
        bots = {seat: WinnerBot(tables), 1 - seat: optimal}
        _play(state, bots, rng)
        mine, theirs = state.sheets[seat].total, state.sheets[1 - seat].total
        points += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    rate = points / games
    se = math.sqrt(kernel.rate * (1 - kernel.rate) / games + (kernel.margin / 1.96) ** 2)
    assert abs(rate - kernel.rate) < 4 * se, (rate, kernel.rate)


def test_head_to_head_figures() -> None:
    tables = tables_of("yatzy", LAST)
    h = winbot.head_to_head(tables, 2000, 1)
    assert h.games == 2000 and 0 <= h.ties <= h.games and h.wins <= h.games
    assert h.rate == pytest.approx((h.wins + 0.5 * h.ties) / h.games)
    assert 0 < h.margin < 0.05 and h.games_per_second > 0
    assert h.means[0] > 0 and h.means[1] > 0
    with pytest.raises(YatzyError):
        winbot.head_to_head(tables, 0, 1)


# -- where it cannot play for the win -----------------------------------------------------


class _Stub:
    def __init__(self) -> None:
        self.calls = 0

    def choose(self, state: State, rng: random.Random) -> Action:
        self.calls += 1
        return state.legal_actions()[0]


@pytest.mark.parametrize("spec", ["maxi", "dubbel", "maxi+saved_rolls"])
def test_other_rule_sets_play_the_optimal_strategy(spec: str) -> None:
    rules = RuleSet.parse(spec)
    assert not winbot.winner_supported(rules)
    bot = WinnerBot()
    stub = _Stub()
    bot._fallback = stub
    state = Game(spec, [Player("A", "winner"), Player("B", None)]).new_initial_state(starter=0)
    assert bot.choose(state, random.Random(0)) == Roll()
    state.apply(Roll())
    state.roll(random.Random(0))
    assert bot.choose(state, random.Random(0)) in state.legal_actions()
    assert stub.calls == 1
    with pytest.raises(YatzyError):
        winbot.win_tables(rules)


def test_alone_it_plays_the_optimal_strategy() -> None:
    bot = WinnerBot(tables_of("yatzy", LAST))
    stub = _Stub()
    bot._fallback = stub
    state = Game("yatzy", [Player("A", "winner")]).new_initial_state(starter=0)
    rolled(state, [1, 2, 3, 4, 6])
    bot.choose(state, random.Random(0))
    assert stub.calls == 1


def test_tables_must_fit() -> None:
    t = tables_of("yatzy", LAST)
    for alpha in (-0.1, 1.5, math.nan):
        with pytest.raises(YatzyError):
            WinnerBot(t, alpha=alpha)
    with pytest.raises(YatzyError):
        make_tables(t.opt_table, t.max_table)
    with pytest.raises(YatzyError):
        WinnerBot(t).tables_for(RuleSet.parse("yahtzee"))


# -- wiring ---------------------------------------------------------------------------------


def test_level_is_registered_everywhere() -> None:
    from yatzy.i18n import LANGUAGES
    from yatzy.web.catalog import bot_choices, bot_name
    from yatzy.web.service import bot_levels

    assert "winner" in BOT_LEVELS and isinstance(make_bot("winner"), WinnerBot)
    assert is_exact("winner", RuleSet.parse("yatzy"))
    assert policy_for("winner", RuleSet.parse("yatzy")).kind == "optimal"
    for lang in LANGUAGES:
        offered = bot_choices(bot_levels(), lang)
        levels = [c["level"] for c in offered]
        names = [c["name"] for c in offered]
        assert "winner" in levels and len(set(names)) == len(names) >= 5
        assert bot_name("winner", lang) == names[levels.index("winner")]
        assert "%" in offered[levels.index("winner")]["strength"]


def test_a_cli_game_against_it_finishes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from yatzy.cli.main import main
    from yatzy.game import load

    tables = tables_of("yatzy", LAST)
    monkeypatch.setattr(winbot, "win_tables", lambda rules, **kw: tables)
    # Both players scratch every box but Chance and Yatzy, then the game is saved.
    state = Game("yatzy", [Player("Ann", None), Player("Win", "winner")]).new_initial_state(
        starter=0
    )
    rng = random.Random(2)
    order = [b for b in state.rules.boxes if b not in LAST]
    for turn in range(2 * len(order)):
        state.apply(Roll())
        state.roll(rng)
        state.apply(Scratch(order[turn // 2]))
    path = tmp_path / "late.json"
    save(state, path)
    monkeypatch.setattr(sys, "stdin", io.StringIO("r\ns chance\nr\ns yatzy\n"))
    code = main(["play", "--plain", "--seed", "4", "--resume", str(path), "--save", str(path)])
    out, err = capsys.readouterr()
    assert code == 0, err + out
    final = load(path)
    assert final.is_terminal()
    assert all(not s.open_boxes for s in final.sheets)
    assert "Win (bot" in out


def test_the_web_app_offers_it(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from yatzy.web.app import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'y.db'}", bot_delay=0.0)) as client:
        assert "winner" in client.get("/api/rules").json()["bots"]
        for lang, name in (("sv", "Vinnare"), ("fi", "Voittaja"), ("en", "Winner")):
            page = client.get("/", headers={"Accept-Language": lang}).text
            assert 'value="winner"' in page and name in page


def test_the_web_view_says_when_a_bot_prepares_its_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the bot to act has no tables yet (a fresh computer), the view says
    ``preparing`` and the page words it; a person's turn and a quick bot's never do."""
    from yatzy.game import Game
    from yatzy.rules import RuleSet
    from yatzy.store import SeatInfo, StoredGame
    from yatzy.web.i18n import ui_strings
    from yatzy.web.views import game_view

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "empty-cache"))
    rules = RuleSet.parse("yatzy")

    def view_with(bot: str | None) -> Any:
        state = Game(rules, ["Kim", "Ann"]).new_initial_state(starter=0)  # Kim to roll
        seats = [SeatInfo(0, "Kim", bot=bot), SeatInfo(1, "Ann", token_hash="x")]
        stored = StoredGame.new("g", "yatzy", "en", False, False, "", "{}", False, seats)
        return game_view(stored, state)["turn"]

    assert view_with("winner")["preparing"] is True
    # Meanwhile it plays the greedy strategy, and the view says so in words.
    from yatzy.web.prepare import preparing_words

    assert view_with("winner")["bot_note"] == preparing_words("en")
    assert "preparing" not in view_with(None)
    assert "preparing" not in view_with("greedy")
    assert "{player}" in ui_strings("sv")["bot_preparing"]
