"""The exact solver: the fast tables agree with the reference solver built on the
game state, the published optimal scores come out, the cache and the advice work."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.helpers import join_all, scaled
from yatzy.cli.main import main
from yatzy.errors import SpecError, UnknownBoxError, YatzyError
from yatzy.game import BoxEntry, Game, Roll, Score, Scratch, Sheet
from yatzy.rules import RuleSet, all_rolls
from yatzy.solver import Solver, cache
from yatzy.solver._dice import dice_tables
from yatzy.solver.reference import ReferenceSolver


@pytest.fixture
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A cache directory of the test's own, for the tests of the cache itself; the others
    share the session's (tests/conftest.py), so a whole table is solved once, not once
    per test."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    yield tmp_path / "xdg-cache"


def sheet_of(
    rules: RuleSet, open_boxes: list[str], points: dict[str, int], first: str | None = None
) -> Sheet:
    """A sheet with every box but ``open_boxes`` filled (``points``, else 0)."""
    sheet = Sheet(rules)
    for box in rules.boxes:
        if box not in open_boxes:
            sheet.entries[box] = BoxEntry(points.get(box, 0))
    sheet.first_section = first
    return sheet


UPPER_LOW = {"ones": 3, "twos": 6, "threes": 9, "fours": 8, "fives": 15}

# (spec, open boxes, filled points of several sheets, first section for half-forced)
SUBGAMES: list[tuple[str, list[str], list[dict[str, int]], str | None]] = [
    (
        "yatzy",
        ["threes", "full_house", "chance"],
        [{"sixes": 24, "fours": 16, "fives": 15, "ones": 3}, {"sixes": 12}],
        None,
    ),
    ("yatzy+lenient", ["two_pairs", "full_house"], [{"sixes": 30, "fives": 25}, {}], None),
    ("yatzy+yatzy_pip_bonus", ["yatzy", "sixes"], [UPPER_LOW, {}], None),
    (
        "yatzy+bonus_threshold=20+bonus_points=70",
        ["fours", "fives", "four_of_a_kind"],
        [{"ones": 2, "twos": 6}, {"sixes": 18}],
        None,
    ),
    ("yatzy+bonus_points=0", ["fives", "small_straight"], [UPPER_LOW], None),
    (
        "yahtzee",
        ["fives", "full_house", "yatzy"],
        [{"sixes": 24, "fours": 16, "threes": 9, "ones": 3, "twos": 4}],
        None,
    ),
    # The official (forced) joker with the Yatzy box at 50 and at 0.
    (
        "yahtzee",
        ["sixes", "large_straight", "small_straight"],
        [{"yatzy": 50, **UPPER_LOW}, {"yatzy": 0, "fives": 25}],
        None,
    ),
    ("yahtzee", ["threes", "chance"], [{"yatzy": 50}, {"yatzy": 0, "chance": 0}], None),
    (
        "yahtzee+joker=free",
        ["sixes", "large_straight", "chance"],
        [{"yatzy": 50, **UPPER_LOW}, {"yatzy": 0}],
        None,
    ),
    ("yahtzee+joker=none", ["fours", "yatzy", "full_house"], [UPPER_LOW], None),
    ("yatzy+forced", ["chance", "yatzy"], [UPPER_LOW, {"sixes": 30, **UPPER_LOW}], None),
    (
        "yahtzee+forced",
        ["large_straight", "yatzy", "chance"],
        [{"sixes": 24, **UPPER_LOW}],
        None,
    ),
    # Half-forced: upper chosen first (the lower section is filled last) ...
    ("yatzy+half_forced", ["full_house", "chance", "yatzy"], [UPPER_LOW], "upper"),
    # ... and lower first, the upper section last.
    (
        "yahtzee+half_forced",
        ["fives", "sixes"],
        [{"yatzy": 50, "ones": 3, "twos": 6, "threes": 9, "fours": 12}],
        "lower",
    ),
    ("maxi", ["sixes", "villa"], [{"fives": 20, "fours": 16, "threes": 12, "ones": 4}], None),
    # last_resort: Chance only when nothing else scores, 0 only when nothing does.
    (
        "yatzy+last_resort",
        ["threes", "full_house", "chance"],
        [{"sixes": 24, "fours": 16}, {}],
        None,
    ),
    ("yatzy+last_resort", ["ones", "yatzy", "small_straight"], [UPPER_LOW], None),
    ("yatzy+last_resort+lenient+yatzy_pip_bonus", ["two_pairs", "yatzy"], [{}], None),
    ("yatzy+last_resort+forced", ["chance", "yatzy"], [UPPER_LOW], None),
    ("yatzy+last_resort+half_forced", ["full_house", "chance", "yatzy"], [UPPER_LOW], "upper"),
    ("maxi+last_resort", ["twos", "maxi_yatzy"], [{}], None),
]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("spec", "open_boxes", "fills", "first"),
    SUBGAMES,
    ids=[f"{c[0]}:{len(c[1])}" for c in SUBGAMES],
)
def test_fast_solver_matches_reference(
    spec: str, open_boxes: list[str], fills: list[dict[str, int]], first: str | None
) -> None:
    rules = RuleSet.parse(spec)
    reference = ReferenceSolver(rules)
    fast = Solver(rules, open_boxes=open_boxes, dtype="float64")
    rough = Solver(rules, open_boxes=open_boxes, dtype="float32")
    for points in fills:
        sheet = sheet_of(rules, open_boxes, points, first)
        want = reference.value(sheet)
        assert fast.value(sheet) == pytest.approx(want, abs=1e-9, rel=0)
        assert rough.value(sheet) == pytest.approx(want, abs=1e-3, rel=0)


# (spec, open boxes, filled points): saved_rolls=next, every number of carried rolls
SAVED_SUBGAMES: list[tuple[str, list[str], dict[str, int]]] = [
    ("maxi+saved_rolls=next", ["sixes", "villa"], {"fives": 20, "fours": 16, "threes": 12}),
    ("maxi+saved_rolls=next+last_resort", ["ones", "chance"], {}),
    ("maxi+saved_rolls=next+forced", ["maxi_yatzy"], {"sixes": 30}),
]


@pytest.mark.slow
@pytest.mark.parametrize(("spec", "open_boxes", "points"), SAVED_SUBGAMES)
def test_saved_rolls_next_matches_reference(
    spec: str, open_boxes: list[str], points: dict[str, int]
) -> None:
    rules = RuleSet.parse(spec)
    reference = ReferenceSolver(rules)
    fast = Solver(rules, open_boxes=open_boxes, dtype="float64")
    values = []
    for carried in (0, 1, 2):
        sheet = sheet_of(rules, open_boxes, points)
        sheet.saved_rolls = carried
        want = reference.value(sheet)
        values.append(want)
        assert fast.value(sheet) == pytest.approx(want, abs=1e-9, rel=0)
        assert fast.remaining(open_boxes, sheet.upper_sum, saved_rolls=carried) == (
            pytest.approx(want - sheet.total + sheet.bonus, abs=1e-9)
        )
    # A roll carried in is worth something, and never costs.
    assert values[0] < values[1] < values[2]


@pytest.mark.slow
def test_saved_rolls_next_advice_averages_to_the_table() -> None:
    # Two rolls carried in: the turn has 5 rolls; the mean over first rolls of the
    # best choice (4 rolls left) is the value before the turn.
    rules = RuleSet.parse("maxi+saved_rolls=next")
    open_boxes = ["fives", "full_straight"]
    solver = Solver(rules, open_boxes=open_boxes, dtype="float64")
    state = Game(rules, ["solo"]).new_initial_state()
    state.sheets[0] = sheet_of(rules, open_boxes, {"sixes": 24})
    state.sheets[0].saved_rolls = 2
    assert state.max_rolls() == 5
    state.apply(Roll())
    total = 0.0
    for roll, p in zip(all_rolls(6), dice_tables(6).roll_prob, strict=True):
        s = state.clone()
        s.apply_roll(list(roll))
        assert s.rolls_left() == 4
        advice = solver.advise(s)
        total += p * advice.value
    assert total == pytest.approx(solver.value(state.sheets[0]), abs=1e-9)


@pytest.mark.parametrize("upper_sum", [0, 37, 38, 63])
def test_upper_sums_around_the_bonus_bound_match_reference(upper_sum: int) -> None:
    # With fives open, sums below 63 - 25 = 38 can no longer reach the bonus; the fast
    # solver computes them once (at 37) and copies: each must still be exact.
    rules = RuleSet.parse("yatzy")
    open_boxes = ["fives", "chance"]
    fills = {"sixes": 30, "fours": 20, "threes": 15, "twos": 10, "ones": 5}
    points: dict[str, int] = {}
    left = upper_sum
    for box, most in fills.items():
        face = rules.categories[rules.box_index[box]].face
        take = min(most, left - left % face)
        points[box] = take
        left -= take
    assert left == 0
    sheet = sheet_of(rules, open_boxes, points)
    assert sheet.upper_sum == upper_sum
    fast = Solver(rules, open_boxes=open_boxes, dtype="float64")
    want = ReferenceSolver(rules).value(sheet)
    assert fast.value(sheet) == pytest.approx(want, abs=1e-9, rel=0)


def test_reachable_values_are_finite_and_unreachable_never_read() -> None:
    solver = Solver("yahtzee", open_boxes=["ones", "sixes", "yatzy", "chance"], dtype="float64")
    lay, model = solver.layout, solver.model
    for row, mask in enumerate(lay.masks):
        lanes = model.hi_of_filled_upper[~int(mask) & 63] + 1
        ys = 2 if not (int(mask) >> model.ybox) & 1 else 1
        assert np.isfinite(solver.table[row, :ys, :lanes]).all()


@pytest.mark.parametrize(
    ("spec", "want", "tolerance"),
    [
        ("yatzy", 248.44, 0.005),  # RULES.md, strict Scandinavian Yatzy
        ("yahtzee+joker=free", 254.5896, 0.0005),  # the classic optimal-play papers
        ("yahtzee+joker=none", 245.87, 0.005),
    ],
)
def test_published_optimal_scores(spec: str, want: float, tolerance: float) -> None:
    solver = Solver(spec)
    assert solver.expected_score == pytest.approx(want, abs=tolerance)
    assert solver.value(Sheet(RuleSet.parse(spec))) == pytest.approx(solver.expected_score)


def test_forced_orders_score_less_than_free_choice() -> None:
    free = Solver("yahtzee+joker=none").expected_score
    half = Solver("yahtzee+joker=none+half_forced").expected_score
    forced = Solver("yahtzee+joker=none+forced").expected_score
    assert forced < half < free


def test_table_is_cached_per_spec_and_reloaded(_private_cache: Path) -> None:
    first = Solver("yatzy+forced")
    assert not first.from_cache
    files = list((_private_cache / "yatzy" / "solver").glob("*.npy"))
    assert len(files) == 1 and "yatzy+forced" in files[0].name
    again = Solver("yatzy+forced")
    assert again.from_cache
    assert again.seconds < 0.5
    assert again.expected_score == first.expected_score
    # float64 is a different key: not found in the cache (asked without solving the
    # whole game again, about 15 CPU-s)
    with pytest.raises(LookupError):
        Solver("yatzy+forced", dtype="float64", cached_only=True)


def test_a_solved_table_is_read_only_as_a_loaded_one(_private_cache: Path) -> None:
    """numba types a read-only array apart: a table just solved has the type of one
    mapped from the cache, so a kernel that reads tables compiles once for both."""
    import numba

    from yatzy.solver.target import TargetTable

    def solvers(cached: bool) -> list[Any]:
        return [
            Solver("yatzy", open_boxes=["sixes", "chance"], dtype="float64", use_cache=cached),
            Solver("maxi+saved_rolls", open_boxes=["chance"], use_cache=cached),
            TargetTable("yatzy", open_boxes=["sixes", "chance"], use_cache=cached),
        ]

    built, loaded, in_memory = solvers(True), solvers(True), solvers(False)
    for b, lo, m in zip(built, loaded, in_memory, strict=True):
        assert not b.from_cache and lo.from_cache and not m.from_cache
        names = ["vals", "off", "lo", "hi"] if isinstance(b, TargetTable) else ["table"]
        for name in names:
            want = numba.typeof(getattr(lo, name))  # type: ignore[no-untyped-call]
            for s in (b, m):
                assert not getattr(s, name).flags.writeable
                assert numba.typeof(getattr(s, name)) == want, name  # type: ignore[no-untyped-call]
    with pytest.raises(ValueError, match="read-only"):
        built[0].table[0, 0, 0] = 1.0


def test_stale_or_damaged_cache_is_recomputed(_private_cache: Path) -> None:
    want = Solver("yahtzee+forced").expected_score
    meta = next((_private_cache / "yatzy" / "solver").glob("*.json"))
    data = meta.with_suffix(".npy")
    stale = json.loads(meta.read_text())
    stale["key"]["fingerprint"] = "0" * 64
    meta.write_text(json.dumps(stale))
    solver = Solver("yahtzee+forced")
    assert not solver.from_cache and solver.expected_score == want
    data.write_bytes(b"not a table")
    solver = Solver("yahtzee+forced")
    assert not solver.from_cache and solver.expected_score == want
    assert Solver("yahtzee+forced").from_cache


def test_a_table_found_missing_is_found_once_stored(
    _private_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The memo of "not in the cache" that spares a server the look-up on every move
    goes stale when this process stores a table or the cache directory changes (CI
    once failed: a table built in-process stayed "missing" for a minute)."""
    memo = cache.MissingMemo(3600.0)
    memo.mark("yatzy+forced")
    assert memo.known_missing("yatzy+forced") and not memo.known_missing("yatzy")
    Solver("yatzy+forced")  # builds and stores the table
    assert not memo.known_missing("yatzy+forced")
    memo.mark("yatzy+forced")
    monkeypatch.setenv("XDG_CACHE_HOME", str(_private_cache.parent / "elsewhere"))
    assert not memo.known_missing("yatzy+forced")


