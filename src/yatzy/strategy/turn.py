"""Exact search inside one turn, in pure Python (no numpy).

The dice of a turn are a multiset; so is every choice of dice to keep.  Given the
value of stopping with each final roll (which box to fill, and what follows), the
recursion below gives the exact expected value of every keep and every roll with
any number of rolls left.  It is the within-turn half of every strategy here: the
greedy bot values a stop by the points it scores now, the approximate strategies by
those points plus a heuristic value of the next state.

Keeps are indexed as in the solver: the rolls of ``n`` dice first (in the order of
:func:`yatzy.rules.all_rolls`), then the smaller keeps by decreasing size, the empty
keep last.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement

from yatzy.rules import all_rolls


@dataclass(frozen=True)
class KeepTables:
    """Multisets of 0 to ``n`` dice, and how they grow and shrink by one die.

    ``add[k][f - 1]`` is keep ``k`` with one more die showing ``f`` (keeps smaller
    than ``n`` only); ``sub[k]`` the keeps with one die less (one per distinct face).
    """

    n: int
    keeps: tuple[tuple[int, ...], ...]
    index: dict[tuple[int, ...], int]
    n_rolls: int
    add: tuple[tuple[int, ...], ...]
    sub: tuple[tuple[int, ...], ...]


@cache
def keep_tables(n: int) -> KeepTables:
    """The (cached) :class:`KeepTables` of ``n`` dice."""
    rolls = all_rolls(n)
    keeps: list[tuple[int, ...]] = list(rolls)
    for size in range(n - 1, -1, -1):
        keeps.extend(combinations_with_replacement(range(1, 7), size))
    index = {k: i for i, k in enumerate(keeps)}
    add: list[tuple[int, ...]] = []
    sub: list[tuple[int, ...]] = []
    for k in keeps:
        if len(k) < n:
            add.append(tuple(index[tuple(sorted((*k, f)))] for f in range(1, 7)))
        else:
            add.append(())
        subs = []
        for f in sorted(set(k)):
            rest = list(k)
            rest.remove(f)
            subs.append(index[tuple(rest)])
        sub.append(tuple(subs))
    return KeepTables(n, tuple(keeps), index, len(rolls), tuple(add), tuple(sub))


@dataclass(frozen=True)
class TurnValues:
    """Exact values inside a turn.

    ``keep[j][k]``: the expected value of keeping keep ``k`` and rolling the other
    dice with ``j`` rolls left (``j >= 1``; ``keep[0]`` is unused).
    ``roll[j][r]``: the value of standing on roll ``r`` with ``j`` rolls left and
    playing on optimally (stop or keep).  ``stop[j][r]``: the value of stopping there.
    """

    tables: KeepTables
    keep: list[list[float]]
    roll: list[list[float]]
    stop: list[list[float]]

    def best_keep(self, roll: Sequence[int], rolls_left: int) -> tuple[tuple[int, ...], float]:
        """The best proper keep of ``roll`` (sorted faces) and its value."""
        t = self.tables
        best: tuple[tuple[int, ...], float] = ((), float("-inf"))
        for k in sub_keeps(tuple(sorted(roll))):
            if len(k) == t.n:
                continue
            v = self.keep[rolls_left][t.index[k]]
            if v > best[1] + 1e-12:
                best = (k, v)
        return best

    def keep_value(self, kept: Sequence[int], rolls_left: int) -> float:
        """The value of keeping the faces ``kept`` with ``rolls_left`` rolls left."""
        return self.keep[rolls_left][self.tables.index[tuple(sorted(kept))]]


def solve_turn(n: int, stop_value: Callable[[int], Sequence[float]], rolls_left: int) -> TurnValues:
    """Exact within-turn values of ``n`` dice for up to ``rolls_left`` rolls left.

    ``stop_value(j)`` gives, per roll index, the value of stopping on that roll with
    ``j`` rolls unused (it differs by ``j`` only where saved rolls carry over).
    """
    t = keep_tables(n)
    nk = len(t.keeps)
    neg = float("-inf")
    stop = [list(stop_value(j)) for j in range(rolls_left + 1)]
    roll_vals: list[list[float]] = [stop[0]]
    keep_vals: list[list[float]] = [[]]
    sixth = 1.0 / 6.0
    for j in range(1, rolls_left + 1):
        prev = roll_vals[j - 1]
        e = [0.0] * nk
        e[: t.n_rolls] = prev
        for k in range(t.n_rolls, nk):
            a = t.add[k]
            e[k] = (e[a[0]] + e[a[1]] + e[a[2]] + e[a[3]] + e[a[4]] + e[a[5]]) * sixth
        # m[k]: the best proper keep among the sub-multisets of k (k itself included
        # when it is a proper keep); filled from the empty keep upwards.
        m = [neg] * nk
        for k in range(nk - 1, t.n_rolls - 1, -1):
            best = e[k]
            for s in t.sub[k]:
                if m[s] > best:
                    best = m[s]
            m[k] = best
        cur = list(stop[j])
        for r in range(t.n_rolls):
            for s in t.sub[r]:
                if m[s] > cur[r]:
                    cur[r] = m[s]
        keep_vals.append(e)
        roll_vals.append(cur)
    return TurnValues(t, keep_vals, roll_vals, stop)


def sub_keeps(roll: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every distinct sub-multiset of ``roll`` (sorted faces), the roll itself included."""
    counts = [roll.count(f) for f in range(1, 7)]
    out: list[tuple[int, ...]] = [()]
    for f in range(1, 7):
        out = [k + (f,) * c for k in out for c in range(counts[f - 1] + 1)]
    return out


def positions_of(dice: Sequence[int], kept: Sequence[int]) -> tuple[int, ...]:
    """Positions of ``dice`` that show the faces ``kept`` (the first matching ones)."""
    want = list(kept)
    out = []
    for i, d in enumerate(dice):
        if d in want:
            want.remove(d)
            out.append(i)
    if want:
        raise ValueError(f"faces {list(kept)} are not all among {list(dice)}")
    return tuple(out)
