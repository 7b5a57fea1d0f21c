"""A signed-in player sees on every page how many games wait for their move (the
header and the page's title) and finds them listed on the account page."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.helpers import PHONE, Watched, assert_accessible
from tests.e2e.support import Server, served
from yatzy.web.account_words import account_words


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from served(tmp_path_factory, "turns")


def test_the_games_that_wait_in_the_header_title_and_account_page(
    browser: Any, server: Server
) -> None:
    context = browser.new_context(viewport=PHONE, locale="sv-SE")
    w = Watched(context)
    headers = {"X-Yatzy-CSRF": "1", "Origin": server.url}
    signed = context.request.post(
        f"{server.url}/api/account/signup",
        data={"name": "Sigrid", "password": "correct horse"},
        headers=headers,
    )
    assert signed.ok, signed.text()
    game = context.request.post(
        f"{server.url}/api/games",
        data={"lang": "sv", "seats": [{"name": "Sigrid", "here": True}]},
        headers=headers,
    ).json()
    page = w.page
    page.goto(server.url + "/?lang=sv")
    badge = page.locator("#turns-badge:not([hidden])")
    badge.wait_for()
    assert badge.inner_text() == account_words("sv")["your_turns"].replace("{count}", "1")
    page.wait_for_function("document.title.startsWith('(1) ')")
    badge.click()
    page.wait_for_url("**/account*")
    link = page.locator(f"#turns a[href='g/{game['id']}']")
    link.wait_for()
    assert "Sigrid" in link.inner_text()
    assert_accessible(page)
    w.assert_clean()
    context.close()
