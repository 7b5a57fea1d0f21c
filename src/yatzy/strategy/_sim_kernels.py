"""Numba kernels that play whole games optimally from a solved value table (private).

The kernel plays solitaire games with the exact optimal strategy of the solver's
table ``V[row, y, u]`` (expected points still to come between turns; see
:mod:`yatzy.solver`): each turn it computes the within-turn values of the state,
keeps the dice of the best keep of the roll on the table and finally fills the best
box.  It writes each game's final score, whether it earned the upper bonus and
whether it scored the Yatzy box into arrays the caller allocates.

Dice are kept as sorted faces; a roll's index comes from its face counts
(``roll_of_code``), a keep of it from the roll and a bit mask of positions
(``keep_of_subset``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

# The box rules of a final roll are the solver's own, so simulation and solving
# can never disagree about which boxes a roll may fill.
from yatzy.solver._codes import JOKER_NONE, YATZY_BONUS
from yatzy.solver._kernels import _allowed_for_roll


@njit(cache=True, nogil=True)
def _best_box(
    r: int,
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
    yatzy_face: np.ndarray,
    choice: np.ndarray,
) -> float:
    """The best value of final roll ``r``; ``choice`` gets (box, points, extra)."""
    n_boxes = score.shape[1]
    two_y = V.shape[1] == 2
    face = yatzy_face[r]
    joker = joker_mode != JOKER_NONE and face > 0 and ybox >= 0 and not (mask >> ybox) & 1
    boxes = _allowed_for_roll(mask, allowed, face, ybox, joker_mode, lower_bits)
    extra = YATZY_BONUS if joker and y == 1 else 0
    best = -np.inf
    for b in range(n_boxes):
        if not (boxes >> b) & 1:
            continue
        pts = score[r, b]
        if joker and joker_pts[b] > 0 and not (mask >> (face - 1)) & 1:
            pts = joker_pts[b]
        ny = y
        if b == ybox and two_y:
            ny = 1 if pts == 50 else 0
        nu = u
        if box_face[b] > 0:
            nu = min(u + pts, threshold)
        v = pts + extra + V[idx_of_mask[mask ^ (1 << b)], ny, nu]
        if v > best:
            best = v
            choice[0] = b
            choice[1] = pts
            choice[2] = extra
    return best


@njit(cache=True, nogil=True)
def _roll_index(dice: np.ndarray, roll_of_code: np.ndarray, powers: np.ndarray) -> int:
    code = 0
    for d in dice:
        code += powers[d - 1]
    index: int = roll_of_code[code]
    return index


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
    E = np.empty((levels + 1, n_keeps), dtype=np.float64)
    RB = np.empty((levels + 1, n_rolls), dtype=np.float64)
    M = np.empty(n_keeps, dtype=np.float64)
    choice = np.zeros(3, dtype=np.int64)
    dice = np.empty(n, dtype=np.int64)
    max_points = 0
    for r in range(n_rolls):
        for b in range(n_boxes):
            max_points = max(max_points, score[r, b])
    cont = np.empty((n_boxes, max_points + 1), dtype=np.float64)
    two_y = V.shape[1] == 2
    powers = np.array([7**i for i in range(6)], dtype=np.int64)
    sixth = 1.0 / 6.0
    first_E = np.empty_like(E)
    have_first = False
    for g in range(scores.shape[0]):
        mask = full
        y = 0
        u = 0
        upper_real = 0
        total = 0
        scored_yatzy = 0
        for _turn in range(n_boxes):
            allowed = allowed_of_row[idx_of_mask[mask]]
            if _turn == 0 and have_first:
                # Every game starts in the same state: its tables are computed once.
                E[:, :] = first_E
            else:
                # RB[j, r]: the value of standing on roll r with j rolls left;
                # E[j, k]: the value of keeping k with j rolls left (a full keep goes on
                # with the same dice and j - 1 rolls left).
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
                for r in range(n_rolls):
                    RB[0, r] = -np.inf
                row0 = RB[0]
                for b in range(n_boxes):
                    if (allowed >> b) & 1:
                        cb = cont[b]
                        sb = score_t[b]
                        for r in range(n_rolls):
                            # An unconditional store: a conditional one becomes a masked
                            # store, which is very slow on AMD processors.
                            v = cb[sb[r]]
                            a = row0[r]
                            row0[r] = v if v > a else a
                if joker_mode != JOKER_NONE:
                    for r in range(n_rolls):
                        if yatzy_face[r] > 0:
                            row0[r] = _best_box(
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
                                choice,
                            )
                for j in range(1, levels + 1):
                    ej = E[j]
                    prev = RB[j - 1]
                    for r in range(n_rolls):
                        ej[r] = prev[r]
                    for k in range(n_rolls, n_keeps):
                        ej[k] = (
                            ej[add[k, 0]]
                            + ej[add[k, 1]]
                            + ej[add[k, 2]]
                            + ej[add[k, 3]]
                            + ej[add[k, 4]]
                            + ej[add[k, 5]]
                        ) * sixth
                    if j == levels:
                        break  # the best sub-keeps of the top level are never needed
                    for k in range(n_keeps - 1, -1, -1):
                        best = ej[k]
                        for s in range(nsub[k]):
                            o = M[sub[k, s]]
                            if o > best:
                                best = o
                        M[k] = best
                    rbj = RB[j]
                    for r in range(n_rolls):
                        rbj[r] = M[r]
                if _turn == 0:
                    first_E[:, :] = E
                    have_first = True
            # Play the turn: first roll, then keeps.
            for i in range(n):
                dice[i] = np.random.randint(1, 7)
            dice.sort()
            r = _roll_index(dice, roll_of_code, powers)
            for left in range(levels, 0, -1):
                best_s = (1 << n) - 1
                best_v = -np.inf
                el = E[left]
                ks = keep_of_subset[r]
                for s in range((1 << n) - 1, -1, -1):
                    v = el[ks[s]]
                    if v > best_v + 1e-9:
                        best_v = v
                        best_s = s
                if best_s == (1 << n) - 1:
                    continue
                m = 0
                for i in range(n):
                    if (best_s >> i) & 1:
                        dice[m] = rolls[r, i]
                        m += 1
                for i in range(m, n):
                    dice[i] = np.random.randint(1, 7)
                dice.sort()
                r = _roll_index(dice, roll_of_code, powers)
            _best_box(
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
