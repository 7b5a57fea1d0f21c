"""Static files in a real browser (issue 24): scripts and styles arrive compressed,
under the content-versioned path, and a second visit takes them from the browser's
cache without asking the server; the app's CSP still lets every module load."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import VIEWPORTS, Watched
from tests.e2e.support import Server
from yatzy.web.assets import static_prefix

pytestmark = pytest.mark.slow

RESOURCES = """() => performance.getEntriesByType('resource')
  .filter(e => /\\/static\\/v-[0-9a-f]+\\/.*\\.(js|css)$/.test(e.name))
  .map(e => ({name: e.name, encoded: e.encodedBodySize, decoded: e.decodedBodySize,
              transfer: e.transferSize}))"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder: Path = tmp_path_factory.mktemp("static")
    with Server(f"sqlite:///{folder / 'e2e.db'}", log=folder / "server.log") as s:
        yield s


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_static_files_compressed_and_cached(browser: Any, server: Server, size: str) -> None:
    context = browser.new_context(viewport=VIEWPORTS[size], locale="sv-SE")
    w = Watched(context)
    page = w.page
    page.goto(server.url + "/")
    page.locator("#play-solo").click()
    page.wait_for_url("**/g/*")
    page.wait_for_selector("#protocol thead th")
    first = page.evaluate(RESOURCES)
    names = {r["name"].rsplit("/", 1)[1] for r in first}
    assert {"app.css", "game.js", "game-net.js", "game-sheet.js"} <= names, names
    assert all(static_prefix() in r["name"] for r in first)
    big = [r for r in first if r["decoded"] > 2000]
    assert big and all(r["encoded"] < r["decoded"] for r in big), big  # gzipped
    # a second visit: every script and style from the cache, none asked for again
    page.goto(page.url)
    page.wait_for_selector("#protocol thead th")
    again = page.evaluate(RESOURCES)
    assert again and all(r["transfer"] == 0 for r in again), again
    w.assert_clean()
    context.close()
