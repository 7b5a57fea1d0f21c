"""Numeric kernels of the exact solver for saved rolls that accumulate (numba).

``saved_rolls=all`` (Maxi): a turn that starts with ``s`` saved rolls may throw
``3 + s`` times, and a stop with ``r`` rolls left saves ``r`` for later turns.  The
state between turns is ``(mask, u, s)``; after ``f`` filled boxes ``s <= 2 f``.

The table is *compact*: row ``i`` (a set of open boxes) stores, for ``s`` from 0 to
``2 f`` and the upper sums ``u0[i] <= u < u0[i] + nu[i]``, the value at
``flat[off[i] + s * nu[i] + u - u0[i]]``.  Sums below ``u0[i]`` can no longer reach
the bonus and share the value of ``u0[i]``; sums past the last one cannot occur.

Within a turn the value of a roll with ``r`` rolls left,
``W(roll, r) = max(F_r(roll), max over keeps of E[W(., r - 1)])`` with the stop value
``F_r`` (best box, the next state read with ``r`` saved), does not depend on how
many rolls the turn began with.  One chain of levels ``r = 0 .. 2 f + 2`` per set of
open boxes therefore gives the turn's value for every ``s``: the mean of the first
roll at level ``s + 2``.

The row helpers (means and maxima over the lanes) are the shared ones of
:mod:`yatzy.kernels.common`; the final values read the next states from ``E``: for each
box, the next state's values over every upper sum (``E[b, u]``), expanded from the
compact rows once per level.  Maxi has no Yatzy bonus or joker, so those branches
are gone; ``last_resort`` and the order rules (``allowed``) remain.
"""

from __future__ import annotations

import numpy as np

from yatzy.kernels.jit import njit, prange

# isort: split
from yatzy.kernels.common import expect, maximize, mean_of_rolls


@njit(cache=True, nogil=True)
def _expand(
    E: np.ndarray,
    mask: int,
    r: int,
    flat: np.ndarray,
    off: np.ndarray,
    u0s: np.ndarray,
    nus: np.ndarray,
    idx_of_mask: np.ndarray,
) -> None:
    """``E[b, u]``: the value of the state after filling open box ``b``, ``r`` saved."""
    n_boxes, width = E.shape
    for b in range(n_boxes):
        if not (mask >> b) & 1:
            continue
        i = idx_of_mask[mask ^ (1 << b)]
        base = off[i] + r * nus[i]
        u0 = u0s[i]
        top = nus[i] - 1
        for u in range(width):
            k = u - u0
            if k < 0:
                k = 0
            elif k > top:
                k = top
            E[b, u] = flat[base + k]


@njit(cache=True, nogil=True, inline="always")
def _relax(
    D: np.ndarray,
    d: int,
    S: np.ndarray,
    s: int,
    E: np.ndarray,
    b: int,
    pts: int,
    upper: bool,
    u0: int,
    lanes: int,
    threshold: int,
) -> None:
    """``D[d, l] = max(S[s, l], pts + E[b, u'])`` (distinct rows; ``u'`` after the box)."""
    gain = D.dtype.type(pts)
    if upper:
        split = threshold - pts - u0
        if split > lanes:
            split = lanes
        if split < 0:
            split = 0
        shift = u0 + pts
        for lane in range(split):
            v = gain + E[b, np.uintp(lane + shift)]
            a = S[s, lane]
            D[d, lane] = v if v > a else a
        top = gain + E[b, threshold]
        for lane in range(split, lanes):
            a = S[s, lane]
            D[d, lane] = top if top > a else a
    else:
        for lane in range(lanes):
            v = gain + E[b, np.uintp(u0 + lane)]
            a = S[s, lane]
            D[d, lane] = v if v > a else a


