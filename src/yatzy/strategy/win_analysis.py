"""Game analysis in win probability: every decision's change in the chance of winning.

:func:`analyze_wins` replays a finished game (any number of seats; people play the
optimal strategy, bots as their level, as in :mod:`yatzy.strategy.win_chance`) and
gives

- the **chart**: every seat's chance of winning before each turn of the game and at
  its end (:class:`WinPoint`; the last point is the result, ties shared);
- per **decision** (each keep before a further roll, and the box written) the
  chance of the deciding player before it, after the option chosen, and after the
  best option (the one with the highest chance, the player going on with its own
  strategy), and the **cost in win chance**: best minus chosen, never below 0 (0
  when the choice was the best), beside the expected points the choice cost
  (:mod:`yatzy.strategy.analyze`).

A solo game has nobody to beat: given the player's record, the chance is that of
beating it (a final score above the record) instead.

**Exact or simulated.**  Every seat's distribution of final scores comes from
:func:`yatzy.strategy.win_chance.seat_distributions`: exact from the optimal-play
target table (yatzy and yahtzee; the whole game's when it is in the disk cache,
else the sub-game of the open boxes when it solves within the budget), otherwise
simulated with a 95 % margin.  For the options of a decision the same table gives
every option's distribution at once, exactly (all options are compared).  Without
a table the chosen option and the :data:`CANDIDATES` options of the highest
expected score are simulated from their positions, and the best of those counts as
the best; a simulated difference within its 95 % margin counts as none (else the
noise of the best of several estimates would read as a cost), and the margins are
reported.  Nothing here builds a whole-game table: each position gets ``budget`` CPU
seconds (a quarter for the position itself, the rest shared by the options).
"""

from __future__ import annotations

import hashlib
import json
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from yatzy.errors import YatzyError
from yatzy.game import Action, State
from yatzy.rules import Language
from yatzy.strategy.analyze import (
    Analysis,
    Decision,
    analyze,
    describer,
    replay_decisions,
    tally,
)
from yatzy.strategy.outcomes import (
    Outcome,
    TablesNotReady,
    exact_supported,
    optimal_table,
    point_mass,
    policy_for,
    sampler_for,
)
from yatzy.strategy.win_chance import (
    DEFAULT_BUDGET,
    Distributions,
    seat_distributions,
    seat_levels,
)

__all__ = [
    "CANDIDATES",
    "COSTLY",
    "Goal",
    "WinAnalysis",
    "WinDecision",
    "WinPoint",
    "WinSummary",
    "analyze_wins",
    "summarize_players",
]

FloatArray = npt.NDArray[np.float64]
Goal = Literal["win", "record"]

CANDIDATES = 4
"""Options of the highest expected score simulated beside the chosen one where no table
gives every option's chance exactly."""

COSTLY = 0.005
"""A decision that cost more than this chance (half a percentage point) is listed."""

_Z95 = 1.959963984540054
_SAMPLES = 20_000  # games per simulated option at most


