"""Benchmark of the web app: many concurrent games over HTTP and WebSocket on loopback.

Starts ``yatzy serve`` (SQLite, then PostgreSQL) and plays concurrent solo games of
Yatzy with real moves chosen from the server's view, a new game when one ends.  Each
game's page follows it over a WebSocket from before the first action until it has
seen the final state, and sends the actions over that socket as the game page does
(``--via http``: as ``POST .../actions`` requests).  Two loads, each on a fresh
server and database:

- ``max``: every game acts as soon as it has its answer (a closed loop: the
  throughput is the most the machine serves with that many games in flight, and
  the latency is what each of them waits at that saturation);
- a paced rate (default 1,000 actions/s in total): each game acts on a fixed
  schedule and an action's latency counts from when it was due, so time lost to a
  slow answer is charged to the actions it delays (no coordinated omission).

Real players do not start together.  Left alone, every game here would be exactly
as long (the same strategy, 45 actions) and, all started at once, all would end
within a few milliseconds of each other, every game's length: a burst of 32 game
creations and WebSocket openings that no real crowd makes.  So each game's phase
is spread: the ``i``-th of ``n`` players leaves its first game after ``i/n`` of
it and starts a new one (``--lockstep`` keeps them together, as the worst case).

Prints actions per second, p50/p99 latency, WebSocket messages per second, games
whose page missed the final state, CPU time per action of the server process, of
PostgreSQL's processes and of the load generator itself (all on the same two
cores), and the share of the machine's time that its host took (``steal``).  Not a
test: run it by hand,

    .venv/bin/python benchmarks/bench_web.py [--games 32] [--seconds 20] [--workers 1]
        [--rates max,1000] [--backends sqlite,postgres] [--lockstep] [--via socket|http]
        [--pg postgresql://postgres@127.0.0.1:5432/test]

Target (on a 2-core machine): at least 1,000 actions/s with p99 under 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import orjson
import uvloop
import websockets

YATZY = str(Path(sys.executable).with_name("yatzy"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serve(url: str, workers: int, limits: bool = False) -> Any:
    port = free_port()
    proc = subprocess.Popen(
        [
            YATZY,
            "serve",
            "--port",
            str(port),
            "--database-url",
            url,
            "--workers",
            str(workers),
            "--log-level",
            "warning",
            "--bot-delay",
            "0",
            # One load generator is one client address acting 1,000+ times a second:
            # far over a public server's per-client limits, which are lifted here.
            *([] if limits else ["--no-limits"]),
        ],
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(base + "/api/rules", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise SystemExit("the server did not start")
            time.sleep(0.2)
        yield base, proc.pid
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


def choose(view: dict[str, Any]) -> dict[str, Any]:
    """Roll twice, then write the box the server previews as best (from the view only)."""
    turn = view["turn"]
    if turn["dice"] is None or (turn["rolls_left"] > 0 and turn["rolls_used"] < 2):
        return {"roll": []}
    preview = {b: p for b, p in turn["preview"].items() if b in turn["allowed"]}
    return {"score": max(preview, key=lambda b: preview[b])}


class Watcher:
    """The game's WebSocket, read as a page would: counts the messages and knows the
    newest version it has seen.  It can also act, as the page does while open."""

    def __init__(self, base: str, gid: str, counter: list[int], cookie: str = "") -> None:
        self.url = base.replace("http", "ws") + f"/api/games/{gid}/ws"
        self.headers = {"Cookie": cookie} if cookie else {}
        self.counter = counter
        self.version = -1
        self.changed = asyncio.Event()
        self.opened: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.answers: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.refs = 0
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async with websockets.connect(
                self.url, compression=None, proxy=None, additional_headers=self.headers
            ) as ws:
                self.opened.set_result(ws)
                async for message in ws:
                    self.counter[0] += 1
                    data = orjson.loads(message)
                    if "game" in data:
                        self.version = max(self.version, data["game"]["version"])
                        self.changed.set()
                    answer = self.answers.pop(data.get("ref", -1), None)
                    if answer is not None:
                        answer.set_result(data)
        finally:
            if not self.opened.done():
                self.opened.set_exception(ConnectionError("the WebSocket did not open"))
            for answer in self.answers.values():
                answer.set_exception(ConnectionError("the WebSocket closed"))

    async def act(self, body: dict[str, Any]) -> tuple[int, Any]:
        """Send an action over the socket; the status and the game of its answer."""
        ws = await self.opened
        self.refs += 1
        answer = self.answers[self.refs] = asyncio.get_running_loop().create_future()
        await ws.send(orjson.dumps({"type": "act", "ref": self.refs, **body}).decode())
        data = await answer
        return (200, data["game"]) if data["type"] == "state" else (data["status"], data)

    async def seen(self, version: int, timeout: float) -> bool:
        """Wait until the page has seen ``version``; whether it did within ``timeout``."""
        deadline = time.monotonic() + timeout
        while self.version < version:
            self.changed.clear()
            left = deadline - time.monotonic()
            if left <= 0 or self.task.done():
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)
        return True

    async def close(self) -> None:
        """Leave the page."""
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)


class Http:
    """A minimal HTTP/1.1 keep-alive JSON client.

    The load generator shares the machine with the server, so it should cost little:
    this client spends a fraction of httpx's CPU time per request.
    """

    def __init__(self, base: str) -> None:
        host, port = base.removeprefix("http://").split(":")
        self.host, self.port = host, int(port)
        self.cookies: dict[str, tuple[str, str]] = {}  # name -> (value, path)
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post(self, path: str, body: dict[str, Any]) -> tuple[int, Any]:
        """POST ``body`` as JSON; the status and the decoded JSON answer."""
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        data = orjson.dumps(body)
        cookie = self.cookie(path)
        head = (
            f"POST {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\n"
            + (f"Cookie: {cookie}\r\n" if cookie else "")
            + "\r\n"
        )
        self.writer.write(head.encode() + data)
        head_in = await self.reader.readuntil(b"\r\n\r\n")
        lines = head_in.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        length = 0
        for line in lines[1:]:
            name, _, value = line.partition(":")
            name = name.lower()
            if name == "content-length":
                length = int(value)
            elif name == "set-cookie":
                key, _, rest = value.strip().partition("=")
                attributes = rest.split(";")
                scope = next(
                    (
                        a.split("=", 1)[1]
                        for a in attributes
                        if a.strip().lower().startswith("path=")
                    ),
                    "/",
                )
                self.cookies[key] = (attributes[0], scope)
        return status, orjson.loads(await self.reader.readexactly(length))

    def cookie(self, path: str) -> str:
        """The Cookie header for ``path``: as a browser sends, only the cookies whose
        path covers it."""
        return "; ".join(
            f"{k}={v}" for k, (v, scope) in self.cookies.items() if path.startswith(scope)
        )

    def close(self) -> None:
        """Close the connection."""
        if self.writer is not None:
            self.writer.close()


async def player(
    base: str,
    stop: asyncio.Event,
    latencies: list[float],
    errors: list[int],
    ws_counter: list[int],
    undelivered: list[str],
    schedule: Schedule | None,
    first_game_actions: int | None = None,
    via_socket: bool = True,
) -> None:
    """Play one game after another; each game's page follows it over a WebSocket.

    With a ``schedule`` each action takes the next slot of the paced rate (whichever
    game is free takes it) and waits for it; a slot taken late, because every game
    was still waiting for answers, counts its latency from when it was due, so slow
    answers are charged to the actions they held up as well (no coordinated
    omission).  Without it each action follows the previous answer at once.
    ``first_game_actions`` leaves the first game after that many actions.  The
    actions go over the game's WebSocket (``via_socket``), as the page sends them,
    or as ``POST .../actions`` requests.
    """
    client = Http(base)
    try:
        while not stop.is_set():
            _, created = await client.post(
                "/api/games", {"rules": "yatzy", "seats": [{"name": "P", "here": True}]}
            )
            view = created["game"]
            gid = view["id"]
            leave_after, first_game_actions = first_game_actions, None
            watcher = Watcher(base, gid, ws_counter, client.cookie(f"/api/games/{gid}/ws"))
            try:
                if not await watcher.seen(0, 10):  # the page is open: play
                    undelivered.append(gid)
                    continue
                while not view["finished"] and not stop.is_set() and leave_after != 0:
                    t0 = time.perf_counter()
                    if schedule is not None:
                        due = schedule.take()
                        if due > t0:
                            await asyncio.sleep(due - t0)
                            t0 = time.perf_counter()  # on time: from when it is sent
                        else:
                            t0 = due  # late: from when it was due
                    body = {"action": choose(view)}
                    if via_socket:
                        status, view = await watcher.act(body)
                    else:
                        status, view = await client.post(f"/api/games/{gid}/actions", body)
                    latencies.append(time.perf_counter() - t0)
                    if status != 200:
                        errors.append(status)
                        break
                    if leave_after is not None:
                        leave_after -= 1
                # Every move reaches the page; at least the last one must have arrived.
                if view.get("finished") and not await watcher.seen(view["version"], 10):
                    undelivered.append(gid)
            finally:
                await watcher.close()
    finally:
        client.close()


class Schedule:
    """The slots of a paced load: ``rate`` actions per second from now on."""

    def __init__(self, rate: float) -> None:
        self.start = time.perf_counter()
        self.rate = rate
        self.taken = 0

    def take(self) -> float:
        """The due time of the next free slot."""
        due = self.start + self.taken / self.rate
        self.taken += 1
        return due


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) of a process and its children so far (Linux /proc)."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    pids = [pid]
    with contextlib.suppress(OSError):
        for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
            pids.append(int(child))
    for p in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def database_cpu_seconds() -> float:
    """CPU time of every PostgreSQL process so far (its backends do the commits)."""
    total = 0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                stat = (entry / "stat").read_text()
                if "(postgres)" in stat:
                    fields = stat.rsplit(")", 1)[1].split()
                    total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def machine_ticks() -> tuple[int, int]:
    """CPU time of the whole machine so far, in clock ticks: (all, stolen by the host
    from this virtual machine)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return sum(fields[:8]), fields[7]


