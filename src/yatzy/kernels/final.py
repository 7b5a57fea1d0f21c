"""The best box for every final roll: the solver's final values (numba).

A roll with no rolls left goes to the box that maximises its points plus the value
of the next state (see :mod:`yatzy.kernels.solve` for the states and lanes).
Which boxes a roll may fill follows the order rules (the ``allowed`` boxes of the
open boxes), the forced joker (:func:`allowed_for_roll`, shared with the
simulation kernels) and ``last_resort`` (``lr_chance`` is the Chance box, else
-1): a roll may go only to the allowed boxes where it scores, Chance only when it
scores in no other, and 0 only when it scores in none of them.
"""

from __future__ import annotations

import numpy as np

from yatzy.kernels.jit import njit

# isort: split
from yatzy.kernels.codes import JOKER_NONE, YATZY_BONUS
from yatzy.kernels.common import allowed_for_roll, int64

# A note on maxima: ``row[l] = max(row[l], v)`` in place makes LLVM emit masked
# stores (vmaskmovps), which are very slow on AMD processors.  Every maximum here
# therefore writes a row that it does not read, which compiles to plain vector
# compare/blend/store; and each takes the maximum of several rows in one pass
# (fused), so the running maximum stays in registers instead of ping-ponging
# through memory.


@njit(cache=True, nogil=True)
def rolls_per_box(score: np.ndarray) -> np.ndarray:
    """Per box ``b``, the rolls that score in it: ``rolls[b, :rolls[b, -1]]``."""
    n_rolls, n_boxes = score.shape
    rolls = np.empty((n_boxes, n_rolls + 1), dtype=np.int64)
    for b in range(n_boxes):
        n = 0
        for r in range(n_rolls):
            if score[r, b] > 0:
                rolls[b, n] = r
                n += 1
        rolls[b, n_rolls] = n
    return rolls


# A term of a final roll's maximum is one int: the scratch row it reads, the offset
# into that row (an upper box's points, which move the upper sum) and the points.
_ROW = 255
_OFF = 8
_GAIN = 16


@njit(cache=True, nogil=True, inline="always")
def _fuse(
    D: np.ndarray,
    d: int,
    col: int,
    S: np.ndarray,
    p: int,
    T: np.ndarray,
    t: int,
    j: int,
    k: int,
    lanes: int,
) -> None:
    """``D[d, col + l] = max(S[p, l], the k <= 4 terms T[t, j:j + k])`` (see _ROW).

    ``D[d]`` is never an input row (no in-place maxima: see the note on maxima).
    """
    c0 = T[t, j]
    r0 = c0 & _ROW
    o0 = (c0 >> _OFF) & _ROW
    g0 = D.dtype.type(c0 >> _GAIN)
    if k == 1:
        for lane in range(lanes):
            a = S[p, lane]
            v = g0 + S[r0, np.uintp(o0 + lane)]
            D[d, np.uintp(col + lane)] = v if v > a else a
        return
    c1 = T[t, j + 1]
    r1 = c1 & _ROW
    o1 = (c1 >> _OFF) & _ROW
    g1 = D.dtype.type(c1 >> _GAIN)
    if k == 2:
        for lane in range(lanes):
            a = S[p, lane]
            v = g0 + S[r0, np.uintp(o0 + lane)]
            a = v if v > a else a
            v = g1 + S[r1, np.uintp(o1 + lane)]
            D[d, np.uintp(col + lane)] = v if v > a else a
        return
    c2 = T[t, j + 2]
    r2 = c2 & _ROW
    o2 = (c2 >> _OFF) & _ROW
    g2 = D.dtype.type(c2 >> _GAIN)
    if k == 3:
        for lane in range(lanes):
            a = S[p, lane]
            v = g0 + S[r0, np.uintp(o0 + lane)]
            a = v if v > a else a
            v = g1 + S[r1, np.uintp(o1 + lane)]
            a = v if v > a else a
            v = g2 + S[r2, np.uintp(o2 + lane)]
            D[d, np.uintp(col + lane)] = v if v > a else a
        return
    c3 = T[t, j + 3]
    r3 = c3 & _ROW
    o3 = (c3 >> _OFF) & _ROW
    g3 = D.dtype.type(c3 >> _GAIN)
    for lane in range(lanes):
        a = S[p, lane]
        v = g0 + S[r0, np.uintp(o0 + lane)]
        a = v if v > a else a
        v = g1 + S[r1, np.uintp(o1 + lane)]
        a = v if v > a else a
        v = g2 + S[r2, np.uintp(o2 + lane)]
        a = v if v > a else a
        v = g3 + S[r3, np.uintp(o3 + lane)]
        D[d, np.uintp(col + lane)] = v if v > a else a


@njit(cache=True, nogil=True)
def _fuse_into(
    D: np.ndarray,
    d: int,
    col: int,
    S: np.ndarray,
    p: int,
    T: np.ndarray,
    t: int,
    k: int,
    lanes: int,
) -> None:
    """``D[d]`` (lanes from ``col``): the maximum of row ``S[p]`` and the ``k`` terms
    ``T[t, :k]``, four per pass; passes before the last chain through the spare
    rows 2 and 3 of ``S``.
    """
    j = 0
    src = p
    spare = 2
    while k - j > 4:
        _fuse(S, spare, 0, S, src, T, t, j, 4, lanes)
        src = spare
        spare = 5 - spare
        j += 4
    _fuse(D, d, col, S, src, T, t, j, k - j, lanes)


