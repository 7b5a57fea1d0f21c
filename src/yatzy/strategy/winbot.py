"""The bot that plays for the win: it maximises its chance of finishing first.

At every turn the bot (level ``winner``) looks at the other players' actual sheets.
Each of them has a distribution of final scores: exact from the optimal-mode target
table for a person or an optimal bot (people are assumed to play the optimal
strategy, as :mod:`yatzy.strategy.win_chance` does; another ``winner`` bot is taken
as optimal too), sampled by the simulation kernels for the skill levels, greedy and
random bots.  Combined (ties shared, as in :func:`yatzy.strategy.win_chance.combine`),
they give ``W(x)``: the bot's chance of winning with a final score of ``x``.

A position between turns with ``P`` points is then worth ``sum_x (W(x) - W(x-1)) *
R(points still to come >= x - P)`` for a row ``R`` of a target table
(:class:`~yatzy.solver.target.TargetTable`) at that position, a blend (:data:`ALPHA`)
of two: the optimal-mode row (the chance of winning if the bot plays the optimal
strategy from the next turn on: the turn's choice is then a policy improvement of
the optimal strategy, never worse than it against the opponents it models; the
default) and the max-mode row (each target's best chance, as if the bot could play
for every target at once: an upper bound of its chance, exact at the end of the
game).  The bot plans the whole turn on it by an exact DP over the turn's dice (the
best box of every final roll, then the keeps over the remaining rolls; numba kernels
in :mod:`yatzy.kernels.winbot`), once per turn.

Scope: ``yatzy`` and ``yahtzee`` with every option (where target tables exist) and
two or more players.  Elsewhere (Maxi, DubbelYatzy, a solo game) the bot plays the
optimal strategy of the ``optimal`` level (it maximises the expected score); use
:func:`winner_supported` to ask.  Its first move on a rule set loads (or, once,
builds: minutes) the two whole target tables, ``yatzy solve SPEC --target T``.

:func:`head_to_head` plays many two-player games of this bot against the optimal bot
with the numba kernel (``benchmarks/bench_winbot.py``; figures in the README).
"""

from __future__ import annotations

import math
import random
import time
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from yatzy.errors import SpecError, YatzyError
from yatzy.game import Action, Roll, Score, Scratch, State
from yatzy.rules import RuleSet

if TYPE_CHECKING:
    from yatzy.solver.target import TargetTable

__all__ = [
    "ALPHA",
    "HeadToHead",
    "TurnPlan",
    "WinTables",
    "WinnerBot",
    "dice_at",
    "head_to_head",
    "make_tables",
    "plan_turn",
    "win_curve",
    "win_tables",
    "winner_ready",
    "winner_supported",
]

FloatArray = npt.NDArray[np.float64]

ALPHA = 0.0
"""How the bot values its own positions: ``ALPHA`` times the max-mode table's chance
of winning plus ``1 - ALPHA`` times the chance under optimal play from the next turn
on (the optimal-mode table; see the module docstring).  Measured over 100,000 games
against the optimal bot each, 0 won 52.27 % ± 0.31 and 1 won 52.09 % ± 0.31 (README);
0 is also a policy improvement of the optimal strategy (never worse than it against
the opponents it models) and half as slow again to plan."""

SAMPLES = 4000
"""Games simulated for an opponent whose distribution has no exact table (a skill
level, greedy or random bot)."""

_Z95 = 1.959963984540054


def winner_supported(rules: RuleSet) -> bool:
    """Whether the bot plays ``rules`` for the win (``yatzy``, ``yahtzee``); elsewhere
    it plays the optimal strategy."""
    from yatzy.solver.target import check_target_supported

    try:
        check_target_supported(rules)
    except SpecError:
        return False
    return True


@dataclass(frozen=True)
class WinTables:
    """What the bot reads: the max-mode table (its own positions), the optimal-mode
    table (optimal opponents) and the kernels' view of the rule set.

    Both tables must cover the same game (the whole game, or the same sub-game in
    tests and benchmarks: ``open_boxes``).
    """

    rules: RuleSet
    max_table: TargetTable
    opt_table: TargetTable
    args: tuple[Any, ...]
    keep_index: dict[tuple[int, ...], int]
    length: int

    @property
    def levels(self) -> int:
        """Rolls after the first one in a turn."""
        return self.rules.max_rolls - 1


