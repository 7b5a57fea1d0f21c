"""numba helpers shared by the solver's and the strategy's kernels (defined once).

Two families, both over the keep tables of :func:`yatzy.solver._dice.dice_tables`
(rolls first, then keeps by decreasing size, so ``add`` points to lower indices and
``sub`` to higher ones):

- *lanes* (the solvers): a row per keep holds one value per lane (an upper sum, or a
  target ``k``); :func:`expect` takes the means over the next die and
  :func:`maximize` the best keep among each keep's sub-multisets, writing into
  arrays the caller allocates;
- *one state* (the players): :func:`keep_means` and :func:`best_subkeeps` do the same
  for one vector of keep values, :func:`best_box` picks the best box for a final roll
  against a value table, :func:`reroll` throws the dice not kept.

The rules of which boxes a final roll may fill (:func:`allowed_for_roll`,
:func:`last_resort_boxes`) are here once, so solving and playing can never disagree.
"""

from __future__ import annotations

import numpy as np

from yatzy.kernels.jit import njit

# isort: split
from yatzy.kernels.codes import JOKER_FORCED, JOKER_NONE, YATZY_BONUS

# -- int64 values ----------------------------------------------------------------------


@njit(cache=True, nogil=True, inline="always")
def int64(value: int) -> int:
    """``value`` as numba's ``int64``: a constant passed to a helper as is
    (``f(x, 0)``) is typed ``Literal[int](0)``, and numba compiles the helper once
    more for it; ``f(x, int64(0))`` shares the helper's one compile (issue 24: the
    solve kernel's compile on a fresh install)."""
    return np.int64(value)  # type: ignore[return-value]


# -- the boxes a final roll may fill ---------------------------------------------------


@njit(cache=True, nogil=True)
def allowed_for_roll(
    mask: int,
    allowed: int,
    face: int,
    ybox: int,
    joker_mode: int,
    lower_bits: int,
) -> int:
    """The boxes a roll may fill: the order rules' ``allowed``, cut by the forced joker."""
    if joker_mode != JOKER_FORCED or face == 0 or ybox < 0 or (mask >> ybox) & 1:
        return allowed
    upper_bit = face - 1
    if (mask >> upper_bit) & 1:
        want = 1 << upper_bit
    else:
        want = mask & lower_bits
        if want == 0:
            want = mask & 63
    cut = allowed & want
    return cut if cut != 0 else allowed


@njit(cache=True, nogil=True)
def last_resort_boxes(r: int, boxes: int, score: np.ndarray, lr_chance: int) -> int:
    """``last_resort``: the boxes of ``boxes`` that final roll ``r`` may fill."""
    if lr_chance < 0:
        return boxes
    scoring = 0
    for b in range(score.shape[1]):
        if (boxes >> b) & 1 and b != lr_chance and score[r, b] > 0:
            scoring |= 1 << b
    if scoring != 0:
        return scoring
    if (boxes >> lr_chance) & 1 and score[r, lr_chance] > 0:
        return 1 << lr_chance
    return boxes


@njit(cache=True, nogil=True)
def best_box(
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
    lr_chance: int,
    choice: np.ndarray,
) -> float:
    """The best value of final roll ``r``; ``choice`` gets (box, points, extra).

    ``y`` is the middle index of ``V`` for the next state (the Yatzy box's 50, or
    the rolls a stop carries with saved rolls).
    """
    n_boxes = score.shape[1]
    two_y = V.shape[1] == 2
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


# -- one state's keeps and dice ------------------------------------------------------


@njit(cache=True, nogil=True, inline="always")
def keep_means(ej: np.ndarray, prev: np.ndarray, add: np.ndarray, n_rolls: int) -> None:
    """One level of a turn's keep values: each roll worth ``prev`` (the level below),
    each smaller keep the mean of its six keeps with one die more (``add``)."""
    sixth = 1.0 / 6.0
    for r in range(n_rolls):
        ej[r] = prev[r]
    for k in range(n_rolls, add.shape[0]):
        ej[k] = (
            ej[add[k, 0]]
            + ej[add[k, 1]]
            + ej[add[k, 2]]
            + ej[add[k, 3]]
            + ej[add[k, 4]]
            + ej[add[k, 5]]
        ) * sixth


@njit(cache=True, nogil=True, inline="always")
def best_subkeeps(M: np.ndarray, ej: np.ndarray, sub: np.ndarray, nsub: np.ndarray) -> None:
    """``M[k]``: the best value of keep ``k`` or any keep inside it (largest first)."""
    for k in range(sub.shape[0] - 1, -1, -1):
        best = ej[k]
        for s in range(nsub[k]):
            o = M[sub[k, s]]
            if o > best:
                best = o
        M[k] = best


@njit(cache=True, nogil=True)
def roll_index(dice: np.ndarray, roll_of_code: np.ndarray, powers: np.ndarray) -> int:
    """The index of the roll ``dice`` (faces 1-6): its face counts as a code
    (``powers[f - 1]`` per die showing ``f``) looked up in ``roll_of_code``."""
    code = 0
    for d in dice:
        code += powers[d - 1]
    index: int = roll_of_code[code]
    return index


