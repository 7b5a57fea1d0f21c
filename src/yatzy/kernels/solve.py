"""Numeric kernels of the exact solver (numba).

Every kernel writes into arrays its caller allocates.  A *state between turns* is
``(mask, y, u)``: ``mask`` has bit ``b`` set while box ``b`` is open, ``y`` is 1 when
the Yatzy box holds 50 (only for rule sets with the Yatzy bonus, else always 0) and
``u`` is the upper-section sum capped at the bonus threshold ``T``.  ``V[i, y, u]``
is the expected sum of everything still to be scored (box points, Yatzy bonuses,
the upper bonus at the end) from the state whose mask has index ``i``.

All upper sums of one ``(mask, y)`` are computed together as *lanes* of a row, so
the inner loops run over contiguous memory and vectorise.  Lane ``l`` stands for
``u = u0 + l``.  The solve runs the lanes from the largest sum that can no longer
reach the bonus (every smaller sum has the same value, so it is copied) up to the
largest sum the filled upper boxes can reach; the advisor uses one lane for one
position.

Keeps are indexed as in :mod:`yatzy.solver._dice`: rolls first, then keeps by
decreasing size, so ``add`` points to lower indices and ``sub`` to higher ones.

With ``saved_rolls=next`` (``saved`` = 2, the most rolls that carry over) the middle
axis of ``V`` is the number of rolls carried into the turn, ``c`` = 0-2, instead of
``y``.  A turn then has ``3 + c`` rolls, and a stop with ``j`` rolls left carries
``min(j, saved)`` into the next turn, so the value of stopping depends on ``j``: the
final values ``F_j`` (the best box, read from the next states with ``min(j, saved)``
carried) replace the roll rows before every level's maximum.  The levels do not
depend on ``c``, so one chain of ``levels + saved`` levels gives every ``c``: the
turn with ``c`` carried is the mean of the first roll at level ``levels + c``.

The best box for each final roll (the final values) is in
:mod:`yatzy.kernels.final`, with the rules of which boxes a roll may fill.
"""

from __future__ import annotations

import numpy as np

from yatzy.kernels.jit import njit

# isort: split
from yatzy.kernels.common import expect, int64, mean_of_rolls
from yatzy.kernels.final import final_values, rolls_per_box

# Maxima: a loop that writes a row it also reads (``row[l] = max(row[l], v)``)
# compiles to masked stores, very slow on AMD processors, so every maximum writes
# a row it does not read (see the note in :mod:`yatzy.kernels.final`).

# Literals: a helper called with a constant int (``f(x, 0)``) is compiled once more
# for that constant (numba types it ``Literal[int](0)``, not ``int64``), so a fresh
# install's compile of the solve kernel compiled ``final_values`` three times and its
# ``_fuse_into`` and ``_max_subs_in_order`` more.  Constants passed to the helpers are
# written ``int64(0)`` (:func:`yatzy.kernels.common.int64`), and so are the counters
# passed to them that start at 0 (numba's SSA form would pass the version holding the
# constant): one compile per helper (issue 24's first-game waits).


@njit(cache=True, nogil=True)
def _keep_order(add: np.ndarray, nsub: np.ndarray, n_rolls: int) -> np.ndarray:
    """The order the maxima visit the keeps in: smaller keeps first (a keep reads its
    sub-keeps), the rolls last, and keeps of one size by their number of sub-keeps.

    Grouping by the number of sub-keeps keeps the branch on it predictable; and the
    keep index comes from memory, so LLVM cannot hoist the loops' overlap checks
    out of the loop over keeps (hoisted over every keep they always fail: the
    maxima are written into the array they read, and all of it ran scalar).
    """
    n_keeps = add.shape[0]
    size = np.empty(n_keeps, dtype=np.int64)
    n = 0
    while (n + 1) * (n + 2) * (n + 3) * (n + 4) * (n + 5) // 120 < n_rolls:
        n += 1
    for k in range(n_keeps):
        size[k] = n if k < n_rolls else size[add[k, 0]] - 1
    order = np.empty(n_keeps, dtype=np.int64)
    i = 0
    for s in range(n + 1):
        for ns in range(7):
            for k in range(n_keeps):
                if size[k] == s and nsub[k] == ns:
                    order[i] = k
                    i += 1
    return order


