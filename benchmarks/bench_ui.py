"""Measure what a player feels of the web app's pages, in Debian's chromium.

Prints (goals in brackets):
- clicks from the start page to the first roll against the computer (≤ 2);
- keystrokes to write a box, the most over every box of a whole game (≤ 2);
- scrolling needed in a 5-dice turn at 390×844, in pixels (none);
- JS + CSS each page loads, uncompressed (< 150 kB);
- time to first contentful paint over loopback, median of repeated loads (< 300 ms).

Run: ``.venv/bin/python benchmarks/bench_ui.py [--loads 10]`` (a minute or so).
Its pages bypass the app's Content-Security-Policy: the test helpers it shares wait with
``wait_for_function``, which evaluates with eval (tests/e2e/test_csp.py checks the policy).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.e2e.helpers import (  # noqa: E402
    DESKTOP,
    PHONE,
    best_box,
    confirm_if_asked,
    version,
    wait_change,
    wait_mine,
)
from tests.e2e.support import Server  # noqa: E402


def clicks_to_first_roll(browser: Any, url: str) -> int:
    """Clicks from the start page until dice are on the table, against the computer."""
    page = browser.new_page(viewport=DESKTOP, bypass_csp=True)
    page.goto(url + "/?lang=en")
    clicks = 0
    page.locator("#play-bot").click()
    clicks += 1
    page.wait_for_url("**/g/*")
    wait_mine(page)
    seen = version(page)
    page.locator("#roll").click()
    clicks += 1
    wait_change(page, seen)
    assert page.locator(".die").count() == 5
    page.close()
    return clicks


def keystrokes_per_box(browser: Any, url: str) -> tuple[int, int, int]:
    """A solo game written by keyboard, each turn into the box at the other end of
    the sheet from the last: (the most keystrokes one box took, boxes written, zeros
    confirmed — a zero where the dice score elsewhere asks first: two more keys)."""
    page = browser.new_page(viewport=DESKTOP, bypass_csp=True)
    page.goto(url + "/?lang=en")
    page.locator("#play-solo").click()
    page.wait_for_url("**/g/*")
    most = 0
    boxes = 0
    confirmed = 0
    flip = False
    while wait_mine(page, 10_000):
        seen = version(page)
        page.keyboard.press("r")
        wait_change(page, seen)
        options = page.eval_on_selector_all("button.choose", "bs => bs.map(b => b.dataset.box)")
        box = options[-1] if flip else options[0]
        flip = not flip
        letter = (page.locator(f'tr[data-row="{box}"] kbd.key').text_content() or "").lower()
        seen = version(page)
        strokes = 0
        page.keyboard.press(letter)
        strokes += 1
        page.keyboard.press("Enter")
        strokes += 1
        page.wait_for_timeout(30)
        if page.locator("#confirm[open]").count():
            page.keyboard.press("Shift+Tab")  # from No back to Yes
            page.keyboard.press("Enter")
            confirmed += 1
        wait_change(page, seen)
        most = max(most, strokes)
        boxes += 1
        if page.locator("#winner").is_visible():
            break
    page.close()
    return most, boxes, confirmed


def phone_scroll(browser: Any, url: str) -> int:
    """Pixels a player must scroll on a 390×844 phone to roll, keep and write."""
    page = browser.new_page(viewport=PHONE, bypass_csp=True)
    page.goto(url + "/?lang=sv")
    page.locator("#play-bot").click()
    page.wait_for_url("**/g/*")
    wait_mine(page)
    worst = 0
    for _ in range(3):
        wait_mine(page)
        seen = version(page)
        page.locator("#roll").click()
        wait_change(page, seen)
        worst = max(worst, _needed_scroll(page))
        box, _ = best_box(page)
        seen = version(page)
        page.locator(f'button.choose[data-box="{box}"]').click()
        confirm_if_asked(page)
        wait_change(page, seen)
    page.close()
    return worst


def _needed_scroll(page: Any) -> int:
    return int(
        page.evaluate(
            """() => {
            const shown = [...document.querySelectorAll('.die, #roll, button.choose')]
              .filter(e => e.offsetParent !== null);
            const tray = document.getElementById('play').getBoundingClientRect();
            let need = window.scrollY;
            for (const e of shown) {
              const r = e.getBoundingClientRect();
              const inTray = e.closest('#play') !== null;
              const limit = inTray ? window.innerHeight : tray.top;  // not under the tray
              need = Math.max(need, Math.ceil(r.bottom - limit), Math.ceil(-r.top));
            }
            return need;
        }"""
        )
    )


def shipped_bytes(browser: Any, url: str) -> dict[str, int]:
    """Uncompressed bytes of JS and CSS each page loads."""
    out: dict[str, int] = {}
    page = browser.new_page(viewport=DESKTOP, bypass_csp=True)
    for name, path in (("start page", "/?lang=en"), ("game page", None)):
        sizes: dict[str, int] = {}

        def seen(response: Any, sizes: dict[str, int] = sizes) -> None:
            kind = response.request.resource_type
            if kind in ("script", "stylesheet"):
                sizes[response.url] = len(response.body())

        page.on("response", seen)
        if path is None:
            page.goto(url + "/?lang=en")
            page.locator("#play-solo").click()
            page.wait_for_url("**/g/*")
            page.wait_for_selector("#protocol tbody tr")
        else:
            page.goto(url + path)
        page.wait_for_load_state("networkidle")
        page.remove_listener("response", seen)
        out[name] = sum(sizes.values())
    page.close()
    return out


def first_paint(browser: Any, url: str, loads: int) -> dict[str, float]:
    """Median first contentful paint (ms) of the start page and a game page."""
    page = browser.new_page(viewport=DESKTOP, bypass_csp=True)
    page.goto(url + "/?lang=en")
    page.locator("#play-solo").click()
    page.wait_for_url("**/g/*")
    game = page.url
    out = {}
    for name, target in (("start page", url + "/?lang=en"), ("game page", game)):
        times = []
        for _ in range(loads):
            page.goto(target)
            page.wait_for_selector("main")
            fcp = page.evaluate(
                "new Promise(done => { const e = performance.getEntriesByName("
                "'first-contentful-paint'); if (e.length) done(e[0].startTime); else new "
                "PerformanceObserver(l => done(l.getEntries()[0].startTime)).observe("
                "{type: 'paint', buffered: true}); })"
            )
            times.append(float(fcp))
        out[name] = statistics.median(times)
    page.close()
    return out


def main() -> None:
    """Start a server, measure, print."""
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=10, help="page loads per paint figure")
    args = parser.parse_args()
    db = Path(tempfile.mkdtemp()) / "ui.db"
    with Server(f"sqlite:///{db}", bot_delay=0.0) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        clicks = clicks_to_first_roll(browser, server.url)
        print(f"clicks from the start page to the first roll: {clicks} (goal ≤ 2)")
        most, boxes, confirmed = keystrokes_per_box(browser, server.url)
        print(
            f"keystrokes to write a box: at most {most} over {boxes} boxes (goal ≤ 2);"
            f" {confirmed} of them zeros the dice did not need, confirmed with 2 more"
        )
        scroll = phone_scroll(browser, server.url)
        print(f"scrolling in a 5-dice turn at 390×844: {scroll} px (goal 0)")
        for name, size in shipped_bytes(browser, server.url).items():
            print(f"JS + CSS loaded by the {name}: {size / 1000:.1f} kB uncompressed (< 150 kB)")
        for name, ms in first_paint(browser, server.url, args.loads).items():
            print(f"first contentful paint, {name}: {ms:.0f} ms, median of {args.loads} (< 300 ms)")
        browser.close()


if __name__ == "__main__":
    main()
