"""Live win chances in a real browser (Debian's chromium), in Swedish, Finnish and
English: against the computer, each column head shows the player's chance to win
with a bar, the note under the sheet says how it was found (simulated: "about 41 %",
the margin in words), a spectator sees them too, and the viewer's switch hides them
(remembered).  Every
page state is checked with axe-core and logs no console error."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import (
    VIEWPORTS,
    Watched,
    assert_accessible,
    play_turn,
    version,
    wait_change,
    wait_mine,
    words,
)
from tests.e2e.support import Server
from tests.helpers import eventually

GAME_URL = re.compile(r".*/g/[0-9a-f]{32}$")
PERCENT = re.compile(
    r"^(about |cirka |noin |under |över |over |alle |yli )?(>\u00a0|<\u00a0)?\d+([,.]\d)?\u00a0%$"
)


@pytest.fixture(scope="module")
def browser(browser: Any) -> Any:
    """The conftest's chromium, its pages' CSP bypassed (``wait_for_function`` evals)."""
    from tests.e2e.test_browser import _BypassCSP

    return _BypassCSP(browser)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the module (each test plays its own game in its own context)."""
    folder = tmp_path_factory.mktemp("chances")
    with Server(f"sqlite:///{folder / 'e2e.db'}", bot_delay=0.01, log=folder / "server.log") as s:
        yield s


def _heads(page: Any) -> list[str]:
    shown = page.locator('#protocol thead .win > span[aria-hidden="true"]')
    return [t.strip() for t in shown.all_inner_texts()]


def _wait_chances(page: Any, timeout: float = 60_000) -> None:
    """Until every column head shows a chance (a bar, not the pending dots)."""
    page.wait_for_function(
        "document.querySelectorAll('#protocol thead .win meter').length"
        " === document.querySelectorAll('#protocol thead .win').length"
        " && document.querySelectorAll('#protocol thead .win').length > 1",
        timeout=timeout,
    )


@pytest.mark.parametrize(("lang", "size"), [("sv", "desktop"), ("fi", "phone")])
def test_column_heads_show_each_players_chance(
    browser: Any, server: Server, tmp_path: Path, lang: str, size: str
) -> None:
    locale = {"sv": "sv-SE", "fi": "fi-FI"}.get(lang, "en-GB")
    context = browser.new_context(viewport=VIEWPORTS[size], locale=locale)
    w = Watched(context)
    page = w.page
    page.goto(server.url + "/")
    page.locator("#bot-level").select_option("strong")
    page.locator("#play-bot").click()
    page.wait_for_url(GAME_URL)
    assert wait_mine(page)
    play_turn(page, keyboard=True, rolls=1)
    assert wait_mine(page)
    seen = version(page)
    page.locator("#roll").click()
    wait_change(page, seen)
    _wait_chances(page)
    heads = _heads(page)
    assert len(heads) == 2 and all(PERCENT.match(h) for h in heads), heads
    note = page.locator("#chances-note")
    assert note.is_visible()
    # A strong bot is simulated: the margin is stated, in the page's words.
    assert heads[1].startswith(words(lang, "about_percent", percent="")[:4]) and "±" not in heads[1]
    assert note.inner_text().startswith(words(lang, "win_note_about", margin="")[:20])
    name = page.eval_on_selector(
        "#protocol thead th:nth-child(2)", "th => th.firstChild.textContent"
    )

    # The live chances may be refined between two reads: the column head and its
    # screen reader label are read together, until they agree.
    def head_and_label() -> tuple[str, str]:
        head = _heads(page)[0]
        return head, page.locator("#protocol thead .win .sr").first.text_content() or ""

    eventually(
        head_and_label,
        lambda seen: seen[1] == words(lang, "win_chance_of", player=name, chance=seen[0]),
        what="the first head's label naming its chance",
    )
    values = page.eval_on_selector_all("#protocol thead .win meter", "ms => ms.map(m => m.value)")
    assert sum(values) == pytest.approx(1.0, abs=0.02)
    assert_accessible(page)
    page.screenshot(path=str(tmp_path / f"chances_{lang}_{size}.png"))
    # A spectator (another browser, no seat) sees the chances too.
    spectator_ctx = browser.new_context(viewport=VIEWPORTS["phone"], locale=locale)
    s = Watched(spectator_ctx)
    s.page.goto(page.url)
    _wait_chances(s.page)
    assert all(PERCENT.match(h) for h in _heads(s.page))
    assert_accessible(s.page)
    # The viewer may hide them; the choice is remembered.
    toggle = page.locator("#show-chances")
    assert toggle.is_visible() and toggle.is_checked()
    toggle.uncheck()
    assert not page.locator("#protocol thead .win").first.is_visible()
    assert not note.is_visible()
    page.reload()
    page.wait_for_selector("#protocol thead th")
    assert not page.locator("#show-chances").is_checked()
    assert not page.locator("#protocol thead .win").first.is_visible()
    page.locator("#show-chances").check()
    _wait_chances(page)
    assert page.locator("#protocol thead .win").first.is_visible()
    assert_accessible(page)
    w.assert_clean()
    s.assert_clean()
    spectator_ctx.close()
    context.close()


