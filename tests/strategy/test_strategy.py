"""Strategy: the within-turn search, greedy, positions, the advisor, analysis, simulation.

Solver tables are cached under a temporary XDG_CACHE_HOME shared by the test
processes of one run.  Exact checks use small games (forced order, sub-games of a
few open boxes), so nothing here solves a big table.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from yatzy.errors import DiceError, ImpossibleScoreError, OrderError, UnknownBoxError, YatzyError
from yatzy.game import BoxEntry, Fill2, Game, Player, Roll, Score, Scratch, State, save
from yatzy.rules import RuleSet, all_rolls
from yatzy.strategy.fills import allowed_boxes, fills
from yatzy.strategy.greedy import GreedyStrategy, final_gains
from yatzy.strategy.position import PositionError, build_position, parse_position_dice, parse_sheet
from yatzy.strategy.turn import keep_tables, positions_of, solve_turn, sub_keeps


@pytest.fixture(autouse=True, scope="module")
def _solver_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    # One cache for the run (xdist workers share the base temp's parent).
    root = tmp_path_factory.getbasetemp().parent / "strategy-cache"
    root.mkdir(exist_ok=True)
    old = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(root)
    yield
    if old is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = old


def sheet_with(rules: RuleSet, open_boxes: list[str], points: int = 0) -> dict[str, int]:
    """A sheet with every box but ``open_boxes`` filled with ``points`` (when possible)."""
    return {
        b: (points if points in rules.possible_scores(b) else 0)
        for b in rules.boxes
        if b not in open_boxes
    }


# -- the within-turn search ------------------------------------------------------------


def test_keep_tables_count_multisets() -> None:
    t5, t6 = keep_tables(5), keep_tables(6)
    assert (t5.n_rolls, len(t5.keeps)) == (252, 462)
    assert (t6.n_rolls, len(t6.keeps)) == (462, 924)
    assert t5.keeps[-1] == ()
    assert len(sub_keeps((3, 3, 5))) == 6


def test_chance_alone_is_worth_70_thirds() -> None:
    # Chance with three rolls: keep 5-6 on the first reroll, 4-6 on the second.
    final = [float(sum(r)) for r in all_rolls(5)]
    values = solve_turn(5, lambda j: final, 3)
    # Each die alone: (2/6) * 5.5 + (4/6) * 4.25 = 14/3; five of them.
    assert values.keep[3][values.tables.index[()]] == pytest.approx(70 / 3, abs=1e-9)
    kept, _ = values.best_keep((1, 2, 4, 5, 6), 2)
    assert kept == (5, 6)
    kept, _ = values.best_keep((1, 2, 4, 5, 6), 1)
    assert kept == (4, 5, 6)


def test_yatzy_chance_in_three_rolls() -> None:
    final = [50.0 if len(set(r)) == 1 else 0.0 for r in all_rolls(5)]
    values = solve_turn(5, lambda j: final, 3)
    assert values.keep[3][values.tables.index[()]] / 50 == pytest.approx(0.046029, abs=1e-6)


def test_positions_of_picks_matching_dice() -> None:
    assert positions_of([3, 5, 3, 1, 5], [3, 5]) == (0, 1)
    with pytest.raises(ValueError):
        positions_of([1, 2], [3])


# -- fills and greedy against the game state ---------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    "spec",
    [
        "yatzy",
        "yahtzee",
        "yahtzee+joker=free",
        "yatzy+forced",
        "yatzy+half_forced",
        "yatzy+last_resort",
        "yatzy+last_resort+half_forced",
    ],
)
def test_fills_match_the_game_state(spec: str) -> None:
    rules = RuleSet.parse(spec)
    rng = random.Random(spec)
    for _ in range(6):
        state = Game(rules, ["p"]).new_initial_state(starter=0)
        # Fill a random prefix of the protocol with random scores, Yatzy 50 often.
        for box in rules.boxes[: rng.randrange(len(rules.boxes))]:
            choices = sorted(rules.possible_scores(box))
            points = 50 if box == "yatzy" and rng.random() < 0.7 else rng.choice(choices)
            state.sheets[0].entries[box] = BoxEntry(points)
        if rules.half_forced and not state.sheets[0].is_open("ones"):
            state.sheets[0].first_section = "upper"
        state.apply(Roll())
        for roll in [*rng.sample(all_rolls(5), 20), *[(f,) * 5 for f in range(1, 7)]]:
            state.apply_roll(list(roll)) if state.is_chance_node() else None
            state.dice = list(roll)
            expected = {b: state.box_points(b) for b in state.allowed_boxes()}
            got = {f.box: f.points for f in fills(rules, state.sheet, allowed_boxes(state), roll)}
            assert got == expected, (spec, roll)
        gains = final_gains(rules, state.sheet, allowed_boxes(state))
        for r, roll in enumerate(all_rolls(5)):
            best = max(f.gain for f in fills(rules, state.sheet, allowed_boxes(state), roll))
            assert gains[r] == best


def test_fill_gain_counts_the_upper_bonus() -> None:
    rules = RuleSet.parse("yatzy")
    state = build_position(
        rules, {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15}, [6, 6, 6, 1, 2], 0
    )
    by_box = {f.box: f for f in fills(rules, state.sheet, allowed_boxes(state), (1, 2, 6, 6, 6))}
    assert by_box["sixes"].points == 18 and by_box["sixes"].gain == 68


def test_greedy_takes_the_most_points_now() -> None:
    rules = RuleSet.parse("yatzy")
    state = build_position(rules, {}, [6, 6, 6, 6, 6], 0)
    assert GreedyStrategy().choose(state) == Score("yatzy")
    state = build_position(rules, {}, [6, 6, 6, 6, 6], 2)
    assert GreedyStrategy().choose(state) == Score("yatzy")
    # Only chance open: keep the fives and sixes, as the exact turn search says.
    state = build_position(rules, sheet_with(rules, ["chance"]), [1, 2, 4, 5, 6], 2)
    action = GreedyStrategy().choose(state)
    assert isinstance(action, Roll) and sorted(state.dice[i] for i in action.keep) == [5, 6]  # type: ignore[index]


def test_greedy_scratches_where_it_costs_least() -> None:
    rules = RuleSet.parse("yatzy")
    state = build_position(
        rules, sheet_with(rules, ["ones", "yatzy", "small_straight"]), [2, 2, 3, 3, 6], 0
    )
    assert GreedyStrategy().choose(state) == Scratch("ones")


@pytest.mark.parametrize(
    "spec",
    [
        "yatzy",
        "yahtzee",
        "maxi+saved_rolls",
        "dubbel+half_forced",
        "yatzy+last_resort",
        "maxi+last_resort+saved_rolls=next",
    ],
)
def test_greedy_plays_whole_games(spec: str) -> None:
    from yatzy.strategy.simulate import play_solitaire

    rules = RuleSet.parse(spec)
    state = play_solitaire(rules, GreedyStrategy(), random.Random(1), "greedy")
    assert state.is_terminal()
    assert state.sheets[0].final > 0


# -- positions ----------------------------------------------------------------------


def test_parse_sheet_and_dice() -> None:
    rules = RuleSet.parse("yatzy")
    assert parse_sheet(rules, "ones=3, twos=6 yatzy=0") == {"ones": 3, "twos": 6, "yatzy": 0}
    assert parse_position_dice(rules, "3 3 4 5 6") == [3, 3, 4, 5, 6]
    assert parse_position_dice(RuleSet.parse("dubbel"), "543221/664333")[0] == (6, 5)


@pytest.mark.parametrize(
    ("spec", "sheet", "dice", "left", "error", "match"),
    [
        ("yatzy", "ones=6", None, None, ImpossibleScoreError, "6 is not a possible score for ones"),
        ("yatzy", "full_house=6", None, None, ImpossibleScoreError, "full_house"),
        ("yatzy", "onse=3", None, None, UnknownBoxError, "onse"),
        ("yatzy", "ones=3,ones=2", None, None, YatzyError, "twice"),
        ("yatzy", "ones=x", None, None, ImpossibleScoreError, "whole number"),
        ("yatzy", "", "3345", 1, DiceError, "needs 5 dice"),
        ("yatzy", "", "33457", 1, DiceError, "7"),
        ("yatzy", "", "33456", 3, PositionError, "rolls left 3"),
        ("yatzy", "", "33456", None, PositionError, "rolls left"),
        ("yatzy+forced", "twos=4", None, None, OrderError, "cannot occur"),
        ("dubbel", "ones=3", None, None, PositionError, "odd"),
        ("dubbel", "", "664333", 0, DiceError, "inner first"),
        ("yatzy", "yatzy_bonuses=1", None, None, PositionError, "Yatzy bonus"),
        ("yahtzee", "yatzy=0,yatzy_bonuses=1", None, None, PositionError, "50"),
        ("maxi", "saved_rolls=1", None, None, PositionError, "saved rolls"),
        ("maxi+saved_rolls", "ones=2,saved_rolls=3", None, None, PositionError, "at most 2"),
    ],
)
def test_bad_positions_are_refused(
    spec: str,
    sheet: str,
    dice: str | None,
    left: int | None,
    error: type[YatzyError],
    match: str,
) -> None:
    rules = RuleSet.parse(spec)
    with pytest.raises(error, match=match):
        faces = None if dice is None else parse_position_dice(rules, dice)
        build_position(rules, parse_sheet(rules, sheet), faces, left)


def test_a_full_sheet_has_nothing_to_decide() -> None:
    rules = RuleSet.parse("yatzy")
    with pytest.raises(PositionError, match="over"):
        build_position(rules, sheet_with(rules, []))


def test_position_sets_turn_and_rolls() -> None:
    rules = RuleSet.parse("maxi+saved_rolls")
    state = build_position(rules, {"ones": 2, "saved_rolls": 2}, [1, 2, 3, 4, 5, 6], 4)
    assert state.turn_number == 1 and state.rolls_left() == 4 and state.max_rolls() == 5
    rules = RuleSet.parse("yatzy+half_forced")
    state = build_position(rules, {"one_pair": 2}, None)
    assert state.allowed_boxes() == ["two_pairs"]


# -- the advisor -----------------------------------------------------------------------


def _expected_by_enumeration(rules: RuleSet, box: str, dice: list[int], keep: list[int]) -> float:
    """One box open, one roll left: the mean score of ``box`` over every reroll."""
    kept = [dice[i] for i in keep]
    total = 0.0
    rolls = list(itertools.product(range(1, 7), repeat=len(dice) - len(kept)))
    for thrown in rolls:
        total += rules.score(box, [*kept, *thrown])
    return total / len(rolls)


def test_advice_is_exact_on_a_last_turn() -> None:
    from yatzy.strategy.advisor import advise

    rules = RuleSet.parse("yatzy")
    state = build_position(rules, sheet_with(rules, ["full_house"]), [2, 2, 3, 5, 6], 1)
    advice = advise(state)
    assert advice.exact and advice.rolls_left == 1
    bonus_less = state.sheet.total  # nothing else can change: the upper section is full of 0
    for option in advice.options:
        if isinstance(option.action, Roll):
            want = _expected_by_enumeration(
                rules, "full_house", [2, 2, 3, 5, 6], list(option.action.keep)
            )
            assert option.value == pytest.approx(bonus_less + want, abs=1e-3), option.text
    values = [o.value for o in advice.options]
    assert values == sorted(values, reverse=True)
    assert all(o.loss == pytest.approx(advice.value - o.value) for o in advice.options)
    assert advice.options[0].text == "keep 2 2" or advice.options[0].text.startswith("keep")


def test_advice_lists_each_choice_once() -> None:
    from yatzy.strategy.advisor import advise

    rules = RuleSet.parse("yatzy")
    state = build_position(rules, sheet_with(rules, ["ones", "twos", "chance"]), [3, 3, 4, 5, 6], 0)
    advice = advise(state)
    texts = [o.text for o in advice.options]
    # No ones or twos among the dice: scoring them is the same as scratching.
    assert sorted(texts) == ["score chance", "scratch chance", "scratch ones", "scratch twos"]
    # 21 in chance now costs more than a scratched 1 or 2 (chance stays for later).
    assert advice.best in (Scratch("ones"), Scratch("twos"))
    state = build_position(rules, sheet_with(rules, ["ones", "twos", "chance"]), [3, 3, 4, 5, 6], 2)
    keeps = [o for o in advise(state).options if isinstance(o.action, Roll)]
    assert len(keeps) == len(sub_keeps((3, 3, 4, 5, 6))) - 1


def test_match_option_compares_effects() -> None:
    from yatzy.strategy.advisor import advise, match_option

    rules = RuleSet.parse("yatzy")
    state = build_position(rules, sheet_with(rules, ["ones", "chance"]), [3, 1, 3, 4, 5], 1)
    advice = advise(state)
    a = match_option(advice, state, Roll((0,)))
    b = match_option(advice, state, Roll((2,)))
    assert a is b and a.text == "keep 3"
    with pytest.raises(YatzyError):
        match_option(advice, state, Score("twos"))


def test_advice_refuses_positions_without_a_decision() -> None:
    from yatzy.strategy.advisor import advise

    state = Game("yatzy", ["a", "b"]).new_initial_state()
    with pytest.raises(YatzyError, match="rolling"):
        advise(state)


def test_approximate_advice_says_so_and_is_legal() -> None:
    from yatzy.strategy.advisor import advise

    rules = RuleSet.parse("dubbel+forced")
    filled = {b: 0 for b in rules.boxes[:12]}
    state = build_position(rules, filled, [(6, 5), (6, 4), (4, 3), (3, 2), (3, 2), (3, 1)], 1)
    advice = advise(state)
    assert not advice.exact and "yatzy+forced+lenient table" in advice.method
    for option in advice.options:
        trial = state.clone()
        trial.apply(option.action)
    fills2 = [o.action for o in advice.options if isinstance(o.action, Fill2)]
    assert {frozenset((a.inner.box, a.outer.box)) for a in fills2} == {
        frozenset(("full_house", "chance"))
    }


def test_approximate_last_write_is_valued_at_what_it_scores() -> None:
    # The game's last write: its value is the Total it leaves, the upper bonus it
    # completes counted once (the table's future holds it; the gain must not add it).
    from yatzy.strategy.approx import ApproxStrategy

    rules = RuleSet.parse("dubbel")
    filled = {b: 0 for b in rules.boxes if b not in ("sixes", "chance")}
    filled.update(ones=3, twos=6, threes=9, fours=12, fives=15, extra=-20)
    dice = [(2, 6), (3, 6), (4, 6), (5, 6), (6, 1), (6, 2)]
    state = build_position(rules, filled, dice, 0)
    values = {}
    for action, value in ApproxStrategy(rules).evaluate(state):
        assert isinstance(action, Fill2)
        after = state.clone()
        after.apply(action)
        values[action.inner.box] = (value, after.sheets[0].total)
    # Inner sixes (24) completes the bonus; outer sixes (12) does not.
    assert values["sixes"] == (pytest.approx(143.0), 143)
    assert values["chance"] == (pytest.approx(83.0), 83)


def test_saved_rolls_advice_values_saving() -> None:
    from yatzy.strategy.advisor import advise

    rules = RuleSet.parse("maxi+saved_rolls")
    sheet = sheet_with(rules, ["chance", "maxi_yatzy"])
    state = build_position(rules, sheet, [6, 6, 6, 6, 6, 6], 2)
    advice = advise(state)
    assert not advice.exact
    assert advice.best == Score("maxi_yatzy")
    # Stopping now saves the two rolls left: worth more than the same score later.
    assert advice.value > state.sheet.total + 100


# -- analysis --------------------------------------------------------------------------


def _recorded_game(tmp_path: Path, spec: str, levels: list[str], seed: int) -> Path:
    from yatzy.bots import make_bot, play_turn

    rng = random.Random(seed)
    game = Game(spec, [Player(f"{lv}-bot", lv) for lv in levels])
    state = game.new_initial_state()
    if state.is_chance_node():  # the roll-off (none for one player)
        state.roll(rng)
    bots = [make_bot(lv) for lv in levels]
    while not state.is_terminal():
        play_turn(state, bots[state.player], rng)
    path = tmp_path / "game.json"
    save(state, path)
    return path


def test_analysis_rates_optimal_play_as_lossless(tmp_path: Path) -> None:
    from yatzy.strategy.analyze import analyze_file

    path = _recorded_game(tmp_path, "yatzy+forced", ["optimal", "random"], 3)
    analysis = analyze_file(str(path))
    assert analysis.exact
    best, rand = analysis.players
    assert best.decisions >= 15 and rand.decisions >= 15
    assert best.total_loss == pytest.approx(0.0, abs=1e-3)
    assert rand.total_loss > 20 and rand.mistakes > 0
    assert rand.mean_loss == pytest.approx(rand.total_loss / rand.decisions)
    fills_of_best = [d for d in analysis.decisions if d.player == 0 and d.rolls_left == 0]
    assert fills_of_best, "the last roll's box choice is a decision"
    json.dumps(analysis.to_json())


def test_analysis_of_an_unfinished_record(tmp_path: Path) -> None:
    from yatzy.strategy.analyze import analyze

    state = Game("yatzy+forced", ["solo"]).new_initial_state(starter=0)
    state.apply(Roll())
    state.apply_roll([6, 6, 6, 1, 2])
    state.apply(Roll((0, 1, 2)))
    state.apply_roll([6, 3])
    analysis = analyze(state)
    assert len(analysis.decisions) == 1 and analysis.decisions[0].rolls_left == 2


def test_analysis_skips_undone_writes() -> None:
    from yatzy.game import Score, Undo
    from yatzy.strategy.analyze import analyze

    state = Game("yatzy+forced", ["solo"]).new_initial_state(starter=0)
    state.apply(Roll())
    state.apply_roll([6, 6, 6, 1, 2])
    state.apply(Score("ones"))
    state.apply(Undo())  # taken back, then rolled on with the roll left
    state.apply(Roll((0, 1, 2)))
    state.apply_roll([6, 3])
    state.apply(Score("ones"))
    analysis = analyze(state)
    assert [d.rolls_left for d in analysis.decisions] == [2, 1]
    assert analysis.decisions[-1].dice == [6, 6, 6, 6, 3]


# -- simulation ---------------------------------------------------------------------------


@pytest.mark.slow
def test_simulation_statistics_and_reproducibility() -> None:
    from yatzy.strategy.simulate import simulate

    a = simulate("yatzy", "random", 120, seed=11, workers=1)
    b = simulate("yatzy", "random", 120, seed=11, workers=2)
    assert list(a.scores) == list(b.scores)
    assert a.games == 120 and a.bot == "random" and a.seed == 11
    ordered = sorted(a.scores)
    pct = a.percentiles()
    assert pct[50] == pytest.approx((ordered[59] + ordered[60]) / 2)
    assert ordered[0] <= pct[1] <= pct[99] <= ordered[-1]
    assert 0 <= a.bonus_rate <= 1 and 0 <= a.yatzy_rate <= 1
    c = simulate("yatzy", "random", 120, seed=12, workers=1)
    assert list(c.scores) != list(a.scores)
    summary = a.summary()
    assert summary["games"] == 120 and summary["mean"] == pytest.approx(a.mean, abs=1e-3)


def test_simulation_counts_bonus_and_yatzy() -> None:
    from yatzy.strategy.simulate import run_chunk

    chunk = run_chunk("yatzy", "greedy", 5, 0, 10)
    assert len(chunk.scores) == 10
    assert chunk.yatzys <= 10 and chunk.bonuses <= 10


@pytest.mark.slow
@pytest.mark.parametrize(
    "spec",
    [
        "yatzy+forced",
        "yahtzee+forced",
        "yatzy+half_forced",
        "yatzy+forced+last_resort",
        "maxi+saved_rolls=next+forced",
    ],
)
def test_fast_optimal_games_reach_the_solved_value(spec: str) -> None:
    from yatzy.strategy.advisor import solver_for
    from yatzy.strategy.simulate import simulate

    expected = solver_for(spec).expected_score
    result = simulate(spec, "optimal", 4000, seed=3, workers=2)
    assert result.method == "kernel"
    assert abs(result.mean - expected) < 4 * result.stderr, (result.mean, expected)
    again = simulate(spec, "optimal", 4000, seed=3, workers=1)
    assert list(again.scores) == list(result.scores)


@pytest.mark.slow
def test_fast_path_plays_the_advisors_moves() -> None:
    # Slow path (advisor through states) and kernel agree in distribution.
    from yatzy.strategy.simulate import simulate

    slow = simulate("yatzy+forced", "optimal", 150, seed=9, workers=1, fast=False)
    fast = simulate("yatzy+forced", "optimal", 4000, seed=9, workers=1)
    assert slow.method == "states"
    assert abs(slow.mean - fast.mean) < 4 * (slow.stderr + fast.stderr)


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["yatzy+forced+last_resort", "maxi+forced+saved_rolls=next"])
def test_fast_path_follows_the_new_rules(spec: str) -> None:
    # The kernel's games against games played through the state by the advisor.
    from yatzy.strategy.simulate import simulate

    slow = simulate(spec, "optimal", 60, seed=5, workers=1, fast=False)
    fast = simulate(spec, "optimal", 3000, seed=5, workers=1)
    assert (slow.method, fast.method) == ("states", "kernel")
    assert abs(slow.mean - fast.mean) < 4 * (slow.stderr + fast.stderr)


def test_exact_advice_for_the_new_rules() -> None:
    from yatzy.strategy.advisor import advise

    rules = RuleSet.parse("maxi+saved_rolls=next+last_resort")
    sheet = {**sheet_with(rules, ["chance", "maxi_yatzy", "ones"]), "saved_rolls": 2}
    state = build_position(rules, sheet, [6, 6, 6, 6, 6, 2], 4)
    advice = advise(state)
    assert advice.exact and advice.rolls_left == 4
    boxes = {o.action.box for o in advice.options if isinstance(o.action, Score)}
    assert boxes == {"chance"}  # nothing else scores: Chance, no scratch
    assert not any(isinstance(o.action, Scratch) for o in advice.options)
    # Rolling on for the Maxi-Yatzy beats Chance with 4 rolls in hand.
    assert isinstance(advice.best, Roll)


def test_histogram_png(tmp_path: Path) -> None:
    from yatzy.strategy.plot import save_histogram
    from yatzy.strategy.simulate import simulate

    result = simulate("yatzy", "random", 60, seed=1, workers=1)
    out = save_histogram(result, tmp_path / "h.png")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(YatzyError, match="png"):
        save_histogram(result, tmp_path / "h.jpg")
    with pytest.raises(YatzyError, match="missing"):
        save_histogram(result, tmp_path / "nope" / "h.png")


def test_bad_simulation_input() -> None:
    from yatzy.strategy.simulate import simulate

    with pytest.raises(YatzyError, match="unknown bot"):
        simulate("yatzy", "grandmaster", 10)
    with pytest.raises(YatzyError, match="games"):
        simulate("yatzy", "random", 0)


# -- bots ----------------------------------------------------------------------------------


def test_bot_levels_and_light_imports() -> None:
    from yatzy.bots import BOT_LEVELS

    for level in ("random", "greedy", "beginner", "casual", "strong", "optimal", "perfect"):
        assert level in BOT_LEVELS
    code = (
        "import sys, random\n"
        "from yatzy.bots import make_bot\n"
        "from yatzy.game import Game\n"
        "from yatzy.strategy.simulate import play_solitaire\n"
        "play_solitaire(Game('yatzy', ['a']).rules, make_bot('greedy'), random.Random(1))\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('numpy', 'numba')]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_every_level_has_a_solitaire_bot() -> None:
    # The strategy's own modules (simulate, the win chances' sampler) play a level
    # alone through yatzy.strategy.levels, below the winner bot: there the winner
    # plays the optimal strategy, as WinnerBot itself does in a one-seat game.
    from yatzy.bots import BOT_LEVELS, SKILL_TEMPERATURES, AdvisedBot, GreedyBot, RandomBot
    from yatzy.strategy.levels import LEVELS, solitaire_bot

    assert tuple(BOT_LEVELS) == LEVELS
    assert isinstance(solitaire_bot("random"), RandomBot)
    assert isinstance(solitaire_bot("greedy"), GreedyBot)
    for level in ("winner", "optimal", "perfect", "strong"):
        bot = solitaire_bot(level)
        assert isinstance(bot, AdvisedBot)
        assert bot.temperature == SKILL_TEMPERATURES.get(level, 0.0)
    with pytest.raises(YatzyError, match="'best'"):
        solitaire_bot("best")


def test_skill_levels_lose_more_than_optimal() -> None:
    from yatzy.strategy.calibrate import calibrate

    strong = calibrate("yatzy+forced", 1.0, 8, seed=1)
    best = calibrate("yatzy+forced", 0.0, 4, seed=1)
    assert best.mean_loss == pytest.approx(0.0, abs=1e-6)
    assert strong.mean_loss > 0


def test_skill_levels_play_each_rule_set_at_its_fitted_temperature() -> None:
    from yatzy.bots import (
        SKILL_TEMPERATURES,
        SKILL_TEMPERATURES_BY_RULES,
        AdvisedBot,
        make_bot,
        rules_family,
    )

    forced = RuleSet.parse("yatzy+forced+lenient")
    assert rules_family(forced) == "yatzy+forced"
    assert rules_family(RuleSet.parse("maxi+half_forced+saved_rolls")) == "maxi+half_forced"
    strong = make_bot("strong")
    assert isinstance(strong, AdvisedBot)
    fitted = SKILL_TEMPERATURES_BY_RULES["yatzy+forced"]["strong"]
    assert strong.temperature_for(forced) == fitted != SKILL_TEMPERATURES["strong"]
    # a family not measured (DubbelYatzy) plays at the Scandinavian Yatzy temperature
    assert strong.temperature_for(RuleSet.parse("dubbel")) == SKILL_TEMPERATURES["strong"]
    assert AdvisedBot("mine", 0.5).temperature_for(forced) == 0.5  # a fixed one stays fixed
    # a house rule fitted on its own wins over its family; its other options still
    # play at the family's temperatures
    last_resort = RuleSet.parse("yatzy+last_resort")
    assert (
        strong.temperature_for(last_resort)
        == SKILL_TEMPERATURES_BY_RULES["yatzy+last_resort"]["strong"]
    )
    assert strong.temperature_for(RuleSet.parse("yatzy+last_resort+forced")) == fitted
    for key, levels in SKILL_TEMPERATURES_BY_RULES.items():
        assert RuleSet.parse(key).spec == key  # keys are canonical specs
        temps = [levels[level] for level in ("strong", "casual", "beginner")]
        assert temps == sorted(temps), key  # stronger levels are cooler everywhere


def test_advised_bots_choose_legal_actions() -> None:
    from yatzy.bots import make_bot

    rng = random.Random(2)
    for level in ("beginner", "strong", "optimal"):
        bot = make_bot(level)
        state: State = build_position(RuleSet.parse("yatzy+forced"), {}, [1, 2, 3, 3, 5], 2)
        action = bot.choose(state, rng)
        state.clone().apply(action)


@pytest.mark.slow
def test_analysis_of_a_score_pad_rates_the_boxes_of_the_entered_dice() -> None:
    from yatzy.game import Score, SetDice, Write
    from yatzy.strategy.analyze import analyze

    state = Game("yatzy", ["Ann", "Bo"], pad=True).new_initial_state(starter=0)
    state.apply(SetDice((6, 6, 6, 6, 6)))
    state.apply(Score("ones"))  # 0 points for five sixes: a costly box
    state.apply(Write("ones", 3))  # Bo wrote only points: nothing to rate
    state.apply(SetDice((1, 2, 3, 4, 5)))
    state.apply(Score("small_straight"))
    analysis = analyze(state, "en")
    assert analysis.scope == "boxes"
    ann, bo = analysis.players
    assert ann.complete and ann.decisions == 2 and len(ann.expected) == 2
    first = next(d for d in analysis.decisions if d.player == 0)
    assert first.own_turn == 1 and first.kind == "box" and first.loss > 10
    assert first.chosen == "Score 0 in Ones" and first.best.startswith("Score 50 in Yatzy")
    assert not bo.complete and bo.decisions == 0 and bo.expected == []
    with pytest.raises(YatzyError, match="saved rolls"):
        saved = Game("maxi+saved_rolls", ["Ann"], pad=True).new_initial_state(starter=0)
        analyze(saved)
