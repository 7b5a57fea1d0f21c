"""The browser of the e2e tests: Debian's chromium driven by Playwright (never a browser
that Playwright downloads), shared by the browser modules a worker runs one after the
other (:data:`CHROMIUM_SHARED`).

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


class SharedChromium:
    """One headless chromium (and its Playwright driver) for the browser modules that
    run one after the other in this process."""

    def __init__(self) -> None:
        self._playwright: Any = None
        self._browser: Any = None

    def get(self) -> Any:
        """The running chromium, launched (again) when there is none or it has gone."""
        if self._browser is not None and self._browser.is_connected():
            return self._browser
        self.stop()
        from playwright.sync_api import sync_playwright

        if not Path(CHROMIUM).exists():
            pytest.fail("Debian's chromium is needed (apt-get install chromium; see scripts/test)")
        self._playwright = sync_playwright().start()
        self._browser = self._playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox"]
        )
        return self._browser

    def stop(self) -> None:
        """Close chromium and stop the driver (its event loop with it); idempotent."""
        browser, playwright = self._browser, self._playwright
        self._browser = self._playwright = None
        try:
            if browser is not None and browser.is_connected():
                browser.close()
        finally:
            if playwright is not None:
                playwright.stop()


CHROMIUM_SHARED = SharedChromium()
"""This process's chromium for the browser modules."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium, headless, with the app's Content-Security-Policy in force.  Every test
    makes its own context (cookies, storage and viewport of its own), so modules share
    the browser and nothing else: the contexts a module leaves open are closed at its
    end, as its own browser's close did (their pages would tick and hold sockets)."""
    shared = CHROMIUM_SHARED.get()
    yield shared
    if shared.is_connected():
        for context in shared.contexts:
            context.close()
