"""Numeric kernels of the target tables (numba).

A *row* is the survival function of the points still to be scored from a state
between turns ``(mask, y, u)`` (as in :mod:`yatzy.kernels.solve`): ``P(points >=
k)`` for ``k = 0, 1, ...``.  It is stored compactly as ``(off, lo, hi)``: the value is
1 for ``k < lo``, 0 for ``k >= hi`` and ``vals[off + k - lo]`` in between, so only
the part strictly between 0 and 1 takes memory.  Values within ``TRIM`` of 0 or 1
are rounded to it when a row is stored: every step of the recursion (means,
maxima, shifts) is non-expansive in the largest difference, so the answers move by
at most ``TRIM`` per turn (1.5e-11 over a whole game).

A turn is the expected-value solver's keep/reroll recursion with every value
replaced by a row over ``k`` (the lanes of a working row):

- ``mode`` max (``optimal=False``): a box write shifts the next state's row by the
  points it scores; every choice is the maximum *for each k separately*, so row
  ``k`` is the best probability of scoring at least ``k`` more (target play for
  every target at once);
- ``mode`` optimal (``optimal=True``): every choice is the one that maximises the
  expected score (read from the expected-value table ``Vev``, ties broken as its
  kernels do: the first best in the same order), and the rows are that play's
  distribution.

Every kernel writes into arrays its caller allocates.
"""

from __future__ import annotations

import numpy as np

from yatzy.kernels.jit import njit, prange

# isort: split
from yatzy.kernels.codes import JOKER_NONE, YATZY_BONUS
from yatzy.kernels.common import allowed_for_roll, expect, maximize

TRIM = 1e-12
"""Probabilities this close to 0 or 1 are stored as 0 or 1 (see the module docstring)."""


@njit(cache=True, nogil=True, inline="always")
def _relax(
    D: np.ndarray,
    d: int,
    S: np.ndarray,
    s: int,
    vals: np.ndarray,
    start: int,
    lo: int,
    hi: int,
    gain: int,
    K: int,
) -> None:
    """``D[d, k] = max(S[s, k], row(k - gain))`` for ``k < K`` (``D[d]`` is not ``S[s]``).

    ``row`` is the stored row ``(start, lo, hi)``: 1 below ``lo``, 0 from ``hi``.
    """
    a = min(max(gain + lo, 0), K)
    b = min(max(gain + hi, a), K)
    for k in range(a):
        D[d, k] = 1.0
    base = start - lo - gain
    for k in range(a, b):
        v = D.dtype.type(vals[np.uintp(base + k)])
        x = S[s, k]
        D[d, k] = v if v > x else x
    for k in range(b, K):
        D[d, k] = S[s, k]


@njit(cache=True, nogil=True, inline="always")
def _put(
    D: np.ndarray, d: int, vals: np.ndarray, start: int, lo: int, hi: int, gain: int, K: int
) -> None:
    """``D[d, k] = row(k - gain)`` for ``k < K`` (the row as in :func:`_relax`)."""
    a = min(max(gain + lo, 0), K)
    b = min(max(gain + hi, a), K)
    for k in range(a):
        D[d, k] = 1.0
    base = start - lo - gain
    for k in range(a, b):
        D[d, k] = vals[np.uintp(base + k)]
    for k in range(b, K):
        D[d, k] = 0.0


