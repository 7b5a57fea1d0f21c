"""The advisor: every option of a position ranked by expected final score.

:func:`advise` takes a game state with a player to act and returns an
:class:`Advice`: every distinct choice (which dice to keep, or which box to fill),
best first, with its expected final score and its loss against the best.  Rule
sets the exact solver handles (:mod:`yatzy.solver`) get exact values; the others
(DubbelYatzy, and saved rolls that accumulate until their table is built with
``yatzy solve maxi+saved_rolls``) get the approximate strategy of
:mod:`yatzy.strategy.approx`, and the advice says so.

Solvers are kept per rules spec for the life of the process (their tables load
memory-mapped from the disk cache, or are solved once and cached).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from yatzy.errors import IllegalActionError, SpecError, YatzyError
from yatzy.game import Action, Fill2, Roll, Score, Scratch, State
from yatzy.rules import RuleSet

if TYPE_CHECKING:
    from yatzy.solver import Solver


@dataclass(frozen=True)
class Option:
    """One choice: the action, its expected final score, and its loss against the best."""

    action: Action
    value: float
    loss: float
    text: str

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready form."""
        from yatzy.game import action_to_json

        return {
            "action": action_to_json(self.action),
            "text": self.text,
            "value": round(self.value, 4),
            "loss": round(self.loss, 4),
        }


@dataclass(frozen=True)
class Advice:
    """The ranked options of a position.

    ``value`` is the expected final score with the best play; ``exact`` whether the
    values come from the exact solver; ``method`` names how they were computed.
    """

    rules: str
    value: float
    options: tuple[Option, ...]
    exact: bool
    method: str
    rolls_left: int

    @property
    def best(self) -> Action:
        """The best action."""
        return self.options[0].action

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {
            "rules": self.rules,
            "value": round(self.value, 4),
            "exact": self.exact,
            "method": self.method,
            "rolls_left": self.rolls_left,
            "options": [o.to_json() for o in self.options],
        }


def is_exact(rules: RuleSet) -> bool:
    """Whether the exact solver handles ``rules`` now.

    Saved rolls that accumulate (``maxi+saved_rolls``) are exact only once their
    large table is built (``yatzy solve maxi+saved_rolls``); until then the
    approximate strategy plays them.
    """
    from yatzy.solver import check_supported

    try:
        check_supported(rules)
    except SpecError:
        return False
    if rules.saved_rolls == "all":
        from yatzy.solver.saved import table_ready

        return table_ready(rules)
    return True


_WHOLE: dict[str, Solver] = {}
_SUBGAMES: dict[str, list[Solver]] = {}


def strategy_ready(rules: RuleSet) -> bool:
    """Whether advice on a fresh sheet of ``rules`` comes without first solving a
    whole table: it is loaded already or in the disk cache (an approximate strategy
    needs its proxy's table).  Front ends say "preparing" instead of "thinking"
    otherwise: Maxi's table takes minutes the first time."""
    from yatzy.solver import table_cached

    if is_exact(rules):
        if rules.spec in _WHOLE or rules.saved_rolls == "all":  # saved: built explicitly
            return True
        return table_cached(rules)
    from yatzy.strategy.approx import proxy_rules

    try:
        proxy = proxy_rules(rules)
        return proxy.spec in _WHOLE or table_cached(proxy)
    except SpecError:
        return True  # no table behind this strategy at all


def solver_for(spec: str, progress: bool = False) -> Solver:
    """The (process-wide) solver of a whole game of a rules spec, loaded or solved once."""
    from yatzy.solver import Solver

    found = _WHOLE.get(spec)
    if found is None:
        found = _WHOLE[spec] = Solver(RuleSet.parse(spec), progress=progress)
    return found


def loaded_solver(spec: str) -> Solver | None:
    """The process's whole-game solver of ``spec`` when one is loaded already (no disk)."""
    return _WHOLE.get(spec)


def solver_covering(rules: RuleSet, open_boxes: list[str], progress: bool = False) -> Solver:
    """A solver whose game covers a sheet with ``open_boxes`` open.

    The whole game's solver when it is loaded already or every box is open;
    otherwise the (much smaller, quickly solved) sub-game of those open boxes.
    """
    from yatzy.solver import Solver

    if rules.spec in _WHOLE or len(open_boxes) == len(rules.boxes):
        return solver_for(rules.spec, progress)
    if rules.saved_rolls == "all":  # the whole table is built (see is_exact): load it
        return solver_for(rules.spec, progress)
    want = set(open_boxes)
    found = _SUBGAMES.setdefault(rules.spec, [])
    for solver in found:
        if want <= set(solver.model.boxes_of(solver.layout.root)):
            return solver
    solver = Solver(rules, open_boxes=open_boxes, progress=progress)
    found.append(solver)
    return solver


def describe(state: State, action: Action) -> str:
    """A short human description of ``action`` in ``state``."""
    if isinstance(action, Roll):
        if state.dice is None:
            return "roll"
        if not action.keep:
            return "reroll all"
        if state.rules.double:
            kept = [state.dice[i] for i in action.keep]
            return "keep " + " ".join(f"{o}/{i}" for o, i in kept)  # type: ignore[misc]
        faces = state.layer("all")
        return "keep " + " ".join(str(faces[i]) for i in action.keep)
    if isinstance(action, Fill2):
        return f"inner {describe(state, action.inner)}; outer {describe(state, action.outer)}"
    if isinstance(action, Scratch):
        return f"scratch {action.box}"
    if isinstance(action, Score):
        return f"score {action.box}"
    return str(action)


