"""What is left to do after a game's last box, with and without the analysis made
while the game is played (issue 24: the analysis within 5 s, the win analysis within
10 s of the last box).

A two-seat game (greedy play, a fixed seed) is analysed in win chance, as the server
does it (0.2 CPU seconds per position by default):

- ``whole game at the end``: nothing analysed before the last box (how it was);
- ``turn by turn, ahead``: each turn analysed as its box is written
  (:class:`yatzy.web.ahead.Ahead` calls :func:`yatzy.strategy.win_analysis.analyze_wins`
  on the game so far), the sum of those calls;
- ``at the end, after the turns ahead``: the analysis asked for after the last box.

It prints CPU seconds (this process's threads; wall time beside).  The tables and
kernels come from the usual caches (it says whether the strategy was ready; run it
twice for warm figures).

Run: ``.venv/bin/python benchmarks/bench_analysis_ahead.py [--spec yatzy] [--budget 0.2]``.
"""

from __future__ import annotations

import argparse
import random
import time

from yatzy.bots import GreedyBot, play_turn
from yatzy.game import Game, State
from yatzy.strategy.advisor import advise, strategy_ready
from yatzy.strategy.analyze import analyze
from yatzy.strategy.win_analysis import analyze_wins, forget_analysed


def _clock() -> tuple[float, float]:
    return time.process_time(), time.perf_counter()


def _since(start: tuple[float, float]) -> tuple[float, float]:
    cpu, wall = _clock()
    return cpu - start[0], wall - start[1]


def main() -> None:
    """Measure and print the CPU seconds left after the last box."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spec", default="yatzy", help="rule set (default yatzy)")
    parser.add_argument("--budget", type=float, default=0.2, help="CPU s per position")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = Game(args.spec, ["Ann", "Bo"])
    was_ready = strategy_ready(game.rules)
    start = _clock()
    advise(game.new_initial_state(starter=0))
    print(f"strategy ready before: {was_ready}; loading it: {_since(start)[0]:.2f} CPU s")
    rng = random.Random(args.seed)
    state = game.new_initial_state(starter=0)
    positions: list[State] = []
    while not state.is_terminal():
        play_turn(state, GreedyBot(), rng)
        positions.append(state.clone())

    rows: list[tuple[str, float, float]] = []
    forget_analysed()
    t = _clock()
    analyze(state)
    rows.append(("analysis in points, at the end", *_since(t)))
    t = _clock()
    analyze_wins(state, budget=args.budget)
    rows.append(("win analysis: whole game at the end", *_since(t)))
    forget_analysed()
    t = _clock()
    for position in positions[:-1]:
        analyze_wins(position, budget=args.budget)
    rows.append((f"win analysis: {len(positions) - 1} turns ahead (sum)", *_since(t)))
    t = _clock()
    analyze_wins(state, budget=args.budget)
    rows.append(("win analysis: at the end, after the turns ahead", *_since(t)))
    print(f"{args.spec}, two seats, budget {args.budget} CPU s per position:")
    for name, cpu, wall in rows:
        print(f"  {name:<48} {cpu:7.2f} CPU s  {wall:7.2f} s")


if __name__ == "__main__":
    main()
