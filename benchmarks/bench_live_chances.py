"""Benchmark of the live win chances as a worker computes them: CPU per game version.

Plays seeded 4-player games of Yatzy as ``bench_cluster.py`` does (a person who rolls
twice and writes the box that scores most, three greedy bots) and after every action
computes the chances as a ``yatzy worker`` does
(``win_chances(state, levels, budget=0.2, build=True, margin=web.chances.LIVE_MARGIN)``,
the process's caches kept from one version to the next).  A first game warms the
caches and kernels and is not counted.  Prints the CPU time of one version (mean,
median, largest; by stage of the game), the games simulated per version, and the
margins reached.  ``--workers`` spreads the versions over that many cache copies chosen
at random, as jobs land on any of several workers (each with its own cache).

    nice -n 10 .venv/bin/python benchmarks/bench_live_chances.py [--games 2] [--workers 1]

On a shared machine CPU time per version is steadier than wall time, but not immune
to the load (caches and cores shared): the load average is printed with the figures.
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import statistics
import time
from typing import Any


def play(seed: int, on_version: Any) -> None:
    """One game; ``on_version(state, levels)`` after every action."""
    from yatzy.game import Game, Roll, Score
    from yatzy.strategy.levels import solitaire_bot

    rng = random.Random(seed)
    state = Game("yatzy", ["Ann", "Bot0", "Bot1", "Bot2"]).new_initial_state(starter=0)
    greedy = solitaire_bot("greedy")
    levels: list[str | None] = [None, "greedy", "greedy", "greedy"]
    while not state.is_terminal():
        if state.player != 0:
            action: Any = greedy.choose(state, rng)
        elif state.dice is None or (state.rolls_left() > 0 and state.rolls_used < 2):
            action = Roll()
        else:
            preview = {b: p for b, p in state.preview().items() if b in state.allowed_boxes()}
            action = Score(max(preview, key=lambda b: preview[b]))
        state.apply(action)
        if state.is_chance_node():
            state.roll(rng)
        on_version(state, levels)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=2, help="games counted (after one warm-up game)")
    p.add_argument("--workers", type=int, default=1, help="cache copies to spread over")
    args = p.parse_args()

    from yatzy.strategy import outcomes, win_chance
    from yatzy.web.chances import LIVE_MARGIN

    caches = [collections.OrderedDict() for _ in range(args.workers)]
    pick = random.Random(7)
    figures: list[tuple[float, float, int, int]] = []
    simulated = [0]
    sample = outcomes.KernelSampler.sample

    def counted(self: Any, games: int, seed: int) -> Any:
        simulated[0] += games
        return sample(self, games, seed)

    outcomes.KernelSampler.sample = counted  # type: ignore[method-assign]

    def on_version(state: Any, levels: list[str | None]) -> None:
        win_chance._OUTCOMES = caches[pick.randrange(len(caches))]
        before, t0 = simulated[0], time.thread_time()
        result = win_chance.win_chances(state, levels, budget=0.2, build=True, margin=LIVE_MARGIN)
        spent = time.thread_time() - t0
        figures.append((spent, result.margin, state.turn_number, simulated[0] - before))

    play(1000, on_version)  # warm: tables, kernels, the first positions
    figures.clear()
    for seed in range(args.games):
        play(seed, on_version)
    cpu = [f[0] * 1000 for f in figures]
    print(
        f"{len(figures)} versions of {args.games} games, {args.workers} cache(s); "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"  CPU per version: mean {statistics.mean(cpu):.1f} ms, median "
        f"{statistics.median(cpu):.1f} ms, largest {max(cpu):.1f} ms; games simulated per "
        f"version {statistics.mean(f[3] for f in figures):.0f}"
    )
    margins = [f[1] for f in figures]
    print(f"  margin: median {statistics.median(margins):.4f}, largest {max(margins):.4f}")
    rounds = 15
    for first in range(0, rounds, 3):
        sel = [f[0] * 1000 for f in figures if first <= f[2] // 4 < first + 3]
        if sel:
            print(f"  rounds {first + 1}-{first + 3}: mean {statistics.mean(sel):.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
