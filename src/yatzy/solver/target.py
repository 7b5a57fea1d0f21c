"""Target tables: the chance of scoring at least T, for every T at once.

:class:`TargetTable` holds, for every state between turns of one player's sheet, the
survival function of the points still to be scored: ``P(points >= k)`` for every
``k``.  Mode ``"max"`` is *target play*: each ``k`` gets the highest probability any
play reaches (the play itself may differ from ``k`` to ``k``: the table answers every
target at once).  Mode ``"optimal"`` is the distribution of the points under the
expected-score-optimal play of :class:`yatzy.solver.Solver` (its ties broken the
same way).

Rows are stored compactly (only the part strictly between 0 and 1, see
:mod:`yatzy.kernels.target`) and cached on disk like the expected-value
tables (memory-mapped when loaded).  Supported: ``yatzy`` and ``yahtzee`` with every
option.

Vectors returned here count points still to be added to the sheet's Total
(``sheet.total``, which includes the upper bonus once won): index ``k`` is the
probability of adding at least ``k``; past the end it is 0.
"""

from __future__ import annotations

import hashlib
import time
from collections import OrderedDict
from itertools import combinations
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from yatzy.errors import IllegalActionError, SpecError, YatzyError
from yatzy.game import Action, Roll, Score, Scratch, Sheet, State
from yatzy.kernels.cache import source_digest
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

__all__ = ["TargetTable", "check_target_supported"]

Mode = Literal["max", "optimal"]
FloatVector = npt.NDArray[np.float64]
_CHUNK = 256  # masks per kernel call: bounds the stage's memory, moves the progress bar
_FORMAT = 1  # bump when the layout or meaning of the stored arrays changes
_NO_EV_TABLE = cache.frozen(np.zeros((1, 1, 1), dtype=np.float32))
"""The expected-value table that max mode hands the kernels (they never read it): of
the same type as optimal mode's, a frozen float32 table, so that one compile of
:func:`yatzy.kernels.target.solve_masks` (about 9 CPU-s) serves both modes."""


def check_target_supported(rules: RuleSet) -> None:
    """Raise :class:`SpecError` unless target tables handle ``rules`` (yatzy, yahtzee)."""
    check_supported(rules)
    if rules.variant not in ("yatzy", "yahtzee"):
        raise SpecError(f"target tables handle yatzy and yahtzee only, not {rules.spec}")


