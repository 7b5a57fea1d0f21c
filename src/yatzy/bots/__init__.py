"""Bots: players that choose actions through the game state API only.

A bot is anything with ``choose(state, rng) -> Action`` for the seat whose turn it
is.  :func:`make_bot` builds one by level name; :data:`BOT_LEVELS` lists them.
Bots that need the solver import it lazily, so the simple ones stay light.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from yatzy.errors import YatzyError
from yatzy.game import Action, Fill2, Roll, Score, Scratch, State, Write


class Bot(Protocol):
    """A computer player."""

    name: str

    def choose(self, state: State, rng: random.Random) -> Action:
        """The action to take in ``state`` (a player node of the bot's seat)."""
        ...


class RandomBot:
    """Picks uniformly among the legal actions."""

    name = "random"

    def choose(self, state: State, rng: random.Random) -> Action:
        """A uniformly random legal action."""
        return rng.choice(state.legal_actions())


class GreedyBot:
    """Keeps the most frequent face and writes the highest points available now."""

    name = "greedy"

    def choose(self, state: State, rng: random.Random) -> Action:
        """Roll towards the most common face; score the best box when out of rolls."""
        if state.dice is None:
            return Roll()
        fills = [a for a in state.legal_actions() if not isinstance(a, Roll)]
        best = max(fills, key=lambda a: (_points(state, a), _tiebreak(a)))
        if state.rolls_left() == 0 or _points(state, best) >= 25:
            return best
        faces = _faces(state)
        top = max(set(faces), key=lambda f: (faces.count(f), f))
        keep = tuple(i for i, f in enumerate(faces) if f == top)
        if len(keep) == len(faces):
            return best
        return Roll(keep)


def _faces(state: State) -> list[int]:
    if state.rules.double:
        return list(state.layer("outer"))
    return list(state.layer("all"))


def _points(state: State, action: Action) -> int:
    if isinstance(action, Fill2):
        return _entry_points(state, action.inner, "inner") + _entry_points(
            state, action.outer, "outer"
        )
    if isinstance(action, (Score, Scratch, Write)):
        return _entry_points(state, action, "all")
    return -1


def _entry_points(state: State, entry: Score | Scratch | Write, layer: str) -> int:
    if isinstance(entry, Scratch):
        return 0
    if isinstance(entry, Write):
        return entry.points
    return state.box_points(entry.box, layer, entry.drop)


def _tiebreak(action: Action) -> int:
    # Prefer writing points over scratching, and scratch low-value boxes first.
    return 0 if isinstance(action, Scratch) else 1


BOT_LEVELS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
}
"""Bot level name to a factory; the strategy package adds its levels here."""


def make_bot(level: str) -> Bot:
    """A bot of the given level (``random``, ``greedy`` ...)."""
    try:
        factory = BOT_LEVELS[level]
    except KeyError:
        raise YatzyError(f"unknown bot {level!r}; valid: {', '.join(BOT_LEVELS)}") from None
    return factory()


def play_turn(state: State, bot: Bot, rng: random.Random) -> None:
    """Let ``bot`` play until the turn passes (chance resolved with ``rng``)."""
    seat = state.player
    while not state.is_terminal() and state.player == seat:
        if state.is_chance_node():
            state.roll(rng)
        else:
            state.apply(bot.choose(state, rng))