@njit(cache=True, nogil=True)
def _finals(
    A: np.ndarray,
    B: np.ndarray,
    eA: np.ndarray,
    optimal: bool,
    mask: int,
    y: int,
    u: int,
    K: int,
    allowed: int,
    vals: np.ndarray,
    off: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    Vev: np.ndarray,
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
) -> None:
    """Rows of the rolls in ``A`` (``K`` lanes): every final roll's row after its box.

    The boxes a roll may take follow the expected-value kernel exactly (order rules,
    forced joker, ``last_resort``; scratching reaches ``Z``, the best scratch).  With
    ``optimal`` the box is the expected-value choice (``eA[r]`` gets its expected
    remaining score) and its row is copied; else the rows of all candidate boxes are
    maximised lane by lane.  Spare rows of ``B`` past the keeps are scratch.
    """
    n_rolls, n_boxes = score.shape
    n_keeps = A.shape[0]
    t_zero = n_keeps + 2
    t_none = n_keeps + 3
    for k in range(K):
        B[t_none, k] = 0.0
    two_y = lo.shape[1] == 2
    joker_live = joker_mode != JOKER_NONE and ybox >= 0 and not (mask >> ybox) & 1
    extra_joker = YATZY_BONUS if y == 1 else 0
    nvs = np.empty(n_boxes, dtype=np.int64)
    n_allowed = 0
    for b in range(n_boxes):
        nvs[b] = idx_of_mask[mask ^ (1 << b)] if (mask >> b) & 1 else -1
        n_allowed += (allowed >> b) & 1
    # Z: the best scratch (0 points; the Yatzy box then holds 0).
    z_ev = -np.inf
    z_box = -1
    src = t_none
    j = 0
    for b in range(n_boxes):
        if not (allowed >> b) & 1:
            continue
        j += 1
        ny = 0 if b == ybox and two_y else y
        nv = nvs[b]
        if optimal:
            ev = float(Vev[nv, ny, u])
            if ev > z_ev:
                z_ev = ev
                z_box = b
        else:
            dst = t_zero if j == n_allowed else n_keeps + (j % 2)
            _relax(B, dst, B, src, vals, off[nv, ny, u], lo[nv, ny, u], hi[nv, ny, u], 0, K)
            src = dst
    if optimal and z_box >= 0:
        ny = 0 if z_box == ybox and two_y else y
        nv = nvs[z_box]
        _put(B, t_zero, vals, off[nv, ny, u], lo[nv, ny, u], hi[nv, ny, u], 0, K)
    for r in range(n_rolls):
        face = yatzy_face[r]
        joker = joker_live and face > 0
        boxes = allowed
        extra = 0
        from_zero = True
        if joker:
            boxes = allowed_for_roll(mask, allowed, face, ybox, joker_mode, lower_bits)
            extra = extra_joker
            from_zero = False
        elif lr_chance >= 0:
            scoring = 0
            for b in range(n_boxes):
                if (boxes >> b) & 1 and b != lr_chance and score[r, b] > 0:
                    scoring |= 1 << b
            if scoring != 0:
                boxes = scoring
                from_zero = False
            elif (boxes >> lr_chance) & 1 and score[r, lr_chance] > 0:
                boxes = 1 << lr_chance
                from_zero = False
        count = 0
        for b in range(n_boxes):
            if (boxes >> b) & 1 and (joker or score[r, b] > 0):
                count += 1
        if count == 0:
            for k in range(K):
                A[r, k] = B[t_zero, k]
            if optimal:
                eA[r] = z_ev
            continue
        best_ev = z_ev if from_zero else -np.inf
        best_b = -1
        best_pts = 0
        src = t_zero if from_zero else t_none
        j = 0
        for b in range(n_boxes):
            if not (boxes >> b) & 1:
                continue
            pts = score[r, b]
            if not joker and pts == 0:
                continue
            if joker and joker_pts[b] > 0 and not (mask >> (face - 1)) & 1:
                pts = joker_pts[b]
            ny = y
            if b == ybox and two_y:
                ny = 1 if pts == 50 else 0
            nu = u
            if box_face[b] > 0:
                nu = min(u + pts, threshold)
            nv = nvs[b]
            j += 1
            if optimal:
                ev = pts + extra + float(Vev[nv, ny, nu])
                if ev > best_ev:
                    best_ev = ev
                    best_b = b
                    best_pts = pts
            elif j == count:
                _relax(A, r, B, src, vals, off[nv, ny, nu], lo[nv, ny, nu], hi[nv, ny, nu],
                       pts + extra, K)  # fmt: skip
            else:
                dst = n_keeps + (j % 2)
                _relax(B, dst, B, src, vals, off[nv, ny, nu], lo[nv, ny, nu], hi[nv, ny, nu],
                       pts + extra, K)  # fmt: skip
                src = dst
        if optimal:
            eA[r] = best_ev
            if best_b < 0:
                for k in range(K):
                    A[r, k] = B[t_zero, k]
            else:
                b = best_b
                ny = y
                if b == ybox and two_y:
                    ny = 1 if best_pts == 50 else 0
                nu = min(u + best_pts, threshold) if box_face[b] > 0 else u
                nv = nvs[b]
                _put(A, r, vals, off[nv, ny, nu], lo[nv, ny, nu], hi[nv, ny, nu],
                     best_pts + extra, K)  # fmt: skip


@njit(cache=True, nogil=True)
def _choose(
    eA: np.ndarray,
    eR: np.ndarray,
    best: np.ndarray,
    src: np.ndarray,
    sub: np.ndarray,
    nsub: np.ndarray,
    n_rolls: int,
) -> None:
    """Expected-value choices of one level: ``src[k]`` is the keep (``k`` itself or
    one of its sub-multisets, as a keep of ``eA``/``eR``) with the best expected
    value ``best[k]``; the first best wins ties, in the order of the value kernels."""
    n_keeps = sub.shape[0]
    for k in range(n_keeps - 1, -1, -1):
        v = eR[k] if k < n_rolls else eA[k]
        s_best = k
        for j in range(nsub[k]):
            s = sub[k, j]
            if best[s] > v:
                v = best[s]
                s_best = src[s]
        best[k] = v
        src[k] = s_best


