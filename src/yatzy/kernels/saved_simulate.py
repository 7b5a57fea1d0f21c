"""Numba kernel that plays Maxi games with saved rolls that accumulate, optimally.

The twin of :mod:`yatzy.kernels.simulate` for ``saved_rolls=all``: the table is
the compact one of :mod:`yatzy.solver.saved` (``flat``, ``off``, ``u0s``, ``nus``).
Each turn starts with ``s`` saved rolls and may throw ``3 + s`` times; the kernel
computes the stop values ``F[j, r]`` (the best box for roll ``r`` when a stop saves
``j`` rolls) and the keep values for every ``j`` up to ``2 + s``, then plays: with
``j`` rolls left it stops as soon as stopping is worth at least the best keep, and
the stop saves ``j``.  Maxi has no Yatzy bonus or joker; ``last_resort`` cuts the
boxes of a final roll as the game state does.
"""

from __future__ import annotations

import numpy as np

from yatzy.kernels.jit import njit

# isort: split
from yatzy.kernels.common import best_subkeeps, keep_means, reroll, roll_index


@njit(cache=True, nogil=True)
def _value(
    flat: np.ndarray,
    off: np.ndarray,
    u0s: np.ndarray,
    nus: np.ndarray,
    i: int,
    s: int,
    u: int,
) -> float:
    """The table's value of row ``i`` with ``s`` saved and upper sum ``u`` (capped)."""
    k = u - u0s[i]
    if k < 0:
        k = 0
    elif k >= nus[i]:
        k = nus[i] - 1
    v: float = flat[off[i] + s * nus[i] + k]
    return v


@njit(cache=True, nogil=True)
def _boxes_for(r: int, allowed: int, score: np.ndarray, lr_chance: int) -> int:
    """The boxes final roll ``r`` may fill (``last_resort`` cuts ``allowed``)."""
    if lr_chance < 0:
        return allowed
    scoring = 0
    for b in range(score.shape[1]):
        if (allowed >> b) & 1 and b != lr_chance and score[r, b] > 0:
            scoring |= 1 << b
    if scoring != 0:
        return scoring
    if (allowed >> lr_chance) & 1 and score[r, lr_chance] > 0:
        return 1 << lr_chance
    return allowed


@njit(cache=True, nogil=True)
def _stop_row(
    row: np.ndarray,
    cont: np.ndarray,
    mask: int,
    s: int,
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
) -> None:
    """``row[r]``: the best box for roll ``r``, the next state read with ``s`` saved."""
    n_rolls, n_boxes = score.shape
    max_points = cont.shape[1] - 1
    for b in range(n_boxes):
        if not (allowed >> b) & 1:
            continue
        nxt = idx_of_mask[mask ^ (1 << b)]
        for p in range(max_points + 1):
            nu = u
            if box_face[b] > 0:
                nu = min(u + p, threshold)
            cont[b, p] = p + _value(flat, off, u0s, nus, nxt, s, nu)
    for r in range(n_rolls):
        boxes = _boxes_for(r, allowed, score, lr_chance)
        best = -np.inf
        for b in range(n_boxes):
            if (boxes >> b) & 1:
                v = cont[b, score[r, b]]
                if v > best:
                    best = v
        row[r] = best


