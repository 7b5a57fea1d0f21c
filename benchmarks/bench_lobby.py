"""The lobby under 1,000 people: open seeks and quick-match waiters, through the
lobby's service (:class:`yatzy.web.lobby.Lobby`) on SQLite and PostgreSQL.

``--people`` accounts are made; ``--seekers`` of them open a seek each (the rest of
the seats stay free), and the others join the quick-match queues of ``--queues``
rule sets, arriving ``--concurrency`` at a time in a random order.  Printed per
backend:

* **pairing latency**: from the arrival of the waiter that completes a pair to its
  game made (the store's pairing plus the game's creation and both seats' claims);
  p50, p99 and the worst.  The waiter already in the queue sees the game at its
  page's next poll (every second), so a person waits this plus at most a second;
* **listing**: ``GET /api/lobby``'s store work (the open seeks with their members,
  and the queues), median and p99 of ``--listings`` calls with every seek open.

    .venv/bin/python benchmarks/bench_lobby.py [--backends sqlite,postgres]
        [--people 1000] [--seekers 300] [--pg postgresql://postgres@127.0.0.1:5432/test]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import secrets
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from typing import Any, cast
from urllib.parse import urlsplit

from sqlalchemy import Table, insert

from yatzy.store import GameRepository
from yatzy.store.models import AccountRow
from yatzy.store.pg_writer import utc_now
from yatzy.web.lobby import Lobby
from yatzy.web.service import GameService

ACCOUNTS = cast(Table, AccountRow.__table__)
RULES = ("yatzy", "maxi", "yahtzee")


def percentile(values: list[float], p: float) -> float:
    """The ``p``-th percentile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


def make_people(repo: GameRepository, n: int) -> list[tuple[str, str]]:
    """``n`` accounts (id, name), inserted at once."""
    people = [(secrets.token_hex(16), f"P{i:04d}") for i in range(n)]
    now = utc_now()
    with repo.write_connection() as conn, conn.begin():
        conn.execute(
            insert(ACCOUNTS),
            [
                {
                    "id": a,
                    "name": name,
                    "name_key": name.lower(),
                    "password_hash": "x",
                    "created_at": now,
                }
                for a, name in people
            ],
        )
    return people


class _Person:
    """What the lobby needs of an account: its id and name."""

    def __init__(self, account_id: str, name: str) -> None:
        self.id = account_id
        self.name = name


async def run(url: str, args: argparse.Namespace) -> dict[str, float]:
    repo = await asyncio.to_thread(GameRepository.open, url)
    try:
        service = GameService(repo)
        lobby = Lobby(service, None)
        people = [_Person(a, n) for a, n in await asyncio.to_thread(make_people, repo, args.people)]
        seekers, waiters = people[: args.seekers], people[args.seekers :]
        started = time.perf_counter()
        for i, p in enumerate(seekers):
            await lobby.seek(p, RULES[i % len(RULES)], "en", 2 + i % 3)  # type: ignore[arg-type]
        seeking = time.perf_counter() - started
        listings = []
        for _ in range(args.listings):
            t0 = time.perf_counter()
            await lobby.listing()
            await lobby.queues()
            listings.append(time.perf_counter() - t0)
        rng = random.Random(args.seed)
        rng.shuffle(waiters)
        latencies: list[float] = []
        games = 0

        async def arrive(p: _Person, rules: str) -> None:
            nonlocal games
            t0 = time.perf_counter()
            state = await lobby.quick(p, rules, "en", 2)  # type: ignore[arg-type]
            if state.game_id is not None:
                latencies.append(time.perf_counter() - t0)
                games += 1

        started = time.perf_counter()
        for i in range(0, len(waiters), args.concurrency):
            batch = waiters[i : i + args.concurrency]
            await asyncio.gather(*(arrive(p, rng.choice(RULES[: args.queues])) for p in batch))
        queueing = time.perf_counter() - started
        # Waiters whose pairing collided with another (SKIP LOCKED passes over the
        # people a concurrent pairing holds) are paired by their page's next poll.
        polled = 0
        for p in waiters:
            before = await asyncio.to_thread(lobby.queue.get, p.id)
            if before is None or before.state != "waiting":
                continue
            state = await lobby.quick_state(p)  # type: ignore[arg-type]
            polled += state.game_id is not None
        left = sum(
            1
            for w in await asyncio.gather(
                *(asyncio.to_thread(lobby.queue.get, p.id) for p in waiters)
            )
            if w is not None and w.state == "waiting"
        )
        return {
            "seeks": len(seekers),
            "seek_ms": seeking / max(1, len(seekers)) * 1000,
            "list_p50_ms": statistics.median(listings) * 1000,
            "list_p99_ms": percentile(listings, 99) * 1000,
            "pairs": games,
            "waiters": len(waiters),
            "pair_p50_ms": statistics.median(latencies) * 1000 if latencies else float("nan"),
            "pair_p99_ms": percentile(latencies, 99) * 1000 if latencies else float("nan"),
            "pair_max_ms": max(latencies) * 1000 if latencies else float("nan"),
            "queue_s": queueing,
            "polled": polled,
            "left": left,
        }
    finally:
        await repo.aclose()
        repo.close()


@contextlib.contextmanager
def sqlite_database() -> Iterator[str]:
    """A throwaway SQLite database."""
    with tempfile.TemporaryDirectory(prefix="yatzy-bench-") as folder:
        yield f"sqlite:///{folder}/bench.db"


@contextlib.contextmanager
def pg_database(admin: str) -> Iterator[str]:
    """A throwaway PostgreSQL database on the server ``admin`` names."""
    import psycopg

    name = f"yatzy_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlsplit(admin)._replace(path="/" + name).geturl()
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark on each backend and print its figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--backends", default="sqlite,postgres")
    ap.add_argument("--people", type=int, default=1000)
    ap.add_argument("--seekers", type=int, default=300)
    ap.add_argument("--queues", type=int, default=3, choices=range(1, len(RULES) + 1))
    ap.add_argument("--concurrency", type=int, default=8)
    ap.add_argument("--listings", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432/test")
    args = ap.parse_args(argv)
    for backend in args.backends.split(","):
        ctx: Any = sqlite_database() if backend == "sqlite" else pg_database(args.pg)
        with ctx as url:
            r = asyncio.run(run(url, args))
        print(
            f"{backend}: {args.people} people: {r['seeks']:.0f} open seeks "
            f"({r['seek_ms']:.1f} ms each), {r['waiters']:.0f} quick-match waiters in "
            f"{args.queues} queues, {args.concurrency} arriving at a time"
        )
        print(
            f"  listing (seeks with members + queues): p50 {r['list_p50_ms']:.1f} ms, "
            f"p99 {r['list_p99_ms']:.1f} ms"
        )
        print(
            f"  pairing latency ({r['pairs']:.0f} arrivals sent to their game in the same "
            "request): "
            f"p50 {r['pair_p50_ms']:.1f} ms, "
            f"p99 {r['pair_p99_ms']:.1f} ms, max {r['pair_max_ms']:.1f} ms; "
            f"all waiters in {r['queue_s']:.1f} s"
        )
        print(
            f"  the other {r['waiters'] - r['pairs'] - r['left']:.0f} find their game at their "
            f"next poll ({r['polled']:.0f} pairs made by a poll); still alone: {r['left']:.0f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
