"""Calibrating the skill levels: the mean expected loss per game of a softmax bot.

A bot that picks option ``i`` with probability proportional to
``exp(-loss_i / temperature)`` loses, in expectation, the sum of the losses of its
choices against optimal play.  Summing the advisor's loss of every choice measures
that directly, with far less noise than comparing mean scores (the luck of the dice
cancels out), so a few hundred games pin a level's mean loss per game down well.
"""

from __future__ import annotations

import math
import random
import statistics
from dataclasses import dataclass

from yatzy.game import Game, Roll
from yatzy.rules import RuleSet
from yatzy.strategy.advisor import advise


@dataclass(frozen=True)
class Calibration:
    """Mean loss per game (and its standard error) and mean score of a temperature."""

    rules: str
    temperature: float
    games: int
    mean_loss: float
    stderr: float
    mean_score: float


def softmax_pick(losses: list[float], temperature: float, rng: random.Random) -> int:
    """Index of the option picked with weights ``exp(-loss / temperature)``."""
    if temperature == 0:
        return min(range(len(losses)), key=losses.__getitem__)
    weights = [math.exp(-loss / temperature) for loss in losses]
    return rng.choices(range(len(losses)), weights)[0]


def calibrate(rules: RuleSet | str, temperature: float, games: int, seed: int = 0) -> Calibration:
    """Play ``games`` solitaire games at ``temperature``; sum the advisor's losses."""
    rules = RuleSet.parse(rules) if isinstance(rules, str) else rules
    rng = random.Random(f"calibrate:{seed}")
    losses: list[float] = []
    scores: list[int] = []
    for _ in range(games):
        state = Game(rules, ["bot"]).new_initial_state(starter=0)
        lost = 0.0
        while not state.is_terminal():
            if state.is_chance_node():
                state.roll(rng)
            elif state.dice is None:
                state.apply(Roll())
            else:
                advice = advise(state)
                i = softmax_pick([o.loss for o in advice.options], temperature, rng)
                lost += advice.options[i].loss
                state.apply(advice.options[i].action)
        losses.append(lost)
        scores.append(state.sheets[0].final)
    sd = statistics.stdev(losses) if games > 1 else 0.0
    return Calibration(
        rules.spec,
        temperature,
        games,
        statistics.fmean(losses),
        sd / math.sqrt(games),
        statistics.fmean(scores),
    )
