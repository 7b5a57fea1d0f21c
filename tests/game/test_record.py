"""Game records: exact round trips at every kind of position, and tampering refused
with a RecordError that names the turn and the field."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import DEFAULT_RULE_SETS, new_state, roll
from yatzy.errors import RecordError
from yatzy.game import (
    Fill2,
    Game,
    Player,
    Roll,
    Score,
    State,
    dumps,
    from_record,
    load,
    loads,
    save,
    to_record,
)
from yatzy.rules import RuleSet


def _random_game(rules: RuleSet, players: int, seed: int, steps: int | None = None) -> State:
    """A game of random legal play with a roll-off, stopped after ``steps`` steps."""
    rng = random.Random(seed)
    state = Game(rules, [f"p{i}" for i in range(players)]).new_initial_state()
    done = 0
    while not state.is_terminal() and (steps is None or done < steps):
        if state.is_chance_node():
            state.apply_chance(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply(rng.choice(state.legal_actions()))
        done += 1
    return state


def _round_trip(state: State) -> State:
    text = json.dumps(to_record(state))
    again = from_record(json.loads(text))
    assert again == state
    assert to_record(again) == to_record(state)
    assert again.totals() == state.totals()
    assert again.current_player() == state.current_player()
    assert again.legal_actions() == state.legal_actions()
    if state.is_chance_node():
        assert again.chance_outcomes() == state.chance_outcomes()
    return again


# -- round trips -------------------------------------------------------------------------


@pytest.mark.parametrize("rules", DEFAULT_RULE_SETS, ids=str)
def test_round_trip_at_every_step(rules: RuleSet) -> None:
    """Fresh, mid roll-off, mid-roll, mid-turn and finished: every position loads back."""
    rng = random.Random(rules.spec)
    state = Game(rules, ["a", "b"]).new_initial_state()
    _round_trip(state)
    kinds = set()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply(rng.choice(state.legal_actions()))
        if state.phase.value == "roll_off":
            kind = "roll-off"
        elif state.pending and len(state.pending) < rules.num_dice:
            kind = "mid-roll"
        elif state.pending:
            kind = "roll started"
        elif state.dice is not None:
            kind = "mid-turn"
        else:
            kind = "between turns"
        # Every kind of position early on, then a sample (each replay redoes the game).
        if kind not in kinds or rng.random() < 0.1:
            kinds.add(kind)
            again = _round_trip(state)
            # The loaded state plays on like the original.
            if not again.is_terminal() and not again.is_chance_node():
                action = again.legal_actions()[-1]
                twin = state.clone()
                again.apply(action)
                twin.apply(action)
                assert again == twin
    _round_trip(state)
    assert kinds == {"roll-off", "roll started", "mid-roll", "mid-turn", "between turns"}


def test_round_trip_mid_rolloff_round() -> None:
    state = Game("yatzy", ["a", "b", "c"]).new_initial_state()
    state.apply_chance(4)
    _round_trip(state)
    state.apply_roll([6, 6])  # seats 1 and 2 tie
    _round_trip(state)
    state.apply_chance(2)
    _round_trip(state)
    state.apply_chance(5)
    assert state.starter == 2
    _round_trip(state)
    # Turns after a roll-off that is not decided are refused.
    roll(state, [1, 2, 3, 4, 5])
    state.apply(Score("chance"))
    rec = to_record(state)
    rec["rolloff"][-1].pop()
    rec["starter"] = None
    _refused(rec, 1, "", "roll-off")


@pytest.mark.parametrize("rules", DEFAULT_RULE_SETS, ids=str)
@pytest.mark.parametrize("players", [1, 3])
def test_round_trip_finished(rules: RuleSet, players: int) -> None:
    state = _random_game(rules, players, seed=players)
    assert state.is_terminal()
    again = _round_trip(state)
    assert again.winners() == state.winners()
    rec = to_record(state)
    assert rec["finished"] is True
    assert rec["winners"] == state.winners()
    assert rec["totals"] == state.totals()


def test_save_load_and_text(tmp_path: Path) -> None:
    state = _random_game(RuleSet("maxi", saved_rolls=True), 2, seed=7, steps=150)
    path = tmp_path / "game.json"
    save(state, path)
    assert load(path) == state
    assert loads(dumps(state)) == state
    assert list(tmp_path.iterdir()) == [path]  # no temporary file left behind
    with pytest.raises(RecordError, match="cannot read"):
        load(tmp_path / "missing.json")


def test_players_and_bots_survive() -> None:
    game = Game("yatzy", [Player("Åsa"), Player("Bot", "greedy")])
    state = game.new_initial_state(starter=1)
    again = _round_trip(state)
    assert again.players == (Player("Åsa"), Player("Bot", "greedy"))
    assert again.starter == 1


# -- tampering ---------------------------------------------------------------------------


def _game_with_keeps() -> State:
    """Two players; seat 1 wins the roll-off.  Turn 1 keeps dice, turn 2 scores a Yatzy."""
    state = Game("yatzy", ["a", "b"]).new_initial_state()
    state.apply_roll([3, 5])
    roll(state, [1, 3, 3, 4, 5])
    roll(state, [3, 4, 5], keep=[1, 2])
    state.apply(Score("threes"))
    roll(state, [6, 6, 6, 6, 6])
    state.apply(Score("yatzy"))
    roll(state, [1, 2, 3, 4, 5])
    state.apply(Score("small_straight"))
    return state


def _finished(spec: str = "yatzy") -> State:
    return _random_game(RuleSet.parse(spec), 2, seed=3)


def _refused(rec: Any, turn: int, field: str, match: str | None = None) -> RecordError:
    with pytest.raises(RecordError, match=match) as info:
        from_record(rec)
    assert info.value.turn == turn, info.value
    assert info.value.field == field, info.value
    where = f"turn {turn}" if turn else "record"
    assert str(info.value).startswith(where), info.value
    return info.value


def test_tampered_die_of_seven() -> None:
    rec = to_record(_game_with_keeps())
    rec["turns"][1]["rolls"][0]["dice"][2] = 7
    _refused(rec, 2, "rolls[0].dice[2]", "7")
    rec = to_record(_game_with_keeps())
    rec["turns"][0]["rolls"][0]["dice"][0] = 0
    _refused(rec, 1, "rolls[0].dice[0]", "0")
    rec = to_record(_game_with_keeps())
    rec["turns"][0]["rolls"][0]["dice"][0] = "3"
    _refused(rec, 1, "rolls[0].dice[0]")


def test_tampered_score() -> None:
    rec = to_record(_game_with_keeps())
    rec["turns"][0]["points"] = 12  # three threes are 9
    _refused(rec, 1, "points", "12")
    rec = to_record(_game_with_keeps())
    rec["turns"][1]["dice"] = [6, 6, 6, 6, 6]  # stray field, harmless
    rec["turns"][1]["rolls"][0]["dice"][0] = 5  # no longer a Yatzy: 50 does not match
    _refused(rec, 2, "points", "50")


def test_tampered_dubbel_score_and_drop() -> None:
    state = new_state("dubbel")
    roll(state, list(zip([6, 6, 4, 3, 3, 3], [5, 4, 3, 2, 2, 1], strict=True)))
    state.apply(Fill2(Score("small_straight"), Score("full_house")))
    rec = to_record(state)
    assert rec["turns"][0]["outer"] == {"box": "full_house", "drop": 4, "points": 21}
    bad = copy.deepcopy(rec)
    bad["turns"][0]["outer"]["points"] = 28
    _refused(bad, 1, "outer.points", "28")
    bad = copy.deepcopy(rec)
    bad["turns"][0]["inner"]["drop"] = 6  # not an inner face
    _refused(bad, 1, "inner", "6")
    bad = copy.deepcopy(rec)
    bad["turns"][0]["inner"]["drop"] = 5  # a face, but then no straight: 0, not 15
    _refused(bad, 1, "inner.points", "15")
    bad = copy.deepcopy(rec)
    bad["turns"][0]["outer"]["box"] = "small_straight"
    _refused(bad, 1, "inner", "two boxes")


def test_tampered_turn_order() -> None:
    rec = to_record(_game_with_keeps())
    rec["turns"][1]["player"] = 1  # seat 0 plays the second turn
    _refused(rec, 2, "player", "out of turn")
    rec = to_record(_game_with_keeps())
    rec["starter"] = 0
    _refused(rec, 0, "starter", "roll-off")
    rec = to_record(_game_with_keeps())
    rec["rolloff"][0][0]["player"] = 1
    _refused(rec, 0, "rolloff[0][0].player", "out of turn")
    rec = to_record(_game_with_keeps())
    rec["rolloff"][0][1]["die"] = 9
    _refused(rec, 0, "rolloff[0][1].die", "9")


def test_tampered_kept_die() -> None:
    rec = to_record(_game_with_keeps())
    assert rec["turns"][0]["rolls"][1]["keep"] == [1, 2]
    rec["turns"][0]["rolls"][1]["dice"][2] = 4  # a kept three turned into a four
    _refused(rec, 1, "rolls[1].dice[2]", "changed")


def test_tampered_keep_and_rolls() -> None:
    rec = to_record(_game_with_keeps())
    rec["turns"][0]["rolls"][1]["keep"] = [1, 9]
    _refused(rec, 1, "rolls[1].keep", "9")
    rec = to_record(_game_with_keeps())
    rec["turns"][0]["rolls"][1]["keep"] = "1,2"
    _refused(rec, 1, "rolls[1].keep")
    rec = to_record(_game_with_keeps())
    extra = {"keep": [0, 1, 2], "dice": [3, 3, 3, 1, 1]}
    rec["turns"][0]["rolls"] += [dict(extra), dict(extra)]  # four rolls
    _refused(rec, 1, "rolls[3].keep", "no rolls left")
    rec = to_record(_game_with_keeps())
    rec["turns"][0]["rolls"] = []
    _refused(rec, 1, "rolls", "at least once")
    rec = to_record(_game_with_keeps())
    rec["turns"][0]["rolls"][0]["dice"] = [1, 3, 3, 4]
    _refused(rec, 1, "rolls[0].dice", "5 dice")


def test_tampered_partial_roll() -> None:
    """Saved while rolling, the dice rolled so far are a prefix of the dice thrown."""
    state = new_state("yatzy")
    state.apply(Roll())
    state.apply_chance(3)
    state.apply_chance(4)
    rec = to_record(state)
    assert rec["turns"][0]["rolls"][0]["dice"] == [3, 4, None, None, None]
    assert from_record(rec) == state
    rec["turns"][0]["rolls"][0]["dice"] = [3, 4, None, 6, None]
    _refused(rec, 1, "rolls[0].dice[3]", "6")


def test_tampered_box() -> None:
    rec = to_record(_game_with_keeps())
    rec["turns"][0]["box"] = "villa"
    _refused(rec, 1, "box", "villa")
    rec = to_record(_game_with_keeps())
    rec["turns"][2]["box"] = "threes"  # seat 1 wrote threes already
    _refused(rec, 3, "box", "already filled")
    rec = to_record(_game_with_keeps())
    rec["turns"][0]["box"] = 3
    _refused(rec, 1, "box")


def test_tampered_yatzy_bonus() -> None:
    state = new_state("yahtzee")
    roll(state, [2] * 5)
    state.apply(Score("yatzy"))
    roll(state, [2] * 5)
    state.apply(Score("twos"))
    rec = to_record(state)
    assert rec["turns"][1]["yatzy_bonus"] == 100
    bad = copy.deepcopy(rec)
    del bad["turns"][1]["yatzy_bonus"]
    del bad["totals"]
    _refused(bad, 2, "yatzy_bonus")
    bad = copy.deepcopy(rec)
    bad["turns"][0]["yatzy_bonus"] = 100
    del bad["totals"]
    _refused(bad, 1, "yatzy_bonus")


def test_truncated_json() -> None:
    text = dumps(_finished())
    for cut in (len(text) // 2, len(text) - 2, 1):
        _refused_text = text[:cut]
        with pytest.raises(RecordError, match="not JSON") as info:
            loads(_refused_text)
        assert info.value.turn == 0
    with pytest.raises(RecordError, match="JSON object"):
        loads("[1, 2, 3]")


def test_truncated_turns() -> None:
    """Dropping turns leaves the totals unmatched; of a finished game, boxes open."""
    rec = to_record(_game_with_keeps())
    rec["turns"] = rec["turns"][:-1]
    _refused(rec, 0, "totals", "do not match")
    rec = to_record(_finished())
    rec["turns"] = rec["turns"][:-3]
    del rec["totals"]
    _refused(rec, 0, "turns", "finished")


@pytest.mark.parametrize(
    ("path", "turn", "field"),
    [
        (("rules",), 0, "rules"),
        (("players",), 0, "players"),
        (("turns",), 0, "turns"),
        (("starter",), 0, "starter"),  # with the roll-off gone as well, see below
        (("turns", 0, "player"), 1, "player"),
        (("turns", 0, "rolls"), 1, "rolls"),
        (("turns", 0, "rolls", 0, "dice"), 1, "rolls[0].dice"),
        (("turns", 0, "box"), 1, "box"),
    ],
)
def test_missing_fields(path: tuple[Any, ...], turn: int, field: str) -> None:
    rec = to_record(_game_with_keeps())
    if path == ("starter",):
        del rec["rolloff"]
    target = rec
    for key in path[:-1]:
        target = target[key]
    del target[path[-1]]
    _refused(rec, turn, field)


def test_wrong_totals_and_winners() -> None:
    rec = to_record(_finished())
    rec["totals"][0] += 1
    _refused(rec, 0, "totals", "do not match")
    rec = to_record(_finished())
    rec["winners"] = [0, 1] if rec["winners"] != [0, 1] else [0]
    _refused(rec, 0, "winners", "do not match")
    rec = to_record(_game_with_keeps())
    rec["finished"] = True
    _refused(rec, 0, "turns", "finished")


def test_turn_after_the_game_ended() -> None:
    rec = to_record(_finished())
    n = len(rec["turns"])
    rec["turns"].append(copy.deepcopy(rec["turns"][-2]))
    with pytest.raises(RecordError, match="over") as info:
        from_record(rec)
    assert info.value.turn == n + 1
    assert str(info.value).startswith(f"turn {n + 1}")


@pytest.mark.parametrize(
    ("change", "field", "match"),
    [
        ({"rules": "yatzy+turbo"}, "rules", "turbo"),
        ({"rules": 5}, "rules", "str"),
        ({"format": "chess"}, "format", "chess"),
        ({"version": 99}, "version", "99"),
        ({"players": [{"nick": "a"}]}, "players[0]", "no name"),
        ({"players": [{"name": "a"}, {"name": "A"}]}, "players", "twice"),
        ({"players": []}, "players", "at least one"),
        ({"rolloff": "3,5"}, "rolloff", "list"),
    ],
)
def test_bad_header(change: dict[str, Any], field: str, match: str) -> None:
    rec = to_record(_game_with_keeps())
    rec.update(change)
    _refused(rec, 0, field, match)


def test_records_are_plain_json() -> None:
    rec = to_record(_finished("dubbel"))
    assert json.loads(json.dumps(rec)) == rec
    assert rec["rules"] == "dubbel"
    assert rec["format"] == "yatzy-record"
