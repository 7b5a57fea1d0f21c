"""Numba kernel that plays one player's rest of a game from any position.

The live win chances (:mod:`yatzy.strategy.win_chance`) need, for every player, the
distribution of the points still to come under that player's level.  This kernel
samples it: it starts from a position between turns (open boxes, upper sum, the
Yatzy box's 50 or the rolls carried into the turn) or within the turn of the player
to act (the dice on the table, a 0 for a die still rolling, and the rolls left) and
plays to the end of the sheet with one of three policies:

- ``MODE_ARGMAX``: the best option by the table ``V``; with the solver's table this
  is the optimal bot and a person (ties as :mod:`yatzy.kernels.simulate`), with
  a table that holds only the upper bonus it is the greedy bot (``tie`` ranks equal
  boxes as :mod:`yatzy.strategy.greedy` does: the box that can score the least);
- ``MODE_SOFTMAX``: the skill levels, option ``i`` with probability proportional to
  ``exp(-loss_i / temperature)`` over the advisor's options (every distinct keep of
  fewer than all dice, every box with its points and, where a 0 is allowed, the
  scratch of a box that would score);
- ``MODE_RANDOM``: uniform over the game state's legal actions (every subset of
  positions to keep but all, every allowed box scored, and scratched where allowed).

It writes each game's points still to come (boxes, Yatzy bonuses, the upper bonus
when the game reaches it) into an array the caller allocates.  The rules of a final
roll (order, forced joker, ``last_resort``) are the solver's own functions.
"""

from __future__ import annotations

import numpy as np

from yatzy.kernels.jit import njit

# isort: split
from yatzy.kernels.codes import JOKER_NONE, YATZY_BONUS
from yatzy.kernels.common import (
    allowed_for_roll,
    best_subkeeps,
    keep_means,
    last_resort_boxes,
    reroll,
    roll_index,
)
from yatzy.kernels.simulate import final_row

MODE_ARGMAX = 0
MODE_SOFTMAX = 1
MODE_RANDOM = 2

BONUS_BIT = 62
"""The bit of ``play_from``'s ``boxes_out`` that says the upper bonus was reached."""


@njit(cache=True, nogil=True)
def turn_values(
    E: np.ndarray,
    RB: np.ndarray,
    F: np.ndarray,
    M: np.ndarray,
    cont: np.ndarray,
    mask: int,
    y: int,
    u: int,
    allowed: int,
    V: np.ndarray,
    row_of_mask: np.ndarray,
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
    saved: int,
    carry_all: bool,
    stop_value: float,
    stop_limit: float,
    top: int,
    add: np.ndarray,
    sub: np.ndarray,
    nsub: np.ndarray,
    choice: np.ndarray,
) -> None:
    """The within-turn values of a state up to ``top`` rolls left, as
    :func:`yatzy.kernels.simulate.play_games` computes them: ``F[c, r]`` the best box for final
    roll ``r`` (a stop carrying ``c`` rolls with ``saved_rolls=next``), ``E[j, k]`` the
    value of keeping ``k`` with ``j`` rolls left.  With ``carry_all`` (saved rolls that
    accumulate, the approximate strategy) a stop with ``j`` rolls left is worth
    ``F[0, r] + stop_value * min(j, stop_limit)``."""
    n_rolls = score.shape[0]
    if carry_all:
        saved = 0
    for c in range(saved + 1):
        yc = c if saved > 0 else y
        final_row(
            F[c], cont, mask, yc, u, allowed, V, row_of_mask, score, score_t, box_face,
            joker_pts, ybox, joker_mode, lower_bits, threshold, yatzy_face, lr_chance, choice,
        )  # fmt: skip
    for r in range(n_rolls):
        RB[0, r] = F[0, r]
    for j in range(1, top + 1):
        ej = E[j]
        prev = RB[j - 1]
        keep_means(ej, prev, add, n_rolls)
        if j == top:
            break
        best_subkeeps(M, ej, sub, nsub)
        rbj = RB[j]
        if carry_all:
            f0 = F[0]
            worth = stop_value * min(float(j), stop_limit)
            for r in range(n_rolls):
                stop = f0[r] + worth
                rbj[r] = M[r] if M[r] > stop else stop
        elif saved > 0:
            fj = F[min(j, saved)]
            for r in range(n_rolls):
                rbj[r] = M[r] if M[r] > fj[r] else fj[r]
        else:
            for r in range(n_rolls):
                rbj[r] = M[r]


