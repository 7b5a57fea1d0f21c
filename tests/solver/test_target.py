"""Target tables: the fast kernels agree with the slow reference on sub-games, the
optimal mode's distribution has the expected-value solver's mean, the positions
within a turn and the options are consistent, and simulated target play succeeds
as often as the table says."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from yatzy.errors import SpecError, YatzyError
from yatzy.game import Game, Roll, Score, Scratch
from yatzy.rules import RuleSet
from yatzy.solver import Solver
from yatzy.solver.reference import ReferenceTarget
from yatzy.solver.target import TargetTable
from yatzy.strategy.target_play import play_for_target

from .test_solver import SUBGAMES, sheet_of

SLIMMED: dict[tuple[str, str], str] = {
    ("yatzy", "threes"): "chance",
    ("yatzy+bonus_threshold=20+bonus_points=70", "fours"): "four_of_a_kind",
    ("yahtzee", "fives"): "full_house",
    ("yahtzee", "sixes"): "small_straight",
    ("yahtzee+joker=free", "sixes"): "chance",
    ("yahtzee+joker=none", "fours"): "fours",
    ("yatzy+last_resort", "threes"): "full_house",
    ("yatzy+last_resort", "ones"): "small_straight",
}
"""The box each heavy sub-game of :data:`SUBGAMES` leaves out here, keyed by its rules
and its first open box: the reference's target vectors over three open boxes took
about 30 CPU-s of the suite, over the two that carry each case's rule (the bonus's
upper boxes, the joker's upper box and straight, last resort's box that may not
score, the Yatzy box) about a fifth of that.  Three open boxes stay compared with the
reference in :func:`test_within_turn_vectors_match_reference_and_options` and in the
expected-value solver's tests (tests/solver/test_solver.py), whose three-box tables
:func:`test_optimal_mode_has_the_solvers_mean` matches the target tables' means to."""


def _slimmed(case: tuple[str, list[str], list[dict[str, int]], str | None]) -> Any:
    spec, boxes, fills, first = case
    drop = SLIMMED.get((spec, boxes[0]))
    return (spec, [b for b in boxes if b != drop], fills, first)


TARGET_SUBGAMES = [_slimmed(c) for c in SUBGAMES if not c[0].startswith("maxi")]


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Every test solves into its own cache directory."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    yield tmp_path / "xdg-cache"


def _full(vec: list[float] | np.ndarray, n: int) -> np.ndarray:
    out = np.zeros(n)
    out[: len(vec)] = vec
    return out


def assert_same_vector(got: np.ndarray, want: list[float], tol: float) -> None:
    n = max(len(got), len(want))
    assert np.max(np.abs(_full(got, n) - _full(want, n))) <= tol


@pytest.mark.slow
@pytest.mark.parametrize(
    ("spec", "open_boxes", "fills", "first"),
    TARGET_SUBGAMES,
    ids=[f"{c[0]}:{len(c[1])}" for c in TARGET_SUBGAMES],
)
def test_target_table_matches_reference(
    spec: str, open_boxes: list[str], fills: list[dict[str, int]], first: str | None
) -> None:
    rules = RuleSet.parse(spec)
    reference = ReferenceTarget(rules)
    fast = TargetTable(rules, open_boxes=open_boxes, dtype="float64")
    rough = TargetTable(rules, open_boxes=open_boxes)
    for points in fills:
        sheet = sheet_of(rules, open_boxes, points, first)
        want = reference.at_least(sheet)
        assert_same_vector(fast.sheet_at_least(sheet), want, 1e-9)
        assert_same_vector(rough.sheet_at_least(sheet), want, 1e-6)
        # Target play reaches at least as far as the expected-score play (every k).
        assert sum(want[1:]) >= Solver(rules, open_boxes=open_boxes).value(sheet) - sheet.total


