"""``yatzy analyze --win``: the analysis in win chance as text (and a text chart).

Each decision's points cost (``yatzy analyze``) gets a column beside it: the change
in the player's chance of winning (solo: of beating the record) that the choice
caused against the best option.  Under the list, every player's chance over the
game's turns as a text chart (one letter per player) and per player the chance
given up in total.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

from yatzy.errors import YatzyError

if TYPE_CHECKING:
    from yatzy.game import State
    from yatzy.strategy.win_analysis import WinPoint

CHART_ROWS = 11
"""Rows of the text chart (0 % to 100 % in steps of 10)."""
CHART_COLUMNS = 60
"""The text chart's widest plot: longer games show every n-th turn."""
WARM_NAME = "win-analysis"
"""The warm marker (:func:`yatzy.kernels.cache.warm_marker`) left once this command's
kernels are compiled: until then its progress line says the first run compiles them."""


MAX_JOBS = 64
"""The most processes ``--jobs`` may ask for."""


def progress_reporter(stream: TextIO) -> Callable[[int, int], None] | None:
    """At a terminal, a line on ``stream`` that says what the analysis is doing, turn by
    turn (it takes seconds to minutes); ``None`` where ``stream`` is no terminal (a
    pipe or a file gets only the result)."""
    if not stream.isatty():
        return None
    from yatzy.kernels.cache import warm_marker

    first = (
        ""
        if warm_marker(WARM_NAME).exists()
        else " (the first time on this computer it also compiles its kernels: about a minute)"
    )
    stream.write(f"Working out the chance of every decision{first} …\n")
    stream.flush()

    def report(done: int, total: int) -> None:
        stream.write(f"\r  turn {done + 1} of {total} …")
        stream.flush()

    return report


def solo_record(state: State, url: str | None) -> int | None:
    """The best final score of this computer's finished solo games of the game's rules
    in the local database, this game itself left out (``None``: none, or no database
    to read); see :func:`yatzy.store.local.local_solo_record`."""
    from yatzy.store.local import local_solo_record

    return local_solo_record(state.rules.spec, url, leave_out=state)


def _percent(x: float) -> str:
    return f"{100 * x:.1f} %"


