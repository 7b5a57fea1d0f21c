"""Which rule sets the server prepares exact strategy tables for, and preparing them
as bounded jobs.

A table is built once per rule spec and kept on disk (seconds to tens of minutes of
CPU, megabytes to gigabytes), so a server must not build one for every spec a client
can write: the setting ``yatzy serve --prepare-specs`` (:data:`PREPARE_ENV`) names
those it prepares.  The default, ``presets``, is the start page's rule choices
(:data:`yatzy.web.catalog.PRESETS`) with any of their on/off house rules and the
sheet's own bonus values; ``all`` is every spec, ``none`` no table at all, and specs
may be listed besides (``presets,yatzy+bonus_points=40``).  A game of another spec is
played and advised without tables: its bots play the greedy strategy (the bots'
strategy that needs no table), it has no hints, analyses or win chances, and the game
view says so in words (:func:`not_prepared_words`).

The preparation itself runs as jobs (kind ``strategy``: the advisor's tables of a
spec; ``winner``: the winner bot's target tables) of the bounded in-process pool
:data:`TABLE_JOBS`, or of ``yatzy worker`` processes on PostgreSQL
(:func:`table_jobs`), never in a request.  Meanwhile a bot plays the greedy strategy rather than
keep the game waiting (:func:`bot_for`).
"""

from __future__ import annotations

import functools
import logging
import os
import threading
from collections.abc import Callable
from typing import Any, Literal

from yatzy.bots import QUICK_BOTS, WINNER_LEVELS, Bot, GreedyBot, make_bot, preparing
from yatzy.errors import SpecError, YatzyError
from yatzy.game import Game
from yatzy.i18n import N_, Language, Message
from yatzy.rules import OPTIONS, RuleSet
from yatzy.web.catalog import PRESETS
from yatzy.web.jobs import Busy, JobQueue, Jobs, JobSpec, active_queue, register

log = logging.getLogger("yatzy.web")

PREPARE_ENV = "YATZY_PREPARE_SPECS"
"""The environment variable ``yatzy serve --prepare-specs`` sets (read by the app)."""

DEFAULT_SETTING = "presets"

NOT_PREPARED: Message = N_(
    "web.not_prepared",
    "This server has no strategy tables for these house rules: the computer plays a "
    "simple strategy, and there are no hints, analyses or win chances.",
)
PREPARING: Message = N_(
    "web.preparing_tables",
    "The computer's strategy tables are being prepared: it plays a simple strategy meanwhile.",
)

HINT_PREPARING: Message = N_(
    "web.hint_preparing",
    "The strategy table for these rules is being prepared, once on this server (a few "
    "minutes for the largest games): the hints follow by themselves.",
)

BUSY: Message = N_(
    "web.busy",
    "The server is busy preparing tables for other games: try again in a minute.",
)


class PrepareSettingError(YatzyError):
    """A ``--prepare-specs`` setting that is not ``presets``, ``all``, ``none`` or specs."""


class PreparePolicy:
    """Which specs the server prepares tables for (see the module docstring)."""

    def __init__(self, setting: str = DEFAULT_SETTING) -> None:
        items = [w.strip() for w in setting.split(",") if w.strip()]
        if not items:
            raise PrepareSettingError("--prepare-specs is empty: give presets, all, none or specs")
        if "none" in items and len(items) > 1:
            raise PrepareSettingError("--prepare-specs none goes alone")
        self.setting = setting
        self.everything = "all" in items
        self.presets = "presets" in items
        specs = set()
        for word in items:
            if word in ("all", "presets", "none"):
                continue
            try:
                specs.add(RuleSet.parse(word).spec)
            except YatzyError as exc:
                raise PrepareSettingError(f"--prepare-specs: {exc}") from None
        self.specs = frozenset(specs)

    def allows(self, rules: RuleSet) -> bool:
        """Whether the server prepares the tables of ``rules``."""
        if self.everything or rules.spec in self.specs:
            return True
        return self.presets and any(_within(rules, base) for base in _preset_rules())


def _within(rules: RuleSet, base: RuleSet) -> bool:
    """``rules`` is ``base`` with only on/off house rules changed."""
    if rules.variant != base.variant:
        return False
    return all(
        OPTIONS[name].kind == "flag" or getattr(rules, name) == getattr(base, name)
        for name in rules.info.options
    )


@functools.cache
def _preset_rules() -> tuple[RuleSet, ...]:
    return tuple(RuleSet.parse(p.spec) for p in PRESETS)


_policies: dict[str, PreparePolicy] = {}
_policies_lock = threading.Lock()


def policy() -> PreparePolicy:
    """The server's policy, from :data:`PREPARE_ENV` (default ``presets``)."""
    setting = os.environ.get(PREPARE_ENV, "").strip() or DEFAULT_SETTING
    with _policies_lock:
        found = _policies.get(setting)
        if found is None:
            found = _policies[setting] = PreparePolicy(setting)
    return found


