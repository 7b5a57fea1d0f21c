"""5,000 daily games open at once (issue 26), through the game service
(:class:`yatzy.web.service.GameService`, its clocks included) on SQLite and
PostgreSQL.

``--people`` accounts are made; ``--games`` two-player games with a daily clock
(``--days`` a move) are opened between them, each seated on its two accounts as the
lobby seats them (the clock starts once both are seated), ``--busy-games`` of them
with one busy account in each, so that its "your turn" list has much to look
through.  Then each game gets a first move (a roll, a write), so most clocks have
moved on once.  Printed per backend:

* **sweep**: the server's look for overdue clocks (:meth:`ClockStore.overdue`, one
  query on the ``due`` index, what every process runs every five seconds), with
  nothing due and with ``--overdue`` games past their deadline; median and p99;
* **your turn**: the busy account's list (:meth:`GameService.turns_of`, what
  ``GET /api/account/turns`` answers): the first (each game missing from the
  service's cache replayed), then the median and p99 of ``--listings`` more;
* **action**: a roll and a write in one of the busy account's games while all the
  others are open (:meth:`GameService.act`, its clock checked and moved on);
  median and p99 of ``--actions`` actions;
* **size**: the database's size with every game open (SQLite: the file;
  PostgreSQL: ``pg_database_size``), and per game.

    .venv/bin/python benchmarks/bench_daily_games.py [--backends sqlite,postgres]
        [--games 5000] [--people 1000] [--pg postgresql://postgres@127.0.0.1:5432/test]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import sys
import time
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from bench_lobby import make_people, percentile, pg_database, sqlite_database

from yatzy.store import GameRepository
from yatzy.store.accounts import account_owner, owner_hash
from yatzy.web.clocks import ClockSetting, SettableClock
from yatzy.web.service import GameService, SeatRequest, token_hash


def token_of(account_id: str) -> str:
    """The seat token the benchmark claims an account's seats with (the lobby makes
    a random one and never hands it out; a known one lets the benchmark act)."""
    return "bench-" + account_id


async def open_game(
    service: GameService, days: int, people: list[tuple[str, str]]
) -> tuple[str, list[str]]:
    """A daily game of ``people`` (id, name), each seated on the account, its clock
    started as :meth:`yatzy.web.lobby.LobbyGames.seat` starts it; the id and the
    seats' tokens."""
    created = await service.create(
        "yatzy", "en", [SeatRequest(name) for _, name in people], clock=ClockSetting.daily(days)
    )
    gid = created.game_id

    def claim() -> None:
        for seat, (account_id, _) in enumerate(people):
            service.repo.claim(
                gid, seat, token_hash(token_of(account_id)), owner_hash(account_owner(account_id))
            )

    await asyncio.to_thread(claim)
    await service.clocks.joined(*await service.load(gid))
    return gid, [token_of(a) for a, _ in people]


async def one_move(service: GameService, gid: str, tokens: dict[int, str]) -> float:
    """A roll and the first allowed write by the player to move; seconds it took."""
    t0 = time.perf_counter()
    stored, state = await service.act(gid, {"roll": []}, tokens)
    view = service.game_view(stored, state)
    turn = view["turn"]
    assert turn is not None
    preview = {b: p for b, p in turn["preview"].items() if b in turn["allowed"]}
    box = max(preview, key=lambda b: (preview[b], b))
    await service.act(gid, {"score": box}, tokens)
    return time.perf_counter() - t0


async def timed(call: Any, n: int) -> list[float]:
    """Seconds of ``n`` awaited calls of ``call()``."""
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        await call()
        out.append(time.perf_counter() - t0)
    return out


def database_size(repo: GameRepository, url: str) -> int:
    """The database's bytes (SQLite: the file, once its write-ahead log is copied
    into it; the log's own file is kept for reuse and not counted)."""
    if url.startswith("sqlite"):
        import sqlite3

        path = urlsplit(url).path
        with contextlib.closing(sqlite3.connect(path)) as conn:
            conn.execute("PRAGMA wal_checkpoint(FULL)")
        return os.path.getsize(path)
    from sqlalchemy import text

    with repo.engine.connect() as conn:
        return int(conn.execute(text("SELECT pg_database_size(current_database())")).scalar_one())


