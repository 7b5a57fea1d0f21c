"""Honest live chances at a terminal (issue 24): a person counts at the calibrated
level their play in this game has shown (after a few turns), not as a perfect player,
and the line mode and the full-screen game say so in the game's language."""

from __future__ import annotations

import asyncio
import io
import random
from pathlib import Path

import pytest

from tests.tui.helpers import make_app, settle
from yatzy.bots import make_bot, play_turn
from yatzy.cli.i18n import level_name, tr
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


LANGS: tuple[Language, ...] = ("sv", "fi", "en")


def test_a_careless_player_counts_at_the_level_shown() -> None:
    state = careless_game(4)
    assert measured_levels(state).get(0) == "beginner"
    result = live_chances(state)
    assert result is not None
    assert result.seats[0].level == "beginner"  # not "person": the perfect player
    # The line in every language from the one game and its chances (each a CPU-second).
    for lang in LANGS:
        line = measured_line(state, result, lang)
        assert line.startswith("Anna ") and SAID[lang] in line, lang
        assert level_name("beginner", lang) in line, lang


def test_too_few_turns_count_at_the_middle_level_said_as_assumed() -> None:
    # Issue 24: counted as a perfect player, a beginner read 67 % against the
    # computer's middle level after one roll. Until their play has been seen, a person
    # counts at that middle level, and the line says it is assumed.
    from yatzy.analysis.measured import PRIOR_LEVEL

    state = careless_game(2)  # Anna and Bo, two people, two turns each
    assert measured_levels(state) == {0: PRIOR_LEVEL, 1: PRIOR_LEVEL}
    result = live_chances(state)
    assert result is not None and {s.level for s in result.seats} == {PRIOR_LEVEL}
    line = measured_line(state, result, "en")
    level = level_name(PRIOR_LEVEL, "en")
    assert line.startswith(tr("win_assumed", "en", name="Anna", level=level))
    assert "Bo counts as" in line and "until their play has been seen" in line


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


def finished_careless_game(seed: int) -> State:
    """A whole game: Anna plays at random against the greedy computer Bo."""
    state = Game("yatzy", [Player("Anna"), Player("Bo", "greedy")]).new_initial_state(starter=0)
    careless, greedy, rng = make_bot("random"), make_bot("greedy"), random.Random(seed)
    while not state.is_terminal():
        play_turn(state, careless if state.player == 0 else greedy, rng)
    return state


def test_earlier_games_on_this_computer_count_from_the_first_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As the web counts a browser's earlier games: a person's finished games of the same
    # rules in the local database (where `yatzy play` keeps them) count in their level,
    # so a careless player is a beginner from the start, not a perfect player for three
    # turns; and the line says what the level was measured from.
    from yatzy.cli.play_common import PeopleHistory
    from yatzy.store.local import record_finished_game

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    url = f"sqlite:///{tmp_path / 'games.db'}"
    for seed in (1, 2):
        record_finished_game(finished_careless_game(seed), url=url)
    state = Game("yatzy", [Player("Anna"), Player("Bo", "greedy")]).new_initial_state(starter=0)
    assert measured_levels(state) == {0: "casual"}  # this game alone: nothing seen yet
    history = PeopleHistory(url)
    assert measured_levels(state, history) == {0: "beginner"}
    assert history.earlier(0) == 2
    result = live_chances(state, history=history)
    assert result is not None and result.seats[0].level == "beginner"
    for lang in LANGS:  # the line in every language from the one history
        line = measured_line(state, result, lang, history)
        assert line.startswith("Anna ") and SAID[lang] in line and "(2)" in line, lang
    # Two people at one keyboard share this computer's games: none count for either.
    two = Game("yatzy", [Player("Anna"), Player("Cid")]).new_initial_state(starter=0)
    assert measured_levels(two, PeopleHistory(url)) == {0: "casual", 1: "casual"}
    # Another rule set's games do not count.
    forced = Game("yatzy+forced", [Player("Anna")]).new_initial_state(starter=0)
    assert PeopleHistory(url).losses(forced) == {}


def test_no_database_means_no_history(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from yatzy.cli.play_common import PeopleHistory

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    from yatzy.store.local import local_owner

    local_owner()  # an owner, but no database where the URL points
    state = Game("yatzy", [Player("Anna"), Player("Bo", "greedy")]).new_initial_state(starter=0)
    history = PeopleHistory(f"sqlite:///{tmp_path / 'missing' / 'games.db'}")
    assert history.losses(state) == {}
    assert not (tmp_path / "missing").exists()  # nothing created where nobody asked
