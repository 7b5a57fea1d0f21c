"""One player's points still to come, as a distribution: exact where it can be, else sampled.

Players' sheets are independent of each other given how each plays, so the live win
chances (:mod:`yatzy.strategy.win_chance`) need only, for every seat, the
distribution of the points its position still adds to its final score under its
:class:`Policy` (people play the optimal strategy).  This module gives it as an
:class:`Outcome`:

- **exact** for ``yatzy`` and ``yahtzee`` played optimally, from the "optimal"-mode
  :class:`~yatzy.solver.target.TargetTable`: the whole game's table when it is in the
  disk cache (it takes minutes to build and is never built here), else the table of
  the sub-game of the open boxes, solved in memory when its estimated cost
  (:func:`subgame_seconds`) fits the time allowed; one sub-game table covers every
  later position of that sheet, so it is solved once per player;
- **sampled** otherwise, by the numba kernels :mod:`yatzy.kernels.win`
  (plain dice: ``yatzy``, ``yahtzee``, ``maxi`` with every option; ``maxi+saved_rolls``
  with its approximate strategy, as the bots play it until its exact table is built)
  and :mod:`yatzy.kernels.win_double` (DubbelYatzy's approximate strategy
  and greedy bot, free order) from the exact position with the level's policy, or by
  playing the level's bot through game states in pure Python (DubbelYatzy's random
  bot and forced orders; ``maxi+saved_rolls`` once its exact table is built), which
  is slow: few games fit a budget, and the margin says so.

Outcomes are cached per position (the sheet's open boxes, capped upper sum, the
Yatzy box's 50, saved rolls, and within the turn of the player to act the dice and
rolls left) and policy, not per game: a position between turns keeps its outcome
while the others play, and its samples accumulate over the updates.
"""

from __future__ import annotations

import random
import threading
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from yatzy.errors import YatzyError
from yatzy.game import Game, State
from yatzy.rules import RuleSet
from yatzy.solver.cache import MissingMemo, frozen

if TYPE_CHECKING:
    from yatzy.solver import Solver
    from yatzy.solver.target import TargetTable

__all__ = [
    "PERSON",
    "Outcome",
    "Policy",
    "Sampler",
    "TablesNotReady",
    "exact_outcome",
    "outcome_key",
    "policy_for",
    "sampler_for",
    "subgame_seconds",
]

PERSON = "person"
"""The level of a seat played by a person: the optimal strategy."""

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


class TablesNotReady(LookupError):
    """A table the answer needs is not built yet, and building it was not allowed."""


@dataclass(frozen=True)
class Policy:
    """How a seat plays: ``kind`` ``"optimal"`` (people, optimal and perfect bots),
    ``"softmax"`` (the skill levels, at ``temperature``), ``"greedy"`` or ``"random"``."""

    level: str
    kind: str
    temperature: float = 0.0

    @property
    def key(self) -> tuple[str, float]:
        """What the distribution depends on (a person and the optimal bot share it)."""
        return self.kind, self.temperature


def policy_for(level: str | None, rules: RuleSet) -> Policy:
    """The policy of a seat of ``level`` (``None`` or :data:`PERSON`: a person)."""
    from yatzy.strategy.levels import (
        LEVELS,
        OPTIMAL_LEVELS,
        SKILL_TEMPERATURES,
        WINNER_LEVELS,
        skill_temperature,
    )

    if level is None or level == PERSON:
        return Policy(PERSON, "optimal")
    if level in OPTIMAL_LEVELS or level in WINNER_LEVELS:
        # The bot for the win is taken as optimal, an approximation: its play depends
        # on the others' sheets (it scores about 10 points less on average).
        return Policy(level, "optimal")
    if level in SKILL_TEMPERATURES:
        return Policy(level, "softmax", skill_temperature(level, rules))
    if level in ("greedy", "random"):
        return Policy(level, level)
    raise YatzyError(f"unknown level {level!r}; valid: {PERSON}, {', '.join(LEVELS)}")