class TargetTable:
    """The target table of a rule set: ``P(points still to score >= k)`` per state.

    ``TargetTable("yatzy")`` loads the table from the cache or solves it (minutes for
    a whole game; ``open_boxes`` solves only that sub-game, in seconds).  ``dtype``
    is the stored float type: float32 (default) keeps answers within about 1e-7 of
    float64's.  ``cached_only`` raises :class:`LookupError` instead of solving when
    the table is not in the disk cache.
    """

    def __init__(
        self,
        rules: RuleSet | str,
        *,
        mode: Mode = "max",
        use_cache: bool = True,
        progress: bool = False,
        open_boxes: list[str] | tuple[str, ...] | None = None,
        dtype: Literal["float32", "float64"] = "float32",
        cached_only: bool = False,
    ) -> None:
        rules = solver_rules(rules)
        if mode not in ("max", "optimal"):
            raise YatzyError(f"mode {mode!r} is not 'max' or 'optimal'")
        check_dtype(dtype)
        check_target_supported(rules)
        self.rules = rules
        self.mode: Mode = mode
        self.dtype = dtype
        self.model = model = Model.build(rules)
        root = model.root_of(open_boxes)
        self.layout = Layout.build(model, root)
        self._open_boxes = None if open_boxes is None else list(model.boxes_of(root))
        self._ev: npt.NDArray[Any] | None = None
        self._use_cache = use_cache
        self._turns: OrderedDict[tuple[int, int, int], npt.NDArray[np.float64]] = OrderedDict()
        shape = (self.layout.masks.shape[0], model.ys, model.threshold + 1)
        root_name = "" if root == model.full_mask else ",".join(model.boxes_of(root))
        digest = hashlib.sha256(
            model.fingerprint().encode() + source_digest("target.py").encode()
        ).hexdigest()
        base = cache.table_key(rules.spec, root_name, dtype, digest)
        base["table"] = f"target-{mode}-{_FORMAT}"
        self._keys = keys = {
            name: {**base, "part": name, "dtype": kind}
            for name, kind in (("vals", dtype), ("off", "int64"), ("lo", "int32"), ("hi", "int32"))
        }
        start = time.perf_counter()
        loaded = self._load(keys, shape) if use_cache else None
        self.from_cache = loaded is not None
        if loaded is None and cached_only:
            raise LookupError(f"no cached target table for {rules.spec}")
        if loaded is None and use_cache:
            with cache.building(keys["vals"]):  # one builder per table per computer
                loaded = self._load(keys, shape)
                self.from_cache = loaded is not None
                if loaded is None:
                    loaded = self._solve(shape, progress)
                    self.seconds = time.perf_counter() - start
                    self.vals, self.off, self.lo, self.hi = loaded
                    self.store()
        elif loaded is None:
            loaded = self._solve(shape, progress)
        self.seconds = time.perf_counter() - start
        # Read-only whether solved or loaded: the kernels are compiled for one kind.
        self.vals, self.off, self.lo, self.hi = (cache.frozen(a) for a in loaded)

    def store(self) -> None:
        """Put the table into the disk cache (done on solving unless ``use_cache=False``)."""
        for name, arr in (("vals", self.vals), ("off", self.off), ("lo", self.lo), ("hi", self.hi)):
            cache.save(self._keys[name], arr, self.seconds)

    # -- building ----------------------------------------------------------------------------

    @staticmethod
    def _load(
        keys: dict[str, dict[str, Any]], shape: tuple[int, ...]
    ) -> tuple[npt.NDArray[Any], ...] | None:
        parts = [cache.load(keys[name], shape) for name in ("off", "lo", "hi")]
        if any(p is None for p in parts):
            return None
        off, lo, hi = (np.asarray(p) for p in parts)
        valid = lo >= 0
        length = int((off + hi - lo)[valid].max()) if valid.any() else 0
        vals = cache.load(keys["vals"], (length,))
        if vals is None:
            return None
        return vals, off, lo, hi

    def _ev_table(self) -> npt.NDArray[Any]:
        """The expected-value table of the same (sub-)game (optimal mode's choices)."""
        if self._ev is None:
            from yatzy.solver import Solver

            self._ev = Solver(
                self.rules, open_boxes=self._open_boxes, use_cache=self._use_cache
            ).table
        return self._ev

    def _solve(self, shape: tuple[int, int, int], progress: bool) -> tuple[npt.NDArray[Any], ...]:
        import numba
        from tqdm import tqdm

        from yatzy.kernels import target as tk

        m, lay, d = self.model, self.layout, self.model.dice
        optimal = self.mode == "optimal"
        vev = self._ev_table() if optimal else _NO_EV_TABLE
        off = np.full(shape, -1, dtype=np.int64)
        lo = np.full(shape, -1, dtype=np.int32)
        hi = np.full(shape, -1, dtype=np.int32)
        terminal = lay.idx_of_mask[0]
        off[terminal] = 0
        lo[terminal] = hi[terminal] = 1
        lo[terminal, :, m.threshold] = hi[terminal, :, m.threshold] = m.bonus + 1
        vals = np.empty(1 << 20, dtype=self.dtype)
        end = 0
        box_max = np.maximum(m.score.max(axis=0), m.joker_pts).astype(np.int32)
        runs = numba.get_num_threads()
        n_keeps = d.n_keeps
        scratch_e = np.empty((runs, 3 * n_keeps), dtype=np.float64)
        scratch_i = np.empty((runs, n_keeps), dtype=np.int64)
        total = lay.masks.shape[0] - 1
        with tqdm(
            total=total,
            disable=None if progress else True,
            desc=f"target table {self.rules.spec}",
            unit="box sets",
            leave=False,
        ) as bar:
            for first, stop in lay.bounds[1:]:
                for lo_i in range(first, stop, _CHUNK):
                    masks = lay.masks[lo_i : min(stop, lo_i + _CHUNK)]
                    sizes = np.zeros((masks.shape[0], *shape[1:]), dtype=np.int64)
                    tk.plan_masks(
                        masks, hi, lay.idx_of_mask, lay.allowed, box_max, m.box_face, m.ybox,
                        m.joker_mode, m.threshold, m.hi_of_filled_upper, m.lo_of_open_upper,
                        d.n, sizes,
                    )  # fmt: skip
                    flat_sizes = sizes.ravel()
                    slots = (np.cumsum(flat_sizes) - flat_sizes).reshape(sizes.shape)
                    stage = np.empty(int(flat_sizes.sum()), dtype=np.float64)
                    stage_lo = np.zeros(sizes.shape, dtype=np.int32)
                    stage_hi = np.zeros(sizes.shape, dtype=np.int32)
                    width = int(flat_sizes.max())
                    scratch = np.empty((runs, (3 * n_keeps + 5) * width), dtype=np.float64)
                    tk.solve_masks(
                        masks, sizes, slots, stage, stage_lo, stage_hi, optimal, vals, off,
                        lo, hi, vev, lay.idx_of_mask, lay.allowed, m.score, m.box_face,
                        m.joker_pts, m.ybox, m.joker_mode, m.lower_bits, m.threshold,
                        m.levels, m.lr_chance, d.add, d.sub, d.nsub, d.roll_prob,
                        d.yatzy_face, scratch, scratch_e, scratch_i,
                    )  # fmt: skip
                    need = end + int((stage_hi - stage_lo).sum())
                    if need > vals.shape[0]:
                        grown = np.empty(max(need, 2 * vals.shape[0]), dtype=self.dtype)
                        grown[:end] = vals[:end]
                        vals = grown
                    end = tk.store_masks(
                        masks, sizes, slots, stage, stage_lo, stage_hi, vals, end, off, lo,
                        hi, lay.idx_of_mask, m.lo_of_open_upper,
                    )  # fmt: skip
                    bar.update(masks.shape[0])
        return vals[:end].copy(), off, lo, hi

    # -- rows ----------------------------------------------------------------------------------

    @property
    def nbytes(self) -> int:
        """The bytes the table takes (values and row index)."""
        return int(self.vals.nbytes + self.off.nbytes + self.lo.nbytes + self.hi.nbytes)

    def _key(self, sheet: Sheet) -> tuple[int, int, int]:
        if not isinstance(sheet, Sheet):
            raise YatzyError(f"expected a Sheet, not {sheet!r}")
        if sheet.rules != self.rules:
            raise YatzyError(f"the sheet plays {sheet.rules.spec}, the table {self.rules.spec}")
        m = self.model
        mask = m.mask_of(sheet.open_boxes)
        if (
            self.rules.half_forced
            and mask != m.full_mask
            and sheet.first_section != first_section(m, mask)
        ):
            raise YatzyError(
                f"sheet's first section {sheet.first_section!r} does not fit its open boxes"
            )
        row = int(self.layout.idx_of_mask[mask])
        if row < 0:
            names = ", ".join(m.boxes_of(mask)) or "(none)"
            raise YatzyError(f"open boxes {names} are outside this table's game")
        y = 0
        if m.ys == 2 and not (mask >> m.ybox) & 1 and sheet.points("yatzy") == 50:
            y = 1
        return row, y, min(sheet.upper_sum, m.threshold)

    def _row(self, key: tuple[int, int, int]) -> FloatVector:
        """The stored row of a state between turns, in full (from k = 0)."""
        off, lo, hi = int(self.off[key]), int(self.lo[key]), int(self.hi[key])
        out = np.ones(max(hi, lo), dtype=np.float64)
        out[lo:hi] = self.vals[off : off + hi - lo]
        return out

    @staticmethod
    def _public(internal: FloatVector, sheet: Sheet) -> FloatVector:
        """Rows count the upper bonus as still to come; the sheet's Total has it once won."""
        out = internal[sheet.bonus :] if sheet.bonus else internal
        return np.ascontiguousarray(out) if out.shape[0] else np.ones(1)

    def sheet_at_least(self, sheet: Sheet) -> FloatVector:
        """``P(points still to score >= k)`` for ``sheet`` before its next turn."""
        return self._public(self._row(self._key(sheet)), sheet)

    def _turn_rows(self, sheet: Sheet) -> FloatVector:
        """Within-turn rows of the sheet's next turn (:func:`yatzy.kernels.target.turn_rows`)."""
        key = self._key(sheet)
        if key in self._turns:
            self._turns.move_to_end(key)
            return self._turns[key]
        from yatzy.kernels import target as tk

        m, lay, d = self.model, self.layout, self.model.dice
        mask = int(lay.masks[key[0]])
        box_max = np.maximum(m.score.max(axis=0), m.joker_pts).astype(np.int32)
        width = tk.bound(
            mask, key[1], key[2], int(lay.allowed[key[0]]), self.hi, lay.idx_of_mask, box_max,
            m.box_face, m.ybox, m.joker_mode, m.threshold, d.n, m.ys == 2,
        )  # fmt: skip
        optimal = self.mode == "optimal"
        vev = self._ev_table() if optimal else _NO_EV_TABLE
        out = np.empty((m.levels + 2, d.n_keeps, width), dtype=np.float64)
        tk.turn_rows(
            out, optimal, mask, key[1], key[2], int(lay.allowed[key[0]]), self.vals, self.off,
            self.lo, self.hi, vev, lay.idx_of_mask, m.score, m.box_face, m.joker_pts, m.ybox,
            m.joker_mode, m.lower_bits, m.threshold, m.lr_chance, d.add, d.sub, d.nsub,
            d.yatzy_face,
        )  # fmt: skip
        self._turns[key] = out
        if len(self._turns) > 8:
            self._turns.popitem(last=False)
        return out

    # -- the agreed interface ----------------------------------------------------------------

    def _check_state(self, state: State) -> None:
        if not isinstance(state, State):
            raise YatzyError(f"expected a game State, not {state!r}")
        if state.rules != self.rules:
            raise YatzyError(f"the game plays {state.rules.spec}, the table {self.rules.spec}")

    def at_least(self, state: State, seat: int | None = None) -> FloatVector:
        """``v[k]`` = P(this seat's points still to be scored >= k), k = 0..len(v)-1.

        ``seat`` defaults to the player to act.  A seat not to act is at the start of
        its next turn; for the seat to act, the position within the turn (dice, rolls
        left, dice being rolled) counts.  Points count toward the sheet's Total.
        """
        self._check_state(state)
        to_act = state.player
        if seat is None:
            if state.is_terminal():
                return np.ones(1)
            if to_act < 0:
                raise IllegalActionError("no player has the turn (roll-off): name a seat")
            seat = to_act
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(state.sheets):
            raise YatzyError(f"seat {seat!r} is not a seat of this game")
        sheet = state.sheets[seat]
        if seat != to_act or state.is_terminal() or state.dice is None or state.rolls_used == 0:
            return self.sheet_at_least(sheet)
        rows = self._turn_rows(sheet)
        index = self.model.dice.index
        left = 0 if state.game.pad else state.rolls_left()
        if state.pending:
            known = tuple(
                sorted(int(f) for i, f in enumerate(state.dice) if i not in state.pending)  # type: ignore[arg-type]
            )
            return self._public(rows[left + 1, index[known]], sheet)
        dice = tuple(sorted(state.layer("all")))
        return self._public(rows[left + 1, index[dice]], sheet)

    def options(self, state: State) -> list[tuple[Action, FloatVector]]:
        """Every legal choice after a roll with its vector (as :meth:`at_least`, after it).

        Keeps are listed once per distinct multiset of kept dice (as the positions
        of one such choice), as :meth:`yatzy.solver.Solver.advise` does.
        """
        self._check_state(state)
        if state.is_terminal() or state.is_chance_node() or state.dice is None:
            raise IllegalActionError("options need a player to act after a roll")
        seat = state.player
        sheet = state.sheets[seat]
        out: list[tuple[Action, FloatVector]] = []
        keeps: list[Roll] = []
        for action in state.legal_actions():
            if isinstance(action, (Score, Scratch)):
                after = state.clone()
                after.apply(action)
                new = after.sheets[seat]
                gain = new.total - sheet.total
                vec = self.sheet_at_least(new)
                out.append((action, np.concatenate([np.ones(gain), vec]) if gain else vec))
            elif isinstance(action, Roll):
                keeps.append(action)
        if keeps and not state.game.pad:
            rows = self._turn_rows(sheet)
            index = self.model.dice.index
            left = state.rolls_left()
            dice = state.layer("all")
            seen: set[tuple[int, ...]] = set()
            n = len(dice)
            for size in range(n):
                for pos in combinations(range(n), size):
                    kept = tuple(sorted(dice[i] for i in pos))
                    if kept in seen:
                        continue
                    seen.add(kept)
                    out.append((Roll(pos), self._public(rows[left, index[kept]], sheet)))
        return out

    def probability(self, state: State, target_total: int, seat: int | None = None) -> float:
        """P(the seat's final Total >= ``target_total``) from this position."""
        if isinstance(target_total, bool) or not isinstance(target_total, int):
            raise YatzyError(f"target {target_total!r} is not a whole number")
        vec = self.at_least(state, seat)
        if seat is None:
            seat = state.player if state.player >= 0 else 0
        need = target_total - state.sheets[seat].total
        if need <= 0:
            return 1.0
        return float(vec[need]) if need < vec.shape[0] else 0.0

    def start_probability(self, target_total: int) -> float:
        """P(final Total >= ``target_total``) from an empty sheet (whole games only)."""
        if self.layout.root != self.model.full_mask:
            raise YatzyError("start_probability is for a whole game; use sheet_at_least")
        vec = self.sheet_at_least(Sheet(self.rules))
        if target_total <= 0:
            return 1.0
        return float(vec[target_total]) if target_total < vec.shape[0] else 0.0
