"""Benchmark of the scaled-out set-up: PostgreSQL, two ``yatzy serve`` processes behind
nginx (Debian's, on loopback) and two ``yatzy worker`` processes running the live win
chances and table builds.

Plays ``--games`` concurrent 4-player games of Yatzy (one person, driven here over
HTTP through nginx, and three greedy bots that the servers move after ``--bot-delay``
seconds, as people play), each followed by a page's WebSocket with live chances
(``?chances=1``), plus ``--sockets`` idle spectator sockets spread over the games.  The
person thinks ``--think`` seconds before each action.  With ``--kill-at S``, one worker
and one web process are killed with SIGKILL ``S`` seconds in: the players go on through
the other process (their sockets reconnect through nginx), and at the end every
acknowledged move must be stored and every game must have had chances after the kill.

Prints actions per second (the people's and the bots', i.e. versions stored), p50/p99
latency of the people's actions (through nginx), the chance latency (from a version's
state message on a page to that version's computed chances on the same page) and how
many versions got chances (a game moving faster than its chances skips versions), CPU
seconds per action of the web processes, the workers, PostgreSQL and nginx (and this
client's own CPU), and memory per socket of the web processes; first, how long the games
took to arrive (longer than the warm-up: this client, not the servers, is the
bottleneck).  Scaled down to run in minutes on a 2-core machine;
the issue's scale (1,000 games, 10,000 sockets) is ``--games 1000 --sockets 10000`` on
a bigger one: the benchmark raises its open-file limit to the hard limit (inherited by
the servers, workers and nginx it starts; ``ulimit -Hn`` must allow about 25,000, as
nginx holds two per connection), sizes nginx's ``worker_connections`` and each
server's ``--limit-concurrency`` by the connections, and opens the spectator sockets
200 at a time.  Not a test: run it by hand,

    .venv/bin/python benchmarks/bench_cluster.py [--games 20] [--sockets 200]
        [--seconds 60] [--warm-up 20] [--think 2] [--bot-delay 1] [--kill-at 30]
        [--pg postgresql://postgres@127.0.0.1:5432/test] [--nginx /usr/sbin/nginx]

Nothing is counted in the first ``--warm-up`` seconds (``--kill-at`` counts from the
start).  ``--think 20 --bot-delay 11`` is the rate people play (a game acts about 0.075
times a second with its bots).  nginx is Debian's: ``apt-get install nginx-light``.

The tables the chances need come from the usual cache (built once, by a worker, if
missing: the first run takes a minute longer).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import os
import random
import resource
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import orjson
import websockets

YATZY = str(Path(sys.executable).with_name("yatzy"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def raise_open_files(needed: int) -> int:
    """Raise this process's limit of open files (its children, the servers, nginx and the
    workers, inherit it) to the hard limit, at least ``needed`` where allowed; the
    limit now.  10,000 sockets need 10,000 descriptors here, as many in the web
    processes and twice as many in nginx; the usual soft limit is 1,024."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard == resource.RLIM_INFINITY else max(soft, hard)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft != resource.RLIM_INFINITY and soft < needed:
        print(f"warning: {soft} open files allowed, {needed} needed (ulimit -Hn)", flush=True)
    return int(soft)


def wait_for(url: str, proc: subprocess.Popen[bytes], what: str) -> None:
    deadline = time.monotonic() + 120
    while True:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(url, timeout=2).status_code == 200:
                return
        if time.monotonic() > deadline or proc.poll() is not None:
            raise SystemExit(f"{what} did not start")
        time.sleep(0.3)


