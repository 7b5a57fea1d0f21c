"""The web tests' own harness: a socket that never answers fails the test within its
deadline instead of hanging the run (tests/web/conftest.py)."""

from __future__ import annotations

import warnings

import pytest
from fastapi import FastAPI, WebSocket

import tests.web.conftest as web_conftest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient


def test_a_silent_socket_fails_the_test_instead_of_hanging(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(web_conftest, "WS_RECEIVE_TIMEOUT", 0.5)
    app = FastAPI()

    @app.websocket("/ws")
    async def silent(socket: WebSocket) -> None:
        await socket.accept()
        await socket.receive_text()  # answers nothing, then ends
        await socket.close()

    with TestClient(app) as client, client.websocket_connect("/ws") as ws:
        with pytest.raises(AssertionError, match="received nothing within"):
            ws.receive_json()
        ws.send_text("bye")
        assert ws.receive()["type"] == "websocket.close"  # the socket still works
