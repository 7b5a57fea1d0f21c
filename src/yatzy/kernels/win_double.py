"""Numba kernel that plays the rest of a DubbelYatzy sheet from any position.

The twin of :mod:`yatzy.kernels.win` for double dice, for the live win
chances (:mod:`yatzy.strategy.win_chance`): it plays the approximate strategy of
:class:`yatzy.strategy.approx.ApproxStrategy` (people, the optimal bot, and the skill
levels by the softmax over its options) or the greedy bot
(:class:`yatzy.strategy.greedy.GreedyStrategy`), free order only, and writes each
game's points still to come into an array the caller allocates.
"""

from __future__ import annotations

import numpy as np

from yatzy.kernels.jit import njit

# isort: split
from yatzy.kernels.common import best_subkeeps, keep_means
from yatzy.kernels.win import MODE_SOFTMAX


@njit(cache=True, nogil=True)
def _future(
    mask: int,
    u: int,
    V: np.ndarray,
    row_of_pmask: np.ndarray,
    to_proxy: np.ndarray,
    extra_box: int,
    extra_value: float,
    threshold: int,
) -> float:
    """The approximate strategy's value of the points still to come: the nearest
    solvable rule set's table of the open boxes other than Extra, plus a constant
    while Extra is open; NaN where that table has no such state (an order's gap)."""
    pm = 0
    for b in range(to_proxy.shape[0]):
        if (mask >> b) & 1 and to_proxy[b] >= 0:
            pm |= 1 << to_proxy[b]
    row = row_of_pmask[pm]
    if row < 0:
        return np.nan
    v: float = V[row, 0, min(u, threshold)]
    if extra_box >= 0 and (mask >> extra_box) & 1:
        v += extra_value
    return v


@njit(cache=True, nogil=True)
def _future_pm(
    pm: int,
    extra_open: bool,
    u: int,
    V: np.ndarray,
    row_of_pmask: np.ndarray,
    extra_value: float,
    threshold: int,
) -> float:
    """:func:`_future` with the proxy's mask ``pm`` at hand (the inner loop's)."""
    row = row_of_pmask[pm]
    if row < 0:
        return np.nan
    v: float = V[row, 0, min(u, threshold)]
    if extra_open:
        v += extra_value
    return v


@njit(cache=True, nogil=True)
def _layer_index(faces: np.ndarray, roll_of_code: np.ndarray, powers: np.ndarray) -> int:
    code = 0
    for d in faces:
        code += powers[d - 1]
    index: int = roll_of_code[code]
    return index


