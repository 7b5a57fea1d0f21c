"""Free text between friends in real browsers: Anna writes to her friend Bo (a line
with markup in it, shown as text), Bo reads it on his phone in Swedish and mutes her,
and a spectator's page never shows it; axe finds nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.helpers import PHONE, Watched, assert_accessible, words
from tests.e2e.support import Server, served

CSRF = {"X-Yatzy-CSRF": "1"}
LINE = "<b>psst</b> <script>window.hacked=1</script> see you at the lake"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from served(tmp_path_factory, "friend-text")


def _signed_up(browser: Any, server: Server, name: str, locale: str) -> Any:
    context = browser.new_context(viewport=PHONE, locale=locale)
    r = context.request.post(
        f"{server.url}/api/account/signup",
        data={"name": name, "password": "correct horse"},
        headers=CSRF,
    )
    assert r.status == 201, r.text()
    return context


def test_two_friends_exchange_a_line_a_spectator_sees_none(browser: Any, server: Server) -> None:
    anna_ctx = _signed_up(browser, server, "Anna", "en-GB")
    bo_ctx = _signed_up(browser, server, "Bo", "sv-SE")
    asked = anna_ctx.request.post(
        f"{server.url}/api/friends/request", data={"name": "Bo"}, headers=CSRF
    )
    assert asked.status == 200
    assert (
        bo_ctx.request.post(
            f"{server.url}/api/friends/accept", data={"name": "Anna"}, headers=CSRF
        ).status
        == 200
    )
    game = anna_ctx.request.post(
        f"{server.url}/api/games",
        data={"seats": [{"name": "Anna", "here": True}, {"name": "Bo"}]},
    ).json()
    joined = bo_ctx.request.post(
        f"{server.url}/api/games/{game['id']}/join", data={"invite": game["invite"], "seat": 1}
    )
    assert joined.status == 200, joined.text()
    anna, bo = Watched(anna_ctx), Watched(bo_ctx)
    spy_ctx = browser.new_context(viewport=PHONE, locale="fi-FI")
    spy = Watched(spy_ctx)
    for who in (anna, bo, spy):
        who.page.goto(f"{server.url}/g/{game['id']}")
        who.page.wait_for_selector("#game[data-socket='open']")

    anna.page.wait_for_selector("#friend-form:not([hidden])")
    assert anna.page.locator("#friend-text-note").inner_text() == words("en", "text_only_friends")
    anna.page.get_by_label(words("en", "text_label")).fill(LINE)
    anna.page.keyboard.press("Enter")
    mine = anna.page.locator("#friend-lines li.mine")
    mine.wait_for()
    assert mine.inner_text() == words("en", "text_line", player="Anna", text=LINE)

    heard = bo.page.locator("#friend-lines li[data-seat='0']")
    heard.wait_for()
    assert heard.inner_text().startswith(words("sv", "text_line", player="Anna", text=LINE))
    assert bo.page.locator("#friend-lines b, #friend-lines script").count() == 0
    assert bo.page.evaluate("window.hacked") is None
    assert bo.page.locator("#friend-text-note").inner_text() == words("sv", "text_only_friends")
    assert_accessible(bo.page)

    # a public phrase after the line: once the spectator's page shows it, the line
    # would have come before it
    anna.page.locator("#talk-say summary").click()
    anna.page.locator("button.phrase[data-phrase='hello']").click()
    spy.page.locator("#talk-lines li[data-seat='0']").wait_for()
    assert spy.page.locator("#friend-text").is_hidden()
    assert "psst" not in spy.page.content()
    assert_accessible(spy.page)

    heard.locator("button.mute").click()  # Bo mutes Anna: her text goes too
    assert bo.page.locator("#friend-lines li[data-seat='0']").count() == 0
    assert bo.page.locator("#talk-lines li[data-seat='0']").count() == 0
    for who in (anna, bo, spy):
        who.assert_clean()
    for context in (anna_ctx, bo_ctx, spy_ctx):
        context.close()
