"""A refused move on the game page in the viewer's words (issue 24): the box and the
rule named as the sheet and the start page write them, never an option id, an error
name or a command; on a phone and a laptop, in sv, fi and en, axe clean."""

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
    rewrite_views,
    roll,
    wait_mine,
    words,
)
from tests.e2e.support import Server
from tests.e2e.test_browser import RUNS, _BypassCSP, _context

pytestmark = pytest.mark.slow

# What a refusal must never show: an option id, a box id, an error's class name, a command.
TECHNICAL = re.compile(r"[a-z]+_[a-z]+|[A-Z][a-z]+Error|yatzy solve|\+forced|\bones\b|\bchance\b")


@pytest.fixture(scope="module")
def browser(browser: Any) -> Any:
    """The conftest's chromium, its pages' CSP bypassed (``evaluate``'s import)."""
    return _BypassCSP(browser)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder: Path = tmp_path_factory.mktemp("refusals")
    with Server(f"sqlite:///{folder / 'e2e.db'}", bot_delay=0.01, log=folder / "server.log") as s:
        yield s


# The page's own module explains the server's real refusal of the action.
_REFUSED = """async ([action]) => {
  const src = document.querySelector('script[type=module]').src;
  const net = await import(src.replace(/game\\.js$/, 'game-net.js'));
  const id = location.pathname.split('/').pop();
  const r = await fetch(`/api/games/${id}/actions`, {method: 'POST',
    headers: {'Content-Type': 'application/json'}, body: JSON.stringify({action})});
  const body = await r.json();
  const text = net.explain({name: body.error, status: r.status}, action);
  document.getElementById('error').textContent = text;
  return [r.status, body.error, text];
}"""


def _name(page: Any, box: str) -> str:
    return str(
        page.evaluate(f"JSON.parse(document.getElementById('game').dataset.boxes)[{box!r}].name")
    )


@pytest.mark.parametrize(("lang", "size"), RUNS)
def test_a_refused_box_names_the_box_and_the_rule(
    browser: Any, server: Server, lang: str, size: str
) -> None:
    locale = {"sv": "sv-SE", "fi": "fi-FI"}.get(lang, "en-GB")
    context = browser.new_context(viewport=VIEWPORTS[size], locale=locale)
    w = Watched(context)
    page = w.page
    created = context.request.post(
        server.url + "/api/games",
        data={"rules": "yatzy+forced", "lang": lang, "seats": [{"name": "Ann", "here": True}]},
    )
    assert created.status == 201, created.text()
    page.goto(f"{server.url}/g/{created.json()['id']}")
    assert wait_mine(page)
    roll(page)
    ones, chance = _name(page, "ones"), _name(page, "chance")
    # Forced order: Chance may not be filled before Ones.
    status, error, text = page.evaluate(_REFUSED, [{"score": "chance"}])
    assert (status, error) == (422, "OrderError")
    assert text == words(lang, "refused_forced", box=chance, allowed=ones)
    assert not TECHNICAL.search(text), text
    assert page.locator("#error").inner_text() == text
    assert_accessible(page)
    # Ones written: writing it again is refused by name.
    page.evaluate(_REFUSED, [{"score": "ones"}])  # the page's view is behind: fine here
    page.reload()
    assert wait_mine(page)
    roll(page)
    status, error, text = page.evaluate(_REFUSED, [{"score": "ones"}])
    assert (status, error) == (422, "BoxFilledError")
    assert text == words(lang, "box_filled_named", box=ones)
    assert not TECHNICAL.search(text), text
    # The two refusals asked for above are the only console lines (the browser logs a 422).
    assert [e for e in w.errors if "status of 422" not in e] == [], w.errors
    assert len(w.errors) == 2
    context.close()


@pytest.mark.parametrize(("lang", "size"), [("sv", "phone"), ("fi", "desktop")])
def test_maxis_missing_chances_say_why(browser: Any, server: Server, lang: str, size: str) -> None:
    # Early in a Maxi game the chances are not worked out: the "–" is explained in
    # words that name the game, for screen readers too.
    locale = {"sv": "sv-SE", "fi": "fi-FI"}.get(lang, "en-GB")
    context = browser.new_context(viewport=VIEWPORTS[size], locale=locale)
    w = Watched(context)
    page = w.page
    seats = [{"name": "Ann", "here": True}, {"name": "Bot", "bot": "random"}]
    created = context.request.post(
        server.url + "/api/games", data={"rules": "maxi", "lang": lang, "seats": seats}
    )
    assert created.status == 201, created.text()
    gid = created.json()["id"]
    title = context.request.get(f"{server.url}/api/games/{gid}").json()["title"]
    said = words(lang, "win_unavailable_large", title=title)
    page.goto(f"{server.url}/g/{gid}")
    assert wait_mine(page)
    page.wait_for_function(
        "(s) => document.getElementById('chances-note').textContent === s",
        arg=said,
        timeout=120_000,
    )
    assert "Maxi" in said and page.locator("#chances-note").is_visible()
    # each player's "–" says the same to screen readers
    assert page.locator("#protocol .win .sr").first.inner_text() == said
    assert_accessible(page)
    w.assert_clean()
    context.close()