@njit(cache=True, nogil=True)
def _max_subs_in_order(
    X: np.ndarray,
    Y: np.ndarray,
    B: np.ndarray,
    sub: np.ndarray,
    nsub: np.ndarray,
    order: np.ndarray,
    first: int,
    last: int,
    lanes: int,
) -> None:
    """``Y[k]`` for the keeps ``k = order[first:last]``: the maximum of ``X[k]`` and
    the rows ``B[sub[k]]`` (its sub-keeps' maxima), in one pass per keep (up to six
    sub-keeps: a keep has one per distinct face).  See :func:`_keep_order`.
    """
    for i in range(first, last):
        k = order[i]
        ns = nsub[k]
        if ns == 0:
            for lane in range(lanes):
                Y[k, lane] = X[k, lane]
            continue
        s0 = sub[k, 0]
        if ns == 1:
            for lane in range(lanes):
                a = X[k, lane]
                b = B[s0, lane]
                Y[k, lane] = b if b > a else a
            continue
        s1 = sub[k, 1]
        if ns == 2:
            for lane in range(lanes):
                a = X[k, lane]
                b = B[s0, lane]
                a = b if b > a else a
                b = B[s1, lane]
                Y[k, lane] = b if b > a else a
            continue
        s2 = sub[k, 2]
        if ns == 3:
            for lane in range(lanes):
                a = X[k, lane]
                b = B[s0, lane]
                a = b if b > a else a
                b = B[s1, lane]
                a = b if b > a else a
                b = B[s2, lane]
                Y[k, lane] = b if b > a else a
            continue
        s3 = sub[k, 3]
        if ns == 4:
            for lane in range(lanes):
                a = X[k, lane]
                b = B[s0, lane]
                a = b if b > a else a
                b = B[s1, lane]
                a = b if b > a else a
                b = B[s2, lane]
                a = b if b > a else a
                b = B[s3, lane]
                Y[k, lane] = b if b > a else a
            continue
        s4 = sub[k, 4]
        if ns == 5:
            for lane in range(lanes):
                a = X[k, lane]
                b = B[s0, lane]
                a = b if b > a else a
                b = B[s1, lane]
                a = b if b > a else a
                b = B[s2, lane]
                a = b if b > a else a
                b = B[s3, lane]
                a = b if b > a else a
                b = B[s4, lane]
                Y[k, lane] = b if b > a else a
            continue
        s5 = sub[k, 5]
        for lane in range(lanes):
            a = X[k, lane]
            b = B[s0, lane]
            a = b if b > a else a
            b = B[s1, lane]
            a = b if b > a else a
            b = B[s2, lane]
            a = b if b > a else a
            b = B[s3, lane]
            a = b if b > a else a
            b = B[s4, lane]
            a = b if b > a else a
            b = B[s5, lane]
            Y[k, lane] = b if b > a else a


@njit(cache=True, nogil=True)
def _maximize_in_order(
    A: np.ndarray,
    R: np.ndarray,
    B: np.ndarray,
    R_out: np.ndarray,
    sub: np.ndarray,
    nsub: np.ndarray,
    order: np.ndarray,
    n_rolls: int,
    lanes: int,
) -> None:
    """Every keep becomes the best keep among its sub-multisets (itself included).

    Keep values come from ``A`` (rolls: from ``R``); the maxima go to ``B`` (rolls: to
    ``R_out``, which must not be ``R``; both are ``A`` or ``B``, so the roll rows
    alternate between the two arrays from level to level instead of being copied).
    Each keep takes the maximum of itself and its sub-keeps in one pass (no row is
    read and written in the same loop: in-place maxima compile to masked stores,
    very slow on AMD), in the order of :func:`_keep_order`.
    """
    split = A.shape[0] - n_rolls
    _max_subs_in_order(A, B, B, sub, nsub, order, int64(0), split, lanes)
    _max_subs_in_order(R, R_out, B, sub, nsub, order, split, A.shape[0], lanes)


