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
from pydantic import TypeAdapter

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from yatzy.web.app import create_app
from yatzy.web.models import (
    AnalysisView,
    CreatedView,
    GameView,
    HistoryEntry,
    MoveView,
    RulesInfo,
    StatsView,
)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One running app over a fresh SQLite database (bots act without delay)."""
    db = tmp_path_factory.mktemp("models") / "yatzy.db"
    with TestClient(create_app(f"sqlite:///{db}", bot_delay=0.0, win_chances=False)) as c:
        yield c


def conforms(model: Any, answer: Any) -> None:
    """``answer`` validates as ``model`` and has no key the model leaves out (a
    TypedDict drops unknown keys: the round trip must give the answer back)."""
    adapter: TypeAdapter[Any] = TypeAdapter(model)
    assert adapter.dump_python(adapter.validate_python(answer, strict=False)) == answer


def test_every_api_answer_is_documented_with_a_schema_and_its_refusals(
    client: TestClient,
) -> None:
    doc = client.get("/openapi.json").json()
    refusal = {"$ref": "#/components/schemas/Refusal"}
    api = {p: ops for p, ops in doc["paths"].items() if p.startswith("/api/")}
    assert len(api) >= 11
    for path, ops in api.items():
        for method, op in ops.items():
            where = f"{method.upper()} {path}"
            ok = op["responses"].get("200") or op["responses"].get("201")
            assert ok is not None, where
            assert any(c.get("schema") for c in ok["content"].values()) or path.endswith(
                ".{fmt}"
            ), where
            for code in ("422", "429"):
                assert op["responses"][code]["content"]["application/json"]["schema"] == refusal
            if "{game_id}" in path:
                assert "404" in op["responses"], where
    game = doc["components"]["schemas"]["GameView"]
    assert {"players", "sheets", "turn", "you"} <= set(game["properties"])
    assert "403" in api["/api/games/{game_id}/actions"]["post"]["responses"]
    assert "409" in api["/api/games/{game_id}/actions"]["post"]["responses"]


def test_the_answers_are_what_the_document_says(client: TestClient) -> None:
    conforms(RulesInfo, client.get("/api/rules").json())
    seats = [{"name": "Ann", "here": True}, {"name": "Bot", "bot": "greedy"}]
    r = client.post("/api/games", json={"rules": "dubbel", "seats": seats})
    assert r.status_code == 201
    conforms(CreatedView, r.json())
    gid = r.json()["id"]
    game = client.get(f"/api/games/{gid}").json()
    conforms(GameView, game)
    for _ in range(1000):  # the bot may open the game: its moves are the server's
        if game["turn"] is not None and game["turn"]["seat"] == 0:
            break
        game = client.get(f"/api/games/{gid}").json()
    acted = client.post(f"/api/games/{gid}/actions", json={"action": {"roll": []}})
    assert acted.status_code == 200
    conforms(GameView, acted.json())
    conforms(list[MoveView], client.get(f"/api/games/{gid}/moves").json())
    conforms(AnalysisView, client.get(f"/api/games/{gid}/analysis").json())
    conforms(AnalysisView, client.get(f"/api/games/{gid}/win-analysis").json())
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
