"""Ratings and the skill index against bots of known strength.

Ratings: every pair of bot levels plays ``--games`` two-player rated games of
Scandinavian Yatzy (each game's totals are the levels' own solitaire games on the
same game number: Yatzy's scores do not interact), the ratings updated by the web
server's own code (:func:`yatzy.analysis.rating.update_ratings`, OpenSkill's
Plackett-Luce model), over ``--seeds`` seeds.  For every pair it prints after how
many games the stronger one ranked above the weaker for good (by the conservative
``mu - 3 sigma``), and a six-player leaderboard.

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
from yatzy.analysis.rating import RatingBook, game_losses, skill_index, update_ratings
from yatzy.bots import make_bot
from yatzy.game import Game
from yatzy.strategy.analyze import analyze
from yatzy.strategy.levels import LEVEL_LOSS_TARGETS
from yatzy.strategy.simulate import simulate

LEVELS = ("random", "greedy", "beginner", "casual", "strong", "optimal")


def settled_after(weak: list[int], strong: list[int]) -> int | None:
    """After how many two-player rated games the stronger player's conservative
    rating ranks above the weaker's for good (None: not by the end), the ratings
    updated by the server's own code (:func:`update_ratings`)."""
    ratings: dict[str, tuple[float, float, int] | None] = {"weak": None, "strong": None}
    since: int | None = None
    for n, (w, s) in enumerate(zip(weak, strong, strict=True)):
        ratings.update(update_ratings("yatzy", ratings, [("weak", w), ("strong", s)]))
        mu_w, sigma_w, _ = ratings["weak"] or (0.0, 0.0, 0)
        mu_s, sigma_s, _ = ratings["strong"] or (0.0, 0.0, 0)
        if mu_s - 3 * sigma_s > mu_w - 3 * sigma_w:
            since = n + 1 if since is None else since
        else:
            since = None
    return since


def ratings(games: int, seed: int, seeds: int = 5) -> None:
    """Print when each stronger level ranks above each weaker one for good, in
    two-player rated games (several seeds), and a six-player leaderboard."""
    start = time.perf_counter()
    scores = {
        (lvl, k): [int(x) for x in simulate("yatzy", lvl, games, seed=seed + 100 * k + i).scores]
        for i, lvl in enumerate(LEVELS)
        for k in range(seeds)
    }
    played = time.perf_counter() - start
    print(f"{games} games per level and seed, {seeds} seeds (simulated in {played:.0f} s)")
    for lvl in LEVELS:
        print(f"  {lvl:<9} mean {statistics.fmean(scores[(lvl, 0)]):6.1f}")
    print("two-player rated games until the stronger level ranks above the weaker for good")
    print("(conservative rating mu - 3 sigma; per seed, then the median):")
    for weak, strong in itertools.combinations(LEVELS, 2):
        found = [settled_after(scores[(weak, k)], scores[(strong, k)]) for k in range(seeds)]
        known = sorted(n for n in found if n is not None)
        median = statistics.median(known) if len(known) == len(found) else "not yet"
        shown = ", ".join("-" if n is None else str(n) for n in found)
        print(f"  {strong:>8} over {weak:<8} {shown:<28} median {median}")
    book = RatingBook()
    for n in range(games):
        book.rate("yatzy", [(lvl, scores[(lvl, 0)][n]) for lvl in LEVELS])
    print(f"leaderboard after {games} six-player games:")
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
    parser.add_argument("--seeds", type=int, default=5)
    args = parser.parse_args()
    ratings(args.games, args.seed, args.seeds)
    print("skill index of the calibrated levels:")
    skill(args.analysed, args.seed)


if __name__ == "__main__":
    main()