@njit(cache=True, nogil=True)
def _final_values(
    A: np.ndarray,
    B: np.ndarray,
    u0: int,
    lanes: int,
    allowed: int,
    E: np.ndarray,
    score: np.ndarray,
    box_face: np.ndarray,
    threshold: int,
    lr_chance: int,
) -> None:
    """Roll rows of ``A``: the best box for every final roll, next states from ``E``.

    ``B``'s rows ``n_keeps`` to ``n_keeps + 3`` (``n_keeps = B.shape[0] - 4``) are
    scratch; ``A`` may be ``B`` (only its roll rows are written).  Without
    ``last_resort`` every roll can scratch, so it starts from ``Z`` (the best
    scratch) and needs only the boxes where it scores; under ``last_resort`` only
    the boxes it may fill count (see :mod:`yatzy.kernels.solve`).
    """
    n_rolls, n_boxes = score.shape
    n_keeps = B.shape[0] - 4
    t_zero = n_keeps + 2
    t_inf = n_keeps + 3
    for lane in range(lanes):
        B[t_inf, lane] = -np.inf
    n_allowed = 0
    for b in range(n_boxes):
        n_allowed += (allowed >> b) & 1
    src = t_inf
    j = 0
    for b in range(n_boxes):
        if not (allowed >> b) & 1:
            continue
        j += 1
        dst = t_zero if j == n_allowed else n_keeps + (j % 2)
        _relax(B, dst, B, src, E, b, 0, False, u0, lanes, threshold)
        src = dst
    for r in range(n_rolls):
        boxes = allowed
        start = t_zero
        if lr_chance >= 0:
            scoring = 0
            for b in range(n_boxes):
                if (boxes >> b) & 1 and b != lr_chance and score[r, b] > 0:
                    scoring |= 1 << b
            if scoring != 0:
                boxes = scoring
                start = t_inf
            elif (boxes >> lr_chance) & 1 and score[r, lr_chance] > 0:
                boxes = 1 << lr_chance
                start = t_inf
        count = 0
        for b in range(n_boxes):
            if (boxes >> b) & 1 and score[r, b] > 0:
                count += 1
        if count == 0:
            for lane in range(lanes):
                A[r, lane] = B[t_zero, lane]
            continue
        src = start
        j = 0
        for b in range(n_boxes):
            if not (boxes >> b) & 1:
                continue
            pts = score[r, b]
            if pts == 0:
                continue
            j += 1
            if j == count:
                _relax(A, r, B, src, E, b, pts, box_face[b] > 0, u0, lanes, threshold)
            else:
                dst = n_keeps + (j % 2)
                _relax(B, dst, B, src, E, b, pts, box_face[b] > 0, u0, lanes, threshold)
                src = dst


