"""The win analysis' estimate on the end screen (issue 24: the win analysis within
10 s of the last box): while the exact analysis is computed the page draws the
estimate with its note saying it is one, keeps asking, and replaces it with the
exact analysis.  sv, fi and en, on a phone and a laptop, axe clean."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.helpers import VIEWPORTS, Watched, assert_accessible, words
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


@pytest.mark.parametrize(("lang", "size"), [("sv", "phone"), ("fi", "desktop")])
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


@pytest.mark.parametrize(("lang", "size"), [("sv", "phone"), ("fi", "desktop"), ("en", "phone")])
def test_a_simulated_analysis_says_its_margin_in_words_along_the_rounds(
    browser: Any, server: Server, lang: str, size: str
) -> None:
    # Issue 24: "±2" is jargon, and the chart's Turn axis ran 0-30 for a game of two.
    # A simulated decision's chance lost reads "about −3.2" (the note says by how much
    # it may be off), and the chart runs along the rounds played, 0 to 15.
    locale = {"sv": "sv-SE", "fi": "fi-FI"}.get(lang, "en-GB")
    context = browser.new_context(viewport=VIEWPORTS[size], locale=locale)
    w = Watched(context)
    page = w.page
    v = _played(
        context, server, lang, [{"name": "Bot", "bot": "random"}, {"name": "Ann", "here": True}]
    )
    analysis = _win_analysis(["Bot", "Ann"])
    turns = list(range(31))
    analysis |= {
        "exact": False,
        "margin": 2.1,
        "note": win_word("simulated", lang, margin="2,1" if lang != "en" else "2.1"),
        "turns": turns,
        "rounds": [t / 2 for t in turns],
        "lines": [
            {"seat": 0, "name": "Bot", "chances": [50.0] * 30 + [0.0]},
            {"seat": 1, "name": "Ann", "chances": [50.0] * 30 + [100.0]},
        ],
    }
    decision = {"turn": 1, "roll": 1, "chosen": "Chance", "better": None, "points": 1.0}
    analysis["players"][1]["decisions"] = [decision | {"cost": 3.2, "margin": 2.1, "after": 40.0}]
    page.route(
        "**/win-analysis?*",
        lambda route: route.fulfill(body=json.dumps(analysis), content_type="application/json"),
    )
    page.goto(f"{server.url}/g/{v['id']}")
    box = page.locator("#win-analysis")
    box.locator(".win-player").first.wait_for(timeout=60_000)
    lost = "−3,2" if lang != "en" else "−3.2"
    cells = box.locator("table.win-decisions td.num")
    assert words(lang, "wa_about", value=lost) in cells.all_text_contents()
    assert "±" not in (box.text_content() or "")
    chart = box.locator("svg.win-chart")
    assert chart.locator("text.axis").text_content() == words(lang, "wa_rounds")
    ticks = [t for t in chart.locator("text.tick").all_text_contents() if "%" not in t]
    assert ticks == ["0", "8", "15"]
    heads = box.locator("figure table.sr th[scope='row']").all_text_contents()
    assert heads[:2] == ["0", "0,5" if lang != "en" else "0.5"] and heads[-1] == "15"
    assert_accessible(page)
    w.assert_clean()
    context.close()
