"""Bots: players that choose actions through the game state API only.

A bot is anything with ``choose(state, rng) -> Action`` for the seat whose turn it
is.  :func:`make_bot` builds one by level name; :data:`BOT_LEVELS` lists them.  The
levels and the players below the winner bot live in :mod:`yatzy.strategy.levels`
(the strategy's own modules play them); this package adds the ``winner`` bot
(:mod:`yatzy.strategy.winbot`) and what a front end asks about a level.  Bots that
need the solver import it lazily, so the simple ones stay light.
"""

from __future__ import annotations

from collections.abc import Callable

from yatzy.errors import YatzyError
from yatzy.rules import RuleSet
from yatzy.strategy.levels import (
    LEVEL_LOSS_TARGETS,
    LEVELS,
    OPTIMAL_LEVELS,
    QUICK_BOTS,
    SKILL_TEMPERATURES,
    SKILL_TEMPERATURES_BY_RULES,
    WINNER_LEVELS,
    AdvisedBot,
    Bot,
    GreedyBot,
    RandomBot,
    play_turn,
    rules_family,
    skill_temperature,
    solitaire_bot,
)

__all__ = [
    "BOT_LEVELS",
    "LEVEL_LOSS_TARGETS",
    "OPTIMAL_LEVELS",
    "QUICK_BOTS",
    "SKILL_TEMPERATURES",
    "SKILL_TEMPERATURES_BY_RULES",
    "WINNER_LEVELS",
    "AdvisedBot",
    "Bot",
    "GreedyBot",
    "RandomBot",
    "is_exact",
    "make_bot",
    "play_turn",
    "prepare_tables",
    "preparing",
    "rules_family",
    "skill_temperature",
]


def _level(name: str) -> Callable[[], Bot]:
    def factory() -> Bot:
        return solitaire_bot(name)

    factory.__doc__ = f"The {name!r} bot."
    return factory


def _winner() -> Bot:
    """The ``winner`` bot (:class:`yatzy.strategy.winbot.WinnerBot`)."""
    from yatzy.strategy.winbot import WinnerBot

    return WinnerBot()


BOT_LEVELS: dict[str, Callable[[], Bot]] = {
    name: _winner if name in WINNER_LEVELS else _level(name) for name in LEVELS
}
"""Bot level name to a factory, from the weakest to the strongest.

``perfect`` is another name of ``optimal``: exact play where the solver handles the
rule set, the advisor's approximate strategy elsewhere.  ``winner`` plays for the
win rather than for points (:mod:`yatzy.strategy.winbot`): it reads the other
players' sheets and maximises its chance of finishing first, which beats the optimal
bot head to head (README, section Strategy) while scoring about 10 points less;
on rule sets without target tables (Maxi, DubbelYatzy) and alone it plays as
``optimal``.  The other levels' bots are :func:`yatzy.strategy.levels.solitaire_bot`'s.
"""


def is_exact(level: str, rules: RuleSet) -> bool:
    """Whether bot ``level`` plays ``rules`` as designed (not by an approximation).

    Random and greedy always do; the advised levels need the exact solver.
    """
    if level in ("random", "greedy"):
        return True
    if level in WINNER_LEVELS:
        from yatzy.strategy.winbot import winner_supported

        if winner_supported(rules):
            return True
    from yatzy.strategy.advisor import is_exact as solvable

    return solvable(rules)


def preparing(level: str | None, rules: RuleSet) -> bool:
    """Whether a bot of ``level`` must first build its strategy tables for ``rules``
    (once per computer: seconds for yatzy's, minutes for Maxi's or the ``winner``'s
    target tables), so a front end says so instead of only "thinking".  ``None`` (a
    person) and the quick levels never do."""
    if level is None or level in QUICK_BOTS:
        return False
    if level in WINNER_LEVELS:
        from yatzy.strategy.winbot import winner_ready

        return not winner_ready(rules)
    from yatzy.strategy.advisor import strategy_ready

    try:
        return not strategy_ready(rules)
    except YatzyError:
        return False  # no table can serve these rules: nothing to prepare


def prepare_tables(level: str, spec: str) -> None:
    """Load or build the tables a bot of ``level`` plays the rules ``spec`` with (the
    ``winner``'s target tables, else the advisor's table, then a turn's kernel), once
    per computer: what a front end runs in the background while the greedy strategy
    stands in for the bot."""
    from yatzy.game import Game

    rules = RuleSet.parse(spec)
    if level in WINNER_LEVELS:
        from yatzy.strategy.winbot import win_tables, winner_supported

        if winner_supported(rules):
            win_tables(rules, build=True)
            return
    from yatzy.strategy.advisor import advise, is_exact, solver_for

    fresh = Game(rules, ["warm-up"]).new_initial_state()
    advise(fresh)
    if is_exact(rules):
        # A turn's kernel, compiled into the disk cache for the processes after this
        # one (meanwhile they compute a turn's values with numpy, the same values).
        solver_for(rules.spec).turn_tables(fresh.sheet, kernel=True)


def make_bot(level: str) -> Bot:
    """A bot of the given level (``random``, ``greedy`` ...)."""
    try:
        factory = BOT_LEVELS[level]
    except KeyError:
        raise YatzyError(f"unknown bot {level!r}; valid: {', '.join(BOT_LEVELS)}") from None
    return factory()
