"""Property tests: random legal games of every rule set and option combination, and
random illegal actions that must be refused without changing anything.

The combinations come from VARIANTS and OPTIONS (see ``conftest.rule_set_combos``),
so a new option is played here without editing this file; integer options are
drawn over their whole range.  Each combination runs a few hypothesis examples
(the ``ci`` profile keeps the file at about a minute on two cores).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import ALL_RULE_SETS, DEFAULT_RULE_SETS, int_option_range, snapshot
from yatzy.errors import NotYourTurnError, YatzyError
from yatzy.game import (
    CHANCE,
    TERMINAL,
    Action,
    Fill2,
    Game,
    Roll,
    Score,
    Scratch,
    SetDice,
    State,
    Undo,
    Write,
    from_record,
    to_record,
)
from yatzy.rules import CATEGORIES, JOKER_POINTS, OPTIONS, YATZY_BONUS_POINTS, RuleSet

PER_COMBO = max(1, (settings.default or settings()).max_examples // 15)
"""Examples per rule-set combination (the profile's max_examples is per test)."""

ALL_BOX_IDS = [*CATEGORIES, "bogus", "", "Ones", "sum", "bonus", "total"]


@st.composite
def rule_sets(draw: st.DrawFn, base: RuleSet) -> RuleSet:
    """``base`` with every integer option drawn: its default, an end or any value."""
    changes: dict[str, Any] = {}
    for name in base.info.options:
        if OPTIONS[name].kind != "int":
            continue
        lo, hi = int_option_range(base, name)
        default = getattr(base, name)
        changes[name] = draw(st.one_of(st.sampled_from([default, lo, hi]), st.integers(lo, hi)))
    return base.replace(**changes)


def _new_game(rules: RuleSet, players: int) -> State:
    return Game(rules, [f"p{i}" for i in range(players)]).new_initial_state()


def _pick(state: State, rng: random.Random, legal: list[Action] | None = None) -> Action:
    """A random legal action; rolling and filling are chosen about equally often."""
    legal = state.legal_actions() if legal is None else legal
    assert legal, f"no legal action in {state}"
    rolls = [a for a in legal if isinstance(a, Roll)]
    fills = [a for a in legal if not isinstance(a, Roll)]
    if rolls and (not fills or rng.random() < 0.5):
        return rng.choice(rolls)
    return rng.choice(fills)


def _step(state: State, rng: random.Random) -> None:
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == 1
        state.apply_chance(rng.choice(outcomes)[0])
    else:
        state.apply(_pick(state, rng))


def _replay(state: State) -> State:
    again = from_record(json.loads(json.dumps(to_record(state))))
    assert again == state
    assert again.totals() == state.totals()
    assert again.winners() == state.winners()
    return again


# -- invariants --------------------------------------------------------------------------


def _writes(turn: dict[str, Any]) -> list[dict[str, Any]]:
    """The boxes a logged turn wrote (one, or DubbelYatzy's inner and outer)."""
    if "inner" in turn:
        return [turn["inner"], turn["outer"]]
    return [turn] if "box" in turn else []


def _last_dice(turn: dict[str, Any]) -> list[Any]:
    dice: list[Any] = turn["rolls"][-1]["dice"]
    return dice


def _check_points(rules: RuleSet, turn: dict[str, Any]) -> None:
    """Each written score matches its dice (joker points where the joker may apply)."""
    dice = _last_dice(turn)
    for layer, write in zip(("inner", "outer"), _writes(turn), strict=False):
        box = write["box"]
        if write.get("scratch"):
            assert write["points"] == 0
            assert rules.scratchable(box)
            continue
        if rules.double:
            faces = [d[1] if layer == "inner" else d[0] for d in dice]
            assert write["drop"] in faces
            assert write["points"] == rules.score_dropped(box, faces, write["drop"])
            assert write["points"] <= rules.score(box, faces)
        else:
            allowed = {rules.score(box, dice)}
            if rules.has_joker and len(set(dice)) == 1 and box in JOKER_POINTS:
                allowed.add(JOKER_POINTS[box])
            assert write["points"] in allowed, (box, dice, write)


def _check_order(rules: RuleSet, filled: list[list[str]]) -> None:
    """The forced and half-forced rules: boxes in protocol order (by turns)."""
    flat = [b for group in filled for b in group]
    k = rules.results_per_turn
    extra = [b for b in rules.boxes if b == "extra"]
    if rules.forced:
        orders = [list(rules.boxes)]
    elif rules.half_forced:
        orders = [
            list(rules.boxes),
            [*rules.lower_boxes, *rules.upper_boxes, *extra],
        ]
    else:
        return
    matches = [
        order
        for order in orders
        if all(set(group) == set(order[i * k : (i + 1) * k]) for i, group in enumerate(filled))
    ]
    assert matches, f"{rules.spec}: boxes filled as {flat}"


def _check_last_resort(rules: RuleSet, turns: list[dict[str, Any]]) -> None:
    """Option last_resort, from one seat's turns: Chance only when the final dice
    scored in no other open box, 0 only when they scored in none (free order; with
    forced order the one allowed box always takes the dice)."""
    if rules.forced or rules.half_forced:
        return
    still_open = list(rules.boxes)
    for t in turns:
        dice = t["rolls"][-1]["dice"]
        points = {b: rules.score(b, dice) for b in still_open}
        box = t["box"]
        if t["points"] == 0:
            assert not any(points.values()), f"0 in {box} though {dice} score: {points}"
        if box == "chance":
            assert not any(p for b, p in points.items() if b != "chance"), (dice, points)
        still_open.remove(box)


def check_finished(state: State) -> None:
    """Every invariant of a finished game."""
    rules = state.rules
    n = state.game.num_players
    assert state.is_terminal()
    assert state.current_player() == TERMINAL
    assert state.legal_actions() == []
    assert state.turn_number == rules.turns * n
    assert len(state.log) == rules.turns * n
    assert state.starter is not None
    for k, turn in enumerate(state.log):
        assert turn["player"] == (state.starter + k) % n  # seat order from the starter
        assert len(turn["rolls"]) >= 1
        if not rules.saves_rolls:
            assert len(turn["rolls"]) <= 3
        elif rules.saved_rolls == "next":
            assert len(turn["rolls"]) <= 5
        _check_points(rules, turn)

    totals = []
    for seat, sheet in enumerate(state.sheets):
        turns = [t for t in state.log if t["player"] == seat]
        assert len(turns) == rules.turns
        if rules.saved_rolls == "all":  # a turn uses 3 plus the rolls saved before it
            used = 0
            for k, t in enumerate(turns, start=1):
                used += len(t["rolls"])
                assert used <= 3 * k
        if rules.saved_rolls == "next":  # at most 2 unused rolls carry into the next turn
            carried = 0
            for t in turns:
                assert len(t["rolls"]) <= 3 + carried
                carried = min(2, 3 + carried - len(t["rolls"]))
            assert sheet.saved_rolls == carried
        if rules.last_resort:
            _check_last_resort(rules, turns)
        filled = [[w["box"] for w in _writes(t)] for t in turns]
        boxes = Counter(b for group in filled for b in group)
        assert boxes == Counter(rules.boxes), "every box exactly once"
        assert all(len(set(g)) == rules.results_per_turn for g in filled)
        _check_order(rules, filled)
        assert sheet.is_full
        for t in turns:
            for w in _writes(t):
                entry = sheet.entries[w["box"]]
                assert entry is not None and entry.points == w["points"]
        upper = sum(sheet.points(b) or 0 for b in rules.upper_boxes)
        assert sheet.upper_sum == upper
        bonus = rules.bonus if upper >= rules.threshold else 0
        assert sheet.bonus == bonus
        bonuses = sum(1 for t in turns if t.get("yatzy_bonus"))
        assert all(t["yatzy_bonus"] == YATZY_BONUS_POINTS for t in turns if "yatzy_bonus" in t)
        if not rules.has_joker:
            assert bonuses == 0
        assert sheet.yatzy_bonuses == bonuses
        in_boxes = sum(sheet.points(b) or 0 for b in rules.boxes if b != "extra")
        assert sheet.total == in_boxes + bonus + YATZY_BONUS_POINTS * bonuses
        extra = sheet.points("extra") or 0 if rules.double else 0
        assert sheet.final == sheet.total + extra
        totals.append(sheet.final)
    assert state.totals() == totals
    best = max(totals)
    assert state.winners() == [i for i, t in enumerate(totals) if t == best]


# -- random legal games ------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("base", ALL_RULE_SETS, ids=str)
@settings(max_examples=PER_COMBO)
@given(data=st.data())
def test_random_legal_games(base: RuleSet, data: st.DataObject) -> None:
    rules = data.draw(rule_sets(base), label="rules")
    players = data.draw(st.integers(1, 4), label="players")
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    rng = random.Random(seed)
    state = _new_game(rules, players)
    if players == 1:
        assert state.rolloff == [] and state.current_player() == 0
    else:
        assert state.current_player() == CHANCE
    checkpoint = rng.randrange(40, 400)
    steps = 0
    while not state.is_terminal():
        _step(state, rng)
        steps += 1
        if steps == checkpoint:  # a record taken mid-game replays to the same position
            again = _replay(state)
            twin = state.clone()
            for _ in range(5):
                if again.is_terminal():
                    break
                r1, r2 = random.Random(steps), random.Random(steps)
                _step(again, r1)
                _step(twin, r2)
            assert again == twin
    check_finished(state)
    check_finished(_replay(state))


# -- random illegal actions --------------------------------------------------------------


def _random_entry(rng: random.Random, legal_boxes: list[str]) -> Score | Scratch:
    box = rng.choice(legal_boxes + ALL_BOX_IDS) if rng.random() < 0.8 else rng.choice(ALL_BOX_IDS)
    if rng.random() < 0.3:
        return Scratch(box)
    drop = rng.choice([None, None, rng.randint(-1, 8)])
    return Score(box, drop)


def _random_action(state: State, rng: random.Random, legal: list[Action]) -> Action:
    """A random action: often legal, often almost legal, sometimes nonsense (the
    score pad's SetDice and Write included, which a rolled game refuses)."""
    boxes = [b for b in state.rules.boxes if state.sheets[max(0, state.player)].is_open(b)]
    kind = rng.randrange(7)
    if kind == 0 and legal:
        return rng.choice(legal)
    if kind == 1:
        size = rng.randint(0, 7)
        return Roll(tuple(rng.randint(-2, 7) for _ in range(size)))
    if kind == 2:
        return Fill2(_random_entry(rng, boxes), _random_entry(rng, boxes))
    if kind == 3:
        return Write(rng.choice(boxes + ALL_BOX_IDS), rng.randint(-5, 60), rng.random() < 0.2)
    if kind == 4:
        return SetDice(tuple(rng.randint(1, 6) for _ in range(state.rules.num_dice)))
    return _random_entry(rng, boxes)


def _equivalent_is_legal(action: Action, legal: set[Action]) -> bool:
    """Whether ``action`` is one of ``legal`` up to the order of kept positions and a
    DubbelYatzy drop left to the state (``None`` picks the best)."""
    if isinstance(action, Roll):
        return Roll(tuple(sorted(action.keep))) in legal
    if isinstance(action, Fill2):
        return any(
            isinstance(a, Fill2) and _same(action.inner, a.inner) and _same(action.outer, a.outer)
            for a in legal
        )
    return action in legal


def _same(entry: Action, other: Action) -> bool:
    if not isinstance(entry, Score):
        return entry == other
    return (
        isinstance(other, Score)
        and entry.box == other.box
        and (entry.drop is None or entry.drop == other.drop)
    )


def _try(state: State, action: Action, player: int | None, legal: set[Action], deep: bool) -> bool:
    """Apply ``action`` if the rules allow it; if refused, check nothing changed
    (``deep``: the whole record too, not only ``==``)."""
    before = state.clone()
    before_json = snapshot(state) if deep else ""
    to_act = state.current_player()
    try:
        state.apply(action, player=player)
    except YatzyError as exc:
        assert state == before, f"refused {action} ({exc}) but the state changed"
        if deep:
            assert snapshot(state) == before_json
        if player is not None and player != to_act and to_act >= 0:
            assert isinstance(exc, NotYourTurnError)
        else:
            assert action not in legal, f"legal {action} was refused: {exc}"
        return False
    assert player is None or player == to_act, f"{action} by seat {player} out of turn"
    assert _equivalent_is_legal(action, legal), f"{action} was accepted but is not legal"
    return True


@pytest.mark.slow
@pytest.mark.parametrize("base", ALL_RULE_SETS, ids=str)
@settings(max_examples=PER_COMBO)
@given(data=st.data())
def test_random_illegal_actions(base: RuleSet, data: st.DataObject) -> None:
    rules = data.draw(rule_sets(base), label="rules")
    players = data.draw(st.integers(1, 3), label="players")
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    state = _new_game(rules, players)
    tries = 0
    while not state.is_terminal():
        if state.is_chance_node():
            if rng.random() < 0.2:
                # Junk dice are refused; acting while the dice roll is refused.
                bad = rng.choice([0, 7, -1, True, None, "3", (0, 1), (7, 7), [1], 2.5])
                before = state.clone()
                with pytest.raises(YatzyError):
                    state.apply_chance(bad)  # type: ignore[arg-type]
                assert state == before
                with pytest.raises(NotYourTurnError):
                    state.apply(_random_action(state, rng, []))
                assert state == before
            _step(state, rng)
            continue
        legal_list = state.legal_actions()
        legal = set(legal_list)
        assert len(legal) == len(legal_list), "legal_actions lists an action twice"
        applied = False
        for _ in range(3):
            player = rng.choice([None, None, None, *range(-1, players + 1)])
            tries += 1
            deep = tries % 10 == 0
            if _try(state, _random_action(state, rng, legal_list), player, legal, deep):
                applied = True
                break
        if not applied:
            state.apply(_pick(state, rng, legal_list))
    check_finished(state)
    # After the end every action is refused with nothing changed.
    for _ in range(5):
        before = state.clone()
        with pytest.raises(YatzyError):
            state.apply(_random_action(state, rng, []), player=rng.choice([None, 0]))
        assert state == before


# -- undo ----------------------------------------------------------------------------------


def _position(state: State) -> tuple[Any, ...]:
    """Everything of a position but the log (which keeps the undone writes)."""
    return (
        state.turn_number,
        state.dice,
        state.rolls_used,
        state.pending,
        state.phase,
        state.current_player(),
        state.rolls_left() if not state.is_terminal() else None,
        [(s.entries, s.yatzy_bonuses, s.saved_rolls, s.first_section) for s in state.sheets],
    )


UNDO_RULE_SETS = [
    *DEFAULT_RULE_SETS,
    RuleSet("yatzy", half_forced=True),
    RuleSet("maxi", saved_rolls=True),
    RuleSet("dubbel", forced=True),
]


@pytest.mark.slow
@pytest.mark.parametrize("base", UNDO_RULE_SETS, ids=str)
@settings(max_examples=max(2, PER_COMBO))
@given(data=st.data())
def test_random_games_that_undo(base: RuleSet, data: st.DataObject) -> None:
    """Writes randomly taken back (the game's last write too): the position is exactly
    the one before the write, a wrong seat or a late undo is refused without a trace,
    and the record replays."""
    players = data.draw(st.integers(1, 3), label="players")
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    state = _new_game(base, players)
    undone = 0
    while not state.is_terminal():
        if state.is_chance_node():
            _step(state, rng)
            continue
        action = _pick(state, rng)
        writes = not isinstance(action, Roll | SetDice)
        before = state.clone()
        seat = state.current_player()
        state.apply(action)
        if not writes:
            assert state.undo_seat() is None
            continue
        # every write, the game's last too (the game then goes on)
        assert state.undo_seat() == seat
        if players > 1:
            other = (seat + 1) % players
            frozen = snapshot(state)
            with pytest.raises(NotYourTurnError):
                state.apply(Undo(), player=other)
            assert snapshot(state) == frozen
        if rng.random() < 0.3:
            state.apply(Undo(), player=seat)
            undone += 1
            assert _position(state) == _position(before)
            assert state.undo_seat() is None and not state.is_terminal()
            frozen = snapshot(state)
            with pytest.raises(YatzyError, match="nothing to undo"):
                state.apply(Undo())
            assert snapshot(state) == frozen
            if rng.random() < 0.2:  # a record saved just after an undo replays to it
                assert _replay(state).undo_seat() is None
        elif rng.random() < 0.1:  # ... and one saved just after a write can still undo
            assert _replay(state).undo_seat() == seat
    check_finished(state)
    again = _replay(state)
    assert sum(len(t.get("undone", [])) for t in again.log) == undone
