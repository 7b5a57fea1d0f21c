"""Faults of a live server: one worker of ``--workers 2`` killed mid-play, PostgreSQL
terminating the server's connections mid-play, and DubbelYatzy and score-pad games
through a crash and double submits.  Nothing acknowledged may be lost, no game may
stick (each is played to its end afterwards)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.support import Server, next_action, pg_or_skip, postgres_database
from tests.helpers import eventually, join_all
from yatzy.game import from_record

pytestmark = pytest.mark.slow  # live servers with two workers killed and restarted

DUBBEL_WITH_BOT = {
    "rules": "dubbel",
    "seats": [{"name": "Ann", "here": True}, {"name": "Bot", "bot": "greedy"}],
}
PAD = {"rules": "maxi", "pad": True, "seats": [{"name": "Ann", "here": True}]}


@contextlib.contextmanager
def _database(backend: str, tmp_path: Path) -> Iterator[str]:
    if backend == "postgres":
        pg_or_skip()
        with postgres_database() as url:
            yield url
    else:
        yield f"sqlite:///{tmp_path / 'faults.db'}"


def _person_to_act(v: dict[str, Any] | None) -> bool:
    return v is not None and (v["finished"] or not v["players"][v["turn"]["seat"]]["bot"])


class Player:
    """Plays the seats a client holds, remembering every acknowledged move; a request
    that fails (connection lost, 5xx) is not acknowledged and is judged again from
    the game as stored."""

    def __init__(self, client: httpx.Client, gid: str) -> None:
        self.client = client
        self.gid = gid
        self.acked: dict[int, dict[str, Any]] = {}  # version -> action
        self.failures = 0

    def view(self, timeout: float = 60) -> dict[str, Any]:
        """The game once a person is to act or it is over (bots play meanwhile)."""

        def probe() -> dict[str, Any] | None:
            try:
                r = self.client.get(f"/api/games/{self.gid}")
            except httpx.TransportError:
                return None  # a worker is down: the other one or its restart answers
            if r.status_code != 200:
                assert r.status_code >= 500, r.text
                return None
            v: dict[str, Any] = r.json()
            return v

        view = eventually(
            probe,
            lambda v: (
                v is not None and (v["finished"] or not v["players"][v["turn"]["seat"]]["bot"])
            ),
            timeout=timeout,
            interval=0.02,
            what="a person's turn (the game stuck)",
        )
        assert view is not None
        return view

    def step(self) -> bool:
        """One action (False once the game is over)."""
        v = self.view()
        if v["finished"]:
            return False
        action = next_action(v)
        try:
            r = self.client.post(
                f"/api/games/{self.gid}/actions", json={"action": action, "version": v["version"]}
            )
        except httpx.TransportError:
            self.failures += 1
            return True
        if r.status_code == 200:
            self.acked[r.json()["version"]] = action
        elif r.status_code in (409, 503) or r.status_code >= 500:
            self.failures += 1  # not acknowledged: the next step looks again
        else:
            raise AssertionError(r.text)
        return True

    def finish(self, max_steps: int = 2000) -> dict[str, Any]:
        for _ in range(max_steps):
            if not self.step():
                return self.view()
        raise AssertionError("the game did not end")

    def check(self) -> None:
        """Every acknowledged move is stored as it was acknowledged."""
        moves = {m["version"]: m for m in self.client.get(f"/api/games/{self.gid}/moves").json()}
        view = self.client.get(f"/api/games/{self.gid}").json()
        assert sorted(moves) == list(range(1, view["version"] + 1))
        for version, action in self.acked.items():
            stored = dict(moves[version]["action"])
            stored.pop("dice", None) if "roll" in action else None
            assert stored == action, (version, stored, action)
        record = self.client.get(f"/api/games/{self.gid}/record").json()
        assert from_record(record).totals() == view["totals"]


def _new(client: httpx.Client, body: dict[str, Any]) -> str:
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def _workers(server: Server) -> list[int]:
    """The pids of the server's worker processes (children of uvicorn's supervisor)."""
    assert server.proc is not None
    out = subprocess.run(
        ["ps", "-o", "pid=", "--ppid", str(server.proc.pid)], capture_output=True, text=True
    )
    pids = [int(p) for p in out.stdout.split()]
    # the multiprocessing resource tracker is a child too: workers answer on the port
    return [p for p in pids if "resource_tracker" not in _cmdline(p)]


def _cmdline(pid: int) -> str:
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    return ""


def test_kill_9_of_one_worker_of_two_mid_play_loses_nothing(tmp_path: Path) -> None:
    pg_or_skip()
    with (
        postgres_database() as url,
        Server(url, log=tmp_path / "s.log", args=["--workers", "2"]) as server,
    ):
        time.sleep(1.0)  # both workers up
        workers = _workers(server)
        assert len(workers) == 2, workers
        players = []
        for body in (DUBBEL_WITH_BOT, PAD):
            # a client per game, new connections each time: requests reach both workers
            client = httpx.Client(
                base_url=server.url, limits=httpx.Limits(max_keepalive_connections=0)
            )
            players.append(Player(client, _new(client, body)))
        for _ in range(15):
            for p in players:
                p.step()
        os.kill(workers[0], signal.SIGKILL)
        for _ in range(15):  # play on through the surviving worker (and a restarted one)
            for p in players:
                p.step()
        for p in players:
            assert p.finish()["finished"]
            p.check()
            assert len(p.acked) >= 20
            print(f"\n{p.gid}: {len(p.acked)} moves acknowledged, {p.failures} refused or lost")


def test_postgres_terminating_the_servers_connections_mid_play_loses_nothing(
    tmp_path: Path,
) -> None:
    import psycopg

    pg_or_skip()
    with postgres_database() as url, Server(url, log=tmp_path / "s.log") as server:
        players = []
        for body in (DUBBEL_WITH_BOT, PAD):
            client = httpx.Client(base_url=server.url)
            players.append(Player(client, _new(client, body)))
        for round_ in range(3):
            for _ in range(8):
                for p in players:
                    p.step()
            with psycopg.connect(url, autocommit=True) as admin:
                killed = admin.execute(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                ).fetchone()
            assert killed is not None and killed[0] >= 2, (round_, killed)
        for p in players:
            assert p.finish()["finished"]
            p.check()
            print(f"\n{p.gid}: {len(p.acked)} moves acknowledged, {p.failures} refused or lost")


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
@pytest.mark.parametrize("body", [DUBBEL_WITH_BOT, PAD], ids=["dubbel", "pad"])
def test_kill_9_mid_game_keeps_every_dubbel_and_pad_move(
    tmp_path: Path, backend: str, body: dict[str, Any]
) -> None:
    with _database(backend, tmp_path) as url:
        server = Server(url, bot_delay=0.02, log=tmp_path / "s.log").start()
        try:
            client = httpx.Client(base_url=server.url)
            player = Player(client, _new(client, body))
            for _ in range(20):
                player.step()
            server.kill9()
        finally:
            server.stop()
        with Server(url, port=server.port, log=tmp_path / "s.log"):
            player.check()
            assert len(player.acked) == 20 - player.failures
            assert player.finish()["finished"]
            player.check()


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
@pytest.mark.parametrize("body", [DUBBEL_WITH_BOT, PAD], ids=["dubbel", "pad"])
def test_a_double_submitted_dubbel_or_pad_move_is_applied_once(
    tmp_path: Path, backend: str, body: dict[str, Any]
) -> None:
    with _database(backend, tmp_path) as url, Server(url, log=tmp_path / "s.log") as server:
        client = httpx.Client(base_url=server.url)
        player = Player(client, _new(client, body))
        for _ in range(12):
            v = player.view()
            action = next_action(v)
            codes: list[int] = []

            def submit(
                action: dict[str, Any] = action,
                version: int = v["version"],
                codes: list[int] = codes,
            ) -> None:
                r = client.post(
                    f"/api/games/{player.gid}/actions",
                    json={"action": action, "version": version},
                )
                codes.append(r.status_code)
                if r.status_code == 200:
                    player.acked[r.json()["version"]] = action

            threads = [threading.Thread(target=submit) for _ in range(3)]
            for t in threads:
                t.start()
            join_all(threads, what="the triple submit")
            assert sorted(codes) == [200, 409, 409], codes
            assert player.view()["version"] >= v["version"] + 1
        player.check()
        assert player.finish()["finished"]
        player.check()
