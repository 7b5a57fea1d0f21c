"""The expected-score solver of one player's sheet: :class:`Solver` and its answers.

The package's front (:mod:`yatzy.solver`) describes the method; this module holds the
solver of every rule set whose state between turns fits the plain table, and picks a
registered subclass (:class:`yatzy.solver.saved.SavedSolver`) for the others.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, ClassVar, Literal

import numpy as np
import numpy.typing as npt

from yatzy.errors import IllegalActionError, YatzyError
from yatzy.game import Action, Roll, Score, Scratch, Sheet, State
from yatzy.rules import RuleSet
from yatzy.solver import cache
from yatzy.solver._model import (
    Layout,
    Model,
    check_dtype,
    check_supported,
    first_section,
    solver_rules,
)

__all__ = [
    "Choice",
    "DType",
    "Ranking",
    "Solver",
    "check_supported",
    "scored_without_bonus",
    "table_cached",
    "whole_table_key",
]

DType = Literal["float32", "float64"]


def whole_table_key(rules: RuleSet, dtype: DType = "float32") -> dict[str, Any]:
    """The cache key of the whole game's table of ``rules`` as this solver makes it."""
    return cache.table_key(rules.spec, "", dtype, Model.build(rules).fingerprint())


def table_cached(rules: RuleSet, dtype: DType = "float32") -> bool:
    """Whether the whole game's table of ``rules`` is in the disk cache or shipped
    (nothing is loaded or solved: a front end asks before a first move that would
    build it)."""
    check_supported(rules)
    return cache.exists(whole_table_key(rules, dtype))


_CHUNK = 2048  # masks per kernel call: keeps the progress bar moving on big layers
# Lanes of one keep/reroll pass shared by several masks, for 462 keeps (5 dice); with
# more keeps proportionally fewer, so the pass's rows take the same memory (~0.5 MB).
_GROUP_LANES = 256


@dataclass(frozen=True)
class Choice:
    """One action of a position and the expected final score after it (optimal play)."""

    action: Action
    value: float


@dataclass(frozen=True)
class Ranking:
    """Every choice of a position, best first, as the exact solver values them.

    ``value`` is the expected final score of the position with optimal play (the
    first choice's value; before the first roll of a turn, the turn's value).  The
    advice a person or a bot reads (:class:`yatzy.strategy.advisor.Advice`, with
    losses, texts and approximate strategies) is built on this.
    """

    value: float
    choices: tuple[Choice, ...]

    @property
    def best(self) -> Action | None:
        """The optimal action (``None`` before the first roll, where only rolling is legal)."""
        return self.choices[0].action if self.choices else None


