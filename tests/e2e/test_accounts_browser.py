"""Accounts in the browser: a person signs up on a phone (in Swedish), sees the
recovery codes once, starts a game and logs out; logs in on a laptop (in English)
with the password and plays the same seat there, then back on the phone with a
recovery code and plays on.  Every account page has zero axe-core violations, and
no console error or CSP violation (the pages' policy is in force here)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import DESKTOP, PHONE, Watched, assert_accessible
from tests.e2e.support import Server
from yatzy.web.account_words import account_words

pytestmark = pytest.mark.slow

NAME = "Maja Testsson"
PASSWORD = "tärningar och kaffe"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``yatzy serve`` over a fresh SQLite database (default limits and hashing)."""
    folder: Path = tmp_path_factory.mktemp("accounts")
    with Server(f"sqlite:///{folder / 'e2e.db'}", log=folder / "server.log") as s:
        yield s


def played(page: Any, act: Any) -> None:
    """Do ``act`` on the game page and wait until the page shows a newer version."""
    from playwright.sync_api import expect

    game = page.locator("#game")
    expect(game).to_have_attribute("data-mine", "1", timeout=60_000)
    seen = game.get_attribute("data-version")
    act()
    if page.locator("#confirm[open]").count():
        page.locator("#confirm-yes").click()
    expect(game).not_to_have_attribute("data-version", seen or "", timeout=60_000)


def test_sign_up_log_out_and_play_one_seat_from_two_browsers(browser: Any, server: Server) -> None:
    from playwright.sync_api import expect

    sv, en = account_words("sv"), account_words("en")
    phone = Watched(browser.new_context(viewport=PHONE, locale="sv-SE"))
    laptop = Watched(browser.new_context(viewport=DESKTOP, locale="en-GB"))
    page = phone.page

    # sign up on the phone: the recovery codes are shown once
    page.goto(server.url + "/signup?lang=sv")
    assert_accessible(page)
    page.locator("#name").fill(NAME)
    page.locator("#password").fill(PASSWORD)
    page.locator("#signup button[type=submit]").click()
    expect(page.locator("#codes")).to_be_visible()
    codes = page.locator("#code-list li").all_text_contents()
    assert len(codes) == 10 and len(set(codes)) == 10
    assert page.evaluate("document.activeElement.id") == "codes-h"
    assert_accessible(page)
    page.locator("#codes-done").click()
    page.wait_for_url("**/account")
    expect(page.locator(".account-link")).to_have_text(NAME)
    expect(page.locator("#sessions li.session")).to_have_count(1)
    expect(page.locator("#sessions")).to_contain_text(sv["this_device"])
    assert_accessible(page)

    # a solo game, one roll, then log out
    page.goto(server.url + "/")
    page.locator("#play-solo").click()
    page.wait_for_url("**/g/*")
    game_url = page.url.split("?")[0]
    played(page, lambda: page.locator("#roll").click())
    page.goto(server.url + "/account")
    page.locator("#logout").click()
    page.wait_for_url(server.url + "/")
    expect(page.locator(".account-link")).to_have_text(sv["login"])

    # log in on the laptop with the password (keyboard only) and play the seat there
    other = laptop.page
    other.goto(server.url + "/login?lang=en")
    assert_accessible(other)
    other.locator("#name").focus()
    other.keyboard.type(NAME)
    other.keyboard.press("Tab")
    other.keyboard.type(PASSWORD)
    other.keyboard.press("Enter")
    other.wait_for_url("**/account")
    expect(other.locator(".account-link")).to_have_text(NAME)
    expect(other.locator("#codes-left")).to_contain_text("10")
    assert_accessible(other)
    other.goto(game_url)
    played(other, lambda: other.locator("button.choose").first.click())

    # back on the phone: log in with a recovery code, and play on
    page.goto(server.url + "/login")
    page.locator("#switch").click()
    expect(page.locator("#code")).to_be_focused()
    page.locator("#name").fill(NAME)
    page.locator("#code").fill(codes[0])
    assert_accessible(page)
    page.locator("#login button[type=submit]").click()
    page.wait_for_url("**/account")
    expect(page.locator("#codes-left")).to_contain_text("9")
    expect(page.locator("#sessions li.session")).to_have_count(2)
    page.goto(game_url)
    played(page, lambda: page.locator("#roll").click())
    assert en["login"] != sv["login"]
    phone.assert_clean()
    laptop.assert_clean()


