"""Live win chances: every player's chance of finishing first, from any position.

:func:`win_chances` takes a game state and each seat's level (a person plays the
optimal strategy; a bot as its level does: see :mod:`yatzy.bots`) and returns a
:class:`WinChances`.

**Ties share the win**: when several players end on the same highest final score,
each of them counts ``1/k`` of a win (``k`` tied), so the chances always sum to 1.

Players' sheets are independent of each other given how each plays, so each seat's
final score has its own distribution (:mod:`yatzy.strategy.outcomes`: exact where a
target table covers the position, else sampled) and the chances combine them
exactly (:func:`combine`)::

    P(i wins) = sum_s P(T_i = s) * E[ 1{T_j <= s for all j != i} / (1 + #{j: T_j = s}) ]

the expectation being the integral over ``t`` in [0, 1] of the product over the other
seats of ``P(T_j < s) + t * P(T_j = s)`` (the coefficient of ``t^k`` is the chance
that exactly ``k`` of them tie at ``s``, and ``1/(k+1)`` integrates ``t^k``).

When some distributions are sampled, the chances are exact functions of the
empirical distributions, and the **margin** is the half-width of their 95 %
interval by the delta method: each chance is linear in each seat's distribution, so
its variance is, to first order, the sum over the sampled distributions of the
variance of the chance given that seat's final score, divided by its number of
games (below 100 games, the largest that variance can be, 1/4).  A term ``1/n``
(``n`` the fewest games of a sampled distribution) is added for the skew of rare
outcomes, and a chance whose games all give the same answer still gets a margin of
at least ``3/n`` (the rule of three).  Checked against exact answers on sub-games:
92-98 % of the intervals cover the exact chance (``tests/test_win_chance.py``, the
README's figures).
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from yatzy.errors import YatzyError
from yatzy.game import State
from yatzy.strategy.outcomes import (
    PERSON,
    Outcome,
    Sampler,
    TablesNotReady,
    exact_outcome,
    exact_supported,
    outcome_key,
    point_mass,
    policy_for,
    sampler_for,
)

__all__ = [
    "APPROX_BUDGET",
    "PERSON",
    "Distributions",
    "SeatChance",
    "TablesNotReady",
    "WinChances",
    "approximate_chance_to_beat",
    "combine",
    "score_grid",
    "seat_distributions",
    "seat_levels",
    "tie_shares",
    "win_chances",
]

FloatArray = npt.NDArray[np.float64]

DEFAULT_BUDGET = 0.2
"""CPU seconds one update may spend (solving sub-games and simulating)."""

MAX_SAMPLES = 40_000
"""Games a position's outcome is simulated for at most (its share of the margin is then
below 0.5 %)."""

_Z95 = 1.959963984540054
_FEW = 100  # below this many games, the variance of a chance is taken at its bound, 1/4
_KEPT = 16384  # outcomes kept: a thousand live games hold about 4 each, and more pass
_OUTCOMES: OrderedDict[Hashable, Outcome] = OrderedDict()
_OUTCOMES_LOCK = threading.Lock()  # a server's background threads share the cache


@dataclass(frozen=True)
class SeatChance:
    """One seat's chance of winning and how its own distribution was found.

    ``margin`` is the half-width of the 95 % interval of ``chance`` (0 when exact);
    ``method`` is ``"finished"``, ``"table"`` (the whole game's optimal-play table),
    ``"sub-game"`` (the table of its open boxes), ``"simulated"`` or ``"simulated
    (Python)"``; ``games`` is the number of games simulated for it (0 when exact).
    """

    seat: int
    level: str
    chance: float
    margin: float
    method: str
    games: int

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready form (chance and margin rounded to 1e-4)."""
        return {
            "seat": self.seat,
            "level": self.level,
            "chance": round(self.chance, 4),
            "margin": round(self.margin, 4),
            "method": self.method,
            "games": self.games,
        }


@dataclass(frozen=True)
class WinChances:
    """Every seat's chance of finishing first (ties shared: they sum to 1).

    ``exact`` when every seat's distribution is exact (then every margin is 0);
    ``margin`` is the largest half-width of a 95 % interval; ``seconds`` the CPU time
    the computation took.
    """

    seats: tuple[SeatChance, ...]
    exact: bool
    seconds: float

    @property
    def chances(self) -> tuple[float, ...]:
        """The chances in seat order."""
        return tuple(s.chance for s in self.seats)

    @property
    def margins(self) -> tuple[float, ...]:
        """The half-widths of the 95 % intervals in seat order."""
        return tuple(s.margin for s in self.seats)

    @property
    def margin(self) -> float:
        """The largest half-width of a 95 % interval (0 when exact)."""
        return max((s.margin for s in self.seats), default=0.0)

    @property
    def method(self) -> str:
        """``"final"`` (the game is over), ``"exact"`` or ``"simulation"``."""
        if all(s.method == "final" for s in self.seats):
            return "final"
        return "exact" if self.exact else "simulation"

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {
            "exact": self.exact,
            "method": self.method,
            "margin": round(self.margin, 4),
            "seats": [s.to_json() for s in self.seats],
        }


# -- combining independent final scores ------------------------------------------------------


def score_grid(dists: Sequence[tuple[int, FloatArray]]) -> tuple[int, FloatArray]:
    """The seats' distributions of final scores on one grid: (lowest score, p[i, s])."""
    lo = min(start for start, _ in dists)
    hi = max(start + p.shape[0] for start, p in dists)
    grid = np.zeros((len(dists), hi - lo), dtype=np.float64)
    for i, (start, p) in enumerate(dists):
        grid[i, start - lo : start - lo + p.shape[0]] = p
    return lo, grid


def tie_shares(
    below: FloatArray, at: FloatArray, others: Sequence[int], power: int = 0
) -> FloatArray:
    """Per score s: the chance that a seat at s finishes first against the seats
    ``others``, a tie among k seats counted as 1/k.

    ``below[j, s]`` is P(T_j < s) and ``at[j, s]`` P(T_j = s) on one grid
    (:func:`score_grid`).  The value is the integral over t in [0, 1] of t^power times
    the product over ``others`` of ``below[j, s] + t * at[j, s]``; ``power=1`` gives
    the share when one more seat is tied at s as well."""
    size = below.shape[1]
    coef = np.zeros((len(others) + 1, size), dtype=np.float64)
    coef[0] = 1.0
    for d, j in enumerate(others, start=1):
        coef[1 : d + 1] = coef[1 : d + 1] * below[j] + coef[0:d] * at[j]
        coef[0] = coef[0] * below[j]
    weights = 1.0 / (np.arange(len(others) + 1) + 1.0 + power)
    out: FloatArray = weights @ coef
    return out


def combine(dists: Sequence[tuple[int, FloatArray]]) -> FloatArray:
    """Each seat's chance of the highest final score, ties shared.

    ``dists[i]`` is seat ``i``'s distribution of final scores: ``(lo, p)`` gives
    ``P(T_i = lo + k) = p[k]``; the seats are independent.  The chances sum to 1.
    """
    if not dists:
        raise YatzyError("no seats to combine")
    _, p = score_grid(dists)
    below = np.cumsum(p, axis=1) - p  # P(T_j < s)
    seats = range(p.shape[0])
    out = np.array(
        [float(p[i] @ tie_shares(below, p, [j for j in seats if j != i])) for i in seats],
        dtype=np.float64,
    )
    return out


def _influence(p: FloatArray, below: FloatArray, i: int, j: int) -> FloatArray:
    """P(seat i wins | T_j = x) for every score x of the grid ``p`` (see :func:`score_grid`)."""
    seats = range(p.shape[0])
    if i == j:
        return tie_shares(below, p, [k for k in seats if k != i])
    rest = [k for k in seats if k not in (i, j)]
    above = p[i] * tie_shares(below, p, rest)  # i at s with j below s
    tie = p[i] * tie_shares(below, p, rest, power=1)  # i and j tied at s
    later = np.cumsum(above[::-1])[::-1]  # later[x] = sum of above[s] for s >= x
    out: FloatArray = np.append(later[1:], 0.0) + tie
    return out


def _variance_terms(
    dists: Sequence[tuple[int, FloatArray]],
    groups: dict[int, list[int]],
    outcomes: dict[int, Outcome],
    finals: Sequence[int],
) -> list[dict[int, float]]:
    """Per seat, per sampled outcome: the variance of the seat's chance per game of that
    outcome (the delta method, see the module; 1/4 below ``_FEW`` games), so that the
    chance's variance is the sum of each term divided by its outcome's games."""
    lo, p = score_grid(dists)
    below = np.cumsum(p, axis=1) - p
    out: list[dict[int, float]] = []
    for i in range(p.shape[0]):
        terms: dict[int, float] = {}
        for key, members in groups.items():
            o = outcomes[key]
            if o.exact:
                continue
            if o.samples < _FEW:
                terms[key] = 0.25
                continue
            pmf = o.pmf()
            h = np.zeros(pmf.shape[0], dtype=np.float64)
            for j in members:
                g = _influence(p, below, i, j)
                first = finals[j] + o.lo - lo
                h += g[first : first + pmf.shape[0]]
            mean = float(pmf @ h)
            terms[key] = max(0.0, float(pmf @ (h - mean) ** 2))
        out.append(terms)
    return out


def _margin_of(terms: dict[int, float], games: dict[int, int]) -> float:
    """The half-width of a chance's 95 % interval from its variance terms
    (:func:`_variance_terms`) and each sampled outcome's number of ``games``, with the
    floors of the module docstring (``1/n``, at least ``3/n``; at most 1)."""
    var = sum(t / games[key] for key, t in terms.items())
    floor = max((1.0 / games[key] for key in terms), default=0.0)
    margin = _Z95 * math.sqrt(var) if var > 0 else 0.0
    return min(1.0, max(margin + floor, 3 * floor))  # a chance is within [0, 1]


def _margins(
    dists: Sequence[tuple[int, FloatArray]],
    groups: dict[int, list[int]],
    outcomes: dict[int, Outcome],
    finals: Sequence[int],
) -> list[float]:
    """The half-width of each chance's 95 % interval (delta method, see the module)."""
    games = {key: o.samples for key, o in outcomes.items()}
    return [_margin_of(t, games) for t in _variance_terms(dists, groups, outcomes, finals)]


def _widest(terms: list[dict[int, float]], games: dict[int, int]) -> float:
    """The widest of the seats' margins by their variance terms and outcomes' games."""
    return max((_margin_of(t, games) for t in terms), default=0.0)


def _games_needed(
    terms: list[dict[int, float]], games: dict[int, int], key: int, margin: float
) -> int | None:
    """How many more games of outcome ``key`` bring every chance's margin to
    ``margin``, by the variance terms of a look (:func:`_variance_terms`) and the other
    outcomes' games as they are; ``None`` when its games alone cannot."""
    need = 3.0 / margin  # the rule of three's floor
    for seat in terms:
        if seat.get(key, 0.0) <= 0.0:
            continue
        rest = sum(t / games[k] for k, t in seat.items() if k != key)
        floor = max((1.0 / games[k] for k in seat if k != key), default=0.0)
        room = ((margin - floor) / _Z95) ** 2 - rest
        if room <= 0:
            return None
        need = max(need, seat[key] / room)
    return max(1, math.ceil(need * 1.05) - games[key])


# -- the live chances ---------------------------------------------------------------------


def seat_levels(state: State, levels: Sequence[str | None] | None) -> list[str]:
    """Each seat's level: ``levels`` (one a seat; ``None``: a person, :data:`PERSON`),
    or, where that is None, each player's own bot level (a person's: :data:`PERSON`);
    else :class:`YatzyError`, quoting ``levels``."""
    if levels is None:
        return [p.bot or PERSON for p in state.players]
    if isinstance(levels, str) or len(levels) != len(state.players):
        raise YatzyError(
            f"levels must name one level per seat ({len(state.players)}), not {levels!r}"
        )
    return [lv or PERSON for lv in levels]


def _final_chances(state: State, levels: list[str]) -> WinChances:
    winners = state.winners()
    share = 1.0 / len(winners)
    return WinChances(
        tuple(
            SeatChance(i, levels[i], share if i in winners else 0.0, 0.0, "final", 0)
            for i in range(len(state.players))
        ),
        True,
        0.0,
    )


def _remember(key: Hashable, outcome: Outcome) -> None:
    with _OUTCOMES_LOCK:
        _OUTCOMES[key] = outcome
        _OUTCOMES.move_to_end(key)
        while len(_OUTCOMES) > _KEPT:
            _OUTCOMES.popitem(last=False)


def _known(key: Hashable) -> Outcome | None:
    with _OUTCOMES_LOCK:
        found = _OUTCOMES.get(key)
        if found is not None:
            _OUTCOMES.move_to_end(key)
        return found


def win_chances(
    state: State,
    levels: Sequence[str | None] | None = None,
    *,
    budget: float = DEFAULT_BUDGET,
    build: bool = True,
    seed: int | None = None,
    max_samples: int = MAX_SAMPLES,
    exact: bool = True,
    solve_seconds: float | None = None,
    margin: float = 0.0,
) -> WinChances:
    """Every seat's chance of finishing first from ``state`` (see the module docstring).

    ``levels`` gives each seat's level (``None`` or ``"person"``: a person, who plays
    the optimal strategy; else a bot level); by default the game's own seats.
    ``budget`` is the CPU time (seconds) this call may spend on solving sub-games and
    simulating; positions met before keep their samples, so repeated calls refine the
    answer.  Without ``build`` a table that is not in the disk cache raises
    :class:`TablesNotReady` instead of being built (a server never waits for one).
    ``seed`` makes the simulation reproducible (a fresh outcome cache, and each
    position's games in chunks of a fixed schedule rather than of the time they took).
    ``exact=False`` simulates even where a table would give the exact answer (to
    check one against the other); ``max_samples`` caps the games per position.
    ``solve_seconds`` is the most CPU time a table solved for one seat may be expected
    to take (default: half the budget left); each is solved once per sheet and kept.
    ``margin`` > 0 stops the simulation before the budget is spent once every seat's
    margin is at most that (the positions met before often give it at once: a live
    game's waiting seats keep their samples from one version to the next).
    """
    if not isinstance(state, State):
        raise YatzyError(f"expected a game State, not {state!r}")
    _check_budget(budget)
    names = seat_levels(state, levels)
    for lv in names:
        policy_for(lv, state.rules)  # an unknown level is refused even after the game
    if state.is_terminal():
        return _final_chances(state, names)
    found = seat_distributions(
        state,
        names,
        budget=budget,
        build=build,
        seed=seed,
        max_samples=max_samples,
        exact=exact,
        solve_seconds=solve_seconds,
        margin=margin,
    )
    chances = combine(found.dists)
    margins = found.margins()
    seats = len(state.players)
    return WinChances(
        tuple(
            SeatChance(
                i,
                names[i],
                float(chances[i]),
                margins[i],
                found.outcome(i).method,
                found.outcome(i).samples,
            )
            for i in range(seats)
        ),
        found.exact,
        found.seconds,
    )


def _check_budget(budget: float) -> None:
    if isinstance(budget, bool) or not isinstance(budget, (int, float)) or not budget >= 0:
        raise YatzyError(f"budget {budget!r} is not a number of seconds >= 0")


@dataclass(frozen=True)
class Distributions:
    """Every seat's distribution of final scores from one position (see
    :func:`seat_distributions`): ``dists[i] = (lowest final score, pmf)``."""

    dists: tuple[tuple[int, FloatArray], ...]
    groups: dict[int, list[int]]
    outcomes: dict[int, Outcome]
    group_of_seat: tuple[int, ...]
    finals: tuple[int, ...]
    seconds: float

    @property
    def exact(self) -> bool:
        """Whether every distribution is exact."""
        return all(o.exact for o in self.outcomes.values())

    def outcome(self, seat: int) -> Outcome:
        """The outcome (points still to come) of ``seat``."""
        return self.outcomes[self.group_of_seat[seat]]

    def margins(self) -> list[float]:
        """The half-width of each seat's win chance's 95 % interval (0 when exact)."""
        if self.exact:
            return [0.0] * len(self.dists)
        return _margins(self.dists, self.groups, self.outcomes, self.finals)


def seat_distributions(
    state: State,
    levels: Sequence[str | None] | None = None,
    *,
    budget: float = DEFAULT_BUDGET,
    build: bool = True,
    seed: int | None = None,
    max_samples: int = MAX_SAMPLES,
    exact: bool = True,
    solve_seconds: float | None = None,
    margin: float = 0.0,
) -> Distributions:
    """Every seat's distribution of final scores from ``state`` (a game not over), as
    :func:`win_chances` finds them (its arguments mean the same): exact where a table
    covers the position, else sampled within ``budget`` CPU seconds (or until every
    seat's margin is at most ``margin``, when that is > 0)."""
    if not isinstance(state, State):
        raise YatzyError(f"expected a game State, not {state!r}")
    _check_budget(budget)
    names = seat_levels(state, levels)
    policies = [policy_for(lv, state.rules) for lv in names]
    start = time.thread_time()
    rng = random.Random(seed)
    rules = state.rules
    seats = len(state.players)
    keys: list[Hashable] = [outcome_key(state, i, policies[i]) for i in range(seats)]
    group_of: dict[Hashable, int] = {}
    for k in keys:
        group_of.setdefault(k, len(group_of))
    groups: dict[int, list[int]] = {}
    for i, k in enumerate(keys):
        groups.setdefault(group_of[k], []).append(i)
    outcomes: dict[int, Outcome] = {}
    samplers: dict[int, Sampler] = {}
    for key, g in group_of.items():
        seat = groups[g][0]
        found = None if seed is not None else _known(key)
        if found is not None and (found.exact or found.samples >= max_samples):
            outcomes[g] = found
            continue
        if not state.sheets[seat].open_boxes:
            outcomes[g] = point_mass()
            continue
        if exact and exact_supported(rules, policies[seat]):
            left = max(0.0, budget - (time.thread_time() - start)) / 2
            solved = exact_outcome(state, seat, left if solve_seconds is None else solve_seconds)
            if solved is not None:
                outcomes[g] = solved
                if seed is None:
                    _remember(key, solved)
                continue
        left = max(0.0, budget - (time.thread_time() - start)) / 2
        allow = left if solve_seconds is None else solve_seconds
        samplers[g] = sampler_for(state, seat, policies[seat], build, allow)
        outcomes[g] = found or Outcome(0, np.zeros(1), 0, samplers[g].method)
    finals = tuple(s.final for s in state.sheets)

    def look() -> list[dict[int, float]]:  # the seats' variance terms now
        dists = [
            (finals[i] + outcomes[group_of[k]].lo, outcomes[group_of[k]].pmf())
            for i, k in enumerate(keys)
        ]
        return _variance_terms(dists, groups, outcomes, finals)

    _simulate(
        samplers,
        outcomes,
        budget,
        start,
        rng,
        max_samples,
        timed=seed is None,
        look=look if margin > 0 and seed is None else None,
        margin=margin,
    )
    if seed is None:
        for key, g in group_of.items():
            if g in samplers:
                _remember(key, outcomes[g])
    dists: list[tuple[int, FloatArray]] = []
    for i, k in enumerate(keys):
        o = outcomes[group_of[k]]
        dists.append((finals[i] + o.lo, o.pmf()))
    return Distributions(
        tuple(dists),
        groups,
        outcomes,
        tuple(group_of[k] for k in keys),
        finals,
        time.thread_time() - start,
    )


def _simulate(
    samplers: dict[int, Sampler],
    outcomes: dict[int, Outcome],
    budget: float,
    start: float,
    rng: random.Random,
    max_samples: int,
    timed: bool = True,
    look: Callable[[], list[dict[int, float]]] | None = None,
    margin: float = 0.0,
) -> None:
    """Add games to the sampled outcomes until the budget is spent, or every seat's
    margin is at most ``margin`` (by ``look()``, the variance terms of
    :func:`_variance_terms`, once every outcome has a game); every one gets at least one
    game.  The next games go to the outcome with the least ``n^2 * cost`` (``n`` its
    games, ``cost`` the CPU time of one): that spreads the budget so as to minimise the
    sum of the ``1/n`` (games in proportion to ``1/sqrt(cost)``), so a slow sampler
    (DubbelYatzy's greedy bot in Python) does not starve the fast ones.

    With a margin to reach, the next games go rather to the outcome that narrows the
    widest margin most for their CPU time (:func:`_most_useful`), and the terms of the
    last look predict the margin for the
    games so far (a margin shrinks with ``1/sqrt(n)``): a look is taken again only
    when they say it is reached or a term was at its bound (an outcome of fewer than
    ``_FEW`` games then; a look costs about a millisecond), and a chunk is no
    larger than the games its outcome still needs by them, a twentieth more for the
    noise (:func:`_games_needed`): one that would overshoot (chunks grow by four each
    time) is not run.

    Every outcome draws its chunks' seeds from a stream of its own.  Without ``timed``
    (a seeded call) each outcome's chunks also grow by a fixed schedule (its first
    chunk, then four times the last, the last one cut to ``max_samples``) rather than
    by the time its games took: an outcome's games then depend only on the seed and
    on how many chunks it got, never on how loaded the machine was or whether a kernel
    was compiled on the way, so one seed gives one answer as long as every outcome
    reaches ``max_samples`` within the budget (the last chunk may overrun it)."""
    chunk = {g: samplers[g].first_chunk for g in samplers}
    cost = {g: 0.0 for g in samplers}  # seconds per game, once measured
    streams = {g: random.Random(rng.getrandbits(63)) for g in sorted(samplers)}
    terms: list[dict[int, float]] | None = None  # the variance terms of the last look
    looked: dict[int, int] = {}  # each outcome's games at the last look
    while samplers:
        active = [g for g in samplers if outcomes[g].samples < max_samples]
        if not active:
            return
        g = min(active, key=lambda k: (outcomes[k].samples + 1) ** 2 * cost[k])
        left = budget - (time.thread_time() - start)
        sampled = all(outcomes[k].samples > 0 for k in samplers)
        if sampled and left <= 0:
            return
        games_of = {k: o.samples for k, o in outcomes.items()}
        if sampled and look is not None:
            stale = terms is None or any(
                looked[k] < _FEW <= n for k, n in games_of.items() if k in looked
            )  # a term at its bound of 1/4 when looked at: look again
            if terms is None or stale or _widest(terms, games_of) <= margin:
                terms, looked = look(), games_of  # predicted to be reached: see
                if _widest(terms, games_of) <= margin:
                    return
        if terms is not None and timed:
            g = _most_useful(terms, games_of, active, cost, g)
        games = chunk[g]
        if not timed:
            games = chunk[g] if outcomes[g].samples == 0 else 4 * chunk[g]
        elif cost[g] > 0 and math.isfinite(left):
            games = max(1, min(4 * chunk[g], int(left / len(active) / cost[g])))
        elif cost[g] > 0:
            games = 4 * chunk[g]
        if terms is not None and timed and outcomes[g].samples > 0:
            needed = _games_needed(terms, games_of, g, margin)
            if needed is not None:
                games = min(games, needed)
        games = min(games, max_samples - outcomes[g].samples)
        t0 = time.thread_time()
        points = samplers[g].sample(games, streams[g].getrandbits(31))
        spent = time.thread_time() - t0
        cost[g] = max(spent / games, 1e-7)
        chunk[g] = max(games, samplers[g].first_chunk)
        outcomes[g] = outcomes[g].merged(points)


def _most_useful(
    terms: list[dict[int, float]],
    games: dict[int, int],
    active: list[int],
    cost: dict[int, float],
    otherwise: int,
) -> int:
    """The outcome whose games narrow the widest margin most for their CPU time, by
    the variance terms of a look: a game of outcome ``k`` takes about
    ``term / n^2`` from the widest chance's variance at ``cost[k]``; ``otherwise``
    when none of them moves it."""
    widest = max(terms, key=lambda t: _margin_of(t, games))
    best, gain = otherwise, 0.0
    for k in active:
        worth = widest.get(k, 0.0) / (games[k] ** 2 * max(cost[k], 1e-9))
        if worth > gain:
            best, gain = k, worth
    return best


APPROX_BUDGET = 0.05
"""CPU seconds of :func:`approximate_chance_to_beat` per position (at most)."""


def approximate_chance_to_beat(
    state: State, record: int | None, seat: int = 0, *, budget: float = APPROX_BUDGET
) -> float | None:
    """An approximate live chance that ``seat`` beats ``record`` (a solo game), for
    while the target table that :func:`yatzy.strategy.target_play.chance_to_beat`
    reads is not built: the chance with the best-points strategy from ``state`` on
    (exact where its table covers the rest of the game within ``budget`` CPU seconds,
    else simulated for them).  Target play
    aims at the record, so the exact figure is this one or a little more.

    ``None`` where there is nothing to say: no record, the game is over or not
    started, or the best-points strategy's own tables are not built either (never
    built here: the caller never waits for a build)."""
    if record is None or state.is_terminal() or state.starter is None:
        return None
    try:
        found = seat_distributions(state, [None] * len(state.players), budget=budget, build=False)
    except (TablesNotReady, YatzyError):
        return None
    lo, pmf = found.dists[seat]
    beats = sum(float(p) for k, p in enumerate(pmf) if lo + k > record)
    return min(1.0, max(0.0, beats))
