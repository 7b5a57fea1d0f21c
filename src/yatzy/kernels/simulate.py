"""Numba kernels that play whole games optimally from a solved value table.

The kernel plays solitaire games with the exact optimal strategy of the solver's
table ``V[row, y, u]`` (expected points still to come between turns; see
:mod:`yatzy.solver`): each turn it computes the within-turn values of the state,
keeps the dice of the best keep of the roll on the table and finally fills the best
box.  It writes each game's final score, whether it earned the upper bonus and
whether it scored the Yatzy box into arrays the caller allocates.

Dice are kept as sorted faces; a roll's index comes from its face counts
(``roll_of_code``), a keep of it from the roll and a bit mask of positions
(``keep_of_subset``).

``saved_rolls=next`` (``saved`` = 2): the middle index of ``V`` is the number of
rolls carried into a turn; a stop with ``j`` rolls left carries ``min(j, saved)``, so
the kernel keeps one row of final values per carried count and stops as soon as
stopping is worth at least the best keep.  ``last_resort`` (``lr_chance``, the Chance
box, else -1) cuts the boxes a final roll may fill as the game state does.
"""

from __future__ import annotations

import numpy as np

from yatzy.kernels.jit import njit

# isort: split
# The box rules of a final roll are the solver's own, so simulation and solving
# can never disagree about which boxes a roll may fill.
from yatzy.kernels.codes import JOKER_NONE
from yatzy.kernels.common import (
    best_box,
    best_subkeeps,
    keep_means,
    last_resort_boxes,
    reroll,
    roll_index,
)


@njit(cache=True, nogil=True)
def final_row(
    row: np.ndarray,
    cont: np.ndarray,
    mask: int,
    y: int,
    u: int,
    allowed: int,
    V: np.ndarray,
    idx_of_mask: np.ndarray,
    score: np.ndarray,
    score_t: np.ndarray,
    box_face: np.ndarray,
    joker_pts: np.ndarray,
    ybox: int,
    joker_mode: int,
    lower_bits: int,
    threshold: int,
    yatzy_face: np.ndarray,
    lr_chance: int,
    choice: np.ndarray,
) -> None:
    """``row[r]``: the value of the best box for final roll ``r`` (next states at ``y``).

    ``cont`` is scratch space: ``cont[b, p]`` the value of writing ``p`` in box ``b``.
    """
    n_rolls, n_boxes = score.shape
    max_points = cont.shape[1] - 1
    two_y = V.shape[1] == 2
    # Box by box: the value of what follows, per points written.
    for b in range(n_boxes):
        if not (allowed >> b) & 1:
            continue
        nxt = idx_of_mask[mask ^ (1 << b)]
        for p in range(max_points + 1):
            ny = y
            if b == ybox and two_y:
                ny = 1 if p == 50 else 0
            nu = u
            if box_face[b] > 0:
                nu = min(u + p, threshold)
            cont[b, p] = p + V[nxt, ny, nu]
    if lr_chance >= 0:
        # last_resort cuts the boxes roll by roll (rare rule sets: no vector loop).
        for r in range(n_rolls):
            boxes = last_resort_boxes(r, allowed, score, lr_chance)
            best = -np.inf
            for b in range(n_boxes):
                if (boxes >> b) & 1:
                    v = cont[b, score[r, b]]
                    if v > best:
                        best = v
            row[r] = best
        return
    for r in range(n_rolls):
        row[r] = -np.inf
    for b in range(n_boxes):
        if (allowed >> b) & 1:
            cb = cont[b]
            sb = score_t[b]
            for r in range(n_rolls):
                # An unconditional store: a conditional one becomes a masked
                # store, which is very slow on AMD processors.
                v = cb[sb[r]]
                a = row[r]
                row[r] = v if v > a else a
    if joker_mode != JOKER_NONE:
        for r in range(n_rolls):
            if yatzy_face[r] > 0:
                row[r] = best_box(
                    r,
                    mask,
                    y,
                    u,
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
                    choice,
                )


