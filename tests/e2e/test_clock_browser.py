"""A live game's clock in the browser (issue 26), on a phone: the countdown of the
seat to move (a timer that screen readers are not made to read every second), the
time-out and the other player's choice, and the absent player taking the seat
back; in Swedish and English, axe clean.

The server's time is moved on from here through the test-only clock file
(``YATZY_TEST_CLOCK_FILE``, :data:`yatzy.web.clocks.TEST_CLOCK_ENV`): the test
never waits for thirty real seconds."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import PHONE, Watched, assert_accessible, words
from tests.e2e.support import Server, served
from yatzy.web.account_words import account_words
from yatzy.web.clocks import TEST_CLOCK_ENV

pytestmark = pytest.mark.slow

CLOCK_FILE: list[Path] = []


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose clock reads the test's file; no strategy tables to build (the
    computer that stands in plays greedily)."""
    offset = tmp_path_factory.mktemp("clock") / "offset"
    offset.write_text("0")
    CLOCK_FILE[:] = [offset]
    saved = {k: os.environ.get(k) for k in (TEST_CLOCK_ENV, "YATZY_PREPARE_SPECS")}
    os.environ[TEST_CLOCK_ENV] = str(offset)
    os.environ["YATZY_PREPARE_SPECS"] = "none"
    try:
        yield from served(tmp_path_factory, "clock")
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


@pytest.mark.parametrize("lang", ["sv", "en"])
def test_the_countdown_the_time_out_and_the_choice(browser: Any, server: Server, lang: str) -> None:
    ann_context = browser.new_context(viewport=PHONE)
    bo_context = browser.new_context(viewport=PHONE)
    ann, bo = Watched(ann_context), Watched(bo_context)
    game = ann_context.request.post(
        f"{server.url}/api/games",
        data={
            "lang": lang,
            "seats": [{"name": "Ann", "here": True}, {"name": "Bo"}],
            "clock": {"mode": "live", "seconds": 30},
        },
    ).json()
    joined = bo_context.request.post(
        f"{server.url}/api/games/{game['id']}/join", data={"invite": game["invite"], "seat": 1}
    )
    assert joined.ok, joined.text()
    for w in (ann, bo):
        w.page.goto(f"{server.url}/g/{game['id']}?lang={lang}")
    first = joined.json()["turn"]["seat"]
    away, here = (ann, bo) if first == 0 else (bo, ann)
    away_name, here_name = ("Ann", "Bo") if first == 0 else ("Bo", "Ann")
    # the countdown: a timer, ticking down from 0:30 on both devices
    timer = here.page.locator("#clock-time[role=timer]")
    timer.wait_for()
    assert timer.get_attribute("aria-live") == "off"
    mine = words(lang, "clock_your_left").split("{time}")[0]
    theirs = words(lang, "clock_live_left", player=away_name).split("{time}")[0]
    here.page.wait_for_function(
        "([text]) => /0:(2\\d|30)/.test(document.getElementById('clock-time').textContent)"
        " && document.getElementById('clock-time').textContent.startsWith(text)",
        arg=[theirs],
    )
    # the other device may still be drawing its page
    away.page.wait_for_function(
        "([text]) => document.getElementById('clock-time').textContent.startsWith(text)",
        arg=[mine],
    )
    assert_accessible(here.page)
    # the time runs out: the server pauses the seat (its periodic look, or a view)
    advance(31)
    choice = here.page.locator("#clock-choices button[data-choice=computer]")
    choice.wait_for(timeout=30_000)
    assert choice.inner_text() == words(lang, "clock_computer", player=away_name)
    assert here.page.locator("#clock-news").inner_text() == words(
        lang, "clock_timed_out", player=away_name
    )
    assert here.page.locator("#clock-choices button[data-choice=end]").is_visible()
    away.page.locator("#clock-choices button[data-choice=back]").wait_for()
    assert_accessible(here.page)
    assert_accessible(away.page)
    # the other player lets the computer play; the absent one sees the way back
    choice.click()
    news = words(lang, "clock_computer_plays", player=away_name)
    here.page.wait_for_function(
        "([text]) => document.getElementById('clock-news').textContent.includes(text)",
        arg=[news],
    )
    back = away.page.locator("#clock-choices button[data-choice=back]")
    back.wait_for()
    # that device draws the choice when the news of it reaches it: until then its
    # button still reads "I am back" (a race seen once under CI's load)
    away.page.wait_for_function(
        "([text]) => document.querySelector('#clock-choices button[data-choice=back]')"
        "?.textContent === text",
        arg=[words(lang, "clock_take_back")],
    )
    assert back.inner_text() == words(lang, "clock_take_back")
    assert_accessible(away.page)
    # the computer plays the absent seat's turn; then it is the other player's
    here.page.wait_for_function(
        "() => document.getElementById('game').dataset.mine === '1'", timeout=60_000
    )
    played = words(lang, "clock_computer_turns", player=away_name, turns="1")
    assert played in here.page.locator("#clock-note").inner_text()
    back.click()
    away.page.wait_for_function(
        "() => !document.querySelector('#clock-choices button[data-choice=back]')"
    )
    assert here.page.locator("#clock-time").inner_text().startswith(mine)
    assert here_name in here.page.locator("#game").inner_text()
    for w in (ann, bo):
        w.assert_clean()
    ann_context.close()
    bo_context.close()


def test_a_daily_game_shows_its_deadline_and_the_days_left(browser: Any, server: Server) -> None:
    """A daily game in Finnish: the deadline as a weekday and a time (not a ticking
    countdown), and the account page's list with the days left."""
    context = browser.new_context(viewport=PHONE, locale="fi-FI")
    w = Watched(context)
    headers = {"X-Yatzy-CSRF": "1", "Origin": server.url}
    signed = context.request.post(
        f"{server.url}/api/account/signup",
        data={"name": "Päivi", "password": "correct horse"},
        headers=headers,
    )
    assert signed.ok, signed.text()
    game = context.request.post(
        f"{server.url}/api/games",
        data={
            "lang": "fi",
            "seats": [{"name": "Päivi", "here": True}],
            "clock": {"mode": "daily", "days": 3},
        },
        headers=headers,
    ).json()
    page = w.page
    page.goto(f"{server.url}/g/{game['id']}?lang=fi")
    timer = page.locator("#clock-time")
    prefix = words("fi", "clock_your_until").split("{when}")[0]
    page.wait_for_function(
        "([text]) => document.getElementById('clock-time').textContent.startsWith(text)",
        arg=[prefix],
    )
    assert not re.search(r"\d:\d\d:\d\d", timer.inner_text())  # no seconds ticking
    assert words("fi", "clock_per_turn_daily", days=3) in page.locator("#clock-note").inner_text()
    assert_accessible(page)
    page.goto(f"{server.url}/account?lang=fi")
    left = page.locator(f"#turns a[href='g/{game['id']}'] + .days-left")
    left.wait_for()
    assert account_words("fi")["days_left"].replace("{count}", "3") in left.inner_text()
    assert_accessible(page)
    w.assert_clean()
    context.close()