GAME_ACTIONS = 45
"""Actions in a game of Yatzy played by :func:`choose` (15 turns of roll, roll, score)."""


async def run(
    base: str,
    pid: int,
    games: int,
    seconds: float,
    rate: float | None,
    lockstep: bool = False,
    via_socket: bool = True,
) -> dict[str, float]:
    stop = asyncio.Event()
    latencies: list[float] = []
    errors: list[int] = []
    ws_counter = [0]
    undelivered: list[str] = []
    schedule = None if rate is None else Schedule(rate)
    players = [
        asyncio.create_task(
            player(
                base,
                stop,
                latencies,
                errors,
                ws_counter,
                undelivered,
                schedule,
                None if lockstep else i * GAME_ACTIONS // games,
                via_socket,
            )
        )
        for i in range(games)
    ]
    await asyncio.sleep(2.0)  # warm up
    n0, ws0, cpu0, db0 = len(latencies), ws_counter[0], cpu_seconds(pid), database_cpu_seconds()
    t0, client0, ticks0 = time.perf_counter(), time.process_time(), machine_ticks()
    await asyncio.sleep(seconds)
    n1, ws1, elapsed = len(latencies), ws_counter[0], time.perf_counter() - t0
    cpu1, client1, db1 = cpu_seconds(pid), time.process_time(), database_cpu_seconds()
    ticks1 = machine_ticks()
    window = sorted(latencies[n0:n1])
    stop.set()
    await asyncio.gather(*players, return_exceptions=True)
    return {
        "actions_per_s": (n1 - n0) / elapsed,
        "p50_ms": 1000 * statistics.median(window),
        "p99_ms": 1000 * window[int(0.99 * (len(window) - 1))],
        "ws_messages_per_s": (ws1 - ws0) / elapsed,
        "errors": float(len(errors)),
        "undelivered": float(len(undelivered)),
        "server_cpu_ms_per_action": 1000 * (cpu1 - cpu0) / max(1, n1 - n0),
        "client_cpu_ms_per_action": 1000 * (client1 - client0) / max(1, n1 - n0),
        "database_cpu_ms_per_action": 1000 * (db1 - db0) / max(1, n1 - n0),
        "stolen_percent": 100 * (ticks1[1] - ticks0[1]) / max(1, ticks1[0] - ticks0[0]),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=32, help="concurrent games (default 32)")
    ap.add_argument("--seconds", type=float, default=20, help="measured seconds per backend")
    ap.add_argument("--workers", type=int, default=1, help="server processes (default 1)")
    ap.add_argument("--backends", default="sqlite,postgres")
    ap.add_argument(
        "--lockstep",
        action="store_true",
        help="start every game together, so that all of them end together (default: "
        "each player leaves its first game early, spreading the games' phases)",
    )
    ap.add_argument(
        "--via",
        choices=["socket", "http"],
        default="socket",
        help="send the actions over the game's WebSocket, as the page does (default), "
        "or as POST .../actions requests",
    )
    ap.add_argument(
        "--pg",
        default="postgresql://postgres@127.0.0.1:5432/test",
        help="admin URL; a scratch database is created and dropped",
    )
    ap.add_argument(
        "--rates",
        default="max,1000",
        help="comma-separated: 'max' (every game acts as soon as it has its answer) and/or "
        "a paced total rate in actions/s, each measured separately (default max,1000)",
    )
    ap.add_argument(
        "--limits",
        action="store_true",
        help="keep yatzy serve's default abuse limits (default: --no-limits, since the "
        "load comes from one address; the connection timeouts stay either way)",
    )
    args = ap.parse_args()
    print(
        f"{args.games} concurrent games, {args.seconds:g} s, {args.workers} server process(es), "
        f"{os.cpu_count()} CPUs"
    )
    for backend in args.backends.split(","):
        for rate_text in args.rates.split(","):
            rate = None if rate_text == "max" else float(rate_text)
            _measure(backend, args, rate)
    print(f"load average during the run: {os.getloadavg()[0]:.1f}")
    return 0


