"""The waits of a fresh install: the computer's first move, the analysis and the win
analysis with empty table and kernel caches (issue 24, "No waiting").

Every measurement runs in a new Python process whose solver tables
(``XDG_CACHE_HOME``) and compiled kernels (``YATZY_KERNEL_CACHE``) live in a fresh
temporary folder, as on a computer that never ran yatzy.  It prints, per rule set:

- ``import``: importing the web server's strategy modules (``yatzy.web.prepare``);
- ``first move (greedy stand-in)``: the optimal bot's first move as the server makes it
  now (:func:`yatzy.web.prepare.bot_for`: the greedy strategy while the table is built);
- ``first move (exact, cold)``: the same move from the exact solver, as before, which
  waits for the table: numba compiling the kernels plus the solve;
- ``... kernels warm``: the same once the kernels are compiled (the solve alone);
- ``analysis``: from a solo game's last box until its analysis is there;
- ``win analysis``: from a two-player game's last box until its analysis in win chance
  is there (the server's defaults: 0.2 CPU seconds per position);
- ``... after a N s game, warmed``: the same when the server's warm-up child
  (:mod:`yatzy.web.warmup`) started as the game did, ``--game`` seconds before the last
  box (a short first game);
- ``server`` (``--only server``): what a player waits for in the server itself: a
  fresh app on a fresh database (its warm-up child, table jobs and analysis ahead as
  in production), a person against the optimal computer with the person's moves
  spread over ``--game`` seconds, the computer's first and slowest turn (from the
  person's write to their turn again), and from the last box the analysis, the win
  analysis's estimate (shown while the exact one is computed) and the win analysis
  (whose turns the server rated ahead meanwhile, where its tables were ready), each
  waited for ``--limit`` seconds at most (``nan`` past it);
- ``terminal-end`` (``--only terminal-end``): the terminal's analysis at a game's end
  (``A``, ``a``) of a two-person game with the live chances off (nothing rated ahead),
  on a fresh install and then for a second game;
- ``terminal`` (``--only terminal``): the terminal's waits (``yatzy play``): the optimal
  computer's first turn, the first hint, the solo record line, and the time until a
  hint gives options (its table is built by a child process meanwhile; ``--limit``
  seconds at most).

Run: ``.venv/bin/python benchmarks/bench_cold_start.py [--specs yatzy,yahtzee]
[--game 60] [--only analysis,win,warm-analysis,warm-win,server,terminal,terminal-end]
[--limit 3600]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

_CHILD = r"""
import json, random, sys, time
t0 = time.perf_counter()
from yatzy.web import prepare
from yatzy.game import Game
from yatzy.rules import RuleSet
out = {"import": time.perf_counter() - t0}
spec, what = sys.argv[1], sys.argv[2]
rules = RuleSet.parse(spec)
rng = random.Random(1)

def rolled(players):
    state = Game(rules, players).new_initial_state(starter=0)
    from yatzy.game import Roll
    state.apply(Roll())
    state.apply_roll([rng.randint(1, 6) for _ in range(rules.num_dice)])
    return state

def finished(players):
    from yatzy.bots import GreedyBot, play_turn
    state = Game(rules, players).new_initial_state(starter=0)
    while not state.is_terminal():
        play_turn(state, GreedyBot(), rng)
    return state

def cpu_self():
    import resource
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime

def cpu_children():
    # CPU seconds of this process's children: those ended and reaped, and those still
    # running (their /proc figures).
    import os, resource
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = r.ru_utime + r.ru_stime
    tick = os.sysconf("SC_CLK_TCK")
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == os.getpid():  # the parent's pid
            total += (int(fields[11]) + int(fields[12])) / tick
    return total

def until(probe, limit=3600.0):
    start = time.perf_counter()
    while True:
        answer = probe()
        if not answer.get("pending"):
            return time.perf_counter() - start, answer
        if time.perf_counter() - start > limit:
            return float("nan"), answer
        time.sleep(0.05)

if what == "standin":
    state = rolled(["Ann", "Bot"])
    t = time.perf_counter()
    bot, stands_in = prepare.bot_for("optimal", rules)
    bot.choose(state, rng)
    out["first move (greedy stand-in)"] = time.perf_counter() - t
    out["stands in"] = stands_in
    t = time.perf_counter()
    prepare.TABLE_JOBS.wait_idle(3600)
    out["exact strategy ready after"] = time.perf_counter() - t
elif what == "exact":
    from yatzy.bots import make_bot
    state = rolled(["Ann", "Bot"])
    t = time.perf_counter()
    make_bot("optimal").choose(state, rng)
    out["first move (exact)"] = time.perf_counter() - t
if what.startswith("warm-"):
    from yatzy.web import warmup
    child = warmup.warm_soon(rules)
    out["warm-up started"] = child is not None
    time.sleep(float(sys.argv[3]))  # the game being played
    what = what.removeprefix("warm-")
if what == "analysis":
    from yatzy.web import hints
    state = finished(["Ann"])
    out["analysis"], answer = until(lambda: hints.analysis(state, "en", key="bench"))
