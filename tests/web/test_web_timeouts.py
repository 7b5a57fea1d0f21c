"""Connection timeouts of a live ``yatzy serve``: silent and half-sent connections are
closed (issue 13's 2,000 idle connections), a body that does not come gets 408."""

from __future__ import annotations

import resource
import selectors
import socket
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from tests.e2e.support import Server
from tests.helpers import scaled

pytestmark = pytest.mark.slow  # live servers and 2,000 idle connections

CONNECTIONS = 2000


def _wait_closed(socks: list[socket.socket], timeout: float) -> tuple[int, float]:
    """Wait until the server closed every socket: how many it closed, and when the
    last one went (seconds from now)."""
    start = time.monotonic()
    sel = selectors.DefaultSelector()
    for s in socks:
        s.setblocking(False)
        sel.register(s, selectors.EVENT_READ)
    open_ = len(socks)
    last = 0.0
    while open_ and time.monotonic() - start < timeout:
        for key, _ in sel.select(timeout=0.2):
            s = key.fileobj
            assert isinstance(s, socket.socket)
            try:
                data = s.recv(4096)
            except (ConnectionResetError, BlockingIOError):
                data = b""
            if not data:
                sel.unregister(s)
                open_ -= 1
                last = time.monotonic() - start
    sel.close()
    return len(socks) - open_, last


def test_silent_and_half_sent_connections_are_closed(
    tmp_path: Path, serve: Callable[..., Server]
) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 3 * CONNECTIONS:  # the server inherits it
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 3 * CONNECTIONS), hard))
    # every connection counts here, not only a client's share of them
    args = ["--header-timeout", "2", "--keep-alive-timeout", "1", "--body-timeout", "2"]
    args += ["--max-connections-per-client", "0"]
    server = serve(f"sqlite:///{tmp_path / 't.db'}", log=tmp_path / "s.log", args=args)
    socks = []
    try:
        for i in range(CONNECTIONS):
            s = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            if i % 2:  # half of them start a request and stop mid-header
                s.sendall(b"GET /api/rules HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            socks.append(s)
        opened = time.monotonic()
        closed, last = _wait_closed(socks, timeout=scaled(120))
        waited = time.monotonic() - opened
        print(f"\n{closed} of {CONNECTIONS} idle connections closed, the last after {last:.1f} s")
        # every one closed by the server (the deadline only bounds a hang)
        assert closed == CONNECTIONS, f"{CONNECTIONS - closed} still open after {waited:.0f} s"
    finally:
        for s in socks:
            s.close()
    # the server is still in service
    assert httpx.get(server.url + "/api/rules", timeout=5).status_code == 200


def test_a_body_that_does_not_come_gets_408(tmp_path: Path, serve: Callable[..., Server]) -> None:
    args = ["--body-timeout", "1"]
    with (
        Server(f"sqlite:///{tmp_path / 't.db'}", args=args) as server,
        socket.create_connection(("127.0.0.1", server.port), timeout=scaled(60)) as s,
    ):
        s.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b'Content-Length: 100\r\n\r\n{"rules":'
        )
        started = time.monotonic()
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = s.recv(4096)
            if not chunk:
                break
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
        # the server waited for the body about its timeout, not less
        assert time.monotonic() - started > 0.8


def test_sockets_live_per_game_cap_and_idle_close(
    tmp_path: Path, serve: Callable[..., Server]
) -> None:
    from websockets.exceptions import ConnectionClosed, InvalidStatus
    from websockets.sync.client import connect

    args = ["--max-sockets-per-game", "2", "--ws-idle-timeout", "1"]
    server = serve(f"sqlite:///{tmp_path / 't.db'}", log=tmp_path / "s.log", args=args)
    gid = httpx.post(
        server.url + "/api/games", json={"seats": [{"name": "A", "here": True}]}
    ).json()["id"]
    url = server.url.replace("http", "ws") + f"/api/games/{gid}/ws"
    opened = time.monotonic()  # the idle time counts from the socket's opening
    with connect(url, open_timeout=5) as a, connect(url, open_timeout=5) as b:
        a.recv(timeout=5)
        b.recv(timeout=5)
        try:
            with connect(url, open_timeout=5):
                raise AssertionError("a third socket was let in")
        except InvalidStatus as exc:
            assert exc.response.status_code == 429
            assert b"2 live sockets" in exc.response.body
        try:
            a.recv(timeout=scaled(60))
            raise AssertionError("the idle socket got a message")
        except ConnectionClosed as exc:
            assert exc.rcvd is not None and exc.rcvd.code == 4408
        idle_closed = time.monotonic() - opened
        print(f"\nan idle socket was closed {idle_closed:.2f} s after it opened (timeout 1 s)")
        assert idle_closed > 0.9  # not before its idle time
