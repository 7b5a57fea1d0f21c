"""Helpers of the protocol tests: random games and what a protocol shows of them."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from yatzy.game import Action, Game, Roll, Score, Scratch, State
from yatzy.rules import RuleSet

NAMES = ("Anna", "Åke", "Öljy", "Bo", "Cleo", "Dan", "Eva")

# Every variant with the options that change the protocol's rows, scores or order.
SPECS = (
    "yatzy",
    "yatzy+lenient+yatzy_pip_bonus",
    "yatzy+forced",
    "yatzy+half_forced",
    "yahtzee",
    "yahtzee+joker=free",
    "yahtzee+joker=none+forced",
    "maxi",
    "maxi+lenient+saved_rolls+bonus_threshold=84+bonus_points=100",
    "dubbel",
    "dubbel+half_forced+yatzy_pip_bonus+extra=chance+scoring=strict",
    "dubbel+extra=scratch+scoring=international+forced",
)


def _keep_most_common(state: State) -> Roll:
    assert state.dice is not None
    faces = [d[0] if isinstance(d, tuple) else d for d in state.dice]
    face, _ = Counter(faces).most_common(1)[0]
    return Roll(tuple(i for i, f in enumerate(faces) if f == face))


def play_one_turn(state: State, rng: random.Random) -> None:
    """A quick, plausible turn: chase the most common face, then mostly take the best box,
    sometimes a random one (scratches included)."""
    seat = state.player
    while not state.is_terminal() and state.player == seat:
        if state.is_chance_node():
            state.roll(rng)
            continue
        if state.dice is None:
            state.apply(Roll())
            continue
        if state.rolls_left() and len(set(state.dice)) > 1 and rng.random() < 0.75:
            state.apply(_keep_most_common(state))
            continue
        fills = [a for a in state.legal_actions() if not isinstance(a, Roll)]
        if state.rules.double or rng.random() < 0.15:
            scored = [a for a in fills if not isinstance(a, Scratch)]
            state.apply(rng.choice(scored if scored and rng.random() < 0.8 else fills))
        else:
            state.apply(max(fills, key=lambda a: _points(state, a)))


def _points(state: State, action: Action) -> int:
    return state.box_points(action.box) if isinstance(action, Score) else -1


def random_game(spec: str | RuleSet, seed: int, players: int, turns: int | None = None) -> State:
    """A game from a roll-off to the end (or ``turns`` turns in), reproducible by ``seed``."""
    rng = random.Random(seed)
    state = Game(spec, list(NAMES[:players])).new_initial_state()
    if state.is_chance_node():  # the roll-off (none for one player)
        state.roll(rng)
    done = 0
    while not state.is_terminal() and (turns is None or done < turns):
        play_one_turn(state, rng)
        done += 1
    return state


def sheet_summary(state: State) -> list[dict[str, Any]]:
    """What a protocol shows of every player: points, scratches, bonuses, totals."""
    return [
        {
            "entries": {
                b: None if e is None else (e.points, e.scratched) for b, e in sheet.entries.items()
            },
            "yatzy_bonuses": sheet.yatzy_bonuses,
            "total": sheet.total,
            "final": sheet.final,
        }
        for sheet in state.sheets
    ]
