"""Ratings of players, and a skill index that sees through the luck.

**Ratings.** OpenSkill's Plackett-Luce model (the ``openskill`` package): every
rated game between people updates each player's skill ``mu`` and uncertainty
``sigma`` from the order of their final totals (equal totals tie).  A rating belongs
to a rule-set *family* (:func:`family`), because a Maxi player's strength says
little about their Yahtzee.  It is shown as ``round(60 * mu)`` (1500 for a newcomer)
and marked provisional ("1500?") until the player has :data:`PROVISIONAL_GAMES`
games and a ``sigma`` under :data:`PROVISIONAL_SIGMA`; leaderboards sort by the
conservative ``mu - 3 sigma`` (:attr:`Rating.ordinal`).

**Skill index.** In a dice game one lucky evening moves a rating; the solver can do
better: it knows the expected points every decision lost against optimal play
(:mod:`yatzy.strategy.analyze`).  :func:`skill_index` averages a player's losses
over their last games, per decision and per game, and names the calibrated bot
level that loses about as much (:data:`yatzy.strategy.levels.LEVEL_LOSS_TARGETS`),
in plain words (:meth:`SkillIndex.words`).  It is exact where the solver is, and
marked approximate where an analysis was.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from openskill.models import PlackettLuce

from yatzy.errors import YatzyError
from yatzy.i18n import N_, decimal
from yatzy.rules import Language, RuleSet
from yatzy.strategy.levels import LEVEL_LOSS_TARGETS

DISPLAY_SCALE = 60
"""A rating is shown as ``round(DISPLAY_SCALE * mu)``: OpenSkill's 25 becomes 1500."""
PROVISIONAL_GAMES = 10
PROVISIONAL_SIGMA = 7.0
"""Below this many games, or above this uncertainty, a rating is provisional."""
MAX_PLAYERS = 16


class RatingError(YatzyError):
    """A game that cannot be rated (quoted in the message)."""


def family(rules: RuleSet | str) -> str:
    """The rule-set family a rating belongs to: the variant, and whether the boxes
    are filled in order (``yatzy``, ``yatzy+forced``, ``maxi``...).  House rules that
    change a few points (bonus values, lenient straights) share a family."""
    rules = RuleSet.parse(rules) if isinstance(rules, str) else rules
    if rules.forced:
        return f"{rules.variant}+forced"
    if rules.half_forced:
        return f"{rules.variant}+half_forced"
    return rules.variant


@dataclass
class Rating:
    """One player's rating in one family."""

    mu: float = 25.0
    sigma: float = 25.0 / 3
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative estimate ``mu - 3 sigma`` that leaderboards sort by."""
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        """Too few games, or too uncertain, to be taken at face value."""
        return self.games < PROVISIONAL_GAMES or self.sigma > PROVISIONAL_SIGMA

    @property
    def shown(self) -> int:
        """The rating as players see it (1500 for a newcomer)."""
        return round(DISPLAY_SCALE * self.mu)

    def __str__(self) -> str:
        return f"{self.shown}{'?' if self.provisional else ''}"

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready form (what a store keeps)."""
        return {"mu": self.mu, "sigma": self.sigma, "games": self.games}

    @classmethod
    def from_json(cls, data: Any) -> Rating:
        """A rating from :meth:`to_json`'s form (checked)."""
        try:
            mu, sigma, games = float(data["mu"]), float(data["sigma"]), int(data["games"])
        except (KeyError, TypeError, ValueError):
            raise RatingError(f"rating {data!r} is not {{mu, sigma, games}}") from None
        if not (math.isfinite(mu) and math.isfinite(sigma) and sigma > 0 and games >= 0):
            raise RatingError(f"rating {data!r} has a value out of range")
        return cls(mu, sigma, games)


@dataclass
class RatingBook:
    """Every player's rating per family; :meth:`rate` records a finished game."""

    ratings: dict[str, dict[str, Rating]] = field(default_factory=dict)
    _model: PlackettLuce = field(default_factory=PlackettLuce, repr=False)

    def get(self, family_name: str, player: str) -> Rating:
        """``player``'s rating in the family (a newcomer's when they have none)."""
        return self.ratings.get(family_name, {}).get(player, Rating())

    def rate(self, rules: RuleSet | str, results: Sequence[tuple[str, int]]) -> dict[str, Rating]:
        """Record a finished game: ``(player, final total)`` for each person in it.
        Returns the new ratings.  Refused (nothing changes): fewer than two players, a
        player twice, a total that is not a whole number >= 0."""
        if not 2 <= len(results) <= MAX_PLAYERS:
            raise RatingError(f"a rated game has 2-{MAX_PLAYERS} players, not {len(results)}")
        names = [p for p, _ in results]
        if len(set(names)) != len(names):
            raise RatingError(f"a player is in the game twice: {names!r}")
        for player, total in results:
            if isinstance(total, bool) or not isinstance(total, int) or total < 0:
                raise RatingError(f"{player!r}'s total {total!r} is not a whole number >= 0")
        name = family(rules)
        book = self.ratings.setdefault(name, {})
        before = [self.get(name, p) for p in names]
        teams = [
            [self._model.rating(mu=r.mu, sigma=r.sigma, name=p)]
            for p, r in zip(names, before, strict=True)
        ]
        after = self._model.rate(teams, scores=[float(t) for _, t in results])
        out: dict[str, Rating] = {}
        for player, old, (new,) in zip(names, before, after, strict=True):
            book[player] = out[player] = Rating(new.mu, new.sigma, old.games + 1)
        return out

    def leaderboard(self, family_name: str, *, min_games: int = 0) -> list[tuple[str, Rating]]:
        """The family's players by their conservative rating, best first."""
        rows = [
            (p, r) for p, r in self.ratings.get(family_name, {}).items() if r.games >= min_games
        ]
        return sorted(rows, key=lambda row: (-row[1].ordinal, row[0]))

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {f: {p: r.to_json() for p, r in book.items()} for f, book in self.ratings.items()}

    @classmethod
    def from_json(cls, data: Any) -> RatingBook:
        """A book from :meth:`to_json`'s form (checked)."""
        if not isinstance(data, dict):
            raise RatingError("a rating book is a JSON object of families")
        return cls(
            {f: {p: Rating.from_json(r) for p, r in book.items()} for f, book in data.items()}
        )