class Cluster:
    """The processes of the set-up, each in its own process group."""

    def __init__(
        self, url: str, bot_delay: float, nginx: str, folder: Path, connections: int = 2000
    ) -> None:
        self.connections = connections
        """Connections the set-up must hold (sockets, pages, players' HTTP)."""
        self.url = url
        self.bot_delay = bot_delay
        self.nginx = nginx
        self.folder = folder
        self.web: list[tuple[int, subprocess.Popen[bytes]]] = []
        self.workers: list[subprocess.Popen[bytes]] = []
        self.proxy: subprocess.Popen[bytes] | None = None
        self.port = free_port()

    def start(self) -> Cluster:
        log = open(self.folder / "cluster.log", "ab")  # noqa: SIM115 - the children hold it
        for _ in range(2):
            port = free_port()
            proc = subprocess.Popen(
                [
                    YATZY,
                    "serve",
                    "--port",
                    str(port),
                    "--database-url",
                    self.url,
                    "--jobs",
                    "workers",
                    "--log-level",
                    "warning",
                    "--no-limits",
                    # each process may hold every connection (nginx spreads them)
                    "--limit-concurrency",
                    str(max(2000, self.connections + 500)),
                    "--bot-delay",
                    str(self.bot_delay),
                    "--undo-grace",
                    "0",
                    "--trusted-proxies",
                    "127.0.0.1",
                    "--allowed-hosts",
                    "*",
                ],
                stdout=log,
                stderr=log,
                start_new_session=True,
            )
            self.web.append((port, proc))
        for _ in range(2):
            self.workers.append(
                subprocess.Popen(
                    [
                        YATZY,
                        "worker",
                        "--database-url",
                        self.url,
                        "--stalled-after",
                        "10",
                        "--log-level",
                        "warning",
                    ],
                    stdout=log,
                    stderr=log,
                    start_new_session=True,
                )
            )
        for port, proc in self.web:
            wait_for(f"http://127.0.0.1:{port}/api/rules", proc, "yatzy serve")
        servers = "\n".join(
            f"server 127.0.0.1:{port} max_fails=1 fail_timeout=5s;" for port, _ in self.web
        )
        # nginx holds two descriptors per connection (the client's, the upstream's)
        events = max(16384, 2 * self.connections + 1024)
        # nginx cannot raise its limit past the hard one it inherits (raise_open_files
        # warns when that is too few)
        files = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        files = events + 1024 if files == resource.RLIM_INFINITY else min(events + 1024, files)
        conf = self.folder / "nginx.conf"
        conf.write_text(
            f"""
worker_processes 1;
worker_rlimit_nofile {files};
pid {self.folder}/nginx.pid;
error_log {self.folder}/nginx-error.log warn;
events {{ worker_connections {events}; }}
http {{
    access_log off;
    client_body_temp_path {self.folder}/body;
    proxy_temp_path {self.folder}/proxy;
    map $http_upgrade $connection_upgrade {{ default upgrade; '' close; }}
    upstream yatzy {{ {servers} keepalive 64; }}
    server {{
        listen 127.0.0.1:{self.port};
        location / {{
            proxy_pass http://yatzy;
            proxy_http_version 1.1;
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_read_timeout 15m;
        }}
    }}
}}
"""
        )
        self.proxy = subprocess.Popen(
            [self.nginx, "-c", str(conf), "-p", str(self.folder), "-g", "daemon off;"],
            stdout=log,
            stderr=log,
            start_new_session=True,
        )
        wait_for(f"http://127.0.0.1:{self.port}/api/rules", self.proxy, "nginx")
        return self

    def pids(self) -> dict[str, list[int]]:
        """The live processes by role."""
        alive = [p for _, p in self.web if p.poll() is None]
        return {
            "web": [p.pid for p in alive],
            "workers": [p.pid for p in self.workers if p.poll() is None],
            "nginx": [self.proxy.pid] if self.proxy and self.proxy.poll() is None else [],
        }

    def kill_one(self) -> None:
        """SIGKILL the first worker and the first web process."""
        for proc in (self.workers[0], self.web[0][1]):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)

    def stop(self) -> None:
        procs = [p for _, p in self.web] + self.workers + ([self.proxy] if self.proxy else [])
        for proc in procs:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)


