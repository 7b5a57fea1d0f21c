"""The leaderboard, a player's profile and the account page's ratings on a phone, in
Finnish: the form works from the keyboard, nothing is wider than the screen, and axe
finds nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.helpers import PHONE, Watched, assert_accessible
from tests.e2e.support import Server, served
from yatzy.web.i18n import ui_strings
from yatzy.web.rating_words import rating_words


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from served(tmp_path_factory, "leaderboard")


def _no_wider_than_the_screen(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_leaderboard_profile_and_account_on_a_phone(browser: Any, server: Server) -> None:
    words = rating_words("fi")
    context = browser.new_context(viewport=PHONE, locale="fi-FI")
    w = Watched(context)
    headers = {"X-Yatzy-CSRF": "1", "Origin": server.url}
    signed = context.request.post(
        f"{server.url}/api/account/signup",
        data={"name": "Pihla", "password": "correct horse"},
        headers=headers,
    )
    assert signed.ok, signed.text()
    page = w.page
    page.goto(server.url + "/leaderboard?lang=fi")
    assert page.locator("h1").inner_text() == words["title"]
    assert page.locator("#board-empty").inner_text() == words["nobody"]
    _no_wider_than_the_screen(page)
    assert_accessible(page)
    # the form from the keyboard: the skill index, this month, Show
    page.locator("input[name=by][value=skill]").focus()
    page.keyboard.press("Space")
    page.locator("input[name=period][value=month]").focus()
    page.keyboard.press("Space")
    page.locator("#board-choice button[type=submit]").focus()
    page.keyboard.press("Enter")
    page.wait_for_url("**by=skill**")
    assert words["by_skill"] in page.locator("#board-h").inner_text()
    assert words["month"] in page.locator("#board-h").inner_text()
    assert_accessible(page)
    page.goto(server.url + "/account?lang=fi")
    page.locator("#skill-section").wait_for()
    assert words["skill"] in page.locator("#skill-words").inner_text()
    _no_wider_than_the_screen(page)
    assert_accessible(page)
    page.locator("#skill-section a[href^='players/']").click()
    page.wait_for_url("**/players/Pihla*")
    assert words["none"] in page.locator("#ratings").inner_text()
    _no_wider_than_the_screen(page)
    assert_accessible(page)
    w.assert_clean()
    context.close()


def test_a_signed_in_player_starts_a_rated_game_from_the_start_page(
    browser: Any, server: Server
) -> None:
    words = rating_words("sv")
    context = browser.new_context(viewport=PHONE, locale="sv-SE")
    w = Watched(context)
    page = w.page
    page.goto(server.url + "/?lang=sv")
    page.locator("button[data-mode=invite]").click()
    assert page.locator("#rated-choice").count() == 0  # a guest is offered none
    signed = context.request.post(
        f"{server.url}/api/account/signup",
        data={"name": "Ragnar", "password": "correct horse"},
        headers={"X-Yatzy-CSRF": "1", "Origin": server.url},
    )
    assert signed.ok, signed.text()
    page.goto(server.url + "/?lang=sv")
    page.locator("button[data-mode=hotseat]").click()
    assert page.locator("#rated-choice").is_hidden()  # not for pass and play
    page.locator("button[data-mode=invite]").click()
    choice = page.locator("#rated-choice")
    choice.wait_for()
    assert words["rated_game"] in choice.inner_text()
    page.locator("#rated").focus()
    page.keyboard.press("Space")
    assert_accessible(page)
    page.locator("#start-btn").click()
    page.wait_for_url("**/g/**")
    game_id = page.url.rsplit("/g/", 1)[1].split("?")[0]
    view = context.request.get(f"{server.url}/api/games/{game_id}").json()
    assert view["rated"] is True and view["hints"] is False
    note = page.locator("#rated-note")
    assert note.inner_text() == ui_strings("sv")["rated_refused"]
    assert page.locator("#hints-switch:visible, #undo:visible").count() == 0
    assert_accessible(page)
    w.assert_clean()
    context.close()
