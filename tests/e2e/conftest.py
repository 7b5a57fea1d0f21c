"""The browser of the e2e tests: Debian's chromium driven by Playwright (never a browser
that Playwright downloads), one per test module.  Not one per session: Playwright's sync
API keeps an asyncio event loop running in the main thread while it is started, and every
later test of the process that calls ``asyncio.run`` (Textual's Pilot, the store's async
tests) would fail with "cannot be called from a running event loop"."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium, headless, with the app's Content-Security-Policy in force."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail("Debian's chromium is needed (apt-get install chromium; see scripts/test)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()