elif what == "win":
    from yatzy.web import hints
    from yatzy.web.win_jobs import WinAnalyses
    state = finished(["Ann", "Bo"])
    jobs = WinAnalyses(budget=0.2)
    out["win analysis"], answer = until(
        lambda: hints.win_analysis(jobs, state, "en", key="bench")
    )
    out["win analysis answered"] = sorted(answer)[:4]
elif what == "server":
    # What a player waits for in the server: a real app on a fresh database, a person
    # against the optimal computer, moves paced over ``game`` seconds (the analysis
    # ahead rates the turns meanwhile), then the waits after the last box.
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    from yatzy.web.app import create_app
    game_s, db, limit = float(sys.argv[3]), sys.argv[4], float(sys.argv[5])
    pace = game_s / (3 * rules.turns)
    def view(client, gid):
        return client.get(f"/api/games/{gid}").json()
    def person_to_act(client, gid):
        start = time.perf_counter()
        while True:
            v = view(client, gid)
            if v["finished"] or not v["players"][v["turn"]["seat"]]["bot"]:
                return v, time.perf_counter() - start
            time.sleep(0.02)
    def action(v):
        turn = v["turn"]
        if turn["dice"] is None or (turn["rolls_left"] > 0 and turn["rolls_used"] < 2):
            return {"roll": []}
        preview = {b: p for b, p in turn["preview"].items() if b in turn["allowed"]}
        if not v["double"]:
            return {"score": max(preview, key=lambda b: (preview[b], b))}
        # DubbelYatzy: the inner dice's best box, the outer dice's best of the others
        inner = max(preview, key=lambda b: (preview[b][0], b))
        outer = max((b for b in preview if b != inner), key=lambda b: (preview[b][1], b))
        return {"inner": {"score": inner}, "outer": {"score": outer}}
    seats = [{"name": "Ann", "here": True}, {"name": "Bot", "bot": "optimal"}]
    import os
    out["load average at the start"] = os.getloadavg()[0]
    with TestClient(create_app(f"sqlite:///{db}", bot_delay=0.0)) as client:
        t = begun = time.perf_counter()
        cpu0, kids0 = cpu_self(), cpu_children()
        gid = client.post("/api/games", json={"rules": spec, "seats": seats}).json()["id"]
        out["game created"] = time.perf_counter() - t
        bot_turns = []
        v, waited = person_to_act(client, gid)
        if v["turn"]["seat"] != 0 or v["version"] > 0:
            bot_turns.append(waited)  # the computer began
        while not v["finished"]:
            time.sleep(pace)
            t = time.perf_counter()
            r = client.post(f"/api/games/{gid}/actions", json={"action": action(v)})
            assert r.status_code == 200, r.text
            after = r.json()
            computer = not after["finished"] and after["players"][after["turn"]["seat"]]["bot"]
            v, _ = person_to_act(client, gid)
            if computer:
                bot_turns.append(time.perf_counter() - t)  # its whole turn, on screen
        last = time.perf_counter()
        cpu_game, kids_game = cpu_self() - cpu0, cpu_children() - kids0
        waits, cpus = {}, {}
        asked = (("analysis", "analysis"), ("win analysis", "win-analysis"))
        while len(waits) < 3:
            for name, path in asked:
                if name in waits:
                    continue
                answer = client.get(f"/api/games/{gid}/{path}").json()
                if answer.get("estimated") and "win estimate" not in waits:
                    waits["win estimate"] = time.perf_counter() - last
                if not answer.get("pending"):
                    waits[name] = time.perf_counter() - last
                    cpus[name] = (cpu_self() - cpu0, cpu_children() - kids0)
                    waits.setdefault("win estimate", float("nan"))  # the exact came first
                    out[f"{name} answered"] = sorted(answer)[:4]
            if time.perf_counter() - last > limit:
                break
            time.sleep(0.05)
        out["computer's first turn"] = bot_turns[0] if bot_turns else float("nan")
        out["computer's slowest turn"] = max(bot_turns, default=float("nan"))
        out["game played (s)"] = last - begun
        out["analysis, server, from the last box"] = waits.get("analysis", float("nan"))
        out["win analysis estimated, server, from the last box"] = waits.get(
            "win estimate", float("nan")
        )
        out["win analysis, server, from the last box"] = waits.get("win analysis", float("nan"))
        ahead = client.app.state.service.ahead
        out["turns rated ahead"] = ahead.done
        out["server CPU s during the game"] = cpu_game
        out["warm-up children's CPU s during the game"] = kids_game
        if "analysis" in cpus:
            out["server CPU s at the analysis"] = cpus["analysis"][0]
            out["children's CPU s at the analysis"] = cpus["analysis"][1]
        if "win analysis" in cpus:
            out["children's CPU s at the win analysis"] = cpus["win analysis"][1]
        out["load average at the end"] = os.getloadavg()[0]