def _model_args(table: TargetTable) -> tuple[Any, ...]:
    from yatzy.strategy.keep_arrays import keep_arrays

    m = table.model
    add, sub, nsub, yatzy_face, _, _, _ = keep_arrays(table.rules.num_dice)
    return (
        m.score.astype(np.int64),
        m.box_face.astype(np.int64),
        m.joker_pts.astype(np.int64),
        int(m.ybox),
        int(m.joker_mode),
        int(m.lower_bits),
        int(m.threshold),
        yatzy_face,
        int(m.lr_chance),
        add,
        sub,
        nsub,
    )


def make_tables(max_table: TargetTable, opt_table: TargetTable) -> WinTables:
    """Bundle a max-mode and an optimal-mode table of the same (sub-)game."""
    from yatzy.strategy.turn import keep_tables

    if max_table.mode != "max" or opt_table.mode != "optimal":
        raise YatzyError("the bot needs a max-mode and an optimal-mode target table")
    if max_table.rules != opt_table.rules or max_table.layout.root != opt_table.layout.root:
        raise YatzyError("the two target tables must cover the same game")
    length = int(max(max_table.hi.max(), opt_table.hi.max())) + 2
    return WinTables(
        max_table.rules,
        max_table,
        opt_table,
        _model_args(max_table),
        keep_tables(max_table.rules.num_dice).index,
        length,
    )


_TABLES: dict[str, WinTables] = {}


def win_tables(rules: RuleSet, *, build: bool = True, progress: bool = False) -> WinTables:
    """The bot's whole-game tables of ``rules`` (loaded from the disk cache; built once
    when missing and ``build``, which takes minutes; else :class:`LookupError`)."""
    from yatzy.solver.target import TargetTable, check_target_supported

    check_target_supported(rules)
    found = _TABLES.get(rules.spec)
    if found is None:
        tables = [
            TargetTable(rules, mode=mode, progress=progress, cached_only=not build)
            for mode in ("max", "optimal")
        ]
        found = _TABLES[rules.spec] = make_tables(*tables)
    return found


def winner_ready(rules: RuleSet) -> bool:
    """Whether the bot's tables of ``rules`` are loaded or in the disk cache (a front
    end says "preparing" otherwise); true where the bot plays the optimal strategy
    and that strategy is ready."""
    if not winner_supported(rules):
        from yatzy.strategy.advisor import strategy_ready

        return strategy_ready(rules)
    try:
        win_tables(rules, build=False)
    except LookupError:
        return False
    return True


# -- the chance of winning with each final score -----------------------------------------------


def _opponent_pmf(
    state: State, seat: int, tables: WinTables, level: str, seed: int
) -> tuple[int, FloatArray]:
    """Seat's final score distribution ``(lo, p)``: ``P(final = lo + k) = p[k]``."""
    from yatzy.strategy.outcomes import policy_for, sampler_for

    sheet = state.sheets[seat]
    if not sheet.open_boxes:
        return sheet.final, np.ones(1)
    policy = policy_for(level, state.rules)
    if policy.kind == "optimal":
        at_least = tables.opt_table.sheet_at_least(sheet)
        pmf = np.clip(at_least - np.append(at_least[1:], 0.0), 0.0, None)
        return sheet.total, pmf / pmf.sum()
    key = ("sampled", state.rules.spec, policy.key, tuple(sheet.open_boxes), sheet.upper_sum,
           sheet.points("yatzy"))  # fmt: skip
    points = _SAMPLED.get(key)
    if points is None:
        sampler = sampler_for(state, seat, policy, True, math.inf)
        points = sampler.sample(SAMPLES, seed)
        _SAMPLED[key] = points
        while len(_SAMPLED) > 256:
            _SAMPLED.popitem(last=False)
    lo = int(points.min())
    counts = np.bincount(points - lo).astype(np.float64)
    return sheet.final + lo, counts / counts.sum()


_SAMPLED: OrderedDict[Hashable, npt.NDArray[np.int64]] = OrderedDict()