class Solver:
    """The solved value table of a rule set, with lookups and advice.

    ``Solver("yatzy")`` loads the table from the cache or solves it (seconds for
    Yatzy and Yahtzee).  ``open_boxes`` solves only the sub-game in which at most those
    boxes are open (every position that a sheet with those boxes open can reach),
    which is much smaller.  ``dtype`` picks the float type of the table: float32
    (default) halves memory and is faster; it agrees with float64 to about 1e-5 points
    (248.43999 for Yatzy, 254.58962 for Yahtzee with the free joker).
    ``cached_only`` raises :class:`LookupError` instead of solving when the table is
    not in the disk cache (a server never solves for minutes inside a request).
    """

    # Subclasses for rule sets whose state between turns needs more than the plain
    # table (saved rolls that accumulate: yatzy.solver.saved), each with the test of
    # the rule sets it takes.  They register by subclassing (``handles=``), and the
    # package imports them all, so Solver(...) finds them without importing them here.
    _takers: ClassVar[list[tuple[Callable[[RuleSet], bool], type[Solver]]]] = []

    def __init_subclass__(
        cls, *, handles: Callable[[RuleSet], bool] | None = None, **kwargs: Any
    ) -> None:
        """A subclass given ``handles`` is what ``Solver(rules)`` returns where
        ``handles(rules)`` holds."""
        super().__init_subclass__(**kwargs)
        if handles is not None:
            Solver._takers.append((handles, cls))

    def __new__(cls, rules: RuleSet | str, **kwargs: Any) -> Solver:
        """Rule sets a registered subclass handles get that solver (saved rolls that
        accumulate: :mod:`yatzy.solver.saved`)."""
        if cls is Solver:
            parsed = RuleSet.parse(rules) if isinstance(rules, str) else rules
            if isinstance(parsed, RuleSet):
                for handles, taker in Solver._takers:
                    if handles(parsed):
                        return super().__new__(taker)
        return super().__new__(cls)

    def __init__(
        self,
        rules: RuleSet | str,
        *,
        open_boxes: Iterable[str] | None = None,
        dtype: DType = "float32",
        use_cache: bool = True,
        progress: bool = False,
        cached_only: bool = False,
    ) -> None:
        rules = solver_rules(rules)
        check_dtype(dtype)
        check_supported(rules)
        self.rules = rules
        self.dtype = dtype
        self.model = model = Model.build(rules)
        root = model.root_of(open_boxes)
        self.layout = Layout.build(model, root)
        self.shape: tuple[int, ...] = (self.layout.masks.shape[0], model.ys, model.threshold + 1)
        root_name = "" if root == model.full_mask else ",".join(model.boxes_of(root))
        key = cache.table_key(rules.spec, root_name, dtype, model.fingerprint())
        start = time.perf_counter()
        table = cache.load(key, self.shape) if use_cache else None
        self.from_cache = table is not None
        if table is None and cached_only:
            raise LookupError(f"no cached table for {self.spec}")
        if table is None and use_cache:
            # One builder per table per computer: another thread or process building
            # it now is waited for, then its file is loaded.
            with cache.building(key):
                table = cache.load(key, self.shape)
                self.from_cache = table is not None
                if table is None:
                    table = self._solve(progress)
                    cache.save(key, table, time.perf_counter() - start)
        elif table is None:
            table = self._solve(progress)
        self.seconds = time.perf_counter() - start
        self.table: npt.NDArray[Any] = cache.frozen(table)  # as loaded: one kernel compile

    # -- solving ---------------------------------------------------------------------------

    def _solve(self, progress: bool) -> npt.NDArray[Any]:
        from concurrent.futures import ThreadPoolExecutor

        from yatzy.kernels import native

        m, lay = self.model, self.layout
        d = m.dice
        V = np.full(self.shape, np.nan, dtype=self.dtype)
        solved = self._terminal_values(V)
        runs = _threads()
        width = self.shape[2]
        group = max(width, _GROUP_LANES * 462 // d.n_keeps // 8 * 8)
        # Scratch rows, one per thread (see solve_masks); ``group`` lanes for the
        # keep/reroll pass that several masks share.
        scratch = (
            np.empty((runs, d.n_keeps * group), dtype=self.dtype),
            np.empty((runs, (d.n_keeps + 4) * group), dtype=self.dtype),
            np.empty((runs, max(m.saved, 1) * width * d.n_rolls), dtype=self.dtype),
            np.empty((runs, max((m.saved + 1) * width, group)), dtype=np.float64),
        )
        scalars = (
            m.ybox,
            m.joker_mode,
            m.lower_bits,
            m.threshold,
            m.levels,
            m.saved,
            m.lr_chance,
        )
        tables = (lay.idx_of_mask, lay.allowed, m.score, m.box_face, m.joker_pts)
        uppers = (m.hi_of_filled_upper, m.lo_of_open_upper)
        dice = (d.add, d.sub, d.nsub, d.roll_prob, d.yatzy_face)
        compiled = native.kernel(self.dtype)
        if compiled is not None:
            # The solve kernel as native code (no numba to import: see yatzy.kernels.native).
            kernel, arrays = compiled, (V, *tables, *uppers, *dice)

            def run(c: int, masks: npt.NDArray[np.int64]) -> None:
                rows = tuple(a[c : c + 1] for a in scratch)
                mine = np.ascontiguousarray(masks)
                kernel(native.words((mine, *arrays, *rows), scalars, self.dtype))

        else:
            from yatzy.kernels import solve

            ints = scalars[:4], scalars[4:]
            fixed = (V, *tables, *ints[0], *uppers, *ints[1], *dice)

            def run(c: int, masks: npt.NDArray[np.int64]) -> None:
                rows = tuple(a[c : c + 1] for a in scratch)
                solve.solve_masks(masks, *fixed, *rows)

        total = lay.masks.shape[0] - 1
        bar = _progress_bar(progress, total, f"solving {self.rules.spec}")
        with bar, ThreadPoolExecutor(runs) as pool:
            for start, end in lay.bounds[solved + 1 :]:
                for lo in range(start, end, _CHUNK):
                    hi = min(end, lo + _CHUNK)
                    # Masks with as many open boxes are independent: split them
                    # between the threads (interleaved, so the costs even out).
                    jobs = [
                        pool.submit(run, c, lay.masks[lo + c : hi : runs])
                        for c in range(min(runs, hi - lo))
                    ]
                    for job in jobs:
                        job.result()
                    bar.update(hi - lo)
        return V

    def _terminal_values(self, V: npt.NDArray[Any]) -> int:
        """Write the values of the game's last states into ``V``; the number of open
        boxes they have (the solve starts above it).  The game ends with every box
        filled, where only the upper bonus is still to come.

        A subclass may end the game earlier: ``benchmarks/bench_dubbel.py`` bounds
        DubbelYatzy with games that fill half of the boxes.
        """
        m = self.model
        terminal = self.layout.idx_of_mask[0]
        V[terminal] = 0.0
        V[terminal, :, m.threshold] = m.bonus
        return 0

    # -- values ----------------------------------------------------------------------------

    @property
    def expected_score(self) -> float:
        """The expected final score at the start of a game with optimal play.

        For a sub-game, the value of its open boxes with nothing scored yet.
        """
        return self.remaining(self.model.boxes_of(self.layout.root))

    def remaining(
        self,
        open_boxes: Sequence[str],
        upper_sum: int = 0,
        yatzy_fifty: bool = False,
        saved_rolls: int = 0,
    ) -> float:
        """Expected points still to come (boxes, bonuses) from a state between turns.

        ``upper_sum`` is the sum of the filled upper boxes, ``yatzy_fifty`` whether
        the Yatzy box holds 50 (only matters with the Yatzy bonus) and ``saved_rolls``
        the rolls carried into the next turn (``saved_rolls=next``: 0-2).
        """
        mask = self.model.mask_of(list(open_boxes))
        if isinstance(upper_sum, bool) or not isinstance(upper_sum, int) or upper_sum < 0:
            raise YatzyError(f"upper sum {upper_sum!r} is not a whole number >= 0")
        y = self._carry(saved_rolls) if self.model.saved else self._y(mask, yatzy_fifty)
        return float(self.table[self._row(mask), y, self._u(upper_sum)])

    def _carry(self, saved_rolls: int) -> int:
        if (
            isinstance(saved_rolls, bool)
            or not isinstance(saved_rolls, int)
            or not 0 <= saved_rolls <= self.model.saved
        ):
            raise YatzyError(
                f"saved rolls {saved_rolls!r} are not a whole number in 0-{self.model.saved} "
                f"({self.rules.spec})"
            )
        return saved_rolls

    def value(self, sheet: Sheet) -> float:
        """The expected final score of ``sheet`` before its next turn (optimal play)."""
        mask, y, u = self._state_of(sheet)
        return scored_without_bonus(sheet) + float(self.table[self._row(mask), y, u])

    def _row(self, mask: int) -> int:
        row = int(self.layout.idx_of_mask[mask])
        if row < 0:
            names = ", ".join(self.model.boxes_of(mask)) or "(none)"
            raise YatzyError(f"open boxes {names} are outside this solver's game ({self.spec})")
        return row

    def _y(self, mask: int, yatzy_fifty: bool) -> int:
        m = self.model
        if m.ys == 1 or (mask >> m.ybox) & 1:
            return 0
        return 1 if yatzy_fifty else 0

    def _u(self, upper_sum: int) -> int:
        return min(upper_sum, self.model.threshold)

    def _state_of(self, sheet: Sheet) -> tuple[int, int, int]:
        if not isinstance(sheet, Sheet):
            raise YatzyError(f"expected a Sheet, not {sheet!r}")
        if sheet.rules != self.rules:
            raise YatzyError(f"the sheet plays {sheet.rules.spec}, the solver {self.spec}")
        mask = self.model.mask_of(sheet.open_boxes)
        if (
            self.rules.half_forced
            and mask not in (0, self.model.full_mask)  # a full sheet's first section: either
            and sheet.first_section != first_section(self.model, mask)
        ):
            raise YatzyError(
                f"sheet's first section {sheet.first_section!r} does not fit its open boxes"
            )
        self._row(mask)
        if self.model.saved:
            return mask, self._carry(sheet.saved_rolls), self._u(sheet.upper_sum)
        fifty = self.model.ybox >= 0 and sheet.points("yatzy") == 50
        return mask, self._y(mask, fifty), self._u(sheet.upper_sum)

    @property
    def spec(self) -> str:
        """The rules spec, with the sub-game's open boxes when it is one."""
        if self.layout.root == self.model.full_mask:
            return self.rules.spec
        return f"{self.rules.spec} [open: {', '.join(self.model.boxes_of(self.layout.root))}]"

    # -- within a turn -----------------------------------------------------------------------

    def turn_tables(self, sheet: Sheet, *, kernel: bool | None = None) -> npt.NDArray[np.float64]:
        """Within-turn values for ``sheet``'s next turn, as final scores.

        ``t[j, k]`` (``j`` up to 2, or 4 with ``saved_rolls=next``): with ``j`` rolls
        left, the expected final score of keeping the
        dice of keep ``k`` (see :func:`yatzy.solver._dice.dice_tables`) and throwing
        the rest; ``t[0, r]`` scoring the best box for final roll ``r``.

        From the numba kernel :func:`yatzy.kernels.solve.turn_tables` where it is at
        hand (compiled in this process, or in the kernels' disk cache), else from
        :func:`yatzy.solver.turn_numpy.turn_tables_numpy`, the same values bit for bit
        without a compile (on a fresh install numba's compile of the kernel took 15-20
        CPU seconds after the table was built: issue 24).  ``kernel`` forces one way:
        True the kernel (compiling it where it is not cached: the warm-up's way of
        caching it), False numpy.
        """
        m, lay, d = self.model, self.layout, self.model.dice
        args = self.turn_args(sheet)
        if kernel is None:
            kernel = turn_kernel_at_hand(args)
        if kernel:
            from yatzy.kernels import solve

            out = np.full((m.levels + m.saved + 1, d.n_keeps), np.nan, dtype=self.dtype)
            solve.turn_tables(out, *args)
        else:
            from yatzy.solver.turn_numpy import turn_tables_numpy

            mask, y, u, allowed = args[:4]
            out = turn_tables_numpy(m, lay.idx_of_mask, self.table, mask, y, u, allowed)
        return out.astype(np.float64) + scored_without_bonus(sheet)

    def turn_args(self, sheet: Sheet) -> tuple[Any, ...]:
        """The arguments of :func:`yatzy.kernels.solve.turn_tables` after its output
        array, for ``sheet``'s next turn."""
        mask, y, u = self._state_of(sheet)
        m, lay, d = self.model, self.layout, self.model.dice
        allowed = int(lay.allowed[self._row(mask)])
        return (
            mask,
            y,
            u,
            allowed,
            self.table,
            lay.idx_of_mask,
            m.score,
            m.box_face,
            m.joker_pts,
            m.ybox,
            m.joker_mode,
            m.lower_bits,
            m.threshold,
            m.saved,
            m.lr_chance,
            d.add,
            d.sub,
            d.nsub,
            d.yatzy_face,
        )

    def advise(self, state: State) -> Ranking:
        """Rank every action of the player to act by expected final score.

        Keeps are listed once per distinct multiset of kept dice (as the positions of
        one such choice); every allowed box is listed scored and scratched.
        """
        if not isinstance(state, State):
            raise YatzyError(f"expected a game State, not {state!r}")
        if state.rules != self.rules:
            raise YatzyError(f"the game plays {state.rules.spec}, the solver {self.spec}")
        if state.is_terminal() or state.is_chance_node():
            raise IllegalActionError("advice needs a player to act (not chance, not game over)")
        sheet = state.sheet
        if state.dice is None:
            value = self.value(sheet)
            return Ranking(value, (Choice(Roll(), value),))
        choices: list[Choice] = []
        dice = state.layer("all")
        legal = state.legal_actions()
        for action in legal:
            if isinstance(action, (Score, Scratch)):
                after = state.clone()
                after.apply(action)
                choices.append(Choice(action, self.value(after.sheets[state.player])))
        left = state.rolls_left()
        if left > 0:
            tables = self.turn_tables(sheet)
            index = self.model.dice.index
            # A turn never has more rolls left than the tables' levels.
            level = min(left, tables.shape[0] - 1)
            seen: set[tuple[int, ...]] = set()
            n = len(dice)
            for size in range(n):
                for pos in combinations(range(n), size):
                    kept = tuple(sorted(dice[i] for i in pos))
                    if kept in seen:
                        continue
                    seen.add(kept)
                    choices.append(Choice(Roll(pos), float(tables[level, index[kept]])))
        choices.sort(key=lambda c: -c.value)
        return Ranking(choices[0].value, tuple(choices))


class _NoBar:
    """A progress bar that shows nothing (tqdm is not imported for it)."""

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def update(self, n: int) -> None:
        """Ignore progress."""


def _progress_bar(progress: bool, total: int, desc: str) -> Any:
    """A tqdm bar on a terminal's stderr when ``progress``; else nothing to import."""
    if not progress:
        return _NoBar()
    from tqdm import tqdm

    return tqdm(total=total, disable=None, desc=desc, unit="box sets", leave=False)


def _threads() -> int:
    """Threads for solving: ``NUMBA_NUM_THREADS`` if set, else the usable cores."""
    import os

    env = os.environ.get("NUMBA_NUM_THREADS", "")
    if env.isdigit() and int(env) > 0:
        return int(env)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def scored_without_bonus(sheet: Sheet) -> int:
    """What ``sheet`` holds so far without the upper bonus: a solver's value of a
    position is this plus the table's value, which counts the bonus."""
    return sheet.total - sheet.bonus


_LOOK_AGAIN = 1.0
"""Seconds before the kernels' disk cache is read again for a turn kernel not there."""
_kernel_looked = [float("-inf")]


def turn_kernel_at_hand(args: Sequence[Any]) -> bool:
    """Whether :func:`yatzy.kernels.solve.turn_tables` runs without a compile for the
    arguments ``args`` (those after its output array): compiled or loaded in this
    process, or its machine code for these argument types in the kernels' disk cache
    (numba's own index of it, read at most once per :data:`_LOOK_AGAIN` seconds while
    it is missing: a warm-up process may be compiling it).  False on any doubt: the
    numpy way gives the same values."""
    from yatzy.kernels import solve

    dispatcher: Any = solve.turn_tables
    if dispatcher.signatures:
        return True
    now = time.monotonic()
    if now - _kernel_looked[0] < _LOOK_AGAIN:
        return False
    _kernel_looked[0] = now
    try:
        out = np.empty((1, 1), dtype=args[4].dtype)
        sig = tuple(dispatcher.typeof_pyval(a) for a in (out, *args))
        cache = dispatcher._cache
        key = cache._index_key(sig, dispatcher.targetctx.codegen())
        return key in cache._cache_file._load_index()
    except Exception:  # numba's cache is not what this reads: the numpy way
        return False
