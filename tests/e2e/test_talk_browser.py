"""Preset phrases in real browsers: a Swede says one with a tap, a Finnish guest
reads it in Finnish, mutes her and hears her again; axe finds nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.helpers import PHONE, Watched, assert_accessible, words
from tests.e2e.support import Server, served


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from served(tmp_path_factory, "talk")


def test_a_phrase_read_in_each_viewers_language(browser: Any, server: Server) -> None:
    host = browser.new_context(viewport=PHONE, locale="sv-SE")
    created = host.request.post(
        f"{server.url}/api/games",
        data={"lang": "sv", "seats": [{"name": "Anna", "here": True}, {"name": "Bo"}]},
    ).json()
    anna = Watched(host)
    anna.page.goto(f"{server.url}/g/{created['id']}")
    guest = browser.new_context(viewport=PHONE, locale="fi-FI")
    bo = Watched(guest)
    bo.page.goto(created["invite_url"])
    bo.page.locator("button.join").click()
    bo.page.wait_for_selector("#talk-say:not([hidden])")

    anna.page.wait_for_selector("#talk-say:not([hidden])")
    anna.page.locator("#talk-say summary").click()
    anna.page.locator("button.phrase[data-phrase='good_luck']").click()
    heard = words("fi", "talk_said", player="Anna", phrase=words("fi", "talk_good_luck"))
    line = bo.page.locator("#talk-lines li[data-seat='0']")
    line.wait_for()
    assert line.inner_text().startswith(heard)
    said = words("sv", "talk_said", player="Anna", phrase=words("sv", "talk_good_luck"))
    anna.page.locator("#talk-lines li[data-seat='0']").wait_for()
    assert anna.page.locator("#talk-lines li[data-seat='0']").inner_text() == said
    assert_accessible(bo.page)

    line.locator("button.mute").click()  # Bo mutes Anna: her lines go, a way back stays
    assert bo.page.locator("#talk-lines li[data-seat='0']").count() == 0
    again = bo.page.locator("#talk-lines li.muted button")
    assert again.inner_text() == words("fi", "talk_unmute", player="Anna")
    again.click()
    bo.page.locator("#talk-lines li[data-seat='0']").wait_for()
    anna.assert_clean()
    bo.assert_clean()
    guest.close()
    host.close()
