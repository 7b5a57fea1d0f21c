"""The web app's protocol downloads: the same PDF and Excel sheets as `yatzy export`."""

from __future__ import annotations

import io
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

from tests.web.test_web_api import create, play_out
from yatzy.game import from_record
from yatzy.web.app import create_app


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    url = f"sqlite:///{tmp_path_factory.mktemp('webproto') / 'yatzy.db'}"
    with TestClient(create_app(url, bot_delay=0.0)) as c:
        yield c


def test_finished_game_downloads_as_excel_with_its_totals(client: TestClient) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    gid = create(client, [{"name": "Åsa", "here": True}, {"name": "Bot", "bot": "greedy"}])["id"]
    final = play_out(client, gid)
    r = client.get(f"/api/games/{gid}/protocol.xlsx")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/vnd.openxmlformats")
    assert f"yatzy-{gid}.xlsx" in r.headers["content-disposition"]
    book = openpyxl.load_workbook(io.BytesIO(r.content))
    values = [c.value for row in book.active.iter_rows() for c in row]
    assert "Åsa" in values
    record = client.get(f"/api/games/{gid}/record").json()
    entries = [e["points"] for s in final["sheets"] for e in s["entries"].values() if e is not None]
    # Every written score of both players is in the sheet's cells.
    assert len(entries) == 30 and all(p in values for p in set(entries))
    assert from_record(record).totals() == final["totals"]


def test_ongoing_game_downloads_as_pdf_in_the_asked_language(
    client: TestClient, tmp_path: Path
) -> None:
    gid = create(client, rules="maxi", lang="sv")["id"]
    r = client.get(f"/api/games/{gid}/protocol.pdf", params={"lang": "fi"})
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
    assert r.content.startswith(b"%PDF")


def test_protocol_downloads_refuse_bad_input(client: TestClient) -> None:
    gid = create(client)["id"]
    assert client.get(f"/api/games/{gid}/protocol.docx").status_code == 422
    assert client.get(f"/api/games/{gid}/protocol.pdf", params={"lang": "de"}).status_code == 422
    assert client.get("/api/games/nosuchgame000000/protocol.pdf").status_code in (404, 422)


def test_game_page_links_both_downloads(client: TestClient) -> None:
    gid = create(client, lang="fi")["id"]
    page = client.get(f"/g/{gid}").text
    # relative to the page's <base href>, so they work under a path prefix too
    assert f'href="api/games/{gid}/protocol.pdf?lang=fi"' in page
    assert f'href="api/games/{gid}/protocol.xlsx?lang=fi"' in page
    assert "Pöytäkirja" in page