def test_threads_of_one_process_store_the_same_table_at_once(_private_cache: Path) -> None:
    """A server builds one table for its hints and its live chances at the same time;
    the two used one temporary file (named by the process), so one failed with "No
    such file" and the server gave up on those rules (issue 25)."""
    key = cache.table_key("yatzy", "", "float32", "threads")
    table = np.arange(1 << 20, dtype=np.float32)
    start = threading.Barrier(8)
    errors: list[BaseException] = []

    def store() -> None:
        start.wait(scaled(60))
        try:
            for _ in range(5):
                cache.save(key, table, 0.0)
        except BaseException as exc:  # every one is reported
            errors.append(exc)

    threads = [threading.Thread(target=store) for _ in range(8)]
    for t in threads:
        t.start()
    join_all(threads, what="the threads storing the table")
    assert errors == []
    loaded = cache.load(key, table.shape)
    assert loaded is not None and np.array_equal(loaded, table)
    assert not list((_private_cache / "yatzy" / "solver").glob(".*.tmp"))


def test_cache_key_changes_with_the_rules() -> None:
    a = cache.table_key("yatzy", "", "float32", "x")
    b = cache.table_key("yatzy+lenient", "", "float32", "x")
    assert a != b


def test_advice_ranks_every_action_consistently_with_the_table() -> None:
    rules = RuleSet.parse("yahtzee")
    open_boxes = ["fours", "full_house", "yatzy"]
    sheet = sheet_of(rules, open_boxes, {"sixes": 24, "fives": 20, "threes": 9})
    solver = Solver(rules, open_boxes=open_boxes, dtype="float64")
    state = Game(rules, ["solo"]).new_initial_state()
    state.sheets[0] = sheet.copy()
    before = solver.advise(state)
    assert before.value == pytest.approx(solver.value(sheet))
    state.apply(Roll())
    # The value before the roll is the mean, over first rolls, of the best choice.
    total = 0.0
    probs = dice_tables(5).roll_prob
    for roll, p in zip(all_rolls(5), probs, strict=True):
        s = state.clone()
        s.apply_roll(list(roll))
        advice = solver.advise(s)
        values = [c.value for c in advice.choices]
        assert values == sorted(values, reverse=True)
        assert advice.value == values[0]
        total += p * advice.value
    assert total == pytest.approx(solver.value(sheet), abs=1e-9)


