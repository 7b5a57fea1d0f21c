"""Verifiable dice: the documented function, commit and reveal, tampering named,
duplicate dice, and every variant played with them."""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import DEFAULT_RULE_SETS
from yatzy.errors import IllegalActionError, RecordError
from yatzy.game import FairDice, Game, Roll, State, to_record, verify_record
from yatzy.game.fair_dice import (
    SCHEME,
    SCHEME_V1,
    ContributionsClosedError,
    DiceMismatchError,
    FairDiceError,
    commitment_of,
    die_label,
    faces,
)
from yatzy.rules import RuleSet

SEED = bytes(range(32))


def _by_hand(seed: bytes, contributions: list[str], label: str, count: int) -> list[int]:
    """The function as docs/fair-dice.md writes it, independently of the module."""
    ctx = hashlib.sha256(b"yatzy-dice/1\n")
    for c in contributions:
        ctx.update(len(c.encode()).to_bytes(2, "big") + c.encode())
    context = ctx.digest()
    stream = b"".join(
        hmac.new(seed, context + label.encode() + b":" + i.to_bytes(4, "big"), "sha256").digest()
        for i in range(4)
    )
    return [b % 6 + 1 for b in stream if b < 252][:count]


def _play(rules: RuleSet | str, dice: FairDice, players: int = 2, seed: int = 1) -> State:
    state = Game(rules, [f"P{i}" for i in range(players)]).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.roll(dice)
        else:
            state.apply(rng.choice(state.legal_actions()))
    return state


def _record(state: State, dice: FairDice) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(json.dumps(to_record(state, dice=dice.proof(reveal=True))))
    return data


def test_faces_follow_the_documented_function() -> None:
    for label in ("turn/0/roll/0/die/0", "rolloff/2/seat/1", "round/3/die/5/draw/1"):
        for contributions in ([], ["Anna's phone"], ["x", "yz"]):
            assert faces(SEED, contributions, label, 12) == _by_hand(SEED, contributions, label, 12)
    assert commitment_of(SEED) == hashlib.sha256(SEED).hexdigest()
    # A contribution changes the dice; its boundaries count ("x","yz" is not "xy","z").
    assert faces(SEED, ["x", "yz"], "a", 20) != faces(SEED, ["xy", "z"], "a", 20)


def test_faces_are_uniform() -> None:
    counts = Counter(f for n in range(2000) for f in faces(SEED, [], f"turn/{n}", 30))
    total = sum(counts.values())
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    # 60,000 faces: each within 5 standard deviations of 10,000 (sd about 91).
    assert all(abs(c - total / 6) < 5 * (total * (1 / 6) * (5 / 6)) ** 0.5 for c in counts.values())


@pytest.mark.parametrize("rules", DEFAULT_RULE_SETS, ids=lambda r: r.spec)
def test_every_variant_verifies_and_a_changed_die_is_named(rules: RuleSet) -> None:
    dice = FairDice.new()
    state = _play(rules, dice, players=3)
    data = _record(state, dice)
    verified = verify_record(data)
    rolled = sum(
        sum(1 for i, _ in enumerate(r["dice"]) if i not in r["keep"])
        for t in data["turns"]
        for r in t["rolls"]
    ) + sum(len(rnd) for rnd in data["rolloff"])
    assert verified.dice == rolled and verified.commitment == dice.commitment
    # Change the first die of turn 4's first roll: named, even where a score breaks too.
    bad = copy.deepcopy(data)
    die = bad["turns"][3]["rolls"][0]["dice"]
    die[0] = [die[0][0] % 6 + 1, die[0][1]] if rules.double else die[0] % 6 + 1
    with pytest.raises(DiceMismatchError) as caught:
        verify_record(bad)
    assert caught.value.where.startswith("turn 4 (") and caught.value.where.endswith(
        "roll 1, die 1"
    )
    assert caught.value.turn == 4 and caught.value.field == "rolls[0].dice[0]"


def test_a_changed_seed_commitment_or_contribution_is_refused() -> None:
    dice = FairDice.new()
    dice.contributions.append("my phone")
    state = _play("yatzy", dice)
    data = _record(state, dice)
    assert verify_record(data).dice > 0
    other = copy.deepcopy(data)
    other["dice"]["seed"] = FairDice.new().seed.hex()
    with pytest.raises(DiceMismatchError, match="does not match the commitment") as caught:
        verify_record(other)
    assert caught.value.where == "seed"
    other = copy.deepcopy(data)
    other["dice"]["commitment"] = "0" * 64
    with pytest.raises(DiceMismatchError, match="commitment"):
        verify_record(other)
    other = copy.deepcopy(data)
    other["dice"]["contributions"] = ["someone else's phone"]
    with pytest.raises(DiceMismatchError):
        verify_record(other)


