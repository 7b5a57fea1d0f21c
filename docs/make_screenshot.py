"""Make the docs' screenshots from the real app, on a laptop (1280×800) and on a
phone (390×844):

* a game against the computer some turns in (``docs/screenshot-{desktop,phone}-LANG.png``
  and ``docs/screenshot.png``, the English laptop one, shown first in the README);
* ``--screens``: the main screens of docs/playing.md in Swedish, English and Finnish
  — the start page, a game with hints on, the end screen, Undo against the computer,
  pass and play's hand-over card and the history — as compressed WebP
  (``docs/screens/{start,hints,end,undo,handover,history}-{desktop,phone}-LANG.webp``);
* ``--more``: Maxi Yatzy and DubbelYatzy against the computer after a first roll, and
  pass and play of two people with their chances to win in the column heads, and an
  invited guest's page in their own language before they take their seat
  (``docs/screens/{maxi,dubbel,chances,guest}-{desktop,phone}-LANG.webp``);
* ``--extra``: a box chosen by a first tap on a phone's touch screen, waiting for the
  second (``confirm-phone-LANG.webp``), a spectator's page in their own language (the game
  made in another) and two house rules that exclude each other refused in the page's
  words (``{spectator,refusal}-{desktop,phone}-LANG.webp``); a solo game played
  against the record of an earlier one, during the game, with its last write held (Undo
  or End the game) and at its end, and Maxi Yatzy with hints on while its strategy table
  is being prepared (``{solo,held,solo-end,preparing}-{desktop,phone}-LANG.webp``).

Run by hand (needs Debian's chromium): ``.venv/bin/python docs/make_screenshot.py
[--screens | --more | --extra] [LANG ...]``.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.e2e.helpers import (  # noqa: E402
    DESKTOP,
    PHONE,
    best_box,
    confirm_if_asked,
    play_to_the_end,
    version,
    wait_change,
    wait_mine,
)
from tests.e2e.support import Server, next_action  # noqa: E402

NAMES = {"sv": "Anna", "en": "Alice", "fi": "Aino"}
LOCALES = {"sv": "sv-SE", "en": "en-GB", "fi": "fi-FI"}


def shoot(browser: Any, url: str, lang: str, size: str, out: Path) -> None:
    """Six turns against the computer, then a roll with two dice kept."""
    page = browser.new_page(
        viewport=DESKTOP if size == "desktop" else PHONE,
        locale={"sv": "sv-SE", "fi": "fi-FI"}.get(lang, "en-GB"),
        bypass_csp=True,  # the helpers' wait_for_function evaluates with eval
    )
    page.goto(f"{url}/?lang={lang}")
    page.locator("#your-name").fill(NAMES[lang])
    page.locator("#play-bot").click()
    page.wait_for_url("**/g/*")
    for _ in range(6):
        wait_mine(page)
        seen = version(page)
        page.keyboard.press("r")
        wait_change(page, seen)
        box, _ = best_box(page)
        seen = version(page)
        page.locator(f'button.choose[data-box="{box}"]').click()
        confirm_if_asked(page)
        wait_change(page, seen)
    wait_mine(page)
    seen = version(page)
    page.keyboard.press("r")
    wait_change(page, seen)
    faces = page.eval_on_selector_all(".die", "ds => ds.map(d => d.getAttribute('aria-label'))")
    values = [label.rsplit(" ", 1)[-1] for label in faces]
    common = max(set(values), key=values.count)
    for i, value in enumerate(values):
        if value == common:
            page.keyboard.press(str(i + 1))
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(2600)  # the roll's animation and any Yatzy moment
    page.screenshot(path=str(out))
    page.close()


def webp(png: Path, out: Path) -> None:
    """``png`` as a compressed WebP at ``out`` (a screenshot is mostly flat colour)."""
    from PIL import Image

    with Image.open(png) as image:
        image.convert("RGB").save(out, "WEBP", quality=72, method=6)


def first_roll(page: Any) -> None:
    """In a game just opened: wait for the player's turn and roll (R)."""
    page.wait_for_url("**/g/*")
    wait_mine(page)
    seen = version(page)
    page.keyboard.press("r")
    wait_change(page, seen)


