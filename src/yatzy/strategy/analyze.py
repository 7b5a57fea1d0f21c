"""Game analysis: every decision of a game record against the best one.

A game is replayed from its record.  At every decision of every player — each
keep before a further roll, and the box (or boxes) written — the advisor ranks the
options of that player's own sheet as in solitaire play, and the analysis notes
the option chosen, the best option and the expected points lost.  Per player the
total and mean loss per decision sum it up, in the spirit of the Yahtzee
proficiency tests, and the expected final score before each of the player's turns
(the value of the position under best play from there) traces the game.  The
first roll of a turn is no decision and is not counted.

A score pad game has no rolls: where its final dice were entered, the box chosen
for them is rated (``scope == "boxes"``); a player who wrote only points in some
turn cannot be rated at all (``PlayerSummary.complete`` is False).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, Protocol, TypeVar

from yatzy.errors import RecordError, YatzyError
from yatzy.game import Action, Fill2, Game, Roll, Score, Scratch, State, load
from yatzy.game.actions import Entry
from yatzy.rules import Language
from yatzy.strategy.advisor import Advice, Option, advise, describe, match_option

MISTAKE = 0.005
"""A loss above this many points counts as a mistake (below it: rounding noise)."""

Scope = Literal["full", "boxes"]
Describer = Callable[[State, Action], str]


@dataclass(frozen=True)
class Decision:
    """One decision of a game: what was chosen, what was best, the expected loss.

    ``turn`` counts every player's turns of the game; ``own_turn`` only the
    deciding player's (1 to the number of boxes, DubbelYatzy's half of it).
    ``roll`` is how many rolls the turn had used (0 where a score pad does not
    know); ``kind`` is ``"keep"`` before a further roll, ``"box"`` for a fill.
    """

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
    own_turn: int = 0
    roll: int = 0
    kind: Literal["keep", "box"] = "box"

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {
            "turn": self.turn,
            "own_turn": self.own_turn,
            "player": self.player,
            "name": self.name,
            "kind": self.kind,
            "roll": self.roll,
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
    """One player's decisions summed up, and the expected final score before each
    of the player's turns (``expected``)."""

    player: int
    name: str
    final: int
    decisions: int = 0
    total_loss: float = 0.0
    mistakes: int = 0
    worst: list[Decision] = field(default_factory=list)
    expected: list[float] = field(default_factory=list)
    complete: bool = True

    @property
    def mean_loss(self) -> float:
        """The mean expected loss per decision."""
        return self.total_loss / self.decisions if self.decisions else 0.0

    @property
    def best_decisions(self) -> int:
        """How many decisions lost nothing (within rounding) against the best."""
        return self.decisions - self.mistakes

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {
            "player": self.player,
            "name": self.name,
            "final": self.final,
            "complete": self.complete,
            "decisions": self.decisions,
            "best_decisions": self.best_decisions,
            "total_loss": round(self.total_loss, 4),
            "mean_loss": round(self.mean_loss, 4),
            "mistakes": self.mistakes,
            "expected": [round(v, 4) for v in self.expected],
        }


@dataclass(frozen=True)
class Analysis:
    """The analysis of one game: every decision and a summary per player.

    ``scope`` says what was rated: ``"full"`` every keep and box, ``"boxes"`` only
    the boxes chosen for a score pad's final dice.
    """

    rules: str
    exact: bool
    method: str
    decisions: tuple[Decision, ...]
    players: tuple[PlayerSummary, ...]
    scope: Scope = "full"

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {
            "rules": self.rules,
            "exact": self.exact,
            "method": self.method,
            "scope": self.scope,
            "players": [p.to_json() for p in self.players],
            "decisions": [d.to_json() for d in self.decisions],
        }


def analyze_file(path: str) -> Analysis:
    """Analyse the game record in ``path``."""
    return analyze(load(path))


def describer(lang: Language | None) -> Describer:
    """How a decision's actions are put in words: :func:`describe`'s short English
    form for ``None``, else full sentences in ``lang``
    (:func:`yatzy.strategy.advice_words.describe`)."""
    if lang is None:
        return describe
    from yatzy.strategy.advice_words import describe as in_words

    return lambda state, action: in_words(state, action, lang)