elif what == "terminal":
    # The terminal's waits (yatzy play): the optimal computer's first turn, the first
    # hint, the record line, and how long until a hint gives options.
    from yatzy.bots import GreedyBot, make_bot
    from yatzy.cli.play_advice import hint_lines
    from yatzy.cli.play_common import plays_stand_in, record_line
    from yatzy.game import Player, Roll
    state = Game(rules, [Player("Bot", "optimal"), Player("Ann")]).new_initial_state(starter=0)
    t = time.perf_counter()
    bot = GreedyBot() if plays_stand_in(state, 0) else make_bot("optimal")
    while state.player == 0 and not state.is_terminal():
        if state.is_chance_node():
            state.roll(rng)
            continue
        state.apply(bot.choose(state, rng))
    out["terminal: computer's first turn"] = time.perf_counter() - t
    out["terminal: greedy stands in"] = isinstance(bot, GreedyBot)
    state.apply(Roll())
    if state.is_chance_node():
        state.roll(rng)
    t = time.perf_counter()
    said = hint_lines(state, None, "en")[0]
    out["terminal: first hint"] = time.perf_counter() - t
    out["terminal: first hint says"] = said[:48]
    t = time.perf_counter()
    record_line(Game(rules, ["Ann"]).new_initial_state(starter=0), 240, "en")
    out["terminal: record line"] = time.perf_counter() - t
    t = time.perf_counter()
    while time.perf_counter() - t < float(sys.argv[5]) and "being prepared" in said:
        time.sleep(2)
        said = hint_lines(state, None, "en")[0]
    out["terminal: a hint with options after"] = time.perf_counter() - t
elif what == "terminal-end":
    # The terminal's analysis at a game's end (A on the full screen, a in the line
    # mode) of a two-person game played with the live chances off (nothing rated
    # ahead): the points, each player's mistakes and the chances to win, with what is
    # left rated in a worker per core; then the same for a second game (kernels warm).
    from yatzy.cli.play_advice import analysis_lines
    for label in ("fresh", "warm"):
        state = finished(["Ann", "Bo"])
        t = time.perf_counter()
        lines = analysis_lines(state, "en")
        out[f"terminal: analysis at the end, {label}"] = time.perf_counter() - t
    out["terminal: analysis says"] = next((x for x in lines if "at the start" in x), "")[:48]
print(json.dumps(out))
"""


def _child(
    spec: str, what: str, home: Path, kernels: Path, game: float = 0.0, limit: float = 3600.0
) -> dict[str, object]:
    home.mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        "XDG_CACHE_HOME": str(home),
        "YATZY_KERNEL_CACHE": str(kernels),
        "YATZY_PREPARE_SPECS": "all",
    }
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, spec, what, str(game), str(home / "server.db"), str(limit)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"{spec} {what} failed:\n{done.stderr}")
    answer: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return answer


def main() -> None:
    """Measure and print the waits of a fresh install."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--specs", default="yatzy,yahtzee", help="rule sets (comma-separated)")
    parser.add_argument("--game", type=float, default=60.0, help="seconds of the warmed game")
    parser.add_argument("--only", default="", help="measure only these (comma-separated)")
    parser.add_argument(
        "--limit",
        type=float,
        default=3600.0,
        help="seconds to wait for the analyses (server) or a hint's options (terminal)",
    )
    args = parser.parse_args()
    only = set(filter(None, args.only.split(",")))
    print(f"load average {os.getloadavg()[0]:.1f}; seconds:")
    for spec in args.specs.split(","):
        with tempfile.TemporaryDirectory(prefix="yatzy-cold-") as tmp:
            root = Path(tmp)
            figures: dict[str, object] = {}
            if only:
                for n, what in enumerate(sorted(only)):
                    found = _child(
                        spec, what, root / f"o{n}", root / f"ko{n}", args.game, args.limit
                    )
                    if what.startswith("warm-"):
                        key = "win analysis" if what == "warm-win" else "analysis"
                        found[f"{key}, after a {args.game:.0f} s game, warmed"] = found.pop(key)
                    figures |= found
                _show(spec, figures)
                continue
            # Each on empty caches: a fresh computer.
            figures |= _child(spec, "standin", root / "a", root / "ka")
            exact = _child(spec, "exact", root / "b", root / "kb")
            figures["first move (exact, cold)"] = exact["first move (exact)"]
            # Kernels compiled (by the run before), tables missing: the solve alone.
            warm = _child(spec, "exact", root / "c", root / "kb")
            figures["first move (exact, kernels warm)"] = warm["first move (exact)"]
            figures |= _child(spec, "analysis", root / "d", root / "kd")
            figures |= _child(spec, "win", root / "e", root / "ke")
            for what in ("warm-analysis", "warm-win"):
                found = _child(spec, what, root / what, root / f"k{what}", args.game)
                key = "win analysis" if what == "warm-win" else "analysis"
                found[f"{key}, after a {args.game:.0f} s game, warmed"] = found.pop(key)
                figures |= found
        _show(spec, figures)


def _show(spec: str, figures: dict[str, object]) -> None:
    print(f"{spec}:")
    for name, value in figures.items():
        shown = f"{value:8.2f}" if isinstance(value, float) else f"{value!s:>8}"
        print(f"  {name:<44} {shown}")


if __name__ == "__main__":
    main()
