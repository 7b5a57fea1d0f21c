"""Snapshots of the full-screen game's screens at 80×24 and 120×40 in sv, fi and en.

Each scene is played from a fixed seed at a fixed size and compared, as plain text,
with the file under ``tests/snapshots/tui/``.  Nothing depends on the clock (no
dialog with a time-stamped file name is shot), so the snapshots hold under
pytest-xdist.  After an intended change of the screen, write them anew with
``YATZY_UPDATE_SNAPSHOTS=1 pytest tests/tui/test_tui_snapshots.py`` and read the diff.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.conftest import covering
from tests.tui.helpers import make_app, new_state, screen_text, settle
from yatzy.cli.tui.app import YatzyApp
from yatzy.game import State
from yatzy.rules import Language

SNAPSHOTS = Path(__file__).parent / "snapshots" / "tui"
UPDATE = os.environ.get("YATZY_UPDATE_SNAPSHOTS") == "1"


def shoot(
    state: State,
    lang: Language,
    size: tuple[int, int],
    keys: Callable[[Pilot[Any], YatzyApp], Awaitable[None]],
    chances: Callable[[State], Any] | None = None,
) -> str:
    """The screen's text after ``keys`` were played on a seeded app of ``size``."""
    app = make_app(state, lang=lang, seed=3, chances=chances)
    shot: list[str] = []

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            await keys(pilot, app)
            await settle(pilot)
            shot.append(screen_text(app))

    asyncio.run(main())
    return shot[0]


def check(name: str, text: str) -> None:
    """Compare ``text`` with the stored snapshot ``name`` (or store it when updating)."""
    path = SNAPSHOTS / f"{name}.txt"
    if UPDATE or not path.exists():
        if not UPDATE:
            pytest.fail(f"no snapshot {path.name}; make it with YATZY_UPDATE_SNAPSHOTS=1")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert text == path.read_text(encoding="utf-8"), f"{name}: the screen changed"


async def roll_and_keep(pilot: Pilot[Any], app: YatzyApp) -> None:
    """Roll, keep two dice, choose a box (the screen of a turn in the middle)."""
    await pilot.press("space", "1", "3", "down")


async def nothing(pilot: Pilot[Any], app: YatzyApp) -> None:
    """The first screen as it opens."""


async def help_keys(pilot: Pilot[Any], app: YatzyApp) -> None:
    """The help: keys and the rules of the variant."""
    await pilot.press("question_mark")


SIZES = [(80, 24), (120, 40)]
LANGS: list[Language] = ["sv", "fi", "en"]


def _shown(value: Any) -> str:
    """A parameter's id: the language, or the size as columns x rows."""
    return f"{value[0]}x{value[1]}" if isinstance(value, tuple) else str(value)


# Language and size are independent concerns: the fast tier shoots three of the six
# screens, every language and every size among them (covering, tests/conftest.py).
@pytest.mark.parametrize(("lang", "size"), covering(LANGS, SIZES), ids=_shown)
def test_turn_screen(lang: Language, size: tuple[int, int]) -> None:
    state = new_state("yatzy", ["Anna", "Bo"], ("greedy",))
    text = shoot(state, lang, size, roll_and_keep)
    check(f"yatzy-turn-{lang}-{size[0]}x{size[1]}", text)


@pytest.mark.parametrize(("lang", "size"), covering(LANGS, SIZES), ids=_shown)
def test_help_screen(lang: Language, size: tuple[int, int]) -> None:
    text = shoot(new_state("yatzy+forced", ["Anna"]), lang, size, help_keys)
    check(f"help-{lang}-{size[0]}x{size[1]}", text)


@pytest.mark.parametrize("lang", LANGS)
def test_maxi_with_fourteen_players_fits_80x24(lang: Language) -> None:
    names = ["Anna", "Bo", "Cecilia", "David", "Eva", "Fredrik", "Greta"]
    names += ["Hugo", "Ida", "Johan", "Karin", "Lars", "Maja", "Nils"]
    state = new_state("maxi+saved_rolls", names, starter=12)
    text = shoot(state, lang, (80, 24), roll_and_keep)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert len(text.splitlines()) <= 24
    assert "Maja" in text  # the current player's column is scrolled into view
    # Scrolled sideways by whole columns: beside the fixed "now" head comes a whole
    # name, never the cut end of one ("nuJoh…", "nowh…": issue 24's audit).
    heads = {"Anna", "Bo", "Ceci…", "Davi…", "Eva", "Fred…", "Gret…", "Hugo", "Ida"}
    heads |= {"Joh…", "Kar…", "Lars", "Maja", "Nils"}
    now = {"sv": "nu", "fi": "nyt", "en": "now"}[lang]
    head_line = text.splitlines()[1]
    after_now = re.findall(rf"(?<![a-zåäö]){now}( +)(\S+)", head_line)
    assert len(after_now) == 2, head_line  # both halves of the split sheet
    assert all(space and name in heads for space, name in after_now), head_line
    check(f"maxi14-turn-{lang}-80x24", text)


def fixed_chances(state: State) -> Any:
    """Chances that depend on the totals alone (the real ones are simulated): the row's
    layout is what a snapshot checks; tests/strategy/test_win_chance.py checks the numbers."""
    from yatzy.strategy.win_chance import SeatChance, WinChances

    weights = [s.total + 1 for s in state.sheets]
    seats = tuple(
        SeatChance(i, p.bot or "person", w / sum(weights), 0.021 if p.bot else 0.0, "", 0)
        for i, (w, p) in enumerate(zip(weights, state.players, strict=True))
    )
    return WinChances(seats, False, 0.0)


@pytest.mark.parametrize("lang", LANGS)
def test_turn_screen_with_chances_to_win(lang: Language) -> None:
    state = new_state("yatzy", ["Anna", "Bo"], ("greedy",))
    text = shoot(state, lang, (80, 24), roll_and_keep, fixed_chances)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert len(text.splitlines()) <= 24
    check(f"yatzy-chances-{lang}-80x24", text)


def test_maxi_with_fourteen_players_and_their_chances_fits_80x24() -> None:
    names = ["Anna", "Bo", "Cecilia", "David", "Eva", "Fredrik", "Greta"]
    names += ["Hugo", "Ida", "Johan", "Karin", "Lars", "Maja", "Nils"]
    state = new_state("maxi+saved_rolls", names, starter=12)
    text = shoot(state, "en", (80, 24), roll_and_keep, fixed_chances)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert len(text.splitlines()) <= 24
    assert "Win %" in text and "Maja" in text
    check("maxi14-chances-en-80x24", text)


@pytest.mark.parametrize("lang", LANGS)
def test_dubbel_first_screen(lang: Language) -> None:
    state = new_state("dubbel", ["Anna"], ("random",), starter=0)
    text = shoot(state, lang, (80, 24), roll_and_keep)
    check(f"dubbel-turn-{lang}-80x24", text)