@pytest.mark.parametrize(
    ("spec", "open_boxes", "points"),
    [
        ("yatzy", ["threes", "full_house", "chance"], {"sixes": 24, "fours": 16, "fives": 15}),
        ("yahtzee", ["sixes", "large_straight", "chance"], {"yatzy": 50, "ones": 3}),
        ("yatzy+last_resort+half_forced", ["full_house", "chance", "yatzy"], {"ones": 3}),
    ],
)
def test_optimal_mode_has_the_solvers_mean(
    spec: str, open_boxes: list[str], points: dict[str, int]
) -> None:
    rules = RuleSet.parse(spec)
    first = "upper" if rules.half_forced else None
    sheet = sheet_of(rules, open_boxes, points, first)
    table = TargetTable(rules, mode="optimal", open_boxes=open_boxes, dtype="float64")
    vec = table.sheet_at_least(sheet)
    assert vec[0] == 1.0 and np.all(np.diff(vec) <= 1e-12)
    ev = Solver(rules, open_boxes=open_boxes, dtype="float64").value(sheet)
    assert sheet.total + vec[1:].sum() == pytest.approx(ev, abs=1e-5)
    # The expected-score play never beats target play at any target.
    best = TargetTable(rules, open_boxes=open_boxes, dtype="float64").sheet_at_least(sheet)
    assert np.all(_full(vec, len(best) + len(vec)) <= _full(best, len(best) + len(vec)) + 1e-12)


def test_both_modes_hand_the_kernels_one_type_of_table() -> None:
    """Max mode's stand-in for the expected-value table is of optimal mode's type
    (float32, read-only, as a solved or loaded table is), so one compile of the target
    kernels serves both modes (max mode's writable stand-in compiled them again: about
    9 CPU-s for each float type)."""
    import numba

    from yatzy.solver import target

    table = Solver(RuleSet.parse("yatzy"), open_boxes=["chance"], use_cache=False).table
    assert numba.typeof(target._NO_EV_TABLE) == numba.typeof(table)


def _game_at(spec: str, open_boxes: list[str], points: dict[str, int], dice: list[int]):
    rules = RuleSet.parse(spec)
    state = Game(rules, ["A", "B"]).new_initial_state(starter=0)
    state.sheets[0] = sheet_of(rules, open_boxes, points)
    state.sheets[1] = sheet_of(rules, open_boxes, {})
    state.apply(Roll())
    state.apply_roll(dice)
    return state


@pytest.mark.slow
def test_within_turn_vectors_match_reference_and_options() -> None:
    spec, open_boxes = "yatzy", ["threes", "full_house", "chance"]
    points = {"sixes": 24, "fours": 16, "fives": 15}
    table = TargetTable(spec, open_boxes=open_boxes, dtype="float64")
    reference = ReferenceTarget(spec)
    state = _game_at(spec, open_boxes, points, [3, 3, 5, 5, 1])
    sheet = state.sheets[0]
    levels = reference.turn_vectors(sheet)
    # Two rolls left: the roll's vector is level 2's.
    assert_same_vector(table.at_least(state), levels[2][(1, 3, 3, 5, 5)], 1e-9)
    options = table.options(state)
    assert {type(a) for a, _ in options} == {Roll, Score, Scratch}
    top = np.zeros(400)
    for action, vec in options:
        top = np.maximum(top, _full(vec, 400))
        if isinstance(action, Roll):
            kept = tuple(sorted(state.layer("all")[i] for i in action.keep))
            assert_same_vector(vec, levels[2][kept], 1e-9)
    # Target play: the position's vector is the best option at every k.
    assert np.max(np.abs(top - _full(table.at_least(state), 400))) <= 1e-12
    # The other seat is at the start of its next turn.
    other = table.at_least(state, seat=1)
    assert_same_vector(other, reference.at_least(state.sheets[1]), 1e-9)
    # Dice being rolled: the kept dice's vector with the rolls left after it.
    state.apply(Roll((0, 1)))
    assert_same_vector(table.at_least(state), levels[2][(3, 3)], 1e-9)
    # probability() reads the vector at the points still needed.
    need = 30
    want = table.at_least(state)[need]
    assert table.probability(state, sheet.total + need) == pytest.approx(want)
    assert table.probability(state, 0) == 1.0
    assert table.probability(state, 10_000) == 0.0


