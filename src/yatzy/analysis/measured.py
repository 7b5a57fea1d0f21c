"""A person's play as one of the calibrated computer levels (issue 24: honest chances).

The live chances and the win analysis count each person at the level their play
shows rather than as a perfect player: the points they lost per turn in this game
(its analysis so far) together with their earlier finished games of the same rules
(:data:`EARLIER_GAMES` at most, the newest), scaled to a whole game and mapped to the
nearest calibrated level (:func:`yatzy.analysis.rating.level_of`).  Shared by the web
app (a browser's or an account's games, :mod:`yatzy.web.ahead`) and the terminal
(this computer's games in the local database, :mod:`yatzy.cli.play_common`).

A person's earlier games count only where their owner (a browser, an account, this
computer) holds exactly one seat of the game, in this game and in each earlier one:
on one shared device the games of the people taking turns cannot be told apart.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import orjson

from yatzy.errors import YatzyError
from yatzy.game import State, from_record
from yatzy.store import GameRepository, StoredGame

if TYPE_CHECKING:  # the strategy package loads numpy: only where a game is analysed
    from yatzy.analysis.rating import GameLoss
    from yatzy.strategy.analyze import Analysis

__all__ = [
    "EARLIER_GAMES",
    "MEASURED_AFTER",
    "PRIOR_LEVEL",
    "Earlier",
    "Measured",
    "assumed",
    "earlier_games",
    "earlier_games_of",
    "game_loss",
    "measured_from",
    "measured_levels",
    "measured_people",
    "own_turns",
    "rating_levels",
    "with_prior",
]

Earlier = Callable[[], dict[int, list[tuple[str, int, State]]]]
"""A game's people's earlier finished games of its rules: seat to ``(game id, their
seat in it, its final state)``, newest first (read from the store when called)."""

EARLIER_GAMES = 10
"""A person's earlier finished games counted in their level at most (the newest)."""

MEASURED_AFTER = 3
"""A person's own turns seen before their play is mapped to a level (before that, and
with no earlier game, they count at :data:`PRIOR_LEVEL`)."""

PRIOR_LEVEL = "casual"
"""The level a person counts at until their play has been seen for
:data:`MEASURED_AFTER` turns (with no earlier game to go by): the middle of the
calibrated levels (about 15 points a game below the best play), said in words as an
assumption.  Counting an unseen person as a perfect player told a beginner after one
roll that they had 67 % against the computer's middle level."""


@dataclass(frozen=True)
class Measured:
    """A person's measured level and what it was measured from: ``turns`` of this
    game and ``earlier`` finished games of the same rules; ``assumed``: too little
    seen to measure, so the level is :data:`PRIOR_LEVEL`."""

    level: str
    turns: int
    earlier: int = 0
    assumed: bool = False

    def to_json(self) -> dict[str, object]:
        """A JSON-ready form (the live chances and the win analysis carry it)."""
        found: dict[str, object] = {
            "level": self.level,
            "turns": self.turns,
            "earlier": self.earlier,
        }
        if self.assumed:
            found["assumed"] = True
        return found


def assumed(turns: int) -> Measured:
    """A person not measured yet after ``turns`` of their own: :data:`PRIOR_LEVEL`."""
    return Measured(PRIOR_LEVEL, turns, 0, assumed=True)


def measured_people(
    state: State, analysis: Analysis, earlier: dict[int, list[GameLoss]] | None = None
) -> dict[int, Measured]:
    """Each person's level from their decisions so far in ``analysis`` (of ``state``)
    and their ``earlier`` games' losses: the points they lost per turn, over this game
    and the earlier ones together, scaled to a whole game, mapped to the nearest
    calibrated level (:func:`yatzy.analysis.rating.level_of`).  Left out: bots.
    People with fewer than :data:`MEASURED_AFTER` turns here and no earlier game are
    :func:`assumed` at :data:`PRIOR_LEVEL`."""
    seen = {s.player: (len(s.expected), s.total_loss) for s in analysis.players}
    return measured_from(state, seen, earlier)


