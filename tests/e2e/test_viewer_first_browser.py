"""The end screen's analyses lead with the viewer's own (issue 24): whoever sits in a
later seat reads their own decisions first, then the others' (each part in seat
order), in the points' analysis and the one in win chance.  sv, fi and en, on a phone
and a laptop, axe clean."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.helpers import VIEWPORTS, Watched, assert_accessible
from tests.e2e.support import Server, served
from tests.e2e.test_browser import _BypassCSP
from tests.e2e.test_result_first_browser import _played
from tests.helpers import eventually

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def browser(browser: Any) -> Any:
    """The conftest's chromium, its pages' CSP bypassed."""
    return _BypassCSP(browser)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from served(tmp_path_factory, "viewer-first", bot_delay=0.0, undo_grace=0.0)


def _win_analysis(names: list[str]) -> dict[str, Any]:
    """A finished two-seat game's analysis in win chance, as the server words it (in
    seat order: the page orders it)."""
    return {
        "pending": False,
        "lang": "en",
        "goal": "win",
        "record": None,
        "exact": True,
        "margin": 0.0,
        "note": None,
        "people_note": None,
        "title": "Chance of winning turn by turn",
        "label": "Chance of winning turn by turn",
        "turns": [0, 1],
        "lines": [
            {"seat": 0, "name": names[0], "chances": [50.0, 0.0]},
            {"seat": 1, "name": names[1], "chances": [50.0, 100.0]},
        ],
        "players": [
            {"seat": s, "name": n, "summary": f"{n}.", "costliest": [], "decisions": []}
            for s, n in enumerate(names)
        ],
        "seconds": 0.1,
    }


@pytest.mark.parametrize(("lang", "size"), [("sv", "phone"), ("fi", "desktop")])
def test_the_viewers_own_analysis_comes_first(
    browser: Any, server: Server, lang: str, size: str
) -> None:
    locale = {"sv": "sv-SE", "fi": "fi-FI"}.get(lang, "en-GB")
    context = browser.new_context(viewport=VIEWPORTS[size], locale=locale)
    w = Watched(context)
    page = w.page
    # The viewer (this browser) holds the second seat.
    v = _played(
        context, server, lang, [{"name": "Bot", "bot": "random"}, {"name": "Ann", "here": True}]
    )
    url = f"{server.url}/api/games/{v['id']}/analysis"
    # The analysis is a job (``{"pending": true}`` meanwhile): asked twice a second,
    # within the analysis' rate limit (a 429 is asked again too).
    real = eventually(
        lambda: context.request.get(url).json(),
        lambda a: "players" in a,
        timeout=120,
        interval=0.5,
        what="the analysis",
    )
    (ann,) = real["players"]
    assert ann["seat"] == 1
    # As if the other seat were a person too (a friend's game): both analysed, in seat order.
    other = dict(ann, seat=0, name="Bo", bot=False)
    both = dict(real, players=[other, ann])
    page.route(
        "**/analysis?*",
        lambda route: route.fulfill(body=json.dumps(both), content_type="application/json"),
    )
    win = _win_analysis(["Bo", "Ann"])
    page.route(
        "**/win-analysis?*",
        lambda route: route.fulfill(body=json.dumps(win), content_type="application/json"),
    )
    page.goto(f"{server.url}/g/{v['id']}")
    page.locator("#analysis .analysis-player").first.wait_for()
    page.locator("#win-analysis .win-player").first.wait_for()
    seats = page.locator("#analysis .analysis-player").evaluate_all(
        "els => els.map(e => e.dataset.seat)"
    )
    assert seats == ["1", "0"]
    win_seats = page.locator("#win-analysis .win-player").evaluate_all(
        "els => els.map(e => e.dataset.seat)"
    )
    assert win_seats == ["1", "0"]
    assert_accessible(page)
    w.assert_clean()
    context.close()
