"""The exact solver for Maxi with saved rolls that accumulate (``saved_rolls=all``).

``Solver("maxi+saved_rolls")`` returns a :class:`SavedSolver`.  The state between
turns is the open boxes, the upper sum capped at the bonus threshold and the saved
rolls ``s``: every turn saves at most 2 (it may stop after its first roll), so after
``f`` filled boxes ``s <= 2 f``.  Rolls still saved when the sheet is full are worth
nothing; the last turn may use them all.  The table is compact (see
:mod:`yatzy.kernels.saved`): per set of open boxes only the reachable
upper sums (those that can still matter) and ``s`` up to ``2 f``, 0.87·10^9 values,
3.2 GiB in float32, loaded memory-mapped from the cache.

The whole game's table takes tens of CPU minutes, so it is built only on request
(``yatzy solve maxi+saved_rolls``, or constructing the solver);
:func:`table_ready` tells whether it is cached, and the advisor, bots and
simulations play the approximate strategy (:mod:`yatzy.strategy.approx`) until it is.
Sub-games (``open_boxes``) are small and solved on the spot.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from yatzy.errors import YatzyError
from yatzy.game import Sheet
from yatzy.kernels.cache import source_digest
from yatzy.rules import RuleSet
from yatzy.solver import cache
from yatzy.solver._model import Layout, Model, check_dtype, check_supported
from yatzy.solver.base import DType, Solver, scored_without_bonus

__all__ = ["SavedSolver", "accumulates", "table_ready"]

_LOG = logging.getLogger(__name__)
_CHUNK = 1024  # masks per kernel call (a mask here is 10-20 times the work of plain Maxi)


def accumulates(rules: RuleSet) -> bool:
    """Whether ``rules`` saves rolls without limit (this module's solver)."""
    return rules.saved_rolls == "all"


def _fingerprint(model: Model) -> str:
    """A digest of everything the values depend on (part of the cache key)."""
    h = hashlib.sha256()
    h.update(b"saved_rolls=all compact v1")
    h.update(model.rules.spec.encode())
    # The kernels' sources: a change to how values are computed is a new table.
    h.update(source_digest("saved.py", "common.py", "codes.py").encode())
    h.update((Path(__file__).parent / "_dice.py").read_bytes())
    for arr in (model.score, model.box_face, model.hi_of_filled_upper, model.lo_of_open_upper):
        h.update(arr.tobytes())
    h.update(repr((model.threshold, model.bonus, model.lr_chance, model.dice.n)).encode())
    return h.hexdigest()


def _key(model: Model, root: str, dtype: str) -> dict[str, Any]:
    return cache.table_key(model.rules.spec, root, dtype, _fingerprint(model))


@functools.cache
def _whole_key(spec: str, dtype: str) -> dict[str, Any]:
    return _key(Model.build(RuleSet.parse(spec)), "", dtype)


def table_ready(rules: RuleSet | str, dtype: DType = "float32") -> bool:
    """Whether the whole game's table of ``rules`` is cached (always true elsewhere)."""
    if isinstance(rules, str):
        rules = RuleSet.parse(rules)
    if not accumulates(rules):
        return True
    return cache.exists(_whole_key(rules.spec, dtype))


class SavedSolver(Solver, handles=accumulates):
    """The solved table of a ``saved_rolls=all`` rule set (see the module docstring).

    It answers like :class:`~yatzy.solver.Solver`; ``remaining`` and ``value`` read
    the saved rolls (``saved_rolls``, at most twice the filled boxes).  ``table`` is
    the compact 1-D table; ``offsets``, ``u_first``, ``u_count`` locate each row.
    """

    def __init__(
        self,
        rules: RuleSet | str,
        *,
        open_boxes: Any = None,
        dtype: DType = "float32",
        use_cache: bool = True,
        progress: bool = False,
    ) -> None:
        root_name = self._setup(rules, open_boxes, dtype)
        key = _key(self.model, root_name, dtype)
        start = time.perf_counter()
        table = cache.load(key, self.shape) if use_cache else None
        self.from_cache = table is not None
        if table is None and use_cache:
            with cache.building(key):  # one builder per table per computer
                table = cache.load(key, self.shape)
                self.from_cache = table is not None
                if table is None:
                    table = self._solve(progress)
                    cache.save(key, table, time.perf_counter() - start)
        elif table is None:
            table = self._solve(progress)
        self.seconds = time.perf_counter() - start
        self.table: npt.NDArray[Any] = cache.frozen(table)  # as loaded: one kernel compile

    def _setup(self, rules: RuleSet | str, open_boxes: Any, dtype: DType) -> str:
        """Check the arguments and lay out the compact rows; the root's name (cache key)."""
        if isinstance(rules, str):
            rules = RuleSet.parse(rules)
        if not isinstance(rules, RuleSet) or not accumulates(rules):
            raise YatzyError(f"SavedSolver solves saved_rolls=all, not {rules!r}")
        check_dtype(dtype)
        check_supported(rules)
        self.rules = rules
        self.dtype = dtype
        self.model = model = Model.build(rules)
        root = model.root_of(open_boxes)
        self.layout = lay = Layout.build(model, root)
        masks = lay.masks
        count = np.zeros(masks.shape[0], dtype=np.int64)
        for shift in range(model.n_boxes):
            count += (masks >> shift) & 1
        filled = model.n_boxes - count
        reach = model.hi_of_filled_upper[~masks & 63].astype(np.int64) + 1
        self.u_first = np.minimum(model.lo_of_open_upper[masks & 63], reach - 1).astype(np.int64)
        self.u_count = reach - self.u_first
        self.max_saved = 2 * filled
        sizes = (self.max_saved + 1) * self.u_count
        self.offsets = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int64)
        self.shape: tuple[int, ...] = (int(sizes.sum()),)
        return "" if root == model.full_mask else ",".join(model.boxes_of(root))

    @classmethod
    def approximate(
        cls,
        rules: RuleSet | str,
        saved_roll_value: float,
        *,
        saved_roll_cap: float = float("inf"),
        open_boxes: Any = None,
        end_value: bool = False,
        bonus_twice: bool = False,
    ) -> SavedSolver:
        """A table of the approximate strategy's values in this solver's layout.

        A state's value is the plain rule set's (no saved rolls, solved exactly) plus
        ``saved_roll_value`` per saved roll, up to ``saved_roll_cap`` rolls per open
        box: the valuation of
        :class:`yatzy.strategy.approx.ApproxStrategy`, so the compiled simulation plays
        that strategy.  A full sheet's saved rolls are worth nothing unless
        ``end_value``; ``bonus_twice`` adds the upper bonus to every state whose sum
        has reached it, which makes the writes that complete it count it twice (the
        strategy's earlier error, for the benchmarks' comparison).  Never cached: the
        whole game's table takes as much memory as the exact one (3.2 GiB).
        """
        self = object.__new__(cls)  # Solver.__new__ wants the rules; _setup checks them
        self._setup(rules, open_boxes, "float32")
        m, lay = self.model, self.layout
        plain = Solver(
            self.rules.replace(saved_rolls="none"),
            open_boxes=None if open_boxes is None else list(open_boxes),
        )
        if not np.array_equal(plain.layout.masks, lay.masks):
            raise YatzyError(f"{plain.spec} does not share the box sets of {self.rules.spec}")
        flat = np.empty(self.shape, dtype=np.float32)
        for i in range(lay.masks.shape[0]):
            first, count = int(self.u_first[i]), int(self.u_count[i])
            us = np.minimum(np.arange(first, first + count), m.threshold)
            base = plain.table[i, 0, us].astype(np.float64)
            if bonus_twice:
                base = base + np.where(us >= m.threshold, m.bonus, 0)
            n_open = int(lay.masks[i]).bit_count()
            rolls = np.arange(int(self.max_saved[i]) + 1, dtype=np.float64)
            if n_open == 0:  # a full sheet: saved rolls are lost (end_value: as they were)
                worth = rolls * saved_roll_value if end_value else 0.0 * rolls
            else:
                worth = np.minimum(rolls, saved_roll_cap * n_open) * saved_roll_value
            saved = worth[:, None]
            start = int(self.offsets[i])
            flat[start : start + (len(saved) * count)] = (base[None, :] + saved).ravel()
        self.table = cache.frozen(flat)  # as a loaded table is: one kernel compile
        self.from_cache = False
        self.seconds = 0.0
        return self

    def _solve(self, progress: bool) -> npt.NDArray[Any]:
        import numba
        from tqdm import tqdm

        from yatzy.kernels import saved as kernels

        m, lay, d = self.model, self.layout, self.model.dice
        flat = np.full(self.shape, np.nan, dtype=self.dtype)
        t = int(lay.idx_of_mask[0])
        # The full sheet: only the upper bonus is still to come; saved rolls are lost.
        for s in range(int(self.max_saved[t]) + 1):
            for k in range(int(self.u_count[t])):
                u = int(self.u_first[t]) + k
                flat[self.offsets[t] + s * self.u_count[t] + k] = (
                    m.bonus if u >= m.threshold else 0.0
                )
        runs = numba.get_num_threads()
        width = m.threshold + 1
        args = (
            m.n_boxes,
            flat,
            self.offsets,
            self.u_first,
            self.u_count,
            lay.idx_of_mask,
            lay.allowed,
            m.score,
            m.box_face,
            m.threshold,
            m.lr_chance,
            d.add,
            d.sub,
            d.nsub,
            d.roll_prob,
            np.empty((runs, d.n_keeps * width), dtype=self.dtype),
            np.empty((runs, (d.n_keeps + 4) * width), dtype=self.dtype),
            np.empty((runs, m.n_boxes, width), dtype=self.dtype),
            np.empty((runs, width), dtype=np.float64),
        )
        with tqdm(
            total=lay.masks.shape[0] - 1,
            disable=None if progress else True,
            desc=f"solving {self.rules.spec}",
            unit="box sets",
            leave=False,
        ) as bar:
            began = time.perf_counter()
            for n_open, (start, end) in enumerate(lay.bounds[1:], 1):
                for lo in range(start, end, _CHUNK):
                    hi = min(end, lo + _CHUNK)
                    kernels.solve_masks(lay.masks[lo:hi], *args)
                    bar.update(hi - lo)
                # For benchmarks and extrapolation: the time of each layer.
                _LOG.info(
                    "%d open boxes: %d sets done, %.1f s so far",
                    n_open,
                    end - start,
                    time.perf_counter() - began,
                )
        return flat

    # -- values ----------------------------------------------------------------------------

    def _lookup(self, mask: int, saved: int, upper_sum: int) -> float:
        row = self._row(mask)
        if isinstance(saved, bool) or not isinstance(saved, int) or saved < 0:
            raise YatzyError(f"saved rolls {saved!r} are not a whole number >= 0")
        top = int(self.max_saved[row])
        if saved > top:
            raise YatzyError(
                f"saved rolls {saved} cannot occur with {self.model.n_boxes - bin(mask).count('1')}"
                f" boxes filled (at most {top}: 2 a turn)"
            )
        u = self._u(upper_sum)
        first, count = int(self.u_first[row]), int(self.u_count[row])
        if u >= first + count:
            raise YatzyError(
                f"upper sum {upper_sum} cannot occur with open boxes "
                f"{', '.join(self.model.boxes_of(mask)) or '(none)'}"
            )
        k = max(0, u - first)
        return float(self.table[self.offsets[row] + saved * count + k])

    def remaining(
        self,
        open_boxes: Any,
        upper_sum: int = 0,
        yatzy_fifty: bool = False,
        saved_rolls: int = 0,
    ) -> float:
        """Expected points still to come from a state between turns (``saved_rolls`` saved)."""
        mask = self.model.mask_of(list(open_boxes))
        if isinstance(upper_sum, bool) or not isinstance(upper_sum, int) or upper_sum < 0:
            raise YatzyError(f"upper sum {upper_sum!r} is not a whole number >= 0")
        return self._lookup(mask, saved_rolls, upper_sum)

    def value(self, sheet: Sheet) -> float:
        """The expected final score of ``sheet`` before its next turn (optimal play)."""
        mask, s, _ = self._state_of(sheet)
        return scored_without_bonus(sheet) + self._lookup(mask, s, sheet.upper_sum)

    def _state_of(self, sheet: Sheet) -> tuple[int, int, int]:
        if not isinstance(sheet, Sheet):
            raise YatzyError(f"expected a Sheet, not {sheet!r}")
        if sheet.rules != self.rules:
            raise YatzyError(f"the sheet plays {sheet.rules.spec}, the solver {self.spec}")
        mask = self.model.mask_of(sheet.open_boxes)
        self._row(mask)
        return mask, sheet.saved_rolls, self._u(sheet.upper_sum)

    # -- within a turn -----------------------------------------------------------------------

    def turn_tables(self, sheet: Sheet, *, kernel: bool | None = None) -> npt.NDArray[np.float64]:
        """Within-turn values for ``sheet``'s next turn, as final scores.

        ``t[j, k]`` for ``j`` up to ``3 + saved - 1`` rolls left, as in
        :meth:`Solver.turn_tables`; always from this solver's own kernel (``kernel``
        is accepted for the base class's callers: these tables are built only on
        request, ``yatzy solve maxi+saved_rolls``, never behind a first game).
        """
        return self.turn_and_stops(sheet)[0]

    def turn_and_stops(
        self, sheet: Sheet
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """:meth:`turn_tables` and ``stops[j, r]``: the final score of scoring roll
        ``r`` in its best box with ``j`` rolls left (saved)."""
        from yatzy.kernels import saved as kernels

        mask, s, u = self._state_of(sheet)
        self._lookup(mask, s, sheet.upper_sum)  # checks that the state can occur
        m, lay, d = self.model, self.layout, self.model.dice
        levels = m.levels + s
        out = np.full((levels + 1, d.n_keeps), np.nan, dtype=self.dtype)
        stops = np.full((levels + 1, d.n_rolls), np.nan, dtype=self.dtype)
        kernels.turn_tables(
            out,
            stops,
            mask,
            u,
            int(lay.allowed[self._row(mask)]),
            self.table,
            self.offsets,
            self.u_first,
            self.u_count,
            lay.idx_of_mask,
            m.score,
            m.box_face,
            m.threshold,
            m.lr_chance,
            d.add,
            d.sub,
            d.nsub,
        )
        base = scored_without_bonus(sheet)
        return out.astype(np.float64) + base, stops.astype(np.float64) + base