def roll_and_write(page: Any) -> None:
    """In a game just opened: the player's first roll, written in its best box."""
    first_roll(page)
    box, _ = best_box(page)
    page.locator(f'button.choose[data-box="{box}"]').click()
    confirm_if_asked(page)


def _camera(
    browser: Any, lang: str, size: str, folder: Path, tmp: Path, settle: int, **touch: bool
) -> tuple[Any, Callable[[str], None]]:
    """A page in ``lang`` at ``size``, and the function that shoots it as
    ``folder/NAME-SIZE-LANG.webp`` from its top once ``settle`` ms have passed
    (``touch``: a phone's ``has_touch`` and ``is_mobile``)."""
    page = browser.new_page(
        viewport=DESKTOP if size == "desktop" else PHONE,
        locale=LOCALES[lang],
        bypass_csp=True,
        **touch,
    )

    def shot(name: str) -> None:
        png = tmp / f"{name}.png"
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(settle)
        page.screenshot(path=str(png))
        webp(png, folder / f"{name}-{size}-{lang}.webp")

    return page, shot


def screens(browser: Any, url: str, lang: str, size: str, folder: Path, tmp: Path) -> None:
    """The start page, a game against the computer with hints on, and its end; a write
    taken back against the computer and on pass and play's hand-over card; the
    history."""
    page, shot = _camera(browser, lang, size, folder, tmp, settle=800)

    page.goto(f"{url}/?lang={lang}")
    page.locator("#your-name").fill(NAMES[lang])
    shot("start")
    page.locator("#more summary").click()
    page.locator("#hints").check()
    page.locator("#bot-level").select_option("greedy")
    page.locator("#play-bot").click()
    first_roll(page)
    # A fresh install prepares the hints' table first (about a minute on an idle
    # machine, several under load): the page says so meanwhile, and this waits for it.
    print(f"{lang} {size}: waiting for the hint's options", flush=True)
    page.wait_for_selector("#hint:not([hidden]) .hint-options", timeout=900_000)
    shot("hints")
    play_to_the_end(page)
    page.wait_for_timeout(1500)
    shot("end")
    # A write against the computer can be taken back while it waits (Undo, Go on).
    page.goto(f"{url}/?lang={lang}")
    page.locator("#play-bot").click()
    roll_and_write(page)
    page.wait_for_selector("#undo:not([hidden])")
    shot("undo")
    # Pass and play: the hand-over card, with the write still to take back.
    page.goto(f"{url}/?lang={lang}")
    page.locator('button[data-mode="hotseat"]').click()
    page.locator("#start-btn").click()
    roll_and_write(page)
    page.wait_for_selector("#handover:not([hidden])")
    shot("handover")
    # This browser's games, with their chart.
    page.goto(f"{url}/history?lang={lang}")
    page.wait_for_timeout(500)
    shot("history")
    page.close()


def more_screens(browser: Any, url: str, lang: str, size: str, folder: Path, tmp: Path) -> None:
    """Maxi Yatzy and DubbelYatzy against the computer after a first roll (every die in
    one row, the sheet's boxes), and pass and play of two people some rounds in (each
    player's chance to win in the sheet's column heads)."""
    page, shot = _camera(browser, lang, size, folder, tmp, settle=2600)  # a roll's animation

    for preset in ("maxi", "dubbel"):
        page.goto(f"{url}/?lang={lang}")
        page.locator("#your-name").fill(NAMES[lang])
        page.locator(f'input[name="preset"][value="{preset}"]').check()
        page.locator("#play-bot").click()
        first_roll(page)
        shot(preset)
    page.goto(f"{url}/?lang={lang}")
    page.locator('input[name="preset"][value="yatzy"]').check()  # the page keeps the last
    page.locator('button[data-mode="hotseat"]').click()
    page.locator("#start-btn").click()
    page.wait_for_url("**/g/*")
    for _ in range(6):  # three rounds of two people
        roll_and_write(page)
        wait_mine(page)
        if page.locator("#handover").is_visible():
            page.locator("#handover-go").click()
    page.wait_for_function("!document.querySelector('#protocol thead').textContent.includes('…')")
    shot("chances")
    # An invited guest reads the game in their own language, not its maker's.
    maker = {"sv": "en", "en": "fi", "fi": "sv"}[lang]
    host = browser.new_page(viewport=DESKTOP, locale=LOCALES[maker], bypass_csp=True)
    host.goto(f"{url}/?lang={maker}")
    host.locator("#your-name").fill(NAMES[maker])
    host.locator('button[data-mode="invite"]').click()
    host.locator(".seat-name").nth(1).fill(NAMES[lang])
    host.locator("#start-btn").click()
    host.wait_for_url("**/g/*")
    links = host.locator("#links")
    if not links.get_attribute("open"):
        links.locator("summary").click()
    invite = host.locator("#invite-link").input_value()
    page.goto(invite)
    page.locator("button.join").wait_for()
    shot("guest")
    host.close()
    page.close()