def measured_from(
    state: State,
    seen: dict[int, tuple[int, float]],
    earlier: dict[int, list[GameLoss]] | None = None,
) -> dict[int, Measured]:
    """:func:`measured_people` from each seat's turns and points lost so far (seat to
    ``(turns, loss)``): what an analysis sums up, or the sums of the analyses of a
    game's turns taken a few at a time (the web's :class:`yatzy.web.ahead.Ahead`)."""
    from yatzy.analysis.rating import level_of  # openskill: only where people are measured

    found: dict[int, Measured] = {}
    for seat, (turns, total_loss) in seen.items():
        before = [g for g in (earlier or {}).get(seat, []) if g.decisions > 0]
        if state.players[seat].bot is not None:
            continue
        if turns < MEASURED_AFTER and not before:
            found[seat] = assumed(turns)
            continue
        loss = total_loss + sum(g.total_loss for g in before)
        played = turns + len(before) * state.rules.turns
        per_game = loss / played * state.rules.turns
        found[seat] = Measured(level_of(max(per_game, 1e-9)), turns, len(before))
    return found


def measured_levels(
    state: State, analysis: Analysis, earlier: dict[int, list[GameLoss]] | None = None
) -> dict[int, str]:
    """:func:`measured_people`'s levels alone (seat to level)."""
    return {seat: m.level for seat, m in measured_people(state, analysis, earlier).items()}


def own_turns(state: State, seat: int) -> int:
    """The turns ``seat`` has finished in ``state``."""
    return sum(1 for turn in state.log if turn.get("player") == seat)


def with_prior(state: State, measured: Mapping[int, Measured]) -> dict[int, Measured]:
    """``measured`` with every person it lacks :func:`assumed` at :data:`PRIOR_LEVEL`
    (a game not measured yet: its first turns, before the first measure)."""
    found = dict(measured)
    for seat, player in enumerate(state.players):
        if player.bot is None and seat not in found:
            found[seat] = assumed(own_turns(state, seat))
    return found


def rating_levels(state: State, measured: dict[int, Measured]) -> list[str | None]:
    """The levels a game's seats are counted at: a bot's own, a person's measured one
    (``None``, the best play, where it measured as optimal or not at all)."""
    return [
        p.bot
        or (None if i not in measured or measured[i].level == "optimal" else measured[i].level)
        for i, p in enumerate(state.players)
    ]


def game_loss(state: State, seat: int) -> GameLoss | None:
    """What ``seat`` lost in the finished game ``state`` by its analysis in points
    (``None``: a game the analysis refuses, which then counts for nothing)."""
    from yatzy.analysis.rating import game_losses
    from yatzy.strategy.analyze import analyze

    try:
        return game_losses(analyze(state), seat)
    except YatzyError:
        return None


def earlier_games_of(
    repo: GameRepository, people: Mapping[int, str], rules: str, this: str | None = None
) -> Earlier | None:
    """How to read the earlier finished games of ``rules`` of ``people`` (seat to owner
    hash) from ``repo``: each owner's newest :data:`EARLIER_GAMES` in which they held
    exactly one seat, leaving out the game ``this`` (``None`` for no people)."""
    if not people:
        return None

    def read() -> dict[int, list[tuple[str, int, State]]]:
        found: dict[int, list[tuple[str, int, State]]] = {}
        for seat, owner in people.items():
            games: list[tuple[str, int, State]] = []
            for game in repo.games_of(owner, limit=4 * EARLIER_GAMES):
                if len(games) >= EARLIER_GAMES:
                    break
                if game.id == this or not game.finished or game.pad or game.rules != rules:
                    continue
                mine = [s.seat for s in game.seats if s.owner_hash == owner and s.bot is None]
                if len(mine) != 1:
                    continue  # a shared device's game: whose play is whose is unknown
                try:
                    state = from_record(orjson.loads(game.record))
                except (YatzyError, ValueError, KeyError, TypeError):
                    continue
                games.append((game.id, mine[0], state))
            if games:
                found[seat] = games
        return found

    return read


def earlier_games(repo: GameRepository, stored: StoredGame) -> Earlier | None:
    """How to read the earlier finished games of ``stored``'s people from ``repo``
    (``None``: no person whose owner holds exactly one seat of it)."""
    owners = [s.owner_hash for s in stored.seats if s.bot is None]
    people = {
        s.seat: s.owner_hash
        for s in stored.seats
        if s.bot is None and s.owner_hash is not None and owners.count(s.owner_hash) == 1
    }
    return earlier_games_of(repo, people, stored.rules, stored.id)