@dataclass(frozen=True)
class Outcome:
    """The points a position still adds to the final score: ``lo + i`` has weight
    ``weights[i]``.

    Exact (``samples == 0``): ``weights`` are the probabilities.  Sampled: they are
    counts of ``samples`` games.  ``method`` says how it was obtained.
    """

    lo: int
    weights: FloatArray
    samples: int
    method: str

    @property
    def exact(self) -> bool:
        """Whether the distribution is exact (not sampled)."""
        return self.samples == 0

    def pmf(self) -> FloatArray:
        """The probabilities (sampled: the empirical distribution)."""
        return self.weights if self.exact else self.weights / self.samples

    def merged(self, points: IntArray) -> Outcome:
        """A sampled outcome with the games ``points`` added."""
        if points.shape[0] == 0:
            return self
        lo = int(points.min())
        hi = int(points.max())
        if self.samples:
            lo = min(lo, self.lo)
            hi = max(hi, self.lo + self.weights.shape[0] - 1)
        out = np.zeros(hi - lo + 1, dtype=np.float64)
        if self.samples:
            out[self.lo - lo : self.lo - lo + self.weights.shape[0]] += self.weights
        out += np.bincount(points - lo, minlength=hi - lo + 1)
        return Outcome(lo, out, self.samples + int(points.shape[0]), self.method)


def point_mass(method: str = "finished") -> Outcome:
    """Nothing more to come (a full sheet)."""
    return Outcome(0, np.ones(1), 0, method)


# -- positions ---------------------------------------------------------------------------


def in_turn(state: State, seat: int) -> bool:
    """Whether ``seat`` is within a turn with dice on the table (or rolling)."""
    return (
        not state.is_terminal()
        and state.starter is not None
        and state.player == seat
        and state.dice is not None
        and state.rolls_used > 0
    )


def outcome_key(state: State, seat: int, policy: Policy) -> Hashable:
    """What the seat's outcome depends on: its sheet's future, not its points so far."""
    rules = state.rules
    sheet = state.sheets[seat]
    between: tuple[Any, ...] = (
        rules.spec,
        policy.key,
        tuple(sheet.open_boxes),
        min(sheet.upper_sum, rules.threshold) if rules.bonus else 0,
        rules.has_joker and sheet.points("yatzy") == 50,
        sheet.saved_rolls if rules.saves_rolls else 0,
        sheet.first_section if rules.half_forced else None,
    )
    if not in_turn(state, seat):
        return between
    assert state.dice is not None
    known = sorted(d for i, d in enumerate(state.dice) if i not in state.pending)
    left = 0 if state.game.pad else state.rolls_left()
    return (*between, tuple(known), len(state.pending), left)


# -- exact: target tables in "optimal" mode ---------------------------------------------------

_lock = threading.RLock()
_WHOLE: dict[str, TargetTable] = {}
_MISSING = MissingMemo(60.0)  # specs not in the disk cache a moment ago
_SUBGAMES: OrderedDict[tuple[str, frozenset[str]], TargetTable] = OrderedDict()
_KEPT_SUBGAMES = 48

# Seconds per unit of :func:`subgame_seconds` (measured by benchmarks/bench_win_chance.py
# on the development machine; the joker's two Yatzy-box states cost more per state).
_SECONDS_PER_UNIT = {"yatzy": 4.5e-5, "yahtzee": 8e-5}
_FIXED_SECONDS = 0.005


def exact_supported(rules: RuleSet, policy: Policy) -> bool:
    """Whether the position's outcome can be exact: optimal play of yatzy or yahtzee."""
    return policy.kind == "optimal" and rules.variant in ("yatzy", "yahtzee")


def subgame_seconds(rules: RuleSet, open_boxes: list[str]) -> float:
    """The estimated CPU seconds to solve the optimal-mode target table (with its
    expected-value table) of the sub-game of ``open_boxes``.

    Its states are the sets of open boxes (2^k) times the upper sums that still
    matter (up to the threshold while an upper box is open) times the Yatzy box's
    two states with the joker rules.
    """
    upper = rules.bonus > 0 and any(b in rules.upper_boxes for b in open_boxes)
    units = 2 ** len(open_boxes) * ((rules.threshold + 1) if upper else 4)
    if rules.has_joker:
        units *= 2
    return float(_FIXED_SECONDS + units * _SECONDS_PER_UNIT.get(rules.variant, 8e-5))


