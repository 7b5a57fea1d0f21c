"""Hints and post-game analysis from the strategy package, when it is installed.

The strategy package (:mod:`yatzy.strategy`) ranks every option of a position by
expected final score (``advisor.advise``: the exact solver where it covers the
rules, an approximate strategy elsewhere) and rates every decision of a finished
game (``analyze.analyze``).  This module detects it at run time, warms each rule
set's strategy once in a background thread (solving a table takes seconds, then it
comes from the disk cache), and answers ``{"pending": true}`` until it is ready, so
no request waits for a solve.  Both answers are in words in the game's language
(:mod:`yatzy.strategy.advice_words`; the analysis laid out per person by
:mod:`yatzy.web.analysis_view`), never action JSON or box ids.
"""

from __future__ import annotations

import importlib
import logging
import threading
from collections import OrderedDict
from types import ModuleType
from typing import Any, cast

from yatzy.errors import RecordError, YatzyError
from yatzy.game import Fill2, Roll, Score, Scratch, State, from_record, to_record
from yatzy.rules import Language, RuleSet
from yatzy.strategy import advice_words as words
from yatzy.web.jobs import Busy, JobQueue, Jobs, JobSpec, active_queue, register
from yatzy.web.models import (
    AnalysisView,
    HintOption,
    HintView,
    PendingView,
    WinAnalysisView,
    WinUnavailableView,
)
from yatzy.web.prepare import (
    busy_words,
    hint_preparing_words,
    not_prepared_words,
    strategy_status,
)
from yatzy.web.warm_children import still_warming
from yatzy.web.win_jobs import WinAnalyses

log = logging.getLogger("yatzy.web")

_lock = threading.Lock()


def _module(name: str, attribute: str) -> ModuleType | None:
    try:
        module = importlib.import_module(name)
    except ImportError:
        return None
    return module if callable(getattr(module, attribute, None)) else None


def _advisor() -> ModuleType | None:
    return _module("yatzy.strategy.advisor", "advise")


def advisor_available() -> bool:
    """Whether the strategy advisor can give hints in this installation."""
    return _advisor() is not None


def hints_unsupported(rules: RuleSet, pad: bool = False) -> str | None:
    """Why no hints can be given for ``rules`` (``None``: they can)."""
    if pad:
        return "a score pad game has no dice on the server to advise on"
    if _advisor() is None:
        return "hints need the strategy advisor (yatzy.strategy), which is not installed"
    return None


def prepare(rules: RuleSet) -> None:
    """Start preparing the strategy of ``rules`` (a job of
    :data:`yatzy.web.prepare.TABLE_JOBS`) unless that is done, under way, or not
    allowed on this server."""
    strategy_status(rules)


def _status(rules: RuleSet) -> dict[str, Any] | None:
    """``None`` when the strategy is ready, else the answer to give meanwhile (see
    :func:`yatzy.web.prepare.strategy_status`)."""
    return strategy_status(rules)


def _option(state: State, option: Any, lang: Language) -> HintOption:
    action = option.action
    keep = list(action.keep) if isinstance(action, Roll) else None
    box = action.box if isinstance(action, (Score, Scratch)) else None
    inner = action.inner.box if isinstance(action, Fill2) else None
    outer = action.outer.box if isinstance(action, Fill2) else None
    return {
        "text": words.describe(state, action, lang),
        "loss": round(float(option.loss), 2),
        "value": round(float(option.value), 1),
        "keep": keep,
        "box": box,
        "inner": inner,
        "outer": outer,
    }


PENDING: PendingView = {"pending": True}
PREPARING: PendingView = {"pending": True, "preparing": True}
"""Pending while the tables and kernels are prepared first (the page says so)."""
"""The answer while the strategy or the analysis is being prepared."""

HINT_OPTIONS = 4
"""How many options a hint shows: the best and the next ones by points lost."""


