"""``yatzy analyze GAME.json``: every decision of a game against the best one."""

from __future__ import annotations

import argparse
import json
from typing import Any


def add_parser(sub: Any) -> None:
    """Register the subcommand."""
    p = sub.add_parser(
        "analyze",
        help="rate every decision of a recorded game against optimal play",
        description="Replays a game record (as written by 'yatzy play') and compares "
        "every decision of every player — each keep and each box — with the best one "
        "for that player's own sheet, giving the expected points lost.  Per player: "
        "the total and the mean loss per decision.  Turns are numbered per player.  A "
        "score pad record is rated on the boxes chosen for its entered dice.",
    )
    p.add_argument("game", metavar="GAME.json", help="a game record")
    p.add_argument("--all", action="store_true", help="list every decision, not only the mistakes")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument(
        "--win",
        action="store_true",
        help="also rate every decision by the change in the player's chance of winning "
        "(solo: of beating the record) against the best option, beside the points, and "
        "draw the chart of every player's chance over the game (people counted as "
        "playing the optimal strategy, bots at their level)",
    )
    p.add_argument(
        "--record",
        metavar="POINTS",
        type=int,
        help="solo, with --win (implied): the record to beat (default: your best other solo "
        "game of these rules in the local database, if any)",
    )
    p.add_argument(
        "--win-budget",
        metavar="SECONDS",
        type=float,
        help="with --win (implied): CPU seconds per position for the chances (default 0.2); "
        "exact where a table covers the position, otherwise simulated with a stated margin",
    )
    p.add_argument(
        "--jobs",
        metavar="N",
        type=int,
        help="with --win (implied): rate the positions in N processes at once "
        "(default: one per CPU core, at most 8; 1: in this process only)",
    )
    p.add_argument(
        "--plot",
        metavar="FILE.png",
        help="with --win (implied): draw every player's chance turn by turn into a PNG",
    )
    p.add_argument(
        "--database-url",
        metavar="URL",
        help="the database to read a solo record from (default: the local SQLite file)",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the analysis."""
    wins = (args.record, args.win_budget, args.jobs)
    if args.win or args.plot or any(arg is not None for arg in wins):
        from yatzy.cli.win_report import run_win

        return run_win(args)
    from yatzy.strategy.analyze import MISTAKE, analyze_file

    analysis = analyze_file(args.game)
    if args.json:
        print(json.dumps(analysis.to_json()))
        return 0
    kind = "exact" if analysis.exact else f"APPROXIMATE ({analysis.method})"
    print(f"{analysis.rules}: {len(analysis.decisions)} decisions, values {kind}")
    if analysis.scope == "boxes":
        print(
            "score pad: only the box chosen for each turn's entered dice is rated "
            "(the keeps between rolls are not on a pad)"
        )
    shown = [d for d in analysis.decisions if args.all or d.loss > MISTAKE]
    if shown:
        # turns are each player's own (1-15 on a 15-box sheet), not the game's
        print(f"  {'turn':>4}  {'player':<12} {'dice':<18} {'left':>4}  chosen / best  (loss)")
    for d in shown:
        dice = " ".join(f"{x[0]}/{x[1]}" if isinstance(x, list) else str(x) for x in d.dice)
        mark = "" if d.loss <= MISTAKE else f"  best: {d.best}"
        print(
            f"  {d.own_turn:>4}  {d.name[:12]:<12} {dice:<18} {d.rolls_left:>4}  "
            f"{d.chosen}{mark}  ({d.loss:.2f})"
        )
    print("players:")
    for p in analysis.players:
        if not p.complete:
            # Points written without their dice (a hand-filled protocol): nothing to
            # rate, which is not the same as flawless play.
            print(
                f"  {p.name}: final {p.final}, cannot be rated: "
                "the pad holds this player's points without the dice they were scored from"
            )
            continue
        print(
            f"  {p.name}: final {p.final}, {p.decisions} decisions, {p.mistakes} mistakes, "
            f"expected loss {p.total_loss:.2f} in total, {p.mean_loss:.3f} per decision"
        )
    return 0
