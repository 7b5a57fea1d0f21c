"""Honest live chances at a terminal (issue 24): a person counts at the calibrated
level their play in this game has shown (after a few turns), not as a perfect player,
and the line mode and the full-screen game say so in the game's language."""

from __future__ import annotations

import asyncio
import io
import random

import pytest

from tests.tui.helpers import make_app, settle
from yatzy.bots import make_bot, play_turn
from yatzy.cli.i18n import level_name
from yatzy.cli.play_common import live_chances, measured_levels, measured_line
from yatzy.cli.play_session import PlaySession
from yatzy.game import Game, Player, State
from yatzy.rules import Language

SAID = {"sv": "räknas spela som datornivån", "fi": "laskettu pelaamaan kuten", "en": "counts as"}


@pytest.fixture(scope="module", autouse=True)
def _strategy_table() -> None:
    """Yatzy's strategy table at hand (loaded, or built once: seconds), as after a
    first hint or bot move; without it nobody is measured (nothing to measure with)."""
    from yatzy.bots import prepare_tables

    prepare_tables("optimal", "yatzy")


def careless_game(turns: int) -> State:
    """Anna plays at random, Bo plays greedily, ``turns`` turns each; Anna to roll."""
    state = Game("yatzy", [Player("Anna"), Player("Bo")]).new_initial_state(starter=0)
    careless, greedy, rng = make_bot("random"), make_bot("greedy"), random.Random(7)
    for _ in range(turns):
        play_turn(state, careless, rng)
        play_turn(state, greedy, rng)
    return state


@pytest.mark.parametrize("lang", ["sv", "fi", "en"])
def test_a_careless_player_counts_at_the_level_shown(lang: Language) -> None:
    state = careless_game(4)
    assert measured_levels(state).get(0) == "beginner"
    result = live_chances(state)
    assert result is not None
    assert result.seats[0].level == "beginner"  # not "person": the perfect player
    line = measured_line(state, result, lang)
    assert line.startswith("Anna ") and SAID[lang] in line
    assert level_name("beginner", lang) in line


def test_too_few_turns_count_as_playing_their_best() -> None:
    state = careless_game(2)
    assert measured_levels(state) == {}
    result = live_chances(state)
    assert result is not None and {s.level for s in result.seats} == {"person"}
    assert measured_line(state, result, "en") == ""


def test_the_line_mode_says_who_counts_at_which_level() -> None:
    state = careless_game(4)
    out = io.StringIO()
    session = PlaySession(
        state, lang="sv", stdin=io.StringIO(""), stdout=out, rng=random.Random(1), chances=True
    )
    session._show_board()
    assert "Anna räknas spela som datornivån ”Nybörjare”" in out.getvalue()


def test_the_full_screen_game_says_who_counts_at_which_level() -> None:
    state = careless_game(4)
    app = make_app(state, lang="fi", chances=live_chances)

    async def main() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            for _ in range(500):
                if app._chances is not None:
                    break
                await pilot.pause(0.02)
            await settle(pilot)
            said = " ".join(app.messages)
            assert "Anna on laskettu pelaamaan kuten tietokonetaso ”Aloittelija”" in said

    asyncio.run(main())
