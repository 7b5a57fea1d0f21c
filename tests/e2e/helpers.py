"""What the browser tests share: a page that records console errors, axe-core checks,
the page's words, and a player that plays through the game screen as a person would
(mouse or keyboard, reading only what the page shows)."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from yatzy.web.i18n import ui_strings

AXE = Path(__file__).with_name("vendor") / "axe.min.js"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE}


def words(lang: str, key: str, **values: Any) -> str:
    """The page's word ``key`` in ``lang``, with its ``{placeholders}`` filled in."""
    text = ui_strings(lang)[key]  # type: ignore[arg-type]
    for name, value in values.items():
        text = text.replace("{" + name + "}", str(value))
    return text


def header_link(page: Any, selector: str) -> Any:
    """The header's link ``selector`` (e.g. ``'.langs a[lang="sv"]'``), ready to click as a
    person would: on a phone the links and languages sit in the Menu popover, so it is
    opened first; on a laptop they are in the row."""
    menu = page.locator("header .menu-button")
    if menu.is_visible():
        menu.click()
    return page.locator(selector)


class Watched:
    """A browser page whose console errors and uncaught exceptions are collected."""

    def __init__(self, context: Any) -> None:
        self.page = context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(f"exception: {e}"))
        self.page.on(
            "console",
            lambda m: self.errors.append(f"console: {m.text}") if m.type == "error" else None,
        )

    def assert_clean(self) -> None:
        """No console error and no uncaught exception so far."""
        assert self.errors == [], self.errors


def axe_violations(page: Any) -> list[str]:
    """axe-core's violations on the page as it is now (one line each)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text())  # evaluated by the driver: no CSP applies
    result = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => v.id + ': ' + v.help + ' — ' + v.nodes.map(n => n.target.join(' ')).join(', '))"
    )
    return list(result)


AXE_LEFT_ELSEWHERE = False
"""Whether the running browser test leaves its axe-core checks to another language's
run (:func:`axe_covered_elsewhere`, worked out once per test by tests/e2e/conftest.py)."""


def axe_covered_elsewhere(item: Any) -> bool:
    """Whether the browser test ``item`` is the English run of a flow that another
    language also runs at the same size (its ``lang`` and ``size`` parameters; a test
    without ``size`` keeps one size).  axe-core's rules read the page's markup, roles,
    names and colours, which are the same in every language; only its texts differ,
    and every text is translated with its fields (tests/i18n).  So the English run
    leaves its checks to the other language's run at its size: each check costs
    chromium about 0.3 CPU-s (the 650 KB script compiled in the page, then the run),
    and the English runs made a quarter of the suite's 240.  Tests that run only in
    English, or only English at their size, keep theirs."""
    params = getattr(getattr(item, "callspec", None), "params", {})
    if params.get("lang") != "en":
        return False
    for other in item.session.items:
        theirs = getattr(getattr(other, "callspec", None), "params", {})
        if (
            other.parent is item.parent
            and getattr(other, "originalname", None) == item.originalname
            and theirs.get("lang") not in (None, "en")
            and theirs.get("size") == params.get("size")
        ):
            return True
    return False


def assert_accessible(page: Any) -> None:
    """Zero axe-core violations (unless another language's run of this flow checks the
    same page at this size: :func:`axe_covered_elsewhere`)."""
    if AXE_LEFT_ELSEWHERE:
        return
    violations = axe_violations(page)
    assert violations == [], json.dumps(violations, indent=1, ensure_ascii=False)


def version(page: Any) -> int:
    """The game's version the page shows."""
    return int(page.get_attribute("#game", "data-version") or 0)


def wait_change(page: Any, seen: int, timeout: float = 20_000) -> None:
    """Until the page shows a version after ``seen`` (or the game is over).  The
    game's last write, which the page holds with Undo until the player ends the game,
    is sent as the player does: End the game."""
    changed = (
        "([v]) => Number(document.getElementById('game').dataset.version) > v"
        " || !document.getElementById('winner').hidden"
    )
    held = " || !document.getElementById('end-game').hidden"
    page.wait_for_function(changed + held, arg=[seen], timeout=timeout)
    if page.locator("#end-game").is_visible():
        page.locator("#end-game").click()
        page.wait_for_function(changed, arg=[seen], timeout=timeout)


SETTLED = "() => Promise.allSettled(document.getAnimations().map(a => a.finished))"
"""A script that waits until every animation of the page has ended: ``allSettled``, as
an animation cancelled meanwhile (the page drew the dice anew) rejects its ``finished``
with an AbortError."""

BOT_WAIT = 180_000
"""Milliseconds a bot's turn may take in these tests: in a fresh server of a fresh
checkout its first move compiles the strategy kernels (numba) and solves its table,
which takes tens of seconds on a loaded two-core machine (later moves take
milliseconds)."""


def wait_mine(page: Any, timeout: float = BOT_WAIT) -> bool:
    """Until this page's player is to act; False when the game ended first.  A
    computer that keeps waiting on this page's write (against the computer it waits
    for the person's next action: Go on) is told to go on; a Go on that shows only
    while the computer is about to move anyway is left alone."""
    deadline = time.monotonic() + timeout / 1000
    condition = (
        "document.getElementById('game').dataset.mine === '1'"
        " || !document.getElementById('winner').hidden"
        " || !document.getElementById('handover').hidden"
    )
    while True:
        try:
            page.wait_for_function(condition, timeout=GO_ON_AFTER)
            return not page.locator("#winner").is_visible()
        except PlaywrightTimeout:
            if time.monotonic() > deadline:
                raise
        go_on = page.locator("#go-on")
        if go_on.is_visible():
            go_on.click()
            go_on.wait_for(state="hidden", timeout=timeout)


