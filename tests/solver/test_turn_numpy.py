"""The within-turn values without a compiled kernel (yatzy.solver.turn_numpy) are the
kernel's own, bit for bit, on every rule family the exact solver handles."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tests.helpers import record_table_builds
from yatzy.bots import GreedyBot, play_turn
from yatzy.game import Game, Roll, Score, Scratch, Sheet
from yatzy.rules import RuleSet
from yatzy.solver import Solver, base

# Sub-games keep the solves small; each set of open boxes exercises a rule: the
# upper bonus, the Yatzy box with its bonus and joker, Chance under last_resort,
# the order rules, rolls carried into the next turn.
CASES = [
    ("yatzy", None),
    ("yatzy+last_resort", ["ones", "fives", "one_pair", "chance", "yatzy"]),
    ("yatzy+forced", None),
    (
        "yatzy+half_forced+lenient",
        ["small_straight", "large_straight", "full_house", "chance", "yatzy"],
    ),
    ("yatzy+bonus_points=0", ["twos", "small_straight", "yatzy"]),
    ("yahtzee", ["ones", "sixes", "full_house", "large_straight", "yatzy", "chance"]),
    ("yahtzee+joker=free", ["fours", "three_of_a_kind", "full_house", "yatzy"]),
    ("yahtzee+joker=none", ["twos", "small_straight", "chance", "yatzy"]),
    ("maxi", ["ones", "sixes", "two_pairs", "maxi_yatzy", "chance"]),
    ("maxi+last_resort", ["ones", "villa", "tower", "chance", "maxi_yatzy"]),
    ("maxi+saved_rolls=next", ["fives", "three_pairs", "villa", "chance"]),
]


def _sheets(rules: RuleSet, solver: Solver, n: int, seed: int) -> list[Sheet]:
    """``n`` sheets of ``rules`` inside the solver's game at a turn's start: the boxes
    outside it written first (a random legal fill of random dice), then greedy play."""
    rng = random.Random(seed)
    inside = set(solver.model.boxes_of(solver.layout.root))
    found: list[Sheet] = []
    while len(found) < n:
        state = Game(rules, ["a"]).new_initial_state(starter=0)
        while not state.is_terminal():
            if set(state.sheets[0].open_boxes) <= inside:
                found.append(state.sheets[0].copy())
                play_turn(state, GreedyBot(), rng)
                continue
            state.apply(Roll())
            state.roll(rng)
            outside = [
                a
                for a in state.legal_actions()
                if isinstance(a, (Score, Scratch)) and a.box not in inside
            ]
            state.apply(rng.choice(outside) if outside else GreedyBot().choose(state, rng))
            while not state.is_terminal() and state.dice is not None and state.player == 0:
                # The greedy bot may have kept dice: it finishes its turn.
                if state.is_chance_node():
                    state.roll(rng)
                else:
                    state.apply(GreedyBot().choose(state, rng))
    return found[:n]


@pytest.mark.parametrize(("spec", "boxes"), CASES, ids=[c[0] for c in CASES])
def test_numpy_turn_tables_equal_the_kernel(spec: str, boxes: list[str] | None) -> None:
    rules = RuleSet.parse(spec)
    solver = Solver(rules, open_boxes=_fit(rules, boxes))
    for sheet in _sheets(rules, solver, 12, seed=len(spec)):
        kernel = solver.turn_tables(sheet, kernel=True)
        plain = solver.turn_tables(sheet, kernel=False)
        assert kernel.shape == plain.shape
        # Bit for bit (NaN where the kernel leaves a slot unwritten, in both).
        np.testing.assert_array_equal(plain, kernel)


def _fit(rules: RuleSet, boxes: list[str] | None) -> list[str] | None:
    """The cases' boxes that ``rules`` has (names differ between the variants)."""
    if boxes is None:
        return None
    have = [b for b in boxes if b in rules.boxes]
    assert len(have) >= 3, have
    return have


def test_the_kernel_is_used_once_at_hand_and_numpy_before(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without the compiled kernel at hand the numpy way answers (no compile in a
    request); where numba holds it, the kernel does."""
    from yatzy.kernels import solve
    from yatzy.solver import turn_numpy

    rules = RuleSet.parse("yatzy")
    solver = Solver(rules, open_boxes=["ones", "chance"])
    sheet = _sheets(rules, solver, 1, seed=1)[0]
    calls: list[str] = []
    numpy_way = turn_numpy.turn_tables_numpy

    def counted(*args: object) -> object:
        calls.append("numpy")
        return numpy_way(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(turn_numpy, "turn_tables_numpy", counted)
    monkeypatch.setattr(base, "turn_kernel_at_hand", lambda args: False)
    solver.turn_tables(sheet)
    assert calls == ["numpy"]
    monkeypatch.setattr(base, "turn_kernel_at_hand", lambda args: True)
    solver.turn_tables(sheet)
    assert calls == ["numpy"]
    assert solve.turn_tables.signatures  # the kernel ran


def test_the_disk_cache_is_read_for_the_kernel() -> None:
    """Once numba has compiled the kernel (the warm-up's forced call), another process
    sees it at hand before it runs it: the look-up reads numba's index of its cache."""
    import subprocess
    import sys

    solver = Solver("yatzy")
    sheet = Game(solver.rules, ["a"]).new_initial_state().sheets[0]
    solver.turn_tables(sheet, kernel=True)  # compiled or loaded: cached on disk
    code = (
        "from yatzy.game import Game\n"
        "from yatzy.kernels import solve\n"
        "from yatzy.solver import Solver, base\n"
        "s = Solver('yatzy')\n"
        "args = s.turn_args(Game(s.rules, ['a']).new_initial_state().sheets[0])\n"
        "print(bool(solve.turn_tables.signatures), base.turn_kernel_at_hand(args))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.split() == ["False", "True"], done.stderr


def test_a_games_analysis_is_the_same_without_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """The analysis in points a short first game gets while the turn kernel is not
    compiled (numpy) is the one it gets after (issue 24: the analysis waits only for
    the table)."""
    from yatzy.strategy.analyze import analyze

    rules = RuleSet.parse("yahtzee")
    state = Game(rules, ["a", "b"]).new_initial_state(starter=0)
    rng = random.Random(5)
    while not state.is_terminal():
        play_turn(state, GreedyBot(), rng)
    monkeypatch.setattr(base, "turn_kernel_at_hand", lambda args: False)
    without = analyze(state).to_json()
    monkeypatch.setattr(base, "turn_kernel_at_hand", lambda args: True)
    assert analyze(state).to_json() == without


def test_the_terminals_table_build_compiles_the_turn_kernel_after_the_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The terminal's background build (yatzy.bots.prepare_tables) writes the table
    first (the hints and the exact computer need nothing more) and then compiles a
    turn's kernel into the disk cache for the processes after it."""
    from yatzy.bots import prepare_tables

    done = record_table_builds(monkeypatch)
    prepare_tables("optimal", "yatzy")
    assert done == ["table", ("turn kernel", True)]
    done.clear()
    prepare_tables("optimal", "dubbel")  # an approximate strategy: no exact turn kernel
    assert done == ["table"]