@njit(cache=True, nogil=True)
def _follow(
    A: np.ndarray, R: np.ndarray, R_out: np.ndarray, src: np.ndarray, n_rolls: int, K: int
) -> None:
    """``R_out[r]`` = the row of roll ``r``'s chosen keep (``A``'s, or ``R``'s for a roll)."""
    for r in range(n_rolls):
        s = src[r]
        if s < n_rolls:
            for k in range(K):
                R_out[r, k] = R[s, k]
        else:
            for k in range(K):
                R_out[r, k] = A[s, k]


@njit(cache=True, nogil=True)
def _turn(
    A: np.ndarray,
    B: np.ndarray,
    C: np.ndarray,
    eA: np.ndarray,
    eB: np.ndarray,
    best: np.ndarray,
    src: np.ndarray,
    out: np.ndarray,
    optimal: bool,
    levels: int,
    K: int,
    add: np.ndarray,
    sub: np.ndarray,
    nsub: np.ndarray,
    roll_prob: np.ndarray,
) -> None:
    """From the final rows in the roll rows of ``A``: ``out[:K]``, the turn's row.

    Optimal mode: ``eA`` holds the final expected values; ``C`` (roll rows) and
    ``eB`` are the other buffers of the ping-pong between levels.
    """
    n_rolls = roll_prob.shape[0]
    in_a = True
    for _ in range(levels):
        if optimal:
            if in_a:
                expect(eA.reshape((-1, 1)), eA.reshape((-1, 1)), add, n_rolls, 1)
                expect(A, A, add, n_rolls, K)
                _choose(eA, eA, best, src, sub, nsub, n_rolls)
                _follow(A, A, C, src, n_rolls, K)
                for r in range(n_rolls):
                    eB[r] = best[r]
            else:
                expect(eA.reshape((-1, 1)), eB.reshape((-1, 1)), add, n_rolls, 1)
                expect(A, C, add, n_rolls, K)
                _choose(eA, eB, best, src, sub, nsub, n_rolls)
                _follow(A, C, A, src, n_rolls, K)
                for r in range(n_rolls):
                    eA[r] = best[r]
        elif in_a:
            expect(A, A, add, n_rolls, K)
            maximize(A, A, B, B, sub, nsub, n_rolls, K)
        else:
            expect(A, B, add, n_rolls, K)
            maximize(A, B, B, A, sub, nsub, n_rolls, K)
        in_a = not in_a
    for k in range(K):
        out[k] = 0.0
    if in_a:
        _mix(A, out, roll_prob, K)
    elif optimal:
        _mix(C, out, roll_prob, K)
    else:
        _mix(B, out, roll_prob, K)


@njit(cache=True, nogil=True)
def _mix(R: np.ndarray, out: np.ndarray, roll_prob: np.ndarray, K: int) -> None:
    """``out[:K]`` += the rows of the rolls weighted by their probabilities."""
    for r in range(roll_prob.shape[0]):
        p = roll_prob[r]
        for k in range(K):
            out[k] += p * R[r, k]


@njit(cache=True, nogil=True)
def bound(
    mask: int,
    y: int,
    u: int,
    allowed: int,
    hi: np.ndarray,
    idx_of_mask: np.ndarray,
    box_max: np.ndarray,
    box_face: np.ndarray,
    ybox: int,
    joker_mode: int,
    threshold: int,
    n_dice: int,
    two_y: bool,
) -> int:
    """One more than the most points the state can still score (its rows' length)."""
    joker_live = joker_mode != JOKER_NONE and ybox >= 0 and not (mask >> ybox) & 1
    extra = YATZY_BONUS if joker_live and y == 1 else 0
    top = 1
    for b in range(box_max.shape[0]):
        if not (allowed >> b) & 1:
            continue
        nv = idx_of_mask[mask ^ (1 << b)]
        for ny in range(2 if b == ybox and two_y else 1):
            nyy = ny if b == ybox and two_y else y
            if box_face[b] > 0:
                for c in range(n_dice + 1):
                    pts = c * box_face[b]
                    cand = pts + extra + hi[nv, nyy, min(u + pts, threshold)]
                    top = max(top, cand)
            else:
                top = max(top, box_max[b] + extra + hi[nv, nyy, u])
    return top


