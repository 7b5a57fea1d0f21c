"""Per-roll score tables, precomputed once per rule set.

The solver, the bots and the game state look scores up here instead of calling
the scorers: a roll (as sorted faces) maps to an index, and ``points[index]`` holds
the score of every box in protocol order.  Plain lists keep the core free of
numpy; the solver converts them to arrays.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement

from yatzy.rules import scoring as sc
from yatzy.rules.ruleset import RuleSet, scoring_key


@cache
def all_rolls(n: int) -> tuple[tuple[int, ...], ...]:
    """Every distinct roll of ``n`` dice as sorted faces (252 for 5, 462 for 6)."""
    return tuple(combinations_with_replacement(range(1, 7), n))


@cache
def roll_index(n: int) -> dict[tuple[int, ...], int]:
    """Sorted faces of ``n`` dice to their index in :func:`all_rolls`."""
    return {r: i for i, r in enumerate(all_rolls(n))}


class ScoreTable:
    """The score of every distinct roll in every box of one rule set.

    For DubbelYatzy a row is a layer of six faces and each entry is its best
    score over the face dropped; ``dropped`` holds the five-face table.
    """

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.boxes = rules.boxes
        self.rolls = all_rolls(rules.num_dice)
        self.index = roll_index(rules.num_dice)
        scorers = [rules.scorers[b] for b in self.boxes]
        five = all_rolls(rules.dice_per_result)
        base = [[f(sc.counts_of(r)) for f in scorers] for r in five]
        if not rules.double:
            self.points: list[list[int]] = base
        else:
            five_index = roll_index(rules.dice_per_result)
            self.points = []
            for roll in self.rolls:
                best = [-(10**9)] * len(scorers)
                for drop in set(roll):
                    rest = list(roll)
                    rest.remove(drop)
                    row = base[five_index[tuple(rest)]]
                    best = [max(a, b) for a, b in zip(best, row, strict=True)]
                self.points.append(best)
        self.dropped = base
        self.yatzy_rows = frozenset(i for i, r in enumerate(self.rolls) if len(set(r)) == 1)

    def row(self, dice: tuple[int, ...]) -> list[int]:
        """The scores of ``dice`` (any order, unchecked) in every box."""
        return self.points[self.index[tuple(sorted(dice))]]


def score_table(rules: RuleSet) -> ScoreTable:
    """The cached :class:`ScoreTable` of ``rules``.

    Rule sets that score alike (they differ only in order, bonus, joker or saved
    rolls) share one table.
    """
    return _shared_table(scoring_key(rules))


@cache
def _shared_table(rules: RuleSet) -> ScoreTable:
    return ScoreTable(rules)
