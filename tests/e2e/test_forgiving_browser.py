"""Forgiving play in a real browser (issue 24): a write is taken back until the
player acts again, against the computer (whose move, a roll, waits) and on
pass-and-play's hand-over card; tap-to-confirm on touch screens; no enabled button
that the server would refuse; the focus stays in play after every key; hints
switched on and off during the game."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import (
    VIEWPORTS,
    Watched,
    assert_accessible,
    best_box,
    confirm_if_asked,
    focus_is_in_play,
    rewrite_views,
    roll,
    score_by_keyboard,
    version,
    wait_change,
    wait_mine,
    words,
)
from tests.e2e.support import Server, next_action
from tests.e2e.test_browser import RUNS, RUNS_PHONE_FIRST, _BypassCSP
from tests.helpers import eventually

pytestmark = pytest.mark.slow

GAME_URL = re.compile(r".*/g/[0-9a-f]{32}$")


@pytest.fixture(scope="module")
def browser(browser: Any) -> Any:
    """The conftest's chromium, its pages' CSP bypassed (``wait_for_function``)."""
    return _BypassCSP(browser)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose computer waits a minute on a write that can be taken back (so
    only the player's "go on" lets it move within these tests)."""
    folder: Path = tmp_path_factory.mktemp("forgiving")
    with Server(
        f"sqlite:///{folder / 'e2e.db'}",
        bot_delay=0.01,
        undo_grace=60.0,
        log=folder / "server.log",
    ) as s:
        yield s


def _page(browser: Any, lang: str, size: str, **kw: Any) -> tuple[Any, Watched]:
    locale = {"sv": "sv-SE", "fi": "fi-FI"}.get(lang, "en-GB")
    context = browser.new_context(viewport=VIEWPORTS[size], locale=locale, **kw)
    return context, Watched(context)


def _against_the_computer(page: Any, server: Server) -> None:
    """Start a game against the weakest computer."""
    page.goto(server.url + "/")
    page.locator("#bot-level").select_option("random")
    page.locator("#play-bot").click()
    page.wait_for_url(GAME_URL)
    assert wait_mine(page)


def _box_name(page: Any, box: str) -> str:
    """The box's name as the page writes it (in the page's language)."""
    return str(
        page.evaluate(f"JSON.parse(document.getElementById('game').dataset.boxes)[{box!r}].name")
    )


def _dice(page: Any) -> list[str]:
    return page.eval_on_selector_all(".die", "ds => ds.map(d => d.getAttribute('aria-label'))")


@pytest.mark.parametrize(("lang", "size"), RUNS)
def test_undo_against_the_computer_until_going_on(
    browser: Any, server: Server, lang: str, size: str
) -> None:
    context, w = _page(browser, lang, size)
    page = w.page
    _against_the_computer(page, server)
    roll(page)
    dice = _dice(page)
    box, _ = best_box(page)
    score_by_keyboard(page, box)
    # the computer waits: nobody sees its roll while the write can be taken back
    written = version(page)
    bot = page.locator("#protocol th.current").inner_text().split("\n")[0].strip()
    go_on = page.locator("#go-on")
    assert go_on.is_visible() and go_on.inner_text() == words(lang, "go_on", player=bot)
    assert page.locator("#undo").is_visible()
    waits = words(lang, "bot_waits", player=bot, box=_box_name(page, box))
    assert page.locator("#status").inner_text() == waits
    # the tray says when the computer rolls, never its "Not rolled yet · Rolls left: 3"
    tray = page.locator("#dice").inner_text().strip()
    assert tray == words(lang, "bot_rolls_after_go_on", player=bot)
    assert page.locator("#rolls-left").inner_text().strip() == ""
    assert_accessible(page)
    page.wait_for_timeout(1500)  # its 0.01 s delay is long past: the undo holds it
    assert version(page) == written
    # U takes the write back: the same dice, the same turn, and the focus in play
    page.keyboard.press("u")
    wait_change(page, written)
    assert _dice(page) == dice and page.locator(f'button.choose[data-box="{box}"]').count() == 1
    assert focus_is_in_play(page)
    # written again, and "go on" (the button, or R: the next action's key): the
    # computer moves, the write stands
    score_by_keyboard(page, box)
    if size == "phone":
        page.locator("#go-on").click()
    else:
        page.keyboard.press("r")
    assert wait_mine(page, timeout=30_000)  # half the grace: going on released it
    assert page.locator("#undo").is_hidden() and page.locator("#go-on").is_hidden()
    assert page.locator("#error").inner_text() == ""
    w.assert_clean()
    context.close()


