"""The analysis in win chance in a real browser (Debian's chromium), on a phone: a
finished game against the computer shows, after the points' analysis, the chart of
both players' chances turn by turn (an image with a summary for screen readers and
its numbers in a hidden table) and Ann's decisions with the chance lost beside the
points; axe-core finds no violation and the console no error."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import PHONE, Watched, assert_accessible, words
from tests.e2e.support import Server, next_action
from tests.e2e.test_insight_browser import ACT, CREATE, GET


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with Server(
        f"sqlite:///{tmp_path / 'e2e.db'}",
        bot_delay=0.0,
        log=tmp_path / "server.log",
        args=["--win-budget", "0.02"],
    ) as s:
        yield s


def _play_out(page: Any, gid: str) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while True:
        v = page.evaluate(GET, gid)
        if v["finished"]:
            return dict(v)
        assert time.monotonic() < deadline, "the game did not end"
        if v["players"][v["turn"]["seat"]]["bot"]:
            time.sleep(0.05)
            continue
        assert page.evaluate(ACT, [gid, next_action(v), v["version"]]) == 200


def test_the_chart_of_win_chances_after_the_game(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    shots = Path(os.environ.get("YATZY_E2E_SHOTS", tmp_path / "shots"))
    shots.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport=PHONE, locale="sv-SE")
    w = Watched(context)
    page = w.page
    page.goto(server.url + "/?lang=sv")
    body = {
        "rules": "yatzy+forced",
        "lang": "sv",
        "seats": [{"name": "Ann", "here": True}, {"name": "Dator", "bot": "greedy"}],
    }
    gid = page.evaluate(CREATE, body)["id"]
    done = _play_out(page, gid)
    page.goto(f"{server.url}/g/{gid}")
    page.locator("#winner").wait_for()
    chart = page.locator("#win-analysis svg.win-chart[role='img']")
    chart.wait_for(timeout=180_000)
    assert page.locator("#win-analysis h3").inner_text() == words("sv", "wa_analysis")
    label = chart.get_attribute("aria-label")
    assert label.startswith("Chans att vinna tur för tur: Ann: "), label
    assert chart.locator("polyline.win-line").count() == 2
    rows = page.locator("#win-analysis figure table.sr tbody tr")
    assert rows.count() == 31  # before each of the 30 turns, and the end
    # along the rounds played (0-15), not the game's 30 turns
    assert chart.locator("text.axis").text_content() == words("sv", "wa_rounds")
    assert [t for t in chart.locator("text.tick").all_text_contents() if "%" not in t] == [
        "0",
        "8",
        "15",
    ]
    last = rows.nth(30).locator("td").all_inner_texts()
    ann_won = done["totals"][0] > done["totals"][1]
    if done["totals"][0] != done["totals"][1]:
        assert last == (
            ["100,0\u00a0%", "0,0\u00a0%"] if ann_won else ["0,0\u00a0%", "100,0\u00a0%"]
        ), last
    summary = page.locator("#win-analysis .win-summary").inner_text()
    assert summary.startswith("Ann"), summary
    # The chart's data table for screen readers never widens the page on a phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # Every decision, the points and the chance lost side by side, behind a disclosure.
    page.locator("#win-analysis details.win-all summary").click()
    table = page.locator("#win-analysis table.win-decisions")
    table.wait_for()
    assert table.locator("tbody tr").count() == 30
    heads = table.locator("thead th").all_inner_texts()
    assert words("sv", "wa_points") in heads and words("sv", "wa_change") in heads
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert_accessible(page)
    page.locator("#win-analysis").screenshot(path=str(shots / "win-analysis-sv-phone.png"))
    w.assert_clean()
    context.close()
