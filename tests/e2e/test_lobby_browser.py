"""Two people sign up, become friends, and one invites the other straight into a game
from the start page: the other finds the invitation in the header, joins from the
account page with one tap and plays the seat on their account.  The lobby page on a
phone: two people paired by "play someone now" are both sent to their game.  Each
page: no axe violation, no console error."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.helpers import PHONE, Watched, assert_accessible
from tests.e2e.support import Server, served
from yatzy.web.account_words import account_words
from yatzy.web.lobby_words import lobby_words


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from served(tmp_path_factory, "lobby")


def sign_up(browser: Any, server: Server, name: str) -> tuple[Any, Watched]:
    """A phone's browser signed up as ``name`` through the sign-up page."""
    context = browser.new_context(viewport=PHONE, locale="sv-SE")
    w = Watched(context)
    page = w.page
    page.goto(server.url + "/signup?lang=sv")
    page.fill("#name", name)
    page.fill("#password", "correct horse")
    page.click("#signup button[type=submit]")
    page.locator("#codes:not([hidden])").wait_for()
    return context, w


def test_a_friend_is_invited_and_joins_from_the_badge(browser: Any, server: Server) -> None:
    aw, lw = account_words("sv"), lobby_words("sv")
    anna_ctx, anna = sign_up(browser, server, "Annika")
    bert_ctx, bert = sign_up(browser, server, "Bertil")
    # Annika asks Bertil on the account page; he accepts on his
    anna.page.goto(server.url + "/account")
    anna.page.fill("#friend", "Bertil")
    anna.page.keyboard.press("Enter")
    anna.page.locator("#outgoing li", has_text="Bertil").wait_for()
    bert.page.goto(server.url + "/account")
    bert.page.locator("#incoming li", has_text="Annika").get_by_role(
        "button", name=aw["friend_accept"]
    ).click()
    bert.page.locator("#friends li", has_text="Annika").wait_for()
    # Annika starts a game from the start page with Bertil invited
    page = anna.page
    page.goto(server.url + "/")
    page.get_by_role("button", name=lw["invite_friends"]).click()
    page.locator("#friends-setup:not([hidden])").wait_for()
    page.get_by_role("checkbox", name="Bertil").check()
    assert_accessible(page)
    page.get_by_role("button", name=lw["invite_start"]).click()
    page.wait_for_url("**/g/*")
    game_id = page.url.rsplit("/", 1)[-1].split("?")[0]
    # Bertil's header shows the invitation; the badge leads to it; one tap seats him
    bert.page.goto(server.url + "/")
    badge = bert.page.locator("#invites-badge:not([hidden])")
    badge.wait_for()
    assert badge.inner_text() == lw["invitations_count"].replace("{count}", "1")
    badge.click()
    bert.page.wait_for_url("**/account*")
    item = bert.page.locator("#invitations li", has_text="Annika")
    item.wait_for()
    assert_accessible(bert.page)
    item.get_by_role("button", name=lw["accept"]).first.click()
    bert.page.wait_for_url(f"**/g/{game_id}*")
    seats = bert.page.evaluate(
        f"fetch('api/games/{game_id}').then((r) => r.json()).then((v) => v.you.seats)"
    )
    assert seats == [1]
    anna.assert_clean()
    bert.assert_clean()
    anna_ctx.close()
    bert_ctx.close()


def test_two_people_are_paired_from_the_lobby(browser: Any, server: Server) -> None:
    lw = lobby_words("sv")
    cilla_ctx, cilla = sign_up(browser, server, "Cilla")
    dan_ctx, dan = sign_up(browser, server, "Dan")
    for w in (cilla, dan):
        w.page.goto(server.url + "/lobby")
        w.page.locator("#quick select[name=rules]").select_option(index=1)
    assert_accessible(cilla.page)
    cilla.page.get_by_role("button", name=lw["quick_start"]).click()
    cilla.page.locator("#quick-wait:not([hidden])").wait_for()
    assert_accessible(cilla.page)
    dan.page.get_by_role("button", name=lw["quick_start"]).click()
    dan.page.wait_for_url("**/g/*")
    cilla.page.wait_for_url("**/g/*", timeout=10_000)
    assert cilla.page.url.split("?")[0] == dan.page.url.split("?")[0]
    # a seek on the lobby page: opened, shown, cancelled by its creator
    cilla.page.goto(server.url + "/lobby")
    cilla.page.get_by_role("button", name=lw["create"]).click()
    mine = cilla.page.locator("#seeks li", has_text="Cilla")
    mine.wait_for()
    assert_accessible(cilla.page)
    mine.get_by_role("button", name=lw["cancel"]).click()
    cilla.page.locator("#no-seeks:not([hidden])").wait_for()
    cilla.assert_clean()
    dan.assert_clean()
    cilla_ctx.close()
    dan_ctx.close()


def test_a_guest_may_look_at_the_lobby(browser: Any, server: Server) -> None:
    context = browser.new_context(viewport=PHONE, locale="fi-FI")
    w = Watched(context)
    w.page.goto(server.url + "/lobby?lang=fi")
    assert lobby_words("fi")["accounts_only"] in w.page.locator("#accounts-only").inner_text()
    assert w.page.get_by_role("button", name=lobby_words("fi")["quick_start"]).is_disabled()
    w.page.locator("#no-seeks:not([hidden])").wait_for()
    assert_accessible(w.page)
    w.assert_clean()
    context.close()
