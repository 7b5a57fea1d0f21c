"""Issue 26 as one story in the browser, against a real ``yatzy serve``: two people
sign up (Bo on a phone in Swedish, Anna on a laptop in English), become friends, Bo
turns notifications on, Anna invites him straight into a daily game from the start
page, the invitation reaches Bo's device by Web Push, he joins from the header's
badge, they play turns across simulated days (the account page's "n days left"),
then Bo goes silent past his deadline, Anna lets the computer play his seat, the
computer finishes it, the game ends, and the end reaches Bo's device.  Every page
met: no axe violation, no console error.

Time is moved from here through the test-only clock file
(``YATZY_TEST_CLOCK_FILE``); the server takes the loopback push service's endpoint
through the test-only ``YATZY_TEST_PUSH_LOOPBACK``.  The push service
(tests/web/push_service.py) checks each request's VAPID signature and decrypts its
payload with the keys the test made.  A headless chromium cannot reach a browser
vendor's push service: only ``PushManager.subscribe``/``getSubscription`` are
stubbed in Bo's pages, to hand out the test's subscription (its endpoint on the
loopback service, its keys); the service worker's registration, the permission and
the page's code are the real ones."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.helpers import (
    DESKTOP,
    PHONE,
    Watched,
    assert_accessible,
    play_turn,
    words,
)
from tests.e2e.support import Server, served
from tests.helpers import eventually
from tests.web.push_service import Device, PushService, decrypt, verify
from yatzy.web.account_words import account_words
from yatzy.web.clocks import TEST_CLOCK_ENV
from yatzy.web.lobby_words import lobby_words
from yatzy.web.notifications import TEST_PUSH_LOOPBACK_ENV

# The account page's notifications need the Push API: the full chromium.
pytestmark = [pytest.mark.slow, pytest.mark.full_chromium]

DAY = 24 * 3600
CLOCK_FILE: list[Path] = []

SUBSCRIBE = """
((subscription) => {
  // The test's subscription (an endpoint on its loopback push service, its keys):
  // what the browser vendor's push service would have handed out.
  let current = null;
  PushManager.prototype.getSubscription = async function () { return current; };
  PushManager.prototype.subscribe = async function (options) {
    if (!options.userVisibleOnly || new Uint8Array(options.applicationServerKey).length !== 65)
      throw new Error("not the server's P-256 key");
    current = {
      endpoint: subscription.endpoint,
      toJSON: () => ({ ...subscription, expirationTime: null }),
      unsubscribe: async () => { current = null; return true; },
    };
    return current;
  };
})(%s);
"""


@pytest.fixture(scope="module")
def push() -> Iterator[PushService]:
    """The loopback push service Bo's device subscribes on."""
    with PushService() as service:
        yield service


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose clock reads the test's file and which posts to the loopback
    push service; no strategy tables to build (the computer that stands in plays
    greedily)."""
    offset = tmp_path_factory.mktemp("story-clock") / "offset"
    offset.write_text("0")
    CLOCK_FILE[:] = [offset]
    env = {
        TEST_CLOCK_ENV: str(offset),
        TEST_PUSH_LOOPBACK_ENV: "1",
        "YATZY_PREPARE_SPECS": "none",
    }
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        yield from served(tmp_path_factory, "story")
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def advance(seconds: float) -> None:
    """Move the server's time on by ``seconds``."""
    offset = CLOCK_FILE[0]
    offset.write_text(str(float(offset.read_text()) + seconds))


def sign_up(browser: Any, server: Server, name: str, lang: str, viewport: Any) -> Watched:
    """A new browser signed up as ``name`` through the sign-up page."""
    context = browser.new_context(viewport=viewport, locale={"sv": "sv-SE"}.get(lang, "en-GB"))
    w = Watched(context)
    w.page.goto(f"{server.url}/signup?lang={lang}")
    w.page.fill("#name", name)
    w.page.fill("#password", "correct horse")
    w.page.click("#signup button[type=submit]")
    w.page.locator("#codes:not([hidden])").wait_for()
    return w


