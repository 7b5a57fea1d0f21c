"""Back-pressure and a fair share of sockets on a live ``yatzy serve`` (issue 25): a
socket that never reads freezes nothing and is closed; sockets are capped per client;
a full server closes its idle sockets for newcomers.  Raw sockets on loopback play the
attacker; the players use httpx and the ``websockets`` client."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from tests.e2e.support import Server, next_action
from tests.helpers import eventually, scaled
from yatzy.web.hub import Hub
from yatzy.web.limits import Limits

EIGHT = {"rules": "maxi", "seats": [{"name": f"P{i}", "here": True} for i in range(8)]}


def _silent_socket(port: int, path: str) -> socket.socket:
    """Open a WebSocket by hand and read nothing after the handshake (a receive buffer
    as small as the kernel allows, so the server's output backs up soon)."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    s.settimeout(scaled(30))
    s.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = b""
    while not head.endswith(b"\r\n\r\n"):  # byte by byte: no frame is read
        byte = s.recv(1)
        assert byte, f"closed during the handshake: {head!r}"
        head += byte
    assert head.startswith(b"HTTP/1.1 101"), head
    return s


def _closed_by_server(s: socket.socket, timeout: float) -> bool:
    """Read what the server sent until it closes (True) or ``timeout`` passes (False)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        s.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            if not s.recv(1 << 16):
                return True
        except ConnectionResetError:
            return True
        except TimeoutError:
            return False
    return False


class _Reader:
    """A socket client that reads every message in a thread (a player's page)."""

    def __init__(self, url: str) -> None:
        self.versions: list[int] = []
        self.opened = threading.Event()
        self.ws: ClientConnection | None = None
        self.thread = threading.Thread(target=self._read, args=(url,), daemon=True)
        self.thread.start()
        assert self.opened.wait(scaled(10)) and self.ws is not None, "the page's socket"

    def _read(self, url: str) -> None:
        with connect(url, open_timeout=scaled(10)) as ws:
            self.ws = ws
            self.opened.set()
            try:
                while True:
                    data = json.loads(ws.recv())
                    if data["type"] == "state":
                        self.versions.append(data["game"]["version"])
            except ConnectionClosed:
                pass

    def close(self) -> None:
        """Close the socket and stop reading."""
        if self.ws is not None:
            self.ws.close()
        self.thread.join(scaled(10))


class _SlowSocket:
    """A WebSocket whose every send takes a moment (a client on a slow network)."""

    def __init__(self) -> None:
        self.scope: dict[str, Any] = {}
        self.frames: list[object] = []

    async def send_text(self, text: str) -> None:
        await asyncio.sleep(0.01)
        self.frames.append(text)

    async def close(self, code: int = 1000, reason: str = "") -> None:
        await asyncio.sleep(0.01)
        self.frames.append((code, reason))


def test_a_close_through_the_outbox_comes_after_what_was_queued_before_it() -> None:
    """What a socket sees is a well-defined sequence: the messages queued before a close
    (the first view, answers, updates), then the close, then nothing."""

    async def session() -> list[object]:
        hub = Hub(cast(Any, None), Limits.off())
        ws = _SlowSocket()
        box = hub.subscribe("g", cast(Any, ws))
        box.busy = True  # the session is not waiting on the socket: nothing cancels it
        box.put("first view")
        box.put("update")
        box.close(4408, "idle")
        box.put("too late")
        box.close(4422, "ignored: closing already")
        await asyncio.wait_for(box.writer, 30)
        hub.unsubscribe(box)
        return ws.frames

    assert asyncio.run(session()) == ["first view", "update", (4408, "idle")]


@pytest.mark.slow  # a whole 8-player Maxi game (some 640 actions)
def test_a_socket_that_never_reads_freezes_nothing_and_is_closed(
    tmp_path: Path, serve: Callable[..., Server]
) -> None:
    server = serve(
        f"sqlite:///{tmp_path / 't.db'}",
        log=tmp_path / "s.log",
        args=["--no-limits", "--ws-drain-timeout", "2", "--ws-send-queue", "16"],
    )
    player = httpx.Client(base_url=server.url, timeout=scaled(20))
    gid = player.post("/api/games", json=EIGHT).json()["id"]
    view: dict[str, Any] = player.get(f"/api/games/{gid}").json()
    ws_path = f"/api/games/{gid}/ws"
    stuck = _silent_socket(server.port, ws_path)
    page = _Reader(server.url.replace("http", "ws") + ws_path)
    try:
        # The whole game, three rolls a turn: an 8-player Maxi game's view is 8-10 kB,
        # which fills the silent socket's buffers within a few dozen actions (its kernel
        # send buffer alone took 4 MiB before it was capped, some 450 actions), and
        # before the fix the next action was stored but never answered.
        actions = 0
        while not view["finished"]:
            body = {"action": next_action(view, rolls_wanted=3), "version": view["version"]}
            try:
                r = player.post(f"/api/games/{gid}/actions", json=body)
            except httpx.ReadTimeout:
                raise AssertionError(f"action {actions + 1} was not answered") from None
            assert r.status_code == 200, r.text
            view = r.json()
            actions += 1
        # the player's page got every move
        eventually(
            lambda: page.versions[-1] if page.versions else -1,
            lambda v: v == view["version"],
            what="the last move on the reading socket",
        )
        # the silent socket was closed by the server, not left to hold its buffers
        assert _closed_by_server(stuck, scaled(30)), "the silent socket is still open"
        # the game's sockets work on: a new one gets the game as it is
        with connect(server.url.replace("http", "ws") + ws_path, open_timeout=5) as fresh:
            assert json.loads(fresh.recv(timeout=scaled(10)))["game"]["version"] == view["version"]
    finally:
        stuck.close()
        page.close()


@pytest.mark.slow  # a live server and its pings (about 6 CPU-s)
def test_sockets_are_capped_per_client_and_dead_ones_freed_by_pings(
    tmp_path: Path, serve: Callable[..., Server]
) -> None:
    args = ["--max-sockets-per-client", "3", "--ws-ping-interval", "1", "--ws-ping-timeout", "2"]
    server = serve(f"sqlite:///{tmp_path / 't.db'}", log=tmp_path / "s.log", args=args)
    gid = httpx.post(server.url + "/api/games", json=EIGHT).json()["id"]
    path = f"/api/games/{gid}/ws"
    url = server.url.replace("http", "ws") + path
    silent = [_silent_socket(server.port, path) for _ in range(3)]
    try:
        try:
            with connect(url, open_timeout=5):
                raise AssertionError("a fourth socket of one client was let in")
        except InvalidStatus as exc:
            assert exc.response.status_code == 429
            assert b"3 live sockets, the most one client may have" in exc.response.body

        # The silent sockets answer no ping: they are closed, and the client's room with them.
        def fourth() -> bool:
            try:
                with connect(url, open_timeout=5) as ws:
                    return bool(ws.recv(timeout=5))
            except InvalidStatus:
                return False

        eventually(fourth, interval=0.2, what="room for the client once its dead sockets went")
        assert all(_closed_by_server(s, scaled(10)) for s in silent)
    finally:
        for s in silent:
            s.close()


def _connect_from(address: str, port: int) -> socket.socket:
    """A TCP connection to the server from ``address`` (any 127.x.y.z is loopback)."""
    s = socket.socket()
    s.settimeout(scaled(30))
    s.bind((address, 0))
    s.connect(("127.0.0.1", port))
    return s


def _get_status(s: socket.socket) -> int:
    """Send ``GET /api/rules`` on ``s``; the status of the answer."""
    s.sendall(b"GET /api/rules HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    return _status(s)


def _status(s: socket.socket) -> int:
    head = b""
    while b"\r\n" not in head:
        chunk = s.recv(4096)
        assert chunk, f"closed before an answer: {head!r}"
        head += chunk
    return int(head.split(b" ", 2)[1])


def test_one_address_gets_its_share_of_connections_and_idle_ones_make_room(
    tmp_path: Path, serve: Callable[..., Server]
) -> None:
    args = ["--max-connections-per-client", "5", "--limit-concurrency", "20"]
    server = serve(f"sqlite:///{tmp_path / 't.db'}", log=tmp_path / "s.log", args=args)
    silent: list[socket.socket] = []
    try:
        silent += [_connect_from("127.0.0.2", server.port) for _ in range(5)]
        extra = _connect_from("127.0.0.2", server.port)
        silent.append(extra)
        assert _status(extra) == 429  # one more than its share, answered at once
        # Four addresses fill the process with silent connections, each within its share.
        for i in range(3, 6):
            silent += [_connect_from(f"127.0.0.{i}", server.port) for _ in range(5)]
        # A newcomer is served all the same: idle connections made room (uvicorn alone
        # answered 503 "Exceeded concurrency limit").
        with _connect_from("127.0.0.9", server.port) as newcomer:
            assert _get_status(newcomer) == 200
    finally:
        for s in silent:
            s.close()