def _whole_table(rules: RuleSet) -> TargetTable | None:
    """The whole game's optimal-mode table when it is in the disk cache (never built)."""
    from yatzy.solver.target import TargetTable

    with _lock:
        found = _WHOLE.get(rules.spec)
        if found is not None or _MISSING.known_missing(rules.spec):
            return found
    try:
        table = TargetTable(rules, mode="optimal", cached_only=True)
    except LookupError:
        _MISSING.mark(rules.spec)
        return None
    with _lock:
        _WHOLE[rules.spec] = table
    return table


def optimal_table(
    rules: RuleSet, open_boxes: list[str], allow_seconds: float
) -> tuple[TargetTable, str] | None:
    """An optimal-mode table whose game covers a sheet with ``open_boxes`` open, and
    its name ("table" for the whole game's, "sub-game"), or ``None`` when none is at
    hand and solving the sub-game would take longer than ``allow_seconds``."""
    whole = _whole_table(rules)
    if whole is not None:
        return whole, "table"
    want = frozenset(open_boxes)
    with _lock:
        for (spec, root), table in _SUBGAMES.items():
            if spec == rules.spec and want <= root:
                _SUBGAMES.move_to_end((spec, root))
                return table, "sub-game"
    if subgame_seconds(rules, open_boxes) > allow_seconds:
        return None
    from yatzy.solver.target import TargetTable

    # In memory only: a server meets many sheets, and each is solved in well under a second.
    table = TargetTable(rules, mode="optimal", open_boxes=open_boxes, use_cache=False)
    with _lock:
        _SUBGAMES[(rules.spec, want)] = table
        while len(_SUBGAMES) > _KEPT_SUBGAMES:
            _SUBGAMES.popitem(last=False)
    return table, "sub-game"


def exact_outcome(state: State, seat: int, allow_seconds: float) -> Outcome | None:
    """The exact outcome of an optimally played ``seat`` of a yatzy or yahtzee game,
    or ``None`` when no table is at hand within ``allow_seconds``."""
    sheet = state.sheets[seat]
    found = optimal_table(state.rules, sheet.open_boxes, allow_seconds)
    if found is None:
        return None
    table, name = found
    at_least = table.at_least(state, seat)
    pmf = at_least - np.append(at_least[1:], 0.0)
    pmf = np.clip(pmf, 0.0, None)  # float32 rows: no negative dust
    return Outcome(0, pmf / pmf.sum(), 0, name)


# -- sampled --------------------------------------------------------------------------------


class Sampler:
    """Plays the rest of one seat's sheet from its position, many times."""

    method = "simulated"
    first_chunk = 64
    """Games in the first batch (before the time per game is known)."""

    def sample(self, games: int, seed: int) -> IntArray:
        """The points each of ``games`` games adds to the sheet's final score."""
        raise NotImplementedError


@dataclass(frozen=True)
class _Static:
    """Everything the kernel reads of a rule set but the value table."""

    model: Any
    args: tuple[Any, ...]
    allowed_of_mask: IntArray
    scratch_bits: int
    greedy_tie: IntArray
    greedy_v: FloatArray
    random_v: FloatArray


@cache
def _static(rules: RuleSet) -> _Static:
    from yatzy.solver import Layout, Model
    from yatzy.strategy.keep_arrays import model_args

    model = Model.build(rules)
    args = model_args(model, rules)
    n_boxes = len(rules.boxes)
    if rules.forced or rules.half_forced:
        # The order rules' boxes depend on the open boxes alone (see Layout).
        layout = Layout.build(model, model.full_mask)
        allowed = np.zeros(1 << n_boxes, dtype=np.int64)
        allowed[layout.masks] = layout.allowed
    else:
        allowed = np.arange(1 << n_boxes, dtype=np.int64)
    scratch = sum(1 << i for i, b in enumerate(rules.boxes) if rules.scratchable(b))
    # Greedy: equal gains go to the box that can score the least (strategy.greedy).
    tie = np.array([max(rules.possible_scores(b)) for b in rules.boxes], dtype=np.int64)
    # Greedy values a write by its points and the upper bonus it completes: a "table"
    # of one row that holds the bonus once the upper sum reaches the threshold.
    # float32 and read-only, as the optimal table is: the kernels compile once for both
    # (the bonus is a whole number, exact in float32).
    greedy_v = np.zeros((1, model.ys, model.threshold + 1), dtype=np.float32)
    if model.threshold:
        greedy_v[0, :, model.threshold] = rules.bonus
    # The random computer reads no values: a table of zeros of the same type.
    random_v = np.zeros_like(greedy_v)
    return _Static(model, args, allowed, scratch, tie, frozen(greedy_v), frozen(random_v))