GO_ON_AFTER = 1500
"""Milliseconds :func:`wait_mine` waits before it presses a Go on still shown."""


def focus_is_in_play(page: Any) -> bool:
    """Whether the keyboard focus is somewhere useful (never the page's body)."""
    return bool(page.evaluate("document.activeElement && document.activeElement !== document.body"))


def best_box(page: Any) -> tuple[str, int]:
    """The open box the page previews as scoring most: (box id, points)."""
    options = page.eval_on_selector_all(
        "button.choose",
        "bs => bs.map(b => [b.dataset.box, Number(b.textContent.replace(/[^0-9-]/g, ''))])",
    )
    assert options, "no box to choose"
    box, points = max(options, key=lambda o: (o[1], o[0]))
    return str(box), int(points)


def score_by_keyboard(page: Any, box: str) -> int:
    """Write ``box`` with its letter key and Enter; the keystrokes it took."""
    letter = page.locator(f'tr[data-row="{box}"] kbd.key').text_content() or ""
    assert re.fullmatch(r"[A-Z]", letter), f"box {box} shows no key"
    seen = version(page)
    page.keyboard.press(letter.lower())
    assert page.evaluate("document.activeElement.dataset.box") == box
    page.keyboard.press("Enter")
    confirm_if_asked(page)
    wait_change(page, seen)
    return 2


def confirm_if_asked(page: Any) -> None:
    """Say yes to the zero-confirmation dialog if it opened."""
    page.wait_for_timeout(30)
    if page.locator("#confirm[open]").count():
        page.locator("#confirm-yes").click()


def roll(page: Any, key: str | None = "r") -> None:
    """Roll with a key (``r`` or a space) or, with ``key=None``, the Roll button."""
    seen = version(page)
    if key is None:
        page.locator("#roll").click()
    else:
        page.keyboard.press(key)
    wait_change(page, seen)


def play_turn(page: Any, *, keyboard: bool = True, rolls: int = 2) -> None:
    """One turn: roll, keep the first die, roll again, write the best box."""
    roll(page, "r" if keyboard else None)
    for _ in range(rolls - 1):
        if not page.locator("#roll").is_enabled():
            break
        page.keyboard.press("1")
        roll(page, " " if keyboard else None)
    box, _ = best_box(page)
    if keyboard:
        score_by_keyboard(page, box)
    else:
        seen = version(page)
        page.locator(f'button.choose[data-box="{box}"]').first.click()
        confirm_if_asked(page)
        wait_change(page, seen)


def play_to_the_end(page: Any, *, keyboard: bool = True, max_turns: int = 40) -> None:
    """Play this page's seats until the winner is shown."""
    for _ in range(max_turns):
        if not wait_mine(page):
            return
        if page.locator("#handover").is_visible():
            page.locator("#handover-go").click()
        play_turn(page, keyboard=keyboard, rolls=1)
    page.wait_for_selector("#winner:not([hidden])", timeout=30_000)


def scrolling_problems(page: Any) -> list[str]:
    """What keeps the turn from fitting the first screen: each die, Roll or box to
    choose that lies outside it or under something else (the sticky tray must not
    hide a box), or a page scrolled away from its top; empty when it all fits.
    Measured once the dice have landed (their tumble turns and scales them)."""
    page.evaluate(SETTLED)
    problems = page.evaluate(
        """() => {
        const h = window.innerHeight, w = window.innerWidth;
        const shown = [...document.querySelectorAll('.die, #roll, button.choose')]
          .filter(e => e.offsetParent !== null);
        const found = [];
        if (window.scrollY !== 0) found.push(`scrolled to ${window.scrollY}`);
        if (shown.length === 0) found.push('no dice, Roll or boxes shown');
        for (const e of shown) {
          const r = e.getBoundingClientRect();
          const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          const name = e.id || e.dataset.box || e.className;
          if (r.top < 0 || r.bottom > h || r.left < 0 || r.right > w)
            found.push(`${name} at ${Math.round(r.left)},${Math.round(r.top)}-`
              + `${Math.round(r.right)},${Math.round(r.bottom)} outside ${w}x${h}`);
          else if (top === null || (top !== e && !e.contains(top)))
            found.push(`${name} under ${top ? (top.id || top.className) : 'nothing'}`);
        }
        return found;
    }"""
    )
    return [str(p) for p in problems]


def rewrite_views(page: Any, gid: str, change: Any) -> None:
    """Every view of game ``gid`` the page gets (its requests and its live socket)
    passed through ``change`` first: what a server in another state would send."""

    def view(route: Any) -> None:
        if route.request.method != "GET":
            route.continue_()
            return
        response = route.fetch()
        data = response.json()
        change(data)
        route.fulfill(response=response, json=data)

    def socket(ws: Any) -> None:
        live = ws.connect_to_server()

        def from_server(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "state":
                change(data["game"])
            ws.send(json.dumps(data))

        live.on_message(from_server)

    page.route(re.compile(rf".*/api/games/{gid}(\?.*)?$"), view)
    page.route_web_socket(re.compile(rf".*/api/games/{gid}/ws.*"), socket)
