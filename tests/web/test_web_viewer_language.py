"""A game's page in each viewer's language: an invited guest and a spectator read
their browser's (Accept-Language), not the game's; anyone the language they chose
(``?lang=``, remembered); the game's only where the browser asks for none of ours."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from tests.web.test_web_api import create
from yatzy.web.app import create_app


@pytest.fixture(scope="module")
def app_client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url, bot_delay=0.0)) as client:
        yield client


def _lang(client: TestClient, path: str, accept: str) -> str:
    page = client.get(path, headers={"Accept-Language": accept})
    assert page.status_code == 200, page.text
    found = re.search(r'<html lang="(\w+)"', page.text)
    assert found is not None
    return found.group(1)


def test_maker_guest_and_spectator_each_read_their_language(client: TestClient) -> None:
    gid = create(client, [{"name": "Ida", "here": True}, {"name": "Bo"}], lang="en")["id"]
    assert _lang(client, f"/g/{gid}", "en-GB") == "en"
    cookies = dict(client.cookies)
    client.cookies.clear()
    # a guest with the invite link and a spectator: their browser's language
    assert _lang(client, f"/g/{gid}?invite=x", "sv-SE,sv;q=0.9,en;q=0.5") == "sv"
    assert _lang(client, f"/g/{gid}", "fi") == "fi"
    assert _lang(client, f"/g/{gid}", "de-DE") == "en"  # none of ours: the game's
    # a chosen language wins and is remembered
    assert _lang(client, f"/g/{gid}?lang=fi", "sv") == "fi"
    assert _lang(client, f"/g/{gid}", "sv") == "fi"
    # a guest keeps their language once seated
    client.cookies.clear()
    client.cookies.update(cookies)
    assert _lang(client, f"/g/{gid}", "sv") == "sv"