_EV_WHOLE: dict[str, Solver] = {}
_EV_MISSING = MissingMemo(60.0)
_EV_SUBGAMES: OrderedDict[tuple[str, frozenset[str]], Solver] = OrderedDict()
# CPU seconds per set of open boxes of an expected-value sub-game (measured like
# _SECONDS_PER_UNIT): 5 dice have 252 rolls, 6 dice 462.
_EV_SECONDS_PER_MASK = {5: 4.5e-5, 6: 1.1e-4}


def ev_seconds(rules: RuleSet, open_boxes: list[str]) -> float:
    """The estimated CPU seconds to solve the expected-value sub-game of ``open_boxes``."""
    per = _EV_SECONDS_PER_MASK.get(rules.num_dice, 1.1e-4)
    if rules.has_joker or rules.max_carried:
        per *= 2
    return float(0.003 + 2 ** len(open_boxes) * per)


def ev_solver(
    rules: RuleSet, open_boxes: list[str], build: bool, allow_seconds: float = 0.0
) -> Solver:
    """An expected-value solver whose game covers a sheet with ``open_boxes`` open.

    The whole game's table when this process has it loaded or it is in the disk
    cache (memory-mapped); else the sub-game of the open boxes, solved in memory
    when ``build`` or when its estimated cost fits ``allow_seconds``; else, with
    ``build``, the whole game's (seconds for yatzy and yahtzee, minutes for maxi).
    Otherwise
    :class:`TablesNotReady`.
    """
    from yatzy.solver import Solver
    from yatzy.strategy.advisor import loaded_solver, solver_for

    spec = rules.spec
    with _lock:
        found = _EV_WHOLE.get(spec)
        if found is None:
            found = loaded_solver(spec)
        missing = _EV_MISSING.known_missing(spec)
    if found is not None:
        return found
    if not missing:
        try:
            found = Solver(rules, cached_only=True)
        except LookupError:
            _EV_MISSING.mark(spec)
        else:
            with _lock:
                _EV_WHOLE[spec] = found
            return found
    want = frozenset(open_boxes)
    with _lock:
        for (s, root), solver in _EV_SUBGAMES.items():
            if s == spec and want <= root:
                _EV_SUBGAMES.move_to_end((s, root))
                return solver
    whole = len(want) == len(rules.boxes)
    if build and whole:
        found = solver_for(spec)
        with _lock:
            _EV_WHOLE[spec] = found
        return found
    if not build and (whole or ev_seconds(rules, open_boxes) > allow_seconds):
        raise TablesNotReady(f"the table of {spec} is not built yet")
    solver = Solver(rules, open_boxes=open_boxes, use_cache=False)
    with _lock:
        _EV_SUBGAMES[(spec, want)] = solver
        while len(_EV_SUBGAMES) > _KEPT_SUBGAMES:
            _EV_SUBGAMES.popitem(last=False)
    return solver


def kernel_supported(rules: RuleSet) -> bool:
    """Whether the kernel plays ``rules``: plain dice; saved rolls that accumulate only
    while their approximate strategy plays them (before their exact table is built)."""
    if rules.double:
        return False
    if rules.saved_rolls == "all":
        from yatzy.strategy.advisor import is_exact

        return not is_exact(rules)
    return True