def hint(state: State, lang: Language = "en") -> HintView | None:
    """The best options for the player to act, in plain words in ``lang``.

    ``{"pending", "approximate", "note", "options"}``: each option has its words
    (dice by face, boxes by name), the expected points lost against the best and
    the expected final score, the die positions it keeps (``keep``) or the box(es)
    it fills (``box``; DubbelYatzy ``inner`` and ``outer``).  ``None`` when there is
    no decision: chance, game over, or no advisor.
    """
    advisor = _advisor()
    if advisor is None or state.is_terminal() or state.is_chance_node():
        return None
    waiting = _status(state.rules)
    none: HintView = {"pending": False, "approximate": False, "note": None, "options": []}
    if waiting is not None:
        if waiting.get("not_prepared"):
            return none | {"note": not_prepared_words(lang)}
        if "unavailable" in waiting:
            return none | {"note": words.word("unavailable", lang)}
        if "busy" in waiting:
            return none | {"note": busy_words(lang)}
        # more than a second for the largest tables: said in words (issue 24)
        return none | {"pending": True, "note": hint_preparing_words(lang)}
    try:
        advice = advisor.advise(state)
    except YatzyError as exc:
        log.warning("no hint for %s: %s", state.rules.spec, exc)
        return none | {"note": words.word("unavailable", lang)}
    approximate = not advice.exact
    return {
        "pending": False,
        "approximate": approximate,
        "note": words.approximate_note(state.rules, lang) if approximate else None,
        "options": [_option(state, o, lang) for o in advice.options[:HINT_OPTIONS]],
    }


def record_hint(state: State, target_total: int, lang: Language = "en") -> HintView | None:
    """Solo: the best options for reaching ``target_total`` (the record plus one).

    As :func:`hint`, with ``"aim": "record"`` and ``target``; each option's ``value``
    is the chance of reaching the target in percent and ``loss`` the percentage
    points given up.  ``None`` when there is no decision or the target table of the
    rules is not at hand (see :func:`yatzy.strategy.target_play.target_table_for`).
    """
    advisor = _advisor()
    if advisor is None or state.is_terminal() or state.is_chance_node():
        return None
    from yatzy.strategy.target_play import target_table_for

    if target_table_for(state.rules, build=False) is None:
        return None
    try:
        advice = advisor.advise_target(state, target_total)
    except YatzyError as exc:
        log.warning("no record hint for %s: %s", state.rules.spec, exc)
        return None
    options = []
    for o in advice.options[:HINT_OPTIONS]:
        option = _option(state, o, lang)
        option["value"] = _percent(float(o.value))
        option["loss"] = round(float(o.loss) * 100, 1)
        options.append(option)
    return {
        "pending": False,
        "approximate": False,
        "note": None,
        "aim": "record",
        "target": target_total,
        "options": options,
    }


def _percent(p: float) -> float:
    """A chance in percent to a tenth, never rounded to a certainty (or 0) it is not."""
    value = round(p * 100, 1)
    if p < 1:
        value = min(value, 99.9)
    if p > 0:
        value = max(value, 0.1)
    return value


_ANALYSES: OrderedDict[tuple[str, str], AnalysisView] = OrderedDict()
_KEPT_ANALYSES = 64


def analysis(
    state: State, lang: Language = "en", *, people: set[int] | None = None, key: str = ""
) -> AnalysisView | PendingView:
    """The game's decisions against the best ones, per person, in ``lang``.

    ``people`` are the seats to report (default: all).  ``{"pending": true}``
    while the strategy is being prepared, and (with a ``key``) while the analysis is
    computed as a job.  A score pad game gets what its data
    allows (see :mod:`yatzy.web.analysis_view`), with the reason in words.
    ``key`` names the game's stored version, to cache the answer under.
    """
    from yatzy.web.analysis_view import analysis_view, unrated

    seats = set(range(len(state.players))) if people is None else people
    cache_key = (key, lang)
    with _lock:
        cached = _ANALYSES.get(cache_key) if key else None
    if cached is not None:
        return cached
    analyze = _module("yatzy.strategy.analyze", "analyze")
    if analyze is None:
        raise YatzyError("no analysis: the strategy package is not installed")
    why_not = unrated(state, lang)
    if why_not is not None:
        return why_not
    if not state.log:
        # Known without the strategy: the same answer whether it is ready or not (a
        # game without turns got {"pending": true} while the strategy was being
        # prepared and 422 once this process had it).
        raise RecordError("the game has no turns to analyse yet", field="turns")
    waiting = _status(state.rules)
    if waiting is not None:
        if waiting.get("not_prepared"):
            raise YatzyError(not_prepared_words(lang))
        if "unavailable" in waiting:
            raise YatzyError(f"no analysis for {state.rules.spec}: {waiting['unavailable']}")
        if "busy" in waiting:
            raise Busy(busy_words(lang))
        return PREPARING
    if key:  # a job: of `yatzy worker` processes, or of this process's bounded pool
        return _analysis_by_worker(
            active_queue("analyses") or ANALYSIS_JOBS, state, lang, seats, key
        )
    result = analysis_view(analyze.analyze(state, lang), state, lang, seats)
    if key:
        with _lock:
            _ANALYSES[cache_key] = result
            while len(_ANALYSES) > _KEPT_ANALYSES:
                _ANALYSES.popitem(last=False)
    return result


