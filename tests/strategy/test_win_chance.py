"""Live win chances: the exact combination against brute force, ties shared, sums to
1, exact against simulated on sub-games (within the stated margin), the kernel's
policies against the bots playing through game states, and the paths that need no
kernel (DubbelYatzy) or no table yet."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from yatzy.errors import YatzyError
from yatzy.game import BoxEntry, Game, Player, Roll, Score, State
from yatzy.strategy import outcomes, win_chance
from yatzy.strategy.outcomes import (
    DoubleSampler,
    KernelSampler,
    PythonSampler,
    TablesNotReady,
    exact_outcome,
    policy_for,
)
from yatzy.strategy.win_chance import combine, win_chances


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Tables go to a temporary cache; whole optimal-play tables are never there, and
    none that another test of this process loaded is known (the caches are fresh)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    monkeypatch.setattr(outcomes, "_whole_table", lambda rules: None)
    for name in ("_EV_WHOLE", "_EV_MISSING", "_EV_SUBGAMES", "_SUBGAMES"):
        monkeypatch.setattr(outcomes, name, type(getattr(outcomes, name))())
    yield


def _position(
    spec: str,
    open_boxes: list[list[str]],
    *,
    levels: list[str | None] | None = None,
    seed: int = 1,
    totals: dict[int, dict[str, int]] | None = None,
) -> State:
    """A game whose seat ``i`` has ``open_boxes[i]`` open, the rest filled at random
    (or as ``totals[i]`` says), at the start of seat 0's turn."""
    names = [f"P{i}" for i in range(len(open_boxes))]
    bots = levels or [None] * len(names)
    game = Game(spec, [Player(n, b) for n, b in zip(names, bots, strict=True)])
    state = game.new_initial_state(starter=0)
    rules = state.rules
    rng = random.Random(seed)
    for i, sheet in enumerate(state.sheets):
        fixed = (totals or {}).get(i, {})
        for box in rules.boxes:
            if box not in open_boxes[i]:
                points = fixed.get(box, rng.choice(sorted(rules.possible_scores(box))))
                sheet.entries[box] = BoxEntry(points)
    state.turn_number = len(names) * (len(rules.boxes) - len(open_boxes[0]))
    return state


# -- combining ---------------------------------------------------------------------------


def _brute_force(dists: list[tuple[int, np.ndarray]]) -> np.ndarray:
    wins = np.zeros(len(dists))
    supports = [[(lo + k, float(p[k])) for k in range(len(p)) if p[k] > 0] for lo, p in dists]
    for combo in itertools.product(*supports):
        weight = float(np.prod([w for _, w in combo]))
        best = max(s for s, _ in combo)
        tied = [i for i, (s, _) in enumerate(combo) if s == best]
        for i in tied:
            wins[i] += weight / len(tied)
    return wins


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_combine_matches_brute_force(seats: int) -> None:
    rng = np.random.default_rng(seats)
    for _ in range(20):
        dists = []
        for _ in range(seats):
            size = int(rng.integers(1, 6))
            p = rng.random(size) * (rng.random(size) < 0.8)
            if p.sum() == 0:
                p[0] = 1.0
            dists.append((int(rng.integers(0, 5)), p / p.sum()))
        got = combine(dists)
        assert np.allclose(got, _brute_force(dists), atol=1e-12)
        assert got.sum() == pytest.approx(1.0, abs=1e-12)


def test_ties_share_the_win() -> None:
    one = np.ones(1)
    assert combine([(100, one), (100, one)]) == pytest.approx([0.5, 0.5])
    assert combine([(100, one), (100, one), (99, one)]) == pytest.approx([0.5, 0.5, 0.0])
    # A coin flip between 10 and 12 against a sure 11: half each.
    assert combine([(10, np.array([0.5, 0, 0.5])), (11, one)]) == pytest.approx([0.5, 0.5])
    with pytest.raises(YatzyError):
        combine([])