def _measure(backend: str, args: argparse.Namespace, rate: float | None) -> None:
    """One backend at one rate, on a fresh database and server."""
    if backend == "sqlite":
        ctx: Any = _sqlite_database()
    else:
        ctx = _pg_database(args.pg)
    with ctx as url, serve(url, args.workers, args.limits) as (base, pid):
        r = uvloop.run(
            run(base, pid, args.games, args.seconds, rate, args.lockstep, args.via == "socket")
        )
    label = "as fast as answered" if rate is None else f"paced at {rate:g} actions/s"
    label += ", actions over the WebSocket" if args.via == "socket" else ", actions by POST"
    if args.lockstep:
        label += ", games in lockstep"
    print(
        f"{backend} ({label})\n"
        f"{'':9s} {r['actions_per_s']:6.0f} actions/s   p50 {r['p50_ms']:5.1f} ms   "
        f"p99 {r['p99_ms']:5.1f} ms   errors {r['errors']:.0f}\n"
        f"{'':9s} WebSocket {r['ws_messages_per_s']:.0f} messages/s, "
        f"{r['undelivered']:.0f} games whose page missed the final state\n"
        f"{'':9s} CPU per action: server {r['server_cpu_ms_per_action']:.2f} ms, "
        f"database {r['database_cpu_ms_per_action']:.2f} ms, "
        f"load generator {r['client_cpu_ms_per_action']:.2f} ms; "
        f"{r['stolen_percent']:.1f} % of the machine's time stolen by its host",
        flush=True,
    )


@contextlib.contextmanager
def _sqlite_database() -> Any:
    with tempfile.TemporaryDirectory(prefix="yatzy-bench-") as folder:
        yield f"sqlite:///{folder}/bench.db"


@contextlib.contextmanager
def _pg_database(admin: str) -> Any:
    import psycopg

    name = f"yatzy_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlsplit(admin)._replace(path="/" + name).geturl()
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    sys.exit(main())