ANALYSIS_JOBS = Jobs(workers=1, queue_limit=32, per_client=4, name="analysis")
"""The analyses in points of a server without workers (SQLite, ``yatzy serve`` alone):
one at a time on a thread of this pool, never in a request (the view says "being
computed" meanwhile, as the win analysis does)."""


def _analysis_by_worker(
    queue: JobQueue, state: State, lang: Language, seats: set[int], key: str
) -> AnalysisView | PendingView:
    """:func:`analysis` as a job on ``queue`` (``yatzy worker`` processes, or
    :data:`ANALYSIS_JOBS`): ``{"pending": true}`` until it is done (a worker's result is
    stored, and every server process reads it)."""
    cache_key = (key, lang)
    spec = JobSpec(
        "analysis",
        {"record": to_record(state), "lang": lang, "people": sorted(seats)},
        name=f"analysis:{key}:{lang}:{','.join(map(str, sorted(seats)))}",
    )

    def keep(result: Any, error: BaseException | None) -> None:
        if error is None and isinstance(result, dict):
            with _lock:
                _ANALYSES[cache_key] = cast("AnalysisView", result)
                while len(_ANALYSES) > _KEPT_ANALYSES:
                    _ANALYSES.popitem(last=False)

    try:
        future = queue.submit(spec, then=keep)
    except Busy:
        raise Busy(busy_words(lang)) from None
    if not future.done():
        return PENDING
    error = future.exception()
    if error is not None:
        raise YatzyError(f"no analysis for {state.rules.spec}: {error}")
    return cast("AnalysisView", future.result())


def win_analysis(
    jobs: WinAnalyses,
    state: State,
    lang: Language = "en",
    *,
    people: set[int] | None = None,
    record: int | None = None,
    key: str = "",
    client: str | None = None,
    levels: list[str | None] | None = None,
    measured: dict[int, dict[str, Any]] | None = None,
    here: bool = False,
) -> WinAnalysisView | WinUnavailableView | PendingView:
    """A finished game's analysis in win chance for the ``people`` (default: all), in
    ``lang`` (see :mod:`yatzy.web.win_view`), computed by ``jobs`` in the background:
    ``{"pending": true}`` until it is done.  A solo game is rated by the chance of
    beating ``record`` (none: nothing to rate, said in words).  ``levels``: each
    seat's level (default: the game's; people their best), ``measured`` what each
    person's was measured from (said in words).  ``here``: made on this process even
    where ``jobs`` hands analyses to workers (its turns were analysed here ahead)."""
    from yatzy.web.win_view import win_unavailable, win_view

    if not jobs.enabled:
        return win_unavailable("off", lang)
    if state.game.pad:
        return win_unavailable("pad", lang)
    if not state.is_terminal():
        raise YatzyError("the game is not over: its analysis comes at its end")
    if len(state.players) == 1 and record is None:
        return win_unavailable("no_record", lang, goal="record")
    if _module("yatzy.strategy.win_analysis", "analyze_wins") is None:
        raise YatzyError("no analysis: the strategy package is not installed")
    waiting = _status(state.rules)
    if waiting is not None:
        if waiting.get("not_prepared"):
            goal = "record" if len(state.players) == 1 else "win"
            return win_unavailable("off", lang, goal=goal) | {
                "explanation": not_prepared_words(lang)
            }
        if "unavailable" in waiting:
            raise YatzyError(f"no analysis for {state.rules.spec}: {waiting['unavailable']}")
        if "busy" in waiting:
            raise Busy(busy_words(lang))
        return PREPARING
    seats = set(range(len(state.players))) if people is None else people
    frozen = state.clone()
    counted = ",".join(lv or "-" for lv in levels) if levels is not None else ""
    estimate_key = (key or str(id(frozen)), lang, record, counted)

    def meanwhile(waiting: PendingView) -> WinAnalysisView | PendingView:
        # The exact analysis is not done: an estimate from the points meanwhile,
        # said to be one, which the page replaces with the exact one (issue 24).
        found = _estimate(estimate_key, frozen, lang, seats, record, levels, measured)
        return waiting if found is None else found

    if still_warming(state.rules.spec):
        # a warm-up child compiles the win chances' kernels: the exact analysis after it
        return meanwhile(PREPARING)

    def compute() -> dict[str, Any]:
        from yatzy.strategy.win_analysis import analyze_wins

        result = analyze_wins(
            frozen,
            record=record,
            levels=levels,
            budget=jobs.budget,
            lang=lang,
            progress=jobs.pace_waited,  # a person waits for it (issue 24)
        )
        return cast("dict[str, Any]", win_view(result, frozen, lang, seats, measured))

    # The same work as a job for ``yatzy worker`` processes (the record rides along).
    spec = JobSpec(
        "win_analysis",
        {
            "record": to_record(frozen),
            "total": record,
            "budget": jobs.budget,
            "lang": lang,
            "people": sorted(seats),
            "levels": levels,
            "measured": {str(k): v for k, v in (measured or {}).items()},
        },
        name=f"win_analysis:{key}:{lang}:{record}:{counted}" if key else None,
    )
    # the jobs keep plain dicts: the view computed above, or PENDING meanwhile
    try:
        found = jobs.get(
            (key or id(frozen), lang, record, counted),
            compute,
            client=client,
            spec=spec if key and not here else None,
        )
    except Busy:
        raise Busy(busy_words(lang)) from None
    if found.get("pending"):
        return meanwhile(cast("PendingView", found))
    return cast("WinAnalysisView | PendingView", found)


