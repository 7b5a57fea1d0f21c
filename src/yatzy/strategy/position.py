"""Positions for the advisor: a sheet, the dice and the rolls left, checked.

A sheet is written as ``box=points`` pairs (``"ones=3,twos=6,yatzy=0"``; a box
by its id, number or name as :func:`~yatzy.rules.match_box` reads it), every box
of the rule set allowed once, the points checked against what the box can
hold.  Two extra keys describe what a column alone does not show:
``yatzy_bonuses=N`` (international rules: extra Yatzys already scored) and
``saved_rolls=N`` (Maxi with saved rolls).  Dice are faces (``"3 3 4 5 6"``,
``"33456"``) or, for DubbelYatzy, inner first: the inner then the outer faces
separated by a slash (``"543221/664333"``).  Anything that cannot arise under the rules raises a
:class:`~yatzy.errors.YatzyError` subclass naming the problem.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from yatzy.errors import DiceError, ImpossibleScoreError, OrderError, YatzyError
from yatzy.game import BoxEntry, Game, State, load
from yatzy.rules import RuleSet, match_box, parse_dice

SPECIAL_KEYS = ("yatzy_bonuses", "saved_rolls")


class PositionError(YatzyError):
    """A position that the rules cannot produce (or that leaves nothing to decide)."""


def parse_sheet(rules: RuleSet, text: str) -> dict[str, int]:
    """Read ``box=points`` pairs (commas or spaces between them), checked.

    The special keys ``yatzy_bonuses`` and ``saved_rolls`` are returned as given;
    :func:`build_position` checks them.
    """
    entries: dict[str, int] = {}
    for raw in text.replace(",", " ").split():
        key, eq, value = raw.partition("=")
        key = key.strip().lower()
        if not eq:
            raise YatzyError(f"sheet entry {raw!r} is not box=points")
        if key not in SPECIAL_KEYS:
            key = match_box(rules, key)  # an id, a number or a name; never a guess
        if key in entries:
            raise YatzyError(f"box {key!r} is given twice in the sheet")
        try:
            points = int(value)
        except ValueError:
            raise ImpossibleScoreError(
                f"points {value!r} for {key} are not a whole number"
            ) from None
        entries[key] = points
    return entries


def parse_position_dice(rules: RuleSet, text: str) -> list[int] | list[tuple[int, int]]:
    """Read the dice of a position (``"33456"``; DubbelYatzy inner first,
    ``"543221/664333"`` or ``"5/6 4/6 ..."``) with :func:`yatzy.rules.parse_dice`."""
    return parse_dice(rules, text)


def build_position(
    rules: RuleSet,
    sheet: Mapping[str, int],
    dice: Sequence[int] | Sequence[tuple[int, int]] | None = None,
    rolls_left: int | None = None,
) -> State:
    """A one-player state with this sheet, at the start of a turn or with ``dice``.

    ``rolls_left`` (required with dice) counts the rolls the turn may still use.
    """
    game = Game(rules, ["player"])
    state = game.new_initial_state(starter=0)
    col = state.sheets[0]
    entries = dict(sheet)
    bonuses = entries.pop("yatzy_bonuses", 0)
    saved = entries.pop("saved_rolls", 0)
    for box, points in entries.items():
        rules.check_box(box)
        if isinstance(points, bool) or not isinstance(points, int):
            raise ImpossibleScoreError(f"points {points!r} for {box} are not a whole number")
        if points not in rules.possible_scores(box):
            raise ImpossibleScoreError(f"{points} is not a possible score for {box}")
        col.entries[box] = BoxEntry(points, points == 0 and rules.scratchable(box))
    filled = len(entries)
    if filled == len(rules.boxes):
        raise PositionError("every box is filled: the game is over, nothing to decide")
    if filled % rules.results_per_turn:
        raise PositionError(f"{rules.variant} fills two boxes a turn; {filled} filled is odd")
    _check_order(state, rules)
    state.turn_number = filled // rules.results_per_turn
    if bonuses:
        if not rules.has_joker:
            raise PositionError(f"{rules.spec} has no Yatzy bonus (yatzy_bonuses={bonuses})")
        if col.points("yatzy") != 50:
            raise PositionError("a Yatzy bonus needs 50 in the yatzy box")
        if not 0 <= bonuses < filled:
            raise PositionError(f"yatzy_bonuses={bonuses} is more than the turns after the Yatzy")
        col.yatzy_bonuses = bonuses
    if saved:
        if not rules.saves_rolls:
            raise PositionError(f"{rules.spec} has no saved rolls (saved_rolls={saved})")
        if not 0 <= saved <= 2 * state.turn_number:
            raise PositionError(
                f"saved_rolls={saved}: at most 2 a turn can be saved ({state.turn_number} turns)"
            )
        limit = rules.max_carried
        if limit is not None and saved > limit:
            raise PositionError(
                f"saved_rolls={saved}: at most {limit} carry into a turn ({rules.spec})"
            )
        col.saved_rolls = saved
    if dice is None:
        if rolls_left is not None:
            raise PositionError("rolls left without dice: give the dice too")
        return state
    if rolls_left is None:
        raise PositionError("dice without rolls left: give how many rolls the turn has left")
    most = state.max_rolls() - 1
    if isinstance(rolls_left, bool) or not isinstance(rolls_left, int):
        raise PositionError(f"rolls left {rolls_left!r} is not a whole number")
    if not 0 <= rolls_left <= most:
        raise PositionError(f"rolls left {rolls_left} is not in 0-{most} after a roll")
    if rules.double:
        pairs = [tuple(d) if isinstance(d, (tuple, list)) else d for d in dice]
        for d in pairs:
            if not (
                isinstance(d, tuple)
                and len(d) == 2
                and all(isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= 6 for x in d)
            ):
                raise DiceError(f"double die {d!r} is not an (outer, inner) pair of 1-6")
        if len(pairs) != rules.num_dice:
            raise DiceError(f"{rules.variant} needs {rules.num_dice} dice, got {len(pairs)}")
        state.dice = list(pairs)  # type: ignore[arg-type]
    else:
        state.dice = list(rules.check_dice([int(d) for d in dice]))  # type: ignore[arg-type]
    state.rolls_used = state.max_rolls() - rolls_left
    # The turn's log, so that the game can go on from here (earlier keeps unknown).
    shown = [list(d) if isinstance(d, tuple) else d for d in state.dice]
    state.log.append(
        {"player": 0, "rolls": [{"keep": [], "dice": shown} for _ in range(state.rolls_used)]}
    )
    return state


def _check_order(state: State, rules: RuleSet) -> None:
    """Forced and half-forced order: the filled boxes must be a prefix of the order."""
    if not (rules.forced or rules.half_forced):
        return
    col = state.sheets[0]
    filled = [b for b in rules.boxes if not col.is_open(b)]
    extra = [b for b in rules.boxes if b == "extra"]
    orders = {"upper": list(rules.boxes)}
    if rules.half_forced:
        orders["lower"] = [*rules.lower_boxes, *rules.upper_boxes, *extra]
    for section, order in orders.items():
        if set(order[: len(filled)]) == set(filled):
            if rules.half_forced and filled:
                col.first_section = section
            return
    raise OrderError(
        f"filled boxes {', '.join(filled)} cannot occur under {rules.spec}: "
        "boxes are filled in order"
    )


def position_from_record(path: str) -> State:
    """The position a saved game record stops at (the player to act)."""
    state = load(path)
    if state.is_terminal():
        raise PositionError(f"the game in {path!r} is over: nothing to decide")
    if state.is_chance_node():
        raise PositionError(f"the record {path!r} stops while dice are rolling")
    return state


def sheet_of(state: State) -> dict[str, int]:
    """The current player's sheet as ``box=points`` entries (with the special keys)."""
    sheet = state.sheet
    entries = {b: e.points for b, e in sheet.entries.items() if e is not None}
    if sheet.yatzy_bonuses:
        entries["yatzy_bonuses"] = sheet.yatzy_bonuses
    if state.rules.saves_rolls and sheet.saved_rolls:
        entries["saved_rolls"] = sheet.saved_rolls
    return entries