def win_curve(
    state: State,
    seat: int,
    tables: WinTables,
    levels: Sequence[str | None] | None = None,
    seed: int = 0,
) -> FloatArray:
    """``W[x]``: ``seat``'s chance of finishing first with a final score of ``x``
    against the others' final-score distributions from their sheets in ``state``
    (ties shared), for ``0 <= x < tables.length``.

    ``levels`` gives each seat's level (``None``: a person, who plays optimally); by
    default the game's own seats.
    """
    from yatzy.strategy.outcomes import PERSON
    from yatzy.strategy.win_chance import tie_shares

    names = [p.bot or PERSON for p in state.players] if levels is None else list(levels)
    if len(names) != len(state.players):
        raise YatzyError(f"levels must name one level per seat, not {levels!r}")
    size = tables.length
    others = [j for j in range(len(state.players)) if j != seat]
    below = np.zeros((len(others), size), dtype=np.float64)
    at = np.zeros((len(others), size), dtype=np.float64)
    for i, j in enumerate(others):
        level = names[j] or PERSON
        lo, p = _opponent_pmf(state, j, tables, level, seed)
        grid = np.zeros(size, dtype=np.float64)
        start = max(lo, 0)
        stop = min(lo + p.shape[0], size)
        if stop > start:
            grid[start:stop] = p[start - lo : stop - lo]
        at[i] = grid
        below[i] = np.cumsum(grid) - grid
    curve: FloatArray = tie_shares(below, at, list(range(len(others))))
    return curve


# -- the bot ---------------------------------------------------------------------------------


@dataclass
class TurnPlan:
    """One turn's plan: ``F[r]`` (win value of final roll ``r``), ``E[j, k]`` (keeping
    ``k`` with ``j`` rolls left) and what the kernels need to pick a box."""

    F: FloatArray
    E: FloatArray
    cont: FloatArray
    curve: FloatArray
    weights: FloatArray
    start: tuple[int, int, int, int, int]  # mask, y, u, points, allowed
    alpha: float


def _key_of(state: State, seat: int) -> Hashable:
    return (
        seat,
        tuple((tuple(s.open_boxes), s.total, s.upper_sum, s.points("yatzy")) for s in state.sheets),
        tuple(p.bot for p in state.players),
    )


def plan_turn(
    state: State,
    tables: WinTables,
    levels: Sequence[str | None] | None = None,
    alpha: float = ALPHA,
) -> TurnPlan:
    """Plan the turn of the player to act for the win (see the module docstring)."""
    from yatzy.kernels import winbot as wk

    seat = state.player
    sheet = state.sheets[seat]
    table, opt = tables.max_table, tables.opt_table
    row, y, u = table._key(sheet)
    mask = int(table.layout.masks[row])
    allowed = int(table.layout.allowed[row])
    points = sheet.total - sheet.bonus  # the tables count the upper bonus as to come
    curve = win_curve(state, seat, tables, levels)
    weights = np.empty_like(curve)
    wk.win_weights(curve, weights)
    (score, box_face, joker_pts, ybox, joker_mode, lower_bits, threshold, yatzy_face,
     lr_chance, add, sub, nsub) = tables.args  # fmt: skip
    n_rolls = score.shape[0]
    n_keeps = add.shape[0]
    max_points = int(max(score.max(), joker_pts.max()))
    F = np.empty(n_rolls, dtype=np.float64)
    E = np.zeros((tables.levels + 1, n_keeps), dtype=np.float64)
    M = np.empty(n_keeps, dtype=np.float64)
    cont = np.zeros((score.shape[1], max_points + 1), dtype=np.float64)
    choice = np.zeros(3, dtype=np.int64)
    wk.win_turn(
        F, E, M, cont, mask, y, u, points, allowed, curve, weights, table.vals, table.off,
        table.lo, table.hi, opt.vals, opt.off, opt.lo, opt.hi, alpha, table.layout.idx_of_mask,
        score, box_face, joker_pts, ybox, joker_mode, lower_bits, threshold, yatzy_face,
        lr_chance, add, sub, nsub, choice,
    )  # fmt: skip
    return TurnPlan(F, E, cont, curve, weights, (mask, y, u, points, allowed), alpha)


