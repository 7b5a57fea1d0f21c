"""The legal actions of a turn: rolls and keeps, then the boxes the rules allow.

Split from :class:`yatzy.game.state.State` (its ``legal_actions`` calls
:func:`legal_actions_of`), which keeps the rules of what a box allows.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from yatzy.game.actions import Action, Entry, Fill2, Roll, Score, Scratch, Write

if TYPE_CHECKING:
    from yatzy.game.state import State


def legal_actions_of(state: State) -> list[Action]:
    """Every action the player of ``state`` may take, in a turn (the caller checks
    that it is one: no die pending, the game not over)."""
    actions: list[Action] = []
    if state.game.pad:
        return _pad_actions(state)
    if state.rolls_left() > 0:
        if state.dice is None:
            actions.append(Roll())
        else:
            n = state.rules.num_dice
            for size in range(n):
                actions.extend(Roll(k) for k in combinations(range(n), size))
    if state.rolls_used == 0:
        return actions
    if not state.rules.double:
        zero = state.zero_allowed()
        for box in state.allowed_boxes():
            actions.append(Score(box))
            if zero and state.rules.scratchable(box):
                actions.append(Scratch(box))
        return actions
    actions.extend(_fill2_actions(state))
    return actions


def _pad_actions(state: State) -> list[Action]:
    """Score pad: dice-based entries once dice are set, and every possible Write.

    :class:`SetDice` is free-form and not listed; DubbelYatzy's pairs of Writes
    are too many to list and are checked by :meth:`apply`.
    """
    actions: list[Action] = []
    zero = state.zero_allowed()
    if state.dice is not None and not state.rules.double:
        for box in state.allowed_boxes():
            actions.append(Score(box))
            if zero and state.rules.scratchable(box):
                actions.append(Scratch(box))
    if state.rules.double:
        if state.dice is not None:
            actions.extend(_fill2_actions(state))
        return actions
    for box in state.allowed_boxes():
        actions.extend(Write(box, p) for p in sorted(state.rules.possible_scores(box)) if p or zero)
        if state.dice is None and state.rules.scratchable(box):
            actions.append(Scratch(box))
    return actions


def _fill2_actions(state: State) -> list[Action]:
    inner = _entries(state, "inner")
    outer = _entries(state, "outer")
    groups = state.allowed_groups()
    return [
        Fill2(a, b)
        for a in inner
        for b in outer
        if a.box != b.box and (groups is None or any({a.box, b.box} == set(g) for g in groups))
    ]


def _entries(state: State, layer: str) -> list[Entry]:
    faces = sorted(set(state.layer(layer)))
    out: list[Entry] = []
    for box in state.allowed_boxes():
        out.extend(Score(box, d) for d in faces)
        if state.rules.scratchable(box):
            out.append(Scratch(box))
    return out