def pushed(server: Server, push: PushService, device: Device, kind: str) -> dict[str, Any]:
    """The one message of ``kind`` that came for the device (each message checked:
    its VAPID signature by the server's published key, then decrypted)."""
    key = httpx.get(f"{server.url}/api/push/key", timeout=5).json()["key"]

    def of_kind() -> list[dict[str, Any]]:
        out = []
        for received in push.to(device):
            verify(received, key, push.origin)
            message = decrypt(received, device)
            if message["kind"] == kind:
                out.append(message)
        return out

    found = eventually(of_kind, lambda m: len(m) >= 1, timeout=20, what=f"a {kind} push")
    assert len(found) == 1, found
    return found[0]


def wait_mine(page: Any, timeout: float = 30_000) -> bool:
    """Until this page's player is to act; False when the game ended first."""
    page.wait_for_function(
        "() => document.getElementById('game').dataset.mine === '1'"
        " || !document.getElementById('winner').hidden",
        timeout=timeout,
    )
    return not page.locator("#winner").is_visible()


def to_move(anna: Watched, bo: Watched) -> Watched:
    """The one of the two game pages whose player is to act (once a page says so)."""

    def mine() -> list[Watched]:
        return [w for w in (anna, bo) if w.page.locator("#game").get_attribute("data-mine") == "1"]

    (mover,) = eventually(mine, lambda found: len(found) == 1, timeout=30, what="a player to move")
    return mover


