"""Every viewer in their own words (issue 24): an invited guest and a spectator read
a game's page in their browser's language, not its maker's, and can switch it; the
guest is asked to take their seat, never told that the game waits for them."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import VIEWPORTS, Watched, assert_accessible, header_link, words
from tests.e2e.support import Server
from tests.e2e.test_browser import _BypassCSP

pytestmark = pytest.mark.slow

GAME_URL = re.compile(r".*/g/[0-9a-f]{32}$")
LOCALES = {"sv": "sv-SE", "fi": "fi-FI", "en": "en-GB"}


@pytest.fixture(scope="module")
def browser(browser: Any) -> Any:
    """The conftest's chromium, its pages' CSP bypassed (``wait_for_function``)."""
    return _BypassCSP(browser)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder: Path = tmp_path_factory.mktemp("viewers")
    with Server(f"sqlite:///{folder / 'e2e.db'}", log=folder / "server.log") as s:
        yield s


@pytest.mark.parametrize(
    ("host_lang", "guest_lang", "watcher_lang", "size"),
    [("en", "sv", "fi", "phone"), ("sv", "fi", "en", "desktop"), ("fi", "en", "sv", "phone")],
)
def test_guest_and_spectator_read_their_own_language(
    browser: Any, server: Server, host_lang: str, guest_lang: str, watcher_lang: str, size: str
) -> None:
    contexts = [
        browser.new_context(viewport=VIEWPORTS[size], locale=LOCALES[lang])
        for lang in (host_lang, guest_lang, watcher_lang)
    ]
    host, guest, watcher = (Watched(c) for c in contexts)
    host.page.goto(server.url + "/")
    host.page.locator("#your-name").fill("Ida")
    host.page.locator('button[data-mode="invite"]').click()
    host.page.locator(".seat-name").nth(1).fill("Bo")
    host.page.locator("#start-btn").click()
    host.page.wait_for_url(GAME_URL)
    assert host.page.get_attribute("html", "lang") == host_lang
    links = host.page.locator("#links")
    if not links.get_attribute("open"):
        links.locator("summary").click()
    invite = host.page.locator("#invite-link").input_value()
    # the guest: their browser's language, asked to take the seat, not told to wait
    guest.page.goto(invite)
    join = guest.page.locator("button.join")
    join.wait_for()
    assert guest.page.get_attribute("html", "lang") == guest_lang
    assert join.inner_text() == words(guest_lang, "join_as", player="Bo")
    assert guest.page.locator("#waiting-join").is_hidden()
    assert "Bo" not in guest.page.locator("#status").inner_text()
    assert_accessible(guest.page)
    join.click()
    guest.page.wait_for_function("document.getElementById('join').hidden")
    # the spectator: their own language too, and a switch to another
    watcher.page.goto(host.page.url.split("?")[0])
    watcher.page.wait_for_selector("#protocol thead th")
    assert watcher.page.get_attribute("html", "lang") == watcher_lang
    status = watcher.page.locator("#status")
    watcher.page.wait_for_function("document.getElementById('status').textContent !== ''")
    assert status.inner_text().startswith(words(watcher_lang, "watching", player="")[:6])
    other = next(lang for lang in ("en", "sv", "fi") if lang not in (watcher_lang,))
    header_link(watcher.page, f'.langs a[hreflang="{other}"]').click()
    watcher.page.wait_for_selector(f'html[lang="{other}"]', state="attached")
    watcher.page.wait_for_selector("#protocol thead th")
    assert watcher.page.get_attribute("html", "lang") == other
    # the maker still reads the game's language
    host.page.reload()
    assert host.page.get_attribute("html", "lang") == host_lang
    for w in (host, guest, watcher):
        w.assert_clean()
    for c in contexts:
        c.close()


@pytest.mark.parametrize(("lang", "size"), [("en", "desktop"), ("sv", "phone"), ("fi", "desktop")])
def test_start_page_refusals_in_the_pages_words(
    browser: Any, server: Server, lang: str, size: str
) -> None:
    context = browser.new_context(viewport=VIEWPORTS[size], locale=LOCALES[lang])
    w = Watched(context)
    page = w.page
    page.goto(server.url + "/")
    page.locator("#more summary").click()
    field = page.locator('.opts:not([hidden]) input[data-opt="bonus_threshold"]')
    option = field.get_attribute("data-text")
    field.fill("99999")
    page.locator("#play-bot").click()
    error = page.locator("#error")
    assert error.inner_text() == words(lang, "number_range", option=option, low=0, high=105)
    assert page.evaluate("document.activeElement.dataset.opt") == "bonus_threshold"
    # past the page's own check, the server's refusal is in the page's words too
    field.evaluate("input => { input.max = '100000'; }")
    page.locator("#play-bot").click()
    page.wait_for_function(
        "([t]) => document.getElementById('error').textContent === t",
        arg=[words(lang, "rule_refused", option=option)],
    )
    text = error.inner_text()
    assert "bonus_threshold" not in text and "yatzy" not in text.lower()
    # two house rules that exclude each other are named as the form writes them
    field.evaluate("input => { input.max = '105'; }")
    field.fill("63")
    names = []
    for opt in ("forced", "half_forced"):
        box = page.locator(f'.opts:not([hidden]) input[data-opt="{opt}"]')
        box.check()
        names.append(box.locator("xpath=..").inner_text().strip())
    page.locator("#play-bot").click()
    page.wait_for_function(
        "([t]) => document.getElementById('error').textContent === t",
        arg=[words(lang, "rules_exclude", first=names[0], second=names[1])],
    )
    assert "half_forced" not in error.inner_text()
    assert page.url.rstrip("/") == server.url
    # the browser logs the refused request itself; nothing else went wrong
    assert [e for e in w.errors if "status of 422" not in e] == []
    context.close()


@pytest.mark.parametrize(("lang", "size"), [("sv", "desktop"), ("fi", "phone"), ("en", "phone")])
def test_one_name_for_the_international_game(
    browser: Any, server: Server, lang: str, size: str
) -> None:
    """The start page and the rules page call the international game the same."""
    context = browser.new_context(viewport=VIEWPORTS[size], locale=LOCALES[lang])
    page = context.new_page()
    page.goto(server.url + "/")
    label = page.locator('label.preset:has(input[data-variant="yahtzee"])').first.inner_text()
    page.goto(server.url + "/rules/yahtzee")
    heading = page.locator("h1").inner_text()
    assert heading == words(lang, "rules_for", game="Yahtzee")
    assert label.strip().startswith("Yahtzee")
    context.close()


@pytest.mark.parametrize(
    ("maker", "watcher_lang", "size"),
    [("en", "fi", "phone"), ("fi", "sv", "desktop"), ("sv", "en", "phone")],
)
def test_a_spectator_reads_the_computers_name_in_their_language(
    browser: Any, server: Server, maker: str, watcher_lang: str, size: str
) -> None:
    # The computer's seat is named when the game is made ("Computer (Casual)"): a
    # Finnish spectator read that English name in the head and in "…'s turn".
    from yatzy.web.catalog import computer_name

    seats = [
        {"name": "Ann", "here": True},
        {"name": computer_name("casual", maker), "bot": "casual"},
        {"name": "Robo", "bot": "greedy"},
    ]
    made = {"rules": "yatzy", "lang": maker, "seats": seats}
    context = browser.new_context(viewport=VIEWPORTS[size], locale=LOCALES[watcher_lang])
    w = Watched(context)
    created = context.request.post(server.url + "/api/games", data=made)
    assert created.status == 201, created.text()
    watcher = browser.new_context(viewport=VIEWPORTS[size], locale=LOCALES[watcher_lang])
    seen = Watched(watcher)
    seen.page.goto(f"{server.url}/g/{created.json()['id']}")
    seen.page.wait_for_selector("#protocol thead th")
    heads = seen.page.locator("#protocol thead th").all_inner_texts()
    assert any(h.startswith(computer_name("casual", watcher_lang)) for h in heads), heads
    assert not any(computer_name("casual", maker) in h for h in heads), heads
    assert any(h.startswith("Robo") for h in heads), heads  # a name of its own stays
    for c in (w, seen):
        c.assert_clean()
    context.close()
    watcher.close()