def update_ratings(
    rules: RuleSet | str,
    before: Mapping[str, tuple[float, float, int] | None],
    results: Sequence[tuple[str, int]],
) -> dict[str, tuple[float, float, int]]:
    """The ratings ``(mu, sigma, games)`` after a game of ``results`` (``(player,
    total)``), from the ratings before it (None: a newcomer) — what the web server
    stores for a rated game (:class:`RatingBook.rate`)."""
    book = RatingBook()
    name = family(rules)
    for player, r in before.items():
        if r is not None:
            book.ratings.setdefault(name, {})[player] = Rating(*r)
    after = book.rate(rules, results)
    return {p: (r.mu, r.sigma, r.games) for p, r in after.items()}


# -- the skill index --------------------------------------------------------------------

SKILL_BANDS: tuple[tuple[str, float], ...] = (
    ("near_perfect", 2.0),
    ("strong", 9.0),
    ("casual", 22.0),
    ("beginner", 45.0),
)
"""The bands of the loss per game, each up to its bound: the calibrated levels'
targets (:data:`LEVEL_LOSS_TARGETS`: strong 4.4, casual 15.5, beginner 29.6) sit inside
the bands of their names; over the last bound a player is "learning"."""

_BAND_WORDS = {
    "near_perfect": N_(
        "skill.near_perfect",
        "plays almost perfectly: about {loss}\u00a0points a game below the best play",
    ),
    "strong": N_(
        "skill.strong",
        "plays like the Strong level: about {loss}\u00a0points a game below the best play",
    ),
    "casual": N_(
        "skill.casual",
        "plays like the Casual level: about {loss}\u00a0points a game below the best play",
    ),
    "beginner": N_(
        "skill.beginner",
        "plays like the Beginner level: about {loss}\u00a0points a game below the best play",
    ),
    "learning": N_(
        "skill.learning", "is learning: about {loss}\u00a0points a game below the best play"
    ),
}
_APPROXIMATE = N_("skill.approximate", "(approximate: some games have no exact solver)")
_NO_GAMES = N_("skill.none", "no analysed games yet")


@dataclass(frozen=True)
class SkillIndex:
    """A player's mean loss against optimal play over their last games."""

    games: int
    decisions: int
    loss_per_decision: float
    loss_per_game: float
    exact: bool

    @property
    def band(self) -> str:
        """The band of :data:`SKILL_BANDS` (``"learning"`` past the last)."""
        for name, bound in SKILL_BANDS:
            if self.loss_per_game <= bound:
                return name
        return "learning"

    def words(self, lang: Language) -> str:
        """The index in plain words: "plays like the Strong level: about 5 points a game
        below the best play"."""
        if not self.games:
            return _NO_GAMES[lang]
        loss = decimal(
            f"{self.loss_per_game:.1f}" if self.loss_per_game < 10 else f"{self.loss_per_game:.0f}",
            lang,
        )
        text = _BAND_WORDS[self.band].text(lang, loss=loss)
        return text if self.exact else f"{text} {_APPROXIMATE[lang]}"


@dataclass(frozen=True)
class GameLoss:
    """One analysed game of a player: their decisions and the points they lost."""

    decisions: int
    total_loss: float
    exact: bool = True


def skill_index(games: Iterable[GameLoss], last: int = 20) -> SkillIndex:
    """The skill index over the ``last`` games of ``games`` (oldest first).  A game
    without decisions (a score pad's points only) is left out: it cannot be rated."""
    if last < 1:
        raise RatingError(f"last {last!r} is not a whole number >= 1")
    rated = [g for g in games if g.decisions > 0][-last:]
    decisions = sum(g.decisions for g in rated)
    loss = sum(g.total_loss for g in rated)
    return SkillIndex(
        games=len(rated),
        decisions=decisions,
        loss_per_decision=loss / decisions if decisions else 0.0,
        loss_per_game=loss / len(rated) if rated else 0.0,
        exact=all(g.exact for g in rated),
    )


def game_losses(analysis: Any, seat: int) -> GameLoss:
    """A seat's :class:`GameLoss` from an :class:`~yatzy.strategy.analyze.Analysis`."""
    summary = analysis.players[seat]
    if not summary.complete:
        return GameLoss(0, 0.0, analysis.exact)
    return GameLoss(summary.decisions, summary.total_loss, analysis.exact)


def level_of(loss_per_game: float) -> str:
    """The calibrated level (``strong``, ``casual``, ``beginner``) whose target loss per
    game is nearest on a log scale, or ``optimal`` under half the strongest's: how a
    person is modelled where their play is measured."""
    strongest = min(LEVEL_LOSS_TARGETS.values())
    if loss_per_game < strongest / 2:
        return "optimal"
    return min(
        LEVEL_LOSS_TARGETS,
        key=lambda lvl: abs(math.log(LEVEL_LOSS_TARGETS[lvl]) - math.log(loss_per_game)),
    )