def not_prepared_words(lang: Language) -> str:
    """The view's words for a game whose tables this server does not prepare."""
    return NOT_PREPARED[lang]


def busy_words(lang: Language) -> str:
    """The words when the table jobs' queue is full."""
    return BUSY[lang]


def hint_preparing_words(lang: Language) -> str:
    """The hint's words while the strategy table it reads is being prepared."""
    return HINT_PREPARING[lang]


def preparing_words(lang: Language) -> str:
    """The view's words while the computer's tables are being prepared."""
    return PREPARING[lang]


# -- the jobs --------------------------------------------------------------------------------

TABLE_JOBS = Jobs(workers=1, queue_limit=16, per_client=4, name="table")
"""The in-process pool that builds tables: one build at a time (each uses every core
through numba's threads), 16 waiting at most."""


def table_jobs() -> JobQueue:
    """The queue that builds tables now: ``yatzy worker`` processes' (the ``tables``
    pool on PostgreSQL, see :mod:`yatzy.web.pg_jobs`) or :data:`TABLE_JOBS`."""
    return active_queue("tables") or TABLE_JOBS


def _strategy(args: dict[str, Any]) -> None:
    """Load or build the advisor's tables of ``args["spec"]`` (its first advice); run
    after a warm-up child's table (:func:`_after_the_table`)."""
    from yatzy.strategy import advisor

    rules = RuleSet.parse(args["spec"])
    advisor.advise(Game(rules, ["warm-up"]).new_initial_state())
    try:
        load_kernels(rules)
    except Exception as exc:  # the table is ready: the first move loads them instead
        log.info("the kernels of %s are loaded on first use: %s", rules.spec, exc)


def load_kernels(rules: RuleSet) -> None:
    """One turn of the optimal bot and its analysis in points: loads what a bot's move
    and the analysis read — a keep after a roll reads more than the turn's start that
    :func:`yatzy.strategy.advisor.advise` loads: a turn's kernel where it is compiled
    (in the disk cache), else the numpy code of the same values (never a compile
    here: :meth:`yatzy.solver.Solver.turn_tables`) — in the table job, while the
    greedy strategy still stands in.  Else the first exact move after the job loaded
    them in the game's own turn (issue 24: one computer turn took 4.3 s when the
    exact computer took over mid-game)."""
    import random

    from yatzy.bots import play_turn
    from yatzy.strategy.analyze import analyze

    state = Game(rules, ["warm-up", "other"]).new_initial_state(starter=0)
    play_turn(state, make_bot("optimal"), random.Random(0))  # the first seat's turn
    analyze(state)


def _winner(args: dict[str, Any]) -> None:
    """Load or build the winner bot's target tables of ``args["spec"]``; run after a
    warm-up child's end (:func:`after_the_warm_up`)."""
    from yatzy.strategy.winbot import win_tables, winner_supported

    rules = RuleSet.parse(args["spec"])
    if winner_supported(rules):
        win_tables(rules, build=True)
    else:
        _strategy(args)


def _target(args: dict[str, Any]) -> None:
    """Load or build the target table of ``args["spec"]`` (a solo game's live chance
    of beating the record); run after a warm-up child's end
    (:func:`after_the_warm_up`)."""
    from yatzy.strategy.target_play import target_table_for

    target_table_for(RuleSet.parse(args["spec"]), build=True)


def _after_the_table(args: dict[str, Any]) -> Callable[[], object] | None:
    """What a strategy job waits for: a warm-up child of its rules that builds the
    same table (the job then loads it rather than compile and solve it beside the
    child); waited for outside the table worker (:mod:`yatzy.web.jobs`)."""
    from yatzy.web.warm_children import table_wait

    return table_wait(args["spec"])


def after_the_warm_up(args: dict[str, Any]) -> Callable[[], object] | None:
    """What the jobs of the win chances' kernels wait for (the winner bot's, the target
    tables', the live chances' tables): a warm-up child of their rules, which compiles
    those kernels last; waited for outside the table worker, which meanwhile runs the
    other table jobs (:mod:`yatzy.web.jobs`)."""
    from yatzy.web.warm_children import warmed_wait

    return warmed_wait(args["spec"])


register("strategy", _strategy, wait=_after_the_table)
register("winner", _winner, wait=after_the_warm_up)
register("target", _target, wait=after_the_warm_up)


def target_preparing(rules: RuleSet) -> bool:
    """Whether the target table of ``rules`` (a solo game's live chance of beating the
    record) is being prepared: its job is queued or running (queued now, the first
    time it is asked for).  False where there will be none: target play does not
    handle the rules, this server prepares no tables for them, its build failed, or
    the pool is full (asked again on the next move)."""
    from yatzy.solver.target import check_target_supported  # numpy: only where asked

    if not policy().allows(rules):
        return False
    try:
        check_target_supported(rules)
    except SpecError:
        return False
    job = JobSpec("target", {"spec": rules.spec})
    queue = table_jobs()
    state, _ = queue.status(job)
    if state == "failed":
        return False
    if state is None:
        try:
            queue.submit(job)
        except Busy as exc:
            log.info("no target table job for %s now: %s", rules.spec, exc)
            return False
    return True


