"""Game analysis: every decision of a game record against the best one.

A game is replayed from its record.  At every decision of every player — each
keep before a further roll, and the box (or boxes) written — the advisor ranks the
options of that player's own sheet as in solitaire play, and the analysis notes
the option chosen, the best option and the expected points lost.  Per player the
total and mean loss per decision sum it up, in the spirit of the Yahtzee
proficiency tests.  The first roll of a turn is no decision and is not counted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from yatzy.errors import RecordError, YatzyError
from yatzy.game import Action, Fill2, Game, Roll, Score, Scratch, State, load
from yatzy.game.actions import Entry
from yatzy.strategy.advisor import Advice, advise, describe, match_option

MISTAKE = 0.005
"""A loss above this many points counts as a mistake (below it: rounding noise)."""


@dataclass(frozen=True)
class Decision:
    """One decision of a game: what was chosen, what was best, the expected loss."""

    turn: int
    player: int
    name: str
    dice: list[Any]
    rolls_left: int
    chosen: str
    best: str
    chosen_value: float
    best_value: float
    loss: float

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {
            "turn": self.turn,
            "player": self.player,
            "name": self.name,
            "dice": self.dice,
            "rolls_left": self.rolls_left,
            "chosen": self.chosen,
            "best": self.best,
            "chosen_value": round(self.chosen_value, 4),
            "best_value": round(self.best_value, 4),
            "loss": round(self.loss, 4),
        }


@dataclass
class PlayerSummary:
    """One player's decisions summed up."""

    player: int
    name: str
    final: int
    decisions: int = 0
    total_loss: float = 0.0
    mistakes: int = 0
    worst: list[Decision] = field(default_factory=list)

    @property
    def mean_loss(self) -> float:
        """The mean expected loss per decision."""
        return self.total_loss / self.decisions if self.decisions else 0.0

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {
            "player": self.player,
            "name": self.name,
            "final": self.final,
            "decisions": self.decisions,
            "total_loss": round(self.total_loss, 4),
            "mean_loss": round(self.mean_loss, 4),
            "mistakes": self.mistakes,
        }


@dataclass(frozen=True)
class Analysis:
    """The analysis of one game: every decision and a summary per player."""

    rules: str
    exact: bool
    method: str
    decisions: tuple[Decision, ...]
    players: tuple[PlayerSummary, ...]

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {
            "rules": self.rules,
            "exact": self.exact,
            "method": self.method,
            "players": [p.to_json() for p in self.players],
            "decisions": [d.to_json() for d in self.decisions],
        }


def analyze_file(path: str) -> Analysis:
    """Analyse the game record in ``path``."""
    return analyze(load(path))


def analyze(state: State) -> Analysis:
    """Analyse the game that led to ``state`` (replayed from its log)."""
    if state.game.pad:
        raise YatzyError("a score pad record has no rolls to analyse")
    if state.starter is None:
        raise YatzyError("the game has not started: the roll-off is not decided")
    game: Game = state.game
    replay = game.new_initial_state(starter=state.starter)
    decisions: list[Decision] = []
    exact, method = True, ""
    for n, turn in enumerate(state.log, start=1):
        seat = turn["player"]
        name = game.players[seat].name
        for r, roll in enumerate(turn.get("rolls", [])):
            keep = tuple(roll.get("keep", []))
            if r > 0:
                advice = advise(replay)
                exact, method = advice.exact, advice.method
                decisions.append(_decision(replay, advice, Roll(keep), n, seat, name))
            replay.apply(Roll(keep))
            dice = roll.get("dice")
            if dice is None or None in dice:
                return _finish(state, decisions, exact, method)
            replay.apply_roll([_die(d) for i, d in enumerate(dice) if i not in keep])
        action = _fill_of(turn, replay.rules.double)
        if action is None:
            break
        advice = advise(replay)
        exact, method = advice.exact, advice.method
        decisions.append(_decision(replay, advice, action, n, seat, name))
        replay.apply(action)
    return _finish(state, decisions, exact, method)


def _die(d: Any) -> Any:
    return tuple(d) if isinstance(d, list) else d


def _entry(raw: dict[str, Any]) -> Entry:
    if raw.get("scratch"):
        return Scratch(raw["box"])
    return Score(raw["box"], raw.get("drop"))


def _fill_of(turn: dict[str, Any], double: bool) -> Action | None:
    if double:
        if "inner" not in turn:
            return None
        return Fill2(_entry(turn["inner"]), _entry(turn["outer"]))
    if "box" not in turn:
        return None
    return _entry(turn)


def _decision(
    state: State, advice: Advice, action: Action, turn: int, seat: int, name: str
) -> Decision:
    try:
        option = match_option(advice, state, action)
        value = option.value
    except YatzyError:
        value = value_after(state, action)
    best = advice.options[0]
    dice = [list(d) if isinstance(d, tuple) else d for d in state.dice or []]
    return Decision(
        turn=turn,
        player=seat,
        name=name,
        dice=dice,
        rolls_left=state.rolls_left(),
        chosen=describe(state, action),
        best=best.text,
        chosen_value=value,
        best_value=best.value,
        loss=max(0.0, best.value - value),
    )


def value_after(state: State, action: Action) -> float:
    """The expected final score after a fill that the advice does not list.

    DubbelYatzy's advice lists each box with its best drop; a worse drop is valued
    here by the same strategy.
    """
    from yatzy.strategy.advisor import is_exact, solver_covering

    after = state.clone()
    after.apply(action)
    sheet = after.sheets[state.player]
    if is_exact(state.rules):
        return solver_covering(state.rules, state.sheet.open_boxes).value(sheet)
    from yatzy.strategy.approx import SAVED_ROLL_VALUE, approx_for

    strategy = approx_for(state.rules.spec)
    fifty = sheet.points("yatzy") == 50 and strategy.proxy.has_joker
    saved = sheet.saved_rolls if state.rules.saves_rolls else 0
    return (
        sheet.total
        - sheet.bonus
        + strategy.future(sheet.open_boxes, sheet.upper_sum, fifty)
        + saved * SAVED_ROLL_VALUE
    )


def _finish(state: State, decisions: list[Decision], exact: bool, method: str) -> Analysis:
    players = [PlayerSummary(i, p.name, state.sheets[i].final) for i, p in enumerate(state.players)]
    for d in decisions:
        s = players[d.player]
        s.decisions += 1
        s.total_loss += d.loss
        s.mistakes += d.loss > MISTAKE
    for s in players:
        mine = [d for d in decisions if d.player == s.player and d.loss > MISTAKE]
        s.worst = sorted(mine, key=lambda d: -d.loss)[:3]
    if not decisions and not state.log:
        raise RecordError("the record has no turns to analyse", field="turns")
    return Analysis(state.rules.spec, exact, method, tuple(decisions), tuple(players))
