"""Dice combinatorics shared by the fast solver and the advisor (numpy arrays).

Rolls and kept dice are multisets of faces.  Every multiset of 0 to ``n`` dice is a
*keep*; the keeps of exactly ``n`` dice are the rolls, and they come first, in the
order of :func:`yatzy.rules.all_rolls`, so a roll's keep index is its roll index.
The remaining keeps follow by decreasing size (the empty keep is last): the
within-turn recursion fills keeps from large to small and takes maxima from small
to large, so both sweeps walk the array in one direction.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from math import factorial

import numpy as np
import numpy.typing as npt

from yatzy.rules import all_rolls

IntArray = npt.NDArray[np.int32]
FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class DiceTables:
    """Index tables of the keeps of ``n`` dice.

    ``keeps[i]`` is keep ``i`` as sorted faces; ``add[i, f - 1]`` the keep with one
    more die showing ``f`` (-1 for a full roll); ``sub[i, :nsub[i]]`` the keeps with
    one die less (one per distinct face); ``roll_prob[r]`` the probability of roll
    ``r`` when all ``n`` dice are thrown.
    """

    n: int
    keeps: tuple[tuple[int, ...], ...]
    index: dict[tuple[int, ...], int]
    n_rolls: int
    add: IntArray
    sub: IntArray
    nsub: IntArray
    roll_prob: FloatArray
    yatzy_face: IntArray

    @property
    def n_keeps(self) -> int:
        """How many keeps (multisets of 0 to ``n`` dice) there are."""
        return len(self.keeps)


def multinomial_probability(faces: tuple[int, ...]) -> float:
    """The probability that throwing ``len(faces)`` dice gives this multiset."""
    ways = factorial(len(faces))
    for f in set(faces):
        ways //= factorial(faces.count(f))
    return float(ways / 6 ** len(faces))


@cache
def dice_tables(n: int) -> DiceTables:
    """The (cached) :class:`DiceTables` of ``n`` dice."""
    rolls = all_rolls(n)
    keeps: list[tuple[int, ...]] = list(rolls)
    for size in range(n - 1, -1, -1):
        keeps.extend(combinations_with_replacement(range(1, 7), size))
    index = {k: i for i, k in enumerate(keeps)}
    add = np.full((len(keeps), 6), -1, dtype=np.int32)
    sub = np.full((len(keeps), 6), -1, dtype=np.int32)
    nsub = np.zeros(len(keeps), dtype=np.int32)
    for i, k in enumerate(keeps):
        if len(k) < n:
            for f in range(1, 7):
                add[i, f - 1] = index[tuple(sorted((*k, f)))]
        for j, f in enumerate(sorted(set(k))):
            rest = list(k)
            rest.remove(f)
            sub[i, j] = index[tuple(rest)]
        nsub[i] = len(set(k))
    roll_prob = np.array([multinomial_probability(r) for r in rolls], dtype=np.float64)
    yatzy_face = np.array([r[0] if len(set(r)) == 1 else 0 for r in rolls], dtype=np.int32)
    return DiceTables(
        n=n,
        keeps=tuple(keeps),
        index=index,
        n_rolls=len(rolls),
        add=add,
        sub=sub,
        nsub=nsub,
        roll_prob=roll_prob,
        yatzy_face=yatzy_face,
    )
