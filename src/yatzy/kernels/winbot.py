"""Numba kernels of the bot that plays for the win (see :mod:`yatzy.strategy.winbot`).

Everything counts *internal* points, as the solver's tables do: ``P`` is the sheet's
points so far without the upper bonus, and a target-table row (``off, lo, hi`` into
``vals``; 1 below ``lo``, 0 from ``hi``) is the survival function of the points
still to come, the upper bonus included.  The final score is ``P`` plus those.

``Wa[x]`` is the chance of winning with a final score of ``x`` (ties shared) against
the other seats' final-score distributions, for ``0 <= x < Wa.shape[0]`` (0 below,
1 above); ``w[x] = Wa[x] - Wa[x - 1]``.  A position between turns with ``P`` points
and a row ``R`` is worth ``sum_x w[x] * R(x - P)``: with the optimal-mode row the
chance of winning under optimal play from there, with the max-mode row the chance if
every target were played for at once (an upper bound that is exact at the end);
``alpha`` weighs the max-mode value against the optimal-mode one.

:func:`win_turn` plans a whole turn on those values (the best box of every final
roll, then the keeps: the expected-value DP of the solver with these values);
:func:`head_to_head` plays many two-player games of that bot against the optimal
bot (or the optimal bot against itself, the control).
"""

from __future__ import annotations

import numpy as np

from yatzy.kernels.jit import njit

# isort: split
from yatzy.kernels.codes import JOKER_NONE, YATZY_BONUS
from yatzy.kernels.common import allowed_for_roll, best_box, last_resort_boxes, reroll, roll_index
from yatzy.kernels.win import turn_values


@njit(cache=True, nogil=True)
def _row_at(vals: np.ndarray, off: int, lo: int, hi: int, k: int) -> float:
    """A stored row's value at ``k`` (1 below ``lo``, 0 from ``hi``)."""
    if k < lo:
        return 1.0
    if k >= hi:
        return 0.0
    return float(vals[off + k - lo])


@njit(cache=True, nogil=True)
def win_weights(Wa: np.ndarray, w: np.ndarray) -> None:
    """``w[x] = Wa[x] - Wa[x - 1]`` (``Wa[-1]`` is 0)."""
    prev = 0.0
    for x in range(Wa.shape[0]):
        w[x] = Wa[x] - prev
        prev = Wa[x]


@njit(cache=True, nogil=True)
def two_player_wins(Wa: np.ndarray, vals: np.ndarray, off: int, lo: int, hi: int, P: int) -> None:
    """``Wa[x]``: the chance of winning with ``x`` against one opponent with ``P`` points
    and the row ``(off, lo, hi)`` of its points to come (a tie counts half)."""
    for x in range(Wa.shape[0]):
        Wa[x] = 1.0 - 0.5 * (
            _row_at(vals, off, lo, hi, x - P) + _row_at(vals, off, lo, hi, x + 1 - P)
        )


@njit(cache=True, nogil=True)
def state_value(
    Wa: np.ndarray, w: np.ndarray, vals: np.ndarray, off: int, lo: int, hi: int, P: int
) -> float:
    """``sum_x w[x] * R(x - P)`` for the row ``R = (off, lo, hi)`` (see the module)."""
    L = Wa.shape[0]
    top = P + lo - 1  # R(x - P) = 1 for x <= top
    if top < 0:
        acc = 0.0
    elif top >= L:
        return 1.0
    else:
        acc = Wa[top]
    a = max(P + lo, 0)
    b = min(P + hi, L)
    base = off - lo - P
    for x in range(a, b):
        acc += w[x] * vals[base + x]
    return acc


@njit(cache=True, nogil=True)
def _blend(
    Wa: np.ndarray,
    w: np.ndarray,
    vals: np.ndarray,
    off: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    ovals: np.ndarray,
    ooff: np.ndarray,
    olo: np.ndarray,
    ohi: np.ndarray,
    alpha: float,
    nv: int,
    ny: int,
    nu: int,
    P: int,
) -> float:
    """The win value of state ``(nv, ny, nu)`` with ``P`` points: ``alpha`` times its
    max-mode value plus ``1 - alpha`` times its optimal-mode value."""
    v = 0.0
    if alpha > 0.0:
        v = alpha * state_value(Wa, w, vals, off[nv, ny, nu], lo[nv, ny, nu], hi[nv, ny, nu], P)
    if alpha < 1.0:
        o = state_value(Wa, w, ovals, ooff[nv, ny, nu], olo[nv, ny, nu], ohi[nv, ny, nu], P)
        v += (1.0 - alpha) * o
    return v