def chart_lines(points: tuple[WinPoint, ...], names: list[str]) -> list[str]:
    """Every seat's chance over the game's turns: one letter per seat (its name's
    initial, ``*`` where two meet), 0 % at the bottom, the turns along."""
    if not points:
        return []
    step = max(1, -(-len(points) // CHART_COLUMNS))
    shown = list(points[::step])
    if shown[-1] is not points[-1]:
        shown.append(points[-1])
    marks = [n[:1].upper() or str(i + 1) for i, n in enumerate(names)]
    if len(set(marks)) < len(marks):
        marks = [str(i + 1) for i in range(len(names))]
    grid = [[" "] * len(shown) for _ in range(CHART_ROWS)]
    for x, p in enumerate(shown):
        for seat, chance in enumerate(p.chances):
            y = round(chance * (CHART_ROWS - 1))
            cell = grid[CHART_ROWS - 1 - y][x]
            grid[CHART_ROWS - 1 - y][x] = marks[seat] if cell in (" ", marks[seat]) else "*"
    lines = []
    for r, row in enumerate(grid):
        level = 100 * (CHART_ROWS - 1 - r) // (CHART_ROWS - 1)
        label = f"{level:>3} %" if level in (0, 50, 100) else "     "
        lines.append(f"  {label} |{''.join(row)}")
    lines.append("        +" + "-" * len(shown))
    last = f"turn {shown[-1].turn}"
    lines.append("         turn 0" + last.rjust(max(0, len(shown) - 6)))
    legend = ", ".join(f"{m} {n}" for m, n in zip(marks, names, strict=True))
    every = f"; every {step} turns" if step > 1 else ""
    lines.append(f"         {legend}{every}")
    return lines


def run_win(args: argparse.Namespace) -> int:
    """Print the analysis with the chances (``--win``, ``--record``, ``--win-budget``)."""
    from yatzy.game import load
    from yatzy.strategy.analyze import MISTAKE
    from yatzy.strategy.win_analysis import COSTLY, analyze_wins
    from yatzy.strategy.win_chance import DEFAULT_BUDGET

    state = load(args.game)
    budget = DEFAULT_BUDGET if args.win_budget is None else args.win_budget
    if not budget > 0 or budget > 60:
        raise YatzyError(f"--win-budget {budget}: give CPU seconds per position, 0 to 60")
    if args.plot:
        from yatzy.strategy.plot import check_plot_path

        check_plot_path(args.plot)  # before the work
    record = args.record
    solo = len(state.players) == 1
    if record is not None and not solo:
        raise YatzyError("--record is for a solo game: with more players the chance is to win")
    source = "given"
    if solo and record is None:
        record = solo_record(state, args.database_url)
        source = "your best in the local database"
        if record is None:
            raise YatzyError(
                "a solo game is rated by the chance of beating a record: give --record POINTS"
            )
    from yatzy.strategy.win_spread import default_jobs, spread_wins

    jobs = default_jobs() if args.jobs is None else args.jobs
    if not 1 <= jobs <= MAX_JOBS:
        raise YatzyError(f"--jobs {jobs}: give a number of processes, 1 to {MAX_JOBS}")
    report = progress_reporter(sys.stderr)
    if jobs > 1 and not state.game.pad:
        spread_wins(state, jobs=jobs, record=record, budget=budget, progress=report)
    win = analyze_wins(state, record=record, budget=budget, progress=report)
    if report is not None:
        sys.stderr.write("\r\x1b[K")  # the progress line gives way to the result
        sys.stderr.flush()
    from yatzy.kernels.cache import mark_warm

    mark_warm(WARM_NAME)
    points = win.points_analysis
    if args.plot:
        from yatzy.strategy.plot import save_win_chart

        save_win_chart(win, [p.name for p in state.players], args.plot)
    if args.json:
        print(json.dumps(points.to_json() | {"win": win.to_json()}))
        return 0
    aim = f"beating the record {record} ({source})" if solo else "winning"
    kind = "exact" if points.exact else f"APPROXIMATE ({points.method})"
    chances = (
        "exact"
        if win.exact
        else f"{win.simulated} simulated (≈), each off by up to {100 * win.margin:.1f} "
        "percentage points (95 % sure)"
    )
    print(f"{points.rules}: {len(points.decisions)} decisions, values {kind}")
    print(
        f"chance of {aim}: {chances}; {win.wall:.1f} s ({win.seconds:.1f} s CPU, "
        f"{budget:g} s per position)"
    )
    shown = [d for d in win.decisions if args.all or d.decision.loss > MISTAKE or d.cost > COSTLY]
    if shown:
        print(
            f"  {'turn':>4}  {'player':<12} {'dice':<18} {'left':>4}  "
            f"{'points':>6}  {'win %':>6}  chosen / best"
        )
    for w in shown:
        d = w.decision
        dice = " ".join(f"{x[0]}/{x[1]}" if isinstance(x, list) else str(x) for x in d.dice)
        better = ""
        if d.loss > MISTAKE:
            better = f"  best: {d.best}"
        if w.cost > COSTLY and w.best != d.best:
            better += f"  best for the chance: {w.best}"
        about = "≈" if w.margin > 0 else ""  # simulated: "about", its margin said above
        print(
            f"  {d.own_turn:>4}  {d.name[:12]:<12} {dice:<18} {d.rolls_left:>4}  "
            f"{-d.loss:>6.2f}  {about + format(-100 * w.cost, '.1f'):>6}  {d.chosen}{better}"
        )
    print(f"chance of {aim}, turn by turn:")
    for line in chart_lines(win.points, [p.name for p in state.players]):
        print(line)
    print("players:")
    for p, s in zip(points.players, win.players, strict=True):
        start = win.points[0].chances[p.player] if win.points else 0.0
        print(
            f"  {p.name}: final {p.final}, {p.decisions} decisions, {p.mistakes} mistakes, "
            f"expected loss {p.total_loss:.2f} in total, {p.mean_loss:.3f} per decision; "
            f"chance {_percent(start)} at the start, {_percent(s.total_cost)} given up "
            f"in {s.costly} decisions"
        )
    return 0
