"""Fair play: players whose decisions match optimal play more often than people do.

A chess site flags a player whose moves match an engine's beyond what people manage;
the same works for Yatzy, where the solver knows the best decision exactly.  Over a
player's last analysed games, ``n`` decisions were rated and ``k`` of them were the
best play (lost nothing within rounding: :data:`yatzy.strategy.analyze.MISTAKE`).  The
strongest calibrated level, Strong, matches the best play in about 82 % of its
decisions (``benchmarks/bench_ratings.py`` prints the rates); people who play better
than Strong exist, so the reference is set above it, at :data:`HUMAN_MATCH_RATE`.  A
player is **flagged for review** when they have enough games and decisions
(:data:`MIN_GAMES`, :data:`MIN_DECISIONS`) and ``k`` matches or more would happen by
chance less than once in :data:`ALPHA`\\ :sup:`-1` at that rate (an exact binomial
tail).  Only exact analyses count: an approximate one cannot tell a best play apart.

A flag is a reason for a person to look, never a verdict: nothing here bans anyone.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from yatzy.errors import YatzyError
from yatzy.i18n import N_
from yatzy.rules import Language

HUMAN_MATCH_RATE = 0.90
"""The share of best plays the reference player makes: above the Strong level's 82 %
(measured over 30 analysed games of Scandinavian Yatzy, 1,309 decisions: 82.4 %; Casual
70.8 %, Beginner 57.6 %), with room for people stronger than Strong."""
ALPHA = 1e-6
"""How unlikely ``k`` or more best plays must be at :data:`HUMAN_MATCH_RATE` to flag."""
MIN_GAMES = 10
MIN_DECISIONS = 300
LAST_GAMES = 50


class FairPlayError(YatzyError):
    """A count that cannot be reviewed (quoted in the message)."""


@dataclass(frozen=True)
class GameMatches:
    """One analysed game of a player: how many decisions, how many were the best
    play, and whether the analysis was exact."""

    decisions: int
    best: int
    exact: bool = True

    def __post_init__(self) -> None:
        if not 0 <= self.best <= self.decisions:
            raise FairPlayError(
                f"best plays {self.best!r} is not between 0 and the decisions {self.decisions!r}"
            )


def game_matches(analysis: Any, seat: int) -> GameMatches:
    """A seat's :class:`GameMatches` from an :class:`~yatzy.strategy.analyze.Analysis`
    (an incomplete one counts no decisions)."""
    summary = analysis.players[seat]
    if not summary.complete:
        return GameMatches(0, 0, analysis.exact)
    return GameMatches(summary.decisions, summary.best_decisions, analysis.exact)


def binomial_tail(n: int, k: int, p: float) -> float:
    """P(X >= k) for X ~ Binomial(n, p), exactly (summed in log space)."""
    if not 0 <= k <= n:
        raise FairPlayError(f"k {k!r} is not between 0 and n {n!r}")
    if not 0.0 < p < 1.0:
        raise FairPlayError(f"p {p!r} is not strictly between 0 and 1")
    if k == 0:
        return 1.0
    log_p, log_q = math.log(p), math.log1p(-p)
    terms = [
        math.lgamma(n + 1)
        - math.lgamma(i + 1)
        - math.lgamma(n - i + 1)
        + i * log_p
        + (n - i) * log_q
        for i in range(k, n + 1)
    ]
    top = max(terms)
    return min(1.0, math.exp(top) * sum(math.exp(t - top) for t in terms))


_WORDS = {
    "flagged": N_(
        "fairplay.flagged",
        "for review: {share} of {decisions} decisions in {games} games were the best play, "
        "more than people reach (about {reference})",
    ),
    "clear": N_(
        "fairplay.clear",
        "no concern: {share} of {decisions} decisions in {games} games were the best play",
    ),
    "few": N_(
        "fairplay.few",
        "not enough games yet to review ({games} games, {decisions} decisions)",
    ),
}


@dataclass(frozen=True)
class FairPlayReview:
    """A player's review: the counts, the chance of so many best plays at the
    reference rate (``p_value``) and whether that flags them."""

    games: int
    decisions: int
    best: int
    p_value: float
    flagged: bool

    @property
    def share(self) -> float:
        """The share of decisions that were the best play."""
        return self.best / self.decisions if self.decisions else 0.0

    @property
    def enough(self) -> bool:
        """Whether there are games and decisions enough to judge."""
        return self.games >= MIN_GAMES and self.decisions >= MIN_DECISIONS

    def words(self, lang: Language) -> str:
        """The review in plain words, in ``lang``."""
        if not self.enough:
            return _WORDS["few"].text(lang, games=self.games, decisions=self.decisions)
        key = "flagged" if self.flagged else "clear"
        return _WORDS[key].text(
            lang,
            share=f"{100 * self.share:.0f}\u00a0%",
            decisions=self.decisions,
            games=self.games,
            reference=f"{100 * HUMAN_MATCH_RATE:.0f}\u00a0%",
        )


def review(games: Iterable[GameMatches], last: int = LAST_GAMES) -> FairPlayReview:
    """Review a player's ``last`` exactly analysed games (oldest first); games without
    decisions (a score pad's points) and approximate analyses are left out."""
    if last < 1:
        raise FairPlayError(f"last {last!r} is not a whole number >= 1")
    counted = [g for g in games if g.decisions > 0 and g.exact][-last:]
    decisions = sum(g.decisions for g in counted)
    best = sum(g.best for g in counted)
    p_value = binomial_tail(decisions, best, HUMAN_MATCH_RATE) if decisions else 1.0
    enough = len(counted) >= MIN_GAMES and decisions >= MIN_DECISIONS
    return FairPlayReview(len(counted), decisions, best, p_value, enough and p_value < ALPHA)