class _Replay:
    """The bookkeeping of one analysis: decisions, per-player turn counts and values."""

    def __init__(self, state: State, text: Describer) -> None:
        self.state = state
        self.text = text
        self.decisions: list[Decision] = []
        self.own_turns = [0] * len(state.players)
        self.expected: list[list[float]] = [[] for _ in state.players]
        self.exact, self.method = True, ""

    def advise(self, replay: State) -> Advice:
        advice = advise(replay)
        self.exact, self.method = advice.exact, advice.method
        return advice

    def start_turn(self, replay: State, seat: int) -> None:
        """Count the seat's turn and note the expected final score before it."""
        self.own_turns[seat] += 1
        self.expected[seat].append(self.advise(replay).value)

    def decide(
        self, replay: State, action: Action, turn: int, seat: int, fills_only: bool = False
    ) -> None:
        advice = self.advise(replay)
        options = advice.options
        if fills_only:
            options = tuple(o for o in options if not isinstance(o.action, Roll))
        self.decisions.append(
            _decision(replay, advice, options, action, turn, seat, self, fills_only)
        )


def analyze(
    state: State,
    lang: Language | None = None,
    *,
    start: State | None = None,
    seats: Collection[int] | None = None,
) -> Analysis:
    """Analyse the game that led to ``state`` (replayed from its log).

    ``lang`` words the choices for players ("Behåll de två femmorna"); without it
    they are the advisor's short English descriptions.  ``start`` is the position
    the log's turns start from (default: a new game; a sub-game's record in tests;
    the position after the turns analysed before, to analyse only the turns since).
    ``seats`` limits the advice to those players' decisions and turns (the others'
    summaries then count none: a server measuring its people skips its bots).
    """
    if state.starter is None:
        raise YatzyError("the game has not started: the roll-off is not decided")
    if state.game.pad:
        return _analyze_pad(state, describer(lang))
    game: Game = state.game
    replay = game.new_initial_state(starter=state.starter) if start is None else start.clone()
    run = _Replay(state, describer(lang))
    for n, seat, action in replay_decisions(state, replay):
        if seats is not None and seat not in seats:
            continue
        if action is None:
            run.start_turn(replay, seat)
        else:
            run.decide(replay, action, n, seat)
    return _finish(state, run)


def replay_decisions(state: State, replay: State) -> Iterator[tuple[int, int, Action | None]]:
    """Replay the log of ``state`` on ``replay`` (from the turn ``replay`` is at),
    stopping before each decision: ``(turn number, seat, action)`` with ``replay`` at
    the position where the seat chose ``action`` (a keep after a roll, or the box),
    and ``(n, seat, None)`` at the start of turn ``n``.  The walker then applies the
    action itself; it stops where the log does (a roll without its dice, no box).
    """
    first = len(replay.log)
    for n, turn in enumerate(state.log[first:], start=first + 1):
        seat = turn["player"]
        yield n, seat, None
        for r, roll in enumerate(turn.get("rolls", [])):
            keep = tuple(roll.get("keep", []))
            if r > 0:
                yield n, seat, Roll(keep)
            replay.apply(Roll(keep))
            dice = roll.get("dice")
            if dice is None or None in dice:
                return
            replay.apply_roll([_die(d) for i, d in enumerate(dice) if i not in keep])
        action = _fill_of(turn, replay.rules.double)
        if action is None:
            return
        yield n, seat, action
        replay.apply(action)


def pad_has_dice(turn: dict[str, Any]) -> bool:
    """Whether a score pad turn entered its final dice (and scored them)."""
    inner = turn.get("inner", {})
    return "dice" in turn and not turn.get("written") and not inner.get("written")


def _analyze_pad(state: State, text: Describer) -> Analysis:
    """Rate the box chosen for each score pad turn whose final dice were entered."""
    rules = state.rules
    if rules.saves_rolls:
        raise YatzyError("a score pad does not track saved rolls, so its choices cannot be rated")
    game = Game(rules, list(state.players))
    replay = game.new_initial_state(starter=state.starter)
    run = _Replay(state, text)
    turns = [t for t in state.log if _fill_of(t, rules.double) is not None]
    rated = [
        all(pad_has_dice(t) for t in turns if t["player"] == seat)
        for seat in range(len(state.players))
    ]
    # Unequal faces, so that no joker rule constrains the placeholder's box.
    faces = range(1, rules.num_dice + 1)
    placeholder: list[Any] = [(f, f % 6 + 1) if rules.double else f for f in faces]
    for n, turn in enumerate(turns, start=1):
        seat = turn["player"]
        action = _fill_of(turn, rules.double)
        assert action is not None
        if rated[seat]:
            run.start_turn(replay, seat)
        replay.apply(Roll(()))
        if not rated[seat]:
            # Only the boxes matter for the other sheets: the points are not rated.
            replay.apply_roll(placeholder)
            replay.apply(_as_score(action))
            continue
        replay.apply_roll([_die(d) for d in turn["dice"]])
        run.decide(replay, action, n, seat, fills_only=True)
        replay.apply(action)
    result = _finish(state, run, scope="boxes")
    for summary, ok in zip(result.players, rated, strict=True):
        summary.complete = ok
    return result


