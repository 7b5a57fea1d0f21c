"""Honest live chances (issue 24): once a person's play has been seen for a few turns,
their chance counts them at the calibrated level that play shows, not as a perfect
player, and the line under the sheet says so by name, in the page's language."""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import VIEWPORTS, Watched, assert_accessible, words
from tests.e2e.support import Server
from tests.e2e.test_browser import _BypassCSP
from tests.helpers import eventually, scaled
from yatzy.web.ahead import AHEAD_ENV

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def browser(browser: Any) -> Any:
    """The conftest's chromium, its pages' CSP bypassed (``wait_for_function``)."""
    return _BypassCSP(browser)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder: Path = tmp_path_factory.mktemp("measured")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(AHEAD_ENV, "1")  # off in the other tests (tests/conftest.py)
        server = Server(f"sqlite:///{folder / 'e2e.db'}", log=folder / "server.log").start()
    try:
        yield server
    finally:
        server.stop()


def _worst(view: dict[str, Any]) -> dict[str, Any]:
    """A careless player: one roll, then the box that scores least."""
    turn = view["turn"]
    if turn["dice"] is None:
        return {"roll": []}
    preview = {b: p for b, p in turn["preview"].items() if b in turn["allowed"]}
    return {"score": min(preview, key=lambda b: (preview[b], b))}


@pytest.mark.parametrize(("lang", "size"), [("sv", "phone"), ("fi", "desktop")])
def test_a_careless_player_counts_at_the_level_shown(
    browser: Any, server: Server, lang: str, size: str
) -> None:
    locale = {"sv": "sv-SE", "fi": "fi-FI"}.get(lang, "en-GB")
    context = browser.new_context(viewport=VIEWPORTS[size], locale=locale)
    w = Watched(context)
    page = w.page
    seats = [{"name": "Ann", "here": True}, {"name": "Bot", "bot": "random"}]
    created = context.request.post(
        server.url + "/api/games", data={"rules": "yatzy", "lang": lang, "seats": seats}
    )
    assert created.status == 201, created.text()
    gid = created.json()["id"]

    def view() -> Any:
        return context.request.get(f"{server.url}/api/games/{gid}").json()

    # Before her play is seen she counts at the middle level, and the page says it is
    # assumed (counted as a perfect player, a beginner read 67 % after one roll).
    page.goto(f"{server.url}/g/{gid}")
    note = page.locator("#chances-note")
    assumed = words(lang, "win_assumed", player="Ann", level=words(lang, "level_casual"))
    page.wait_for_function(
        "(said) => document.getElementById('chances-note').textContent.includes(said)",
        arg=assumed,
        timeout=240_000,
    )
    written = 0
    while written < 5:  # five careless turns
        v = eventually(
            view, lambda v: not v["players"][v["turn"]["seat"]]["bot"], what="Ann's turn"
        )
        action = _worst(v)
        answer = context.request.post(
            f"{server.url}/api/games/{gid}/actions", data={"action": action}
        )
        assert answer.status == 200, answer.text()
        written += "score" in action

    def measured(v: dict[str, Any]) -> bool:
        chances = v["win_chances"] or {}
        seats, counted = chances.get("seats") or [], chances.get("measured") or {}
        seen = "0" in counted and not counted["0"].get("assumed")
        return bool(seats) and seen and seats[0]["level"] in ("strong", "casual", "beginner")

    def probe() -> Any:
        # The measure follows each write in the background: a version computed before it
        # still counts Ann as assumed, so she plays on until one counts her.
        v = view()
        chances = v["win_chances"] or {}
        mine = v["turn"] is not None and not v["players"][v["turn"]["seat"]]["bot"]
        if not measured(v) and not chances.get("pending") and mine:
            context.request.post(
                f"{server.url}/api/games/{gid}/actions", data={"action": _worst(v)}
            )
        return v

    v = eventually(probe, measured, timeout=240, interval=0.5, what="Ann counted at a level")
    level = v["win_chances"]["seats"][0]["level"]
    assert level != "strong"  # a careless player is not counted as a strong one
    page.reload()
    said = words(lang, "win_measured", player="Ann", level=words(lang, f"level_{level}"))
    page.wait_for_function(
        "(said) => document.getElementById('chances-note').textContent.includes(said)",
        arg=said,
        timeout=240_000,
    )
    assert said in note.inner_text()
    assert_accessible(page)
    w.assert_clean()
    context.close()


@pytest.mark.parametrize(("lang", "size"), [("sv", "desktop"), ("fi", "phone")])
def test_earlier_games_count_from_the_first_turn_and_are_named(
    browser: Any, server: Server, lang: str, size: str
) -> None:
    # A careless player's finished game counts in their next game's level from its
    # first written box, and the line under the sheet names the earlier games.
    locale = {"sv": "sv-SE", "fi": "fi-FI"}.get(lang, "en-GB")
    context = browser.new_context(viewport=VIEWPORTS[size], locale=locale)
    w = Watched(context)
    page = w.page
    seats = [{"name": "Ann", "here": True}, {"name": "Bot", "bot": "random"}]

    def new_game() -> str:
        created = context.request.post(
            server.url + "/api/games", data={"rules": "yatzy", "lang": lang, "seats": seats}
        )
        assert created.status == 201, created.text()
        return str(created.json()["id"])

    def view(gid: str) -> Any:
        return context.request.get(f"{server.url}/api/games/{gid}").json()

    def act(gid: str, v: dict[str, Any]) -> None:
        answer = context.request.post(
            f"{server.url}/api/games/{gid}/actions", data={"action": _worst(v)}
        )
        assert answer.status == 200, answer.text()

    first = new_game()
    for _ in range(100):
        v = eventually(
            lambda: view(first),
            lambda v: v["finished"] or not v["players"][v["turn"]["seat"]]["bot"],
            what="Ann's turn",
        )
        if v["finished"]:
            break
        act(first, v)
    assert v["finished"]
    gid = new_game()

    def counted(v: dict[str, Any]) -> bool:
        chances = v["win_chances"] or {}
        earlier = (chances.get("measured") or {}).get("0") or {}
        return earlier.get("earlier") == 1 and chances["seats"][0]["level"] != "optimal"

    last_write = -math.inf

    def probe() -> Any:
        # Ann plays on while her earlier game is not counted, but waits a while after
        # each box: the earlier game is analysed in the background, and a loaded
        # machine that took longer than her turns reached her third turn first.
        nonlocal last_write
        v = view(gid)
        chances = v["win_chances"] or {}
        mine = v["turn"] is not None and not v["players"][v["turn"]["seat"]]["bot"]
        if counted(v) or chances.get("pending") or not mine:
            return v
        action = _worst(v)
        if "score" in action and time.monotonic() - last_write < scaled(10):
            return v
        act(gid, v)
        if "score" in action:
            last_write = time.monotonic()
        return v

    v = eventually(probe, counted, timeout=240, interval=0.5, what="Ann counted with her game")
    assert v["win_chances"]["measured"]["0"]["turns"] < 3  # before this game alone would
    level = v["win_chances"]["seats"][0]["level"]
    page.goto(f"{server.url}/g/{gid}")
    said = words(
        lang, "win_measured_earlier", player="Ann", level=words(lang, f"level_{level}"), games=1
    )
    page.wait_for_function(
        "(said) => document.getElementById('chances-note').textContent.includes(said)",
        arg=said,
        timeout=240_000,
    )
    assert_accessible(page)
    w.assert_clean()
    context.close()