def cpu_seconds(pids: list[int]) -> float:
    """CPU time (user + system) of processes and their children so far (/proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    todo = list(pids)
    while todo:
        pid = todo.pop()
        with contextlib.suppress(OSError):
            for task in Path(f"/proc/{pid}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def rss_mib(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total / 1024


def database_cpu_seconds() -> float:
    total = 0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                stat = (entry / "stat").read_text()
                if "(postgres)" in stat:
                    fields = stat.rsplit(")", 1)[1].split()
                    total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def choose(view: dict[str, Any]) -> dict[str, Any]:
    """Roll twice, then write the box the server previews as best (from the view only)."""
    turn = view["turn"]
    if turn["dice"] is None or (turn["rolls_left"] > 0 and turn["rolls_used"] < 2):
        return {"roll": []}
    preview = {b: p for b, p in turn["preview"].items() if b in turn["allowed"]}
    return {"score": max(preview, key=lambda b: preview[b])}


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.chance_latencies: list[float] = []
        self.versions_seen = 0
        self.versions_with_chances = 0
        self.errors = 0
        self.reads = 0  # views read by a waiting person (no socket, or a silent one)
        self.acknowledged: dict[str, int] = {}  # game -> newest version answered 200
        self.chances_after_kill: set[str] = set()
        self.killed_at: float | None = None
        self.spectators = 0
        self.lost = 0
        self.peak_rss = 0.0  # MiB, the web processes together, sampled while running
        self.kib_per_socket = float("nan")  # their growth per spectator socket opened
        self.unavailable: collections.Counter[str] = collections.Counter()
        """Why versions' chances were unavailable (the answers' words), by reason."""

    def restart(self) -> None:
        """Forget what was counted so far (the warm-up's actions and chances)."""
        self.latencies.clear()
        self.chance_latencies.clear()
        self.versions_seen = self.versions_with_chances = self.errors = self.reads = 0
        self.unavailable.clear()


class Game:
    """One game: its person acts over HTTP; its page follows it over a WebSocket."""

    def __init__(
        self, base: str, stats: Stats, think: float, deadline: float, bot_delay: float = 1.0
    ) -> None:
        self.base = base
        self.stats = stats
        self.think = think
        self.deadline = deadline
        # One TLS context for every game: httpx loads the CA bundle for each client
        # otherwise (16 ms of CPU each, 16 s for 1,000 games, all before the first game).
        self.http = httpx.AsyncClient(base_url=base, timeout=30, verify=TLS)
        self.view: dict[str, Any] = {}
        self.changed = asyncio.Event()
        self.following = False
        """Whether the page's socket is open (its versions come without asking)."""
        self.heard = time.monotonic()
        """When the page's socket last brought a message."""
        self.patience = 4 * bot_delay + 10
        """Silence on an open socket after which the view is read anyway (3 bots' moves
        take 3 bot delays: a shorter wait would read the view of every waiting game
        every few seconds, hundreds of requests a second that no person makes)."""
        self.state_at: dict[int, float] = {}
        self.chanced: set[int] = set()

    async def play(self) -> None:
        body = {
            "rules": "yatzy",
            "seats": [{"name": "Ann", "here": True}]
            + [{"name": f"Bot{i}", "bot": "greedy"} for i in range(3)],
        }
        r = await self.http.post("/api/games", json=body)
        r.raise_for_status()
        self.gid = r.json()["id"]
        self.view = (await self.http.get(f"/api/games/{self.gid}")).json()
        page = asyncio.create_task(self.follow())
        try:
            while time.monotonic() < self.deadline and not self.view.get("finished"):
                turn = self.view.get("turn")
                if not turn or turn["seat"] != 0:
                    self.changed.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self.changed.wait(), 2.0)
                    quiet = time.monotonic() - self.heard
                    if not self.changed.is_set() and (
                        not self.following or quiet > self.patience
                    ):  # no socket, or one gone silent: read the view
                        await self.refresh()
                    continue
                await asyncio.sleep(self.think * random.uniform(0.5, 1.5))
                if time.monotonic() >= self.deadline:  # no action after the count's end
                    break
                action = {"action": choose(self.view), "version": self.view["version"]}
                start = time.monotonic()
                try:
                    r = await self.http.post(f"/api/games/{self.gid}/actions", json=action)
                except httpx.HTTPError:
                    r = None
                if r is not None and r.status_code == 200:
                    self.stats.latencies.append(time.monotonic() - start)
                    moved = r.json()
                    game = moved.get("game", moved)
                    self.stats.acknowledged[self.gid] = game["version"]
                    self.take(game)
                else:
                    self.stats.errors += 1
                    await asyncio.sleep(0.5)
                    await self.refresh()
        finally:
            page.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await page
            await self.http.aclose()

    async def refresh(self) -> None:
        self.stats.reads += 1
        with contextlib.suppress(httpx.HTTPError, ValueError):
            r = await self.http.get(f"/api/games/{self.gid}")
            if r.status_code == 200:
                self.take(r.json())

    def take(self, view: dict[str, Any]) -> None:
        if view.get("version", -1) >= self.view.get("version", -1):
            self.view = view
            self.changed.set()

    async def follow(self) -> None:
        url = self.base.replace("http", "ws") + f"/api/games/{self.gid}/ws?chances=1"
        while True:
            try:
                async with websockets.connect(url, max_size=2**20) as ws:
                    self.following = True
                    async for text in ws:
                        self.heard = time.monotonic()
                        self.message(orjson.loads(text))
            except (OSError, websockets.WebSocketException):
                self.following = False
                await asyncio.sleep(0.5)  # the process went away: again, through nginx
            self.following = False

    def message(self, message: dict[str, Any]) -> None:
        now = time.monotonic()
        if message["type"] == "state":
            game = message["game"]
            version = game["version"]
            if version not in self.state_at:
                self.state_at[version] = now
                self.stats.versions_seen += 1
            self.take(game)
        elif message["type"] == "chances":
            chances = message["win_chances"] or {}
            version = message["version"]
            if "unavailable" in chances:
                self.stats.unavailable[str(chances["unavailable"])[:80]] += 1
            if chances.get("pending") or "unavailable" in chances or version in self.chanced:
                return
            self.chanced.add(version)
            self.stats.versions_with_chances += 1
            if version in self.state_at:
                self.stats.chance_latencies.append(now - self.state_at[version])
            if self.stats.killed_at is not None and now > self.stats.killed_at + 2:
                self.stats.chances_after_kill.add(self.gid)