def _as_score(action: Action) -> Action:
    if isinstance(action, Fill2):
        return Fill2(Score(action.inner.box), Score(action.outer.box))
    assert isinstance(action, (Score, Scratch))
    return Score(action.box)


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
    state: State,
    advice: Advice,
    options: tuple[Option, ...],
    action: Action,
    turn: int,
    seat: int,
    run: _Replay,
    pad: bool,
) -> Decision:
    try:
        value = match_option(advice, state, action).value
    except YatzyError:
        value = value_after(state, action)
    best = options[0]
    dice = [list(d) if isinstance(d, tuple) else d for d in state.dice or []]
    return Decision(
        turn=turn,
        player=seat,
        name=state.players[seat].name,
        dice=dice,
        rolls_left=0 if pad else state.rolls_left(),
        chosen=run.text(state, action),
        best=run.text(state, best.action),
        chosen_value=value,
        best_value=best.value,
        loss=max(0.0, best.value - value),
        own_turn=run.own_turns[seat],
        roll=0 if pad else state.rolls_used,
        kind="keep" if isinstance(action, Roll) else "box",
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
    from yatzy.strategy.approx import approx_for, saved_rolls_worth

    strategy = approx_for(state.rules.spec)
    fifty = sheet.points("yatzy") == 50 and strategy.proxy.has_joker
    saved = sheet.saved_rolls if state.rules.saves_rolls else 0
    worth = saved_rolls_worth(
        saved, len(sheet.open_boxes), strategy.saved_roll_value, strategy.saved_roll_cap
    )
    return (
        sheet.total
        - sheet.bonus
        + strategy.future(sheet.open_boxes, sheet.upper_sum, fifty)
        + worth
    )


class _Rated(Protocol):
    @property
    def player(self) -> int: ...


D = TypeVar("D", bound=_Rated)


@dataclass
class Tally(Generic[D]):
    """One player's rated decisions counted (:func:`tally`): how many, their summed
    cost, how many cost more than the threshold, and the costliest three of those."""

    count: int = 0
    total: float = 0.0
    over: int = 0
    worst: list[D] = field(default_factory=list)


def tally(
    decisions: Sequence[D], players: int, cost: Callable[[D], float], threshold: float
) -> list[Tally[D]]:
    """Each of ``players`` seats' :class:`Tally` of ``decisions`` (each has a
    ``player``), a decision's cost read by ``cost``: shared by the analysis in points
    (loss, mistakes) and the one in win chance (cost in chance, costly decisions)."""
    tallies: list[Tally[D]] = [Tally() for _ in range(players)]
    for d in decisions:
        t = tallies[d.player]
        t.count += 1
        t.total += cost(d)
        if cost(d) > threshold:
            t.over += 1
            t.worst.append(d)
    for t in tallies:
        t.worst = sorted(t.worst, key=lambda d: -cost(d))[:3]
    return tallies


def _loss(decision: Decision) -> float:
    return decision.loss


def _finish(state: State, run: _Replay, scope: Scope = "full") -> Analysis:
    decisions = run.decisions
    players = [PlayerSummary(i, p.name, state.sheets[i].final) for i, p in enumerate(state.players)]
    for s, t in zip(players, tally(decisions, len(players), _loss, MISTAKE), strict=True):
        s.decisions, s.total_loss, s.mistakes, s.worst = t.count, t.total, t.over, t.worst
        s.expected = run.expected[s.player]
    if not decisions and not state.log:
        raise RecordError("the record has no turns to analyse", field="turns")
    return Analysis(
        state.rules.spec, run.exact, run.method, tuple(decisions), tuple(players), scope
    )
