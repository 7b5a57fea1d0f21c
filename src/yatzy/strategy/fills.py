"""Which boxes a final roll may fill, and what each one gains (pure Python).

This mirrors the core's rules for a hypothetical roll (the order rules, the joker of
the international rules, ``last_resort``, the upper bonus) so that strategies can value every roll
of a turn without building a game state for each.  The tests cross-check it
against :class:`yatzy.game.State`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from yatzy.game import Sheet, State
from yatzy.game.order import last_resort_cut
from yatzy.rules import CATEGORIES, JOKER_POINTS, YATZY_BONUS_POINTS, RuleSet, score_table

UPPER_BY_FACE = {c.face: c.id for c in CATEGORIES.values() if c.section == "upper"}


@dataclass(frozen=True)
class Fill:
    """Filling ``box`` with a roll: the box's ``points`` and the total ``gain``.

    ``gain`` adds to the points a Yatzy bonus and the upper bonus when this fill
    reaches the threshold: it is how much the player's final score grows.
    """

    box: str
    points: int
    gain: int


def allowed_boxes(state: State) -> list[str]:
    """The boxes the order rules allow this turn, before the joker (any dice)."""
    sheet = state.sheet
    groups = state.allowed_groups(sheet)
    if groups is None:
        return sheet.open_boxes
    return [b for b in state.rules.boxes if any(b in g for g in groups)]


def allowed_pairs(state: State) -> list[tuple[str, str]]:
    """DubbelYatzy: the (inner, outer) pairs of boxes the order rules allow this
    turn, each way round."""
    sheet = state.sheet
    groups = state.allowed_groups(sheet)
    if groups is None:
        open_boxes = sheet.open_boxes
        return [(a, b) for a in open_boxes for b in open_boxes if a != b]
    return [(g[0], g[1]) for g in groups] + [(g[1], g[0]) for g in groups]


def fills(rules: RuleSet, sheet: Sheet, allowed: Sequence[str], faces: Sequence[int]) -> list[Fill]:
    """Every box a final roll ``faces`` (plain dice) may fill, with points and gain."""
    row = score_table(rules).row(tuple(faces))
    index = rules.box_index
    five_equal = len(set(faces)) == 1
    joker = rules.has_joker and five_equal and not sheet.is_open("yatzy")
    boxes = list(allowed)
    upper_box = UPPER_BY_FACE[faces[0]] if five_equal else ""
    if joker and rules.joker == "forced":
        if sheet.is_open(upper_box):
            want = [upper_box]
        else:
            lower = [b for b in rules.lower_boxes if sheet.is_open(b)]
            want = lower or [b for b in rules.upper_boxes if sheet.is_open(b)]
        boxes = [b for b in boxes if b in want] or boxes
    if rules.last_resort:
        boxes = list(last_resort_cut(boxes, {b: row[index[b]] for b in boxes}).boxes)
    extra = YATZY_BONUS_POINTS if joker and sheet.points("yatzy") == 50 else 0
    upper_sum = sheet.upper_sum
    out = []
    for box in boxes:
        points = row[index[box]]
        if joker and box in JOKER_POINTS and not sheet.is_open(upper_box):
            points = JOKER_POINTS[box]
        gain = points + extra
        if CATEGORIES[box].face and upper_sum < rules.threshold <= upper_sum + points:
            gain += rules.bonus
        out.append(Fill(box, points, gain))
    return out


def layer_gain(rules: RuleSet, sheet: Sheet, box: str, points: int, upper_before: int) -> int:
    """DubbelYatzy: the gain of writing ``points`` in ``box`` with the upper sum so far."""
    if CATEGORIES[box].face and upper_before < rules.threshold <= upper_before + points:
        return points + rules.bonus
    return points