async def run(url: str, args: argparse.Namespace) -> dict[str, float]:
    repo = await asyncio.to_thread(GameRepository.open, url)
    clock = SettableClock()
    try:
        service = GameService(repo, clock=clock)
        empty = await asyncio.to_thread(database_size, repo, url)
        people = await asyncio.to_thread(make_people, repo, args.people)
        busy, others = people[0], people[1:]
        rng = random.Random(args.seed)
        # the busy account sits second: after each game's first turn, its move
        plans = [[rng.choice(others), busy] for _ in range(args.busy_games)]
        plans += [rng.sample(others, 2) for _ in range(args.games - args.busy_games)]
        games: list[tuple[str, dict[int, str]]] = []
        started = time.perf_counter()
        for i in range(0, len(plans), args.concurrency):
            made = await asyncio.gather(
                *(open_game(service, args.days, p) for p in plans[i : i + args.concurrency])
            )
            games += [(gid, dict(enumerate(tokens))) for gid, tokens in made]
        opening = time.perf_counter() - started
        # each game's first turn: its clock moves on to the second seat
        first = [await one_move(service, gid, tokens) for gid, tokens in games]
        size = await asyncio.to_thread(database_size, repo, url)
        store = service.clocks.store
        now = clock.now()
        sweep_none = await timed(lambda: asyncio.to_thread(store.overdue, now), args.sweeps)
        # every deadline passed (the clock stood still while the games were opened,
        # so they all fall due at once): the sweep takes the 100 longest overdue
        rows = await asyncio.to_thread(store.many, [g for g, _ in games])
        late = max(row.due for row in rows.values() if row.due is not None) + timedelta(seconds=1)
        due_now = len(await asyncio.to_thread(store.overdue, late, 10**6))
        sweep_due = await timed(lambda: asyncio.to_thread(store.overdue, late), args.sweeps)
        owner = account_owner(busy[0])
        began = time.perf_counter()
        waiting = await service.turns_of(owner)  # the first: every game read and replayed
        cold = time.perf_counter() - began
        # how many of its games wait for it in truth (its seat, the second, to move)
        truly = 0
        for gid, _ in games[: args.busy_games]:
            truly += (await service.load(gid))[1].current_player() == 1
        turns = await timed(lambda: service.turns_of(owner), args.listings)
        # actions in the busy account's games whose move is its own
        mine = {w["id"] for w in waiting}
        playable = [(g, t) for g, t in games if g in mine]
        actions = [await one_move(service, g, t) for g, t in playable[: args.actions]]
        return {
            "games": len(games),
            "open_ms": opening / len(games) * 1000,
            "first_p50_ms": statistics.median(first) * 1000,
            "size_mb": size / 1e6,
            "empty_mb": empty / 1e6,
            "size_kb_game": (size - empty) / len(games) / 1e3,
            "sweep_none_p50_ms": statistics.median(sweep_none) * 1000,
            "sweep_none_p99_ms": percentile(sweep_none, 99) * 1000,
            "due": due_now,
            "sweep_due_p50_ms": statistics.median(sweep_due) * 1000,
            "sweep_due_p99_ms": percentile(sweep_due, 99) * 1000,
            "waiting": len(waiting),
            "truly": truly,
            "turns_cold_ms": cold * 1000,
            "turns_p50_ms": statistics.median(turns) * 1000,
            "turns_p99_ms": percentile(turns, 99) * 1000,
            "actions": len(actions),
            "act_p50_ms": statistics.median(actions) * 1000,
            "act_p99_ms": percentile(actions, 99) * 1000,
        }
    finally:
        await repo.aclose()
        repo.close()


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark on each backend and print its figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--backends", default="sqlite,postgres")
    ap.add_argument("--games", type=int, default=5000)
    ap.add_argument("--people", type=int, default=1000)
    ap.add_argument("--busy-games", type=int, default=300)
    ap.add_argument("--days", type=int, default=3)
    ap.add_argument("--concurrency", type=int, default=8)
    ap.add_argument("--sweeps", type=int, default=50)
    ap.add_argument("--listings", type=int, default=20)
    ap.add_argument("--actions", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432/test")
    args = ap.parse_args(argv)
    for backend in args.backends.split(","):
        ctx: Any = sqlite_database() if backend == "sqlite" else pg_database(args.pg)
        with ctx as url:
            r = asyncio.run(run(url, args))
        print(
            f"{backend}: {r['games']:.0f} daily games ({args.days} days a move) of "
            f"{args.people} people open, {args.busy_games} with one busy account; "
            f"{r['open_ms']:.1f} ms to open each, {r['first_p50_ms']:.1f} ms a first turn (p50)"
        )
        print(
            f"  sweep (overdue clocks): nothing due p50 {r['sweep_none_p50_ms']:.2f} ms, "
            f"p99 {r['sweep_none_p99_ms']:.2f} ms; {r['due']:.0f} due (100 taken) "
            f"p50 {r['sweep_due_p50_ms']:.2f} ms, p99 {r['sweep_due_p99_ms']:.2f} ms"
        )
        print(
            f"  your turn list of the busy account ({r['waiting']:.0f} games listed of "
            f"{r['truly']:.0f} that wait for it): "
            f"first {r['turns_cold_ms']:.1f} ms, then p50 {r['turns_p50_ms']:.1f} ms, "
            f"p99 {r['turns_p99_ms']:.1f} ms"
        )
        print(
            f"  action (a roll and a write, clock moved on) in its games: "
            f"p50 {r['act_p50_ms']:.1f} ms, p99 {r['act_p99_ms']:.1f} ms ({r['actions']:.0f})"
        )
        print(
            f"  database: {r['size_mb']:.1f} MB ({r['empty_mb']:.1f} MB empty; "
            f"{r['size_kb_game']:.1f} kB a game, its accounts' share included)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