class WinnerBot:
    """Plays for the win: the most likely way to finish first against the others'
    actual sheets (see the module docstring).

    ``tables`` overrides the whole-game tables (tests and benchmarks pass sub-game
    tables); ``levels`` how the other seats are assumed to play (default: as the
    game's seats say; a person plays optimally); ``alpha`` see :data:`ALPHA`.  Where
    :func:`winner_supported` is false, or in a solo game, it plays as the ``optimal``
    level.
    """

    name = "winner"

    def __init__(
        self,
        tables: WinTables | None = None,
        levels: Sequence[str | None] | None = None,
        alpha: float = ALPHA,
    ) -> None:
        if not 0.0 <= alpha <= 1.0:
            raise YatzyError(f"alpha {alpha!r} is not within 0-1")
        self.alpha = alpha
        self._tables = tables
        self._levels = None if levels is None else list(levels)
        self._plans: OrderedDict[Hashable, TurnPlan] = OrderedDict()
        self._fallback: Any = None
        self.seconds = 0.0  # time spent planning turns

    def tables_for(self, rules: RuleSet) -> WinTables:
        """The tables this bot reads for ``rules`` (loaded or built on first use)."""
        if self._tables is not None:
            if self._tables.rules != rules:
                raise YatzyError(
                    f"the bot's tables are for {self._tables.rules.spec}, not {rules.spec}"
                )
            return self._tables
        return win_tables(rules)

    def _optimal(self, state: State, rng: random.Random) -> Action:
        if self._fallback is None:
            from yatzy.strategy.levels import AdvisedBot

            self._fallback = AdvisedBot("optimal", 0.0)
        action: Action = self._fallback.choose(state, rng)
        return action

    def plan(self, state: State) -> TurnPlan:
        """The plan of the current turn (computed once per turn)."""
        key = _key_of(state, state.player)
        found = self._plans.get(key)
        if found is None:
            start = time.perf_counter()
            found = plan_turn(state, self.tables_for(state.rules), self._levels, self.alpha)
            self.seconds += time.perf_counter() - start
            self._plans[key] = found
            while len(self._plans) > 4:
                self._plans.popitem(last=False)
        return found

    def choose(self, state: State, rng: random.Random) -> Action:
        """The action with the best chance of finishing first."""
        if state.dice is None:
            return Roll()
        if len(state.players) < 2 or not winner_supported(state.rules) or state.game.pad:
            return self._optimal(state, rng)
        plan = self.plan(state)
        tables = self.tables_for(state.rules)
        dice = tuple(sorted(int(d) for d in state.layer("all")))
        r = tables.keep_index[dice]
        left = state.rolls_left()
        legal = state.legal_actions()
        if left > 0:
            el = plan.E[left]
            best: tuple[float, Action] | None = None
            for action in legal:
                if isinstance(action, Roll):
                    kept = tuple(sorted(dice_at(state, action.keep)))
                    v = float(el[tables.keep_index[kept]])
                    if best is None or v > best[0] + 1e-9:
                        best = (v, action)
            if best is not None and best[0] > plan.F[r] + 1e-9:
                return best[1]
        return self._box(state, plan, tables, r, legal)

    def _box(
        self, state: State, plan: TurnPlan, tables: WinTables, r: int, legal: list[Action]
    ) -> Action:
        from yatzy.kernels import winbot as wk

        table, opt = tables.max_table, tables.opt_table
        mask, y, u, points, allowed = plan.start
        (score, box_face, joker_pts, ybox, joker_mode, lower_bits, threshold, yatzy_face,
         lr_chance, _, _, _) = tables.args  # fmt: skip
        choice = np.zeros(3, dtype=np.int64)
        wk.win_box(
            r, mask, y, u, points, allowed, plan.cont, plan.curve, plan.weights, table.vals,
            table.off, table.lo, table.hi, opt.vals, opt.off, opt.lo, opt.hi, plan.alpha,
            table.layout.idx_of_mask, score, box_face,
            joker_pts, ybox, joker_mode, lower_bits, threshold, yatzy_face, lr_chance, choice,
        )  # fmt: skip
        box = state.rules.boxes[int(choice[0])]
        for action in (Score(box), Scratch(box)):
            if action in legal:
                return action
        # Not expected: the kernel follows the game's box rules.  Take the best legal box.
        fills = [a for a in legal if isinstance(a, (Score, Scratch))]
        return max(fills, key=lambda a: self.fill_value(state, a, plan, tables))

    def fill_value(self, state: State, action: Action, plan: TurnPlan, tables: WinTables) -> float:
        """The win value of writing ``action`` (a Score or Scratch) in ``state``."""
        from yatzy.kernels import winbot as wk

        after = state.clone()
        after.apply(action)
        sheet = after.sheets[state.player]
        points = sheet.total - sheet.bonus
        value = 0.0
        for table, share in ((tables.max_table, plan.alpha), (tables.opt_table, 1 - plan.alpha)):
            if share > 0:
                key = table._key(sheet)
                off, lo, hi = int(table.off[key]), int(table.lo[key]), int(table.hi[key])
                v = wk.state_value(plan.curve, plan.weights, table.vals, off, lo, hi, points)
                value += share * float(v)
        return value