class KernelSampler(Sampler):
    """The numba kernel from a seat's position, with its policy."""

    method = "simulated"

    def __init__(
        self, state: State, seat: int, policy: Policy, build: bool, allow_seconds: float = 0.0
    ) -> None:
        from yatzy.kernels import win as wk

        rules = state.rules
        st = _static(rules)
        model = st.model
        sheet = state.sheets[seat]
        n_boxes = len(rules.boxes)
        tie = np.zeros(n_boxes, dtype=np.int64)
        temperature = 1.0
        carry_all = rules.saved_rolls == "all"
        stop_value = stop_cap = 0.0
        if policy.kind in ("optimal", "softmax"):
            table_rules = rules
            if carry_all:
                # The approximate strategy: the table without saved rolls, and a stop
                # worth SAVED_ROLL_VALUE points more per roll it saves (at most
                # SAVED_ROLL_CAP rolls per box still open count).
                from yatzy.strategy.approx import SAVED_ROLL_CAP, SAVED_ROLL_VALUE, proxy_rules

                table_rules = proxy_rules(rules)
                stop_value, stop_cap = SAVED_ROLL_VALUE, SAVED_ROLL_CAP
            solver = ev_solver(table_rules, sheet.open_boxes, build, allow_seconds)
            V = solver.table
            rows = solver.layout.idx_of_mask
            mode = wk.MODE_ARGMAX if policy.kind == "optimal" else wk.MODE_SOFTMAX
            temperature = policy.temperature if policy.kind == "softmax" else 1.0
        elif policy.kind == "greedy":
            V = st.greedy_v
            rows = np.zeros(1 << n_boxes, dtype=np.int32)
            mode = wk.MODE_ARGMAX
            tie = st.greedy_tie
        else:
            V = st.random_v
            rows = np.zeros(1 << n_boxes, dtype=np.int32)
            mode = wk.MODE_RANDOM
        if mode == wk.MODE_SOFTMAX and not temperature > 0:
            mode = wk.MODE_ARGMAX
        mask = model.mask_of(sheet.open_boxes)
        if model.saved or carry_all:
            y = sheet.saved_rolls
        else:
            y = 1 if model.ys == 2 and sheet.points("yatzy") == 50 else 0
        dice = np.zeros(rules.num_dice, dtype=np.int64)
        left = -1
        if in_turn(state, seat):
            assert state.dice is not None
            for i, d in enumerate(state.dice):
                dice[i] = 0 if i in state.pending else int(d)  # type: ignore[arg-type]
            left = 0 if state.game.pad else state.rolls_left()
        memo_keys, memo_E = _NO_MEMO  # saved rolls, random play: nothing to remember
        if mode != wk.MODE_RANDOM and not carry_all and not model.saved:
            memo_keys, memo_E = turn_memo(V, rules.max_rolls, keep_count(rules.num_dice))
        self._kernel = wk.play_from
        self._start = (
            mask,
            y,
            min(sheet.upper_sum, model.threshold),
            sheet.upper_sum,
            sheet.bonus > 0,
            dice,
            left,
            mode,
            float(temperature),
            tie,
            st.scratch_bits,
            V,
            rows,
            st.allowed_of_mask,
            *st.args,
            carry_all,
            stop_value,
            stop_cap,
            memo_keys,
            memo_E,
        )

    def sample(self, games: int, seed: int) -> IntArray:
        """The points each of ``games`` games adds (see :class:`Sampler`)."""
        out = np.zeros(games, dtype=np.int64)
        self._kernel(seed, out, _NO_BOXES, *self._start)
        return out

    def sample_boxes(self, games: int, seed: int) -> tuple[IntArray, IntArray]:
        """As :meth:`sample`, with each game's boxes written with points (bit ``b``
        for box ``b``) and the upper bonus reached (bit
        :data:`yatzy.kernels.win.BONUS_BIT`): what a simulation counts."""
        out = np.zeros(games, dtype=np.int64)
        boxes = np.zeros(games, dtype=np.int64)
        self._kernel(seed, out, boxes, *self._start)
        return out, boxes


_NO_BOXES = np.zeros(0, dtype=np.int64)

TURN_MEMO_SLOTS = 4096
"""States whose within-turn keep values a thread remembers per value table (direct
mapped by a hash: a state met later overwrites the one in its slot).  Each holds the
values of every keep at each number of rolls left: yatzy's 4,096 slots (3 x 462
values) take at most 45 MB per table a thread plays (the greedy bots' one, the
optimal strategy's; the pages are touched as states are met)."""

_NO_MEMO = (np.zeros(0, dtype=np.int64), np.zeros((0, 1, 1), dtype=np.float64))
_MEMOS = threading.local()