@dataclass(frozen=True)
class WinPoint:
    """The chart's point after ``turn`` turns of the game (0: before the first):
    every seat's chance (of winning, or of beating the record), exact or within
    ``margin`` (95 %)."""

    turn: int
    chances: tuple[float, ...]
    margin: float
    exact: bool

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready form (chances rounded to 1e-4)."""
        return {
            "turn": self.turn,
            "chances": [round(c, 4) for c in self.chances],
            "margin": round(self.margin, 4),
            "exact": self.exact,
        }


@dataclass(frozen=True)
class WinDecision:
    """One decision's effect on the deciding player's chance.

    ``before`` is the chance in the position (the player's own strategy choosing),
    ``after`` after the option chosen, ``best_chance`` after the best option;
    ``cost = best_chance - after`` (0 when the choice was the best).  ``margin`` is
    the half-width of the 95 % interval of the chances (0 when exact); ``options``
    how many options were compared.  ``points`` is the expected points the choice
    cost (:class:`yatzy.strategy.analyze.Decision`).
    """

    decision: Decision
    before: float
    after: float
    best_chance: float
    best: str
    margin: float
    exact: bool
    options: int

    @property
    def cost(self) -> float:
        """The chance given up against the best option (0 to 1)."""
        return max(0.0, self.best_chance - self.after)

    @property
    def player(self) -> int:
        """The deciding seat."""
        return self.decision.player

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready form: the points decision's fields and the chances."""
        return self.decision.to_json() | {
            "points": round(self.decision.loss, 4),
            "before": round(self.before, 4),
            "after": round(self.after, 4),
            "best_chance": round(self.best_chance, 4),
            "best_for_chance": self.best,
            "cost": round(self.cost, 4),
            "margin": round(self.margin, 4),
            "exact": self.exact,
            "options": self.options,
        }


@dataclass
class WinSummary:
    """One player's decisions summed up in chance: the total cost, how many cost more
    than :data:`COSTLY`, and the costliest three."""

    player: int
    name: str
    level: str
    final: int
    decisions: int = 0
    total_cost: float = 0.0
    costly: int = 0
    worst: list[WinDecision] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {
            "player": self.player,
            "name": self.name,
            "level": self.level,
            "final": self.final,
            "decisions": self.decisions,
            "total_cost": round(self.total_cost, 4),
            "costly": self.costly,
            "worst": [w.to_json() for w in self.worst],
        }


@dataclass(frozen=True)
class WinAnalysis:
    """A game's analysis in win chance (see the module docstring).

    ``goal`` is ``"win"`` or ``"record"`` (solo: beating ``record``); ``points`` the
    chart; ``exact`` whether every chance is exact; ``margin`` the largest 95 %
    half-width; ``seconds`` the CPU time it took and ``wall`` the wall-clock time;
    ``budget`` the CPU seconds each position was allowed; ``estimated``: an
    estimate from the analysis in points (:mod:`yatzy.strategy.win_estimate`), given
    while the exact analysis is not done.
    """

    rules: str
    goal: Goal
    record: int | None
    levels: tuple[str, ...]
    points: tuple[WinPoint, ...]
    decisions: tuple[WinDecision, ...]
    players: tuple[WinSummary, ...]
    points_analysis: Analysis
    exact: bool
    margin: float
    seconds: float
    wall: float
    budget: float
    estimated: bool = False

    @property
    def simulated(self) -> int:
        """How many chart points and decisions have simulated (not exact) chances."""
        return sum(not p.exact for p in self.points) + sum(not d.exact for d in self.decisions)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {
            "rules": self.rules,
            "goal": self.goal,
            "record": self.record,
            "levels": list(self.levels),
            "exact": self.exact,
            "margin": round(self.margin, 4),
            "simulated": self.simulated,
            "seconds": round(self.seconds, 3),
            "wall": round(self.wall, 3),
            "budget": self.budget,
            "estimated": self.estimated,
            "chart": [p.to_json() for p in self.points],
            "players": [p.to_json() for p in self.players],
            "decisions": [d.to_json() for d in self.decisions],
        }


# -- the chance of one seat given the others -----------------------------------------------


class _Judge:
    """``P(seat wins | its final score is s)`` given the other seats' distributions
    (ties shared), or for a solo game ``1{s > record}``; evaluates a distribution of
    the seat's final score."""

    def __init__(self, found: Distributions, seat: int, record: int | None) -> None:
        from yatzy.strategy.win_chance import score_grid, tie_shares

        self.record = record
        others = [d for i, d in enumerate(found.dists) if i != seat]
        if record is not None or not others:
            self.lo, self.given = 0, np.zeros(0)
            return
        lo, p = score_grid(others)
        below = np.cumsum(p, axis=1) - p
        self.lo = lo
        self.given = tie_shares(below, p, list(range(len(others))))

    def at(self, scores: npt.NDArray[np.int64]) -> FloatArray:
        """The chance of winning with each final score in ``scores``."""
        if self.record is not None:
            out: FloatArray = (scores > self.record).astype(np.float64)
            return out
        if self.given.shape[0] == 0:
            return np.ones(scores.shape[0], dtype=np.float64)
        idx = scores - self.lo
        inside = np.clip(idx, 0, self.given.shape[0] - 1)
        res: FloatArray = np.where(
            idx < 0, 0.0, np.where(idx >= self.given.shape[0], 1.0, self.given[inside])
        )
        return res

    def chance(self, lo: int, pmf: FloatArray) -> float:
        """The chance of winning with final score ``lo + k`` of probability ``pmf[k]``."""
        return float(pmf @ self.at(np.arange(lo, lo + pmf.shape[0], dtype=np.int64)))

    def margin(self, lo: int, outcome: Outcome) -> float:
        """The 95 % half-width of :meth:`chance` from the outcome's sampling alone."""
        if outcome.exact:
            return 0.0
        n = outcome.samples
        pmf = outcome.pmf()
        h = self.at(np.arange(lo, lo + pmf.shape[0], dtype=np.int64))
        mean = float(pmf @ h)
        var = max(0.0, float(pmf @ (h - mean) ** 2)) / n if n >= 100 else 0.25 / n
        m = _Z95 * math.sqrt(var) + 1.0 / n
        return min(1.0, max(m, 3.0 / n))


def _survival_pmf(vec: FloatArray) -> FloatArray:
    """``P(points >= k)`` to ``P(points == k)``."""
    pmf = np.clip(vec - np.append(vec[1:], 0.0), 0.0, None)
    out: FloatArray = pmf / pmf.sum()
    return out


def _chances(found: Distributions, record: int | None) -> tuple[float, ...]:
    if record is None:
        from yatzy.strategy.win_chance import combine

        return tuple(float(c) for c in combine(list(found.dists)))
    return tuple(
        float(pmf @ (np.arange(lo, lo + pmf.shape[0]) > record)) for lo, pmf in found.dists
    )


def final_point(state: State, turn: int, record: int | None) -> WinPoint:
    """The chart's last point: the result (1 for the winner, ties shared; solo: 1 if
    the record was beaten), exact."""
    if record is not None:
        return WinPoint(turn, (float(state.sheets[0].final > record),), 0.0, True)
    winners = state.winners()
    share = 1.0 / len(winners)
    chances = tuple(share if i in winners else 0.0 for i in range(len(state.players)))
    return WinPoint(turn, chances, 0.0, True)


def _margin(found: Distributions, seat: int | None, record: int | None) -> float:
    """The 95 % half-width of a chance (the largest seat's, or ``seat``'s)."""
    if found.exact:
        return 0.0
    if record is None:
        margins = found.margins()
        return max(margins) if seat is None else margins[seat]
    judge = _Judge(found, 0, record)
    return judge.margin(found.dists[0][0], found.outcome(0))


# -- one decision ----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Setting:
    levels: list[str]
    record: int | None
    budget: float
    text: Callable[[State, Action], str]


def _sampled_outcome(after: State, seat: int, level: str, budget: float, seed: int) -> Outcome:
    """The seat's points still to come from ``after`` under its level: exact where a
    table is at hand within the budget, else simulated for ``budget`` CPU seconds."""
    if not after.sheets[seat].open_boxes:
        return point_mass()
    policy = policy_for(level, after.rules)
    start = time.thread_time()
    if exact_supported(after.rules, policy):
        from yatzy.strategy.outcomes import exact_outcome

        solved = exact_outcome(after, seat, budget / 2)
        if solved is not None:
            return solved
    sampler = sampler_for(after, seat, policy, False, budget / 2)
    outcome = Outcome(0, np.zeros(1), 0, sampler.method)
    games = sampler.first_chunk
    rounds = 0
    while outcome.samples < _SAMPLES:
        t0 = time.thread_time()
        outcome = outcome.merged(sampler.sample(games, seed + rounds))
        rounds += 1
        spent = max(time.thread_time() - t0, 1e-7)
        left = budget - (time.thread_time() - start)
        if left <= 0:
            break
        games = int(max(1, min(4 * games, left / (spent / games), _SAMPLES - outcome.samples)))
    return outcome


@dataclass(frozen=True)
class _Rated:
    """A decision's chances, without words (what the memo keeps: the same in every
    language)."""

    before: float
    after: float
    best_chance: float
    best_action: Action
    margin: float
    exact: bool
    options: int


def _decide(
    replay: State, action: Action, points: Decision, setting: _Setting, index: int
) -> WinDecision:
    """Rate the decision ``action`` of the player to act in ``replay``."""
    rated = _rate(replay, action, setting, index)
    return _worded(replay, rated, points, setting)


def _worded(replay: State, rated: _Rated, points: Decision, setting: _Setting) -> WinDecision:
    return WinDecision(
        decision=points,
        before=rated.before,
        after=rated.after,
        best_chance=rated.best_chance,
        best=setting.text(replay, rated.best_action),
        margin=rated.margin,
        exact=rated.exact,
        options=rated.options,
    )


def _rate(replay: State, action: Action, setting: _Setting, index: int) -> _Rated:
    """The chances of the decision ``action`` of the player to act in ``replay``."""
    from yatzy.strategy.advisor import advise, same_effect

    seat = replay.player
    level = setting.levels[seat]
    found = seat_distributions(replay, setting.levels, budget=setting.budget / 4, build=False)
    judge = _Judge(found, seat, setting.record)
    before = judge.chance(*found.dists[seat])
    base = replay.sheets[seat].final
    others_margin = 0.0 if setting.record is not None else _margin(found, seat, None)
    policy = policy_for(level, replay.rules)
    table = None
    if exact_supported(replay.rules, policy):
        table = optimal_table(
            replay.rules, replay.sheets[seat].open_boxes, max(0.0, setting.budget / 4)
        )
    if table is not None:
        rated = [(a, judge.chance(base, _survival_pmf(vec))) for a, vec in table[0].options(replay)]
        margin = others_margin
        exact = found.exact
    else:
        advice = advise(replay)
        candidates: list[Action] = [action]
        for option in advice.options:
            if len(candidates) > CANDIDATES:
                break
            if not same_effect(replay, option.action, action):
                candidates.append(option.action)
        share = 3 * setting.budget / 4 / len(candidates)
        rated, own = [], []
        for a in candidates:
            after = replay.clone()
            after.apply(a)
            out = _sampled_outcome(after, seat, level, share, 7919 * index + 1)
            lo = after.sheets[seat].final + out.lo
            rated.append((a, judge.chance(lo, out.pmf())))
            own.append(judge.margin(lo, out))
        margin = max(math.sqrt(m**2 + others_margin**2) for m in own)
        exact = found.exact and max(own) == 0.0
        # A simulated difference within its 95 % margin counts as none: the other
        # seats' distributions are the same for every option, only the option's own
        # sampling separates them.
        top = max(range(len(rated)), key=lambda k: rated[k][1])
        if rated[top][1] - rated[0][1] <= math.sqrt(own[top] ** 2 + own[0] ** 2):
            rated[top] = (rated[top][0], rated[0][1])
    chosen = next((c for a, c in rated if same_effect(replay, a, action)), None)
    if chosen is None:  # an option the table does not list
        after = replay.clone()
        after.apply(action)
        out = _sampled_outcome(after, seat, level, setting.budget / 4, 7919 * index)
        chosen = judge.chance(after.sheets[seat].final + out.lo, out.pmf())
        rated.append((action, chosen))
    best_action, best_chance = max(rated, key=lambda r: r[1])
    if best_chance - chosen <= 1e-9:
        best_action, best_chance = action, chosen
    return _Rated(before, chosen, best_chance, best_action, margin, exact, len(rated))


# -- what was analysed once is not analysed again ------------------------------------------

MEMO_KEPT = 20_000
"""Chart points and rated decisions kept in this process (a few hundred bytes each): a
game analysed turn by turn while it is played (:func:`analyze_wins` on the game so far)
leaves only its last turn to analyse when it ends."""

_memo: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
_memo_lock = threading.Lock()
_computing: dict[tuple[Any, ...], Future[Any]] = {}
"""The keys being computed now, each with the future its answer goes to: a second
thread asking for one of them waits for that answer instead of computing it again."""


def _remembered(
    key: tuple[Any, ...], compute: Callable[[], Any], into: list[Any] | None = None
) -> Any:
    """The value of ``key`` (computed by ``compute`` the first time), appended to ``into``
    where given.  A thread asking for a key that another thread is computing waits for
    that answer (the analysis at a game's end takes over the background analysis's
    positions under way, issue 24, rather than compute the same positions beside it);
    where that computation fails, the asking thread computes the key itself."""
    while True:
        with _memo_lock:
            found = _memo.get(key)
            if found is not None:
                _memo.move_to_end(key)
                break
            other = _computing.get(key)
            if other is None:
                mine: Future[Any] = Future()
                _computing[key] = mine
        if other is None:
            found = _computed(key, compute, mine)
            break
        try:
            found = other.result()
            break
        except Exception:  # its computation failed (or stopped): try it here
            continue
    if into is not None:
        into.append(found)
    return found


def _computed(key: tuple[Any, ...], compute: Callable[[], Any], mine: Future[Any]) -> Any:
    """``compute()``, remembered under ``key`` and handed to the threads waiting on
    ``mine`` (its failure too, after which they try themselves)."""
    try:
        found = compute()
    except BaseException as exc:
        with _memo_lock:
            _computing.pop(key, None)
        mine.set_exception(exc)
        raise
    with _memo_lock:
        _memo[key] = found
        while len(_memo) > MEMO_KEPT:
            _memo.popitem(last=False)
        _computing.pop(key, None)
    mine.set_result(found)
    return found


def positions_to_rate(
    state: State, record: int | None, levels: Sequence[str], budget: float
) -> Iterator[tuple[tuple[Any, ...], Callable[[], Any]]]:
    """Every position :func:`analyze_wins` rates for the game that led to ``state``
    (from a new game), in order: ``(key, compute)``, ``compute()`` valid only until the
    next is drawn.  For :mod:`yatzy.strategy.win_spread`, which computes them in other
    processes and hands the values back through :func:`remember_rated`."""
    replay = state.game.new_initial_state(starter=state.starter)
    setting = _Setting(list(levels), record, float(budget), describer(None))
    for _turn, key, compute in _walk(state, replay, None, setting):
        yield key, compute


def remember_rated(key: tuple[Any, ...], value: Any) -> None:
    """Keep ``value`` as the rating of the position ``key`` (of
    :func:`positions_to_rate`), as if it had been computed here."""
    with _memo_lock:
        _memo[key] = value
        while len(_memo) > MEMO_KEPT:
            _memo.popitem(last=False)


def is_rated(key: tuple[Any, ...]) -> bool:
    """Whether the position ``key`` is rated in this process's memo."""
    with _memo_lock:
        return key in _memo


def forget_analysed() -> None:
    """Empty the memo of analysed positions (tests, benchmarks)."""
    with _memo_lock:
        _memo.clear()


def _position(state: State) -> list[Any]:
    """A starting position as plain data: its turns, and every sheet's boxes (a
    sub-game's sheets may be filled without turns)."""
    sheets = [[[box, repr(entry)] for box, entry in sh.entries.items()] for sh in state.sheets]
    return [state.log, sheets, state.turn_number, state.starter]


def _prefix_keys(
    state: State,
    start: State | None,
    record: int | None,
    names: list[str],
    budget: float,
    turns: list[dict[str, Any]],
) -> list[str]:
    """``keys[k]``: what a position after the first ``k`` turns of ``turns`` depends on
    (the rules, the seats' levels, the record, the budget, the starting position and
    those turns), as a digest chained turn by turn."""
    head = [
        state.rules.spec,
        len(state.players),
        names,
        state.starter,
        record,
        budget,
        None if start is None else _position(start),
    ]
    digest = hashlib.sha256(json.dumps(head, sort_keys=True).encode())
    keys = [digest.hexdigest()]
    for turn in turns:
        digest.update(json.dumps(turn, sort_keys=True).encode())
        keys.append(digest.copy().hexdigest())
    return keys


# -- the game ----------------------------------------------------------------------------


def analyze_wins(
    state: State,
    *,
    record: int | None = None,
    levels: Sequence[str | None] | None = None,
    budget: float = DEFAULT_BUDGET,
    lang: Language | None = None,
    start: State | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> WinAnalysis:
    """Analyse the game that led to ``state`` in win chance (see the module docstring).

    ``record``: a solo game's record (the chance is that of beating it; required for
    a solo game, refused for more seats).  ``levels``: each seat's level (default:
    the game's own, people ``"person"``).  ``budget``: CPU seconds per position.
    ``lang`` words the choices (as :func:`yatzy.strategy.analyze.analyze`).
    ``start``: the position the record's turns start from (default: a new game; the
    tests start from sub-games).  ``progress(done, total)`` is called per turn.
    """
    if not isinstance(state, State):
        raise YatzyError(f"expected a game State, not {state!r}")
    if isinstance(budget, bool) or not isinstance(budget, (int, float)) or not budget > 0:
        raise YatzyError(f"budget {budget!r} is not a number of seconds > 0")
    if state.starter is None:
        raise YatzyError("the game has not started: the roll-off is not decided")
    if state.game.pad:
        raise YatzyError("a score pad game has no rolls to rate in win chance")
    seats = len(state.players)
    if seats == 1 and record is None:
        raise YatzyError("a solo game is rated by the chance of beating a record: give one")
    if record is not None and (
        seats != 1 or isinstance(record, bool) or not isinstance(record, int) or record < 0
    ):
        raise YatzyError(f"record {record!r}: a solo game's record, a whole number >= 0")
    names = seat_levels(state, levels)
    for lv in names:
        policy_for(lv, state.rules)
    try:
        return _analyze(state, record, names, float(budget), lang, start, progress)
    except TablesNotReady as exc:  # a table that only a long build would give
        raise YatzyError(f"the chances need a table that is not built yet: {exc}") from exc


def summarize_players(
    state: State, levels: Sequence[str], decisions: Sequence[WinDecision]
) -> list[WinSummary]:
    """Each seat's summary of the rated ``decisions`` of the finished game ``state``:
    how many, their cost in chance, how many were costly, and the three costliest.
    ``levels[i]`` is seat ``i``'s level name.  Shared by the exact analysis and the
    estimate (:mod:`yatzy.strategy.win_estimate`)."""
    players = [
        WinSummary(i, p.name, levels[i], state.sheets[i].final) for i, p in enumerate(state.players)
    ]
    for s, t in zip(players, tally(decisions, len(players), _cost, COSTLY), strict=True):
        s.decisions, s.total_cost, s.costly, s.worst = t.count, t.total, t.over, t.worst
    return players


def _cost(decision: WinDecision) -> float:
    return decision.cost


def _walk(
    state: State, replay: State, start: State | None, setting: _Setting
) -> Iterator[tuple[int | None, tuple[Any, ...], Callable[[], Any]]]:
    """Every position the win analysis rates, in the game's order, with ``replay`` at
    it when yielded: ``(turn, key, compute)``, where ``key`` is what the memo keeps its
    value under (``("point", …)`` at the start of each turn and at the end, ``("decide",
    …, index)`` at each decision), ``compute()`` its value there, and ``turn`` the
    turn's number from the start (``None`` for a decision and the end)."""
    first_turn = len(replay.log)
    turns = state.log[first_turn:]
    record, names, budget = setting.record, setting.levels, setting.budget

    def point(turn: int) -> WinPoint:
        if replay.is_terminal():
            return final_point(replay, turn, record)
        found = seat_distributions(replay, names, budget=budget, build=False)
        return WinPoint(turn, _chances(found, record), _margin(found, None, record), found.exact)

    chain = _prefix_keys(state, start, record, names, budget, turns)
    index = 0
    for n, _seat, action in replay_decisions(state, replay):
        if action is None:
            yield n - 1 - first_turn, ("point", chain[n - 1 - first_turn]), partial(point, n - 1)
        else:
            key = ("decide", chain[n - first_turn], index)
            yield None, key, partial(_rate, replay, action, setting, index)
            index += 1
    yield None, ("point", chain[len(replay.log) - first_turn]), partial(point, len(replay.log))


def _analyze(
    state: State,
    record: int | None,
    names: list[str],
    budget: float,
    lang: Language | None,
    start: State | None,
    progress: Callable[[int, int], None] | None,
) -> WinAnalysis:
    wall0, cpu0 = time.perf_counter(), time.thread_time()
    replay = (start or state.game.new_initial_state(starter=state.starter)).clone()
    points_analysis = analyze(state, lang, start=start)
    setting = _Setting(names, record, float(budget), describer(lang))
    chart: list[WinPoint] = []
    decisions: list[WinDecision] = []
    queue = list(points_analysis.decisions)
    turns = len(state.log) - len(replay.log)
    for turn, key, compute in _walk(state, replay, start, setting):
        if key[0] == "point":
            if progress is not None and turn is not None:
                progress(turn, turns)
            _remembered(key, compute, chart)
        else:
            rated = _remembered(key, compute)
            decisions.append(_worded(replay, rated, queue.pop(0), setting))
    players = summarize_players(state, names, decisions)
    margin = max([p.margin for p in chart] + [d.margin for d in decisions], default=0.0)
    exact = all(p.exact for p in chart) and all(d.exact for d in decisions)
    return WinAnalysis(
        rules=state.rules.spec,
        goal="record" if record is not None else "win",
        record=record,
        levels=tuple(names),
        points=tuple(chart),
        decisions=tuple(decisions),
        players=tuple(players),
        points_analysis=points_analysis,
        exact=exact,
        margin=margin,
        seconds=time.thread_time() - cpu0,
        wall=time.perf_counter() - wall0,
        budget=float(budget),
    )
