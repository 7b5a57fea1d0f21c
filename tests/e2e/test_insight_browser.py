"""Hints, the post-game analysis and the history in a real browser (Debian's chromium).

A Swedish game with hints: the hint lists its options in words, the best first,
and pointing at an option marks the dice it keeps; at the end the page says the
analysis is being computed, then shows it with the chart (an image with a
summary for screen readers and its numbers in a hidden table).  The game is
played to its end through the page's own fetch (its cookies hold the seat): the
flows of play themselves are the other browser tests' subject.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.support import Server, next_action
from tests.helpers import eventually
from yatzy.web.prepare import hint_preparing_words

CREATE = """async (body) => {
  const r = await fetch('/api/games', {method: 'POST',
    headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
  return await r.json();
}"""
GET = "async (id) => (await fetch('/api/games/' + id)).json()"
ACT = """async ([id, action, version]) => {
  const r = await fetch('/api/games/' + id + '/actions', {method: 'POST',
    headers: {'Content-Type': 'application/json'}, body: JSON.stringify({action, version})});
  return r.status;
}"""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with Server(
        f"sqlite:///{tmp_path / 'e2e.db'}", bot_delay=0.0, log=tmp_path / "server.log"
    ) as s:
        yield s


def _hint_ready(page: Any, gid: str) -> None:
    eventually(
        lambda: (page.evaluate(GET, gid)["turn"] or {}).get("hint"),
        lambda hint: hint and not hint["pending"],
        timeout=300,
        interval=0.3,
        what="the strategy's hint",
    )


def test_hints_in_words_and_the_analysis_chart(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    shots = Path(os.environ.get("YATZY_E2E_SHOTS", tmp_path / "shots"))
    shots.mkdir(parents=True, exist_ok=True)
    page = browser.new_page(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(server.url + "/?lang=sv")
    body = {"rules": "yatzy", "lang": "sv", "hints": True, "seats": [{"name": "Ann", "here": True}]}
    gid = page.evaluate(CREATE, body)["id"]
    _hint_ready(page, gid)
    page.goto(f"{server.url}/g/{gid}")
    page.locator("#roll").click()
    page.locator(".die").first.wait_for()
    page.wait_for_function("document.querySelectorAll('#hint .hint-option').length >= 3")
    options = page.locator("#hint .hint-option")
    assert 3 <= options.count() <= 5
    texts = [options.nth(i).locator(".hint-text").inner_text() for i in range(options.count())]
    assert all(t.startswith(("Behåll", "Slå", "Skriv", "Stryk")) for t in texts), texts
    assert not any("{" in t or "_" in t for t in texts), texts
    head = page.locator("#hint .hint-head").inner_text()
    assert "förväntat slutresultat med bästa spel" in head
    assert "bäst" in options.first.inner_text()
    losses = [options.nth(i).locator(".hint-loss").inner_text() for i in range(1, options.count())]
    assert all(x == "lika bra" or (x.startswith("−") and x.endswith(" p")) for x in losses)
    keeping = page.locator("#hint .hint-option[data-keep]:not([data-keep=''])")
    if keeping.count():
        keeping.first.hover()
        kept = keeping.first.get_attribute("data-keep").split(",")
        marked = page.locator(".die.hinted")
        assert sorted(marked.evaluate_all("ds => ds.map(d => d.dataset.pos)")) == sorted(kept)
    page.screenshot(path=str(shots / "insight-hint-sv.png"), full_page=True)

    # The first answer of /analysis says "being computed": the page must say so.
    answered: list[int] = []

    def analysis(route: Any) -> None:
        answered.append(1)
        if len(answered) == 1:
            route.fulfill(status=200, content_type="application/json", body='{"pending": true}')
        else:
            route.continue_()

    page.route("**/api/games/*/analysis*", analysis)
    for _ in range(200):
        v = page.evaluate(GET, gid)
        if v["finished"]:
            break
        assert page.evaluate(ACT, [gid, next_action(v), v["version"]]) == 200
    page.locator("#winner").wait_for()
    page.get_by_text("Analysen räknas…").wait_for(timeout=10_000)
    chart = page.locator("#analysis svg.trajectory[role='img']")
    chart.wait_for(timeout=120_000)
    label = chart.get_attribute("aria-label")
    assert label.startswith("Förväntat slutresultat för Ann tur för tur"), label
    assert chart.locator("polyline.expected").count() == 1
    assert chart.locator("circle.expected").count() == 15
    rows = page.locator("#analysis table.sr tbody tr")
    assert rows.count() == 16  # 15 turns and the final score
    summary = page.locator("#analysis .analysis-summary").inner_text()
    assert "av 30 beslut var de bästa" in summary, summary
    for item in page.locator("#analysis .costliest li").all_inner_texts():
        assert item.startswith("Tur ") and "Bättre:" in item, item
    page.screenshot(path=str(shots / "insight-analysis-sv.png"), full_page=True)

    # The history shows the game in words and the statistics with their chart.
    page.goto(server.url + "/history?lang=sv")
    page.locator("#stats svg.bars[role='img']").wait_for()
    row = page.locator("#stats tbody tr[data-rules='yatzy']")
    cells = row.locator("td").all_inner_texts()
    final = page.evaluate(GET, gid)["totals"][0]
    assert cells[0] == "1" and cells[2] == str(final) and cells[-1] == str(final), cells
    assert page.get_by_role("link", name="Visa spelet").count() == 1
    page.screenshot(path=str(shots / "insight-history-sv.png"), full_page=True)
    assert not problems, json.dumps(problems)


def test_a_hint_being_worked_out_comes_by_itself(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 24: on a fresh install the first hint says it is being worked out; it used
    # to stay so until the player acted (nothing asked again), so a player waiting for
    # it waited for ever.  The page now asks again while it is pending.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "fresh-cache"))  # no tables yet
    with Server(
        f"sqlite:///{tmp_path / 'e2e.db'}", bot_delay=0.0, log=tmp_path / "server.log"
    ) as server:
        page = browser.new_page(viewport={"width": 390, "height": 844}, bypass_csp=True)
        page.goto(server.url + "/?lang=fi")
        body = {
            "rules": "yatzy",
            "lang": "fi",
            "hints": True,
            "seats": [{"name": "Aino", "here": True}],
        }
        gid = page.evaluate(CREATE, body)["id"]
        page.goto(f"{server.url}/g/{gid}")
        page.locator("#roll").click()
        page.locator(".die").first.wait_for()
        hint = page.locator("#hint")
        if hint.locator(".hint-option").count():
            pytest.skip("the table was built before the first look (nothing was pending)")
        # what is being prepared, said in words (web.hint_preparing), not "Working out
        # the hints …" for minutes
        said = hint_preparing_words("fi")
        assert said in hint.inner_text()
        page.wait_for_function(
            "document.querySelectorAll('#hint .hint-option').length >= 3", timeout=300_000
        )
        assert said not in hint.inner_text()
