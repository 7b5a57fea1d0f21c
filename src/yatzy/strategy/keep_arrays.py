"""The keep tables of :mod:`yatzy.strategy.turn` as the arrays compiled kernels read.

The simulation kernels, the winner bot's turn plans and the sampled outcomes of the
win chances all walk the same keeps of ``n`` dice; :func:`keep_arrays` builds their
arrays once per number of dice.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from yatzy.rules import RuleSet
from yatzy.strategy.turn import keep_tables

__all__ = ["keep_arrays", "model_args"]


@cache
def keep_arrays(n: int) -> tuple[npt.NDArray[Any], ...]:
    """The keeps of ``n`` dice as arrays (cached), in this order:

    ``add[k, f - 1]`` keep ``k`` with one more die showing ``f`` (zeros for full
    rolls); ``sub[k, :nsub[k]]`` the keeps with one die less; ``nsub``;
    ``yatzy_face[r]`` the face of roll ``r`` if all its dice show it, else 0;
    ``rolls[r]`` the faces of roll ``r``; ``roll_of_code[c]`` the roll whose faces
    encode as ``c`` (the sum of ``7 ** (face - 1)``, -1 for none);
    ``keep_of_subset[r, s]`` the keep of roll ``r``'s dice picked by bit mask ``s``.
    Keeps are indexed as in :func:`yatzy.strategy.turn.keep_tables`.
    """
    t = keep_tables(n)
    add = np.array([a if a else (0,) * 6 for a in t.add], dtype=np.uint32)
    sub = np.full((len(t.keeps), 6), 0, dtype=np.uint32)
    nsub = np.zeros(len(t.keeps), dtype=np.int64)
    for i, smaller in enumerate(t.sub):
        sub[i, : len(smaller)] = smaller
        nsub[i] = len(smaller)
    rolls = np.array(t.keeps[: t.n_rolls], dtype=np.int64)
    roll_of_code = np.full(7**6, -1, dtype=np.int64)
    for r, roll in enumerate(t.keeps[: t.n_rolls]):
        roll_of_code[sum(7 ** (f - 1) for f in roll)] = r
    keep_of_subset = np.zeros((t.n_rolls, 1 << n), dtype=np.uint32)
    for r, roll in enumerate(t.keeps[: t.n_rolls]):
        for s in range(1 << n):
            kept = tuple(roll[i] for i in range(n) if (s >> i) & 1)
            keep_of_subset[r, s] = t.index[kept]
    yatzy_face = np.array(
        [roll[0] if len(set(roll)) == 1 else 0 for roll in t.keeps[: t.n_rolls]], dtype=np.int64
    )
    return add, sub, nsub, yatzy_face, rolls, roll_of_code, keep_of_subset


def model_args(model: Any, rules: RuleSet, box: int | None = None) -> tuple[Any, ...]:
    """A rule set's part of the simulation kernels' arguments, in the kernels' order:
    the solver model's score tables and Yatzy box, then ``box`` (the box a kernel is
    asked about, for those that take one), the joker, upper bonus, rolls, saved rolls
    and last-resort settings, the keep arrays (:func:`keep_arrays`) and the scores by
    roll."""
    add, sub, nsub, yatzy_face, rolls, roll_of_code, keep_of_subset = keep_arrays(rules.num_dice)
    return (
        model.score.astype(np.int64),
        model.box_face.astype(np.int64),
        model.joker_pts.astype(np.int64),
        int(model.ybox),
        *(() if box is None else (box,)),
        int(model.joker_mode),
        int(model.lower_bits),
        int(model.threshold),
        rules.threshold,
        rules.bonus,
        rules.max_rolls - 1,
        int(model.saved),
        int(model.lr_chance),
        add,
        sub,
        nsub,
        yatzy_face,
        rolls,
        roll_of_code,
        keep_of_subset,
        np.ascontiguousarray(model.score.T).astype(np.uint32),
    )