@pytest.mark.parametrize(("lang", "size"), RUNS_PHONE_FIRST)
def test_undo_on_the_hand_over_card(browser: Any, server: Server, lang: str, size: str) -> None:
    context, w = _page(browser, lang, size)
    page = w.page
    page.goto(server.url + "/")
    page.locator('button[data-mode="hotseat"]').click()
    page.locator("#start-btn").click()
    page.wait_for_url(GAME_URL)
    assert wait_mine(page)
    roll(page, None)
    dice = _dice(page)
    box, _ = best_box(page)
    seen = version(page)
    page.locator(f'button.choose[data-box="{box}"]').click()
    wait_change(page, seen)
    page.wait_for_selector("#handover:not([hidden])")
    undo = page.locator("#handover-undo")
    assert undo.is_visible()
    assert undo.inner_text() == words(lang, "undo_box", box=_box_name(page, box))
    assert_accessible(page)
    seen = version(page)
    undo.click()
    wait_change(page, seen)
    # the writer's turn again, with the same dice, and the card gone
    assert page.locator("#handover").is_hidden()
    assert _dice(page) == dice
    assert page.locator(f'button.choose[data-box="{box}"]').count() == 1
    assert focus_is_in_play(page)
    w.assert_clean()
    context.close()


@pytest.mark.parametrize("lang", ["sv", "fi"])
def test_tap_to_confirm_on_a_touch_screen(browser: Any, server: Server, lang: str) -> None:
    context, w = _page(browser, lang, "phone", has_touch=True, is_mobile=True)
    page = w.page
    _against_the_computer(page, server)
    assert page.locator("#tap-confirm").is_checked()  # on by default on touch screens
    page.locator("#roll").tap()
    page.wait_for_selector(".die")
    box, points = best_box(page)
    seen = version(page)
    target = page.locator(f'button.choose[data-box="{box}"]')
    target.tap()
    page.wait_for_timeout(300)
    assert version(page) == seen  # the first tap only chooses
    assert "armed" in (target.get_attribute("class") or "")
    assert page.locator("#armed").inner_text() == words(
        lang, "tap_again", box=_box_name(page, box), points=points
    )
    target.tap()
    wait_change(page, seen)
    assert page.locator(f'tr[data-row="{box}"] td').first.inner_text().strip() == str(points)
    w.assert_clean()
    context.close()


@pytest.mark.parametrize(("lang", "size"), RUNS)
def test_keeping_every_die_leaves_no_roll_to_refuse(
    browser: Any, server: Server, lang: str, size: str
) -> None:
    context, w = _page(browser, lang, size)
    page = w.page
    _against_the_computer(page, server)
    assert not page.locator("#tap-confirm").is_checked()  # a mouse writes with one click
    roll(page)
    for key in "12345":
        page.keyboard.press(key)
    button = page.locator("#roll")
    assert button.is_disabled() and button.inner_text() == words(lang, "all_kept")
    seen = version(page)
    page.keyboard.press("r")
    page.wait_for_timeout(500)
    assert version(page) == seen and page.locator("#error").inner_text() == ""
    page.keyboard.press("5")  # one die let go: it can be rolled again
    assert button.is_enabled()
    assert focus_is_in_play(page)
    w.assert_clean()
    context.close()


@pytest.mark.parametrize(("lang", "size"), RUNS_PHONE_FIRST)
def test_hints_switched_during_the_game(browser: Any, server: Server, lang: str, size: str) -> None:
    context, w = _page(browser, lang, size)
    page = w.page
    _against_the_computer(page, server)
    switch = page.locator("#hints-switch")
    label = page.locator("#hints-switch-wrap label")
    assert label.is_visible() and label.inner_text().strip() == words(lang, "hints")
    assert not switch.is_checked()
    roll(page)
    assert page.locator("#hint").is_hidden()
    seen = version(page)
    switch.check()
    wait_change(page, seen)
    page.wait_for_selector("#hint:not([hidden])")
    assert page.locator("#hint").inner_text().strip() != ""
    assert focus_is_in_play(page)
    assert_accessible(page)
    seen = version(page)
    switch.uncheck()
    wait_change(page, seen)
    page.wait_for_selector("#hint", state="hidden")
    page.reload()  # the switch is the game's, not the page's
    page.wait_for_selector(".die")
    assert not page.locator("#hints-switch").is_checked() and page.locator("#hint").is_hidden()
    w.assert_clean()
    context.close()