@njit(cache=True, nogil=True)
def win_box(
    r: int,
    mask: int,
    y: int,
    u: int,
    P: int,
    allowed: int,
    cont: np.ndarray,
    Wa: np.ndarray,
    w: np.ndarray,
    vals: np.ndarray,
    off: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    ovals: np.ndarray,
    ooff: np.ndarray,
    olo: np.ndarray,
    ohi: np.ndarray,
    alpha: float,
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
    choice: np.ndarray,
) -> float:
    """The best win value of final roll ``r`` (``cont[b, p]``: writing ``p`` in ``b``);
    ``choice`` gets (box, points, extra) as :func:`yatzy.kernels.common.best_box` does."""
    n_boxes = score.shape[1]
    two_y = lo.shape[1] == 2
    face = yatzy_face[r]
    joker = joker_mode != JOKER_NONE and face > 0 and ybox >= 0 and not (mask >> ybox) & 1
    boxes = allowed_for_roll(mask, allowed, face, ybox, joker_mode, lower_bits)
    boxes = last_resort_boxes(r, boxes, score, lr_chance)
    extra = YATZY_BONUS if joker and y == 1 else 0
    best = -np.inf
    for b in range(n_boxes):
        if not (boxes >> b) & 1:
            continue
        pts = score[r, b]
        if joker and joker_pts[b] > 0 and not (mask >> (face - 1)) & 1:
            pts = joker_pts[b]
        if extra == 0:
            v = cont[b, pts]
        else:
            ny = y
            if b == ybox and two_y:
                ny = 1 if pts == 50 else 0
            nu = min(u + pts, threshold) if box_face[b] > 0 else u
            nv = idx_of_mask[mask ^ (1 << b)]
            v = _blend(Wa, w, vals, off, lo, hi, ovals, ooff, olo, ohi, alpha, nv, ny, nu,
                       P + pts + extra)  # fmt: skip
        if v > best:
            best = v
            choice[0] = b
            choice[1] = pts
            choice[2] = extra
    return best


@njit(cache=True, nogil=True)
def _fill_cont(
    cont: np.ndarray,
    mask: int,
    y: int,
    u: int,
    P: int,
    allowed: int,
    Wa: np.ndarray,
    w: np.ndarray,
    vals: np.ndarray,
    off: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    ovals: np.ndarray,
    ooff: np.ndarray,
    olo: np.ndarray,
    ohi: np.ndarray,
    alpha: float,
    idx_of_mask: np.ndarray,
    score: np.ndarray,
    joker_pts: np.ndarray,
    box_face: np.ndarray,
    ybox: int,
    threshold: int,
) -> None:
    """``cont[b, p]``: the win value of writing ``p`` points in allowed box ``b`` (only
    for the points some roll can write there: the others are never read)."""
    two_y = lo.shape[1] == 2
    possible = np.zeros(cont.shape, dtype=np.bool_)
    for b in range(cont.shape[0]):
        possible[b, 0] = True
        if joker_pts[b] > 0:
            possible[b, joker_pts[b]] = True
        for r in range(score.shape[0]):
            possible[b, score[r, b]] = True
    for b in range(cont.shape[0]):
        if not (allowed >> b) & 1:
            continue
        nv = idx_of_mask[mask ^ (1 << b)]
        for p in range(cont.shape[1]):
            if not possible[b, p]:
                continue
            ny = y
            if b == ybox and two_y:
                ny = 1 if p == 50 else 0
            nu = min(u + p, threshold) if box_face[b] > 0 else u
            cont[b, p] = _blend(Wa, w, vals, off, lo, hi, ovals, ooff, olo, ohi, alpha, nv,
                                ny, nu, P + p)  # fmt: skip


