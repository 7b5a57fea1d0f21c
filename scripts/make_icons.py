"""Render the app icon (static/icon.svg) to the PNGs a phone's home screen needs.

Chrome installs a web app only with PNG icons of 192 and 512 pixels; they are drawn
once from the SVG by Debian's chromium and committed.  Run by hand after changing
the SVG: ``.venv/bin/python scripts/make_icons.py``.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

STATIC = Path(__file__).resolve().parent.parent / "src" / "yatzy" / "web" / "static"


def main() -> None:
    """Write icon-192.png and icon-512.png beside icon.svg."""
    svg = (STATIC / "icon.svg").read_text()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        for size in (192, 512):
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(
                "<style>html,body{margin:0;background:transparent}svg{display:block;"
                f"width:{size}px;height:{size}px}}</style>{svg}"
            )
            page.screenshot(path=str(STATIC / f"icon-{size}.png"), omit_background=True)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