@njit(cache=True, nogil=True)
def _write_options(
    r: int,
    mask: int,
    y: int,
    u: int,
    allowed: int,
    with_values: bool,
    scratch_bits: int,
    V: np.ndarray,
    row_of_mask: np.ndarray,
    score: np.ndarray,
    box_face: np.ndarray,
    joker_pts: np.ndarray,
    ybox: int,
    joker_mode: int,
    lower_bits: int,
    threshold: int,
    yatzy_face: np.ndarray,
    lr_chance: int,
    opt_v: np.ndarray,
    opt_box: np.ndarray,
    opt_pts: np.ndarray,
    start: int,
    every_score: bool,
    add_value: float,
) -> int:
    """The writes final roll ``r`` allows, from slot ``start`` on; returns the count.

    Each is a box with its points (``opt_pts``) and, with ``with_values``, its value
    by ``V`` (``y`` is the next state's middle index).  A box that would score gets a
    second entry with 0 (its scratch) where a 0 is allowed and the box may be
    scratched; ``every_score`` also lists a scratch beside a Score of 0, as the
    game's legal actions do (the advisor counts those once).  ``add_value`` is added
    to every value (the rolls a stop saves, with saved rolls that accumulate).
    """
    n_boxes = score.shape[1]
    two_y = V.shape[1] == 2
    face = yatzy_face[r]
    joker = joker_mode != JOKER_NONE and face > 0 and ybox >= 0 and not (mask >> ybox) & 1
    boxes = allowed_for_roll(mask, allowed, face, ybox, joker_mode, lower_bits)
    cut = last_resort_boxes(r, boxes, score, lr_chance)
    zero_ok = True
    if lr_chance >= 0:
        for b in range(n_boxes):
            if (boxes >> b) & 1 and score[r, b] > 0:
                zero_ok = False
    extra = YATZY_BONUS if joker and y == 1 else 0
    count = start
    for b in range(n_boxes):
        if not (cut >> b) & 1:
            continue
        pts = score[r, b]
        if joker and joker_pts[b] > 0 and not (mask >> (face - 1)) & 1:
            pts = joker_pts[b]
        writes = 1
        if zero_ok and (scratch_bits >> b) & 1 and (pts > 0 or every_score):
            writes = 2  # the box's scratch beside its score
        for w in range(writes):
            p = pts if w == 0 else 0
            opt_box[count] = b
            opt_pts[count] = p
            if with_values:
                ny = y
                if b == ybox and two_y:
                    ny = 1 if p == 50 else 0
                nu = u
                if box_face[b] > 0:
                    nu = min(u + p, threshold)
                opt_v[count] = p + extra + add_value + V[row_of_mask[mask ^ (1 << b)], ny, nu]
            count += 1
    return count