def test_friends_on_the_account_page(browser: Any, server: Server) -> None:
    """Two people sign up (Finnish on a phone, English on a laptop); one sends a
    friend request by name, the other sees it and accepts it by keyboard; both then
    list each other, and the pages stay accessible."""
    from playwright.sync_api import expect

    fi = account_words("fi")
    one = Watched(browser.new_context(viewport=PHONE, locale="fi-FI"))
    two = Watched(browser.new_context(viewport=DESKTOP, locale="en-GB"))
    for w, name, lang in ((one, "Aino", "fi"), (two, "Bertil", "en")):
        w.page.goto(f"{server.url}/signup?lang={lang}")
        w.page.locator("#name").fill(name)
        w.page.locator("#password").fill(PASSWORD)
        w.page.locator("#signup button[type=submit]").click()
        expect(w.page.locator("#codes")).to_be_visible()
        w.page.goto(server.url + "/account")
    page = one.page
    expect(page.locator("#no-friends")).to_be_visible()
    page.locator("#friend").fill("bertil")
    page.locator("#add-friend button[type=submit]").click()
    expect(page.locator("#outgoing li")).to_have_text(f"Bertil {fi['friend_cancel']}")
    assert_accessible(page)
    other = two.page
    other.reload()
    expect(other.locator("#incoming li .who")).to_have_text("Aino")
    assert_accessible(other)
    other.locator("#incoming li button").first.focus()
    other.keyboard.press("Enter")
    expect(other.locator("#friends li .who")).to_have_text("Aino")
    expect(other.locator("#incoming li")).to_have_count(0)
    page.reload()
    expect(page.locator("#friends li .who")).to_have_text("Bertil")
    page.locator("#friend").fill("nobody here")
    page.locator("#add-friend button[type=submit]").click()
    expect(page.locator("#friend-error")).to_have_text(fi["friend_unknown"])
    assert_accessible(page)
    # the browser notes the refused request (404) in its console; nothing else
    assert one.errors == [
        "console: Failed to load resource: the server responded with a status of 404 (Not Found)"
    ]
    two.assert_clean()


def test_a_passkey_added_then_logging_in_with_it(browser: Any, server: Server) -> None:
    """With Chromium's virtual authenticator (the real WebAuthn protocol, checked by
    the server): a person adds a passkey on the account page, logs out, and logs in
    with the passkey alone.  The site is ``localhost`` (an IP address cannot be a
    WebAuthn relying party)."""
    from playwright.sync_api import expect

    site = f"http://localhost:{server.port}"
    w = Watched(browser.new_context(viewport=PHONE, locale="en-GB"))
    page = w.page
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
        },
    )
    page.goto(site + "/signup")
    page.locator("#name").fill("Passe Nyckel")
    page.locator("#password").fill(PASSWORD)
    page.locator("#signup button[type=submit]").click()
    expect(page.locator("#codes")).to_be_visible()
    page.goto(site + "/account")
    expect(page.locator("#passkey-section")).to_be_visible()
    page.locator("#passkey-add").click()
    expect(page.locator("#passkeys li")).to_have_count(1)
    assert_accessible(page)
    page.locator("#logout").click()
    page.wait_for_url(site + "/")
    page.goto(site + "/login")
    page.locator("#passkey-login").click()
    page.wait_for_url("**/account")
    expect(page.locator(".account-link")).to_have_text("Passe Nyckel")
    expect(page.locator("#sessions li.session")).to_have_count(1)
    w.assert_clean()


def test_the_account_page_is_accessible_before_its_lists_arrive(
    browser: Any, server: Server
) -> None:
    """The account page's lists show "…" until their requests answer: those
    placeholders had ``role="status"`` on a list item, which axe-core refuses (a slow
    answer under CI's load once caught it). Here the answers never come."""
    from playwright.sync_api import expect

    watched = Watched(browser.new_context(viewport=PHONE, locale="sv-SE"))
    page = watched.page
    page.goto(f"{server.url}/signup?lang=sv")
    page.locator("#name").fill("Siri Väntar")
    page.locator("#password").fill(PASSWORD)
    page.locator("#signup button[type=submit]").click()
    expect(page.locator("#codes")).to_be_visible()
    page.route("**/api/account/**", lambda route: None)  # held: never answered
    page.goto(server.url + "/account", wait_until="domcontentloaded")
    expect(page.locator("#turns li")).to_have_text("…")
    assert_accessible(page)
    page.unroute("**/api/account/**")
