"""Verifiable dice in a real browser: the start page adds this device's share to the
dice, the game page shows the fingerprint promised before the first roll, a guest who
joins adds theirs, and the finished game's page recomputes every die with Web Crypto
(and names a die that a record changed on the way does not match)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.helpers import PHONE, Watched, assert_accessible, header_link, words
from tests.e2e.support import Server, next_action, served
from tests.helpers import eventually
from yatzy.game import verify_record


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from served(tmp_path_factory, "fair")


def _view(request: Any, server: Server, gid: str) -> dict[str, Any]:
    answer = request.get(f"{server.url}/api/games/{gid}")
    assert answer.ok, answer.text()
    data: dict[str, Any] = answer.json()
    return data


def _play_out(request: Any, server: Server, gid: str) -> None:
    """Finish the game through the API with the browser's own seat cookies."""
    for _ in range(500):
        view = _view(request, server, gid)
        if view["finished"]:
            return
        answer = request.post(
            f"{server.url}/api/games/{gid}/actions", data={"action": next_action(view)}
        )
        assert answer.ok, answer.text()
    raise AssertionError("the game did not end")


def test_the_page_shows_the_promise_and_checks_every_die(browser: Any, server: Server) -> None:
    context = browser.new_context(viewport=PHONE, locale="sv-SE")
    w = Watched(context)
    page = w.page
    page.goto(server.url + "/")
    page.locator("#play-solo").click()
    page.wait_for_url("**/g/*")
    page.wait_for_selector("#protocol thead th")
    gid = page.url.rstrip("/").rsplit("/", 1)[1].split("?")[0]
    view = _view(context.request, server, gid)
    dice = view["dice"]
    assert len(dice["contributions"]) == 1 and len(dice["contributions"][0]) == 32  # the device's
    page.locator("#fair summary").click()
    assert page.locator("#fair .fingerprint").inner_text() == dice["commitment"]
    assert words("sv", "fair_title") in page.locator("#fair summary").inner_text()
    assert page.locator("#fair-check").count() == 0  # the seed is secret while it runs
    assert_accessible(page)

    _play_out(context.request, server, gid)
    record = context.request.get(f"{server.url}/api/games/{gid}/record").json()
    count = verify_record(record).dice
    page.reload()
    page.wait_for_selector("#winner:not([hidden])")
    page.locator("#fair summary").click()
    page.locator("#fair-check").click()
    result = page.locator("#fair-result[data-ok]")
    result.wait_for()
    assert result.get_attribute("data-ok") == "1"
    assert result.inner_text() == words("sv", "fair_ok", count=count)
    assert_accessible(page)

    # a record changed on its way to the browser: the first changed die is named
    def tampered(route: Any) -> None:
        data = json.loads(route.fetch().text())
        roll = data["turns"][2]["rolls"][0]
        roll["dice"][1] = roll["dice"][1] % 6 + 1
        route.fulfill(json=data)

    page.route("**/record", tampered)
    page.reload()
    page.wait_for_selector("#winner:not([hidden])")
    page.locator("#fair summary").click()
    page.locator("#fair-check").click()
    result = page.locator("#fair-result[data-ok]")
    result.wait_for()
    assert result.get_attribute("data-ok") == "0"
    assert "omgång 3" in result.inner_text() and "tärning 2" in result.inner_text()
    w.assert_clean()
    context.close()


def test_a_guest_who_joins_adds_to_the_dice(browser: Any, server: Server) -> None:
    host = browser.new_context(locale="fi-FI")
    created = host.request.post(
        f"{server.url}/api/games",
        data={"lang": "fi", "seats": [{"name": "Aino", "here": True}, {"name": "Bo"}]},
    ).json()
    gid = created["id"]
    assert created["game"]["dice"]["contributions"] == []
    guest = browser.new_context(locale="sv-SE")
    w = Watched(guest)
    w.page.goto(created["invite_url"])
    w.page.locator("button.join").click()
    shown = eventually(
        lambda: _view(host.request, server, gid)["dice"]["contributions"],
        lambda c: len(c) == 1,
        what="the guest's contribution",
    )
    assert len(shown[0]) == 32
    w.assert_clean()
    guest.close()
    host.close()


def test_the_daily_challenge_from_the_menu_to_the_leaderboard(browser: Any, server: Server) -> None:
    context = browser.new_context(viewport=PHONE, locale="fi-FI")
    w = Watched(context)
    page = w.page
    page.goto(server.url + "/")
    header_link(page, "header nav a[href='daily']").click()
    page.wait_for_url("**/daily")
    assert page.locator("h1").inner_text() == words("fi", "daily_title")
    assert_accessible(page)
    form = page.locator("form.daily-start[data-rules='yatzy']")
    form.locator("input[name=name]").fill("Aino")
    form.locator("button").click()
    page.wait_for_url("**/g/*")
    page.wait_for_selector("#daily-line")
    gid = page.url.rstrip("/").rsplit("/", 1)[1].split("?")[0]
    assert page.locator("#fair").get_attribute("open") is not None
    _play_out(context.request, server, gid)
    page.reload()
    page.wait_for_selector("#winner:not([hidden])")
    assert words("fi", "fair_held") in page.locator("#fair").inner_text()
    page.locator("#daily-board-link").click()
    page.wait_for_url("**/daily?*")
    assert page.locator("#your-place").inner_text() == words("fi", "daily_place", place=1, count=1)
    assert page.locator("#board tr.yours").count() == 1
    assert_accessible(page)
    # once a day: the page offers the leaderboard instead of a second game
    page.goto(server.url + "/daily")
    assert page.locator("form.daily-start[data-rules='yatzy']").count() == 0
    w.assert_clean()
    context.close()