async def spectators(
    base: str, gids: list[str], n: int, until: float, opened_all: Any = None
) -> int:
    """``n`` idle sockets spread over the games, open until ``until``; how many opened.
    They open :data:`OPENING` at a time (a crowd of 10,000 at once would overflow the
    listening sockets' backlogs, which is not what is measured here)."""
    opened = 0
    tried = 0
    gate = asyncio.Semaphore(OPENING)
    all_tried = asyncio.Event()

    async def one(gid: str) -> None:
        nonlocal opened, tried
        url = base.replace("http", "ws") + f"/api/games/{gid}/ws"
        held = True
        await gate.acquire()
        try:
            async with websockets.connect(url, open_timeout=60) as ws:
                opened += 1
                gate.release()
                held = False
                tried += 1
                if tried == n:
                    all_tried.set()
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(max(0.0, until - time.monotonic())):
                        async for _ in ws:
                            pass
        except (OSError, websockets.WebSocketException, TimeoutError):
            pass
        finally:
            if held:
                gate.release()
                tried += 1
                if tried == n:
                    all_tried.set()

    tasks = [asyncio.create_task(one(gids[i % len(gids)])) for i in range(n)]
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(all_tried.wait(), max(1.0, until - time.monotonic()))
    count = opened
    if opened_all is not None:
        opened_all(count)
    # The open sockets close at ``until``; those still opening then are given up (each
    # would otherwise wait its turn to open and close at once, lengthening the count).
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(
            asyncio.gather(*tasks, return_exceptions=True),
            max(0.0, until - time.monotonic()) + 5,
        )
    return count


OPENING = 200
"""Spectator sockets being opened at once."""

TLS = ssl.create_default_context()
"""The players' clients' TLS context (loopback HTTP here; made once, not per client)."""


