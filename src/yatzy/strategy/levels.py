"""Bot levels: what each level's name means, and the players of every level but the
winner's.

A bot is anything with ``choose(state, rng) -> Action`` for the seat whose turn it
is.  The levels, from the weakest: ``random``; ``greedy``; the skill levels, which
pick among the advisor's options by a softmax of their losses
(:data:`SKILL_TEMPERATURES`); ``optimal`` and ``perfect`` (the advisor's best option);
``winner``, which plays for the win (:mod:`yatzy.strategy.winbot`, built on this
module).  :mod:`yatzy.bots` builds a bot of any level by name.  Bots that need the
solver import it lazily, so the simple ones stay light.
"""

from __future__ import annotations

import math
import random
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

    def __init__(self, name: str, temperature: float | None = None) -> None:
        if temperature is not None and temperature < 0:
            raise YatzyError(f"temperature {temperature!r} is negative")
        if temperature is None and name not in SKILL_TEMPERATURES:
            raise YatzyError(f"{name!r} is not a skill level; give a temperature")
        self.name = name
        self._fixed = temperature

    @property
    def temperature(self) -> float:
        """The temperature on Scandinavian Yatzy (see :meth:`temperature_for`)."""
        return self._fixed if self._fixed is not None else SKILL_TEMPERATURES[self.name]

    def temperature_for(self, rules: RuleSet) -> float:
        """The temperature this bot plays ``rules`` at: a skill level's is fitted per
        rule set (:func:`skill_temperature`), a fixed one is the same everywhere."""
        if self._fixed is not None:
            return self._fixed
        return skill_temperature(self.name, rules)

    def choose(self, state: State, rng: random.Random) -> Action:
        """The option this bot picks in ``state``."""
        from yatzy.game import Roll
        from yatzy.strategy.advisor import advise

        if state.dice is None:
            return Roll()
        advice = advise(state)
        temperature = self.temperature_for(state.rules)
        if temperature == 0:
            return advice.best
        weights = [math.exp(-o.loss / temperature) for o in advice.options]
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


LEVEL_LOSS_TARGETS: dict[str, float] = {"strong": 4.4, "casual": 15.5, "beginner": 29.6}
"""What each skill level means: its mean loss per game against optimal play, as
measured on Scandinavian Yatzy with :data:`SKILL_TEMPERATURES`."""


SKILL_TEMPERATURES_BY_RULES: dict[str, dict[str, float]] = {
    "yatzy+forced": {"strong": 0.275, "casual": 0.639, "beginner": 1.24},
    "yatzy+half_forced": {"strong": 0.275, "casual": 0.635, "beginner": 1.219},
    "yahtzee": {"strong": 0.469, "casual": 0.886, "beginner": 1.343},
    "yahtzee+forced": {"strong": 0.323, "casual": 0.813, "beginner": 1.512},
    "yahtzee+half_forced": {"strong": 0.329, "casual": 0.789, "beginner": 1.461},
    "maxi": {"strong": 0.305, "casual": 0.561, "beginner": 0.819},
    "maxi+forced": {"strong": 0.228, "casual": 0.483, "beginner": 0.792},
    "maxi+half_forced": {"strong": 0.228, "casual": 0.485, "beginner": 0.798},
    # House rules that moved a level's loss by more than a tenth at its family's
    # temperatures (calibrate_levels.py --measure-only), fitted on their own:
    "yatzy+last_resort": {"strong": 0.379, "casual": 0.737, "beginner": 1.161},
    "yahtzee+joker=none": {"strong": 0.424, "casual": 0.809, "beginner": 1.269},
    "maxi+last_resort": {"strong": 0.319, "casual": 0.584, "beginner": 0.858},
    "maxi+saved_rolls=next": {"strong": 0.307, "casual": 0.549, "beginner": 0.778},
}
"""The skill levels' temperatures fitted per rule set family (the variant and its
order rule, e.g. ``yatzy+forced``) or, where a house rule changes the loss too much,
per rule set, so that a level loses about its target (:data:`LEVEL_LOSS_TARGETS`)
on every rule set; ``benchmarks/calibrate_levels.py`` fits and measures them
(figures in the README).  A family not listed plays at :data:`SKILL_TEMPERATURES`."""


def rules_family(rules: RuleSet) -> str:
    """The key of :data:`SKILL_TEMPERATURES_BY_RULES`: the variant and its order rule."""
    order = "+forced" if rules.forced else "+half_forced" if rules.half_forced else ""
    return rules.variant + order


def skill_temperature(level: str, rules: RuleSet) -> float:
    """The temperature of skill ``level`` on ``rules``: fitted for the rule set itself
    where a house rule changed the loss too much, else for its family, else
    Scandinavian Yatzy's."""
    for key in (rules.spec, rules_family(rules)):
        fitted = SKILL_TEMPERATURES_BY_RULES.get(key)
        if fitted is not None and level in fitted:
            return fitted[level]
    return SKILL_TEMPERATURES[level]


LEVELS: tuple[str, ...] = (
    "random",
    "greedy",
    *SKILL_TEMPERATURES,
    "optimal",
    "perfect",
    "winner",
)
"""Every bot level's name, from the weakest to the strongest (see :data:`yatzy.bots.BOT_LEVELS`).

``perfect`` is another name of ``optimal``: exact play where the solver handles the
rule set, the advisor's approximate strategy elsewhere.  ``winner`` plays for the
win rather than for points (:mod:`yatzy.strategy.winbot`)."""

WINNER_LEVELS = frozenset({"winner"})
"""The levels that play for the win (:mod:`yatzy.strategy.winbot`)."""

OPTIMAL_LEVELS = frozenset({"optimal", "perfect"})
"""The levels that play the advisor's best option."""

QUICK_BOTS = frozenset({"random", "greedy"})
"""Bot levels that decide in microseconds, with no strategy table behind them."""


def solitaire_bot(level: str) -> Bot:
    """A bot that plays a one-seat game as a bot of ``level`` does.

    The winner's levels play for the win, and alone there is nobody to beat: they
    play the optimal strategy (as :class:`yatzy.strategy.winbot.WinnerBot` does in a
    one-seat game), so this module needs no winner bot for them.
    """
    if level == "random":
        return RandomBot()
    if level == "greedy":
        return GreedyBot()
    if level in OPTIMAL_LEVELS:
        return AdvisedBot(level, 0.0)
    if level in WINNER_LEVELS:
        return AdvisedBot("optimal", 0.0)
    if level in SKILL_TEMPERATURES:
        return AdvisedBot(level)
    raise YatzyError(f"unknown bot {level!r}; valid: {', '.join(LEVELS)}")


def play_turn(state: State, bot: Bot, rng: random.Random) -> None:
    """Let ``bot`` play until the turn passes (chance resolved with ``rng``)."""
    seat = state.player
    while not state.is_terminal() and state.player == seat:
        if state.is_chance_node():
            state.roll(rng)
        else:
            state.apply(bot.choose(state, rng))