def advise(state: State, *, target: int | None = None, progress: bool = False) -> Advice:
    """Rank every option of the player to act in ``state`` (see the module docstring).

    By expected final score; with ``target``, by the chance of a final Total of at
    least ``target`` instead (:func:`advise_target`).  ``progress`` shows a bar while
    a strategy table is built (the first time on a computer).
    """
    if target is not None:
        return advise_target(state, target, progress=progress)
    if not isinstance(state, State):
        raise YatzyError(f"expected a game State, not {state!r}")
    _check_decision(state)
    rules = state.rules
    if is_exact(rules):
        solver = solver_covering(rules, state.sheet.open_boxes, progress)
        raw = solver.advise(state)
        pairs = [(c.action, c.value) for c in raw.choices]
        exact, method = True, "optimal play, exact solver"
    else:
        from yatzy.strategy.approx import approx_for

        strategy = approx_for(rules.spec, progress)
        pairs = strategy.evaluate(state)
        exact, method = False, strategy.method
    return _rank(state, pairs, exact, method)


def advise_target(state: State, target_total: int, *, progress: bool = False) -> Advice:
    """Rank every option by the chance of a final Total >= ``target_total`` (target play).

    The options' ``value`` is that probability (0-1) and ``loss`` the chance given
    up against the best.  Only for the rule sets target tables handle (yatzy,
    yahtzee): elsewhere :class:`SpecError`.  The first call may build the table.
    """
    if not isinstance(state, State):
        raise YatzyError(f"expected a game State, not {state!r}")
    if isinstance(target_total, bool) or not isinstance(target_total, int):
        raise YatzyError(f"target {target_total!r} is not a whole number")
    _check_decision(state)
    from yatzy.solver.target import check_target_supported
    from yatzy.strategy.target_play import target_table_for

    check_target_supported(state.rules)
    table = target_table_for(state.rules, progress=progress)
    assert table is not None  # supported: checked above
    if state.dice is None:
        pairs: list[tuple[Action, float]] = [(Roll(), table.probability(state, target_total))]
    else:
        need = target_total - state.sheet.total
        pairs = [
            (action, 1.0 if need <= 0 else float(vec[need]) if need < vec.shape[0] else 0.0)
            for action, vec in table.options(state)
        ]
    method = f"target play: chance of reaching {target_total}"
    return _rank(state, pairs, True, method)


def _check_decision(state: State) -> None:
    """Refuse (:class:`IllegalActionError`) advice where no player has a choice to
    make with dice: a score pad, a game over, the dice rolling."""
    if state.game.pad:
        raise IllegalActionError("advice needs a game with dice, not a score pad")
    if state.is_terminal():
        raise IllegalActionError("the game is over: nothing to decide")
    if state.is_chance_node():
        raise IllegalActionError("the dice are rolling: advice needs a player to act")


def _rank(state: State, pairs: list[tuple[Action, float]], exact: bool, method: str) -> Advice:
    pairs = _dedupe(state, pairs)
    pairs.sort(key=lambda p: -p[1])
    best = pairs[0][1]
    options = tuple(
        Option(action, value, max(0.0, best - value), describe(state, action))
        for action, value in pairs
    )
    return Advice(state.rules.spec, best, options, exact, method, state.rolls_left())


def _dedupe(state: State, pairs: list[tuple[Action, float]]) -> list[tuple[Action, float]]:
    """One option per effect: a Score of 0 points is the same as a Scratch."""
    if state.dice is None or state.rules.double:
        return list(pairs)
    scratches = {a.box for a, _ in pairs if isinstance(a, Scratch)}
    out = []
    for action, value in pairs:
        if (
            isinstance(action, Score)
            and action.box in scratches
            and state.box_points(action.box) == 0
        ):
            continue
        out.append((action, value))
    return out


def match_option(advice: Advice, state: State, action: Action) -> Option:
    """The option of ``advice`` that has the same effect as ``action`` in ``state``.

    Keeps match by the faces kept (positions do not matter); a Score of 0 points
    matches the Scratch of the same box.
    """
    for option in advice.options:
        if same_effect(state, option.action, action):
            return option
    raise IllegalActionError(f"{action} is not among the options of this position")


def same_effect(state: State, a: Action, b: Action) -> bool:
    """Whether two actions have the same effect in ``state``."""
    if isinstance(a, Roll) and isinstance(b, Roll):
        if state.dice is None:
            return True
        return sorted(_kept(state, a)) == sorted(_kept(state, b))
    if isinstance(a, Fill2) and isinstance(b, Fill2):
        return same_effect_entry(state, a.inner, b.inner, "inner") and same_effect_entry(
            state, a.outer, b.outer, "outer"
        )
    if isinstance(a, (Score, Scratch)) and isinstance(b, (Score, Scratch)):
        return same_effect_entry(state, a, b, "all")
    return False


def same_effect_entry(state: State, a: Any, b: Any, layer: str) -> bool:
    """Whether two single entries write the same points in the same box."""
    if a.box != b.box:
        return False
    return _entry_points(state, a, layer) == _entry_points(state, b, layer)


def _entry_points(state: State, entry: Any, layer: str) -> int:
    if isinstance(entry, Scratch):
        return 0
    return state.box_points(entry.box, layer, getattr(entry, "drop", None))


def _kept(state: State, action: Roll) -> list[Any]:
    assert state.dice is not None
    return [state.dice[i] for i in action.keep]
