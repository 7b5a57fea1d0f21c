"""Pure scoring functions.

Every scorer takes the face counts of a roll (``counts[f - 1]`` dice show face
``f``) and returns the points of one category.  Where a category can be formed in
several ways the best one counts.  Scorers are built by the small factories below,
so a rule set describes its categories as data.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import product

Counts = tuple[int, ...]
Scorer = Callable[[Counts], int]

FACES = (1, 2, 3, 4, 5, 6)


def counts_of(dice: Sequence[int]) -> Counts:
    """The face counts of ``dice`` (faces 1-6, unchecked)."""
    c = [0, 0, 0, 0, 0, 0]
    for d in dice:
        c[d - 1] += 1
    return tuple(c)


def dice_sum(counts: Counts) -> int:
    """The sum of all dice."""
    return sum(f * n for f, n in zip(FACES, counts, strict=True))


def upper(face: int) -> Scorer:
    """Ones ... Sixes: the sum of the dice showing ``face``."""

    def score(counts: Counts) -> int:
        return face * counts[face - 1]

    return score


def groups(sizes: Sequence[int], *, lenient: bool) -> Scorer:
    """Sets of equal dice (pairs, of-a-kinds, full house, villa, tower).

    ``sizes`` lists the groups, e.g. ``(3, 2)`` for a full house.  Strictly each group
    needs its own face; ``lenient`` lets several groups share a face when enough dice
    show it (four equal as two pairs).  The score is the sum of the grouped dice.
    """
    sizes = tuple(sorted(sizes, reverse=True))

    smallest = min(sizes)

    def score(counts: Counts) -> int:
        best = 0
        candidates = [f for f in FACES if counts[f - 1] >= smallest]
        for faces in product(candidates, repeat=len(sizes)):
            if not lenient and len(set(faces)) < len(faces):
                continue
            need = [0] * 6
            for face, size in zip(faces, sizes, strict=True):
                need[face - 1] += size
            if all(n <= c for n, c in zip(need, counts, strict=True)):
                best = max(best, sum(f * s for f, s in zip(faces, sizes, strict=True)))
        return best

    return score


def at_least_of_a_kind_sum_all(n: int) -> Scorer:
    """International three/four of a kind: at least ``n`` equal, sum of all dice."""

    def score(counts: Counts) -> int:
        return dice_sum(counts) if max(counts) >= n else 0

    return score


def straight(faces: Sequence[int], points: int) -> Scorer:
    """A Nordic straight: these faces among the dice (1-2-3-4-5 is 15): fixed points."""
    want = counts_of(faces)

    def score(counts: Counts) -> int:
        return points if all(c >= w for c, w in zip(counts, want, strict=True)) else 0

    return score


def run_of(length: int, points: int) -> Scorer:
    """International straights: any ``length`` consecutive faces among the dice."""
    starts = range(1, 8 - length)

    def score(counts: Counts) -> int:
        for s in starts:
            if all(counts[f - 1] for f in range(s, s + length)):
                return points
        return 0

    return score


def fixed_full_house(points: int) -> Scorer:
    """International full house: three of one face and two of another, fixed points."""

    def score(counts: Counts) -> int:
        return points if sorted(counts)[-2:] == [2, 3] else 0

    return score


def all_equal(points: int, *, pip_bonus: bool = False) -> Scorer:
    """Yatzy / Maxi Yatzy: every die equal; ``pip_bonus`` adds the sum of the dice."""

    def score(counts: Counts) -> int:
        if max(counts) != sum(counts):
            return 0
        return points + (dice_sum(counts) if pip_bonus else 0)

    return score


def chance(counts: Counts) -> int:
    """Chance: the sum of all dice."""
    return dice_sum(counts)


def minus_chance(counts: Counts) -> int:
    """DubbelYatzy's Extra in its ``minus`` form: the sum, subtracted."""
    return -dice_sum(counts)


def zero(counts: Counts) -> int:
    """DubbelYatzy's Extra in its ``scratch`` form: always 0."""
    return 0


def is_yatzy(counts: Counts) -> bool:
    """Whether every die shows the same face."""
    return max(counts) == sum(counts)


def bonus_pace(threshold: int, filled_faces: int) -> int:
    """The upper sum that keeps pace with ``threshold`` once the upper boxes whose faces
    add up to ``filled_faces`` are filled: ``threshold × filled_faces / 21``, halves
    rounded up (RULES.md's bonus par).  At 63 that is three of each face.

    Integer arithmetic, so no float ever rounds the wrong way.  (With whole numbers
    the fraction is a multiple of 1/21 and never exactly a half; the rule is kept
    for the letter of RULES.md.)
    """
    return (2 * threshold * filled_faces + 21) // 42


def bonus_par(threshold: int, upper_sum: int, filled_faces: int) -> int:
    """How far ``upper_sum`` is above (+) or below (−) the pace to ``threshold``.

    When every upper box is filled (``filled_faces`` is 21) this is
    ``upper_sum - threshold``, ≥ 0 exactly when the bonus is won.
    """
    return upper_sum - bonus_pace(threshold, filled_faces)