@njit(cache=True)
def plan_masks(
    masks: np.ndarray,
    hi: np.ndarray,
    idx_of_mask: np.ndarray,
    allowed: np.ndarray,
    box_max: np.ndarray,
    box_face: np.ndarray,
    ybox: int,
    joker_mode: int,
    threshold: int,
    hi_of_filled_upper: np.ndarray,
    lo_of_open_upper: np.ndarray,
    n_dice: int,
    sizes: np.ndarray,
) -> None:
    """``sizes[i, y, u]``: the row length of each state of ``masks`` to solve (0: none)."""
    two_y = hi.shape[1] == 2
    for i in range(masks.shape[0]):
        mask = masks[i]
        idx = idx_of_mask[mask]
        reach = hi_of_filled_upper[~mask & 63] + 1
        u0 = min(lo_of_open_upper[mask & 63], reach - 1)
        ys = 2 if two_y and ybox >= 0 and not (mask >> ybox) & 1 else 1
        for y in range(hi.shape[1]):
            for u in range(hi.shape[2]):
                sizes[i, y, u] = 0
        for y in range(ys):
            for u in range(u0, reach):
                sizes[i, y, u] = bound(
                    mask, y, u, allowed[idx], hi, idx_of_mask, box_max, box_face,
                    ybox, joker_mode, threshold, n_dice, two_y,
                )  # fmt: skip