@njit(cache=True, nogil=True, error_model="numpy")
def play_games(
    seed: int,
    scores: np.ndarray,
    bonuses: np.ndarray,
    yatzys: np.ndarray,
    V: np.ndarray,
    idx_of_mask: np.ndarray,
    allowed_of_row: np.ndarray,
    score: np.ndarray,
    box_face: np.ndarray,
    joker_pts: np.ndarray,
    ybox: int,
    yatzy_stat_box: int,
    joker_mode: int,
    lower_bits: int,
    threshold: int,
    real_threshold: int,
    bonus: int,
    levels: int,
    saved: int,
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
    """Play ``scores.shape[0]`` optimal games with dice seeded by ``seed``.

    Index tables (``add``, ``sub``, ``keep_of_subset``, ``score_t``, the score table
    transposed) are unsigned, which spares every lookup the negative-index check.
    """
    np.random.seed(seed)
    n_rolls, n_boxes = score.shape
    n_keeps = add.shape[0]
    n = rolls.shape[1]
    full = (1 << n_boxes) - 1
    top = levels + saved  # the most rolls left after a turn's first roll
    E = np.empty((top + 1, n_keeps), dtype=np.float64)
    RB = np.empty((top + 1, n_rolls), dtype=np.float64)
    # F[c, r]: the best box for final roll r when the stop carries c rolls on.
    F = np.empty((saved + 1, n_rolls), dtype=np.float64)
    M = np.empty(n_keeps, dtype=np.float64)
    choice = np.zeros(3, dtype=np.int64)
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
        mask = full
        y = 0
        carried = 0
        u = 0
        upper_real = 0
        total = 0
        scored_yatzy = 0
        for _turn in range(n_boxes):
            allowed = allowed_of_row[idx_of_mask[mask]]
            if _turn == 0 and have_first:
                # Every game starts in the same state: its tables are computed once.
                E[:, :] = first_E
                F[:, :] = first_F
            else:
                # RB[j, r]: the value of standing on roll r with j rolls left;
                # E[j, k]: the value of keeping k with j rolls left (a full keep goes on
                # with the same dice and j - 1 rolls left).
                for c in range(saved + 1):
                    # With saved rolls the next state's middle index is the carry.
                    yc = c if saved > 0 else y
                    final_row(
                        F[c],
                        cont,
                        mask,
                        yc,
                        u,
                        allowed,
                        V,
                        idx_of_mask,
                        score,
                        score_t,
                        box_face,
                        joker_pts,
                        ybox,
                        joker_mode,
                        lower_bits,
                        threshold,
                        yatzy_face,
                        lr_chance,
                        choice,
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
                    if saved > 0:
                        # A stop with j rolls left carries min(j, saved) on.
                        fj = F[min(j, saved)]
                        for r in range(n_rolls):
                            rbj[r] = M[r] if M[r] > fj[r] else fj[r]
                    else:
                        for r in range(n_rolls):
                            rbj[r] = M[r]
                if _turn == 0:
                    first_E[:, :] = E
                    first_F[:, :] = F
                    have_first = True
            # Play the turn: first roll, then keeps.
            for i in range(n):
                dice[i] = np.random.randint(1, 7)
            dice.sort()
            r = roll_index(dice, roll_of_code, powers)
            stop_left = 0
            for left in range(levels + carried, 0, -1):
                best_s = (1 << n) - 1
                best_v = -np.inf
                el = E[left]
                ks = keep_of_subset[r]
                for s in range((1 << n) - 1, -1, -1):
                    if saved > 0 and s == (1 << n) - 1:
                        continue  # the whole roll kept is a stop, valued below
                    v = el[ks[s]]
                    if v > best_v + 1e-9:
                        best_v = v
                        best_s = s
                if saved > 0 and F[min(left, saved), r] >= best_v - 1e-9:
                    stop_left = left
                    break
                if best_s == (1 << n) - 1:
                    continue
                r = reroll(dice, rolls, r, best_s, roll_of_code, powers)
            if saved > 0:
                carried = min(stop_left, saved)
            best_box(
                r,
                mask,
                carried if saved > 0 else y,
                u,
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
                choice,
            )
            b = choice[0]
            pts = choice[1]
            total += pts + choice[2]
            if box_face[b] > 0:
                upper_real += pts
                u = min(u + pts, threshold)
            if b == ybox and V.shape[1] == 2:
                y = 1 if pts == 50 else 0
            if b == yatzy_stat_box and pts > 0:
                scored_yatzy = 1
            mask ^= 1 << b
        got_bonus = 1 if upper_real >= real_threshold and bonus > 0 else 0
        scores[g] = total + bonus * got_bonus
        bonuses[g] = got_bonus
        yatzys[g] = scored_yatzy
