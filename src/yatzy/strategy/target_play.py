"""Playing for a target: the choice that maximises the chance of a final Total >= T.

:func:`choose_for_target` reads a :class:`~yatzy.solver.target.TargetTable` (mode
``"max"``) at the points still needed; :func:`play_for_target` plays a whole solo
game (or sub-game) that way, which the tests and ``benchmarks/bench_target.py`` use
to check the table by simulation; :func:`record_chance` is the chance of beating a
record from a position, for every front end (web, terminal).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from yatzy.errors import SpecError, YatzyError
from yatzy.game import Action, BoxEntry, Game, Roll, Sheet, State
from yatzy.rules import RuleSet
from yatzy.solver.cache import MissingMemo

if TYPE_CHECKING:
    from yatzy.solver.target import TargetTable

__all__ = [
    "chance_to_beat",
    "choose_for_target",
    "play_for_target",
    "record_chance",
    "target_table_for",
]


def choose_for_target(table: TargetTable, state: State, target_total: int) -> tuple[Action, float]:
    """The option with the highest P(final Total >= ``target_total``), and that chance.

    Before the first roll of a turn the only choice is to roll.  Ties go to the
    first option in :meth:`~yatzy.solver.target.TargetTable.options`' order.
    """
    if state.dice is None:
        return Roll(), table.probability(state, target_total)
    need = target_total - state.sheet.total
    best: tuple[Action, float] | None = None
    for action, vec in table.options(state):
        p = 1.0 if need <= 0 else (float(vec[need]) if need < vec.shape[0] else 0.0)
        if best is None or p > best[1]:
            best = (action, p)
    assert best is not None  # a player to act always has a choice
    return best


def play_for_target(
    table: TargetTable,
    target_total: int,
    rng: random.Random,
    *,
    open_boxes: Sequence[str] | None = None,
) -> int:
    """Play one solo game aiming at ``target_total``; returns the final Total.

    With ``open_boxes`` only that sub-game is played (the other boxes hold 0).
    """
    state = Game(table.rules, ["solo"]).new_initial_state(starter=0)
    if open_boxes is not None:
        sheet = Sheet(table.rules)
        for box in table.rules.boxes:
            if box not in open_boxes:
                sheet.entries[box] = BoxEntry(0)
        state.sheets[0] = sheet
    while not state.is_terminal():
        action, _ = choose_for_target(table, state, target_total)
        state.apply(action)
        if state.is_chance_node():
            state.roll(rng)
    return state.sheets[0].total


_TABLES: dict[str, TargetTable] = {}
_MISSING = MissingMemo(60.0)  # specs not in the disk cache a moment ago


def target_table_for(
    rules: RuleSet, *, build: bool = True, progress: bool = False
) -> TargetTable | None:
    """The (process-wide, memory-mapped) target table of ``rules``, or ``None`` when
    target tables do not handle them, or when it is not in the disk cache and
    ``build`` is false (a server never spends minutes inside a request).  Building
    takes minutes (``yatzy solve SPEC --target T`` builds and caches it)."""
    from yatzy.solver.target import TargetTable, check_target_supported

    try:
        check_target_supported(rules)
    except SpecError:
        return None
    found = _TABLES.get(rules.spec)
    if found is None:
        # A table found missing is looked for again only after a while: the look-up
        # builds the model (milliseconds to a second) and a server asks on every move.
        if not build and _MISSING.known_missing(rules.spec):
            return None
        try:
            found = TargetTable(rules, progress=progress, cached_only=not build)
        except LookupError:
            _MISSING.mark(rules.spec)
            return None
        _TABLES[rules.spec] = found
    return found


def record_chance(table: TargetTable, state: State, record: int, seat: int = 0) -> float:
    """P(the seat's final Total beats ``record``, i.e. reaches ``record + 1``), with
    target play from this position on."""
    return table.probability(state, record + 1, seat)


def chance_to_beat(
    state: State, record: int | None, seat: int = 0, *, build: bool = False
) -> float | None:
    """The live chance that ``seat`` beats ``record`` (final Total > record) with
    target play from ``state`` on, for every front end (web, terminal line mode,
    full-screen app).

    ``None`` when there is nothing to say: no record, the game is over, the rules
    are not handled by target tables, or (``build`` false) the table is not in the
    disk cache yet (``yatzy solve SPEC --target T`` builds it, minutes once).
    """
    if record is None or state.is_terminal():
        return None
    table = target_table_for(state.rules, build=build)
    if table is None:
        return None
    try:
        return record_chance(table, state, record, seat)
    except YatzyError:  # a position the table cannot read (e.g. the roll-off)
        return None