@njit(cache=True, nogil=True)
def reroll(
    dice: np.ndarray,
    rolls: np.ndarray,
    r: int,
    keep_s: int,
    roll_of_code: np.ndarray,
    powers: np.ndarray,
) -> int:
    """Keep the dice of roll ``r`` in the subset ``keep_s`` (bit i: position i), roll
    the others into ``dice`` (sorted) and return the new roll's index."""
    n = dice.shape[0]
    m = 0
    for i in range(n):
        if (keep_s >> i) & 1:
            dice[m] = rolls[r, i]
            m += 1
    for i in range(m, n):
        dice[i] = np.random.randint(1, 7)
    dice.sort()
    return roll_index(dice, roll_of_code, powers)


# -- lanes: the solvers' rows ---------------------------------------------------------
#
# Maxima: a loop that writes a row it also reads (``row[l] = max(row[l], v)``)
# compiles to masked stores, very slow on AMD processors, so every maximum writes a
# row it does not read (see the note in :mod:`yatzy.kernels.final`).


@njit(cache=True, nogil=True)
def mean_rows(
    A: np.ndarray, X: np.ndarray, add: np.ndarray, start: int, stop: int, lanes: int
) -> None:
    """``A[k]`` for ``start <= k < stop``: the mean of the six rows ``X[add[k]]``."""
    # Divide by 6 rather than multiply by a rounded 1/6: in float32 the rounded
    # factor biases every level the same way and the error grows to ~1e-3 points.
    six = A.dtype.type(6.0)
    for k in range(start, stop):
        k0 = add[k, 0]
        k1 = add[k, 1]
        k2 = add[k, 2]
        k3 = add[k, 3]
        k4 = add[k, 4]
        k5 = add[k, 5]
        for lane in range(lanes):
            A[k, lane] = (
                X[k0, lane] + X[k1, lane] + X[k2, lane] + X[k3, lane] + X[k4, lane] + X[k5, lane]
            ) / six


@njit(cache=True, nogil=True)
def expect(A: np.ndarray, R: np.ndarray, add: np.ndarray, n_rolls: int, lanes: int) -> None:
    """Keeps of fewer dice (rows of ``A``): the mean over the next die of the keep one
    die larger.  The rolls' values are read from their rows in ``R`` (``A`` or ``B``).
    """
    # Keeps are sorted by size: those one die short of a roll (completed by rolls)
    # come first.
    n_keeps = A.shape[0]
    split = n_rolls
    while split < n_keeps and add[split, 0] < n_rolls:
        split += 1
    mean_rows(A, R, add, n_rolls, split, lanes)
    mean_rows(A, A, add, split, n_keeps, lanes)


@njit(cache=True, nogil=True)
def max_subs(
    X: np.ndarray,
    Y: np.ndarray,
    B: np.ndarray,
    sub: np.ndarray,
    nsub: np.ndarray,
    start: int,
    stop: int,
    lanes: int,
) -> None:
    """``Y[k]`` for ``k`` from ``start - 1`` down to ``stop``: max of ``X[k]`` and ``B[sub[k]]``.

    ``B`` has two spare rows past the keeps (``B[n_keeps]``, ``B[n_keeps + 1]``) that
    carry the running maximum of a keep with three or more sub-keeps.
    """
    n_keeps = sub.shape[0]
    for k in range(start - 1, stop - 1, -1):
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
        for lane in range(lanes):
            a = X[k, lane]
            b = B[s0, lane]
            B[n_keeps, lane] = b if b > a else a
        src = n_keeps
        for j in range(1, ns - 1):
            dst = n_keeps + (j % 2)
            s = sub[k, j]
            for lane in range(lanes):
                a = B[src, lane]
                b = B[s, lane]
                B[dst, lane] = b if b > a else a
            src = dst
        s = sub[k, ns - 1]
        for lane in range(lanes):
            a = B[src, lane]
            b = B[s, lane]
            Y[k, lane] = b if b > a else a


@njit(cache=True, nogil=True)
def maximize(
    A: np.ndarray,
    R: np.ndarray,
    B: np.ndarray,
    R_out: np.ndarray,
    sub: np.ndarray,
    nsub: np.ndarray,
    n_rolls: int,
    lanes: int,
) -> None:
    """Every keep becomes the best keep among its sub-multisets (rolls: ``R`` to ``R_out``)."""
    max_subs(A, B, B, sub, nsub, A.shape[0], n_rolls, lanes)
    max_subs(R, R_out, B, sub, nsub, n_rolls, int64(0), lanes)  # int64: one compile


@njit(cache=True, nogil=True)
def mean_of_rolls(
    R: np.ndarray, out: np.ndarray, at: int, roll_prob: np.ndarray, lanes: int
) -> None:
    """``out[at:at + lanes]``: the mean of the roll rows of ``R`` (the first roll)."""
    for lane in range(lanes):
        out[at + lane] = 0.0
    for r in range(roll_prob.shape[0]):
        p = roll_prob[r]
        for lane in range(lanes):
            out[at + lane] += p * R[r, lane]
