"""Real-browser tests: Playwright driving Debian's chromium (never a downloaded browser).

Each test starts ``yatzy serve`` on a fresh SQLite file and plays through the pages
as a person would: mouse and keyboard, no API shortcuts.  Screenshots go to
``$YATZY_E2E_SHOTS`` (default: the test's tmp directory).
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.support import Server

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail("Debian's chromium is needed (apt-get install chromium; see scripts/test)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield _BypassCSP(b)
        b.close()


class _BypassCSP:
    """The browser, its pages' Content-Security-Policy bypassed: Playwright's
    ``wait_for_function`` evaluates its predicate with ``eval``, which the app's
    ``script-src 'self'`` forbids (tests/e2e/test_csp.py checks the policy itself)."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser

    def new_page(self, **kw: Any) -> Any:
        return self._browser.new_page(bypass_csp=True, **kw)

    def new_context(self, **kw: Any) -> Any:
        return self._browser.new_context(bypass_csp=True, **kw)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with Server(
        f"sqlite:///{tmp_path / 'e2e.db'}", bot_delay=0.01, log=tmp_path / "server.log"
    ) as s:
        yield s


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("YATZY_E2E_SHOTS", tmp_path / "shots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _rolls_left(page: Any) -> int:
    m = re.search(r"(\d+)", page.locator("#rolls-left").inner_text() or "")
    return int(m.group(1)) if m else 0


def _version(page: Any) -> str:
    return str(page.get_attribute("#game", "data-version"))


def _wait_change(page: Any, version: str, timeout: float = 15_000) -> None:
    page.wait_for_function(
        "([v]) => document.getElementById('game').dataset.version !== v"
        " || !document.getElementById('winner').hidden",
        arg=[version],
        timeout=timeout,
    )


def play_my_turns(page: Any, *, until_over: bool = True, max_steps: int = 600) -> None:
    """Play this page's seats with mouse and keyboard until the game ends."""
    for _ in range(max_steps):
        if page.locator("#winner").is_visible():
            return
        version = _version(page)
        if page.get_attribute("#game", "data-mine") != "1":
            _wait_change(page, version, timeout=30_000)
            continue
        choose = page.locator("button.choose")
        roll = page.locator("#roll")
        if roll.is_enabled() and (choose.count() == 0 or _rolls_left(page) >= 2):
            if choose.count():
                # keep the first die with the keyboard, then roll with "r"
                page.keyboard.press("1")
                assert page.locator('.die[data-pos="0"]').get_attribute("aria-pressed") == "true"
            page.keyboard.press("r")
        else:
            texts = choose.all_inner_texts()
            values = [int(t) if t.strip().lstrip("-").isdigit() else -1 for t in texts]
            choose.nth(values.index(max(values))).click()
        _wait_change(page, version)
    raise AssertionError("the game did not end")


def test_person_and_bot_play_yatzy_to_the_winner_screen(
    browser: Any, server: Server, shots: Path
) -> None:
    page = browser.new_page(viewport={"width": 900, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/?lang=en")
    # forced order: its strategy table solves in a moment, for the analysis at the end
    page.locator('.opts[data-variant="yatzy"] input[data-opt="forced"]').check()
    page.get_by_role("button", name="Create game").click()
    page.wait_for_url(re.compile(r".*/g/[0-9a-f]{32}$"))
    page.wait_for_selector("#protocol tbody tr")
    assert "starts" in page.locator("#starter").inner_text()  # the roll-off is shown
    page.screenshot(path=str(shots / "start.png"), full_page=True)
    # first turn of the person: roll, keep two dice with the keyboard, roll again
    for _ in range(100):
        if page.get_attribute("#game", "data-mine") == "1":
            break
        _wait_change(page, _version(page), timeout=30_000)
    version = _version(page)
    page.keyboard.press("r")
    _wait_change(page, version)
    page.keyboard.press("2")
    page.keyboard.press("4")
    kept = page.locator('.die[aria-pressed="true"]')
    assert kept.count() == 2
    assert ", kept" in (kept.first.get_attribute("aria-label") or "")
    version = _version(page)
    page.keyboard.press("r")
    _wait_change(page, version)
    assert page.locator("button.choose").count() > 0  # every open box shows its points
    page.screenshot(path=str(shots / "playing.png"))
    # ARIA: the dice are a labelled group; each die says its face and whether it is kept
    play_my_turns(page)
    winner = page.locator("#winner-h")
    assert winner.is_visible() and winner.inner_text().startswith("Winner:")
    totals = page.locator("#protocol tr.total td").all_inner_texts()
    assert len(totals) == 2 and all(t.isdigit() for t in totals)
    # the post-game analysis compares every decision with optimal play
    page.wait_for_selector("#analysis .analysis-summary", timeout=120_000)
    assert "decisions were the best" in page.locator("#analysis").inner_text()
    page.screenshot(path=str(shots / "winner.png"), full_page=True)
    assert errors == []


def test_two_browsers_play_online_maxi(browser: Any, server: Server, shots: Path) -> None:
    alice_ctx = browser.new_context(viewport={"width": 900, "height": 1100})
    bob_ctx = browser.new_context(viewport={"width": 420, "height": 900})  # a phone
    alice, bob = alice_ctx.new_page(), bob_ctx.new_page()
    alice.goto(server.url + "/?lang=sv")
    alice.select_option("#variant", "maxi")
    alice.locator('.opts[data-variant="maxi"] input[data-opt="forced"]').check()
    assert alice.locator("#spec").inner_text() == "maxi+forced"
    seat2 = alice.locator("#seats li").nth(1)
    seat2.locator(".seat-name").fill("Bo")
    seat2.locator(".seat-kind").select_option("")
    seat2.locator(".seat-here").uncheck()
    alice.locator("#create-btn").click()
    alice.wait_for_url(re.compile(r".*/g/[0-9a-f]{32}$"))
    invite = alice.locator("#invite-link").input_value()
    assert "?invite=" in invite
    bob.goto(invite)
    bob.locator("button.join").click()
    bob.wait_for_function("document.getElementById('join').hidden")
    assert "Bo" in bob.locator("#protocol thead").inner_text()
    # Both pages act over their game's WebSocket; Bob's page opened a new one when he
    # took his seat (the seat's cookie comes with a socket's opening request).
    posts: list[str] = []
    for page in (alice, bob):
        page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
        page.wait_for_selector("#game[data-socket=open]")
    # play in turns: whoever is to act moves; the other page follows over the WebSocket
    for _ in range(400):
        if alice.locator("#winner").is_visible():
            break
        mover = alice if alice.get_attribute("#game", "data-mine") == "1" else bob
        if mover.get_attribute("#game", "data-mine") != "1":
            alice.wait_for_timeout(50)
            continue
        version = _version(mover)
        choose = mover.locator("button.choose")
        if choose.count() == 0:
            mover.locator("#roll").click()
        else:
            choose.first.click()
        _wait_change(mover, version)
        other = bob if mover is alice else alice
        other.wait_for_function(
            "([v]) => Number(document.getElementById('game').dataset.version) >= v",
            arg=[int(_version(mover))],
            timeout=5_000,
        )
    assert alice.locator("#winner").is_visible()
    bob.wait_for_selector("#winner:not([hidden])")
    assert alice.locator("#winner-h").inner_text().startswith("Vinnare")
    assert (
        alice.locator("#protocol tr.total td").all_inner_texts()
        == bob.locator("#protocol tr.total td").all_inner_texts()
    )
    assert posts == [], "every action went over the pages' WebSockets"
    alice.screenshot(path=str(shots / "maxi_alice.png"), full_page=True)
    bob.screenshot(path=str(shots / "maxi_bob_phone.png"), full_page=True)


def test_score_pad_refuses_an_impossible_entry(browser: Any, server: Server, shots: Path) -> None:
    page = browser.new_page(viewport={"width": 900, "height": 1000})
    page.goto(server.url + "/?lang=en")
    page.locator("#seats li").nth(1).locator(".seat-remove").click()
    page.locator("#pad").check()
    page.locator("#create-btn").click()
    page.wait_for_url(re.compile(r".*/g/[0-9a-f]{32}$"))
    page.wait_for_selector("#pad-write:not([hidden])")
    version = _version(page)
    page.select_option("#pad-box", "ones")
    page.fill("#pad-points", "7")
    page.locator("#pad-write-btn").click()
    page.wait_for_function("document.getElementById('error').textContent.length > 0")
    assert "not a possible" in page.locator("#error").inner_text()
    assert _version(page) == version
    page.screenshot(path=str(shots / "pad_refused.png"), full_page=True)
    page.fill("#pad-points", "3")
    page.locator("#pad-write-btn").click()
    _wait_change(page, version)
    assert page.locator("#protocol tbody tr").first.locator("td").inner_text() == "3"
    # the final dice of a turn, then the box they score in
    version = _version(page)
    page.fill("#pad-dice-input", "6 6 6 2 2")
    page.locator("#pad-dice-btn").click()
    _wait_change(page, version)
    version = _version(page)
    page.locator('button.choose[data-box="full_house"]').click()
    _wait_change(page, version)
    row = page.locator("#protocol tbody tr", has_text="Full House")
    assert row.locator("td").inner_text() == "22"
