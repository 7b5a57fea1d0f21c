"""What the dice on the table score in a box, for a player's sheet under a rule set:
the score table's row, the joker's fixed points (international rules, five equal with
the Yatzy box filled) and DubbelYatzy's dropped face.  Pure functions of rules,
dice and sheet, read by :class:`yatzy.game.state.State` (``box_points``,
``preview``, the order rules and the writes)."""

from __future__ import annotations

from yatzy.game.order import UPPER_BY_FACE
from yatzy.game.sheet import Sheet
from yatzy.rules import CATEGORIES, JOKER_POINTS, RuleSet, ScoreTable
from yatzy.rules import scoring as sc

__all__ = ["best_drop", "dropped_points", "joker_active", "plain_points"]


def joker_active(rules: RuleSet, faces: tuple[int, ...], sheet: Sheet) -> bool:
    """Whether ``faces`` are a joker on ``sheet``: rules with a joker, five equal
    dice, and the Yatzy box already filled."""
    return rules.has_joker and len(set(faces)) == 1 and not sheet.is_open("yatzy")


def plain_points(
    rules: RuleSet, table: ScoreTable, box: str, faces: tuple[int, ...], sheet: Sheet
) -> int:
    """Points of plain dice ``faces`` in ``box`` for ``sheet``, the joker's included
    (unchecked: ``box`` is one of the rules' boxes; ``table`` is the rules' score
    table, :func:`yatzy.rules.score_table`, which the caller keeps at hand)."""
    points = table.row(faces)[rules.box_index[box]]
    if box in JOKER_POINTS and joker_active(rules, faces, sheet):
        upper = CATEGORIES[UPPER_BY_FACE[faces[0]]].id
        if not sheet.is_open(upper):
            return JOKER_POINTS[box]
    return points


def dropped_points(rules: RuleSet, box: str, faces: tuple[int, ...], drop: int) -> int:
    """DubbelYatzy: the points of one layer's ``faces`` in ``box`` after dropping one
    die showing ``drop``."""
    counts = list(sc.counts_of(faces))
    counts[drop - 1] -= 1
    return rules.scorers[box](tuple(counts))


def best_drop(rules: RuleSet, box: str, faces: tuple[int, ...]) -> int:
    """DubbelYatzy: the face whose dropping scores most in ``box``."""
    # Ties go to the highest face: it is what the minus Extra wants dropped anyway.
    return max(set(faces), key=lambda d: (dropped_points(rules, box, faces, d), d))