def test_finished_game_gives_the_result_with_ties_shared() -> None:
    state = Game("yatzy", ["A", "B", "C"]).new_initial_state(starter=1)
    for i, sheet in enumerate(state.sheets):
        for box in state.rules.boxes:
            sheet.entries[box] = BoxEntry(0)
        sheet.entries["chance"] = BoxEntry(20 if i == 1 else 10)
    state.sheets[0].entries["chance"] = None
    state.turn_number = 3 * 15 - 1  # seat 0 writes the game's last box
    before = win_chances(state, budget=1.0)
    assert before.exact  # a person with one box left: the sub-game's table
    state.apply(Roll())
    state.apply_roll([4, 4, 4, 4, 4])
    state.apply(Score("chance"))
    assert state.is_terminal()
    result = win_chances(state)
    assert result.exact and result.method == "final"
    assert result.chances == pytest.approx((0.5, 0.5, 0.0))
    assert result.margin == 0.0


# -- exact and simulated -------------------------------------------------------------------


OPEN3 = [
    ["threes", "full_house", "chance"],
    ["fours", "small_straight", "yatzy"],
    ["ones", "two_pairs", "chance"],
]


def _covered(state: State, exact: tuple[float, ...], runs: int) -> list[float]:
    """Simulate ``runs`` times; the distances to the exact chances in margins.  The
    games per position are fixed (not the budget's), so each seed gives one answer."""
    out = []
    for seed in range(runs):
        simulated = win_chances(state, budget=30.0, seed=seed, exact=False, max_samples=3000)
        assert not simulated.exact
        assert sum(simulated.chances) == pytest.approx(1.0, abs=1e-9)
        for want, got, margin, seat in zip(
            exact, simulated.chances, simulated.margins, simulated.seats, strict=True
        ):
            assert seat.method == "simulated" and seat.games == 3000
            assert 0 < margin < 0.1
            out.append(abs(got - want) / margin)
    return out


@pytest.mark.slow
def test_exact_and_simulated_agree_within_the_margin() -> None:
    state = _position("yatzy", OPEN3, seed=4)
    exact = win_chances(state, budget=5.0)
    assert exact.exact and exact.margin == 0.0
    assert {s.method for s in exact.seats} == {"sub-game"}
    assert sum(exact.chances) == pytest.approx(1.0, abs=1e-9)
    distances = _covered(state, exact.chances, 8)
    # 95 % intervals: nearly all cover the exact chance, none is far off.
    assert sum(d <= 1 for d in distances) >= 0.8 * len(distances)
    assert max(distances) < 2