@njit(cache=True, nogil=True)
def _turn_value(
    A: np.ndarray,
    B: np.ndarray,
    out: np.ndarray,
    levels: int,
    lanes: int,
    add: np.ndarray,
    sub: np.ndarray,
    nsub: np.ndarray,
    order: np.ndarray,
    roll_prob: np.ndarray,
) -> None:
    """From the final values in the roll rows of ``A``: ``out[:lanes]``, the turn's value."""
    n_rolls = roll_prob.shape[0]
    in_a = True
    for _ in range(levels):
        if in_a:
            expect(A, A, add, n_rolls, lanes)
            _maximize_in_order(A, A, B, B, sub, nsub, order, n_rolls, lanes)
        else:
            expect(A, B, add, n_rolls, lanes)
            _maximize_in_order(A, B, B, A, sub, nsub, order, n_rolls, lanes)
        in_a = not in_a
    R = A if in_a else B
    for lane in range(lanes):
        out[lane] = 0.0
    for r in range(n_rolls):
        p = roll_prob[r]
        for lane in range(lanes):
            out[lane] += p * R[r, lane]


@njit(cache=True, nogil=True)
def _load_stops(R: np.ndarray, C: np.ndarray, first: int, n_rolls: int, lanes: int) -> None:
    """The roll rows of ``R`` become the final values ``C[first:first + n_rolls]``."""
    for r in range(n_rolls):
        for lane in range(lanes):
            R[r, lane] = C[first + r, lane]


@njit(cache=True, nogil=True)
def _saved_turn_values(
    A: np.ndarray,
    B: np.ndarray,
    C: np.ndarray,
    out: np.ndarray,
    levels: int,
    saved: int,
    lanes: int,
    add: np.ndarray,
    sub: np.ndarray,
    nsub: np.ndarray,
    order: np.ndarray,
    roll_prob: np.ndarray,
) -> None:
    """Saved rolls (next): ``out[c * lanes:]``, the turn's value with ``c`` rolls carried in.

    ``A``'s roll rows hold ``F_0``; ``C`` holds ``F_1 ... F_saved`` one after the other.
    At level ``j`` a stop carries ``min(j, saved)``, so those final values replace the
    roll rows after the keeps have read the level below.
    """
    n_rolls = roll_prob.shape[0]
    in_a = True
    for j in range(1, levels + saved + 1):
        stops = (min(j, saved) - 1) * n_rolls
        if in_a:
            expect(A, A, add, n_rolls, lanes)
            _load_stops(A, C, stops, n_rolls, lanes)
            _maximize_in_order(A, A, B, B, sub, nsub, order, n_rolls, lanes)
        else:
            expect(A, B, add, n_rolls, lanes)
            _load_stops(B, C, stops, n_rolls, lanes)
            _maximize_in_order(A, B, B, A, sub, nsub, order, n_rolls, lanes)
        in_a = not in_a
        if j >= levels:
            if in_a:
                mean_of_rolls(A, out, (j - levels) * lanes, roll_prob, lanes)
            else:
                mean_of_rolls(B, out, (j - levels) * lanes, roll_prob, lanes)


