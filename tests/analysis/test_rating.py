"""Ratings (OpenSkill Plackett-Luce per family) and the skill index."""

from __future__ import annotations

import random

import pytest

from yatzy.analysis.rating import (
    PROVISIONAL_GAMES,
    PROVISIONAL_SIGMA,
    GameLoss,
    Rating,
    RatingBook,
    RatingError,
    family,
    game_losses,
    level_of,
    skill_index,
)
from yatzy.game import Game
from yatzy.strategy.levels import LEVEL_LOSS_TARGETS


def test_families_group_house_rules_but_not_order_or_variant() -> None:
    assert family("yatzy") == family("yatzy+lenient") == "yatzy"
    assert family("yatzy+forced") == "yatzy+forced"
    assert family("maxi+saved_rolls") == "maxi"
    assert family("yahtzee") != family("yatzy")


def test_a_win_moves_ratings_the_right_way() -> None:
    book = RatingBook()
    new = book.rate("yatzy", [("Anna", 260), ("Bo", 210), ("Cid", 180)])
    assert new["Anna"].mu > 25 > new["Cid"].mu
    assert new["Anna"].mu > new["Bo"].mu > new["Cid"].mu
    assert all(r.sigma < 25 / 3 and r.games == 1 for r in new.values())
    assert str(new["Anna"]).endswith("?")  # provisional after one game
    # Another family is untouched; a tie moves the two alike.
    assert book.get("maxi", "Anna") == Rating()
    tie = RatingBook().rate("yatzy", [("A", 200), ("B", 200)])
    assert tie["A"].mu == pytest.approx(tie["B"].mu)


def test_provisional_until_enough_games() -> None:
    book = RatingBook()
    rng = random.Random(2)
    for _ in range(PROVISIONAL_GAMES - 1):
        book.rate("yatzy", [("A", rng.randint(150, 300)), ("B", rng.randint(150, 300))])
    assert book.get("yatzy", "A").provisional
    book.rate("yatzy", [("A", 250), ("B", 240)])
    a = book.get("yatzy", "A")
    assert a.games == PROVISIONAL_GAMES and a.sigma < PROVISIONAL_SIGMA and not a.provisional
    assert str(a) == str(a.shown)


@pytest.mark.parametrize(
    ("results", "message"),
    [
        ([("A", 200)], "2-16 players"),
        ([("A", 200), ("A", 100)], "twice"),
        ([("A", 200), ("B", -1)], "whole number"),
        ([("A", 200), ("B", 1.5)], "whole number"),
        ([("A", 200), ("B", True)], "whole number"),
    ],
)
def test_games_that_cannot_be_rated_change_nothing(results: list, message: str) -> None:  # type: ignore[type-arg]
    book = RatingBook()
    book.rate("yatzy", [("A", 250), ("B", 200)])
    before = book.to_json()
    with pytest.raises(RatingError, match=message):
        book.rate("yatzy", results)
    assert book.to_json() == before


def test_the_book_round_trips_through_json() -> None:
    book = RatingBook()
    book.rate("maxi", [("A", 300), ("B", 280), ("C", 320)])
    again = RatingBook.from_json(book.to_json())
    assert again.to_json() == book.to_json()
    assert [p for p, _ in again.leaderboard("maxi")] == ["C", "A", "B"]
    for bad in (
        [],
        {"yatzy": {"A": {"mu": "x"}}},
        {"yatzy": {"A": {"mu": 1, "sigma": 0, "games": 1}}},
    ):
        with pytest.raises(RatingError):
            RatingBook.from_json(bad)


def test_the_skill_index_in_words() -> None:
    games = [GameLoss(45, 4.0), GameLoss(45, 6.0), GameLoss(0, 0.0)]  # a pad: not rated
    index = skill_index(games)
    assert index.games == 2 and index.decisions == 90
    assert index.loss_per_game == pytest.approx(5.0)
    assert index.loss_per_decision == pytest.approx(10 / 90)
    assert index.band == "strong"
    assert (
        index.words("en")
        == "plays like the Strong level: about 5.0\u00a0points a game below the best play"
    )
    assert index.words("sv").startswith("spelar som nivån Stark: ungefär 5,0\u00a0poäng")
    assert "likimääräinen" in skill_index([GameLoss(40, 30.0, exact=False)]).words("fi")
    assert skill_index([]).words("en") == "no analysed games yet"
    assert skill_index([GameLoss(45, 100.0)] * 30, last=20).games == 20
    with pytest.raises(RatingError):
        skill_index(games, last=0)


def test_each_calibrated_level_falls_in_its_own_band_and_maps_back() -> None:
    for level, target in LEVEL_LOSS_TARGETS.items():
        index = skill_index([GameLoss(45, target)])
        assert index.band == level
        assert level_of(target) == level
    assert level_of(0.5) == "optimal"


@pytest.mark.slow
def test_ratings_order_bots_of_known_strength() -> None:
    # Bots of the calibrated levels play 3-player games (each game's totals are the
    # bots' own solitaire games: Yatzy's scores do not interact); after N games the
    # ratings rank them by strength (benchmarks/ratings.py reports N for every level).
    from yatzy.strategy.simulate import simulate

    games = 40
    levels = ("random", "greedy", "strong")
    scores = {lvl: simulate("yatzy", lvl, games, seed=7, workers=1).scores for lvl in levels}
    book = RatingBook()
    for i in range(games):
        book.rate("yatzy", [(lvl, int(scores[lvl][i])) for lvl in levels])
    assert [p for p, _ in book.leaderboard("yatzy")] == ["strong", "greedy", "random"]


@pytest.mark.slow
def test_the_skill_index_of_a_bot_is_its_calibrated_loss() -> None:
    # A handful of the strong bot's games, analysed: the index says "Strong".
    from yatzy.bots import make_bot
    from yatzy.strategy.analyze import analyze

    bot, rng, losses = make_bot("strong"), random.Random(5), []
    for _ in range(4):
        state = Game("yatzy", ["S"]).new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.roll(rng)
            else:
                state.apply(bot.choose(state, rng))
        losses.append(game_losses(analyze(state), 0))
    index = skill_index(losses)
    assert index.exact and index.games == 4 and index.decisions > 4 * 15
    assert index.band in ("near_perfect", "strong", "casual")  # 4.4 a game, give or take luck
    assert index.loss_per_game < LEVEL_LOSS_TARGETS["beginner"]
