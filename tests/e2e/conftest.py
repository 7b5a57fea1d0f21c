"""The browser of the e2e tests: Debian's chromium driven by Playwright (never a browser
that Playwright downloads), one per test process (each xdist worker): every test opens
contexts of its own (cookies, storage, viewport and language), so sharing the browser
shares nothing a test could see, and saves a start of chromium per module."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Chromium, headless, with the app's Content-Security-Policy in force."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail("Debian's chromium is needed (apt-get install chromium; see scripts/test)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()
