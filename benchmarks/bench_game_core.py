"""Game core throughput: whole games played through :class:`yatzy.game.State` in Python.

Two workloads per rule set, both seeded and the same on every run:

- **random**: every decision picks a random legal action (``legal_actions``, ``apply``,
  ``roll``), two players;
- **lookahead**: one player, and every decision after a roll tries each legal box on a
  clone (``clone``, ``apply``) and reads what the bots and the target play rank it by
  (the sheet's Total, upper sum, bonus and open boxes, against the sheet before), then
  plays a random legal action.

Prints games per CPU-second (``time.process_time``, best of ``--repeat`` runs, so a
busy machine lowers the figure less than a wall clock would).
Run: ``.venv/bin/python benchmarks/bench_game_core.py [--games N] [--repeat R] [--specs S ...]``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from yatzy.game import Game, Roll, State

SPECS = ("yatzy", "yahtzee", "maxi", "dubbel", "yatzy+last_resort")


def random_game(spec: str, rng: random.Random) -> State:
    """A two-player game of random legal actions."""
    state = Game(spec, ["A", "B"]).new_initial_state(starter=0)
    while not state.is_terminal():
        if state.is_chance_node():
            state.roll(rng)
        else:
            state.apply(rng.choice(state.legal_actions()))
    return state


def lookahead_game(spec: str, rng: random.Random) -> State:
    """A solo game that scores every legal box on a clone before each random choice."""
    state = Game(spec, ["A"]).new_initial_state(starter=0)
    while not state.is_terminal():
        if state.is_chance_node():
            state.roll(rng)
            continue
        actions = state.legal_actions()
        seat = state.player
        for action in actions:
            if not isinstance(action, Roll):
                after = state.clone()
                after.apply(action)
                new, old = after.sheets[seat], state.sheets[seat]
                _ = (new.total - old.total, new.upper_sum, new.bonus, new.open_boxes)
        state.apply(rng.choice(actions))
    return state


def rate(play: Callable[[str, random.Random], State], spec: str, games: int, repeat: int) -> float:
    """Games per CPU-second of ``play`` for ``spec``, the best of ``repeat`` runs."""
    best = float("inf")
    for _ in range(repeat):
        rng = random.Random(2026)
        start = time.process_time()
        for _ in range(games):
            play(spec, rng)
        best = min(best, time.process_time() - start)
    return games / best


def main() -> None:
    """Print the table of figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per run")
    parser.add_argument("--repeat", type=int, default=3, help="runs; the best counts")
    parser.add_argument("--specs", nargs="+", default=SPECS, help="rule sets to play")
    args = parser.parse_args()
    if args.games < 1 or args.repeat < 1:
        parser.error("--games and --repeat must be at least 1")
    print(f"{'rule set':<20} {'random games/s':>15} {'lookahead games/s':>18}")
    for spec in args.specs:
        plain = rate(random_game, spec, args.games, args.repeat)
        ahead = rate(lookahead_game, spec, args.games, args.repeat)
        print(f"{spec:<20} {plain:>15,.1f} {ahead:>18,.1f}")
    print(
        "random: two players, random legal actions; lookahead: one player, every legal "
        "box tried on a clone before each choice (per CPU-second, best of the runs)."
    )


if __name__ == "__main__":
    main()
