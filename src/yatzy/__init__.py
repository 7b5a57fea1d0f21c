"""yatzy: Nordic Yatzy and its variants, played well.

The names a program needs are here.  The core (:mod:`yatzy.rules`,
:mod:`yatzy.game`) is pure Python and imports no numeric library; :func:`make_bot`
and :func:`advise` bring the bots and the solver (numpy, numba).  Each name is
imported on first use, so ``import yatzy`` costs no more than the errors.

A game of Scandinavian Yatzy for one player, with dice from a seeded source:

>>> import random
>>> from yatzy import Game, Roll, RuleSet, Score
>>> rules = RuleSet.parse("yatzy")
>>> state = Game(rules, ["Ann"]).new_initial_state()
>>> rng = random.Random(2)
>>> state.apply(Roll())  # the turn's first roll: every die
>>> state.roll(rng)  # chance throws them
>>> state.dice
[1, 1, 1, 3, 2]
>>> state.apply(Roll(keep=(0, 1, 2)))  # keep the three ones, throw the others
>>> state.roll(rng)
>>> state.dice
[1, 1, 1, 6, 6]
>>> state.box_points("full_house")  # the sum of the dice, in Scandinavian Yatzy
15
>>> state.apply(Score("full_house"))
>>> state.totals()
[15]

A bot plays the rest of the game (``"optimal"`` and :func:`advise` use the exact
solver, which builds its table once per computer, in seconds for Yatzy):

>>> from yatzy import make_bot
>>> bot = make_bot("greedy")
>>> while not state.is_terminal():
...     if state.is_chance_node():
...         state.roll(rng)
...     else:
...         state.apply(bot.choose(state, rng))
>>> state.totals()
[172]

Every error that bad input causes is a :class:`YatzyError`, a :class:`ValueError`.
"""

from __future__ import annotations

import importlib

from yatzy.errors import (
    AmbiguousBoxError,
    BoxFilledError,
    DiceError,
    GameOverError,
    IllegalActionError,
    ImpossibleScoreError,
    KeepError,
    LastResortError,
    NoRollsLeftError,
    NotYourTurnError,
    OrderError,
    RecordError,
    SpecError,
    UnknownBoxError,
    YatzyError,
)

# Not typing.TYPE_CHECKING: importing typing would cost more than the rest of this
# file (type checkers treat any constant of this name as true).
TYPE_CHECKING = False
if TYPE_CHECKING:
    # What the names below are, for type checkers (nothing is imported at run time).
    from typing import Any

    from yatzy.bots import make_bot
    from yatzy.game import Fill2, Game, Player, Roll, Score, Scratch, State
    from yatzy.rules import RuleSet
    from yatzy.strategy.advisor import Advice, advise

__version__ = "0.1.0"

# Every name but the errors is imported on first access (PEP 562).  The heavy ones
# (make_bot, advise: the bots and the solver load numpy and numba) must be; the core
# ones are too, because every module of the package imports yatzy.errors, which runs
# this file first: importing the game here would make ``yatzy score`` (rules only)
# and every other entry point load it as well (about 0.3 s on a busy machine).
_LAZY: dict[str, str] = {
    "Advice": "yatzy.strategy.advisor",
    "Fill2": "yatzy.game",
    "Game": "yatzy.game",
    "Player": "yatzy.game",
    "Roll": "yatzy.game",
    "RuleSet": "yatzy.rules",
    "Score": "yatzy.game",
    "Scratch": "yatzy.game",
    "State": "yatzy.game",
    "advise": "yatzy.strategy.advisor",
    "make_bot": "yatzy.bots",
}

__all__ = [
    "Advice",
    "AmbiguousBoxError",
    "BoxFilledError",
    "DiceError",
    "Fill2",
    "Game",
    "GameOverError",
    "IllegalActionError",
    "ImpossibleScoreError",
    "KeepError",
    "LastResortError",
    "NoRollsLeftError",
    "NotYourTurnError",
    "OrderError",
    "Player",
    "RecordError",
    "Roll",
    "RuleSet",
    "Score",
    "Scratch",
    "SpecError",
    "State",
    "UnknownBoxError",
    "YatzyError",
    "__version__",
    "advise",
    "make_bot",
]


def __getattr__(name: str) -> Any:
    """Import a name of :data:`_LAZY` on first access and keep it here."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'yatzy' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups find it without coming here
    return value


def __dir__() -> list[str]:
    """The module's names, the lazy ones included (for completion and ``dir()``)."""
    return sorted({*globals(), *__all__})