@njit(cache=True, nogil=True)
def win_turn(
    F: np.ndarray,
    E: np.ndarray,
    M: np.ndarray,
    cont: np.ndarray,
    mask: int,
    y: int,
    u: int,
    P: int,
    allowed: int,
    Wa: np.ndarray,
    w: np.ndarray,
    vals: np.ndarray,
    off: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    ovals: np.ndarray,
    ooff: np.ndarray,
    olo: np.ndarray,
    ohi: np.ndarray,
    alpha: float,
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
    add: np.ndarray,
    sub: np.ndarray,
    nsub: np.ndarray,
    choice: np.ndarray,
) -> None:
    """Plan a turn for the win: ``F[r]`` the win value of final roll ``r`` (its best box),
    ``E[j, k]`` the value of keeping ``k`` with ``j`` rolls left (``j <= E.shape[0] - 1``;
    a full keep ``r`` stands on roll ``r`` with ``j - 1`` rolls left)."""
    n_rolls = score.shape[0]
    n_keeps = add.shape[0]
    _fill_cont(cont, mask, y, u, P, allowed, Wa, w, vals, off, lo, hi, ovals, ooff, olo, ohi,
               alpha, idx_of_mask, score, joker_pts, box_face, ybox, threshold)  # fmt: skip
    for r in range(n_rolls):
        F[r] = win_box(
            r, mask, y, u, P, allowed, cont, Wa, w, vals, off, lo, hi, ovals, ooff, olo, ohi,
            alpha, idx_of_mask, score,
            box_face, joker_pts, ybox, joker_mode, lower_bits, threshold, yatzy_face,
            lr_chance, choice,
        )  # fmt: skip
    sixth = 1.0 / 6.0
    top = E.shape[0] - 1
    for r in range(n_rolls):
        M[r] = F[r]  # standing on roll r with 0 rolls left
    for j in range(1, top + 1):
        ej = E[j]
        for r in range(n_rolls):
            ej[r] = M[r]
        for k in range(n_rolls, n_keeps):
            ej[k] = (
                ej[add[k, 0]]
                + ej[add[k, 1]]
                + ej[add[k, 2]]
                + ej[add[k, 3]]
                + ej[add[k, 4]]
                + ej[add[k, 5]]
            ) * sixth
        if j == top:
            break
        # M[k]: the best keep among k's sub-multisets (rolls: standing with j left).
        for k in range(n_keeps - 1, -1, -1):
            best = ej[k]
            for s in range(nsub[k]):
                o = M[sub[k, s]]
                if o > best:
                    best = o
            M[k] = best


@njit(cache=True, nogil=True)
def _keep_choice(el: np.ndarray, ks: np.ndarray, n: int) -> int:
    """The best subset of positions to keep (bits; all kept: stand), as the optimal
    kernel picks it (the fullest subset among equals, 1e-9)."""
    best_s = (1 << n) - 1
    best_v = -np.inf
    for s in range((1 << n) - 1, -1, -1):
        v = el[ks[s]]
        if v > best_v + 1e-9:
            best_v = v
            best_s = s
    return best_s