_ready: set[str] = set()  # the keys of the jobs done: their tables are loaded here
_waited: set[str] = set()  # the keys of the jobs a bot's move has waited for once
_ready_lock = threading.Lock()


def strategy_job(rules: RuleSet) -> JobSpec:
    """The job that prepares the advisor's tables of ``rules``."""
    return JobSpec("strategy", {"spec": rules.spec})


def strategy_status(rules: RuleSet, client: str | None = None) -> dict[str, Any] | None:
    """``None`` when the advisor's tables of ``rules`` are ready in this process, else
    the answer meanwhile: ``{"pending": true}`` (the job is queued), ``{"unavailable":
    reason}`` (it failed, or the server does not prepare these rules: then
    ``"not_prepared": true``), ``{"busy": reason}`` (the pool is full)."""
    if not policy().allows(rules):
        return {"unavailable": "not prepared on this server", "not_prepared": True}
    job = strategy_job(rules)
    with _ready_lock:
        if job.key in _ready:
            return None
    state, reason = table_jobs().status(job)
    if state == "failed":
        return {"unavailable": reason}
    if state is None:
        try:
            future = table_jobs().submit(job, client=client, then=_mark_ready(job.key))
        except Busy as exc:
            return {"busy": str(exc)}
        if future.done() and not future.cancelled() and future.exception() is None:
            return None  # built before (by a worker): on disk, loaded on first use
    return {"pending": True}


def _mark_ready(key: str) -> Any:
    """The job's ending: its tables are ready in this process (unless it failed)."""

    def then(_: Any, error: BaseException | None) -> None:
        if error is None:
            with _ready_lock:
                _ready.add(key)

    return then


STAND_IN_AFTER = 1.0
"""Seconds a bot's move waits for its tables' job (loading them from disk takes
milliseconds) before the greedy strategy stands in for it."""


def bot_job(level: str, rules: RuleSet) -> JobSpec:
    """The job that prepares the tables a bot of ``level`` plays ``rules`` with."""
    return JobSpec("winner" if level in WINNER_LEVELS else "strategy", {"spec": rules.spec})


def bot_for(level: str, rules: RuleSet) -> tuple[Bot, bool]:
    """The bot that acts now for a seat of ``level``, and whether it stands in for the
    level's own: the greedy strategy, where the server does not prepare the rules, or
    while the level's tables are being prepared (their job, queued here: once they are
    on disk it loads them within :data:`STAND_IN_AFTER` seconds, and the level plays).
    Only the first move of a job waits that long: every move after it while the job
    runs (a build, minutes) stands in at once (each action of a computer's turn once
    waited the second, 3–4 s a turn).  Never waits longer, so a game never waits for a
    table."""
    if level in QUICK_BOTS:
        return make_bot(level), False
    if not policy().allows(rules):
        return GreedyBot(), True
    job = bot_job(level, rules)
    with _ready_lock:
        if job.key in _ready:
            return make_bot(level), False
    if table_jobs().status(job)[0] == "failed":
        return GreedyBot(), True
    with _ready_lock:  # only the first move waits: a later one finds a build under way
        wait = 0.0 if job.key in _waited else STAND_IN_AFTER
        _waited.add(job.key)
    try:
        future = table_jobs().submit(job, then=_mark_ready(job.key))
        future.result(wait)
    except Busy as exc:
        log.info("no table job for %s now: %s", rules.spec, exc)
        return GreedyBot(), True
    except Exception:  # still running (a timeout), or failed: greedy meanwhile
        return GreedyBot(), True
    return make_bot(level), False


def bot_plan(level: str | None, rules: RuleSet) -> Literal["own", "preparing", "not_prepared"]:
    """How a seat of ``level`` plays ``rules`` now: by its ``own`` strategy (people and
    quick bots too), greedily while its tables are ``preparing``, or greedily because
    the server does not prepare tables for the rules (``not_prepared``)."""
    if level is None or level in QUICK_BOTS:
        return "own"
    if not policy().allows(rules):
        return "not_prepared"
    job = bot_job(level, rules)
    with _ready_lock:
        if job.key in _ready:
            return "own"
    if table_jobs().status(job)[0] in ("queued", "running"):
        return "preparing"
    try:
        return "preparing" if preparing(level, rules) else "own"
    except YatzyError:
        return "own"


def plan_words(plan: str, lang: Language) -> str | None:
    """The game view's words for a bot's :func:`bot_plan` when it does not play by
    its level's own strategy; ``None`` when it does."""
    if plan == "not_prepared":
        return not_prepared_words(lang)
    if plan == "preparing":
        return preparing_words(lang)
    return None
