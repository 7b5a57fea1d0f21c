"""The Content-Security-Policy in a real browser: no page breaks it while a game is
played from the start page to the winner screen (Debian's chromium via Playwright).

The policy is enforced here (the other browser tests bypass it for Playwright's
``wait_for_function``, which needs eval), so this test polls from Python instead."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.e2e.support import Server
from tests.helpers import eventually

# Collected before any page script runs (an init script is not subject to the page's CSP).
WATCH = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', e => {
  window.__csp.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + (e.sample || ''));
});
"""


def _violations(page: Any) -> list[str]:
    found: list[str] = page.evaluate("window.__csp || []")
    return found


def _wait_change(page: Any, version: str | None) -> None:
    """Poll from here: ``wait_for_function`` would evaluate its predicate with eval,
    which the policy under test forbids (and reports)."""
    eventually(
        lambda: (
            page.get_attribute("#game", "data-version") != version
            or page.locator("#winner").is_visible()
            or page.locator("#end-game").is_visible()
        ),
        interval=0.01,
        what="a change of the page",
    )


def test_no_csp_violation_while_a_game_is_played(browser: Any, tmp_path: Path) -> None:
    with Server(f"sqlite:///{tmp_path / 'csp.db'}", bot_delay=0.0, log=tmp_path / "s.log") as s:
        context = browser.new_context(viewport={"width": 900, "height": 1000})
        context.add_init_script(WATCH)
        page = context.new_page()
        console: list[str] = []
        page.on(
            "console",
            lambda m: console.append(m.text) if "Content Security Policy" in m.text else None,
        )
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        response = page.goto(s.url + "/?lang=en")
        assert "script-src 'self'" in response.headers["content-security-policy"]
        assert _violations(page) == []
        page.locator("#play-bot").click()  # against the computer, as the start page offers
        page.wait_for_url(re.compile(r".*/g/[0-9a-f]{32}$"))
        page.wait_for_selector("#game[data-socket=open]")
        for _ in range(600):
            if page.locator("#winner").is_visible():
                break
            version = page.get_attribute("#game", "data-version")
            if page.get_attribute("#game", "data-mine") != "1":
                page.wait_for_timeout(20)
                continue
            choose = page.locator("button.choose")
            if choose.count() == 0:
                page.locator("#roll").click()
            else:
                choose.first.click()
                if page.locator("#confirm").is_visible():  # a zero the dice did not need
                    page.locator("#confirm-yes").click()
            _wait_change(page, version)
            if page.locator("#end-game").is_visible():  # the game's last write, held
                page.locator("#end-game").click()
                eventually(lambda: page.locator("#winner").is_visible(), what="the game's end")
        assert page.locator("#winner").is_visible()
        assert _violations(page) == []
        page.goto(s.url + "/history")
        assert _violations(page) == []
        assert console == [] and errors == []
        # the watch itself works: markup with an inline style is reported
        page.evaluate(
            "document.body.insertAdjacentHTML('beforeend', '<b style=\"color:red\">x</b>')"
        )
        for _ in range(100):
            if _violations(page):
                break
            page.wait_for_timeout(50)
        assert any(v.startswith("style-src") for v in _violations(page))
        context.close()


def test_the_api_docs_page_renders_offline_under_the_policy(browser: Any, tmp_path: Path) -> None:
    """``/docs`` draws Swagger UI from this server's files (no CDN: every other origin
    is cut off here) without breaking the policy, and lists the API's operations."""
    with Server(f"sqlite:///{tmp_path / 'docs.db'}", log=tmp_path / "s.log") as s:
        context = browser.new_context()
        context.add_init_script(WATCH)
        page = context.new_page()
        elsewhere: list[str] = []

        def local_only(route: Any) -> None:
            if route.request.url.startswith(s.url):
                route.continue_()
            else:
                elsewhere.append(route.request.url)
                route.abort()

        page.route("**/*", local_only)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        response = page.goto(s.url + "/docs")
        assert "script-src 'self'" in response.headers["content-security-policy"]
        page.wait_for_selector(".swagger-ui .info .title", timeout=30_000)
        assert "yatzy" in page.locator(".swagger-ui .info .title").inner_text()
        page.wait_for_selector(".opblock", timeout=30_000)
        assert page.locator(".opblock").count() >= 12
        actions = "/api/games/{game_id}/actions"
        assert page.locator(".opblock-summary-path", has_text=actions).count()
        assert elsewhere == [] and errors == []
        assert _violations(page) == []