@njit(cache=True, nogil=True)
def solve_masks(
    masks: np.ndarray,
    V: np.ndarray,
    idx_of_mask: np.ndarray,
    allowed: np.ndarray,
    score: np.ndarray,
    box_face: np.ndarray,
    joker_pts: np.ndarray,
    ybox: int,
    joker_mode: int,
    lower_bits: int,
    threshold: int,
    hi_of_filled_upper: np.ndarray,
    lo_of_open_upper: np.ndarray,
    levels: int,
    saved: int,
    lr_chance: int,
    add: np.ndarray,
    sub: np.ndarray,
    nsub: np.ndarray,
    roll_prob: np.ndarray,
    yatzy_face: np.ndarray,
    scratch_a: np.ndarray,
    scratch_b: np.ndarray,
    scratch_c: np.ndarray,
    scratch_out: np.ndarray,
) -> None:
    """Fill ``V`` for ``masks`` (all with the same number of open boxes, > 0).

    Every state these masks lead to must be filled already.  The masks are split
    into ``scratch_a.shape[0]`` runs solved one after the other; run ``c`` works in
    row ``c`` of the scratch arrays (``n_keeps * width``, ``(n_keeps + 4) * width``
    and at least ``(4 + 2 * boxes) * (width + 6 * dice)`` (the final values'
    scratch, see :func:`final_values`), ``saved * n_rolls * width`` (at least 1)
    and ``(saved + 1) * width`` values, or more: without saved rolls the keep/reroll
    pass runs on as many lanes as the first two hold, ``scratch_a.shape[1] //
    n_keeps``, and ``scratch_out`` must hold as many; their contents do not matter),
    so little is allocated per mask.  The kernel
    releases the GIL: the caller runs disjoint slices of ``masks`` on threads, each
    with its own scratch rows (a numba ``prange`` would start a thread pool whose
    start-up, about 0.25 s, is a large share of solving Yatzy).
    """
    box_rolls = rolls_per_box(score)
    order = _keep_order(add, nsub, roll_prob.shape[0])
    n_masks = masks.shape[0]
    n_runs = scratch_a.shape[0]
    for c in range(n_runs):
        first = c * n_masks // n_runs
        last = (c + 1) * n_masks // n_runs
        if saved == 0:
            _solve_group(
                masks[first:last],
                V,
                idx_of_mask,
                allowed,
                score,
                box_face,
                joker_pts,
                ybox,
                joker_mode,
                lower_bits,
                threshold,
                hi_of_filled_upper,
                lo_of_open_upper,
                levels,
                lr_chance,
                add,
                sub,
                nsub,
                roll_prob,
                yatzy_face,
                box_rolls,
                order,
                scratch_a[c],
                scratch_b[c],
                scratch_out[c],
            )
            continue
        for i in range(first, last):
            _solve_mask(
                masks[i],
                V,
                idx_of_mask,
                allowed,
                score,
                box_face,
                joker_pts,
                ybox,
                joker_mode,
                lower_bits,
                threshold,
                hi_of_filled_upper,
                lo_of_open_upper,
                levels,
                saved,
                lr_chance,
                add,
                sub,
                nsub,
                roll_prob,
                yatzy_face,
                box_rolls,
                order,
                scratch_a[c],
                scratch_b[c],
                scratch_c[c],
                scratch_out[c],
            )