def test_records_that_cannot_be_checked_say_why() -> None:
    dice = FairDice.new()
    state = _play("yatzy", dice, players=1)
    plain = json.loads(json.dumps(to_record(state)))
    with pytest.raises(RecordError, match="no dice proof"):
        verify_record(plain)
    hidden = json.loads(json.dumps(to_record(state, dice=dice.proof(reveal=False))))
    with pytest.raises(RecordError, match="not revealed"):
        verify_record(hidden)
    pad = Game("yatzy", ["A"], pad=True).new_initial_state()
    with pytest.raises(RecordError, match="score pad"):
        verify_record(json.loads(json.dumps(to_record(pad, dice=dice.proof(reveal=True)))))
    with pytest.raises(RecordError, match="scheme"):
        verify_record({**_record(state, dice), "dice": {"scheme": "md5"}})


def test_contributions_close_at_the_first_die_of_the_game_and_are_checked() -> None:
    dice = FairDice.new()
    state = Game("yatzy", ["A", "B"]).new_initial_state()
    dice.contribute(state, "from Anna")
    with pytest.raises(FairDiceError, match="1-64"):
        dice.contribute(state, "x" * 65)
    with pytest.raises(FairDiceError, match="printed"):
        dice.contribute(state, "bell\a")
    state.roll(dice)  # the roll-off: who starts, from the seed alone
    assert dice.open_for(state)
    dice.contribute(state, "from Bo, who joined after the roll-off")
    state.apply(Roll(()))  # the first roll of the first turn
    assert not dice.open_for(state)
    with pytest.raises(ContributionsClosedError, match="first die"):
        dice.contribute(state, "too late")
    assert isinstance(ContributionsClosedError("x"), IllegalActionError)
    assert dice.contributions == ["from Anna", "from Bo, who joined after the roll-off"]


def test_the_roll_off_comes_from_the_seed_alone_and_version_1_still_verifies() -> None:
    first = Game("yatzy", ["A", "B", "C"]).new_initial_state()
    plain, mixed = FairDice(SEED), FairDice(SEED, contributions=["a phone"])
    first.roll(plain)
    second = Game("yatzy", ["A", "B", "C"]).new_initial_state()
    second.roll(mixed)
    assert first.rolloff == second.rolloff  # contributions do not move the roll-off
    assert [d for _, d in first.rolloff[0]] == [
        _by_hand(SEED, [], f"rolloff/0/seat/{seat}", 1)[0] for seat in range(3)
    ]
    # Version 1 mixed the contributions into the roll-off too and closed them there.
    old = FairDice(SEED, contributions=["a phone"], scheme=SCHEME_V1)
    state = Game("yatzy", ["A", "B", "C"]).new_initial_state()
    state.roll(old)
    assert [d for _, d in state.rolloff[0]] == [
        _by_hand(SEED, ["a phone"], f"rolloff/0/seat/{seat}", 1)[0] for seat in range(3)
    ]
    assert not old.open_for(state)
    state = _play("yatzy", old, players=3)
    data = _record(state, old)
    assert data["dice"]["scheme"] == SCHEME_V1
    assert verify_record(data).dice > 0
    assert _record(_play("yatzy", FairDice(SEED)), FairDice(SEED))["dice"]["scheme"] == SCHEME


def _keeps_and_dice(dice: FairDice, players: int, keep_rule: int) -> list[list[Any]]:
    """Each seat's dice over two rounds, keeping the dice of face ``keep_rule``."""
    state = Game("yatzy", [f"P{i}" for i in range(players)]).new_initial_state(starter=0)
    seen: list[list[Any]] = [[] for _ in range(players)]
    for _ in range(2 * players):
        seat = state.player
        state.apply(Roll(()))
        state.roll(dice)
        seen[seat].append(list(state.dice or []))
        keep = tuple(i for i, f in enumerate(state.dice or []) if f == keep_rule)
        if len(keep) < 5:
            state.apply(Roll(keep))
            state.roll(dice)
            seen[seat].append(list(state.dice or []))
        state.apply(state.legal_actions()[-1])
    return seen


def test_duplicate_dice_give_the_same_rolls_to_the_same_keeps() -> None:
    dice = FairDice(SEED, "duplicate")
    seats = _keeps_and_dice(dice, 3, keep_rule=6)
    assert seats[0] == seats[1] == seats[2]  # same round, same keeps: same dice
    solo = _keeps_and_dice(FairDice(SEED, "duplicate"), 1, keep_rule=6)
    assert solo[0] == seats[0][: len(solo[0])]
    standard = _keeps_and_dice(FairDice(SEED, "standard"), 3, keep_rule=6)
    assert standard[0] != standard[1]  # ordinary dice differ from seat to seat
    assert die_label("duplicate", 7, 2, 4, 1, 3) == "round/2/die/4/draw/1"


@settings(max_examples=25, deadline=None)
@given(
    rules=st.sampled_from(DEFAULT_RULE_SETS),
    mode=st.sampled_from(["standard", "duplicate"]),
    players=st.integers(1, 3),
    play_seed=st.integers(0, 10**6),
    seed=st.binary(min_size=16, max_size=32),
)
def test_any_game_with_fair_dice_verifies(
    rules: RuleSet, mode: Any, players: int, play_seed: int, seed: bytes
) -> None:
    dice = FairDice(seed, mode)
    state = _play(rules, dice, players=players, seed=play_seed)
    assert verify_record(_record(state, dice)).dice > 0
