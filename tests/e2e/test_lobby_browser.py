"""Two people sign up, become friends, and one invites the other straight into a game
from the start page: the other finds the invitation in the header, joins from the
account page with one tap and plays the seat on their account.  The lobby page on a
phone: two people paired by "play someone now" are both sent to their game.  Each
page: no axe violation, no console error."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.helpers import PHONE, Watched, assert_accessible, words
from tests.e2e.support import Server, served
from yatzy.web.account_words import account_words
from yatzy.web.lobby_words import lobby_words


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # six accounts are made here: more than the sign-up limit's minute allows
    yield from served(tmp_path_factory, "lobby", args=["--limit-signups", "0"])


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
    # and a computer at the table from the start, at the level picked in its row
    page.locator("#friend-add-bot").click()
    page.locator("#friend-bots select").select_option("random")
    assert page.evaluate("document.activeElement.matches('#friend-bots select')")
    assert_accessible(page)
    page.get_by_role("button", name=lw["invite_start"]).click()
    page.wait_for_url("**/g/*")
    game_id = page.url.rsplit("/", 1)[-1].split("?")[0]
    bots = page.evaluate(
        f"fetch('api/games/{game_id}').then((r) => r.json())"
        ".then((v) => v.players.map((p) => p.bot))"
    )
    assert bots == [None, None, "random"]
    # the game waits for Bertil (its computer does not move before he joins), and says so
    lang = page.evaluate("document.documentElement.lang")
    line = page.locator("#waiting-join:not([hidden])")
    line.wait_for()
    assert line.inner_text() == words(lang, "awaiting_join", players="Bertil")
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
    page.wait_for_selector("#waiting-join[hidden]", state="attached")  # all seated now
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


def test_a_rematch_from_the_finished_game_invites_the_friend(browser: Any, server: Server) -> None:
    from tests.web.test_web_api import next_action

    headers = {"X-Yatzy-CSRF": "1", "Origin": server.url}
    contexts = {}
    for name in ("Erik", "Frida"):
        ctx = browser.new_context(viewport=PHONE, locale="en-GB")
        r = ctx.request.post(
            f"{server.url}/api/account/signup",
            data={"name": name, "password": "correct horse"},
            headers=headers,
        )
        assert r.ok, r.text()
        contexts[name] = ctx
    erik, frida = contexts["Erik"].request, contexts["Frida"].request
    assert erik.post(
        f"{server.url}/api/friends/request", data={"name": "Frida"}, headers=headers
    ).ok
    assert frida.post(f"{server.url}/api/friends/accept", data={"name": "Erik"}, headers=headers).ok
    made = erik.post(
        f"{server.url}/api/invitations", data={"friends": ["Frida"]}, headers=headers
    ).json()
    (inv,) = frida.get(f"{server.url}/api/invitations").json()["invitations"]
    assert frida.post(f"{server.url}/api/invitations/{inv['id']}/accept", headers=headers).ok
    gid = made["game"]
    by_seat = {0: erik, 1: frida}
    for _ in range(400):  # play it out, each seat by its own player
        v = erik.get(f"{server.url}/api/games/{gid}").json()
        if v["finished"]:
            break
        who = by_seat[v["turn"]["seat"]]
        mine = who.get(f"{server.url}/api/games/{gid}").json()
        r = who.post(f"{server.url}/api/games/{gid}/actions", data={"action": next_action(mine)})
        assert r.ok, r.text()
    w = Watched(contexts["Erik"])
    w.page.goto(f"{server.url}/g/{gid}")
    w.page.locator("#winner:not([hidden])").wait_for()
    w.page.locator("#rematch").click()
    w.page.wait_for_url(lambda url: "/g/" in url and gid not in url)
    again = w.page.url.rsplit("/", 1)[-1].split("?")[0]
    (inv,) = frida.get(f"{server.url}/api/invitations").json()["invitations"]
    assert inv["game"] == again and inv["by"] == "Erik"
    seats = erik.get(f"{server.url}/api/games/{again}").json()["you"]["seats"]
    assert seats == [0]
    w.assert_clean()
    for ctx in contexts.values():
        ctx.close()
