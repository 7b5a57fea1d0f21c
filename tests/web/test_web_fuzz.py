"""Fuzzing the OpenAPI document with schemathesis: no input makes the server fail (5xx).

Half of the generated requests aim at a real game whose seat token they carry, so the
fuzzed actions reach the core engine rather than stopping at "no such game".
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
import warnings
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from yatzy.web.app import create_app

pytestmark = pytest.mark.slow  # schemathesis sends hundreds of generated requests

# schemathesis reads the schema at collection, before any fixture: the app and its
# database are made at import (in every xdist worker that collects this module), and
# the folder is removed when the process ends.
_DB = Path(tempfile.mkdtemp(prefix="yatzy-fuzz-")) / "fuzz.db"
atexit.register(shutil.rmtree, _DB.parent, ignore_errors=True)
app = create_app(f"sqlite:///{_DB}", bot_delay=0.0)
schema = schemathesis.openapi.from_asgi("/openapi.json", app)


@pytest.fixture(scope="module")
def live_game() -> Iterator[tuple[str, str]]:
    """The app started (lifespan run), with one game whose seat 0 the fuzzer holds."""
    with TestClient(app) as client:
        r = client.post(
            "/api/games",
            json={
                "rules": "dubbel",
                "seats": [{"name": "Fuzz", "here": True}, {"name": "B", "bot": "random"}],
            },
        )
        gid = r.json()["id"]
        yield gid, client.cookies[f"yz_{gid}_0"]


@schema.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_no_input_causes_a_server_error(case: Any, live_game: tuple[str, str]) -> None:
    gid, token = live_game
    headers = {}
    if "game_id" in (case.path_parameters or {}) and zlib.crc32(repr(case.body).encode()) % 2 == 0:
        case.path_parameters["game_id"] = gid
        headers["X-Seat-Token"] = f"0:{token}"
    response = case.call(headers=headers)
    assert response.status_code < 500, (
        case.method,
        case.formatted_path,
        case.body,
        response.text[:300],
    )