@pytest.mark.parametrize(("lang", "size"), RUNS)
def test_bonus_par_and_scratches_explained(
    browser: Any, server: Server, lang: str, size: str
) -> None:
    context, w = _page(browser, lang, size)
    page = w.page
    _against_the_computer(page, server)
    name = page.locator("tr.par .box-name")
    assert name.get_attribute("aria-expanded") == "false"
    name.click()
    help_line = page.locator("#help-par")
    assert help_line.is_visible() and help_line.inner_text() == words(lang, "par_help")
    assert_accessible(page)
    # a scratch is "–" with its meaning on it, a 0 written with the dice is "0"
    # shown only once the sheet has a scratch (the computer's own, perhaps)
    scratches = page.locator("#protocol .scratched").count()
    assert page.locator("#sheet-key").is_visible() == (scratches > 0)
    roll(page)
    page.locator("#scratch-mode").click()
    box = page.locator("button.choose.scratch").last.get_attribute("data-box")
    seen = version(page)
    page.locator(f'button.choose[data-box="{box}"]').click()
    if page.locator("#confirm[open]").count():
        page.locator("#confirm-yes").click()
    wait_change(page, seen)
    mark = page.locator(f'tr[data-row="{box}"] td .scratched').first
    assert mark.inner_text() == "–" and mark.get_attribute("title") == words(
        lang, "scratched_title"
    )
    # and said in words under the sheet, where a phone shows no tooltip
    key = page.locator("#sheet-key")
    assert key.is_visible() and key.inner_text() == words(lang, "scratched_key")
    w.assert_clean()
    context.close()


@pytest.mark.parametrize(("lang", "size"), [("sv", "phone"), ("fi", "desktop")])
def test_scratch_says_what_it_does(browser: Any, server: Server, lang: str, size: str) -> None:
    # Issue 24: "Stryk …" did not say what it does: pressed, a line under the controls
    # says it (the box chosen next gets 0 and stays closed), the button is described by
    # it, and cancelling takes the line away.
    context, w = _page(browser, lang, size)
    page = w.page
    _against_the_computer(page, server)
    page.locator("#roll").click()
    page.wait_for_selector(".die")
    explain = page.locator("#scratch-explain")
    assert not explain.is_visible()
    button = page.locator("#scratch-mode")
    assert button.get_attribute("title") == words(lang, "scratch_explain")
    button.click()
    assert explain.is_visible()
    assert explain.inner_text() == words(lang, "scratch_explain")
    assert button.get_attribute("aria-describedby") == "scratch-explain"
    assert_accessible(page)
    button.click()  # cancel
    assert not explain.is_visible()
    w.assert_clean()
    context.close()


def _at_the_last_box(context: Any, server: Server, spec: str, lang: str) -> str:
    """A solo game of this browser's, played through the API up to its last turn with
    the dice rolled: the next write ends it.  Its id."""
    request = context.request
    created = request.post(
        f"{server.url}/api/games",
        data={"rules": spec, "lang": lang, "seats": [{"name": "Anna", "here": True}]},
    )
    assert created.ok, created.text()
    gid = str(created.json()["id"])
    for _ in range(200):
        view = request.get(f"{server.url}/api/games/{gid}").json()
        turn = view["turn"]
        if turn["ends_game"] and turn["dice"] is not None:
            return gid
        answer = request.post(
            f"{server.url}/api/games/{gid}/actions", data={"action": next_action(view, 1)}
        )
        assert answer.ok, answer.text()
    raise AssertionError("the game never reached its last box")


def _stored(context: Any, server: Server, gid: str) -> dict[str, Any]:
    view: dict[str, Any] = context.request.get(f"{server.url}/api/games/{gid}").json()
    return view


@pytest.mark.parametrize(("lang", "size"), RUNS_PHONE_FIRST)
def test_the_games_last_write_is_held_with_undo_until_the_game_is_ended(
    browser: Any, server: Server, lang: str, size: str
) -> None:
    context, w = _page(browser, lang, size)
    page = w.page
    gid = _at_the_last_box(context, server, "yatzy", lang)
    page.goto(f"{server.url}/g/{gid}")
    assert wait_mine(page)
    box, points = best_box(page)
    seen = version(page)
    total = sum(_stored(context, server, gid)["totals"])
    # the last box, written: drawn in the sheet with the new total, and held
    page.locator(f'button.choose[data-box="{box}"]').click()
    confirm_if_asked(page)
    end = page.locator("#end-game")
    end.wait_for(state="visible")
    cell = page.locator(f'tr[data-row="{box}"] td').first
    assert cell.inner_text().strip() == str(points)
    assert "held-write" in (cell.locator("span").first.get_attribute("class") or "")
    held_total = page.locator("#protocol tr.total td").first.inner_text().strip()
    assert int(held_total) >= total + points  # (an upper box may bring the bonus too)
    assert page.locator("#status").inner_text() == words(
        lang, "held_last", player="Anna", box=_box_name(page, box), total=held_total
    )
    undo = page.locator("#undo")
    assert undo.is_visible() and undo.inner_text() == words(
        lang, "undo_box", box=_box_name(page, box)
    )
    assert end.inner_text() == words(lang, "end_game")
    assert page.evaluate("document.activeElement.id") == "end-game"
    assert page.locator("#roll").is_hidden() and page.locator("#winner").is_hidden()
    assert_accessible(page)
    # nothing was sent: the game is where it was, for the server and everyone else
    assert version(page) == seen and not _stored(context, server, gid)["finished"]
    # U takes it back: the box is open again, the dice the same, the focus in play
    page.keyboard.press("u")
    end.wait_for(state="hidden")
    assert page.locator("#announce").inner_text() == words(
        lang, "held_undone", box=_box_name(page, box)
    )
    assert page.locator(f'button.choose[data-box="{box}"]').count() == 1
    assert page.locator("#protocol tr.total td").first.inner_text().strip() == str(total)
    assert focus_is_in_play(page) and version(page) == seen
    # written again (by keyboard), then ended with Enter: now the game is over
    letter = page.locator(f'tr[data-row="{box}"] kbd.key').text_content() or ""
    page.keyboard.press(letter.lower())
    page.keyboard.press("Enter")
    confirm_if_asked(page)
    end.wait_for(state="visible")
    page.keyboard.press("Enter")
    page.wait_for_selector("#winner:not([hidden])")
    stored = _stored(context, server, gid)
    assert stored["finished"] and stored["version"] == seen + 1
    assert page.locator("#undo").is_hidden() and stored["undo"] is None
    w.assert_clean()
    context.close()