def test_solo_game_shows_no_win_chances(browser: Any, server: Server) -> None:
    context = browser.new_context(viewport=VIEWPORTS["desktop"], locale="en-GB")
    w = Watched(context)
    page = w.page
    page.goto(server.url + "/")
    page.locator("#play-solo").click()
    page.wait_for_url(GAME_URL)
    assert wait_mine(page)
    assert page.locator("#protocol thead .win").count() == 0
    assert not page.locator("#show-chances").is_visible()
    w.assert_clean()
    context.close()


def test_a_lopsided_simulated_chance_is_bounded_by_its_margin(browser: Any, server: Server) -> None:
    """The page's own words for a simulated chance that rounds to 0 % or 100 %: bounded
    by the margin ("under 3 %", "over 97 %"), never "about 0 %"."""
    context = browser.new_context(viewport=VIEWPORTS["desktop"], locale="sv-SE")
    page = context.new_page()
    page.goto(server.url + "/")
    said = page.evaluate(
        """async () => {
          const m = await import("/static/chances.js");
          const t = (key, args) => key + " " + args.percent;
          return [
            m.chanceText({ chance: 0.003, margin: 0.02 }, t),
            m.chanceText({ chance: 0.996, margin: 0.02 }, t),
            m.chanceText({ chance: 0.0, margin: 0.01 }, t),
            m.chanceText({ chance: 0.54, margin: 0.02 }, t),
          ];
        }"""
    )
    assert said == ["under_percent 3", "over_percent 97", "under_percent 1", "about_percent 54"]
    context.close()


def _chances_held_back(page: Any) -> None:
    """The server's chances kept from ``page`` (as on a fresh install, while the kernels
    they need compile for a minute): its views say "pending", its pushed chances never
    arrive."""

    def pending(game: dict[str, Any]) -> dict[str, Any]:
        if game.get("win_chances") is not None:
            game["win_chances"] = {"version": game["version"], "pending": True}
        return game

    def view(route: Any) -> None:
        if route.request.method != "GET":
            route.continue_()
            return
        response = route.fetch()
        route.fulfill(response=response, json=pending(response.json()))

    def socket(ws: Any) -> None:
        server = ws.connect_to_server()

        def to_page(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "chances":
                return
            if isinstance(data.get("game"), dict):
                pending(data["game"])
            ws.send(json.dumps(data))

        server.on_message(to_page)
        ws.on_message(lambda message: server.send(message))

    page.route(re.compile(r".*/api/games/[0-9a-f]{32}$"), view)
    page.route_web_socket(re.compile(r".*/api/games/[0-9a-f]{32}/ws.*"), socket)


@pytest.mark.parametrize(("lang", "size"), [("sv", "phone"), ("fi", "desktop")])
def test_chances_being_worked_out_are_said_in_words(
    browser: Any, server: Server, lang: str, size: str
) -> None:
    """Until the chances come (a minute on a fresh install), each column head says in
    a word that they are being worked out, and the note under the sheet says it whole:
    never a bare "…" (issue 24: anything longer than a second says what happens)."""
    from tests.e2e.test_browser import _context

    context = _context(browser, lang, size)
    w = Watched(context)
    page = w.page
    _chances_held_back(page)
    page.goto(server.url + "/")
    page.locator("#play-bot").click()
    page.wait_for_url(GAME_URL)
    assert wait_mine(page)
    seen = version(page)
    page.locator("#roll").click()
    wait_change(page, seen)
    assert _heads(page) == [words(lang, "win_pending_short")] * 2
    assert all(h.is_visible() for h in page.locator("#protocol thead .win").all())
    labels = page.locator("#protocol thead .win .sr").all_text_contents()
    assert labels == [words(lang, "win_pending")] * 2
    note = page.locator("#chances-note")
    assert note.inner_text() == words(lang, "win_pending")
    assert_accessible(page)
    w.assert_clean()
    context.close()