@njit(cache=True, parallel=True)
def solve_masks(
    masks: np.ndarray,
    sizes: np.ndarray,
    slots: np.ndarray,
    stage: np.ndarray,
    stage_lo: np.ndarray,
    stage_hi: np.ndarray,
    optimal: bool,
    vals: np.ndarray,
    off: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    Vev: np.ndarray,
    idx_of_mask: np.ndarray,
    allowed: np.ndarray,
    score: np.ndarray,
    box_face: np.ndarray,
    joker_pts: np.ndarray,
    ybox: int,
    joker_mode: int,
    lower_bits: int,
    threshold: int,
    levels: int,
    lr_chance: int,
    add: np.ndarray,
    sub: np.ndarray,
    nsub: np.ndarray,
    roll_prob: np.ndarray,
    yatzy_face: np.ndarray,
    scratch: np.ndarray,
    scratch_e: np.ndarray,
    scratch_i: np.ndarray,
) -> None:
    """Solve every state of ``masks`` with ``sizes[i, y, u] > 0`` into the stage.

    State ``(i, y, u)``'s row goes to ``stage[slots[i, y, u]:][:sizes[i, y, u]]``,
    with the range strictly inside (0, 1) (after :data:`TRIM`) in ``stage_lo`` and
    ``stage_hi``.  The states these masks lead to must be stored in ``vals``/``off``/
    ``lo``/``hi`` already.  Runs of masks go in parallel, run ``c`` working in row
    ``c`` of the scratch arrays (``(3 * n_keeps + 5) * K`` floats for the longest
    row ``K``, ``3 * n_keeps`` floats and ``2 * n_keeps`` ints).
    """
    n_masks = masks.shape[0]
    n_runs = scratch.shape[0]
    n_keeps = add.shape[0]
    n_rolls = roll_prob.shape[0]
    for c in prange(n_runs):
        flat = scratch[c]
        ef = scratch_e[c]
        eA = ef[:n_keeps]
        eB = ef[n_keeps : 2 * n_keeps]
        best = ef[2 * n_keeps : 3 * n_keeps]
        src = scratch_i[c, :n_keeps]
        for i in range(c * n_masks // n_runs, (c + 1) * n_masks // n_runs):
            mask = masks[i]
            idx = idx_of_mask[mask]
            for y in range(sizes.shape[1]):
                for u in range(sizes.shape[2]):
                    K = sizes[i, y, u]
                    if K == 0:
                        continue
                    A = flat[: n_keeps * K].reshape((n_keeps, K))
                    B = flat[n_keeps * K : (2 * n_keeps + 4) * K].reshape((n_keeps + 4, K))
                    C = flat[(2 * n_keeps + 4) * K : (2 * n_keeps + 4 + n_rolls) * K].reshape(
                        (n_rolls, K)
                    )
                    out = flat[(2 * n_keeps + 4 + n_rolls) * K : (2 * n_keeps + 5 + n_rolls) * K]
                    _finals(
                        A, B, eA, optimal, mask, y, u, K, allowed[idx], vals, off, lo, hi,
                        Vev, idx_of_mask, score, box_face, joker_pts, ybox, joker_mode,
                        lower_bits, threshold, yatzy_face, lr_chance,
                    )  # fmt: skip
                    _turn(A, B, C, eA, eB, best, src, out, optimal, levels, K, add, sub, nsub,
                          roll_prob)  # fmt: skip
                    at = slots[i, y, u]
                    first = K
                    last = 0
                    for k in range(K):
                        v = out[k]
                        stage[at + k] = v
                        if v < 1.0 - TRIM and k < first:
                            first = k
                        if v > TRIM:
                            last = k + 1
                    if last < first:
                        last = first
                    stage_lo[i, y, u] = first
                    stage_hi[i, y, u] = last


@njit(cache=True)
def store_masks(
    masks: np.ndarray,
    sizes: np.ndarray,
    slots: np.ndarray,
    stage: np.ndarray,
    stage_lo: np.ndarray,
    stage_hi: np.ndarray,
    vals: np.ndarray,
    end: int,
    off: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    idx_of_mask: np.ndarray,
    lo_of_open_upper: np.ndarray,
) -> int:
    """Append the staged rows of ``masks`` to ``vals`` from ``end``; returns the new end.

    Upper sums below the solved ones (the bonus out of reach) share the row of the
    lowest solved sum.
    """
    for i in range(masks.shape[0]):
        mask = masks[i]
        idx = idx_of_mask[mask]
        for y in range(sizes.shape[1]):
            first_u = -1
            for u in range(sizes.shape[2]):
                if sizes[i, y, u] == 0:
                    continue
                if first_u < 0:
                    first_u = u
                a = stage_lo[i, y, u]
                b = stage_hi[i, y, u]
                at = slots[i, y, u]
                for k in range(a, b):
                    vals[end + k - a] = stage[at + k]
                off[idx, y, u] = end
                lo[idx, y, u] = a
                hi[idx, y, u] = b
                end += b - a
            for u in range(max(first_u, 0)):
                off[idx, y, u] = off[idx, y, first_u]
                lo[idx, y, u] = lo[idx, y, first_u]
                hi[idx, y, u] = hi[idx, y, first_u]
    return end


@njit(cache=True)
def turn_rows(
    out: np.ndarray,
    optimal: bool,
    mask: int,
    y: int,
    u: int,
    allowed: int,
    vals: np.ndarray,
    off: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    Vev: np.ndarray,
    idx_of_mask: np.ndarray,
    score: np.ndarray,
    box_face: np.ndarray,
    joker_pts: np.ndarray,
    ybox: int,
    joker_mode: int,
    lower_bits: int,
    threshold: int,
    lr_chance: int,
    add: np.ndarray,
    sub: np.ndarray,
    nsub: np.ndarray,
    yatzy_face: np.ndarray,
) -> None:
    """Within-turn rows of one state: ``out[j, k, :K]`` (``K = out.shape[2]``).

    ``out[0, r]``: final roll ``r``'s row after its box; for ``j >= 1``: keeping the
    dice of keep ``k`` and throwing the rest with ``j`` rolls left (a full keep ``r``
    is roll ``r`` with ``j - 1`` rolls left, the best choice taken).  ``j`` runs to
    ``levels + 1``: the first roll's dice landing one by one.
    """
    n_rolls = score.shape[0]
    n_keeps = add.shape[0]
    K = out.shape[2]
    A = np.empty((n_keeps, K))
    B = np.empty((n_keeps + 4, K))
    C = np.empty((n_rolls, K))
    eA = np.empty(n_keeps)
    eB = np.empty(n_keeps)
    best = np.empty(n_keeps)
    src = np.empty(n_keeps, dtype=np.int64)
    _finals(
        A, B, eA, optimal, mask, y, u, K, allowed, vals, off, lo, hi, Vev, idx_of_mask,
        score, box_face, joker_pts, ybox, joker_mode, lower_bits, threshold, yatzy_face, lr_chance,
    )  # fmt: skip
    for r in range(n_rolls):
        out[0, r] = A[r]
    for r in range(n_rolls):
        C[r] = A[r]
        eB[r] = eA[r]
    # C/eB: the rolls' rows and values one level down; A/eA: the keeps' of this level.
    for j in range(1, out.shape[0]):
        expect(A, C, add, n_rolls, K)
        expect(eA.reshape((-1, 1)), eB.reshape((-1, 1)), add, n_rolls, 1)
        for k in range(n_keeps):
            out[j, k] = C[k] if k < n_rolls else A[k]
        if optimal:
            _choose(eA, eB, best, src, sub, nsub, n_rolls)
            _follow(A, C, B, src, n_rolls, K)
            for r in range(n_rolls):
                eB[r] = best[r]
        else:
            for r in range(n_rolls):
                A[r] = C[r]
            maximize(A, A, B, B, sub, nsub, n_rolls, K)
        for r in range(n_rolls):
            C[r] = B[r]