@njit(cache=True, nogil=True)
def _popcount(x: int) -> int:
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@njit(cache=True, nogil=True)
def _solve_mask(
    mask: int,
    n_boxes: int,
    flat: np.ndarray,
    off: np.ndarray,
    u0s: np.ndarray,
    nus: np.ndarray,
    idx_of_mask: np.ndarray,
    allowed: np.ndarray,
    score: np.ndarray,
    box_face: np.ndarray,
    threshold: int,
    lr_chance: int,
    add: np.ndarray,
    sub: np.ndarray,
    nsub: np.ndarray,
    roll_prob: np.ndarray,
    flat_a: np.ndarray,
    flat_b: np.ndarray,
    E: np.ndarray,
    out: np.ndarray,
) -> None:
    """Fill the compact rows of one set of open boxes (every ``s``, every upper sum)."""
    n_keeps = add.shape[0]
    n_rolls = roll_prob.shape[0]
    width = E.shape[1]
    idx = idx_of_mask[mask]
    u0 = u0s[idx]
    nu = nus[idx]
    # Lanes in whole vectors of 8 from ``lu0``; lanes past the stored sums compute
    # harmless values nobody reads.
    lanes = min(width, (nu + 7) // 8 * 8)
    lu0 = u0
    if lu0 + lanes > width:
        lu0 = width - lanes
    A = flat_a[: n_keeps * lanes].reshape((n_keeps, lanes))
    B = flat_b[: (n_keeps + 4) * lanes].reshape((n_keeps + 4, lanes))
    levels = 2 * (n_boxes - _popcount(mask)) + 2
    ok = allowed[idx]
    _expand(E, mask, 0, flat, off, u0s, nus, idx_of_mask)
    _final_values(A, B, lu0, lanes, ok, E, score, box_face, threshold, lr_chance)
    in_a = True
    base = off[idx]
    for j in range(1, levels + 1):
        _expand(E, mask, j, flat, off, u0s, nus, idx_of_mask)
        if in_a:
            expect(A, A, add, n_rolls, lanes)
            _final_values(A, B, lu0, lanes, ok, E, score, box_face, threshold, lr_chance)
            maximize(A, A, B, B, sub, nsub, n_rolls, lanes)
        else:
            expect(A, B, add, n_rolls, lanes)
            _final_values(B, B, lu0, lanes, ok, E, score, box_face, threshold, lr_chance)
            maximize(A, B, B, A, sub, nsub, n_rolls, lanes)
        in_a = not in_a
        if j >= 2:
            if in_a:
                mean_of_rolls(A, out, 0, roll_prob, lanes)
            else:
                mean_of_rolls(B, out, 0, roll_prob, lanes)
            at = base + (j - 2) * nu
            for k in range(nu):
                flat[at + k] = out[u0 - lu0 + k]


@njit(cache=True, parallel=True)
def solve_masks(
    masks: np.ndarray,
    n_boxes: int,
    flat: np.ndarray,
    off: np.ndarray,
    u0s: np.ndarray,
    nus: np.ndarray,
    idx_of_mask: np.ndarray,
    allowed: np.ndarray,
    score: np.ndarray,
    box_face: np.ndarray,
    threshold: int,
    lr_chance: int,
    add: np.ndarray,
    sub: np.ndarray,
    nsub: np.ndarray,
    roll_prob: np.ndarray,
    scratch_a: np.ndarray,
    scratch_b: np.ndarray,
    scratch_e: np.ndarray,
    scratch_out: np.ndarray,
) -> None:
    """Fill the rows of ``masks`` (all with the same number of open boxes, > 0).

    Every state they lead to must be filled already.  Run ``c`` of the
    ``scratch_a.shape[0]`` parallel runs works in row ``c`` of the scratch arrays
    (``n_keeps * width``, ``(n_keeps + 4) * width``, ``(n_boxes, width)`` and
    ``width`` values, ``width`` the threshold + 1).
    """
    n_masks = masks.shape[0]
    n_runs = scratch_a.shape[0]
    for c in prange(n_runs):
        for i in range(c * n_masks // n_runs, (c + 1) * n_masks // n_runs):
            _solve_mask(
                masks[i],
                n_boxes,
                flat,
                off,
                u0s,
                nus,
                idx_of_mask,
                allowed,
                score,
                box_face,
                threshold,
                lr_chance,
                add,
                sub,
                nsub,
                roll_prob,
                scratch_a[c],
                scratch_b[c],
                scratch_e[c],
                scratch_out[c],
            )


@njit(cache=True)
def turn_tables(
    out: np.ndarray,
    stops: np.ndarray,
    mask: int,
    u: int,
    allowed: int,
    flat: np.ndarray,
    off: np.ndarray,
    u0s: np.ndarray,
    nus: np.ndarray,
    idx_of_mask: np.ndarray,
    score: np.ndarray,
    box_face: np.ndarray,
    threshold: int,
    lr_chance: int,
    add: np.ndarray,
    sub: np.ndarray,
    nsub: np.ndarray,
) -> None:
    """Within-turn values of one state with upper sum ``u``, for the advisor and bots.

    ``out[j, k]`` (``j`` from 1 to ``out.shape[0] - 1``): with ``j`` rolls left, the
    expected remaining score of keeping the dice of keep ``k`` and throwing the rest
    (a full keep ``r`` stands for going on with roll ``r`` and ``j - 1`` rolls left);
    ``out[0, r]`` the best box for final roll ``r``.  ``stops[j, r]`` (same number of
    rows): the best box for roll ``r`` when ``j`` rolls are left (and saved).
    """
    n_rolls = score.shape[0]
    n_keeps = add.shape[0]
    A = np.empty((n_keeps, 1), dtype=out.dtype)
    B = np.empty((n_keeps + 4, 1), dtype=out.dtype)
    E = np.empty((score.shape[1], threshold + 1), dtype=out.dtype)
    _expand(E, mask, 0, flat, off, u0s, nus, idx_of_mask)
    _final_values(A, B, u, 1, allowed, E, score, box_face, threshold, lr_chance)
    for r in range(n_rolls):
        out[0, r] = A[r, 0]
        stops[0, r] = A[r, 0]
    in_a = True
    for j in range(1, out.shape[0]):
        _expand(E, mask, j, flat, off, u0s, nus, idx_of_mask)
        if in_a:
            expect(A, A, add, n_rolls, 1)
            for k in range(n_keeps):
                out[j, k] = A[k, 0]
            _final_values(A, B, u, 1, allowed, E, score, box_face, threshold, lr_chance)
            for r in range(n_rolls):
                stops[j, r] = A[r, 0]
            maximize(A, A, B, B, sub, nsub, n_rolls, 1)
        else:
            expect(A, B, add, n_rolls, 1)
            for k in range(n_rolls):
                out[j, k] = B[k, 0]
            for k in range(n_rolls, n_keeps):
                out[j, k] = A[k, 0]
            _final_values(B, B, u, 1, allowed, E, score, box_face, threshold, lr_chance)
            for r in range(n_rolls):
                stops[j, r] = B[r, 0]
            maximize(A, B, B, A, sub, nsub, n_rolls, 1)
        in_a = not in_a