def test_two_friends_play_a_daily_game_and_the_computer_finishes_it(
    browser: Any, server: Server, push: PushService
) -> None:
    sv_lobby, sv_account, en_lobby = lobby_words("sv"), account_words("sv"), lobby_words("en")
    bo = sign_up(browser, server, "Bo", "sv", PHONE)
    anna = sign_up(browser, server, "Anna", "en", DESKTOP)

    # Anna asks Bo on her account page; he accepts on his phone
    anna.page.goto(server.url + "/account")
    anna.page.fill("#friend", "Bo")
    anna.page.keyboard.press("Enter")
    anna.page.locator("#outgoing li", has_text="Bo").wait_for()
    assert_accessible(anna.page)
    bo.page.goto(server.url + "/account")
    bo.page.locator("#incoming li", has_text="Anna").get_by_role(
        "button", name=sv_account["friend_accept"]
    ).click()
    bo.page.locator("#friends li", has_text="Anna").wait_for()

    # Bo turns notifications on: the real service worker, the test's subscription
    phone = push.device("bo-phone")
    subscription = phone.subscription("sv")
    bo.page.context.grant_permissions(["notifications"], origin=server.url)
    bo.page.context.add_init_script(
        SUBSCRIBE % json.dumps({"endpoint": subscription["endpoint"], "keys": subscription["keys"]})
    )
    bo.page.reload()
    bo.page.get_by_role("button", name=sv_account["push_on"]).click()
    bo.page.locator("#push-off:not([hidden])").wait_for()
    assert bo.page.locator("#push-state").inner_text().startswith(sv_account["push_is_on"])
    script = bo.page.evaluate("navigator.serviceWorker.ready.then(r => r.active.scriptURL)")
    assert script == server.url + "/sw.js"
    assert_accessible(bo.page)

    # Anna starts a daily game (3 days a move) from the start page, Bo invited
    page = anna.page
    page.goto(server.url + "/")
    page.get_by_role("button", name=en_lobby["invite_friends"]).click()
    setup = page.locator("#friends-setup")
    setup.get_by_role("checkbox", name="Bo").check()
    setup.get_by_label(words("en", "clock_pick")).select_option("daily:3")
    assert_accessible(page)
    setup.get_by_role("button", name=en_lobby["invite_start"]).click()
    page.wait_for_url("**/g/*")
    game_id = page.url.rsplit("/", 1)[-1].split("?")[0]

    # the invitation reaches Bo's phone: signed by the server, encrypted for his keys
    invite = pushed(server, push, phone, "invite")
    assert invite["game"] == game_id
    assert invite["title"] == "Inbjudan" and "Anna" in invite["body"]

    # Bo joins from the header's badge
    bo.page.goto(server.url + "/")
    badge = bo.page.locator("#invites-badge:not([hidden])")
    badge.wait_for(timeout=10_000)
    assert badge.inner_text() == sv_lobby["invitations_count"].replace("{count}", "1")
    badge.click()
    item = bo.page.locator("#invitations li", has_text="Anna")
    item.wait_for()
    assert_accessible(bo.page)
    item.get_by_role("button", name=sv_lobby["accept"]).first.click()
    bo.page.wait_for_url(f"**/g/{game_id}*")
    clock = page.evaluate(f"fetch('api/games/{game_id}').then(r => r.json()).then(v => v.clock)")
    assert clock["mode"] == "daily" and clock["days"] == 3 and clock["phase"] == "running"

    # two rounds across simulated days: a day passes before each move, and the one
    # to move sees the deadline on the game page and the days left on the account page
    for _ in range(4):
        advance(DAY)
        mover = to_move(anna, bo)
        lang = "sv" if mover is bo else "en"
        your_move = words(lang, "clock_your_until").split("{when}")[0]
        mover.page.reload()
        mover.page.wait_for_function(
            "([text]) => document.getElementById('clock-time').textContent.startsWith(text)",
            arg=[your_move],
        )
        mover.page.goto(server.url + "/account")
        left = mover.page.locator(f"#turns a[href='g/{game_id}'] + .days-left")
        left.wait_for()
        days = account_words(lang)["days_left"].replace("{count}", "2")
        assert left.inner_text().strip(" –") == days
        assert_accessible(mover.page)
        mover.page.locator(f"#turns a[href='g/{game_id}']").click()
        mover.page.wait_for_url(f"**/g/{game_id}*")
        assert wait_mine(mover.page, timeout=30_000)
        play_turn(mover.page, keyboard=True, rolls=1)
    assert_accessible(anna.page)
    assert_accessible(bo.page)

    # Bo goes silent: his turn comes, his phone is put away, three days pass
    if to_move(anna, bo) is anna:
        play_turn(anna.page, keyboard=True, rolls=1)
    bo.page.goto("about:blank")
    advance(3 * DAY + 60)
    computer = anna.page.locator("#clock-choices button[data-choice=computer]")
    computer.wait_for(timeout=30_000)
    assert computer.inner_text() == words("en", "clock_computer", player="Bo")
    assert_accessible(anna.page)
    computer.click()
    anna.page.wait_for_function(
        "([text]) => document.getElementById('clock-news').textContent.includes(text)",
        arg=[words("en", "clock_computer_plays", player="Bo")],
    )

    # the computer finishes Bo's seat while Anna plays hers to the end
    for _ in range(20):
        if not wait_mine(anna.page):
            break
        play_turn(anna.page, keyboard=True, rolls=1)
    anna.page.locator("#winner:not([hidden])").wait_for()
    final = page.evaluate(f"fetch('api/games/{game_id}').then(r => r.json())")
    assert final["finished"]
    assert [s for s, _ in final["clock"]["computer_turns"]] == [1] * len(
        final["clock"]["computer_turns"]
    )
    assert len(final["clock"]["computer_turns"]) >= 10
    assert_accessible(anna.page)

    # the end reaches Bo's phone (where the roll-off let Anna start, the computer
    # made the game's last move, for him: tests/web/test_web_push.py checks both)
    ended = pushed(server, push, phone, "ended")
    assert ended["game"] == game_id and ended["title"] == "Spelet är slut"
    anna.assert_clean()
    bo.assert_clean()
    anna.page.context.close()
    bo.page.context.close()
