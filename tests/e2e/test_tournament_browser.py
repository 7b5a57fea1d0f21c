"""A tournament in the browser, on a phone: one person makes it through the form, two
join with the keyboard and a click, the start comes (the server's tournament clock is
the test's: the app runs in this process), and the standings are there with each
player's game; the pages have no axe violations."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import PHONE, Watched, assert_accessible
from tests.e2e.support import free_port
from tests.helpers import eventually
from yatzy.web.accounts import Hasher
from yatzy.web.app import create_app
from yatzy.web.tournament_words import tournament_words


class InProcess:
    """The app under uvicorn in a thread of this process, so the test can set its
    tournaments' clock (``now``)."""

    def __init__(self, db: Path) -> None:
        import uvicorn

        self.app = create_app(
            f"sqlite:///{db}", hasher=Hasher(1, 1024, 1), win_chances=False, bot_delay=0.0
        )
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.now = datetime.now(UTC)
        config = uvicorn.Config(self.app, port=self.port, log_level="warning", lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> InProcess:
        self.thread.start()
        eventually(lambda: self.server.started, timeout=60, what="the server's start")
        self.app.state.tournaments.clock = lambda: self.now
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(30)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[InProcess]:
    with InProcess(tmp_path_factory.mktemp("tournament") / "e2e.db") as s:
        yield s


def seat_stream_record() -> dict[str, Any]:
    """A finished two-player game dealt as a tournament's table is (duplicate_seat),
    its seed revealed, as the library writes it."""
    import random

    from yatzy.game import FairDice, Game, to_record, verify_record

    dice = FairDice.new("duplicate_seat")
    state = Game("yatzy", ["A", "B"]).new_initial_state()
    moves = random.Random(3)
    while not state.is_terminal():
        if state.is_chance_node():
            state.roll(dice)
        else:
            state.apply(moves.choice(state.legal_actions()))
    record: dict[str, Any] = to_record(state, dice=dice.proof(reveal=True))
    verify_record(record)
    return record


def signed_up(browser: Any, server: InProcess, name: str) -> tuple[Any, Watched]:
    context = browser.new_context(viewport=PHONE, locale="sv-SE")
    r = context.request.post(
        f"{server.url}/api/account/signup",
        data={"name": name, "password": "correct horse"},
        headers={"X-Yatzy-CSRF": "1", "Origin": server.url},
    )
    assert r.ok, r.text()
    return context, Watched(context)


def test_make_join_start_and_see_the_standings(browser: Any, server: InProcess) -> None:
    tw = tournament_words("sv")
    anna, a = signed_up(browser, server, "Anna")
    page = a.page
    page.goto(server.url + "/tournaments?lang=sv")
    assert page.locator("h1").inner_text() == tw["title"]
    assert_accessible(page)
    page.fill("input[name=name]", "Höstcupen")
    page.select_option("select[name=table_size]", "2")
    page.fill("input[name=rounds]", "2")
    page.click("#tournament-create button[type=submit]")
    page.wait_for_url("**/tournaments/*")
    assert page.locator("h1").inner_text() == "Höstcupen"
    assert page.locator("#tournament-state").inner_text() == tw["state_open"]
    page.focus("#join")
    page.keyboard.press("Enter")  # joining by keyboard
    page.locator("#joined").wait_for()
    assert_accessible(page)
    address = page.url

    bo, b = signed_up(browser, server, "Bo")
    b.page.goto(server.url + "/tournaments?lang=sv")  # listed, as it is public
    b.page.click("#tournament-list a")
    b.page.wait_for_url(address)
    assert_accessible(b.page)
    b.page.click("#join")
    b.page.locator("#joined").wait_for()
    assert "Anna" in b.page.locator("#players").inner_text()

    server.now = datetime.now(UTC) + timedelta(hours=2)  # the start has come
    b.page.reload()
    b.page.locator("#standings").wait_for()
    rows = b.page.locator("#standings tbody tr")
    assert rows.count() == 2
    assert {rows.nth(i).locator("td").nth(1).inner_text() for i in range(2)} == {"Anna", "Bo"}
    assert b.page.locator("#tournament-state").inner_text() == tw["state_running"].replace(
        "{round}", "1"
    ).replace("{rounds}", "2")
    assert b.page.locator("#your-game").is_visible()
    assert_accessible(b.page)
    # the page that was open follows by itself (it asks every 15 s, and when shown)
    page.locator("#standings").wait_for(timeout=40_000)
    page.click("#your-game")
    page.wait_for_url("**/g/*")
    back = page.locator("#tournament-link")  # the game page leads back to the standings
    back.wait_for(state="attached")
    assert (back.get_attribute("href") or "").endswith(address.split("/")[-1])
    # the page's own dice check follows the seat streams of tournament tables
    record = seat_stream_record()
    check = """async (rec) => {
      const src = document.querySelector('script[type=module][src$="game.js"]').src;
      const fair = await import(src.replace(/game\\.js$/, 'fair-dice.js'));
      return (await fair.verifyRecord(rec)).ok;
    }"""
    assert page.evaluate(check, record) is True
    record["turns"][3]["rolls"][0]["dice"][0] = 7 - record["turns"][3]["rolls"][0]["dice"][0]
    assert page.evaluate(check, record) is False
    a.assert_clean()
    b.assert_clean()
    anna.close()
    bo.close()