@njit(cache=True, nogil=True, error_model="numpy")
def play_from(
    seed: int,
    out: np.ndarray,
    boxes_out: np.ndarray,
    start_mask: int,
    start_y: int,
    start_u: int,
    start_upper: int,
    bonus_won: bool,
    start_dice: np.ndarray,
    start_left: int,
    mode: int,
    temperature: float,
    tie: np.ndarray,
    scratch_bits: int,
    V: np.ndarray,
    row_of_mask: np.ndarray,
    allowed_of_mask: np.ndarray,
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
    carry_all: bool,
    stop_value: float,
    stop_cap: float,
    memo_keys: np.ndarray,
    memo_E: np.ndarray,
) -> None:
    """Play ``out.shape[0]`` rests of a game from one position; ``out[g]`` gets the
    points game ``g`` adds to the sheet's Total.  ``boxes_out`` (length 0: not wanted)
    gets, per game, bit ``b`` set for each box ``b`` written with points and bit
    :data:`BONUS_BIT` when the game reached the upper bonus (what a simulation counts).

    ``memo_keys``/``memo_E`` remember the within-turn keep values of the states met
    (direct-mapped by a hash of the state: ``memo_keys[i]`` the state whose rows
    ``memo_E[i]`` hold, -1 none), across the games of this call and, when the caller
    keeps them, across calls with the same ``V``: a turn whose state is remembered
    skips computing its keep values (most of a game's CPU).  The values are the ones
    computed, so the games are the same as without it.  Used only where a turn's
    values depend on the state alone (no saved rolls, not ``MODE_RANDOM``);
    ``memo_keys`` of length 0 switches it off, else its length is a power of 2.

    Saved rolls: ``saved`` > 0 is ``saved_rolls=next`` (at most ``saved`` carried, read
    from ``V``'s middle index); ``carry_all`` is ``saved_rolls=all`` played by the
    approximate strategy (every unused roll carried, ``V`` the table without saved
    rolls, a stop valued ``stop_value`` points more per roll it saves, counting at
    most ``stop_cap`` rolls per box still open after the turn and none once the sheet
    is full: :func:`yatzy.strategy.approx.saved_rolls_worth`).

    The position: the open boxes ``start_mask``; ``start_y`` the Yatzy box's 50 (0/1)
    or, with saved rolls, the rolls carried into the next turn; ``start_u`` the upper
    sum capped at ``threshold`` and ``start_upper`` uncapped; ``bonus_won`` whether
    the sheet holds the upper bonus already.  ``start_left`` >= 0 puts the game
    within a turn: ``start_dice`` on the table (0 for a die still rolling) with
    ``start_left`` rolls left; -1 starts at the next turn.  ``V[row_of_mask[mask], y,
    u]`` values the states between turns (``MODE_RANDOM`` reads none of it) and
    ``allowed_of_mask[mask]`` the boxes the order rules allow.
    """
    np.random.seed(seed)
    n_rolls, n_boxes = score.shape
    n_keeps = add.shape[0]
    n = rolls.shape[1]
    keeps_on = saved > 0 or carry_all  # keeping every die is a stop that saves rolls
    most = levels + (2 * n_boxes + 2 if carry_all else saved)  # the most rolls left
    E = np.empty((most + 1, n_keeps), dtype=np.float64)
    RB = np.empty((most + 1, n_rolls), dtype=np.float64)
    F = np.empty((saved + 1, n_rolls), dtype=np.float64)
    M = np.empty(n_keeps, dtype=np.float64)
    first_E = np.empty_like(E)
    first_F = np.empty_like(F)
    have_first = False
    choice = np.zeros(3, dtype=np.int64)
    dice = np.empty(n, dtype=np.int64)
    max_points = 0
    for r in range(n_rolls):
        for b in range(n_boxes):
            max_points = max(max_points, score[r, b])
    for b in range(n_boxes):
        max_points = max(max_points, joker_pts[b])
    cont = np.empty((n_boxes, max_points + 1), dtype=np.float64)
    powers = np.array([7**i for i in range(6)], dtype=np.int64)
    full = (1 << n) - 1
    slots = n_keeps + 2 * n_boxes
    opt_v = np.empty(slots, dtype=np.float64)
    opt_box = np.empty(slots, dtype=np.int64)
    opt_pts = np.empty(slots, dtype=np.int64)
    opt_keep = np.empty(slots, dtype=np.int64)
    stamp = np.zeros(n_keeps, dtype=np.int64)
    stamp_id = 0
    two_y = V.shape[1] == 2
    memo_slots = memo_keys.shape[0]
    memo = memo_slots > 0 and mode != MODE_RANDOM and saved == 0 and not carry_all
    memo_shift = 32  # the slot: the top bits of a multiplicative hash
    while memo_shift > 0 and (1 << (32 - memo_shift)) < memo_slots:
        memo_shift -= 1
    for g in range(out.shape[0]):
        mask = start_mask
        y = 0 if keeps_on else start_y
        carried = start_y if keeps_on else 0
        u = start_u
        upper_real = start_upper
        total = 0
        scored = 0  # the boxes written with points (boxes_out)
        first = True
        while mask != 0:
            allowed = allowed_of_mask[mask]
            top = levels + (carried if carry_all else saved)
            open_after = -1  # the boxes still open after this turn's write
            for b in range(n_boxes):
                open_after += (mask >> b) & 1
            stop_limit = stop_cap * open_after
            Et = E  # this turn's keep values: E, or the memo's row of its state
            if mode != MODE_RANDOM:
                slot = -1
                state_key = 0
                if memo:
                    state_key = (mask * V.shape[1] + y) * (threshold + 1) + u
                    slot = ((state_key * 2654435761) & 0xFFFFFFFF) >> memo_shift
                if slot >= 0 and memo_keys[slot] == state_key:
                    Et = memo_E[slot]
                elif first and have_first:
                    E[: top + 1] = first_E[: top + 1]
                    F[:, :] = first_F
                else:
                    turn_values(
                        E, RB, F, M, cont, mask, y, u, allowed, V, row_of_mask, score,
                        score_t, box_face, joker_pts, ybox, joker_mode, lower_bits,
                        threshold, yatzy_face, lr_chance, saved, carry_all, stop_value,
                        stop_limit, top, add, sub, nsub, choice,
                    )  # fmt: skip
                    if first:
                        first_E[: top + 1] = E[: top + 1]
                        first_F[:, :] = F
                        have_first = True
                    if slot >= 0:
                        memo_E[slot, : top + 1] = E[: top + 1]
                        memo_keys[slot] = state_key
            if first and start_left >= 0:
                for i in range(n):
                    d = start_dice[i]
                    dice[i] = d if d > 0 else np.random.randint(1, 7)
                left = start_left
            else:
                for i in range(n):
                    dice[i] = np.random.randint(1, 7)
                left = levels + carried
            first = False
            dice.sort()
            r = roll_index(dice, roll_of_code, powers)
            # Decide until a box is written: ``wb``/``wp`` the box and its points.
            wb = -1
            wp = 0
            while wb < 0:
                yy = y
                gain = 0.0  # what a stop is worth beyond its box (rolls it saves)
                if carry_all:
                    yy = 0
                    gain = stop_value * min(float(left), stop_limit)
                elif saved > 0:
                    yy = min(left, saved)  # a stop now carries the rolls left on
                if mode == MODE_ARGMAX:
                    keep_s = -1
                    if left > 0:
                        best_s = full
                        best_v = -np.inf
                        el = Et[left]
                        ks = keep_of_subset[r]
                        for s in range(full, -1, -1):
                            if keeps_on and s == full:
                                continue  # the whole roll kept is a stop, valued below
                            v = el[ks[s]]
                            if v > best_v + 1e-9:
                                best_v = v
                                best_s = s
                        if keeps_on and F[yy, r] + gain >= best_v - 1e-9:
                            keep_s = -1  # stop here, carrying yy rolls on
                        elif best_s == full:
                            left -= 1  # keeping every die is standing: one roll less
                            continue
                        else:
                            keep_s = best_s
                    if keep_s < 0:
                        count = _write_options(
                            r, mask, yy, u, allowed, True, 0, V, row_of_mask, score,
                            box_face, joker_pts, ybox, joker_mode, lower_bits, threshold,
                            yatzy_face, lr_chance, opt_v, opt_box, opt_pts, 0, False, gain,
                        )  # fmt: skip
                        best = 0
                        for i in range(1, count):
                            a = opt_v[i]
                            bv = opt_v[best]
                            if a > bv or (a == bv and tie[opt_box[i]] < tie[opt_box[best]]):
                                best = i
                        wb = opt_box[best]
                        wp = opt_pts[best]
                        break
                else:
                    count = 0
                    if left > 0:
                        if mode == MODE_RANDOM:
                            for s in range(full):
                                opt_keep[count] = s
                                count += 1
                        else:
                            stamp_id += 1
                            el = Et[left]
                            ks = keep_of_subset[r]
                            for s in range(full):
                                k = ks[s]
                                if stamp[k] == stamp_id:
                                    continue
                                stamp[k] = stamp_id
                                opt_keep[count] = s
                                opt_v[count] = el[k]
                                count += 1
                    keeps = count
                    count = _write_options(
                        r, mask, yy, u, allowed, mode == MODE_SOFTMAX, scratch_bits, V,
                        row_of_mask, score, box_face, joker_pts, ybox, joker_mode,
                        lower_bits, threshold, yatzy_face, lr_chance, opt_v, opt_box,
                        opt_pts, count, mode == MODE_RANDOM, gain,
                    )  # fmt: skip
                    if mode == MODE_RANDOM:
                        pick = np.random.randint(0, count)
                    else:
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
                    if pick >= keeps:
                        wb = opt_box[pick]
                        wp = opt_pts[pick]
                        break
                    keep_s = opt_keep[pick]
                # Roll the dice not kept.
                r = reroll(dice, rolls, r, keep_s, roll_of_code, powers)
                left -= 1
            # Write box wb with wp points (a Yatzy bonus where the joker pays one).
            face = yatzy_face[r]
            if (
                joker_mode != JOKER_NONE
                and face > 0
                and ybox >= 0
                and not (mask >> ybox) & 1
                and y == 1
                and not keeps_on
            ):
                total += YATZY_BONUS
            total += wp
            if wp > 0:
                scored |= 1 << wb
            if box_face[wb] > 0:
                upper_real += wp
                u = min(u + wp, threshold)
            if wb == ybox and two_y:
                y = 1 if wp == 50 else 0
            if carry_all:
                carried = left
            elif saved > 0:
                carried = min(left, saved)
            mask ^= 1 << wb
        if bonus > 0 and not bonus_won and upper_real >= real_threshold:
            total += bonus
            scored |= 1 << BONUS_BIT
        out[g] = total
        if boxes_out.shape[0] > 0:
            boxes_out[g] = scored
