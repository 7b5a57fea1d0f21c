"""The account page's notifications in a phone-sized chromium: nothing is asked on
load; the button asks for permission, registers the service worker (/sw.js, the
app's whole scope) and hands the device's subscription to the server; the kinds
are switched; the device is turned off again.  Axe finds nothing.

A real push subscription needs the browser vendor's push service, which an offline
headless chromium cannot reach: ``PushManager``'s ``subscribe``/``getSubscription``
and ``Notification.requestPermission`` are stubbed in this test only (the page's
code is the real one); the push itself is tested end to end against a loopback push
service in tests/web/test_web_push.py."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.helpers import PHONE, Watched, assert_accessible
from tests.e2e.support import Server, served
from yatzy.web.account_words import account_words

# The Push API of the account page's notifications: the full chromium.
pytestmark = pytest.mark.full_chromium

STUB = """
(() => {
  window.__asked = 0;
  window.__keyLength = 0;
  Notification.requestPermission = async () => { window.__asked += 1; return "granted"; };
  let current = null;
  const b64 = (n) => btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(n))))
    .replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
  if (window.PushManager) {
    PushManager.prototype.getSubscription = async function () { return current; };
    PushManager.prototype.subscribe = async function (options) {
      window.__keyLength = new Uint8Array(options.applicationServerKey).length;
      const endpoint = "https://push.example.org/send/" + b64(16);
      const keys = { p256dh: b64(65), auth: b64(16) };
      current = {
        endpoint,
        toJSON: () => ({ endpoint, expirationTime: null, keys }),
        unsubscribe: async () => { current = null; return true; },
      };
      return current;
    };
  }
})();
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from served(tmp_path_factory, "push")


def test_the_account_page_turns_notifications_on_and_off(browser: Any, server: Server) -> None:
    context = browser.new_context(viewport=PHONE, locale="fi-FI")
    context.add_init_script(STUB)
    w = Watched(context)
    headers = {"X-Yatzy-CSRF": "1", "Origin": server.url}
    signed = context.request.post(
        f"{server.url}/api/account/signup",
        data={"name": "Pekka", "password": "correct horse"},
        headers=headers,
    )
    assert signed.ok, signed.text()
    words = account_words("fi")
    page = w.page
    page.goto(server.url + "/account?lang=fi")
    button = page.locator("#push-on:not([hidden])")
    button.wait_for()
    assert button.inner_text() == words["push_on"]
    assert page.locator("#push-state").inner_text() == words["push_is_off"]
    assert page.evaluate("window.__asked") == 0  # nothing asked on load
    assert page.evaluate("navigator.serviceWorker.getRegistration()") is None
    assert_accessible(page)

    button.click()
    page.locator("#push-off:not([hidden])").wait_for()
    assert page.evaluate("window.__asked") == 1
    assert page.evaluate("window.__keyLength") == 65  # the server's P-256 key
    scope, script = page.evaluate(
        "navigator.serviceWorker.ready.then(r => [r.scope, r.active.scriptURL])"
    )
    assert scope == server.url + "/" and script == server.url + "/sw.js"
    state = page.locator("#push-state").inner_text()
    assert state.startswith(words["push_is_on"])
    assert words["push_devices"].replace("{count}", "1") in state
    assert context.request.get(f"{server.url}/api/push").json()["devices"] == 1

    friend = page.locator("#push-kinds input[name=friend]")
    assert friend.is_checked()
    friend.uncheck()
    page.wait_for_function(
        "fetch('api/push').then(r => r.json()).then(v => v.kinds.friend === false)"
    )
    assert_accessible(page)

    page.locator("#push-off").click()
    page.locator("#push-on:not([hidden])").wait_for()
    assert page.locator("#push-state").inner_text() == words["push_is_off"]
    assert context.request.get(f"{server.url}/api/push").json()["devices"] == 0
    w.assert_clean()
    context.close()
