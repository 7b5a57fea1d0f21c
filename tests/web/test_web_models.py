"""The OpenAPI document describes every answer, and the answers are what it says.

The routes send their views as built (orjson, no model in the way); these tests
validate real answers against the declared response models (``yatzy.web.models``),
key for key, so neither can drift from the other.  And the app's ``/docs`` page
works offline: every file it loads comes from this server.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from tests.helpers import eventually
from tests.web.helpers import conforms
from yatzy.web.app import create_app
from yatzy.web.inputs import Refusal
from yatzy.web.models import (
    AnalysisView,
    CreatedView,
    GameView,
    HistoryEntry,
    MoveView,
    PendingView,
    RulesInfo,
    StatsView,
    WinUnavailableView,
)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One running app over a fresh SQLite database (bots act without delay)."""
    db = tmp_path_factory.mktemp("models") / "yatzy.db"
    with TestClient(create_app(f"sqlite:///{db}", bot_delay=0.0, win_chances=False)) as c:
        yield c


LOOSE = {"/api/games/{game_id}/record"}
"""The one JSON answer declared as a plain object: the core's game record (its own
format, read back by ``yatzy.game.loads``), sent as stored."""


def untyped(doc: dict[str, Any], schema: Any, where: str, seen: set[str]) -> list[str]:
    """The places under ``schema`` (through every ``$ref``) that say nothing of their
    value: ``{}`` (any), an object without properties or typed values, an array
    without typed items."""
    if not isinstance(schema, dict):
        return [where]
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        if name in seen:
            return []
        seen.add(name)
        return untyped(doc, doc["components"]["schemas"][name], name, seen)
    for key in ("anyOf", "oneOf", "allOf"):
        if key in schema:
            return [
                bad
                for i, part in enumerate(schema[key])
                for bad in untyped(doc, part, f"{where}|{i}", seen)
            ]
    if "const" in schema or "enum" in schema:
        return []
    kind = schema.get("type")
    if kind in ("string", "integer", "number", "boolean", "null"):
        return []
    if kind == "array":
        return untyped(doc, schema.get("items"), f"{where}[]", seen)
    if kind == "object":
        props = schema.get("properties") or {}
        extra = schema.get("additionalProperties", False if props else None)
        bad = [b for k, v in props.items() for b in untyped(doc, v, f"{where}.{k}", seen)]
        if extra is True or (extra is None and not props):
            bad.append(f"{where}{{*}}")
        elif isinstance(extra, dict):
            bad += untyped(doc, extra, f"{where}{{*}}", seen)
        return bad
    return [where]


def test_every_api_answer_is_documented_with_a_schema_and_its_refusals(
    client: TestClient,
) -> None:
    """Every API route declares its answer as a model typed all the way down (no
    ``{}``, no object of anything) and each refusal it can give, with the
    refusals' body: 422 and 429 everywhere, 404 for a game's routes, 408 and 413
    where a body is read, 403 and 409 where seats and turns are checked, 503 where
    the database is read."""
    doc = client.get("/openapi.json").json()
    refusal = {"$ref": "#/components/schemas/Refusal"}
    api = {p: ops for p, ops in doc["paths"].items() if p.startswith("/api/")}
    assert len(api) >= 11
    for path, ops in api.items():
        for method, op in ops.items():
            where = f"{method.upper()} {path}"
            ok = op["responses"].get("200") or op["responses"].get("201")
            assert ok is not None, where
            if path.endswith(".{fmt}"):  # a PDF or an Excel file
                assert set(ok["content"]) == {
                    "application/pdf",
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
                }
            else:
                schema = ok["content"]["application/json"]["schema"]
                if path in LOOSE:
                    assert schema == {"type": "object"}, where
                else:
                    assert untyped(doc, schema, where, set()) == [], where
            codes = {c for c in op["responses"] if c[0] == "4" or c[0] == "5"}
            want = {"422", "429"}
            if "{game_id}" in path:
                want |= {"404", "503"}
            if "requestBody" in op:
                want |= {"408", "413"}
            assert want <= codes, (where, want - codes)
            for code in codes:
                content = op["responses"][code]["content"]["application/json"]
                assert content["schema"] == refusal, (where, code)
    assert doc["components"]["schemas"]["Refusal"]["required"] == ["detail", "error"]
    game = doc["components"]["schemas"]["GameView"]
    assert {"players", "sheets", "turn", "you"} <= set(game["properties"])
    acts = api["/api/games/{game_id}/actions"]["post"]["responses"]
    assert {"403", "409", "408", "413"} <= set(acts)
    assert "403" in api["/api/games/{game_id}/join"]["post"]["responses"]
    for path in ("/api/history", "/api/stats", "/api/games"):
        assert "503" in next(iter(api[path].values()))["responses"], path