def _game_made_in(browser: Any, url: str, lang: str) -> tuple[Any, str]:
    """A game against the computer made by a browser in ``lang``, its first box written:
    its maker's page and the game's address."""
    host = browser.new_page(viewport=DESKTOP, locale=LOCALES[lang], bypass_csp=True)
    host.goto(f"{url}/?lang={lang}")
    host.locator("#your-name").fill(NAMES[lang])
    host.locator("#play-bot").click()
    roll_and_write(host)
    return host, host.url.split("?")[0]


def _play_out(page: Any, url: str, gid: str, turns: int = 99) -> None:
    """Up to ``turns`` of the solo game ``gid``'s turns played through the API with the
    page's cookies (its seat): each roll keeps the most common face (the highest of a
    tie), then the box the server previews as best is written."""
    request = page.context.request
    while turns > 0:
        view = request.get(f"{url}/api/games/{gid}").json()
        if view["finished"]:
            return
        turn = view["turn"]
        dice = turn["dice"]
        face = max(set(dice), key=lambda f: (dice.count(f), f)) if dice else 0
        if dice is not None and turn["rolls_left"] > 0 and dice.count(face) < len(dice):
            action: dict[str, Any] = {"roll": [i for i, d in enumerate(dice) if d == face]}
        else:
            action = next_action(view)
        answer = request.post(f"{url}/api/games/{gid}/actions", data={"action": action})
        assert answer.status == 200, answer.text()
        turns -= "score" in action


def solo_screens(page: Any, url: str, lang: str, shot: Callable[[str], None]) -> None:
    """A solo game played to its end (the record), then a second one: some turns in
    (the record and the chance of beating it on the status line), and its end (the
    result against the record)."""
    for made in range(2):
        page.goto(f"{url}/?lang={lang}")
        page.locator("#your-name").fill(NAMES[lang])
        page.locator("#play-solo").click()
        page.wait_for_url("**/g/*")
        gid = page.url.split("/g/")[1].split("?")[0]
        _play_out(page, url, gid, turns=99 if made == 0 else 5)
    page.reload()
    first_roll(page)
    page.wait_for_timeout(3000)  # the chance of beating the record, asked after the roll
    shot("solo")
    boxes = len(page.context.request.get(f"{url}/api/games/{gid}").json()["boxes"])
    _play_out(page, url, gid, turns=boxes - 6)  # up to the last box
    page.reload()
    first_roll(page)
    box, _ = best_box(page)
    page.locator(f'button.choose[data-box="{box}"]').click()
    page.locator("#end-game").wait_for()
    shot("held")  # the game's last write, held with Undo until the game is ended
    page.locator("#end-game").click()
    page.wait_for_selector("#winner:not([hidden])")
    shot("solo-end")


def preparing_screen(page: Any, url: str, lang: str, folder: Path, tmp: Path, size: str) -> None:
    """Maxi Yatzy against the computer with hints on, on a server whose Maxi table is
    not built yet: the hint says the table is being prepared (shot where the hint is:
    under the dice on a phone)."""
    from yatzy.web.prepare import hint_preparing_words

    page.goto(f"{url}/?lang={lang}")
    page.locator("#your-name").fill(NAMES[lang])
    page.locator('input[name="preset"][value="maxi"]').check()
    page.locator("#more").evaluate("d => { d.open = true; }")
    page.locator("#hints").check()
    page.locator("#play-bot").click()
    first_roll(page)
    said = hint_preparing_words(lang)  # type: ignore[arg-type]
    page.wait_for_function(
        "(s) => document.getElementById('hint').textContent.includes(s)", arg=said
    )
    if size == "phone":
        page.locator("#hint").scroll_into_view_if_needed()
    else:
        page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(2600)
    png = tmp / "preparing.png"
    page.screenshot(path=str(png))
    webp(png, folder / f"preparing-{size}-{lang}.webp")
    page.goto(f"{url}/?lang={lang}")
    page.locator('input[name="preset"][value="yatzy"]').check()  # the page keeps the last
    page.locator("#more").evaluate("d => { d.open = true; }")
    page.locator("#hints").uncheck()


