"""A turn's within-turn values in numpy, no compiled kernel (issue 24's waits).

:meth:`yatzy.solver.Solver.turn_tables` reads them from the numba kernel
:func:`yatzy.kernels.solve.turn_tables`.  On a fresh install numba compiles that
kernel on its first use: some 15-20 CPU seconds after the table is built, which a
short first game's analysis, hints and exact computer waited for.  Once the table is
there, one turn's values are a few small array operations over the keeps (462 for 5
dice): the best box of every final roll, then per roll left the means over the next
die and the best keep among the sub-multisets.  This module computes them so, in the
table's float type and in the kernel's order of operations (each mean summed over the
six faces left to right and divided by six; maxima are exact), so that its values are
the kernel's bit for bit; the tests check that on every rule family.  A millisecond or
two per turn; the kernel is faster once compiled, and is used when it is at hand
(:func:`yatzy.solver.base.Solver.turn_tables`).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from yatzy.kernels.codes import JOKER_FORCED, JOKER_NONE, YATZY_BONUS

if TYPE_CHECKING:
    from yatzy.solver._model import Model

__all__ = ["turn_tables_numpy"]

Array = npt.NDArray[Any]


@cache
def _sizes(n: int) -> tuple[tuple[Array, ...], tuple[Array, ...]]:
    """The keeps of ``n`` dice that are not rolls, by size: largest first (the means'
    order) and smallest first (the maxima's order), as index arrays."""
    from yatzy.solver._dice import dice_tables

    dice = dice_tables(n)
    by_size: dict[int, list[int]] = {}
    for k in range(dice.n_rolls, dice.n_keeps):
        by_size.setdefault(len(dice.keeps[k]), []).append(k)
    largest_first = tuple(np.array(by_size[s], dtype=np.int64) for s in sorted(by_size)[::-1])
    return largest_first, largest_first[::-1]


def _final_values(
    model: Model, idx_of_mask: Array, table: Array, mask: int, y: int, u: int, allowed: int
) -> Array:
    """The best box for every final roll: its points plus the next state's value, as
    :func:`yatzy.kernels.final.final_values` computes it for one lane (upper sum ``u``;
    ``y`` the next states' middle index)."""
    m, dtype = model, table.dtype.type
    score = m.score
    n_rolls, n_boxes = score.shape
    T = m.threshold
    two_y = table.shape[1] == 2
    joker_live = m.joker_mode != JOKER_NONE and m.ybox >= 0 and not (mask >> m.ybox) & 1
    extra_joker = YATZY_BONUS if y == 1 else 0
    minus_inf = dtype(-np.inf)

    def read(b: int, fifty: bool, offset: Array | int) -> Array:
        """The next state's values after box ``b`` with the upper sum moved by ``offset``
        (the Yatzy box read at 1 when it then holds 50)."""
        ny = (1 if fifty else 0) if b == m.ybox and two_y else y
        at = np.minimum(u + np.asarray(offset), T)
        return np.asarray(table[idx_of_mask[mask ^ (1 << b)], ny, at])

    boxes = [b for b in range(n_boxes) if (allowed >> b) & 1]
    # Z: the best scratch (0 points, the upper sum unchanged).
    zero = dtype(minus_inf)
    for b in boxes:
        v = dtype(read(b, False, 0))
        zero = v if v > zero else zero
    best = np.full(n_rolls, minus_inf, dtype=table.dtype)
    terms = np.zeros(n_rolls, dtype=bool)  # whether a roll has a scoring term
    for b in boxes:
        if b == m.lr_chance:
            continue
        pts = score[:, b]
        scores = pts > 0
        if not scores.any():
            continue
        offset = pts if m.box_face[b] > 0 else 0
        value = pts.astype(table.dtype) + _fifty_aware(read, b, pts, offset)
        best = np.where(scores & (value > best), value, best)
        terms |= scores
    start = np.full(n_rolls, zero, dtype=table.dtype)
    if m.lr_chance >= 0:
        # last_resort: a roll that scores somewhere starts from minus infinity; where it
        # scores nowhere, Chance alone (if allowed and it scores).
        c = m.lr_chance
        start[terms] = minus_inf
        if (allowed >> c) & 1:
            pts = score[:, c]
            chance = ~terms & (pts > 0)
            value = pts.astype(table.dtype) + read(c, False, 0)
            best = np.where(chance, value, best)
            start[chance] = minus_inf
            terms |= chance
    out = np.where(terms, np.maximum(start, best), zero).astype(table.dtype)
    if joker_live:
        for r in np.flatnonzero(m.dice.yatzy_face):
            out[r] = _joker_value(model, table, mask, y, u, allowed, int(r), extra_joker, read)
    if not boxes:
        out[:] = minus_inf
    return out


def _fifty_aware(read: Any, b: int, pts: Array, offset: Array | int) -> Array:
    """The next values of box ``b`` for every roll, read at 1 where it scores 50."""
    plain: Array = read(b, False, offset)
    if not (pts == 50).any():
        return plain
    fifty: Array = read(b, True, offset)
    return np.where(pts == 50, fifty, plain)


def _joker_value(
    model: Model,
    table: Array,
    mask: int,
    y: int,
    u: int,
    allowed: int,
    r: int,
    extra: int,
    read: Any,
) -> Any:
    """A five of a kind under the joker rules: the best of every box it may fill."""
    m = model
    face = int(m.dice.yatzy_face[r])
    boxes = allowed
    if m.joker_mode == JOKER_FORCED:
        from yatzy.kernels.common import allowed_for_roll  # the one definition of the rule

        boxes = allowed_for_roll.py_func(mask, allowed, face, m.ybox, m.joker_mode, m.lower_bits)
    dtype = table.dtype.type
    best = dtype(-np.inf)
    for b in range(m.n_boxes):
        if not (boxes >> b) & 1:
            continue
        pts = int(m.score[r, b])
        if m.joker_pts[b] > 0 and not (mask >> (face - 1)) & 1:
            pts = int(m.joker_pts[b])
        offset = pts if m.box_face[b] > 0 else 0
        v = dtype(pts + extra) + dtype(read(b, pts == 50, offset))
        best = v if v > best else best
    return best


def turn_tables_numpy(
    model: Model,
    idx_of_mask: Array,
    table: Array,
    mask: int,
    y: int,
    u: int,
    allowed: int,
) -> Array:
    """Within-turn values of one state, as :func:`yatzy.kernels.solve.turn_tables`
    writes them (the same shape, float type and values): ``out[j, k]`` with ``j``
    rolls left the expected remaining score of keep ``k`` (a roll: going on with
    ``j - 1`` left), ``out[0, r]`` the best box for final roll ``r``."""
    m, d = model, model.dice
    dtype = table.dtype
    n_rolls, n_keeps = d.n_rolls, d.n_keeps
    finals = [
        _final_values(m, idx_of_mask, table, mask, c if m.saved > 0 else y, u, allowed)
        for c in range(m.saved + 1)
    ]
    out = np.full((m.levels + m.saved + 1, n_keeps), np.nan, dtype=dtype)
    out[0, :n_rolls] = finals[0]
    largest_first, smallest_first = _sizes(d.n)
    add, sub = d.add.astype(np.int64), d.sub.astype(np.int64)
    six = dtype.type(6.0)
    rolls = finals[0]
    v = np.empty(n_keeps, dtype=dtype)
    best = np.empty(n_keeps + 1, dtype=dtype)  # the last: minus infinity (sub == -1)
    best[n_keeps] = -np.inf
    for j in range(1, out.shape[0]):
        # The means over the next die, largest keeps first (each reads one die more).
        v[:n_rolls] = rolls
        for keeps in largest_first:
            a = add[keeps]
            total = v[a[:, 0]] + v[a[:, 1]]
            for f in range(2, 6):
                total = total + v[a[:, f]]
            v[keeps] = total / six
        out[j] = v
        if m.saved > 0:
            rolls = finals[min(j, m.saved)]  # stopping now carries min(j, saved) rolls
        # The best keep among each keep's sub-multisets, smallest first.
        for keeps in smallest_first:
            best[keeps] = np.max(np.concatenate([v[keeps, None], best[sub[keeps]]], axis=1), axis=1)
        rolls = np.max(np.concatenate([rolls[:, None], best[sub[:n_rolls]]], axis=1), axis=1)
    return out