def test_the_refusals_are_sent_as_documented(client: TestClient) -> None:
    """A body too large (413), an unknown game (404), invalid input (422) and a
    seat not held (403): each answer is a Refusal."""
    big = client.post("/api/games", content=b"{" + b" " * 2_000_000 + b"}")
    gid = client.post("/api/games", json={"rules": "yatzy", "seats": [{"name": "A"}]}).json()["id"]
    answers = {
        413: big,
        404: client.get("/api/games/" + "0" * 32),
        422: client.post("/api/games", json={"rules": "nope"}),
        403: client.post(f"/api/games/{gid}/actions", json={"action": {"roll": []}}),
    }
    for status, answer in answers.items():
        assert answer.status_code == status, (status, answer.text)
        conforms(Refusal, answer.json())


def test_the_answers_are_what_the_document_says(client: TestClient) -> None:
    conforms(RulesInfo, client.get("/api/rules").json())
    seats = [{"name": "Ann", "here": True}, {"name": "Bot", "bot": "greedy"}]
    r = client.post("/api/games", json={"rules": "dubbel", "seats": seats})
    assert r.status_code == 201
    conforms(CreatedView, r.json())
    gid = r.json()["id"]
    conforms(GameView, client.get(f"/api/games/{gid}").json())
    eventually(  # the bot may open the game: its moves are the server's
        lambda: client.get(f"/api/games/{gid}").json(),
        lambda game: game["turn"] is not None and game["turn"]["seat"] == 0,
        interval=0.01,
        what="Ann's turn",
    )
    acted = client.post(f"/api/games/{gid}/actions", json={"action": {"roll": []}})
    assert acted.status_code == 200
    conforms(GameView, acted.json())
    conforms(list[MoveView], client.get(f"/api/games/{gid}/moves").json())
    conforms(AnalysisView | PendingView, client.get(f"/api/games/{gid}/analysis").json())
    # chances are off here: the answer says so (test_web_win_analysis has the views)
    conforms(WinUnavailableView, client.get(f"/api/games/{gid}/win-analysis").json())
    # solo: the viewer's record is in the view
    solo = client.post(
        "/api/games", json={"rules": "yatzy", "seats": [{"name": "Ann", "here": True}]}
    ).json()
    conforms(GameView, solo["game"])
    history = client.get("/api/history").json()
    assert {gid, solo["id"]} <= {h["id"] for h in history}
    conforms(list[HistoryEntry], history)
    conforms(StatsView, client.get("/api/stats").json())
    refused = client.post(f"/api/games/{gid}/actions", json={"action": {"score": "nope"}})
    assert refused.status_code in (409, 422) and set(refused.json()) == {"detail", "error"}


def test_the_docs_page_loads_every_file_from_this_server(client: TestClient) -> None:
    page = client.get("/docs")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert "<script>" not in page.text  # no inline script: the policy would block it
    urls = re.findall(r'(?:src|href)="([^"]+)"', page.text)
    assert {"/docs/assets/swagger-ui-bundle.js", "/static/docs.js"} <= set(urls)
    for url in urls:
        assert url.startswith("/"), url  # no CDN, no other origin
        answer = client.get(url)
        assert answer.status_code == 200 and answer.content, url
    assert 'data-openapi="/openapi.json"' in page.text
    assert client.get("/docs/assets/other.js").status_code == 422
    assert client.get("/redoc").status_code == 404


def test_the_docs_page_keeps_the_app_prefix(tmp_path: Path) -> None:
    """Behind a proxy that serves the app under a prefix every URL carries it."""
    app = create_app(f"sqlite:///{tmp_path / 'p.db'}", win_chances=False)
    with TestClient(app, root_path="/yz") as c:
        page = c.get("/docs").text
    assert 'src="/yz/docs/assets/swagger-ui-bundle.js"' in page
    assert 'data-openapi="/yz/openapi.json"' in page


def test_every_api_route_reads_its_body_as_strict_json() -> None:
    """A router's routes keep their own class: each must be a StrictJSONRoute."""
    from fastapi.routing import APIRoute

    from yatzy.web.inputs import StrictJSONRoute
    from yatzy.web.routes import ROUTERS

    routes = [r for router in ROUTERS for r in router.routes if isinstance(r, APIRoute)]
    api = [r for r in routes if r.path.startswith("/api/")]
    assert len(api) >= 12 and all(isinstance(r, StrictJSONRoute) for r in api)


@pytest.mark.parametrize("prebuild", ["", "0"])
def test_the_routes_are_built_at_start_unless_switched_off(
    prebuild: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A server builds the OpenAPI document (and so every route's models) before its first
    # client; the tests switch that off (tests/conftest.py) and build on first use.
    monkeypatch.setenv("YATZY_PREBUILD_ROUTES", prebuild)
    app = create_app(f"sqlite:///{tmp_path / 'p.db'}")
    with TestClient(app) as client:
        assert (app.openapi_schema is not None) == (prebuild != "0")
        assert client.get("/api/rules").status_code == 200
        assert client.get("/openapi.json").json()["paths"]
        assert app.openapi_schema is not None