@pytest.mark.slow
def test_simulated_target_play_matches_the_table() -> None:
    spec, open_boxes = "yatzy", ["threes", "full_house", "chance", "yatzy"]
    table = TargetTable(spec, open_boxes=open_boxes)
    sheet = sheet_of(RuleSet.parse(spec), open_boxes, {})
    # 400 games a target (3 standard errors: 7.5 points at a 50 % chance): every
    # decision ranks every option through the game state, in Python.
    games = 400
    rng = random.Random(15)
    for target in (40, 70):
        want = float(table.sheet_at_least(sheet)[target])
        hits = sum(
            play_for_target(table, target, rng, open_boxes=open_boxes) >= target
            for _ in range(games)
        )
        se = (want * (1 - want) / games) ** 0.5
        assert abs(hits / games - want) <= 3 * se, (target, hits / games, want)


def test_cache_reload_and_bad_input(_private_cache: Path) -> None:
    boxes = ["fives", "small_straight"]
    first = TargetTable("yatzy", open_boxes=boxes)
    again = TargetTable("yatzy", open_boxes=boxes)
    assert not first.from_cache and again.from_cache
    assert np.array_equal(np.asarray(first.vals), np.asarray(again.vals))
    assert isinstance(again.vals, np.memmap)
    with pytest.raises(SpecError, match="maxi"):
        TargetTable("maxi")
    with pytest.raises(YatzyError, match="mode"):
        TargetTable("yatzy", mode="best")  # type: ignore[arg-type]