_ESTIMATES: OrderedDict[tuple[Any, ...], WinAnalysisView] = OrderedDict()
_KEPT_ESTIMATES = 64


def _estimate(
    key: tuple[Any, ...],
    state: State,
    lang: Language,
    seats: set[int],
    record: int | None,
    levels: list[str | None] | None,
    measured: dict[int, dict[str, Any]] | None,
) -> WinAnalysisView | None:
    """The estimated analysis in win chance of the finished ``state``
    (:func:`yatzy.strategy.win_estimate.estimate_wins`, from the analysis in points:
    under a second), marked ``estimated`` and still ``pending`` (the exact one
    follows); once per ``key``.  ``None`` where it fails
    (the answer stays "being computed")."""
    from yatzy.web.win_view import win_view

    with _lock:
        cached = _ESTIMATES.get(key)
    if cached is not None:
        return cached
    try:
        from yatzy.strategy.win_estimate import estimate_wins

        result = estimate_wins(state, record=record, levels=levels, lang=lang)
    except Exception as exc:  # the exact analysis still comes: nothing lost
        log.info("no estimated win analysis of %s: %s", state.rules.spec, exc)
        return None
    view = win_view(result, state, lang, seats, measured)
    view["pending"] = True  # the exact analysis follows: the page asks again
    with _lock:
        _ESTIMATES[key] = view
        while len(_ESTIMATES) > _KEPT_ESTIMATES:
            _ESTIMATES.popitem(last=False)
    return view


def _win_analysis_job(args: dict[str, Any]) -> dict[str, Any]:
    """A worker's job: the analysis in win chance of the finished game of
    ``args["record"]`` (see :func:`win_analysis`)."""
    from yatzy.strategy.win_analysis import analyze_wins
    from yatzy.web.win_view import win_view

    state = from_record(args["record"])
    lang = args["lang"]
    result = analyze_wins(
        state,
        record=args["total"],
        levels=args.get("levels"),
        budget=float(args["budget"]),
        lang=lang,
    )
    measured = {int(k): v for k, v in (args.get("measured") or {}).items()}
    view = win_view(result, state, lang, set(args["people"]), measured)
    return cast("dict[str, Any]", view)


def _analysis_job(args: dict[str, Any]) -> dict[str, Any]:
    """A worker's job: the game's decisions against the best ones (see
    :func:`analysis`)."""
    from yatzy.strategy.analyze import analyze
    from yatzy.web.analysis_view import analysis_view

    state = from_record(args["record"])
    lang = args["lang"]
    view = analysis_view(analyze(state, lang), state, lang, set(args["people"]))
    return cast("dict[str, Any]", view)


register("win_analysis", _win_analysis_job)
register("analysis", _analysis_job)
