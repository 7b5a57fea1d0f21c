"""The order rules of a sheet, as pure functions: which boxes forced and half-forced
order, the forced joker and ``last_resort`` leave open.  The game state applies them
to the dice on the table; the solver's strategies use them directly.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from yatzy.errors import LastResortError
from yatzy.game.actions import Score, Scratch, Write
from yatzy.game.sheet import Sheet
from yatzy.rules import CATEGORIES, RuleSet

UPPER_BY_FACE = {c.face: c.id for c in CATEGORIES.values() if c.section == "upper"}
"""The upper box that counts each face (1 -> ``ones`` ...)."""


def sequence(rules: RuleSet, sheet: Sheet, first: str | None) -> list[str]:
    """The open boxes of ``sheet`` in the order they are filled when ``first``
    (``"upper"``, ``"lower"`` or ``None`` for protocol order) is filled first."""
    extra = [b for b in rules.boxes if b == "extra"]
    if first == "lower":
        order = [*rules.lower_boxes, *rules.upper_boxes, *extra]
    else:
        order = list(rules.boxes)
    return [b for b in order if sheet.is_open(b)]


def allowed_groups(rules: RuleSet, sheet: Sheet) -> list[tuple[str, ...]] | None:
    """The sets of boxes the order rules allow for the next turn's results.

    ``None`` means any open boxes; otherwise one result fills a box of a group
    (each group has one box), DubbelYatzy's two results fill both boxes of one
    group.
    """
    k = rules.results_per_turn
    if rules.forced:
        return [tuple(sequence(rules, sheet, None)[:k])]
    if rules.half_forced:
        if sheet.first_section is None:
            return [
                tuple(sequence(rules, sheet, "upper")[:k]),
                tuple(sequence(rules, sheet, "lower")[:k]),
            ]
        return [tuple(sequence(rules, sheet, sheet.first_section)[:k])]
    return None


def joker_restrict(
    boxes: Iterable[str], faces: tuple[int, ...], sheet: Sheet, rules: RuleSet
) -> list[str]:
    """The official (forced) joker: matching upper box, else a lower box, else upper."""
    boxes = list(boxes)
    upper = UPPER_BY_FACE[faces[0]]
    if sheet.is_open(upper):
        want = [upper]
    else:
        lower = [b for b in rules.lower_boxes if sheet.is_open(b)]
        want = lower or [b for b in rules.upper_boxes if sheet.is_open(b)]
    return [b for b in boxes if b in want]


@dataclass(frozen=True)
class LastResort:
    """What ``last_resort`` leaves of the allowed boxes for the dice on the table.

    ``points`` gives the dice's points in every box the order allows, ``boxes`` those
    that may take them, and ``zero_ok`` whether 0 may be written (the dice score 0 in
    every one of them, Chance included).
    """

    points: dict[str, int]
    boxes: tuple[str, ...]
    zero_ok: bool


def last_resort_cut(boxes: Sequence[str], points: dict[str, int]) -> LastResort:
    """Option ``last_resort`` (002, 004) over the boxes the order allows now.

    Chance only when the dice score 0 in every other such box; 0 (a scratch, or a
    box where the dice score 0) only when they score 0 in every one, Chance
    included.  Under forced order only one box is allowed, so it always takes the
    dice (a scratch only when they score 0 there).
    """
    scoring = tuple(b for b in boxes if b != "chance" and points[b] > 0)
    if scoring:
        return LastResort(points, scoring, False)
    if "chance" in boxes and points["chance"] > 0:
        return LastResort(points, ("chance",), False)
    return LastResort(points, tuple(boxes), True)


def check_last_resort(action: Score | Scratch | Write, cut: LastResort) -> None:
    """Refuse a fill that ``last_resort`` forbids for the dice on the table."""
    box = action.box
    if isinstance(action, Scratch):
        zero = True
    elif isinstance(action, Write):
        zero = action.points == 0
    else:
        zero = cut.points[box] == 0
    if box in cut.boxes and (cut.zero_ok or not zero):
        return
    scoring = ", ".join(f"{b} ({p})" for b, p in cut.points.items() if p > 0 and (b != box or zero))
    if box == "chance" and not zero:
        raise LastResortError(
            f"box chance may be used only when the dice score 0 in every other box "
            f"open now (last_resort); they score in {scoring}"
        )
    if not zero:  # points written by hand in a box where the dice entered give 0
        raise LastResortError(
            f"box {box} does not take these dice: they score 0 there and score in "
            f"{scoring} (last_resort)"
        )
    raise LastResortError(
        f"box {box} may not be written with 0 while the dice score in {scoring} "
        f"(last_resort: 0 only when the dice score nowhere)"
    )