def test_cli_advise_target_ranks_by_chance(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from yatzy.cli.main import main
    from yatzy.strategy import target_play

    open_boxes = ["threes", "full_house", "chance"]
    table = TargetTable("yatzy", open_boxes=open_boxes)
    monkeypatch.setitem(target_play._TABLES, "yatzy", table)
    filled = [b for b in table.rules.boxes if b not in open_boxes]
    sheet = ",".join(f"{b}=0" for b in filled)
    args = ["advise", "yatzy", "--sheet", sheet, "--dice", "33351", "--rolls-left", "2"]
    assert main([*args, "--target", "45", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    values = [o["value"] for o in out["options"]]
    assert values == sorted(values, reverse=True) and out["value"] == values[0]
    state = _game_at("yatzy", open_boxes, {}, [3, 3, 3, 5, 1])
    assert out["value"] == pytest.approx(table.probability(state, 45), abs=1e-4)
    assert 0 < out["value"] < 1
    assert main([*args, "--target", "45"]) == 0
    text = capsys.readouterr().out
    assert "chance of reaching 45:" in text and "%" in text
    assert main([*args, "--target", "many"]) == 2
    assert "--target 'many'" in capsys.readouterr().err


def test_cli_solve_target_refuses_other_variants(capsys: pytest.CaptureFixture[str]) -> None:
    from yatzy.cli.main import main

    assert main(["solve", "maxi", "--target", "300"]) == 2
    err = capsys.readouterr().err
    assert "target tables handle yatzy and yahtzee only" in err and err.count("\n") == 1
    assert main(["solve", "yatzy", "--target", "-3"]) == 2


def test_chance_to_beat_the_record_live_in_the_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from yatzy.cli.play_session import PlaySession
    from yatzy.strategy import target_play

    open_boxes = ["threes", "full_house", "chance"]
    table = TargetTable("yatzy", open_boxes=open_boxes)
    monkeypatch.setitem(target_play._TABLES, "yatzy", table)
    state = Game("yatzy", ["Solo"]).new_initial_state()
    state.sheets[0] = sheet_of(table.rules, open_boxes, {"sixes": 24, "fives": 20})
    record = 70
    want = table.probability(state, record + 1)
    assert target_play.chance_to_beat(state, record) == want
    assert target_play.chance_to_beat(state, None) is None
    out = io.StringIO()
    session = PlaySession(
        state, stdin=io.StringIO(""), stdout=out, rng=random.Random(4), record=record
    )
    session._show_board()
    assert f"Chance of beating your record (70): {want * 100:.1f}\u00a0%" in out.getvalue()
    session.handle("r")
    after = target_play.chance_to_beat(state, record)
    assert after is not None and after == table.probability(state, record + 1)
    out.truncate(0)
    session._show_board()
    assert f"({record}): {after * 100:.1f}\u00a0%" in out.getvalue()
    # Rule sets without target tables: said to be not available.
    maxi = Game("maxi", ["Solo"]).new_initial_state()
    assert target_play.chance_to_beat(maxi, record) is None
    out = io.StringIO()
    PlaySession(
        maxi, stdin=io.StringIO(""), stdout=out, rng=random.Random(4), record=record, lang="sv"
    )._show_board()
    assert "Chans att slå ditt rekord (70): beräknas inte med dessa regler" in out.getvalue()


def test_the_full_screen_hint_aims_at_the_record(monkeypatch: pytest.MonkeyPatch) -> None:
    from yatzy.cli.play_advice import _record_hint_lines
    from yatzy.strategy import target_play

    open_boxes = ["threes", "full_house", "chance"]
    table = TargetTable("yatzy", open_boxes=open_boxes)
    state = _game_at("yatzy", open_boxes, {"sixes": 24, "fives": 20}, [3, 3, 3, 5, 1])
    # The table not at hand (never built for a hint): no record lines, only points.
    monkeypatch.setattr(target_play, "target_table_for", lambda rules, build=True: None)
    assert _record_hint_lines(state, 75, "en") == []
    monkeypatch.undo()
    monkeypatch.setitem(target_play._TABLES, "yatzy", table)
    assert _record_hint_lines(state, None, "en") == []
    lines = _record_hint_lines(state, 75, "en")
    best = 100 * table.probability(state, 76)
    assert lines[0] == (
        "Aiming at your record (75): the chance of beating it with the best play is "
        f"{best:.1f}\u00a0%"
    )
    options = lines[2:]
    assert options and "(best)" in options[0]
    assert any("percentage points)" in line for line in options[1:])
    sv = _record_hint_lines(state, 75, "sv")
    assert sv[0].startswith("Siktar på ditt rekord (75)") and "," in sv[0]  # decimal comma
    assert any("procentenheter)" in line for line in sv[2:])


def test_the_solo_record_of_this_computer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The terminal's default record: the best finished solo game of the rules in the
    local database, for a solo game with dice of rules target play handles."""
    from yatzy.bots import make_bot
    from yatzy.cli.cmd_play import _plays_for_a_record
    from yatzy.game import Player
    from yatzy.store.local import local_solo_record, record_finished_game

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    url = f"sqlite:///{tmp_path / 'games.db'}"
    assert local_solo_record("yatzy", url) is None  # no owner yet: no record
    games = []
    for seed in (1, 2):
        state = Game("yatzy+forced", ["Solo"]).new_initial_state(starter=0)
        bot, rng = make_bot("greedy"), random.Random(seed)
        while not state.is_terminal():
            state.apply(bot.choose(state, rng))
            if state.is_chance_node():
                state.roll(rng)
        record_finished_game(state, url=url)
        games.append(state)
    totals = [g.sheets[0].total for g in games]
    assert local_solo_record("yatzy+forced", url) == max(totals)
    assert local_solo_record("yatzy", url) is None  # another rule set
    best = games[totals.index(max(totals))]
    assert local_solo_record("yatzy+forced", url, leave_out=best) == min(totals)
    assert _plays_for_a_record(Game("yahtzee", ["Solo"]).new_initial_state())
    assert not _plays_for_a_record(Game("yatzy", ["A", "B"]).new_initial_state())
    assert not _plays_for_a_record(Game("maxi", ["Solo"]).new_initial_state())
    assert not _plays_for_a_record(Game("yatzy", [Player("Bot", "greedy")]).new_initial_state())


def test_web_solo_view_gets_the_record_chance_and_a_hint_aiming_at_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from types import SimpleNamespace

    from yatzy.strategy import target_play
    from yatzy.web.service import record_extras

    open_boxes = ["threes", "full_house", "chance"]
    table = TargetTable("yatzy", open_boxes=open_boxes)
    monkeypatch.setitem(target_play._TABLES, "yatzy", table)
    state = _game_at("yatzy", open_boxes, {"sixes": 24, "fives": 20}, [3, 3, 3, 5, 1])
    stored: Any = SimpleNamespace(hints=True, pad=False, lang="sv")
    record = 75
    extras = record_extras(stored, state, record)
    assert extras["record_chance"] == round(table.probability(state, record + 1), 4)
    hint = extras["record_hint"]
    assert hint["aim"] == "record" and hint["target"] == record + 1
    values = [o["value"] for o in hint["options"]]
    assert values == sorted(values, reverse=True)
    assert values[0] == pytest.approx(100 * table.probability(state, record + 1), abs=0.05)
    assert all(o["text"] for o in hint["options"])  # in words (Swedish)
    # No record, or rules without target tables: nothing, or "not available" (None).
    assert record_extras(stored, state, None) == {}
    maxi = Game("maxi", ["Solo"]).new_initial_state()
    # (Maxi has no target table: none is being prepared either.)
    assert record_extras(stored, maxi, record) == {
        "record_chance": None,
        "record_chance_pending": False,
    }


def test_an_approximate_record_chance_while_the_target_table_is_missing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Issue 24: while the target table builds, the chance with the best-points
    # strategy stands in; target play aims at the record, so it is never below it.
    from yatzy.strategy import target_play
    from yatzy.strategy.target_play import chance_to_beat
    from yatzy.strategy.win_chance import approximate_chance_to_beat

    open_boxes = ["threes", "full_house", "chance"]
    table = TargetTable("yatzy", open_boxes=open_boxes)
    state = _game_at("yatzy", open_boxes, {"sixes": 24, "fives": 20}, [3, 3, 3, 5, 1])
    monkeypatch.setitem(target_play._TABLES, "yatzy", None)  # not built yet
    assert chance_to_beat(state, 75) is None
    for record in (60, 75, 90):
        approx = approximate_chance_to_beat(state, record)
        exact = table.probability(state, record + 1)
        assert approx is not None
        # Simulated within its budget (five runs: 0.867-0.889 at 75, 0.537-0.555 at 90,
        # against target play's exact 0.966 and 0.590): best-points play's chance lies
        # about 0.09 below target play's at 75, so 0.1 left no room for the sampling.
        assert exact - 0.15 <= approx <= exact + 1e-6, (record, approx, exact)
    assert approximate_chance_to_beat(state, 0) == pytest.approx(1.0)
    assert approximate_chance_to_beat(state, 10_000) == 0.0
    assert approximate_chance_to_beat(state, None) is None
    # the best-points tables not built either (a fresh install): nothing to say,
    # whatever this machine's cache holds
    from yatzy.strategy import win_chance

    def not_ready(*_args: object, **_kwargs: object) -> None:
        raise win_chance.TablesNotReady("yatzy")

    monkeypatch.setattr(win_chance, "seat_distributions", not_ready)
    assert approximate_chance_to_beat(state, 75) is None


def test_optimal_mode_within_a_turn_has_the_advised_values() -> None:
    spec, open_boxes = "yahtzee", ["sixes", "large_straight", "chance"]
    points = {"yatzy": 50, "ones": 3}
    table = TargetTable(spec, mode="optimal", open_boxes=open_boxes, dtype="float64")
    solver = Solver(spec, open_boxes=open_boxes, dtype="float64")
    state = _game_at(spec, open_boxes, points, [6, 6, 2, 3, 4])
    total = state.sheets[0].total
    advice = solver.advise(state)
    assert total + table.at_least(state)[1:].sum() == pytest.approx(advice.value, abs=1e-4)
    values = {str(c.action): c.value for c in advice.choices}
    for action, vec in table.options(state):
        assert total + vec[1:].sum() == pytest.approx(values[str(action)], abs=1e-4)


def test_cli_play_record_is_for_solo_games(capsys: pytest.CaptureFixture[str]) -> None:
    from yatzy.cli.main import main

    assert main(["play", "Anna", "Bo", "--record", "250"]) == 2
    assert "--record 250" in capsys.readouterr().err
    assert main(["play", "Anna", "--record", "lots"]) == 2
    assert "--record 'lots'" in capsys.readouterr().err