async def run(
    args: argparse.Namespace,
    cluster: Cluster,
    mark: Callable[[], None] | None = None,
    end: Callable[[], None] | None = None,
) -> Stats:
    """Play the games; ``mark`` is called ``--warm-up`` seconds in, as the counts start,
    and ``end`` as they end (before the check of the acknowledged moves)."""
    stats = Stats()
    base = f"http://127.0.0.1:{cluster.port}"
    start = time.monotonic()
    deadline = start + args.warm_up + args.seconds
    games = [Game(base, stats, args.think, deadline, args.bot_delay) for _ in range(args.games)]
    players = []
    for game in games:  # a crowd arrives over a few seconds, not at once
        players.append(asyncio.create_task(game.play()))
        await asyncio.sleep(min(0.1, 5.0 / args.games))
    await asyncio.sleep(1.0)
    gids = [g.gid for g in games if hasattr(g, "gid")]
    # The crowd's arrival is this client's work: when it outlasts the warm-up, the client
    # (not the servers) is what the run measures, and the spectators open late or never.
    arrived = time.monotonic() - start
    print(f"{len(gids)} of {args.games} games created in {arrived:.0f} s", flush=True)
    if arrived > args.warm_up:
        print("warning: the games arrived after the warm-up: this client is saturated", flush=True)
    web = cluster.pids()["web"]
    before = rss_mib(web)

    def opened_all(count: int) -> None:  # the web processes' growth per spectator socket
        if count and web == cluster.pids()["web"]:
            stats.kib_per_socket = 1024 * (rss_mib(web) - before) / count

    watchers = asyncio.create_task(spectators(base, gids, args.sockets, deadline, opened_all))

    async def sample() -> None:
        while True:
            stats.peak_rss = max(stats.peak_rss, rss_mib(cluster.pids()["web"]))
            await asyncio.sleep(2.0)

    sampler = asyncio.create_task(sample())

    async def warmed() -> None:  # the counts start once the processes are warm
        await asyncio.sleep(max(0.0, start + args.warm_up - time.monotonic()))
        stats.restart()
        if mark is not None:
            mark()

    marker = asyncio.create_task(warmed())
    if args.kill_at:
        await asyncio.sleep(max(0.0, start + args.kill_at - time.monotonic()))
        cluster.kill_one()
        stats.killed_at = time.monotonic()
        print(f"killed a worker and a web process at {args.kill_at} s", flush=True)
    failed = [r for r in await asyncio.gather(*players, return_exceptions=True) if r is not None]
    if failed:
        print(f"{len(failed)} of {len(players)} players failed, first: {failed[0]!r}", flush=True)
    stats.spectators = await watchers
    sampler.cancel()
    marker.cancel()
    if end is not None:
        end()
    # Every acknowledged move stored?
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        lost = 0
        for gid, version in stats.acknowledged.items():
            stored = (await http.get(f"/api/games/{gid}")).json()["version"]
            lost += stored < version
        stats.lost = lost
    return stats


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--sockets", type=int, default=200)
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument("--think", type=float, default=2.0)
    p.add_argument("--bot-delay", type=float, default=1.0)
    p.add_argument("--kill-at", type=float, default=0.0)
    p.add_argument(
        "--warm-up",
        type=float,
        default=20.0,
        help="seconds played before anything is counted (the processes load their "
        "tables and kernels, the sockets open; default 20)",
    )
    p.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432/test")
    p.add_argument("--nginx", default=shutil.which("nginx") or "/usr/sbin/nginx")
    args = p.parse_args()
    if not Path(args.nginx).exists():
        raise SystemExit(f"no nginx at {args.nginx}: apt-get install nginx-light")
    import psycopg

    name = f"yatzy_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(args.pg, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = urlsplit(args.pg)._replace(path="/" + name).geturl()
    try:
        with tempfile.TemporaryDirectory(prefix="yatzy-cluster-") as folder:
            connections = 2 * args.games + args.sockets
            # nginx holds two descriptors per connection (the client's, the upstream's)
            raise_open_files(2 * connections + 1024)
            cluster = Cluster(url, args.bot_delay, args.nginx, Path(folder), connections).start()
            try:
                measure(args, cluster)
            finally:
                cluster.stop()
    finally:
        with psycopg.connect(args.pg, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    return 0


def measure(args: argparse.Namespace, cluster: Cluster) -> None:
    pids = cluster.pids()
    rss0 = rss_mib(pids["web"])
    cpu0: dict[int, float] = {}
    db0 = t0 = client0 = 0.0
    load0 = os.getloadavg()[0]

    def mark() -> None:  # the warm-up is over: CPU and time count from here
        nonlocal db0, t0, client0
        cpu0.update({pid: cpu_seconds([pid]) for ps in cluster.pids().values() for pid in ps})
        db0 = database_cpu_seconds()
        client0 = time.process_time()  # this process alone (its children are the cluster)
        t0 = time.monotonic()

    cpu: dict[str, float] = {}
    db = elapsed = client = 0.0
    load = (0.0, 0.0, 0.0)

    def end() -> None:  # the counting is over (the check of the moves is not measured)
        nonlocal db, elapsed, client, load
        elapsed = time.monotonic() - t0
        load = os.getloadavg()
        # per role, the processes alive at the end (a killed one's CPU is gone with it)
        for role, ps in cluster.pids().items():
            cpu[role] = sum(cpu_seconds([pid]) - cpu0.get(pid, 0.0) for pid in ps)
        db = database_cpu_seconds() - db0
        client = time.process_time() - client0

    mark()
    stats = asyncio.run(run(args, cluster, mark if args.warm_up > 0 else None, end))
    actions = stats.versions_seen
    print(
        f"{args.games} games x 4 seats (1 person, 3 greedy bots), {stats.spectators} of "
        f"{args.sockets} spectator sockets, {elapsed:.0f} s, think {args.think} s, "
        f"bot delay {args.bot_delay} s"
        + (f", kill at {args.kill_at:g} s" if args.kill_at else "")
        + f", counted after {args.warm_up:g} s of warm-up"
    )
    print(
        f"  load average {load0:.1f} at the start, {load[0]:.1f} / {load[1]:.1f} "
        "(1 / 5 min) at the end"
    )
    print(
        f"  actions: {actions / elapsed:.1f}/s stored ({len(stats.latencies)} by people, "
        f"{stats.errors} refused or failed, {stats.reads} views read while waiting); "
        f"people's latency p50 {pct(stats.latencies, 0.5):.1f} ms, "
        f"p99 {pct(stats.latencies, 0.99):.1f} ms"
    )
    print(
        f"  chances: {stats.versions_with_chances} of {stats.versions_seen} versions; "
        f"latency p50 {pct(stats.chance_latencies, 0.5):.0f} ms, "
        f"p99 {pct(stats.chance_latencies, 0.99):.0f} ms"
    )
    for why, n in stats.unavailable.most_common(3):
        print(f"  chances unavailable for {n} versions: {why}")
    per = max(actions, 1)
    print(
        "  CPU per action: "
        + ", ".join(f"{role} {1000 * cpu[role] / per:.1f} ms" for role in cpu)
        + f", postgres {1000 * db / per:.1f} ms; this client (every player, page and "
        f"socket) {client:.1f} CPU-s in {elapsed:.0f} s"
    )
    sockets = args.games + stats.spectators
    if not args.kill_at and sockets:
        grown = stats.peak_rss - rss0
        print(
            f"  web RSS: {grown:+.0f} MiB with {sockets} sockets open "
            f"(peak; {stats.kib_per_socket:.0f} KiB per spectator socket, measured as they "
            "opened)"
        )
    if args.kill_at:
        print(
            f"  after the kill: {stats.lost} acknowledged moves lost (of "
            f"{len(stats.acknowledged)} games), chances resumed in "
            f"{len(stats.chances_after_kill)} of {len(stats.acknowledged)} games"
        )


if __name__ == "__main__":
    sys.exit(main())