@pytest.mark.parametrize(("lang", "size"), [("fi", "phone"), ("sv", "desktop")])
def test_a_hint_waiting_for_its_table_says_so(
    browser: Any, server: Server, lang: str, size: str
) -> None:
    # Issue 24: while Maxi's strategy table (minutes on a fresh install) was built, the
    # hint said only "Working out the hints …". The server's pending hint now carries
    # its words (tests/web/test_web_insight.py); they are stood in for here, as this
    # server would spend minutes of CPU building Maxi's table.
    from yatzy.web.prepare import hint_preparing_words

    locale = {"sv": "sv-SE", "fi": "fi-FI"}.get(lang, "en-GB")
    context = browser.new_context(viewport=VIEWPORTS[size], locale=locale)
    w = Watched(context)
    page = w.page
    created = context.request.post(
        server.url + "/api/games",
        data={"rules": "yatzy", "lang": lang, "seats": [{"name": "Ann", "here": True}]},
    )
    assert created.status == 201, created.text()
    gid = created.json()["id"]
    said = hint_preparing_words(lang)  # type: ignore[arg-type]
    pending = {"pending": True, "approximate": False, "note": said, "options": []}

    def waiting_hint(view: dict[str, Any]) -> None:  # the views and the live ones
        if view.get("turn"):
            view["turn"]["hint"] = pending

    rewrite_views(page, gid, waiting_hint)
    page.goto(f"{server.url}/g/{gid}")
    assert wait_mine(page)
    shown = "(s) => { const h = document.getElementById('hint');"
    shown += " return !h.hidden && h.offsetHeight > 0 && h.textContent.includes(s); }"
    page.wait_for_function(shown, arg=said)
    assert not TECHNICAL.search(said), said
    assert_accessible(page)
    w.assert_clean()
    context.close()


def _pad_game(context: Any, server: Server, rules: str, lang: str) -> str:
    created = context.request.post(
        server.url + "/api/games",
        data={"rules": rules, "lang": lang, "pad": True, "seats": [{"name": "Ann", "here": True}]},
    )
    assert created.status == 201, created.text()
    return str(created.json()["id"])


def _pad_act(context: Any, server: Server, gid: str, action: dict[str, Any]) -> None:
    """An action through the API, as another device of the same player would send it."""
    answer = context.request.post(f"{server.url}/api/games/{gid}/actions", data={"action": action})
    assert answer.status == 200, answer.text()


@pytest.mark.parametrize(("lang", "size"), RUNS)
def test_joker_last_resort_and_half_forced_refusals_name_their_rule(
    browser: Any, server: Server, lang: str, size: str
) -> None:
    # The issue's own examples: the joker and "last resort" refusals said with the
    # rule's and the boxes' names as the sheet writes them (the score pad's dice make
    # the positions certain); half-forced order too.
    context = _context(browser, lang, size)
    w = Watched(context)
    page = w.page

    def open_game(gid: str) -> None:
        page.goto(f"{server.url}/g/{gid}")
        assert wait_mine(page)

    def refused(action: dict[str, Any], error: str) -> str:
        status, name, text = page.evaluate(_REFUSED, [action])
        assert (status, name) == (422, error)
        assert not TECHNICAL.search(text), text
        assert page.locator("#error").inner_text() == text
        return str(text)

    # Yahtzee's forced joker: a second five of a kind goes in its upper box first.
    gid = _pad_game(context, server, "yahtzee", lang)
    _pad_act(context, server, gid, {"dice": [3, 3, 3, 3, 3]})
    _pad_act(context, server, gid, {"score": "yatzy"})
    _pad_act(context, server, gid, {"dice": [4, 4, 4, 4, 4]})
    open_game(gid)
    text = refused({"score": "chance"}, "OrderError")
    chance, fours = _name(page, "chance"), _name(page, "fours")
    assert text == words(lang, "refused_joker", box=chance, allowed=fours)
    assert_accessible(page)

    # Last resort: Chance and zeros only where the dice score nowhere else.
    gid = _pad_game(context, server, "yatzy+last_resort", lang)
    _pad_act(context, server, gid, {"dice": [6, 6, 6, 2, 4]})
    open_game(gid)
    allowed = ", ".join(
        _name(page, b) for b in ("twos", "fours", "sixes", "one_pair", "three_of_a_kind")
    )
    text = refused({"score": "chance"}, "LastResortError")
    assert text == words(lang, "refused_last_resort_chance", box=chance, allowed=allowed)
    text = refused({"scratch": "yatzy"}, "LastResortError")
    yatzy = _name(page, "yatzy")
    assert text == words(lang, "refused_last_resort_zero", box=yatzy, allowed=allowed)

    # Half-forced: the first box is the top of either half.
    gid = _pad_game(context, server, "yatzy+half_forced", lang)
    _pad_act(context, server, gid, {"dice": [3, 3, 3, 2, 1]})
    open_game(gid)
    text = refused({"score": "threes"}, "OrderError")
    allowed = f"{_name(page, 'ones')}, {_name(page, 'one_pair')}"
    assert text == words(lang, "refused_half_forced", box=_name(page, "threes"), allowed=allowed)
    assert_accessible(page)
    # The refusals asked for above are the only console lines (the browser logs a 422).
    assert [e for e in w.errors if "status of 422" not in e] == [], w.errors
    context.close()