def test_a_seed_gives_one_answer_however_long_the_games_take(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The games of a seeded call are dealt by a fixed schedule: a loaded machine, or a
    kernel compiled during the call, changes nothing (the agreement tests above relied
    on it and failed now and then while the chunks followed the CPU time taken)."""
    state = _position("yatzy", OPEN3, seed=4)

    def chances(seconds_per_look: float | None) -> tuple[float, ...]:
        with monkeypatch.context() as patch:
            if seconds_per_look is not None:
                clock = itertools.count(0.0, seconds_per_look)
                patch.setattr(win_chance, "time", SimpleNamespace(thread_time=lambda: next(clock)))
            result = win_chances(state, budget=30.0, seed=5, exact=False, max_samples=2000)
        assert [s.games for s in result.seats] == [2000] * 3
        return result.chances

    assert chances(None) == chances(1e-6) == chances(0.2)


@pytest.mark.slow
def test_within_a_turn_exact_and_simulated_agree() -> None:
    state = _position("yatzy", OPEN3, seed=4)
    state.apply(Roll())
    state.apply_roll([3, 3, 3, 6, 6])
    exact = win_chances(state, budget=5.0)
    assert exact.exact
    out = exact_outcome(state, 0, 5.0)
    assert out is not None and out.exact
    kernel = KernelSampler(state, 0, policy_for(None, state.rules), True).sample(20_000, 5)
    mean = float(np.arange(out.lo, out.lo + len(out.weights)) @ out.pmf())
    assert abs(kernel.mean() - mean) < 4 * kernel.std() / np.sqrt(len(kernel))
    distances = _covered(state, exact.chances, 8)
    assert sum(d <= 1 for d in distances) >= 0.8 * len(distances)
    assert max(distances) < 2


def test_far_ahead_with_one_box_left_has_won_almost_surely() -> None:
    fills = {"chance": 0}
    state = _position(
        "yatzy",
        [["chance"], ["chance"]],
        levels=[None, "strong"],
        totals={0: {b: 0 for b in ()}, 1: fills},
    )
    # Seat 0 far ahead: 100 points more than seat 1 before each writes Chance (<= 30).
    for box in state.rules.boxes:
        if box != "chance":
            state.sheets[1].entries[box] = BoxEntry(0)
    state.sheets[1].entries["sixes"] = BoxEntry(30)
    state.sheets[0].entries["sixes"] = BoxEntry(30)
    state.sheets[0].entries["yatzy"] = BoxEntry(50)
    state.sheets[0].entries["large_straight"] = BoxEntry(20)
    state.sheets[0].entries["small_straight"] = BoxEntry(15)
    state.sheets[0].entries["full_house"] = BoxEntry(28)
    assert state.sheets[0].total - state.sheets[1].total >= 100
    result = win_chances(state, budget=0.5)
    assert result.chances[0] == pytest.approx(1.0, abs=1e-9)
    assert result.seats[1].method == "simulated"  # a strong bot is simulated
    assert result.chances[1] <= result.margins[1]


def test_every_level_and_sums_to_one() -> None:
    levels: list[str | None] = [None, "strong", "casual", "beginner", "greedy", "random"]
    state = _position("yatzy", [OPEN3[0]] * 6, levels=levels, seed=2)
    result = win_chances(state, budget=0.3, seed=1)
    assert sum(result.chances) == pytest.approx(1.0, abs=1e-9)
    assert [s.level for s in result.seats] == ["person", *levels[1:]]
    assert result.seats[0].method == "sub-game"
    assert all(s.method == "simulated" for s in result.seats[1:])
    assert not result.exact and result.margin > 0
    as_json = result.to_json()
    assert as_json["method"] == "simulation" and len(as_json["seats"]) == 6


# -- the kernel plays as the bots do --------------------------------------------------------

KERNEL_CASES = [
    ("yatzy", ["ones", "threes", "full_house", "yatzy", "chance"], None, 0),
    ("yatzy", ["ones", "threes", "full_house", "yatzy", "chance"], [3, 3, 3, 5, 6], 1),
    ("yahtzee", ["twos", "fives", "three_of_a_kind", "full_house", "chance"], [5] * 5, 2),
    ("yatzy+forced", ["large_straight", "full_house", "chance", "yatzy"], None, 0),
    ("maxi+saved_rolls=next", ["ones", "two_pairs", "full_house", "chance", "maxi_yatzy"], None, 0),
    ("yatzy+last_resort", ["ones", "fours", "full_house", "small_straight", "chance"], None, 0),
    # Saved rolls that accumulate, before their exact table: the approximate strategy.
    ("maxi+saved_rolls", ["ones", "two_pairs", "full_house", "chance", "villa"], None, 0),
]


@pytest.mark.slow
@pytest.mark.parametrize(("spec", "open_boxes", "dice", "used"), KERNEL_CASES)
@pytest.mark.parametrize("level", ["optimal", "strong", "greedy", "random"])
def test_kernel_plays_as_the_bot_does(
    spec: str, open_boxes: list[str], dice: list[int] | None, used: int, level: str
) -> None:
    state = _position(spec, [open_boxes], seed=1, totals={0: {"yatzy": 50}})
    if state.rules.saves_rolls:
        state.sheets[0].saved_rolls = 2
    if dice is not None:
        state.apply(Roll())
        state.apply_roll(dice)
        for _ in range(used - 1):
            state.apply(Roll(tuple(range(len(dice) - 1))))
            state.apply_roll([dice[-1]])
    policy = policy_for(level, state.rules)
    # 5,000 kernel games: the Python bot's 100 make the standard error (the kernel's
    # share of its variance is 2 %; 20,000 games took about 10 CPU-s over the cases).
    kernel = KernelSampler(state, 0, policy, True).sample(5_000, 3)
    python = PythonSampler(state, 0, policy).sample(100, 4)
    se = np.sqrt(kernel.var() / len(kernel) + python.var() / len(python))
    assert abs(kernel.mean() - python.mean()) < 4 * se + 1e-9


@pytest.mark.parametrize(
    ("spec", "dice", "level"),
    [
        ("yatzy", None, "greedy"),
        ("yatzy", [3, 3, 3, 5, 6], "greedy"),
        ("yatzy", [2, 3, 4, 5, 5], "optimal"),
        ("yahtzee", None, "strong"),  # softmax reads the remembered values too
    ],
)
def test_remembered_keep_values_play_the_same_games(
    spec: str, dice: list[int] | None, level: str
) -> None:
    """The kernel's memo of within-turn keep values (kept per thread and value table,
    across calls) changes no game: the same seed gives the same points with it, with
    it already filled by earlier calls, and without it."""
    state = _position(spec, [["ones", "threes", "fours", "full_house", "yatzy", "chance"]])
    if dice is not None:
        state.apply(Roll())
        state.apply_roll(dice)
    sampler = KernelSampler(state, 0, policy_for(level, state.rules), True)
    keys = sampler._start[-2]
    assert keys.shape[0] == outcomes.TURN_MEMO_SLOTS
    keys[:] = -1  # a memo another test of this thread filled: start empty
    first = sampler.sample(2_000, 11)
    assert (keys >= 0).sum() > 0  # states were remembered
    again = sampler.sample(2_000, 11)  # now mostly from the memo
    bare = list(sampler._start)
    bare[-2], bare[-1] = outcomes._NO_MEMO
    without = np.zeros(2_000, dtype=np.int64)
    sampler._kernel(11, without, outcomes._NO_BOXES, *bare)
    assert np.array_equal(first, without)
    assert np.array_equal(again, without)
    # Another sampler of the same table in this thread shares the memo.
    other = KernelSampler(state, 0, policy_for(level, state.rules), True)
    assert other._start[-2] is keys


def test_one_compile_of_each_sampler_serves_every_opponent() -> None:
    """A person, a skill level, the greedy and the random computer hand the sampling
    kernels arguments of the same numba types (every table float32 and read-only), so
    a process compiles each kernel once: a greedy computer's table was float64 and
    writable, and compiled them again (about 5 CPU-s for Yatzy's, 8 for DubbelYatzy's)."""
    import numba

    def types(sampler: KernelSampler | DoubleSampler) -> tuple[object, ...]:
        return tuple(numba.typeof(a) for a in sampler._start)

    state = _position("yatzy", [["ones", "threes", "chance"]])
    levels: list[str | None] = [None, "strong", "greedy", "random"]
    kinds = {types(KernelSampler(state, 0, policy_for(x, state.rules), True)) for x in levels}
    assert len(kinds) == 1
    dubbel = _position("dubbel", [["threes", "chance", "yatzy", "extra"]])
    both: list[str | None] = [None, "greedy"]
    kinds = {types(DoubleSampler(dubbel, 0, policy_for(x, dubbel.rules), True)) for x in both}
    assert len(kinds) == 1


def test_random_play_and_saved_rolls_keep_no_memo() -> None:
    state = _position("yatzy", [["ones", "chance"]])
    random_play = KernelSampler(state, 0, policy_for("random", state.rules), True)
    assert random_play._start[-2].shape[0] == 0
    saved = _position("maxi+saved_rolls=next", [["ones", "two_pairs", "chance"]])
    saving = KernelSampler(saved, 0, policy_for("greedy", saved.rules), True)
    assert saving._start[-2].shape[0] == 0


# -- the other paths --------------------------------------------------------------------------


def test_dubbel_is_simulated_by_its_strategy() -> None:
    open_boxes = [["threes", "chance", "yatzy", "extra"], ["ones", "fours", "full_house", "extra"]]
    state = _position("dubbel", open_boxes, levels=[None, "random"], seed=3)
    DoubleSampler(state, 0, policy_for(None, state.rules), True).sample(1, 0)  # compiled
    # No seed: a seeded call deals its games by a fixed schedule, not by their cost.
    result = win_chances(state, budget=0.3)
    # A person by the approximate strategy's kernel, a random bot by itself in Python.
    assert [s.method for s in result.seats] == ["simulated", "simulated (Python)"]
    # The slow sampler does not starve the fast one (games in proportion to 1/sqrt(cost)).
    assert result.seats[0].games > result.seats[1].games >= 20
    assert sum(result.chances) == pytest.approx(1.0, abs=1e-9)
    assert 0 < result.margin <= 1.0


@pytest.mark.slow
@pytest.mark.parametrize("level", ["optimal", "strong", "greedy"])
def test_dubbel_kernel_plays_as_the_approximate_strategy(level: str) -> None:
    state = _position("dubbel", [["threes", "two_pairs", "chance", "yatzy", "extra", "sixes"]])
    state.apply(Roll())
    state.apply_roll([(6, 3), (6, 3), (2, 3), (5, 1), (6, 6), (1, 2)])
    policy = policy_for(level, state.rules)
    kernel = DoubleSampler(state, 0, policy, True).sample(5_000, 3)  # as above
    python = PythonSampler(state, 0, policy).sample(100, 4)
    se = np.sqrt(kernel.var() / len(kernel) + python.var() / len(python))
    assert abs(kernel.mean() - python.mean()) < 4 * se


def test_a_missing_table_is_not_built_when_building_is_not_allowed() -> None:
    state = Game("maxi", ["A", "B"]).new_initial_state(starter=0)
    with pytest.raises(TablesNotReady):
        win_chances(state, budget=0.2, build=False)
    # A late position's sub-game is solved within the budget instead.
    late = _position("maxi", [["chance", "maxi_yatzy"], ["ones", "chance"]], seed=1)
    result = win_chances(late, budget=0.5, build=False)
    assert sum(result.chances) == pytest.approx(1.0, abs=1e-9)


def test_bad_arguments_are_refused() -> None:
    state = Game("yatzy", ["A", "B"]).new_initial_state(starter=0)
    with pytest.raises(YatzyError, match="one level per seat"):
        win_chances(state, levels=["strong"])
    with pytest.raises(YatzyError, match="unknown level 'wizard'"):
        win_chances(state, levels=[None, "wizard"])
    with pytest.raises(YatzyError, match="budget"):
        win_chances(state, budget=-1)
    with pytest.raises(YatzyError, match="expected a game State"):
        win_chances("yatzy")  # type: ignore[arg-type]


def test_a_margin_stops_the_simulation_once_every_chance_is_that_precise() -> None:
    # Issue 25: the live chances stop simulating at their margin rather than spend
    # their whole budget; a position met before may need no game more at all.
    import yatzy.strategy.win_chance as module

    # This process's earlier tests may have sampled this position to a finer margin
    # already: then the tight margin needs no game more (it failed in one ordering).
    with module._OUTCOMES_LOCK:
        module._OUTCOMES.clear()
    game = Game("yatzy", [Player("Ann"), Player("Bot", "greedy")])
    state = game.new_initial_state(starter=0)
    state.apply(Roll())
    state.apply_roll([1, 2, 3, 4, 6])
    loose = win_chances(state, budget=5.0, exact=False, margin=0.2)
    assert not loose.exact and 0 < loose.margin <= 0.2
    again = win_chances(state, budget=5.0, exact=False, margin=0.2)
    assert [s.games for s in again.seats] == [s.games for s in loose.seats]  # none more
    tight = win_chances(state, budget=5.0, exact=False, margin=0.05)
    assert tight.margin <= 0.05 < loose.margin
    assert all(t.games > s.games for t, s in zip(tight.seats, loose.seats, strict=True))


def test_the_games_needed_reach_the_margin_by_the_terms() -> None:
    # Two sampled outcomes: seat 0's chance has a variance of 0.2 a game of outcome 0
    # and 0.05 of outcome 1; outcome 0 has 400 games, outcome 1 10,000.
    terms = [{0: 0.2, 1: 0.05}, {0: 0.01, 1: 0.1}]
    games = {0: 400, 1: 10_000}
    assert win_chance._widest(terms, games) > 0.02
    more = win_chance._games_needed(terms, games, 0, 0.02)
    assert more is not None and more > 0
    assert win_chance._widest(terms, {0: 400 + more, 1: 10_000}) <= 0.02
    fewer = {0: 400 + int(more / 1.05) - 60, 1: 10_000}
    assert win_chance._widest(terms, fewer) > 0.02  # not many more than needed
    # Outcome 1's games alone cannot narrow seat 0's margin enough (outcome 0's part
    # is wider than 0.02 by itself).
    assert win_chance._games_needed(terms, {0: 100, 1: 10_000}, 1, 0.02) is None
    # The most useful games narrow the widest margin (seat 0's): outcome 0's.
    cost = {0: 1e-5, 1: 1e-5}
    assert win_chance._most_useful(terms, games, [0, 1], cost, 1) == 0