def keep_count(num_dice: int) -> int:
    """The number of keeps (the rolls among them) of ``num_dice`` dice: a memo row's width."""
    from yatzy.strategy.keep_arrays import keep_arrays

    return int(keep_arrays(num_dice)[0].shape[0])


def turn_memo(V: FloatArray, max_rolls: int, keeps: int) -> tuple[IntArray, FloatArray]:
    """This thread's memo of within-turn keep values for the value table ``V``
    (:func:`yatzy.kernels.win.play_from`): one per table and thread, as the kernel
    writes it without a lock; the tables' memos are kept while their tables are (a
    few per process: the greedy bots' one, the optimal strategy's, sub-games')."""
    memos: dict[int, tuple[FloatArray, IntArray, FloatArray]] | None = getattr(
        _MEMOS, "by_table", None
    )
    if memos is None:
        memos = _MEMOS.by_table = {}
    found = memos.pop(id(V), None)
    if found is not None and found[0] is V:
        memos[id(V)] = found  # the most recently used last
        return found[1], found[2]
    keys = np.full(TURN_MEMO_SLOTS, -1, dtype=np.int64)
    values = np.empty((TURN_MEMO_SLOTS, max_rolls, keeps), dtype=np.float64)
    memos[id(V)] = (V, keys, values)
    while len(memos) > _KEPT_MEMOS:
        del memos[next(iter(memos))]
    return keys, values


_KEPT_MEMOS = 3


class DoubleSampler(Sampler):
    """The numba kernel of DubbelYatzy's approximate strategy (free order; people, the
    optimal bot and the skill levels) or of its greedy bot, from a seat's position."""

    method = "simulated"

    def __init__(
        self, state: State, seat: int, policy: Policy, build: bool, allow_seconds: float = 0.0
    ) -> None:
        from itertools import combinations

        from yatzy.kernels import win as wk
        from yatzy.kernels import win_double as wdk
        from yatzy.rules import score_table
        from yatzy.strategy.approx import EXTRA_VALUE, proxy_rules
        from yatzy.strategy.keep_arrays import keep_arrays

        rules = state.rules
        proxy = proxy_rules(rules)
        sheet = state.sheets[seat]
        proxy_open = [b for b in sheet.open_boxes if b in proxy.box_index]
        threshold = rules.threshold if rules.bonus else 0
        if policy.kind == "greedy":  # greedy reads no table (the kernel never looks)
            # of the optimal table's type (float32, read-only): one compile for both
            table = frozen(np.zeros((1, 1, threshold + 1), dtype=np.float32))
            rows = np.zeros(1 << len(proxy.boxes), dtype=np.int32)
        else:
            solver = ev_solver(proxy, proxy_open, build, allow_seconds)
            table, rows = solver.table, solver.layout.idx_of_mask
            threshold = int(solver.model.threshold)
        n = rules.num_dice
        add, sub, nsub, _yf, rolls, roll_of_code, _ks = keep_arrays(n)
        mask = sum(1 << i for i, b in enumerate(rules.boxes) if sheet.is_open(b))
        outer = np.zeros(n, dtype=np.int64)
        inner = np.zeros(n, dtype=np.int64)
        left = -1
        if in_turn(state, seat):
            assert state.dice is not None
            for i, die in enumerate(state.dice):
                if i not in state.pending:
                    outer[i], inner[i] = die  # type: ignore[misc]
            left = 0 if state.game.pad else state.rolls_left()
        subsets = [
            sum(1 << i for i in pos) for size in range(n) for pos in combinations(range(n), size)
        ]
        extra = rules.box_index.get("extra", -1)
        mode = wk.MODE_SOFTMAX if policy.kind == "softmax" else wk.MODE_ARGMAX
        tie = np.array([max(rules.possible_scores(b)) for b in rules.boxes], dtype=np.int64)
        self._kernel = wdk.play_double_from
        self._start = (
            mask,
            min(sheet.upper_sum, threshold),
            sheet.upper_sum,
            sheet.bonus > 0,
            outer,
            inner,
            left,
            mode,
            float(policy.temperature) if policy.kind == "softmax" else 1.0,
            np.array(score_table(rules).points, dtype=np.int64),
            np.array([c.face for c in rules.categories], dtype=np.int64),
            sum(1 << i for i, b in enumerate(rules.boxes) if rules.scratchable(b)),
            threshold,
            rules.threshold,
            rules.bonus,
            rules.max_rolls - 1,
            table,
            rows,
            np.array([proxy.box_index.get(b, -1) for b in rules.boxes], dtype=np.int64),
            extra,
            float(EXTRA_VALUE[rules.extra]) if rules.extra is not None else 0.0,
            add,
            sub,
            nsub,
            rolls,
            roll_of_code,
            np.array(subsets, dtype=np.int64),
            policy.kind == "greedy",
            tie,
        )

    def sample(self, games: int, seed: int) -> IntArray:
        """The points each of ``games`` games adds (see :class:`Sampler`)."""
        out = np.zeros(games, dtype=np.int64)
        self._kernel(seed, out, *self._start)
        return out


