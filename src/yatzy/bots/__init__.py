"""Bots: players that choose actions through the game state API only.

A bot is anything with ``choose(state, rng) -> Action`` for the seat whose turn it
is.  :func:`make_bot` builds one by level name; :data:`BOT_LEVELS` lists them.
Bots that need the solver import it lazily, so the simple ones stay light.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Protocol

from yatzy.errors import YatzyError
from yatzy.game import Action, State
from yatzy.rules import RuleSet


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
    """Maximises the points of this turn alone (exact within-turn search).

    See :mod:`yatzy.strategy.greedy`: the keeps that maximise the expected points
    the turn adds, then the box that adds the most.
    """

    name = "greedy"

    def __init__(self) -> None:
        from yatzy.strategy.greedy import GreedyStrategy

        self._strategy = GreedyStrategy()

    def choose(self, state: State, rng: random.Random) -> Action:
        """The greedy action for the player to act."""
        return self._strategy.choose(state, rng)


class AdvisedBot:
    """Plays by the advisor's values (:func:`yatzy.strategy.advisor.advise`).

    With ``temperature`` 0 it plays the best option (the optimal bot; approximate
    where the advisor is).  Otherwise it picks option ``i`` with probability
    proportional to ``exp(-loss_i / temperature)``: small mistakes are common, big
    ones rare, as with people.  The skill levels are such bots, their temperatures
    calibrated to a mean loss per game against optimal play (see
    :data:`SKILL_TEMPERATURES`).  The solver is imported on first use only.
    """

    def __init__(self, name: str, temperature: float) -> None:
        if temperature < 0:
            raise YatzyError(f"temperature {temperature!r} is negative")
        self.name = name
        self.temperature = temperature

    def choose(self, state: State, rng: random.Random) -> Action:
        """The option this bot picks in ``state``."""
        from yatzy.game import Roll
        from yatzy.strategy.advisor import advise

        if state.dice is None:
            return Roll()
        advice = advise(state)
        if self.temperature == 0:
            return advice.best
        weights = [math.exp(-o.loss / self.temperature) for o in advice.options]
        return rng.choices(advice.options, weights)[0].action


SKILL_TEMPERATURES: dict[str, float] = {
    "beginner": 1.1,
    "casual": 0.7,
    "strong": 0.35,
}
"""Softmax temperature of each skill level between greedy and optimal.

Calibrated on Scandinavian Yatzy by simulation to a mean loss per game against
optimal play (figures in the README, section Strategy).
"""


def _advised(name: str, temperature: float) -> Callable[[], Bot]:
    def factory() -> Bot:
        return AdvisedBot(name, temperature)

    factory.__doc__ = f"The {name!r} bot."
    return factory


BOT_LEVELS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    **{name: _advised(name, t) for name, t in SKILL_TEMPERATURES.items()},
    "optimal": _advised("optimal", 0.0),
    "perfect": _advised("perfect", 0.0),
}
"""Bot level name to a factory, from the weakest to the strongest.

``perfect`` is another name of ``optimal``: exact play where the solver handles the
rule set, the advisor's approximate strategy elsewhere.
"""

OPTIMAL_LEVELS = frozenset({"optimal", "perfect"})
"""The levels that play the advisor's best option."""


def is_exact(level: str, rules: RuleSet) -> bool:
    """Whether bot ``level`` plays ``rules`` as designed (not by an approximation).

    Random and greedy always do; the advised levels need the exact solver.
    """
    if level in ("random", "greedy"):
        return True
    from yatzy.strategy.advisor import is_exact as solvable

    return solvable(rules)


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
