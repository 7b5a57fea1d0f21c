"""Make docs/screenshot.png: a person and a bot some turns into a Yatzy game.

Run by hand (needs Debian's chromium): ``.venv/bin/python docs/make_screenshot.py``.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.e2e.support import Server  # noqa: E402


def main() -> None:
    """Play six turns through the page, keep two dice, and take the picture."""
    db = Path(tempfile.mkdtemp()) / "shot.db"
    with Server(f"sqlite:///{db}", bot_delay=0.05) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 900, "height": 1300})
        page.goto(server.url + "/?lang=en")
        page.locator("#seats li").nth(0).locator(".seat-name").fill("Anna")
        page.locator("#create-btn").click()
        page.wait_for_url("**/g/*")
        turns = 0
        while True:
            page.wait_for_function("document.getElementById('game').dataset.mine === '1'")
            version = page.get_attribute("#game", "data-version")
            page.keyboard.press("r")
            page.wait_for_function(
                "([v]) => document.getElementById('game').dataset.version !== v", arg=[version]
            )
            if turns == 6:
                break
            texts = page.locator("button.choose").all_inner_texts()
            best = max(range(len(texts)), key=lambda i: int(texts[i]))
            page.locator("button.choose").nth(best).click()
            page.wait_for_function(
                "document.getElementById('game').dataset.mine === '0'"
                " || !document.querySelector('button.choose')"
            )
            turns += 1
        page.keyboard.press("1")
        page.keyboard.press("3")
        page.screenshot(path=str(ROOT / "docs" / "screenshot.png"), full_page=True)
        browser.close()


if __name__ == "__main__":
    main()
