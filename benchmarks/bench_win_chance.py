"""Benchmark of the live win chances: server CPU per update and the margin reached.

For each rule set and number of players it plays a seeded game (every seat by its
level: a person as the optimal bot) and, at several stages of the game, computes
the win chances after every action of that round, as the web server does
(``win_chances(state, levels, budget=B, build=False)``, the process-wide cache of
positions kept across the game's updates, as in a server).  It prints, per stage,
the mean and the largest CPU time of one update (the thread's own CPU time, which
is what the server spends), how many updates were exact, and the mean and the
largest margin (half-width of the 95 % interval) of the simulated ones.

Seat compositions: ``people`` (everyone a person: exact wherever the optimal-play
table covers them) and ``mixed`` (a person, then bots strong, casual and greedy).
``--no-table`` hides the whole game's optimal-play table (the sub-games of the open
boxes are still solved where that fits the budget), to show the figures before the
table is built.

    nice -n 10 .venv/bin/python benchmarks/bench_win_chance.py            # yatzy, yahtzee
    nice -n 10 .venv/bin/python benchmarks/bench_win_chance.py --no-table
    nice -n 10 .venv/bin/python benchmarks/bench_win_chance.py --specs maxi dubbel \\
        maxi+saved_rolls --players 2 --seats mixed

The machine's load average is printed with the figures: on a shared machine CPU
time per update is stable, the margins (games simulated within the budget) are not.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from typing import Any

STAGES = {"start": 0, "round 4": 3, "round 8": 7, "round 12": 11, "last round": -1}
MIXED = [None, "strong", "casual", "greedy"]


def _play_round(state: Any, bots: list[Any], rng: random.Random, on_update: Any) -> None:
    """Play one round (every seat's turn), calling ``on_update`` after every action."""
    from yatzy.game import Roll

    for _ in range(len(state.players)):
        seat = state.player
        while not state.is_terminal() and state.player == seat:
            action = bots[seat].choose(state, rng)
            state.apply(action)
            if isinstance(action, Roll) or state.is_chance_node():
                state.roll(rng)
            on_update()
        if state.is_terminal():
            return


def run_game(
    spec: str, levels: list[str | None], budget: float, seed: int, driver: str | None
) -> list[dict[str, Any]]:
    """One game's figures per stage (``driver``: a bot level that makes every move)."""
    from yatzy.bots import make_bot, play_turn
    from yatzy.game import Game, Player
    from yatzy.strategy import win_chance as wc
    from yatzy.strategy.win_chance import TablesNotReady, win_chances

    wc._OUTCOMES.clear()  # a new game: nothing of other games' positions is known
    players = [Player(f"P{i}", lv) for i, lv in enumerate(levels)]
    state = Game(spec, players).new_initial_state(starter=0)
    bots = [make_bot(driver or lv or "optimal") for lv in levels]
    rng = random.Random(seed)
    rounds = state.rules.turns
    out = []
    for name, first in STAGES.items():
        start_round = rounds - 1 if first < 0 else first
        if start_round >= rounds - 1 and first >= 0:
            continue  # DubbelYatzy has 8 rounds
        while state.turn_number < start_round * len(levels):
            play_turn(state, bots[state.player], rng)
        figures: list[tuple[float, bool, float]] = []

        def update(figures: list[tuple[float, bool, float]] = figures) -> None:
            t = time.thread_time()
            try:
                result = win_chances(state, levels, budget=budget, build=False)
            except TablesNotReady:
                figures.append((time.thread_time() - t, False, float("nan")))
                return
            spent = time.thread_time() - t
            figures.append((spent, result.exact, result.margin))

        update()  # the round's first position (the turn before its first roll)
        _play_round(state, bots, rng, update)
        out.append({"stage": name, "figures": figures})
    return out


def warm(spec: str, levels: list[str | None]) -> None:
    """Compile the kernels and load the tables (not timed); a 5-dice rule set's
    expected-value table is built if missing (seconds), Maxi's never (minutes)."""
    from yatzy.game import Game, Player
    from yatzy.strategy.win_chance import TablesNotReady, win_chances

    state = Game(spec, [Player(f"P{i}", lv) for i, lv in enumerate(levels)]).new_initial_state(
        starter=0
    )
    try:
        win_chances(state, levels, budget=0.05, build=state.rules.num_dice == 5)
    except TablesNotReady:
        print(f"({spec}: the whole game's table is not built; early updates have none)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--specs", nargs="+", default=["yatzy", "yahtzee"])
    parser.add_argument("--players", nargs="+", type=int, default=[2, 3, 4])
    parser.add_argument("--seats", nargs="+", default=["people", "mixed"])
    parser.add_argument("--budget", type=float, default=0.2, help="CPU seconds per update")
    parser.add_argument("--games", type=int, default=1, help="games per configuration")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-table", action="store_true", help="hide the whole optimal table")
    parser.add_argument(
        "--driver", default=None, help="a bot level that makes every move (default: each seat's)"
    )
    args = parser.parse_args(argv)
    from yatzy.strategy import outcomes

    if args.no_table:
        outcomes._whole_table = lambda rules: None  # type: ignore[assignment]
    print(f"load average before: {os.getloadavg()[0]:.2f} (1 min)", flush=True)
    print(
        "| rules | players | seats | table | stage | updates | CPU per update mean / max (ms) "
        "| exact | margin mean / max (%) |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for spec in args.specs:
        has_table = False
        if not args.no_table:
            from yatzy.rules import RuleSet

            rules = RuleSet.parse(spec)
            if rules.variant in ("yatzy", "yahtzee"):
                has_table = outcomes._whole_table(rules) is not None
        for n in args.players:
            for seats in args.seats:
                levels: list[str | None] = [None] * n if seats == "people" else MIXED[:n]
                warm(spec, levels)
                stages: dict[str, list[tuple[float, bool, float]]] = {}
                for g in range(args.games):
                    for row in run_game(spec, levels, args.budget, args.seed + g, args.driver):
                        stages.setdefault(row["stage"], []).extend(row["figures"])
                for stage, figures in stages.items():
                    cpu = [f[0] * 1000 for f in figures]
                    exact = sum(f[1] for f in figures)
                    margins = [f[2] * 100 for f in figures if not f[1] and f[2] == f[2]]
                    missing = sum(f[2] != f[2] for f in figures)
                    margin = (
                        f"{statistics.mean(margins):.1f} / {max(margins):.1f}" if margins else "–"
                    )
                    print(
                        f"| {spec} | {n} | {seats} | {'yes' if has_table else 'no'} | {stage} "
                        f"| {len(figures)} | {statistics.mean(cpu):.0f} / {max(cpu):.0f} "
                        f"| {exact}/{len(figures)} | {margin}"
                        + (f" ({missing} without a table)" if missing else "")
                        + " |",
                        flush=True,
                    )
    print(f"load average after: {os.getloadavg()[0]:.2f} (1 min)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