def test_dubbel_yatzys_last_two_boxes_are_held_together(browser: Any, server: Server) -> None:
    context, w = _page(browser, "sv", "desktop")
    page = w.page
    gid = _at_the_last_box(context, server, "dubbel", "sv")
    page.goto(f"{server.url}/g/{gid}")
    assert wait_mine(page)
    seen = version(page)
    first, second = _stored(context, server, gid)["turn"]["allowed"]
    page.locator(f'button.choose[data-box="{first}"][data-layer="inner"]').click()
    page.locator(f'button.choose[data-box="{second}"][data-layer="outer"]').click()
    confirm_if_asked(page)
    page.locator("#end-game").wait_for(state="visible")
    both = f"{_box_name(page, first)} + {_box_name(page, second)}"
    assert page.locator("#undo").inner_text() == words("sv", "undo_box", box=both)
    page.locator("#undo").click()
    page.locator("#end-game").wait_for(state="hidden")
    assert page.locator("button.choose").count() == 4  # both boxes, inner and outer
    assert version(page) == seen and not _stored(context, server, gid)["finished"]
    w.assert_clean()
    context.close()


def test_a_held_last_write_stands_when_the_page_is_left(browser: Any, server: Server) -> None:
    context, w = _page(browser, "en", "desktop")
    page = w.page
    gid = _at_the_last_box(context, server, "yatzy", "en")
    page.goto(f"{server.url}/g/{gid}")
    assert wait_mine(page)
    box, _ = best_box(page)
    page.locator(f'button.choose[data-box="{box}"]').click()
    confirm_if_asked(page)
    page.locator("#end-game").wait_for(state="visible")
    assert not _stored(context, server, gid)["finished"]
    page.goto("about:blank")  # the tab goes elsewhere: the write is sent as it goes
    done = eventually(
        lambda: _stored(context, server, gid), lambda v: v["finished"], what="the game's end"
    )
    assert done["sheets"][0]["entries"][box] is not None
    w.assert_clean()
    context.close()


def test_on_several_devices_the_last_write_is_held_for_the_grace_only(
    browser: Any, server: Server
) -> None:
    """People on several devices: the page holds the game's last write for the server's
    undo grace (the view's ``hold_for``, here stood in as 1 s), then sends it by itself,
    so that one who closes the tab never holds the others up."""
    context, w = _page(browser, "sv", "phone")
    page = w.page
    gid = _at_the_last_box(context, server, "yatzy", "sv")

    def one_second(view: dict[str, Any]) -> None:
        if view.get("turn") and view["turn"].get("ends_game"):
            view["turn"]["hold_for"] = 1

    rewrite_views(page, gid, one_second)
    page.goto(f"{server.url}/g/{gid}")
    assert wait_mine(page)
    box, _ = best_box(page)
    seen = version(page)
    page.locator(f'button.choose[data-box="{box}"]').click()
    confirm_if_asked(page)
    page.locator("#end-game").wait_for(state="visible")
    total = page.locator("#protocol tr.total td").first.inner_text().strip()
    assert page.locator("#status").inner_text() == words(
        "sv", "held_last_timed", player="Anna", box=_box_name(page, box), total=total, seconds=1
    )
    page.wait_for_selector("#winner:not([hidden])", timeout=10_000)  # nothing pressed
    assert _stored(context, server, gid)["version"] == seen + 1
    w.assert_clean()
    context.close()