def test_advice_lists_each_keep_once_and_every_box() -> None:
    rules = RuleSet.parse("yatzy")
    open_boxes = ["threes", "full_house", "chance", "yatzy"]
    solver = Solver(rules, open_boxes=open_boxes)
    state = Game(rules, ["solo"]).new_initial_state()
    state.sheets[0] = sheet_of(rules, open_boxes, {})
    state.apply(Roll())
    state.apply_roll([3, 3, 3, 6, 6])
    advice = solver.advise(state)
    keeps = [c.action for c in advice.choices if isinstance(c.action, Roll)]
    kept = [tuple(sorted(state.layer("all")[i] for i in k.keep)) for k in keeps]
    assert len(kept) == len(set(kept)) == 11  # distinct proper sub-multisets of 33366
    value = {
        (type(c.action).__name__, getattr(c.action, "box", None)): c.value for c in advice.choices
    }
    fills = {key for key in value if key[0] != "Roll"}
    assert fills == {(kind, b) for b in open_boxes for kind in ("Score", "Scratch")}
    # Scoring the full house beats scratching it.
    assert value[("Score", "full_house")] > value[("Scratch", "full_house")]


def test_yatzy_bonus_advice_uses_the_joker() -> None:
    # Yatzy box holds 50, sixes filled: five sixes is worth 40 + 100 in the large straight.
    rules = RuleSet.parse("yahtzee+joker=free")
    open_boxes = ["large_straight", "chance"]
    solver = Solver(rules, open_boxes=open_boxes, dtype="float64")
    state = Game(rules, ["solo"]).new_initial_state()
    state.sheets[0] = sheet_of(rules, open_boxes, {"yatzy": 50, "sixes": 24})
    state.apply(Roll())
    state.apply_roll([6, 6, 6, 6, 6])
    state.apply(Roll((0, 1, 2, 3)))
    state.apply_roll([6])
    state.apply(Roll((0, 1, 2, 3)))
    state.apply_roll([6])
    advice = solver.advise(state)
    assert advice.best == Score("large_straight")
    before = state.sheet.total
    assert advice.value == pytest.approx(before + 140 + solver.remaining(["chance"], 24, True))


