"""A refused move on the game page in the viewer's words (issue 24): the box and the
rule named as the sheet and the start page write them, never an option id, an error
name or a command; on a phone and a laptop, in sv, fi and en, axe clean."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import VIEWPORTS, Watched, assert_accessible, roll, wait_mine, words
from tests.e2e.support import Server
from tests.e2e.test_browser import RUNS, _BypassCSP

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
