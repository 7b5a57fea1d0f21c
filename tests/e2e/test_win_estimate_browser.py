"""The win analysis' estimate on the end screen (issue 24: the win analysis within
10 s of the last box): while the exact analysis is computed the page draws the
estimate with its note saying it is one, keeps asking, and replaces it with the
exact analysis.  sv, fi and en, on a phone and a laptop, axe clean."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.helpers import VIEWPORTS, Watched, assert_accessible
from tests.e2e.support import Server, served
from tests.e2e.test_browser import _BypassCSP
from tests.e2e.test_result_first_browser import _played
from tests.e2e.test_viewer_first_browser import _win_analysis
from yatzy.web.win_view import win_word

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def browser(browser: Any) -> Any:
    """The conftest's chromium, its pages' CSP bypassed."""
    return _BypassCSP(browser)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from served(tmp_path_factory, "win-estimate", bot_delay=0.0, undo_grace=0.0)


@pytest.mark.parametrize(("lang", "size"), [("sv", "phone"), ("fi", "desktop"), ("en", "phone")])
def test_the_estimate_shows_at_once_and_the_exact_analysis_replaces_it(
    browser: Any, server: Server, lang: str, size: str
) -> None:
    locale = {"sv": "sv-SE", "fi": "fi-FI"}.get(lang, "en-GB")
    context = browser.new_context(viewport=VIEWPORTS[size], locale=locale)
    w = Watched(context)
    page = w.page
    v = _played(
        context, server, lang, [{"name": "Bot", "bot": "random"}, {"name": "Ann", "here": True}]
    )
    note = win_word("estimated", lang)  # the server's words
    estimate = _win_analysis(["Bot", "Ann"]) | {
        "pending": True,
        "estimated": True,
        "exact": False,
        "note": note,
    }
    exact = _win_analysis(["Bot", "Ann"]) | {"estimated": False}
    done: list[bool] = []  # the exact analysis is done once this holds an item

    def answer(route: Any) -> None:
        body = exact if done else estimate
        route.fulfill(body=json.dumps(body), content_type="application/json")

    page.route("**/win-analysis?*", answer)
    page.goto(f"{server.url}/g/{v['id']}")
    box = page.locator("#win-analysis")
    # The estimate is drawn (before: "being computed" until the exact one came).
    box.locator(".win-player").first.wait_for(timeout=60_000)
    assert box.locator(".analysis-pending").count() == 0
    assert note in box.locator(".hint-note").first.inner_text()
    assert_accessible(page)
    done.append(True)
    page.wait_for_function(
        "n => !document.querySelector('#win-analysis').textContent.includes(n)",
        arg=note,
        timeout=30_000,
    )  # the page asked again and the exact analysis took the estimate's place
    assert box.locator(".win-player").count() == 2
    assert_accessible(page)
    w.assert_clean()
    context.close()