def test_bad_input_is_rejected() -> None:
    with pytest.raises(SpecError, match="DubbelYatzy"):
        Solver("dubbel")
    with pytest.raises(YatzyError, match="saved rolls 3 are not a whole number in 0-2"):
        Solver("maxi+saved_rolls=next", open_boxes=["ones"]).remaining(["ones"], saved_rolls=3)
    with pytest.raises(UnknownBoxError, match="villa"):
        Solver("yatzy", open_boxes=["villa"])
    with pytest.raises(YatzyError, match="cannot occur"):
        Solver("yatzy+forced", open_boxes=["ones"])
    with pytest.raises(YatzyError, match="dtype"):
        Solver("yatzy+forced", dtype="float16")  # type: ignore[arg-type]
    solver = Solver("yatzy", open_boxes=["ones", "twos"])
    with pytest.raises(YatzyError, match="outside"):
        solver.value(sheet_of(RuleSet.parse("yatzy"), ["ones", "threes"], {}))
    with pytest.raises(YatzyError, match="plays yahtzee"):
        solver.value(Sheet(RuleSet.parse("yahtzee")))
    with pytest.raises(YatzyError, match="upper sum"):
        solver.remaining(["ones"], -3)


def test_scratch_is_never_better_than_scoring() -> None:
    # The solver drops scratches: points are never negative and more is never worse.
    rules = RuleSet.parse("yatzy")
    solver = Solver(rules, open_boxes=["fives", "two_pairs"], dtype="float64")
    state = Game(rules, ["solo"]).new_initial_state()
    state.sheets[0] = sheet_of(rules, ["fives", "two_pairs"], {"sixes": 18, "fours": 12})
    state.apply(Roll())
    state.apply_roll([5, 5, 4, 4, 1])
    advice = solver.advise(state)
    values = {str(c.action): c.value for c in advice.choices}
    assert values[str(Score("fives"))] >= values[str(Scratch("fives"))]
    assert values[str(Score("two_pairs"))] >= values[str(Scratch("two_pairs"))]