class PythonSampler(Sampler):
    """The level's bot plays the seat's sheet through a one-player game state."""

    method = "simulated (Python)"
    first_chunk = 1

    def __init__(self, state: State, seat: int, policy: Policy) -> None:
        from yatzy.strategy.levels import solitaire_bot

        # One seat: the winner's levels play the optimal strategy (nobody to beat).
        self._bot = solitaire_bot("optimal" if policy.level == PERSON else policy.level)
        self._start = solo_state(state, seat)
        self._final = state.sheets[seat].final

    def sample(self, games: int, seed: int) -> IntArray:
        """The points each of ``games`` games adds (see :class:`Sampler`)."""
        from yatzy.strategy.levels import play_turn

        rng = random.Random(seed)
        out = np.zeros(games, dtype=np.int64)
        for g in range(games):
            s = self._start.clone()
            while not s.is_terminal():
                play_turn(s, self._bot, rng)
            out[g] = s.sheets[0].final - self._final
        return out


def solo_state(state: State, seat: int) -> State:
    """A one-player game at ``seat``'s position (its sheet, and its turn's dice if it
    is within one); a score pad's dice are final (no rolls left)."""
    rules = state.rules
    solo = Game(rules, ["solo"]).new_initial_state(starter=0)
    sheet = state.sheets[seat].copy()
    solo.sheets[0] = sheet
    filled = len(rules.boxes) - len(sheet.open_boxes)
    solo.turn_number = filled // rules.results_per_turn
    if in_turn(state, seat):
        assert state.dice is not None
        solo.dice = list(state.dice)
        solo.pending = list(state.pending)
        solo.rolls_used = solo.max_rolls() if state.game.pad else state.rolls_used
        shown = [list(d) if isinstance(d, tuple) else d for d in solo.dice]
        solo.log.append(
            {"player": 0, "rolls": [{"keep": [], "dice": shown} for _ in range(solo.rolls_used)]}
        )
    return solo


def sampler_for(
    state: State, seat: int, policy: Policy, build: bool, allow_seconds: float = 0.0
) -> Sampler:
    """The fastest sampler of the seat's rest of the game (see the module docstring);
    ``allow_seconds`` bounds a table solved for it without ``build``."""
    rules = state.rules
    if kernel_supported(rules):
        return KernelSampler(state, seat, policy, build, allow_seconds)
    if (
        rules.double
        and not (rules.forced or rules.half_forced)
        and policy.kind in ("optimal", "softmax", "greedy")
    ):
        return DoubleSampler(state, seat, policy, build, allow_seconds)
    if policy.kind in ("optimal", "softmax") and not build:
        _approx_ready(state.rules)
    return PythonSampler(state, seat, policy)


def _approx_ready(rules: RuleSet) -> None:
    """The tables behind the approximate strategies (their nearest solvable rule
    set's): :class:`TablesNotReady` unless the whole game's is cached."""
    from yatzy.solver import Solver
    from yatzy.strategy.advisor import is_exact
    from yatzy.strategy.approx import proxy_rules

    if is_exact(rules):  # maxi+saved_rolls with its exact table built
        return
    proxy = proxy_rules(rules)
    with _lock:
        if proxy.spec in _EV_WHOLE:
            return
    try:
        solver = Solver(proxy, cached_only=True)
    except LookupError:
        raise TablesNotReady(f"the table of {proxy.spec} is not built yet") from None
    with _lock:
        _EV_WHOLE[proxy.spec] = solver
