"""Head to head: the bot that plays for the win against the optimal bot.

Plays ``--games`` two-player games of the ``winner`` level (:mod:`yatzy.strategy.winbot`)
against the ``optimal`` level with the numba kernel (``winbot.head_to_head``; the seat
order alternates game by game, seat 0 starting), then the control: the optimal bot
against itself (about 50 %).  For each it prints the games, the first bot's share of
wins (ties half) with its 95 % interval, the mean final scores of both seats, the
ties and the games per second.  With ``--python-games N`` it also plays N games
through game states with the real bots (``WinnerBot`` against ``AdvisedBot``), the
cross-check of the kernel: the two rates must agree within their errors.

    python benchmarks/bench_winbot.py                       # yatzy, 20,000 games
    python benchmarks/bench_winbot.py yahtzee --games 40000 --python-games 200
    python benchmarks/bench_winbot.py --open-boxes ones,twos,chance,yatzy   # a sub-game

The whole game needs the two target tables (max and optimal mode) in the disk cache
(``--build`` builds the missing ones: minutes each).  Chunks of ``--chunk`` games run
on ``--workers`` threads, each chunk seeded from ``--seed`` and its number, so the
figures do not depend on the number of workers.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

Z95 = 1.959963984540054


def _tables(spec: str, open_boxes: list[str] | None, build: bool) -> Any:
    from yatzy.rules import RuleSet
    from yatzy.solver.target import TargetTable
    from yatzy.strategy import winbot

    rules = RuleSet.parse(spec)
    if open_boxes is None:
        return winbot.win_tables(rules, build=build, progress=True)
    return winbot.make_tables(
        TargetTable(rules, mode="max", open_boxes=open_boxes, use_cache=False),
        TargetTable(rules, mode="optimal", open_boxes=open_boxes, use_cache=False),
    )


def run(
    tables: Any, games: int, seed: int, control: bool, chunk: int, workers: int, alpha: float
) -> Any:
    """``games`` kernel games in even chunks (seat order alternating inside each)."""
    from yatzy.strategy import winbot

    chunk += chunk % 2
    sizes = [min(chunk, games - i) for i in range(0, games, chunk)]
    winbot.head_to_head(tables, 2, seed, control=control, alpha=alpha)  # compile or load first
    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=workers) as pool:
        parts = list(
            pool.map(
                lambda a: winbot.head_to_head(
                    tables, a[1], seed * 1_000_003 + a[0], control=control, alpha=alpha
                ),
                enumerate(sizes),
            )
        )
    seconds = time.perf_counter() - start
    scores = np.concatenate([p.scores for p in parts])
    return winbot.HeadToHead(tables.rules.spec, control, scores, seconds)


def python_games(tables: Any, games: int, seed: int, alpha: float) -> tuple[float, float, float]:
    """The winner bot against the optimal bot through game states: (rate, margin, s)."""
    from yatzy.bots import AdvisedBot
    from yatzy.game import BoxEntry, Game, Player
    from yatzy.strategy.winbot import WinnerBot

    rules = tables.rules
    root = set(tables.max_table.model.boxes_of(tables.max_table.layout.root))
    rng = random.Random(seed)
    optimal = AdvisedBot("optimal", 0.0)
    points = []
    start = time.perf_counter()
    for g in range(games):
        seat = g % 2
        players = [Player("optimal", "optimal"), Player("optimal", "optimal")]
        players[seat] = Player("winner", "winner")
        state = Game(rules, players).new_initial_state(starter=0)
        for sheet in state.sheets:
            for box in rules.boxes:
                if box not in root:
                    sheet.entries[box] = BoxEntry(0)
        state.turn_number = 2 * (len(rules.boxes) - len(root))
        bots: dict[int, Any] = {seat: WinnerBot(tables, alpha=alpha), 1 - seat: optimal}
        while not state.is_terminal():
            if state.is_chance_node():
                state.roll(rng)
            else:
                state.apply(bots[state.player].choose(state, rng))
        mine, theirs = state.sheets[seat].total, state.sheets[1 - seat].total
        points.append(1.0 if mine > theirs else 0.5 if mine == theirs else 0.0)
    arr = np.array(points)
    return (
        float(arr.mean()),
        float(Z95 * arr.std(ddof=1) / math.sqrt(games)),
        time.perf_counter() - start,
    )


def _line(name: str, h: Any) -> str:
    a, b = h.means
    return (
        f"{name:<22} games {h.games:>7}  win rate {100 * h.rate:6.2f} % ± {100 * h.margin:.2f}"
        f" (95 %)  means {a:7.2f} vs {b:7.2f}  ties {h.ties:>5} ({100 * h.ties / h.games:.2f} %)"
        f"  {h.games_per_second:,.0f} games/s"
    )


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; prints the figures (``--json``: one JSON object)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("spec", nargs="?", default="yatzy")
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--control-games", type=int, default=None, help="default: --games")
    parser.add_argument("--python-games", type=int, default=0)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--chunk", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--open-boxes", default=None, help="comma-separated: a sub-game")
    parser.add_argument("--build", action="store_true", help="build missing tables")
    parser.add_argument("--alpha", type=float, default=None, help="default: winbot.ALPHA")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    boxes = args.open_boxes.split(",") if args.open_boxes else None
    t0 = time.perf_counter()
    from yatzy.strategy.winbot import ALPHA

    alpha = ALPHA if args.alpha is None else args.alpha
    tables = _tables(args.spec, boxes, args.build)
    load_s = time.perf_counter() - t0
    h = run(tables, args.games, args.seed, False, args.chunk, args.workers, alpha)
    control_games = args.games if args.control_games is None else args.control_games
    c = run(tables, control_games, args.seed + 1, True, args.chunk, args.workers, alpha)
    out: dict[str, Any] = {
        "spec": args.spec,
        "open_boxes": boxes,
        "alpha": alpha,
        "tables_seconds": round(load_s, 2),
        "winner_vs_optimal": _figures(h),
        "control_optimal_vs_optimal": _figures(c),
    }
    if args.python_games:
        rate, margin, secs = python_games(tables, args.python_games, args.seed + 2, alpha)
        out["python_cross_check"] = {
            "games": args.python_games,
            "rate": round(rate, 4),
            "margin95": round(margin, 4),
            "seconds": round(secs, 1),
            # Within the 95 % interval of the difference (None: too few kernel games).
            "agrees": abs(rate - h.rate) <= math.hypot(margin, h.margin)
            if h.games >= 1000
            else None,
        }
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    where = args.spec + (f" (sub-game {args.open_boxes})" if boxes else "")
    print(
        f"{where}: tables ready in {load_s:.1f} s; alpha {alpha:g}; two players, seat order"
        " alternating"
    )
    print(_line("winner vs optimal", h))
    print(_line("control: optimal vs opt", c))
    diff = h.rate - 0.5
    z = diff / (h.margin / Z95) if h.margin > 0 else math.nan
    print(f"difference from 50 %: {100 * diff:+.2f} points, z = {z:.1f}")
    if args.python_games:
        p = out["python_cross_check"]
        print(
            f"python bots (game states): games {p['games']}  win rate {100 * p['rate']:.2f} %"
            f" ± {100 * p['margin95']:.2f}  ({p['seconds']} s)  agrees with the kernel:"
            f" {p['agrees']}"
        )
    return 0


def _figures(h: Any) -> dict[str, Any]:
    a, b = h.means
    return {
        "games": h.games,
        "rate": round(h.rate, 5),
        "margin95": round(h.margin, 5),
        "wins": h.wins,
        "ties": h.ties,
        "mean_first": round(a, 3),
        "mean_second": round(b, 3),
        "seconds": round(h.seconds, 2),
        "games_per_second": round(h.games_per_second, 1),
    }


if __name__ == "__main__":
    sys.exit(main())