def dice_at(state: State, positions: Sequence[int]) -> list[int]:
    """The faces of the dice at ``positions`` on the table."""
    dice = state.layer("all")
    return [int(dice[i]) for i in positions]


# -- head to head ------------------------------------------------------------------------------


@dataclass(frozen=True)
class HeadToHead:
    """Two-player games of the bot for the win against the optimal bot (or, for the
    control, the optimal bot against itself): ``scores[g] = (bot's, opponent's)``."""

    spec: str
    control: bool
    scores: npt.NDArray[np.int64]
    seconds: float

    @property
    def games(self) -> int:
        """Games played."""
        return int(self.scores.shape[0])

    @property
    def wins(self) -> int:
        """Games the bot won outright."""
        return int((self.scores[:, 0] > self.scores[:, 1]).sum())

    @property
    def ties(self) -> int:
        """Games that ended level."""
        return int((self.scores[:, 0] == self.scores[:, 1]).sum())

    @property
    def rate(self) -> float:
        """The bot's share of wins, ties counting half."""
        return (self.wins + 0.5 * self.ties) / self.games

    @property
    def margin(self) -> float:
        """Half-width of the 95 % interval of :attr:`rate` (normal, per-game variance)."""
        per_game = (self.scores[:, 0] > self.scores[:, 1]) + 0.5 * (
            self.scores[:, 0] == self.scores[:, 1]
        )
        return float(_Z95 * per_game.std(ddof=1) / math.sqrt(self.games))

    @property
    def means(self) -> tuple[float, float]:
        """Mean final scores (the bot's, the opponent's)."""
        return float(self.scores[:, 0].mean()), float(self.scores[:, 1].mean())

    @property
    def games_per_second(self) -> float:
        """Games played per second (one thread)."""
        return self.games / self.seconds if self.seconds > 0 else math.inf


@cache
def _kernel_static(rules: RuleSet) -> tuple[Any, ...]:
    from yatzy.strategy.keep_arrays import keep_arrays

    return keep_arrays(rules.num_dice)


def head_to_head(
    tables: WinTables,
    games: int,
    seed: int,
    *,
    control: bool = False,
    ev_table: npt.NDArray[Any] | None = None,
    alpha: float = ALPHA,
) -> HeadToHead:
    """Play ``games`` two-player games with the kernel (seat order alternating).

    The optimal bot plays by the expected-value table of the tables' game (``ev_table``,
    default: the optimal-mode table's own); with ``control`` both seats play it.
    """
    from yatzy.kernels import winbot as wk

    if games < 1:
        raise YatzyError(f"games {games!r} must be at least 1")
    rules = tables.rules
    mt, ot = tables.max_table, tables.opt_table
    V = np.ascontiguousarray(ot._ev_table() if ev_table is None else ev_table)
    add, sub, nsub, yatzy_face, rolls, roll_of_code, keep_of_subset = _kernel_static(rules)
    m = mt.model
    scores = np.zeros((games, 2), dtype=np.int64)
    start = time.perf_counter()
    lay = mt.layout
    wk.head_to_head(
        seed, not control, float(alpha), int(lay.root), scores, V, mt.vals, mt.off, mt.lo,
        mt.hi, ot.vals, ot.off, ot.lo, ot.hi, tables.length, lay.idx_of_mask.astype(np.int64),
        lay.allowed.astype(np.int64), m.score.astype(np.int64), m.box_face.astype(np.int64),
        m.joker_pts.astype(np.int64), int(m.ybox), int(m.joker_mode), int(m.lower_bits),
        int(m.threshold), rules.threshold, rules.bonus, rules.max_rolls - 1, int(m.lr_chance),
        add, sub, nsub, yatzy_face, rolls, roll_of_code, keep_of_subset,
        np.ascontiguousarray(m.score.T).astype(np.uint32),
    )  # fmt: skip
    return HeadToHead(rules.spec, control, scores, time.perf_counter() - start)