@njit(cache=True, nogil=True)
def final_values(
    A: np.ndarray,
    col: int,
    W: np.ndarray,
    mask: int,
    y: int,
    u0: int,
    lanes: int,
    allowed: int,
    V: np.ndarray,
    idx_of_mask: np.ndarray,
    score: np.ndarray,
    box_face: np.ndarray,
    joker_pts: np.ndarray,
    ybox: int,
    joker_mode: int,
    lower_bits: int,
    threshold: int,
    yatzy_face: np.ndarray,
    lr_chance: int,
    box_rolls: np.ndarray,
) -> None:
    """Rows of the rolls in ``A`` (lanes from ``col``): the best box for every final
    roll (no rolls left).

    ``y`` is the middle index of ``V`` that the next states are read at (the Yatzy
    box's 50, or with saved rolls the rolls carried into the next turn).
    Scratching is allowed unless ``last_resort`` forbids it, so every roll can reach
    ``Z``, the best of scratching an allowed box; a roll then only needs the boxes
    where it scores (``box_rolls``: see :func:`rolls_per_box`).  Under ``last_resort``
    a roll that scores somewhere starts from minus infinity instead, with only its
    scoring boxes (Chance alone when it scores nowhere else).  Five of a kind under
    the forced joker (its own allowed boxes) starts from minus infinity and tries
    every box it may fill.

    The next states' rows are copied once into rows of the scratch ``W`` (flat:
    ``(4 + 2 * boxes) * (lanes + 6 * dice)`` values at least), an upper box's row
    extended past the lanes with the capped sums, so that a box's points shift it
    by a plain offset.  The terms of every roll (points plus a row) are listed box
    by box, then each roll takes the maximum of its terms in fused passes.
    """
    n_rolls, n_boxes = score.shape
    reach = 0
    for r in range(n_rolls):
        if score[r, 5] > reach:
            reach = score[r, 5]  # the most an upper box adds: all sixes
    stride = lanes + reach
    S = W[: (4 + 2 * n_boxes) * stride].reshape((4 + 2 * n_boxes, stride))
    two_y = V.shape[1] == 2
    joker_live = joker_mode != JOKER_NONE and ybox >= 0 and not (mask >> ybox) & 1
    extra_joker = YATZY_BONUS if y == 1 else 0
    # Row 0: minus infinity; 1: Z; 2, 3: spare; then the boxes' rows.
    for lane in range(lanes):
        S[0, lane] = -np.inf
    # Terms: per roll (and one row for Z), the count in the last column.
    T = np.empty((n_rolls + 1, n_boxes + 2), dtype=np.int64)
    start = np.empty(n_rolls, dtype=np.int64)
    row_of = np.empty((n_boxes, 2), dtype=np.int64)
    rows = 4
    k = int64(0)
    for b in range(n_boxes):
        if not (allowed >> b) & 1:
            continue
        nv = idx_of_mask[mask ^ (1 << b)]
        span = stride if box_face[b] > 0 else lanes
        # The box's row read at y (the Yatzy box: at 0, as scratched), and for the
        # Yatzy box with the Yatzy bonus a second row read at 1 (it holds 50).
        fifty = b == ybox and two_y
        for c in range(2 if fifty else 1):
            ny = c if fifty else y
            for j in range(span):
                u = u0 + j
                S[rows, j] = V[nv, ny, u if u < threshold else threshold]
            row_of[b, c] = rows
            rows += 1
        if not fifty:
            row_of[b, 1] = row_of[b, 0]
        # Z: scratching b (0 points; the Yatzy box then holds 0).
        T[n_rolls, k] = row_of[b, 0]
        k += 1
    if k == 0:
        for lane in range(lanes):
            S[1, lane] = -np.inf
    else:
        # int64, not literals: one compile of _fuse_into (the note on literals in solve)
        zero = int64(0)
        _fuse_into(S, int64(1), zero, S, zero, T, n_rolls, k, lanes)
    last = n_boxes + 1
    for r in range(n_rolls):
        T[r, last] = 0
        start[r] = 1
    for b in range(n_boxes):
        if not (allowed >> b) & 1 or b == lr_chance:
            continue
        shifts = box_face[b] > 0
        for i in range(box_rolls[b, n_rolls]):
            r = box_rolls[b, i]
            pts = score[r, b]
            j = T[r, last]
            T[r, j] = (
                row_of[b, 1 if pts == 50 else 0] | (pts if shifts else 0) << _OFF | pts << _GAIN
            )
            T[r, last] = j + 1
    if lr_chance >= 0:
        # last_resort: only the scoring boxes but Chance, else Chance where it scores.
        for r in range(n_rolls):
            if T[r, last] > 0:
                start[r] = 0
            elif (allowed >> lr_chance) & 1 and score[r, lr_chance] > 0:
                pts = score[r, lr_chance]
                T[r, 0] = row_of[lr_chance, 0] | pts << _GAIN
                T[r, last] = 1
                start[r] = 0
    if joker_live:
        for r in range(n_rolls):
            face = yatzy_face[r]
            if face == 0:
                continue
            boxes = allowed_for_roll(mask, allowed, face, ybox, joker_mode, lower_bits)
            k = int64(0)
            for b in range(n_boxes):
                if not (boxes >> b) & 1:
                    continue
                pts = score[r, b]
                if joker_pts[b] > 0 and not (mask >> (face - 1)) & 1:
                    pts = joker_pts[b]
                off = pts if box_face[b] > 0 else 0
                T[r, k] = (
                    row_of[b, 1 if pts == 50 else 0] | off << _OFF | (pts + extra_joker) << _GAIN
                )
                k += 1
            T[r, last] = k
            start[r] = 0
    for r in range(n_rolls):
        k = T[r, last]
        if k == 0:
            for lane in range(lanes):
                A[r, np.uintp(col + lane)] = S[1, lane]
        else:
            _fuse_into(A, r, col, S, start[r], T, r, k, lanes)
