"""Ratings and the skill index against bots of known strength.

Ratings: the bot levels play ``--games`` games of Scandinavian Yatzy together (each
game's totals are the levels' own solitaire games on the same game number: Yatzy's
scores do not interact), rated with OpenSkill's Plackett-Luce model
(:mod:`yatzy.analysis.rating`).  For every pair of levels it prints after how many
games the stronger one ranked above the weaker for good (by the conservative
``mu - 3 sigma``), and the final leaderboard.

Skill index: ``--analysed`` games of each skill level are analysed decision by
decision against optimal play; the index (mean loss per game) is printed beside the
level's calibrated target (:data:`yatzy.strategy.levels.LEVEL_LOSS_TARGETS`), with the
share of decisions that were the best play (the reference of
:data:`yatzy.analysis.fairplay.HUMAN_MATCH_RATE`).

    .venv/bin/python benchmarks/bench_ratings.py --games 300 --analysed 20
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import time

from yatzy.analysis.fairplay import GameMatches, game_matches
from yatzy.analysis.rating import RatingBook, game_losses, skill_index
from yatzy.bots import make_bot
from yatzy.game import Game
from yatzy.strategy.analyze import analyze
from yatzy.strategy.levels import LEVEL_LOSS_TARGETS
from yatzy.strategy.simulate import simulate

LEVELS = ("random", "greedy", "beginner", "casual", "strong", "optimal")


def ratings(games: int, seed: int) -> None:
    """Print when each stronger level ranks above each weaker one for good."""
    start = time.perf_counter()
    scores = {
        lvl: simulate("yatzy", lvl, games, seed=seed + i).scores for i, lvl in enumerate(LEVELS)
    }
    played = time.perf_counter() - start
    book = RatingBook()
    ahead_since: dict[tuple[str, str], int | None] = {}
    for n in range(games):
        book.rate("yatzy", [(lvl, int(scores[lvl][n])) for lvl in LEVELS])
        for weak, strong in itertools.combinations(LEVELS, 2):
            ok = book.get("yatzy", strong).ordinal > book.get("yatzy", weak).ordinal
            if not ok:
                ahead_since[(weak, strong)] = None
            elif ahead_since.get((weak, strong)) is None:
                ahead_since[(weak, strong)] = n + 1
    print(f"{games} six-player games (levels' games simulated in {played:.0f} s)")
    for lvl in LEVELS:
        print(f"  {lvl:<9} mean {statistics.fmean(scores[lvl]):6.1f}")
    print("games until the stronger level ranks above the weaker for good:")
    for (weak, strong), since in ahead_since.items():
        print(f"  {strong:>8} over {weak:<8} {since if since is not None else 'not yet'}")
    print("leaderboard:")
    for player, rating in book.leaderboard("yatzy"):
        print(f"  {player:<9} {rating}  (mu {rating.mu:.2f}, sigma {rating.sigma:.2f})")


def skill(analysed: int, seed: int) -> None:
    """Print each skill level's index beside its calibrated loss per game."""
    for level, target in LEVEL_LOSS_TARGETS.items():
        bot, rng, losses = make_bot(level), random.Random(seed), []
        matched: list[GameMatches] = []
        start = time.perf_counter()
        for _ in range(analysed):
            state = Game("yatzy", ["P"]).new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.roll(rng)
                else:
                    state.apply(bot.choose(state, rng))
            analysis = analyze(state)
            losses.append(game_losses(analysis, 0))
            matched.append(game_matches(analysis, 0))
        index = skill_index(losses, last=analysed)
        best = sum(m.best for m in matched) / max(1, sum(m.decisions for m in matched))
        per_game = [g.total_loss for g in losses]
        se = statistics.stdev(per_game) / len(per_game) ** 0.5 if len(per_game) > 1 else 0.0
        print(
            f"  {level:<9} index {index.loss_per_game:5.1f} ± {se:.1f} a game "
            f"({index.loss_per_decision:.3f} a decision), target {target}: {index.band}; "
            f"best play in {100 * best:.1f} % of decisions  "
            f"[{time.perf_counter() - start:.0f} s]"
        )


def main() -> None:
    """Run both parts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--analysed", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    ratings(args.games, args.seed)
    print("skill index of the calibrated levels:")
    skill(args.analysed, args.seed)


if __name__ == "__main__":
    main()