def test_cli_solve_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "yatzy+forced", "--json", "--quiet"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rules"] == "yatzy+forced"
    assert out["expected_score"] == pytest.approx(Solver("yatzy+forced").expected_score)
    assert out["seconds"] >= 0
    assert main(["solve", "yatzy+forced", "--quiet"]) == 0
    assert "loaded from cache" in capsys.readouterr().out


def test_cli_solve_unsupported_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "dubbel"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "DubbelYatzy" in err


@pytest.mark.parametrize(("spec", "count"), [("yatzy+forced", 16), ("yatzy+half_forced", 30)])
def test_ordered_games_reach_only_the_orders_open_boxes(spec: str, count: int) -> None:
    # Forced: the 15 suffixes of the protocol plus the full sheet.  Half-forced: the
    # full sheet, then either section's prefixes followed by the other section's.
    solver = Solver(spec, open_boxes=None)
    assert solver.layout.masks.shape[0] == count
    start = solver.layout.allowed[solver.layout.idx_of_mask[solver.model.full_mask]]
    first = set(solver.model.boxes_of(int(start)))
    assert first == ({"ones"} if spec.endswith("+forced") else {"ones", "one_pair"})


def test_loading_a_cached_table_needs_no_numba(_private_cache: Path) -> None:
    import os
    import subprocess
    import sys

    Solver("yatzy+forced")  # solve and store
    code = (
        "import sys; from yatzy.solver import Solver; s = Solver('yatzy+forced'); "
        "print(s.from_cache, 'numba' in sys.modules, s.expected_score)"
    )
    env = {**os.environ, "XDG_CACHE_HOME": str(_private_cache)}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    assert out[:2] == ["True", "False"]
    assert float(out[2]) == pytest.approx(Solver("yatzy+forced").expected_score)


def test_half_forced_last_write_of_a_lower_first_game_is_advised() -> None:
    """The last box of a game that filled the lower section first: the sheet after it is
    full, where both sections are complete and either could have been first."""
    from yatzy.game import Game, Roll, Score

    state = Game("yatzy+half_forced", ["A"]).new_initial_state(starter=0)
    points = {"one_pair": [4, 4, 1, 2, 3], "two_pairs": [4, 4, 3, 3, 1]}
    lower = state.rules.lower_boxes
    upper = [b for b in state.rules.boxes if b not in lower]
    for box in [*lower, *upper[:-1]]:
        state.apply(Roll())
        state.apply_roll(points.get(box, [6, 6, 6, 5, 5]))
        state.apply(Score(box))
    state.apply(Roll())
    state.apply_roll([6, 6, 2, 2, 3])
    advice = Solver("yatzy+half_forced", open_boxes=["sixes"]).advise(state)
    best = next(c for c in advice.choices if c.action == Score("sixes"))
    assert best.value == pytest.approx(state.sheet.total + 12)  # 12 in Sixes, no bonus
