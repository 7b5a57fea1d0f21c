"""Real-browser tests: Playwright driving Debian's chromium (never a downloaded browser).

Each test starts ``yatzy serve`` on a fresh SQLite file and plays through the pages
as a person would: mouse and keyboard, no API shortcuts.  Every flow runs in Swedish
and Finnish and, between them, at both 1280×800 and 390×844 (English where it differs:
:data:`RUNS`); every page it meets is checked with axe-core (zero violations) and must
log no console error.
Screenshots go to ``$YATZY_E2E_SHOTS`` (default: the test's tmp directory).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import (
    VIEWPORTS,
    Watched,
    assert_accessible,
    best_box,
    confirm_if_asked,
    focus_is_in_play,
    header_link,
    play_to_the_end,
    play_turn,
    roll,
    score_by_keyboard,
    scrolling_problems,
    version,
    wait_change,
    wait_mine,
    words,
)
from tests.e2e.support import Server
from yatzy.web.catalog import DEFAULT_NAMES

GAME_URL = re.compile(r".*/g/[0-9a-f]{32}$")

# Each flow in Swedish and Finnish, at both sizes between them (not the full product):
# Swedish is the default and Finnish has the longest words, the layout's hardest case.
# English, the same pages with the shortest words, runs where it differs: a whole game
# of two on a phone (below), the decimal point of the analyses' figures
# (test_result_first_browser.py, test_win_estimate_browser.py), every phone layout
# (test_phone_browser.py), the language switch, the clock and the viewers' own languages;
# every English text is checked against its fields in tests/i18n.  (Each flow in all
# three languages took 28 English runs more, which showed nothing the other two did not:
# tests/e2e alone 347 -> 305 CPU-s of the machine without them.)
RUNS = [("sv", "phone"), ("fi", "desktop")]
RUNS_PHONE_FIRST = [("sv", "desktop"), ("fi", "phone")]


@pytest.fixture(scope="module")
def browser(browser: Any) -> Any:
    """The conftest's chromium, its pages' CSP bypassed (see :class:`_BypassCSP`)."""
    return _BypassCSP(browser)


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


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the module's flows (each test plays its own games in a browser
    context of its own, so none sees another's); the tests that stop a server or need
    other options start their own."""
    folder = tmp_path_factory.mktemp("e2e")
    with Server(f"sqlite:///{folder / 'e2e.db'}", bot_delay=0.01, log=folder / "server.log") as s:
        yield s


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("YATZY_E2E_SHOTS", tmp_path / "shots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _context(browser: Any, lang: str, size: str) -> Any:
    # the browser's own language: the start page must follow it without ?lang=
    locale = {"sv": "sv-SE", "fi": "fi-FI"}.get(lang, "en-GB")
    return browser.new_context(viewport=VIEWPORTS[size], locale=locale)


def _start(page: Any, server: Server, lang: str) -> None:
    page.goto(server.url + "/")
    assert page.get_attribute("html", "lang") == lang  # from the browser's Accept-Language
    assert_accessible(page)


def _choose_preset(page: Any, preset: str) -> None:
    page.locator(f'input[name="preset"][value="{preset}"]').check()


# -- against the computer -------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "size"), RUNS)
def test_against_the_computer_to_the_end(
    browser: Any, server: Server, shots: Path, lang: str, size: str
) -> None:
    context = _context(browser, lang, size)
    w = Watched(context)
    page = w.page
    _start(page, server, lang)
    text = page.locator("main").inner_text()
    assert "Spec:" not in text and "Player 1" not in text
    levels = page.eval_on_selector_all("#bot-level option", "os => os.map(o => o.value)")
    assert "perfect" not in levels and len(levels) == len(set(levels)) >= 5
    assert page.locator("code").count() == 0
    # two clicks from the start page to the first roll
    page.locator("#play-bot").click()
    page.wait_for_url(GAME_URL)
    assert wait_mine(page)
    if size == "phone":
        # the focus on Roll, in the tray stuck to the screen's bottom, scrolls nothing
        assert page.evaluate("window.scrollY") == 0, "the turn must start at the sheet's top"
    seen = version(page)
    page.locator("#roll").click()
    wait_change(page, seen)
    assert page.locator(".die").count() == 5
    assert focus_is_in_play(page)
    if size == "phone":
        assert scrolling_problems(page) == [], "a 5-dice turn must fit the phone's screen"
    assert_accessible(page)
    page.screenshot(path=str(shots / f"bot_{lang}_{size}.png"))
    # keep two dice by key; the kept dice survive a reload
    page.keyboard.press("2")
    page.keyboard.press("4")
    assert page.locator('.die[aria-pressed="true"]').count() == 2
    if size == "phone":
        assert page.evaluate("window.scrollY") == 0, "a die kept by key must not scroll the sheet"
    label = page.locator(".die.kept").first.get_attribute("aria-label") or ""
    assert words(lang, "kept") in label
    page.reload()
    page.wait_for_selector(".die.kept")
    assert page.locator('.die[aria-pressed="true"]').count() == 2
    roll(page, " ")
    assert page.locator(".die.held").count() == 2  # the kept dice look different
    assert focus_is_in_play(page)
    page.keyboard.press("ArrowDown")  # arrows step through the open boxes
    first_box = page.evaluate("document.activeElement.dataset.box")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.dataset.box") not in (None, first_box)
    box, points = best_box(page)
    assert score_by_keyboard(page, box) == 2
    cell = page.locator(f'tr[data-row="{box}"] td').first
    assert cell.locator(".just").count() == 1  # the cell just written is marked
    assert cell.inner_text().strip() == str(points)
    play_to_the_end(page)
    # The viewer's own result leads (test_result_first_browser), then who won.
    heading = page.locator("#winner-h")
    mine = (
        words(lang, "you_won", points="")[:6],
        words(lang, "you_share_the_win", points="")[:6],
        words(lang, "your_place", points="", place="", count="")[:6],
    )
    assert heading.is_visible() and heading.inner_text().startswith(mine)
    winner_words = (words(lang, "winner_is", players=""), words(lang, "winners_are", players=""))
    assert page.locator("#record").inner_text().startswith(winner_words)
    assert focus_is_in_play(page)
    totals = page.locator("#protocol tr.total td").all_inner_texts()
    assert len(totals) == 2 and all(t.strip().isdigit() for t in totals)
    assert_accessible(page)
    page.screenshot(path=str(shots / f"bot_over_{lang}_{size}.png"), full_page=True)
    # a rematch: the same seats, bot level included, in a new game
    heads = "ths => ths.slice(1).map(th => th.firstChild.textContent)"
    names = page.eval_on_selector_all("#protocol thead th", heads)
    first = page.url
    page.locator("#rematch").click()
    page.wait_for_url(lambda u: u != first and GAME_URL.match(u) is not None)
    page.wait_for_selector("#protocol thead th")
    assert page.eval_on_selector_all("#protocol thead th", heads) == names
    w.assert_clean()
    context.close()


# -- pass and play ----------------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "size"), [*RUNS_PHONE_FIRST, ("en", "phone")])
def test_pass_and_play_for_two(
    browser: Any, server: Server, shots: Path, lang: str, size: str
) -> None:
    context = _context(browser, lang, size)
    w = Watched(context)
    page = w.page
    _start(page, server, lang)
    page.locator('button[data-mode="hotseat"]').click()
    assert page.locator("#setup").is_visible()
    names = [i.input_value() for i in page.locator(".seat-name").all()]
    assert len(names) == 2 and all(n and not n.startswith("Player") for n in names)
    assert_accessible(page)
    page.locator("#start-btn").click()
    page.wait_for_url(GAME_URL)
    assert wait_mine(page)
    first = page.locator("#protocol th.current").inner_text().split("\n")[0].strip()
    # the first player scratches a box where the dice would score: asked first
    roll(page)
    page.locator("#scratch-mode").click()
    assert page.locator("button.choose.scratch").count() > 0
    box = page.locator("button.choose").first.get_attribute("data-box")
    seen = version(page)
    page.locator(f'button.choose[data-box="{box}"]').click()
    if page.locator("#confirm[open]").count():
        assert_accessible(page)
        page.locator("#confirm-yes").click()
    wait_change(page, seen)
    # the device is handed over, and the scratch mode did not stick
    page.wait_for_selector("#handover:not([hidden])")
    second = next(n for n in names if n != first)
    assert page.locator("#handover-h").inner_text() == words(lang, "pass_device", player=second)
    assert first in page.locator("#announce").inner_text()  # what was written is said
    assert_accessible(page)
    page.screenshot(path=str(shots / f"handover_{lang}_{size}.png"))
    page.locator("#handover-go").click()
    assert focus_is_in_play(page)
    roll(page)
    assert page.locator("button.choose.scratch").count() == 0
    assert page.locator("button.choose").count() > 0
    assert page.locator("#scratch-mode").get_attribute("aria-pressed") == "false"
    box, _ = best_box(page)
    seen = version(page)
    page.locator(f'button.choose[data-box="{box}"]').click()
    confirm_if_asked(page)
    wait_change(page, seen)
    assert second in page.locator("#announce").inner_text()
    page.wait_for_selector("#handover:not([hidden])")
    page.locator("#handover-go").click()
    play_turn(page, keyboard=True, rolls=1)
    w.assert_clean()
    context.close()


# -- invite and spectator ---------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "size"), RUNS)
def test_invite_a_friend_and_a_spectator(
    browser: Any, server: Server, shots: Path, lang: str, size: str
) -> None:
    host_ctx = _context(browser, lang, size)
    friend_ctx = _context(browser, lang, "phone" if size == "desktop" else "desktop")
    watcher_ctx = _context(browser, lang, size)
    host, friend, watcher = Watched(host_ctx), Watched(friend_ctx), Watched(watcher_ctx)
    _start(host.page, server, lang)
    host.page.locator("#your-name").fill("Ida")
    host.page.locator('button[data-mode="invite"]').click()
    host.page.locator(".seat-name").nth(1).fill("Bo")
    host.page.locator("#start-btn").click()
    host.page.wait_for_url(GAME_URL)
    links = host.page.locator("#links")
    if not links.get_attribute("open"):
        links.locator("summary").click()  # folded on a phone
    invite = host.page.locator("#invite-link").input_value()
    assert "?invite=" in invite
    host.page.wait_for_function(
        "() => { const i = document.querySelector('img.qr');"
        " return i.complete && i.naturalWidth > 0; }"
    )
    assert host.page.locator("#waiting-join").inner_text() == words(
        lang, "still_to_join", players="Bo"
    )
    assert_accessible(host.page)
    host.page.screenshot(path=str(shots / f"invite_{lang}_{size}.png"))
    # the friend joins through the link
    friend.page.goto(invite)
    friend.page.locator("button.join").click()
    friend.page.wait_for_function("document.getElementById('join').hidden")
    host.page.wait_for_selector("#waiting-join[hidden]", state="attached")
    # a spectator follows with the plain link: no Roll, no scratch, but the dice
    watcher.page.goto(host.page.url.split("?")[0])
    watcher.page.wait_for_selector("#protocol thead th")
    posts: list[str] = []
    for page in (host.page, friend.page, watcher.page):
        page.wait_for_selector("#game[data-socket=open]")
        page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    for _ in range(4):
        mover = host.page if host.page.get_attribute("#game", "data-mine") == "1" else friend.page
        if mover.get_attribute("#game", "data-mine") != "1":
            assert wait_mine(friend.page, 15_000) or wait_mine(host.page, 15_000)
            continue
        roll(mover)
        mover.keyboard.press("1")
        mover.keyboard.press("2")
        roll(mover)
        watcher.page.wait_for_function(
            "([v]) => Number(document.getElementById('game').dataset.version) >= v",
            arg=[version(mover)],
        )
        assert watcher.page.locator("#roll").is_hidden()
        assert watcher.page.locator("#scratch-mode").is_hidden()
        assert watcher.page.locator(".die").count() == 5
        assert watcher.page.locator(".die.held").count() == 2  # the kept dice are shown
        box, _ = best_box(mover)
        seen = version(mover)
        mover.locator(f'button.choose[data-box="{box}"]').click()
        confirm_if_asked(mover)
        wait_change(mover, seen)
    assert posts == [], "every action went over the pages' WebSockets"
    assert_accessible(watcher.page)
    assert_accessible(friend.page)
    watcher.page.screenshot(path=str(shots / f"spectator_{lang}_{size}.png"))
    for w in (host, friend, watcher):
        w.assert_clean()
    for c in (host_ctx, friend_ctx, watcher_ctx):
        c.close()


# -- score pad --------------------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "size"), RUNS_PHONE_FIRST)
def test_score_pad_refuses_bad_entries(
    browser: Any, server: Server, shots: Path, lang: str, size: str
) -> None:
    context = _context(browser, lang, size)
    w = Watched(context)
    page = w.page
    _start(page, server, lang)
    page.locator('button[data-mode="pad"]').click()
    page.locator(".seat-remove").nth(1).click()
    page.locator("#start-btn").click()
    page.wait_for_url(GAME_URL)
    page.wait_for_selector("#pad-write:not([hidden])")
    # The writes go over the game's socket once it is open; one posted before (a loaded
    # machine) is refused with a 422 that chromium logs as a console error.
    page.wait_for_selector("#game[data-socket=open]")
    seen = version(page)
    # letters as dice: a message in the page's language, nothing sent
    page.fill("#pad-dice-input", "abcde")
    page.locator("#pad-dice-btn").click()
    assert page.locator("#error").inner_text() == words(lang, "pad_dice_bad", n=5)
    # points the rules make impossible: refused by the server, said in the page's words
    page.select_option("#pad-box", "ones")
    page.fill("#pad-points", "7")
    page.locator("#pad-write-btn").click()
    page.wait_for_function("document.getElementById('error').textContent.includes('7')")
    ones = page.locator('tr[data-row="ones"] .box-name').inner_text()
    assert page.locator("#error").inner_text() == words(
        lang, "impossible_points", points=7, box=ones
    )
    assert version(page) == seen
    assert_accessible(page)
    page.screenshot(path=str(shots / f"pad_refused_{lang}_{size}.png"))
    page.fill("#pad-points", "3")
    page.locator("#pad-write-btn").click()
    wait_change(page, seen)
    assert page.locator('tr[data-row="ones"] td').first.inner_text().strip() == "3"
    seen = version(page)
    page.fill("#pad-dice-input", "6 6 6 2 2")
    page.locator("#pad-dice-btn").click()
    wait_change(page, seen)
    seen = version(page)
    page.locator('button.choose[data-box="full_house"]').click()
    wait_change(page, seen)
    assert page.locator('tr[data-row="full_house"] td').first.inner_text().strip() == "22"
    # a Yatzy gets its moment, said to screen readers too
    seen = version(page)
    page.fill("#pad-dice-input", "55555")
    page.locator("#pad-dice-btn").click()
    wait_change(page, seen)
    seen = version(page)
    page.locator('button.choose[data-box="yatzy"]').click()
    wait_change(page, seen)
    assert "party" in (page.get_attribute("#game", "class") or "")
    player = DEFAULT_NAMES[lang][0]
    said = page.locator("#announce").inner_text()
    assert said.startswith(words(lang, "yatzy_moment", player=player)) and "50" in said
    w.assert_clean()
    context.close()


# -- Maxi with saved rolls ---------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "size"), RUNS_PHONE_FIRST)
def test_maxi_with_saved_rolls(
    browser: Any, server: Server, shots: Path, lang: str, size: str
) -> None:
    context = _context(browser, lang, size)
    w = Watched(context)
    page = w.page
    _start(page, server, lang)
    _choose_preset(page, "maxi_saved")
    page.locator("#play-solo").click()
    page.wait_for_url(GAME_URL)
    assert wait_mine(page)
    rolls = page.locator("#rolls-left")
    assert rolls.inner_text() == words(lang, "rolls_left_saved", n=3, saved=0)
    roll(page)  # one roll, then score: two rolls are saved
    assert page.locator(".die").count() == 6
    box, _ = best_box(page)
    seen = version(page)
    page.locator(f'button.choose[data-box="{box}"]').click()
    confirm_if_asked(page)
    wait_change(page, seen)
    assert rolls.inner_text() == words(lang, "rolls_left_saved", n=5, saved=2)
    expected = [(4, 2), (3, 2), (2, 2), (1, 1), (0, 0)]  # saved rolls are used last
    for n, saved in expected:
        roll(page)
        assert rolls.inner_text() == words(lang, "rolls_left_saved", n=n, saved=saved)
    assert page.locator("#roll").is_disabled()
    assert_accessible(page)
    page.screenshot(path=str(shots / f"maxi_saved_{lang}_{size}.png"))
    w.assert_clean()
    context.close()


# -- DubbelYatzy -------------------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "size"), RUNS)
def test_dubbel_yatzy_inner_and_outer(
    browser: Any, server: Server, shots: Path, lang: str, size: str
) -> None:
    context = _context(browser, lang, size)
    w = Watched(context)
    page = w.page
    _start(page, server, lang)
    _choose_preset(page, "dubbel")
    page.locator("#play-solo").click()
    page.wait_for_url(GAME_URL)
    assert wait_mine(page)
    roll(page)
    assert page.locator("#legend").is_visible()
    assert words(lang, "inner_legend") in page.locator("#legend").inner_text()
    # Big enough to read both faces (the laid-out height, not the tumble's).  Read in
    # one script from the dice on the page now: a die found first and measured after
    # the tray was drawn anew (a socket's update) is detached and measures 0.
    height = page.evaluate(
        "() => Math.min(...[...document.querySelectorAll('#dice .die')].map(d => d.offsetHeight),"
        " document.querySelectorAll('#dice .die').length ? Infinity : -1)"
    )
    assert height >= 48
    inner = page.locator('button.choose.inner[data-box="chance"]')
    outer = page.locator('button.choose.outer[data-box="ones"]')
    inner_points = int(re.sub(r"[^0-9-]", "", inner.inner_text()))
    inner.click()
    assert (
        page.locator('button.choose.inner[data-box="chance"]').get_attribute("aria-pressed")
        == "true"
    )
    seen = version(page)
    page.locator('button.choose.outer[data-box="ones"]').click()
    del outer
    confirm_if_asked(page)
    wait_change(page, seen)
    chance = page.locator('tr[data-row="chance"] td').first.inner_text()
    assert chance.split()[0] == str(inner_points)
    assert page.locator('tr[data-row="ones"] td').first.inner_text().strip() != ""
    assert_accessible(page)
    page.screenshot(path=str(shots / f"dubbel_{lang}_{size}.png"))
    w.assert_clean()
    context.close()


# -- other pages ---------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["sv", "fi", "en"])
def test_rules_history_and_language_switch(browser: Any, server: Server, lang: str) -> None:
    context = _context(browser, "en", "phone")
    w = Watched(context)
    page = w.page
    page.goto(server.url + "/")
    assert page.get_attribute("html", "lang") == "en"
    header_link(page, f'.langs a[lang="{lang}"]').click()  # switching translates the whole page
    # the link loads the page anew: between the two documents there is no root element
    page.wait_for_function(f"document.documentElement?.lang === '{lang}'")
    page.wait_for_load_state("domcontentloaded")
    assert page.locator("#play-bot").inner_text() == words(lang, "play_bot")
    page.goto(server.url + "/")  # remembered
    assert page.get_attribute("html", "lang") == lang
    for variant in ("yatzy", "yahtzee", "maxi", "dubbel"):
        page.goto(f"{server.url}/rules/{variant}")
        assert page.get_attribute("html", "lang") == lang
        assert_accessible(page)
    page.goto(server.url + "/history")
    assert_accessible(page)
    w.assert_clean()
    context.close()


def test_the_page_says_when_the_server_is_away_and_carries_on(tmp_path: Path, browser: Any) -> None:
    db = f"sqlite:///{tmp_path / 'away.db'}"
    first = Server(db, bot_delay=0.01).start()
    context = _context(browser, "sv", "phone")
    w = Watched(context)
    page = w.page
    try:
        page.goto(first.url + "/")
        page.locator("#play-solo").click()
        page.wait_for_url(GAME_URL)
        page.wait_for_selector("#game[data-socket=open]")
        first.stop()
        page.wait_for_selector("#net:not([hidden])")
        assert page.locator("#net").inner_text() == words("sv", "unreachable_retrying")
        again = Server(db, bot_delay=0.01, port=first.port).start()
        try:
            page.wait_for_selector("#game[data-socket=open]", timeout=20_000)
            assert page.locator("#net").is_hidden()
            roll(page)
        finally:
            again.stop()
    finally:
        first.stop()
    # the browser logs the refused connections while the server is away; nothing else
    assert all("ERR_CONNECTION_REFUSED" in e or "WebSocket" in e for e in w.errors), w.errors
    context.close()


def test_behind_a_reverse_proxy_under_a_path_prefix(tmp_path: Path, browser: Any) -> None:
    from tests.e2e.proxy import prefix_proxy

    with (
        Server(f"sqlite:///{tmp_path / 'p.db'}", bot_delay=0.01, root_path="/yatzy") as s,
        prefix_proxy(s.port, "/yatzy") as base,
    ):
        context = _context(browser, "en", "desktop")
        w = Watched(context)
        page = w.page
        page.goto(base + "/")
        assert page.locator("link[rel=stylesheet]").evaluate("l => l.sheet !== null")
        page.locator("#play-bot").click()
        page.wait_for_url(re.compile(r".*/yatzy/g/[0-9a-f]{32}$"))
        page.wait_for_selector("#game[data-socket=open]")  # the WebSocket through the prefix
        assert wait_mine(page)
        play_turn(page, keyboard=True, rolls=2)
        cookies = {c["name"]: c["path"] for c in context.cookies()}
        seat = next(p for n, p in cookies.items() if n.startswith("yz_") and n != "yz_owner")
        assert seat.startswith("/yatzy/api/games/")
        w.assert_clean()
        context.close()


def test_undo_button_follows_the_views_undo(browser: Any, server: Server) -> None:
    """The page's side of the undo contract: the view's ``undo`` (here added to the
    server's messages, until the core offers it) shows an Undo button for that seat,
    and the button and the U key send ``{"undo": true}`` with that seat."""
    import json

    context = _context(browser, "en", "desktop")
    w = Watched(context)
    page = w.page
    sent: list[dict[str, Any]] = []

    def with_undo(text: str) -> str:
        message = json.loads(text)
        game = message.get("game")
        if game and game["sheets"][0]["entries"].get("chance"):
            game["undo"] = {"seat": 0, "box": "chance"}
        return json.dumps(message)

    def route(ws: Any) -> None:
        real = ws.connect_to_server()

        def to_server(message: str | bytes) -> None:
            sent.append(json.loads(message))
            real.send(message)

        ws.on_message(to_server)
        real.on_message(lambda m: ws.send(with_undo(m) if isinstance(m, str) else m))

    page.route_web_socket(re.compile(r".*/ws(\?.*)?$"), route)  # the page asks ?chances=1
    page.goto(server.url + "/?lang=en")
    page.locator("#play-solo").click()
    page.wait_for_url(GAME_URL)
    page.wait_for_selector("#game[data-socket=open]")
    assert page.locator("#undo").is_hidden()
    roll(page)
    seen = version(page)
    page.locator('button.choose[data-box="chance"]').click()
    wait_change(page, seen)
    undo = page.locator("#undo")
    assert undo.is_visible() and undo.inner_text() == "Undo Chance"
    answered = (
        "([v]) => document.getElementById('error').textContent !== ''"
        " || Number(document.getElementById('game').dataset.version) > v"
    )
    for press in (lambda: page.keyboard.press("u"), undo.click):
        seen = version(page)
        press()
        page.wait_for_function(answered, arg=[seen])
        assert sent[-1]["action"] == {"undo": True} and sent[-1]["seat"] == 0
        if version(page) > seen:  # the core took the write back: write it again
            assert page.locator('tr[data-row="chance"] button.choose').count() == 1
            seen = version(page)
            page.locator('button.choose[data-box="chance"]').click()
            wait_change(page, seen)
        page.evaluate("document.getElementById('error').textContent = ''")
    assert len([m for m in sent if m["action"] == {"undo": True}]) == 2
    w.assert_clean()
    context.close()