@njit(cache=True, nogil=True, error_model="numpy")
def play_games(
    seed: int,
    scores: np.ndarray,
    bonuses: np.ndarray,
    yatzys: np.ndarray,
    saved_end: np.ndarray,
    start_mask: int,
    start_upper: int,
    start_saved: int,
    flat: np.ndarray,
    off: np.ndarray,
    u0s: np.ndarray,
    nus: np.ndarray,
    idx_of_mask: np.ndarray,
    allowed_of_row: np.ndarray,
    score: np.ndarray,
    box_face: np.ndarray,
    yatzy_stat_box: int,
    threshold: int,
    real_threshold: int,
    bonus: int,
    lr_chance: int,
    add: np.ndarray,
    sub: np.ndarray,
    nsub: np.ndarray,
    rolls: np.ndarray,
    roll_of_code: np.ndarray,
    keep_of_subset: np.ndarray,
) -> None:
    """Play ``scores.shape[0]`` optimal games with dice seeded by ``seed``.

    Every game starts with the boxes of ``start_mask`` open, the upper sum
    ``start_upper`` and ``start_saved`` rolls saved (the whole game: every box open,
    0, 0); the points count from there, the upper bonus included whenever the upper
    sum ends at the threshold (as the solver's ``remaining``).  Writes each game's
    score, upper bonus (0/1), whether the Maxi-Yatzy box scored and the rolls still
    saved at the end (lost).
    """
    np.random.seed(seed)
    n_rolls, n_boxes = score.shape
    n_keeps = add.shape[0]
    n = rolls.shape[1]
    n_turns = 0
    for b in range(n_boxes):
        n_turns += (start_mask >> b) & 1
    most = 2 * n_boxes + 2  # the most rolls left after a turn's first roll
    E = np.empty((most + 1, n_keeps), dtype=np.float64)
    RB = np.empty((most + 1, n_rolls), dtype=np.float64)
    F = np.empty((most + 1, n_rolls), dtype=np.float64)
    M = np.empty(n_keeps, dtype=np.float64)
    dice = np.empty(n, dtype=np.int64)
    max_points = 0
    for r in range(n_rolls):
        for b in range(n_boxes):
            max_points = max(max_points, score[r, b])
    cont = np.empty((n_boxes, max_points + 1), dtype=np.float64)
    powers = np.array([7**i for i in range(6)], dtype=np.int64)
    first_E = np.empty_like(E)
    first_F = np.empty_like(F)
    have_first = False
    for g in range(scores.shape[0]):
        mask = start_mask
        saved = start_saved
        u = min(start_upper, threshold)
        upper_real = start_upper
        total = 0
        scored_yatzy = 0
        for _turn in range(n_turns):
            allowed = allowed_of_row[idx_of_mask[mask]]
            top = 2 + saved
            if _turn == 0 and have_first:
                # Every game starts in the same state: its tables are computed once.
                E[: top + 1] = first_E[: top + 1]
                F[: top + 1] = first_F[: top + 1]
            else:
                for j in range(top + 1):
                    _stop_row(
                        F[j],
                        cont,
                        mask,
                        j,
                        u,
                        allowed,
                        flat,
                        off,
                        u0s,
                        nus,
                        idx_of_mask,
                        score,
                        box_face,
                        threshold,
                        lr_chance,
                    )
                for r in range(n_rolls):
                    RB[0, r] = F[0, r]
                for j in range(1, top + 1):
                    ej = E[j]
                    prev = RB[j - 1]
                    keep_means(ej, prev, add, n_rolls)
                    if j == top:
                        break  # the best sub-keeps of the top level are never needed
                    best_subkeeps(M, ej, sub, nsub)
                    rbj = RB[j]
                    fj = F[j]
                    for r in range(n_rolls):
                        rbj[r] = M[r] if M[r] > fj[r] else fj[r]
                if _turn == 0:
                    first_E[: top + 1] = E[: top + 1]
                    first_F[: top + 1] = F[: top + 1]
                    have_first = True
            for i in range(n):
                dice[i] = np.random.randint(1, 7)
            dice.sort()
            r = roll_index(dice, roll_of_code, powers)
            stop_left = 0
            for left in range(top, 0, -1):
                best_s = (1 << n) - 1
                best_v = -np.inf
                el = E[left]
                ks = keep_of_subset[r]
                for s in range((1 << n) - 2, -1, -1):
                    v = el[ks[s]]
                    if v > best_v + 1e-9:
                        best_v = v
                        best_s = s
                if F[left, r] >= best_v - 1e-9:
                    stop_left = left
                    break
                r = reroll(dice, rolls, r, best_s, roll_of_code, powers)
            saved = stop_left
            # The box: the best one for the roll, the next state with ``saved``.
            boxes = _boxes_for(r, allowed, score, lr_chance)
            best_b = -1
            best_v = -np.inf
            for b in range(n_boxes):
                if not (boxes >> b) & 1:
                    continue
                pts = score[r, b]
                nu = u
                if box_face[b] > 0:
                    nu = min(u + pts, threshold)
                v = pts + _value(flat, off, u0s, nus, idx_of_mask[mask ^ (1 << b)], saved, nu)
                if v > best_v:
                    best_v = v
                    best_b = b
            pts = score[r, best_b]
            total += pts
            if box_face[best_b] > 0:
                upper_real += pts
                u = min(u + pts, threshold)
            if best_b == yatzy_stat_box and pts > 0:
                scored_yatzy = 1
            mask ^= 1 << best_b
        got_bonus = 1 if upper_real >= real_threshold and bonus > 0 else 0
        scores[g] = total + bonus * got_bonus
        bonuses[g] = got_bonus
        yatzys[g] = scored_yatzy
        saved_end[g] = saved