@njit(cache=True, nogil=True)
def _lanes_of(
    mask: int, width: int, hi_of_filled_upper: np.ndarray, lo_of_open_upper: np.ndarray
) -> tuple[int, int, int]:
    """The lanes of a mask: ``(u0, lanes, reach)`` (see :func:`_solve_mask`)."""
    reach = hi_of_filled_upper[~mask & 63] + 1
    u0 = min(lo_of_open_upper[mask & 63], reach - 1)
    lanes = min(width, (reach - u0 + 7) // 8 * 8)
    if u0 + lanes > width:
        u0 = width - lanes
    return u0, lanes, reach


@njit(cache=True, nogil=True)
def _solve_group(
    masks: np.ndarray,
    V: np.ndarray,
    idx_of_mask: np.ndarray,
    allowed: np.ndarray,
    score: np.ndarray,
    box_face: np.ndarray,
    joker_pts: np.ndarray,
    ybox: int,
    joker_mode: int,
    lower_bits: int,
    threshold: int,
    hi_of_filled_upper: np.ndarray,
    lo_of_open_upper: np.ndarray,
    levels: int,
    lr_chance: int,
    add: np.ndarray,
    sub: np.ndarray,
    nsub: np.ndarray,
    roll_prob: np.ndarray,
    yatzy_face: np.ndarray,
    box_rolls: np.ndarray,
    order: np.ndarray,
    flat_a: np.ndarray,
    flat_b: np.ndarray,
    out: np.ndarray,
) -> None:
    """Fill ``V`` for ``masks`` (no saved rolls), several masks per keep/reroll pass.

    The keep/reroll recursion treats every lane alike, and its cost per row barely
    depends on the number of lanes (short rows run scalar, and the per-row work
    dominates), so the final values of several ``(mask, y)`` go side by side into
    the roll rows of one wide ``A`` and one pass values them all.  The group holds
    up to ``cap`` lanes, what ``flat_a``, ``flat_b`` and ``out`` hold; the rows of
    ``A`` and ``B`` are ``cap`` lanes apart whatever the group's width, so each
    mask's final values go straight into its lanes of ``A`` (the head of ``flat_b``,
    free until the pass, is their scratch ``W``).
    """
    n_keeps = add.shape[0]
    width = V.shape[2]
    cap = min(flat_a.shape[0] // n_keeps, flat_b.shape[0] // (n_keeps + 4), out.shape[0])
    n_masks = masks.shape[0]
    # The items of the current group: mask index, y, lane offset.
    items_i = np.empty(cap // 8 + 1, dtype=np.int64)
    items_y = np.empty(cap // 8 + 1, dtype=np.int64)
    items_off = np.empty(cap // 8 + 1, dtype=np.int64)
    n_items = 0
    used = int64(0)
    # Each mask's final values go straight into its lanes of the roll rows.
    Af = flat_a[: n_keeps * cap].reshape((n_keeps, cap))
    Bf = flat_b[: (n_keeps + 4) * cap].reshape((n_keeps + 4, cap))
    i = 0
    y = int64(0)
    while i <= n_masks:
        ys = 1
        lanes = int64(0)
        u0 = int64(0)
        if i < n_masks:
            mask = masks[i]
            ys = 2 if V.shape[1] == 2 and ybox >= 0 and not (mask >> ybox) & 1 else 1
            u0, lanes, _ = _lanes_of(mask, width, hi_of_filled_upper, lo_of_open_upper)
        if n_items > 0 and (i == n_masks or used + lanes > cap):
            # Flush: one keep/reroll pass over the group's lanes, then store.
            _turn_value(Af, Bf, out, levels, used, add, sub, nsub, order, roll_prob)
            for t in range(n_items):
                m = masks[items_i[t]]
                yy = items_y[t]
                off = items_off[t]
                idx = idx_of_mask[m]
                a0, _, reach = _lanes_of(m, width, hi_of_filled_upper, lo_of_open_upper)
                for u in range(a0):
                    V[idx, yy, u] = out[off]
                for u in range(a0, reach):
                    V[idx, yy, u] = out[off + u - a0]
            n_items = 0
            used = int64(0)
        if i == n_masks:
            break
        mask = masks[i]
        final_values(
            Af,
            used,
            flat_b,
            mask,
            y,
            u0,
            lanes,
            allowed[idx_of_mask[mask]],
            V,
            idx_of_mask,
            score,
            box_face,
            joker_pts,
            ybox,
            joker_mode,
            lower_bits,
            threshold,
            yatzy_face,
            lr_chance,
            box_rolls,
        )
        items_i[n_items] = i
        items_y[n_items] = y
        items_off[n_items] = used
        n_items += 1
        used += lanes
        y += 1
        if y == ys:
            y = int64(0)
            i += 1


@njit(cache=True, nogil=True)
def _solve_mask(
    mask: int,
    V: np.ndarray,
    idx_of_mask: np.ndarray,
    allowed: np.ndarray,
    score: np.ndarray,
    box_face: np.ndarray,
    joker_pts: np.ndarray,
    ybox: int,
    joker_mode: int,
    lower_bits: int,
    threshold: int,
    hi_of_filled_upper: np.ndarray,
    lo_of_open_upper: np.ndarray,
    levels: int,
    saved: int,
    lr_chance: int,
    add: np.ndarray,
    sub: np.ndarray,
    nsub: np.ndarray,
    roll_prob: np.ndarray,
    yatzy_face: np.ndarray,
    box_rolls: np.ndarray,
    order: np.ndarray,
    flat_a: np.ndarray,
    flat_b: np.ndarray,
    flat_c: np.ndarray,
    out: np.ndarray,
) -> None:
    """Fill ``V``'s rows of one mask, working in the scratch rows ``flat_a``, ``flat_b``
    (and ``flat_c`` for the final values of saved rolls)."""
    n_keeps = add.shape[0]
    width = V.shape[2]
    idx = idx_of_mask[mask]
    reach = hi_of_filled_upper[~mask & 63] + 1
    # Upper sums below ``u0`` cannot reach the bonus any more: they all share the
    # value of ``u0``, so the lanes start there.  Whole vectors of 8 lanes (no
    # scalar tails); lanes past the reachable sums compute harmless values nobody
    # reads and are not stored; ``u0`` moves down when the vectors would not fit.
    u0 = min(lo_of_open_upper[mask & 63], reach - 1)
    lanes = min(width, (reach - u0 + 7) // 8 * 8)
    if u0 + lanes > width:
        u0 = width - lanes
    # Rows only as long as the lanes: a small working set stays in cache.
    A = flat_a[: n_keeps * lanes].reshape((n_keeps, lanes))
    B = flat_b[: (n_keeps + 4) * lanes].reshape((n_keeps + 4, lanes))
    if saved > 0:
        n_rolls = roll_prob.shape[0]
        C = flat_c[: saved * n_rolls * lanes].reshape((saved * n_rolls, lanes))
        for c in range(saved, -1, -1):
            # F_c: the best box with c rolls carried on; F_0 stays in A's roll rows.
            final_values(
                A,
                int64(0),
                flat_b,
                mask,
                c,
                u0,
                lanes,
                allowed[idx],
                V,
                idx_of_mask,
                score,
                box_face,
                joker_pts,
                ybox,
                joker_mode,
                lower_bits,
                threshold,
                yatzy_face,
                lr_chance,
                box_rolls,
            )
            if c > 0:
                for r in range(n_rolls):
                    for lane in range(lanes):
                        C[(c - 1) * n_rolls + r, lane] = A[r, lane]
        _saved_turn_values(A, B, C, out, levels, saved, lanes, add, sub, nsub, order, roll_prob)
        for c in range(saved + 1):
            for u in range(u0):
                V[idx, c, u] = out[c * lanes]
            for u in range(u0, reach):
                V[idx, c, u] = out[c * lanes + u - u0]
        return
    ys = 2 if V.shape[1] == 2 and ybox >= 0 and not (mask >> ybox) & 1 else 1
    for y in range(ys):
        final_values(
            A,
            int64(0),
            flat_b,
            mask,
            y,
            u0,
            lanes,
            allowed[idx],
            V,
            idx_of_mask,
            score,
            box_face,
            joker_pts,
            ybox,
            joker_mode,
            lower_bits,
            threshold,
            yatzy_face,
            lr_chance,
            box_rolls,
        )
        _turn_value(A, B, out, levels, lanes, add, sub, nsub, order, roll_prob)
        for u in range(u0):
            V[idx, y, u] = out[0]
        for u in range(u0, reach):
            V[idx, y, u] = out[u - u0]


@njit(cache=True)
def turn_tables(
    out: np.ndarray,
    mask: int,
    y: int,
    u: int,
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
    saved: int,
    lr_chance: int,
    add: np.ndarray,
    sub: np.ndarray,
    nsub: np.ndarray,
    yatzy_face: np.ndarray,
) -> None:
    """Within-turn values of one state, for the advisor.

    ``out[j, k]`` (shape ``(levels + saved + 1, n_keeps)``) is the expected remaining
    score with ``j`` rolls left: ``out[0, r]`` after the best box for final roll ``r``;
    for ``j >= 1`` the value of keeping the dice of keep ``k`` and throwing the rest
    (a full keep ``r`` stands for going on with ``j - 1`` rolls left).  With saved
    rolls, ``y`` is ignored (the next states are read with the rolls a stop carries).
    """
    n_rolls = score.shape[0]
    A = np.empty((add.shape[0], 1), dtype=V.dtype)
    B = np.empty((add.shape[0] + 4, 1), dtype=V.dtype)
    C = np.empty((max(saved, 1) * n_rolls, 1), dtype=V.dtype)
    W = np.empty((4 + 2 * score.shape[1]) * 40, dtype=V.dtype)
    box_rolls = rolls_per_box(score)
    order = _keep_order(add, nsub, n_rolls)
    one = int64(1)  # one lane, as a plain int64: see the note on literals above
    for c in range(saved, -1, -1):
        final_values(
            A,
            int64(0),
            W,
            mask,
            c if saved > 0 else y,
            u,
            one,
            allowed,
            V,
            idx_of_mask,
            score,
            box_face,
            joker_pts,
            ybox,
            joker_mode,
            lower_bits,
            threshold,
            yatzy_face,
            lr_chance,
            box_rolls,
        )
        if c > 0:
            for r in range(n_rolls):
                C[(c - 1) * n_rolls + r, 0] = A[r, 0]
    for r in range(n_rolls):
        out[0, r] = A[r, 0]
    in_a = True
    for j in range(1, out.shape[0]):
        R = A if in_a else B
        R_out = B if in_a else A
        expect(A, R, add, n_rolls, one)
        for k in range(A.shape[0]):
            out[j, k] = R[k, 0] if k < n_rolls else A[k, 0]
        if saved > 0:
            _load_stops(R, C, (min(j, saved) - 1) * n_rolls, n_rolls, one)
        _maximize_in_order(A, R, B, R_out, sub, nsub, order, n_rolls, one)
        in_a = not in_a