def extra_screens(browser: Any, url: str, lang: str, size: str, folder: Path, tmp: Path) -> None:
    """On a phone, a box chosen by a first tap (tap-to-confirm, on by default on touch
    screens) with the line that asks for the second; a spectator's page in their own
    language while the game (against the computer) was made in another; the start page
    refusing two house rules that exclude each other, in the page's words; a solo game
    against the record (:func:`solo_screens`); Maxi Yatzy while its table is prepared
    (:func:`preparing_screen`)."""
    touch = {"has_touch": True, "is_mobile": True} if size == "phone" else {}
    page, shot = _camera(browser, lang, size, folder, tmp, settle=2600, **touch)
    if size == "phone":
        page.goto(f"{url}/?lang={lang}")
        page.locator("#your-name").fill(NAMES[lang])
        page.locator("#play-bot").click()
        first_roll(page)
        box, _ = best_box(page)
        page.locator(f'button.choose[data-box="{box}"]').tap()
        page.wait_for_selector("#armed:not(:empty)")
        shot("confirm")
    maker = {"sv": "en", "en": "fi", "fi": "sv"}[lang]
    host, game = _game_made_in(browser, url, maker)
    page.goto(game)
    page.wait_for_function("document.getElementById('status').textContent !== ''")
    shot("spectator")
    host.close()
    page.goto(f"{url}/?lang={lang}")
    page.locator("#your-name").fill(NAMES[lang])
    page.locator("#more summary").click()
    for opt in ("forced", "half_forced"):
        page.locator(f'.opts:not([hidden]) input[data-opt="{opt}"]').check()
    page.locator("#play-bot").click()
    page.wait_for_selector("#error:not(:empty)")
    page.locator("#error").scroll_into_view_if_needed()
    png = tmp / "refusal.png"
    page.wait_for_timeout(800)
    page.screenshot(path=str(png))  # where the refusal is, not the page's top
    webp(png, folder / f"refusal-{size}-{lang}.webp")
    for opt in ("forced", "half_forced"):
        page.locator(f'.opts:not([hidden]) input[data-opt="{opt}"]').uncheck()
    solo_screens(page, url, lang, shot)
    preparing_screen(page, url, lang, folder, tmp, size)
    page.close()


def main() -> None:
    """Take every screenshot."""
    kinds = ("--screens", "--more", "--extra")
    args = [a for a in sys.argv[1:] if a not in kinds]
    db = Path(tempfile.mkdtemp()) / "shot.db"
    docs = ROOT / "docs"
    every = any(kind in sys.argv for kind in kinds)
    langs = args or (["sv", "en", "fi"] if every else ["sv", "en"])
    # the computer waits 5 s after a person's write (as `yatzy serve` does): Undo shows
    server = Server(f"sqlite:///{db}", bot_delay=0.05, undo_grace=5.0)
    with server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        for lang in langs:
            for size in ("desktop", "phone"):
                if "--extra" in sys.argv:
                    (docs / "screens").mkdir(exist_ok=True)
                    extra_screens(browser, server.url, lang, size, docs / "screens", db.parent)
                elif "--more" in sys.argv:
                    (docs / "screens").mkdir(exist_ok=True)
                    more_screens(browser, server.url, lang, size, docs / "screens", db.parent)
                elif "--screens" in sys.argv:
                    (docs / "screens").mkdir(exist_ok=True)
                    screens(browser, server.url, lang, size, docs / "screens", db.parent)
                else:
                    shoot(browser, server.url, lang, size, docs / f"screenshot-{size}-{lang}.png")
        browser.close()
    if "en" in langs and not every:
        shutil.copy(docs / "screenshot-desktop-en.png", docs / "screenshot.png")


if __name__ == "__main__":
    main()