@njit(cache=True, nogil=True, error_model="numpy")
def play_double_from(
    seed: int,
    out: np.ndarray,
    start_mask: int,
    start_u: int,
    start_upper: int,
    bonus_won: bool,
    start_outer: np.ndarray,
    start_inner: np.ndarray,
    start_left: int,
    mode: int,
    temperature: float,
    score: np.ndarray,
    box_face: np.ndarray,
    scratch_bits: int,
    threshold: int,
    real_threshold: int,
    bonus: int,
    levels: int,
    V: np.ndarray,
    row_of_pmask: np.ndarray,
    to_proxy: np.ndarray,
    extra_box: int,
    extra_value: float,
    add: np.ndarray,
    sub: np.ndarray,
    nsub: np.ndarray,
    rolls: np.ndarray,
    roll_of_code: np.ndarray,
    subsets: np.ndarray,
    greedy: bool,
    tie: np.ndarray,
) -> None:
    """Play ``out.shape[0]`` rests of a DubbelYatzy sheet (free order) with the
    approximate strategy of :class:`yatzy.strategy.approx.ApproxStrategy` (argmax, or
    softmax at ``temperature``); ``out[g]`` gets the points game ``g`` adds to the
    final score (Extra and the upper bonus included).

    With ``greedy`` it plays :class:`yatzy.strategy.greedy.GreedyStrategy` instead: no
    future (a layer's final roll is worth its best box's points), a pair of results
    its points and the upper bonus it completes, equal gains to the boxes that can
    score the least (``tie``), and it rolls only for a keep worth more than the best
    pair now.

    Each turn: ``here`` is the future of the state, ``margin[b, p]`` what writing
    ``p`` in box ``b`` alone does to it, and a layer's final roll is worth its best
    box's points plus that margin; the layers' within-turn values ``E[j, k]`` come
    from those.  A keep of double dice is worth ``here`` plus the two layers' values
    of their kept faces; a pair of results ``(a, b)`` its points plus the future
    after both.  ``subsets`` lists the keeps' die positions in the order of the
    game's legal actions (ties go to the first option, as the advisor's).  ``start_outer``
    and ``start_inner`` hold the dice on the table (0: still rolling) when
    ``start_left`` >= 0.
    """
    np.random.seed(seed)
    n_rolls, n_boxes = score.shape
    n_keeps = add.shape[0]
    n = rolls.shape[1]
    E = np.empty((levels + 1, n_keeps), dtype=np.float64)
    RB = np.empty((levels + 1, n_rolls), dtype=np.float64)
    M = np.empty(n_keeps, dtype=np.float64)
    max_points = 0
    for r in range(n_rolls):
        for b in range(n_boxes):
            max_points = max(max_points, score[r, b])
    margin = np.zeros((n_boxes, max_points + 1), dtype=np.float64)
    powers = np.array([7**i for i in range(6)], dtype=np.int64)
    outer = np.empty(n, dtype=np.int64)
    inner = np.empty(n, dtype=np.int64)
    faces = np.empty(n, dtype=np.int64)
    n_pairs = n_boxes * n_boxes * 4
    opt_v = np.empty(n_pairs + subsets.shape[0], dtype=np.float64)
    opt_a = np.empty(n_pairs + subsets.shape[0], dtype=np.int64)
    opt_b = np.empty(n_pairs + subsets.shape[0], dtype=np.int64)
    opt_pa = np.empty(n_pairs + subsets.shape[0], dtype=np.int64)
    opt_pb = np.empty(n_pairs + subsets.shape[0], dtype=np.int64)
    codes = np.empty(subsets.shape[0], dtype=np.int64)
    pair_codes = np.empty(n, dtype=np.int64)
    first_E = np.empty_like(E)
    first_here = 0.0
    have_first = False
    for g in range(out.shape[0]):
        mask = start_mask
        u = start_u
        upper_real = start_upper
        total = 0
        first = True
        while mask != 0:
            if first and have_first:
                E[:, :] = first_E
                here = first_here
            else:
                here = 0.0
                if not greedy:
                    here = _future(
                        mask, u, V, row_of_pmask, to_proxy, extra_box, extra_value, threshold
                    )
                for b in range(n_boxes):
                    if greedy or not (mask >> b) & 1:
                        continue
                    top_p = max_points if box_face[b] > 0 else 0
                    for p in range(top_p + 1):
                        nu = min(u + p, threshold) if box_face[b] > 0 else u
                        after = _future(
                            mask ^ (1 << b), nu, V, row_of_pmask, to_proxy, extra_box,
                            extra_value, threshold,
                        )  # fmt: skip
                        margin[b, p] = 0.0 if np.isnan(after) else after - here
                for r in range(n_rolls):
                    best = -np.inf
                    for b in range(n_boxes):
                        if (mask >> b) & 1:
                            pts = score[r, b]
                            v = pts if greedy else pts + margin[b, pts if box_face[b] > 0 else 0]
                            if v > best:
                                best = v
                    RB[0, r] = best
                for j in range(1, levels + 1):
                    ej = E[j]
                    prev = RB[j - 1]
                    keep_means(ej, prev, add, n_rolls)
                    if j == levels:
                        break
                    best_subkeeps(M, ej, sub, nsub)
                    for r in range(n_rolls):
                        RB[j, r] = M[r]
                if first:
                    first_E[:, :] = E
                    first_here = here
                    have_first = True
            if first and start_left >= 0:
                for i in range(n):
                    o = start_outer[i]
                    outer[i] = o if o > 0 else np.random.randint(1, 7)
                    d = start_inner[i]
                    inner[i] = d if d > 0 else np.random.randint(1, 7)
                left = start_left
            else:
                for i in range(n):
                    outer[i] = np.random.randint(1, 7)
                    inner[i] = np.random.randint(1, 7)
                left = levels
            first = False
            while True:
                for i in range(n):
                    faces[i] = outer[i]
                faces.sort()
                r_out = _layer_index(faces, roll_of_code, powers)
                for i in range(n):
                    faces[i] = inner[i]
                faces.sort()
                r_in = _layer_index(faces, roll_of_code, powers)
                # The pairs of results: inner in box a, outer in box b.
                count = 0
                pm = 0
                for b in range(n_boxes):
                    if (mask >> b) & 1 and to_proxy[b] >= 0:
                        pm |= 1 << to_proxy[b]
                for a in range(n_boxes):
                    if not (mask >> a) & 1:
                        continue
                    pa0 = score[r_in, a]
                    for b in range(n_boxes):
                        if b == a or not (mask >> b) & 1:
                            continue
                        pb0 = score[r_out, b]
                        for ea in range(2):
                            if not _entry_kind(ea, pa0, (scratch_bits >> a) & 1 == 1, greedy):
                                continue
                            pa = pa0 if ea == 0 else 0
                            for eb in range(2):
                                if not _entry_kind(eb, pb0, (scratch_bits >> b) & 1 == 1, greedy):
                                    continue
                                pb = pb0 if eb == 0 else 0
                                up = 0
                                if box_face[a] > 0:
                                    up += pa
                                if box_face[b] > 0:
                                    up += pb
                                if greedy:
                                    gain = pa + pb
                                    if upper_real < real_threshold <= upper_real + up:
                                        gain += bonus
                                    opt_v[count] = gain
                                    opt_a[count] = a
                                    opt_b[count] = b
                                    opt_pa[count] = pa
                                    opt_pb[count] = pb
                                    count += 1
                                    continue
                                pm2 = pm
                                if to_proxy[a] >= 0:
                                    pm2 ^= 1 << to_proxy[a]
                                if to_proxy[b] >= 0:
                                    pm2 ^= 1 << to_proxy[b]
                                extra_open = bool(
                                    extra_box >= 0
                                    and (mask >> extra_box) & 1
                                    and a != extra_box
                                    and b != extra_box
                                )
                                after = _future_pm(
                                    pm2, extra_open, min(u + up, threshold), V, row_of_pmask,
                                    extra_value, threshold,
                                )  # fmt: skip
                                opt_v[count] = pa + pb + after
                                opt_a[count] = a
                                opt_b[count] = b
                                opt_pa[count] = pa
                                opt_pb[count] = pb
                                count += 1
                writes = count
                if left > 0:
                    seen = 0
                    el = E[left]
                    for q in range(subsets.shape[0]):
                        s = subsets[q]
                        m = 0
                        for i in range(n):
                            if (s >> i) & 1:
                                pair_codes[m] = outer[i] * 8 + inner[i]
                                m += 1
                        pc = pair_codes[:m]
                        pc.sort()
                        code = 0
                        for i in range(m):
                            code = code * 64 + pc[i]
                        code = code * 8 + m
                        dup = False
                        for i in range(seen):
                            if codes[i] == code:
                                dup = True
                                break
                        if dup:
                            continue
                        codes[seen] = code
                        seen += 1
                        m = 0
                        for i in range(n):
                            if (s >> i) & 1:
                                faces[m] = outer[i]
                                m += 1
                        k_out = _kept_index(faces[:m], add, n_keeps)
                        m = 0
                        for i in range(n):
                            if (s >> i) & 1:
                                faces[m] = inner[i]
                                m += 1
                        k_in = _kept_index(faces[:m], add, n_keeps)
                        opt_v[count] = here + el[k_out] + el[k_in]
                        opt_a[count] = s
                        count += 1
                pick = 0
                if greedy:
                    # The pair that adds the most (ties: the boxes that can score least),
                    # then a keep only if it is worth more than that.
                    for i in range(1, writes):
                        a_i = opt_v[i]
                        a_p = opt_v[pick]
                        if a_i > a_p or (
                            a_i == a_p
                            and tie[opt_a[i]] + tie[opt_b[i]] < tie[opt_a[pick]] + tie[opt_b[pick]]
                        ):
                            pick = i
                    best_keep = -1
                    for i in range(writes, count):
                        if best_keep < 0 or opt_v[i] > opt_v[best_keep] + 1e-9:
                            best_keep = i
                    if best_keep >= 0 and opt_v[best_keep] > opt_v[pick] + 1e-9:
                        pick = best_keep
                elif mode == MODE_SOFTMAX:
                    best_v = -np.inf
                    for i in range(count):
                        if opt_v[i] > best_v:
                            best_v = opt_v[i]
                    weight = 0.0
                    for i in range(count):
                        w = np.exp((opt_v[i] - best_v) / temperature)
                        opt_v[i] = w
                        weight += w
                    x = np.random.random() * weight
                    pick = count - 1
                    acc = 0.0
                    for i in range(count):
                        acc += opt_v[i]
                        if x < acc:
                            pick = i
                            break
                else:
                    for i in range(1, count):
                        if opt_v[i] > opt_v[pick]:
                            pick = i
                if pick < writes:
                    a = opt_a[pick]
                    b = opt_b[pick]
                    pa = opt_pa[pick]
                    pb = opt_pb[pick]
                    total += pa + pb
                    if box_face[a] > 0:
                        upper_real += pa
                        u = min(u + pa, threshold)
                    if box_face[b] > 0:
                        upper_real += pb
                        u = min(u + pb, threshold)
                    mask ^= (1 << a) | (1 << b)
                    break
                s = opt_a[pick]
                for i in range(n):
                    if not (s >> i) & 1:
                        outer[i] = np.random.randint(1, 7)
                        inner[i] = np.random.randint(1, 7)
                left -= 1
        if bonus > 0 and not bonus_won and upper_real >= real_threshold:
            total += bonus
        out[g] = total


@njit(cache=True, nogil=True)
def _entry_kind(kind: int, points: int, scratchable: bool, greedy: bool) -> bool:
    """Whether a result of ``points`` in a box is listed as a score (``kind`` 0) or a
    scratch (1): as :func:`yatzy.strategy.approx._entries` lists them, or with
    ``greedy`` as :func:`yatzy.strategy.greedy._entry_kinds` (a 0 only scratched)."""
    if greedy and scratchable and points <= 0:
        return kind == 1 or points < 0
    if kind == 0:
        return points != 0 or not scratchable
    return scratchable and points <= 0


@njit(cache=True, nogil=True)
def _kept_index(kept: np.ndarray, add: np.ndarray, n_keeps: int) -> int:
    """The keep index of the faces ``kept`` (any order, fewer than all the dice):
    from the empty keep (the last index) one die at a time through ``add``."""
    k: int = n_keeps - 1
    for i in range(kept.shape[0]):
        k = add[k, kept[i] - 1]
    return k