@njit(cache=True, nogil=True, error_model="numpy")
def head_to_head(
    seed: int,
    winner_on: bool,
    alpha: float,
    root: int,
    scores: np.ndarray,
    V: np.ndarray,
    mvals: np.ndarray,
    moff: np.ndarray,
    mlo: np.ndarray,
    mhi: np.ndarray,
    ovals: np.ndarray,
    ooff: np.ndarray,
    olo: np.ndarray,
    ohi: np.ndarray,
    L: int,
    idx_of_mask: np.ndarray,
    allowed_of_row: np.ndarray,
    score: np.ndarray,
    box_face: np.ndarray,
    joker_pts: np.ndarray,
    ybox: int,
    joker_mode: int,
    lower_bits: int,
    threshold: int,
    real_threshold: int,
    bonus: int,
    levels: int,
    lr_chance: int,
    add: np.ndarray,
    sub: np.ndarray,
    nsub: np.ndarray,
    yatzy_face: np.ndarray,
    rolls: np.ndarray,
    roll_of_code: np.ndarray,
    keep_of_subset: np.ndarray,
    score_t: np.ndarray,
) -> None:
    """Play ``scores.shape[0]`` two-player games from the open boxes ``root``.

    Game ``g``: the bot for the win sits in seat ``g % 2`` and seat 0 starts (the seat
    order alternates); ``scores[g, 0]`` is its final score, ``scores[g, 1]`` the
    optimal bot's.  Without ``winner_on`` both seats play the optimal bot (the
    control).  The optimal bot plays by ``V`` (the expected-value table); the bot for
    the win reads the opponent's row in the optimal-mode table ``o*`` and its own
    positions in the max-mode table ``m*`` (all on the layout ``idx_of_mask``).
    """
    np.random.seed(seed)
    n_rolls, n_boxes = score.shape
    n_keeps = add.shape[0]
    n = rolls.shape[1]
    E = np.empty((levels + 1, n_keeps), dtype=np.float64)
    RB = np.empty((levels + 1, n_rolls), dtype=np.float64)
    F = np.empty((1, n_rolls), dtype=np.float64)
    M = np.empty(n_keeps, dtype=np.float64)
    choice = np.zeros(3, dtype=np.int64)
    dice = np.empty(n, dtype=np.int64)
    max_points = 0
    for r in range(n_rolls):
        for b in range(n_boxes):
            max_points = max(max_points, score[r, b])
    for b in range(n_boxes):
        max_points = max(max_points, joker_pts[b])
    cont = np.empty((n_boxes, max_points + 1), dtype=np.float64)
    Wa = np.empty(L, dtype=np.float64)
    w = np.empty(L, dtype=np.float64)
    powers = np.array([7**i for i in range(6)], dtype=np.int64)
    masks = np.empty(2, dtype=np.int64)
    ys = np.empty(2, dtype=np.int64)
    us = np.empty(2, dtype=np.int64)
    pts_so_far = np.empty(2, dtype=np.int64)
    upper = np.empty(2, dtype=np.int64)
    two_y = V.shape[1] == 2
    for g in range(scores.shape[0]):
        win_seat = g % 2
        for s in range(2):
            masks[s] = root
            ys[s] = 0
            us[s] = 0
            pts_so_far[s] = 0
            upper[s] = 0
        for _turn in range(2 * n_boxes):
            seat = _turn % 2
            if masks[seat] == 0:
                continue
            mask = masks[seat]
            y = ys[seat]
            u = us[seat]
            row = idx_of_mask[mask]
            allowed = allowed_of_row[row]
            plays_win = winner_on and seat == win_seat
            if plays_win:
                o = 1 - seat
                ov = idx_of_mask[masks[o]]
                oy, ou = ys[o], us[o]
                two_player_wins(
                    Wa, ovals, ooff[ov, oy, ou], olo[ov, oy, ou], ohi[ov, oy, ou], pts_so_far[o]
                )
                win_weights(Wa, w)
                win_turn(
                    F[0], E, M, cont, mask, y, u, pts_so_far[seat], allowed, Wa, w, mvals,
                    moff, mlo, mhi, ovals, ooff, olo, ohi, alpha, idx_of_mask, score, box_face,
                    joker_pts, ybox, joker_mode, lower_bits, threshold, yatzy_face, lr_chance,
                    add, sub, nsub, choice,
                )  # fmt: skip
            else:
                turn_values(
                    E, RB, F, M, cont, mask, y, u, allowed, V, idx_of_mask, score, score_t,
                    box_face, joker_pts, ybox, joker_mode, lower_bits, threshold, yatzy_face,
                    lr_chance, 0, False, 0.0, 0.0, levels, add, sub, nsub, choice,
                )  # fmt: skip
            for i in range(n):
                dice[i] = np.random.randint(1, 7)
            dice.sort()
            r = roll_index(dice, roll_of_code, powers)
            for left in range(levels, 0, -1):
                best_s = _keep_choice(E[left], keep_of_subset[r], n)
                if best_s == (1 << n) - 1:
                    continue
                r = reroll(dice, rolls, r, best_s, roll_of_code, powers)
            if plays_win:
                win_box(
                    r, mask, y, u, pts_so_far[seat], allowed, cont, Wa, w, mvals, moff, mlo,
                    mhi, ovals, ooff, olo, ohi, alpha, idx_of_mask, score, box_face, joker_pts,
                    ybox, joker_mode, lower_bits, threshold, yatzy_face, lr_chance, choice,
                )  # fmt: skip
            else:
                best_box(
                    r, mask, y, u, allowed, V, idx_of_mask, score, box_face, joker_pts, ybox,
                    joker_mode, lower_bits, threshold, yatzy_face, lr_chance, choice,
                )  # fmt: skip
            b = choice[0]
            pts = choice[1]
            pts_so_far[seat] += pts + choice[2]
            if box_face[b] > 0:
                upper[seat] += pts
                us[seat] = min(u + pts, threshold)
            if b == ybox and two_y:
                ys[seat] = 1 if pts == 50 else 0
            masks[seat] = mask ^ (1 << b)
        for s in range(2):
            final = pts_so_far[s] + (bonus if bonus > 0 and upper[s] >= real_threshold else 0)
            scores[g, 0 if s == win_seat else 1] = final
