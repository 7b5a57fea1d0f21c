"""The browser of the e2e tests: Debian's chromium driven by Playwright (never a browser
that Playwright downloads), shared by the browser modules a worker runs one after the
other (:data:`CHROMIUM_SHARED`).  Its headless shell (Debian's
``chromium-headless-shell``, what Playwright itself runs headless) serves every module
but those marked ``full_chromium``, which need what only the full chromium has (the
Push API of the account page's notifications).

Not one for the whole session: Playwright's sync API keeps an asyncio event loop running
in the main thread while it is started, and a test that calls ``asyncio.run`` (Textual's
Pilot, the store's async tests) would fail with "cannot be called from a running event
loop".  So the shared chromium is stopped before the first test outside tests/e2e
(``tests/conftest.py`` calls :meth:`SharedChromium.stop`) and started again by the next
browser module.  With xdist's ``worksteal`` a worker runs the browser modules as one
block, so the 25 modules launch chromium two or three times, not 25 (about a CPU-second
each: Playwright's driver and chromium's start; the pages cost far more).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
"""Debian's full chromium: for the modules marked ``full_chromium`` (the Push API)."""
HEADLESS_SHELL = shutil.which("chromium-headless-shell") or "/usr/bin/chromium-headless-shell"
"""Debian's chromium-headless-shell: the same engine without the browser's own user
interface (Playwright's default for headless runs), for every other browser module.
The whole of tests/e2e took a quarter less CPU in it (24 tests of test_browser.py:
111 -> 84 CPU-s of the machine, chromium's processes, the servers' and the test's)."""


class SharedChromium:
    """One headless chromium of each kind (and one Playwright driver) for the browser
    modules that run one after the other in this process."""

    def __init__(self) -> None:
        self._playwright: Any = None
        self._browsers: dict[str, Any] = {}

    def get(self, executable: str = HEADLESS_SHELL) -> Any:
        """The running chromium of ``executable``, launched (again) when there is none
        or it has gone."""
        browser = self._browsers.get(executable)
        if browser is not None and browser.is_connected():
            return browser
        if not Path(executable).exists():
            package = Path(executable).name
            pytest.fail(
                f"Debian's {package} is needed (apt-get install {package}; see scripts/test)"
            )
        if self._playwright is None:
            from playwright.sync_api import sync_playwright

            self._playwright = sync_playwright().start()
        browser = self._playwright.chromium.launch(
            executable_path=executable, args=["--no-sandbox"]
        )
        self._browsers[executable] = browser
        return browser

    def stop(self) -> None:
        """Close every chromium and stop the driver (its event loop with it); idempotent."""
        browsers, playwright = list(self._browsers.values()), self._playwright
        self._browsers, self._playwright = {}, None
        try:
            for browser in browsers:
                if browser.is_connected():
                    browser.close()
        finally:
            if playwright is not None:
                playwright.stop()


CHROMIUM_SHARED = SharedChromium()
"""This process's chromium for the browser modules."""


@pytest.fixture(autouse=True)
def _axe_once_per_size(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whether this test's :func:`tests.e2e.helpers.assert_accessible` runs axe-core,
    worked out once for the test (undone at its end)."""
    from tests.e2e import helpers

    monkeypatch.setattr(helpers, "AXE_LEFT_ELSEWHERE", helpers.axe_covered_elsewhere(request.node))


@pytest.fixture(scope="module")
def browser(request: pytest.FixtureRequest) -> Iterator[Any]:
    """Chromium, headless, with the app's Content-Security-Policy in force: its headless
    shell, or the full chromium for a module marked ``full_chromium``.  Every test
    makes its own context (cookies, storage and viewport of its own), so modules share
    the browser and nothing else: the contexts a module leaves open are closed at its
    end, as its own browser's close did (their pages would tick and hold sockets)."""
    full = request.node.get_closest_marker("full_chromium") is not None
    shared = CHROMIUM_SHARED.get(CHROMIUM if full else HEADLESS_SHELL)
    yield shared
    if shared.is_connected():
        for context in shared.contexts:
            context.close()
