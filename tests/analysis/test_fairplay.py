"""Fair-play review: the exact binomial tail, who is flagged and who is not (bots of
known strength through the real analysis), and the words."""

from __future__ import annotations

import math
import random

import pytest

from yatzy.analysis.fairplay import (
    ALPHA,
    HUMAN_MATCH_RATE,
    MIN_DECISIONS,
    MIN_GAMES,
    FairPlayError,
    GameMatches,
    binomial_tail,
    game_matches,
    review,
)
from yatzy.bots import make_bot
from yatzy.game import Game
from yatzy.strategy.analyze import analyze


def test_the_binomial_tail_is_exact() -> None:
    n, p = 20, 0.3
    by_hand = sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(7, n + 1))
    assert binomial_tail(n, 7, p) == pytest.approx(by_hand, rel=1e-12)
    assert binomial_tail(n, 0, p) == 1.0
    assert binomial_tail(600, 600, 0.9) == pytest.approx(0.9**600, rel=1e-9)  # tiny, not 0
    for bad in ((5, 6, 0.5), (5, -1, 0.5), (5, 2, 1.0), (5, 2, 0.0)):
        with pytest.raises(FairPlayError):
            binomial_tail(*bad)


def test_who_is_flagged() -> None:
    perfect = [GameMatches(40, 40)] * MIN_GAMES
    assert review(perfect).flagged and review(perfect).p_value < ALPHA
    # as many best plays as the reference player makes: never flagged
    human = [GameMatches(40, int(40 * HUMAN_MATCH_RATE))] * 30
    assert not review(human).flagged
    # perfect but too few games, or too few decisions: not judged yet
    assert not review([GameMatches(400, 400)] * (MIN_GAMES - 1)).flagged
    few = review([GameMatches(MIN_DECISIONS // MIN_GAMES - 1, 1)] * MIN_GAMES)
    assert not few.enough and not few.flagged
    # approximate analyses and score pads' points do not count
    assert review([GameMatches(40, 40, exact=False)] * 20).games == 0
    assert review([GameMatches(0, 0)] * 20).decisions == 0
    # only the last games: an engine used long ago is forgotten
    assert not review(perfect + [GameMatches(40, 30)] * 50).flagged
    with pytest.raises(FairPlayError, match="between 0"):
        GameMatches(10, 11)
    with pytest.raises(FairPlayError, match="last"):
        review(perfect, last=0)


@pytest.mark.slow
def test_the_optimal_bot_is_flagged_and_the_strong_level_is_not() -> None:
    def matches(level: str, games: int) -> list[GameMatches]:
        bot, rng, out = make_bot(level), random.Random(7), []
        for _ in range(games):
            state = Game("yatzy", ["P"]).new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.roll(rng)
                else:
                    state.apply(bot.choose(state, rng))
            out.append(game_matches(analyze(state), 0))
        return out

    optimal = review(matches("optimal", MIN_GAMES))
    assert optimal.flagged and optimal.share == 1.0
    strong = review(matches("strong", MIN_GAMES))
    assert strong.enough and not strong.flagged and 0.7 < strong.share < HUMAN_MATCH_RATE


def test_the_review_in_words() -> None:
    flagged = review([GameMatches(40, 40)] * MIN_GAMES)
    assert flagged.words("en") == (
        "for review: 100\u00a0% of 400 decisions in 10 games were the best play, more than "
        "people reach (about 90\u00a0%)"
    )
    assert flagged.words("sv").startswith("granskas: 100\u00a0% av 400 beslut i 10 spel")
    clear = review([GameMatches(40, 30)] * 12)
    assert clear.words("fi").startswith("ei huomautettavaa: 75\u00a0% 480 päätöksestä")
    assert "not enough" in review([]).words("en")
