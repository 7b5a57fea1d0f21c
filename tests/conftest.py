"""Shared test helpers, the hypothesis profiles, the session's folders and the markers.

Profiles: ``ci`` (the default; bounded so the property tests take about a minute on
two cores), ``dev`` (a quick smoke run) and ``thorough`` (many more examples, for a
night run).  Pick one with ``HYPOTHESIS_PROFILE=thorough pytest ...``.

Folders: nothing is written into the real home or left in /tmp.  Solver tables, native
objects and font caches go to ``$XDG_CACHE_HOME`` = ``.cache/tests/xdg-cache`` in the
checkout (gitignored; kept between runs because the tables are expensive).  Everything
else of a run (``tmp_path``, ``$TMPDIR`` of the tests and the programs they start, the
throwaway PostgreSQL cluster) lives in ``.cache/tests/runs/<pid>``, removed at the end
of a run that passed and kept for a look after one that failed (until the next run).

Markers (``--strict-markers``): ``slow`` (left out of the fast tier, ``scripts/test
--fast``), ``pg`` (needs PostgreSQL), ``browser`` (chromium through Playwright; every
test under tests/e2e) and ``office`` (LibreOffice).  ``pg`` is set here on every test
that calls ``postgres_database``/``pg_or_skip`` or runs with a ``"postgres"`` parameter.
"""

from __future__ import annotations

import gc
import importlib.abc
import importlib.util
import json
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from itertools import product
from pathlib import Path
from typing import Any

import pytest
from _pytest.mark.expression import Expression

ROOT = Path(__file__).resolve().parents[1]
LOCAL = ROOT / ".cache" / "tests"
RUNS = LOCAL / "runs"
E2E = Path(__file__).parent / "e2e"
"""The browser tests' folder."""
_RUN_ENV = "YATZY_TEST_RUN_DIR"


def _run_dir() -> Path:
    """This run's folder: made by the controlling process, inherited by xdist's workers
    (and every program a test starts) through the environment."""
    given = os.environ.get(_RUN_ENV)
    if given:
        return Path(given)
    RUNS.mkdir(parents=True, exist_ok=True)
    for old in RUNS.iterdir():  # the folders of earlier runs whose process is gone
        if not (old.name.isdigit() and Path(f"/proc/{old.name}").exists()):
            shutil.rmtree(old, ignore_errors=True)
    run = RUNS / str(os.getpid())
    (run / "tmp").mkdir(parents=True, exist_ok=True)
    # The throwaway PostgreSQL cluster runs as the postgres user under root: it must be
    # able to reach its folder under tmp.
    for path in (LOCAL, RUNS, run, run / "tmp"):
        path.chmod(0o755)
    os.environ[_RUN_ENV] = str(run)
    return run


# Python may cache compiled modules even where the machine says not to
# (PYTHONDONTWRITEBYTECODE=1 on the project's machines): otherwise every process of a
# run (the controller, each xdist worker, every `yatzy` command and server a test
# starts) compiles the package and rewrites every test module's asserts again, several
# CPU-seconds each.  The caches go to the checkout's gitignored __pycache__ folders.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

# Set before anything of yatzy is imported, so that no module can read the real ones.
RUN = _run_dir()
os.environ["XDG_CACHE_HOME"] = str(LOCAL / "xdg-cache")
os.environ["XDG_CONFIG_HOME"] = str(RUN / "config")
os.environ["TMPDIR"] = str(RUN / "tmp")
# The analysis made while games are played (yatzy.web.ahead, the terminal's
# play_advice.AnalysisAhead) spends CPU on every game with a person that a test plays
# (+70 % in the analysis modules); the tests of it switch it on
# (tests/web/test_web_ahead.py, tests/e2e/test_measured_level_browser.py).
os.environ.setdefault("YATZY_ANALYSE_AHEAD", "0")
# Nor does the analysis in win chance spread its positions over worker processes
# (yatzy.strategy.win_spread): a worker costs seconds to start; the tests of it ask
# for workers themselves (tests/cli/test_cli_win_analysis.py).
os.environ.setdefault("YATZY_JOBS", "1")
# Nor do they start a child process that warms a fresh install's kernels (the tests
# of yatzy.web.warmup switch it on).
os.environ.setdefault("YATZY_WARM_KERNELS", "0")
# Nor do they read the tables shipped with the package: the tests of a table's build,
# its "being prepared" and its stand-in start from a cache without the table, as
# before the tables shipped (tests/solver/test_shipped_tables.py and the fresh-install
# tests of the terminal switch them on).
os.environ.setdefault("YATZY_SHIPPED_TABLES", "0")
# Nor does an app put all its routes together at start (the OpenAPI document, about
# 1 CPU-second of FastAPI and pydantic an app, where a test calls a few routes; the
# suite starts hundreds of apps): tests/web/test_web_models.py keeps the default.
os.environ.setdefault("YATZY_PREBUILD_ROUTES", "0")
# Nor does a terminal solo game with a record build its target table in the background
# (about 300 CPU-s and 1.7 GiB each): tests/tui/test_tui_round3.py switches it on with
# the child process stood in.
os.environ.setdefault("YATZY_BUILD_TARGET_TABLES", "0")
tempfile.tempdir = None  # tempfile read TMPDIR already; read it again

from hypothesis import HealthCheck, settings  # noqa: E402

from yatzy.errors import YatzyError  # noqa: E402
from yatzy.game import Action, Die, Game, Roll, State, to_record  # noqa: E402
from yatzy.rules import OPTIONS, VARIANTS, RuleSet  # noqa: E402

_COMMON: dict[str, Any] = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
    "print_blob": True,
}
settings.register_profile("ci", max_examples=30, derandomize=True, **_COMMON)
settings.register_profile("dev", max_examples=8, **_COMMON)
settings.register_profile("thorough", max_examples=500, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True, scope="session")
def _rescued_games_stay_out_of_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """``yatzy play`` saves a game cut off by the end of its input under
    ``$XDG_STATE_HOME/yatzy``: every test's rescued games go to a temporary folder, never
    into the home of whoever runs the tests (subprocesses inherit it)."""
    old = {name: os.environ.get(name) for name in ("XDG_STATE_HOME", "XDG_DATA_HOME")}
    # Finished games go into the local database under $XDG_DATA_HOME (yatzy stats):
    # a temporary one too.
    os.environ["XDG_STATE_HOME"] = str(tmp_path_factory.mktemp("state"))
    os.environ["XDG_DATA_HOME"] = str(tmp_path_factory.mktemp("data"))
    yield
    for name, value in old.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


GC_THRESHOLD = (100_000, 50, 100)
"""The cyclic garbage collector's thresholds in the test processes (Python's: 700, 10,
10).  The tests allocate heavily (FastAPI and pydantic building each app's routes,
SQLAlchemy, hypothesis, Textual) and almost all of it is freed by reference counting;
with the collector also walking the objects of every imported module (frozen after
collection, below) the test processes spent about 13 % more CPU (tests/web and
tests/game, one process: 10.2-10.7 user CPU-s against 9.0).  Cycles are still
collected, less often; the servers a test starts tune their own (``yatzy serve``)."""


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """``tmp_path`` under this run's folder (xdist gives each worker a folder inside the
    controller's basetemp), unless ``--basetemp`` was given; the collector's
    thresholds are :data:`GC_THRESHOLD` from here on (collection included)."""
    gc.set_threshold(*GC_THRESHOLD)
    if config.option.basetemp is None:
        config.option.basetemp = str(RUN / "pytest")


def pytest_collection_finish(session: pytest.Session) -> None:
    """Once the tests are collected, everything alive (the imported modules, the
    collected tests) moves to the collector's permanent generation, never walked
    again (each xdist worker collects, so each does this)."""
    gc.collect()
    gc.freeze()


def pytest_sessionstart(session: pytest.Session) -> None:
    """On a fresh clone, the kernels are compiled once here, before xdist starts its
    workers (its own sessionstart runs last), two processes at once (tests/warm.py):
    otherwise both workers and the servers they start compile the same kernels at the
    same time.  Only for a run of the whole suite or a tier (no test files named), or
    with ``YATZY_TEST_WARM=1``; never with ``YATZY_TEST_WARM=0``; once per version of
    the kernels (a stamp in the cache folder)."""
    from tests import warm

    config = session.config
    wanted = os.environ.get(warm.WARM_ENV, "").strip()
    if hasattr(config, "workerinput") or wanted == "0" or config.option.collectonly:
        return
    if wanted != "1" and config.args_source != pytest.Config.ArgsSource.TESTPATHS:
        return
    said = warm.warm_all(RUN / "warm")
    if said:
        sys.stderr.write(said + "\n")


def _no_whole_target_builds(init: Any) -> Any:
    """``TargetTable.__init__`` refusing to solve a whole game's target table that is
    not on disk (Yatzy's takes about 300 CPU-seconds and 1.7 GiB): a test's solo game
    with a record to beat queues one for the record chance, and the test process went
    on building it on a core of its own, unseen, until the process ended (a quarter of
    the suite's CPU).  Sub-games (``open_boxes``) are solved as before, a whole game's
    table already on disk still loads, and the tests of the jobs that build them
    replace the builders."""

    def guarded(self: Any, rules: Any, **kw: Any) -> None:
        if kw.get("open_boxes") is not None or kw.get("cached_only"):
            init(self, rules, **kw)
            return
        try:
            init(self, rules, **{**kw, "cached_only": True})
        except LookupError:
            raise YatzyError(f"the tests solve no whole game's target table ({rules})") from None

    guarded.guarded = True  # type: ignore[attr-defined]
    return guarded


class _GuardOnImport(importlib.abc.MetaPathFinder):
    """Puts :func:`_no_whole_target_builds` on ``TargetTable`` as ``yatzy.solver.target``
    is imported, in whatever thread imports it.  (It was put there before each test's
    setup: a web test's solo game with a record queued its target table's build, the
    job's thread imported the module and began Yatzy's whole table within that test,
    and went on for the rest of the worker's run: 217 CPU-s in one tests/web run.)"""

    NAME = "yatzy.solver.target"

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        """The module's own spec, its loader patching the class once the module ran."""
        if name != self.NAME:
            return None
        sys.meta_path.remove(self)  # once: find the module's real spec
        spec = importlib.util.find_spec(name)
        loader = spec.loader if spec is not None else None
        if loader is None:
            return spec
        run = loader.exec_module

        def exec_module(module: Any) -> None:
            run(module)
            module.TargetTable.__init__ = _no_whole_target_builds(module.TargetTable.__init__)

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


if _GuardOnImport.NAME in sys.modules:  # imported by a plugin already: guard it now
    _target_class = sys.modules[_GuardOnImport.NAME].TargetTable
    _target_class.__init__ = _no_whole_target_builds(_target_class.__init__)
else:
    sys.meta_path.insert(0, _GuardOnImport())


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Before a test outside tests/e2e, the browser modules' shared chromium stops (its
    driver's event loop would break ``asyncio.run``, tests/e2e/conftest.py)."""
    if E2E not in item.path.parents:
        _stop_shared_chromium()


def _stop_shared_chromium() -> None:
    """Stop the browser modules' chromium where this process started one."""
    e2e = sys.modules.get("tests.e2e.conftest")
    if e2e is not None:
        e2e.CHROMIUM_SHARED.stop()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """The run's folder goes when the run passed (the controller's end; a worker's end
    stops only its own throwaway PostgreSQL)."""
    from tests import postgres

    _stop_shared_chromium()
    postgres.stop()
    if hasattr(session.config, "workerinput"):
        return
    if exitstatus == 0 and RUN.parent == RUNS and RUN.name == str(os.getpid()):
        shutil.rmtree(RUN, ignore_errors=True)


_WHOLLY_SLOW = re.compile(r"^pytestmark = (\[[^\]]*)?pytest\.mark\.slow\b", re.MULTILINE)


def _wholly_slow(path: Path) -> bool:
    """Whether every test of the module at ``path`` is ``slow``: tests/e2e, and a module
    that marks itself so (``pytestmark = pytest.mark.slow``, or a list with it)."""
    if E2E in path.parents:
        return True
    try:
        return bool(_WHOLLY_SLOW.search(path.read_text(encoding="utf-8")))
    except OSError:
        return False


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """A run that leaves out the ``slow`` tests (the fast tier: ``-m "not slow"``) does
    not import the modules that hold nothing else: collecting them costs every worker
    seconds of CPU (schemathesis builds its fuzzing cases of the whole OpenAPI document
    at collection, the browser modules import Playwright) only to deselect them all.
    A module is skipped only when the marker expression is false for a ``slow`` test
    whatever its other markers; ``None`` leaves the decision to pytest."""
    markexpr = config.option.markexpr
    if not markexpr or collection_path.suffix != ".py":
        return None
    if not collection_path.name.startswith("test_") or not _wholly_slow(collection_path):
        return None
    expr = Expression.compile(markexpr)
    for others in (False, True):

        def slow_and(name: str, /, **kwargs: object) -> bool:
            return name == "slow" or others  # noqa: B023 (evaluated at once)

        if expr.evaluate(slow_and):
            return None
    return True


def _postgres_twin(item: pytest.Item) -> bool:
    """Whether the test is the PostgreSQL case of a test run on both databases."""
    callspec = getattr(item, "callspec", None)
    if callspec is not None:
        for value in callspec.params.values():
            values = value if isinstance(value, tuple) else (value,)
            if "postgres" in values:
                return True
    return False


def _uses_postgres(item: pytest.Item) -> bool:
    if _postgres_twin(item):
        return True
    code = getattr(getattr(item, "function", None), "__code__", None)
    names = set(code.co_names) if code is not None else set()
    return bool(names & {"postgres_database", "pg_or_skip"})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The markers that follow from what a test is: ``browser`` (and ``slow``) for
    tests/e2e, ``pg`` for a test that needs PostgreSQL, and ``slow`` for the
    PostgreSQL case of a test run on both databases (the fast tier runs its SQLite
    case; tests written for PostgreSQL alone stay in it)."""
    e2e = Path(__file__).parent / "e2e"
    for item in items:
        if e2e in item.path.parents:
            # a chromium per module and a live server: never in the fast tier
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.slow)
        if _uses_postgres(item):
            item.add_marker(pytest.mark.pg)
        if _postgres_twin(item):
            item.add_marker(pytest.mark.slow)


# -- migrated databases ---------------------------------------------------------------


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite database at the store's newest revision, made once per process: the
    databases of the web and store tests that run on the schema are copies of it
    (:func:`sqlite_copy`) instead of running every migration again (an app's or a
    repository's migration on opening then finds nothing to do).  The migrations
    themselves, from an empty database, are tested where a database starts empty:
    tests/store's ``url``, the live servers (``yatzy serve`` on a new file) and the
    tests that make their own file."""
    from yatzy.store.db import make_engine, migrate

    path = tmp_path_factory.mktemp("migrated") / "yatzy.db"
    engine = make_engine(f"sqlite:///{path}")
    try:
        migrate(engine)
    finally:
        engine.dispose()  # the last connection's close folds the WAL into the file
    return path


def sqlite_copy(template: Path, folder: Path) -> str:
    """The URL of a copy of the database file ``template`` in ``folder``."""
    path = folder / "yatzy.db"
    shutil.copyfile(template, path)
    return f"sqlite:///{path}"


# -- the fast tier's share of a product of parameters ----------------------------------


def covering(*axes: Sequence[Any]) -> list[Any]:
    """Every combination of the values of ``axes`` (as ``pytest.mark.parametrize``
    takes them for several names), the fast tier running only a few that still use
    every value of every axis: combination ``i`` of the diagonal takes value ``i``
    (modulo its length) of each axis, so ``max(len(axis))`` combinations stay fast
    and the rest are ``slow`` (the whole suite runs them all).  For tests whose axes
    are independent concerns (a rule set, a language, a screen size): a value that
    breaks on its own is caught by the fast tier; a pair that breaks only together
    by the whole suite."""
    width = max(len(axis) for axis in axes)
    fast = {tuple(i % len(axis) for axis in axes) for i in range(width)}
    out = []
    for index in product(*(range(len(axis)) for axis in axes)):
        values = tuple(axis[i] for axis, i in zip(axes, index, strict=True))
        marks = () if index in fast else (pytest.mark.slow,)
        out.append(pytest.param(*values, marks=marks))
    return out


# -- rule sets ------------------------------------------------------------------------


def _values(name: str) -> list[Any]:
    """The values of a flag or choice option (ints are drawn by the tests themselves)."""
    opt = OPTIONS[name]
    if opt.kind == "flag":
        return [False, True]
    if opt.kind == "choice":
        return list(opt.choices)
    raise AssertionError(f"option {name} is not a flag or a choice")


def rule_set_combos() -> list[RuleSet]:
    """Every variant with every combination of its flag and choice options.

    Built from VARIANTS and OPTIONS, so a new option or variant is covered without
    touching the tests.  Integer options keep their defaults here; the property
    tests draw values for them.  Only the one exclusion that RULES.md states
    (forced with half_forced) is left out.
    """
    out: list[RuleSet] = []
    for variant in VARIANTS.values():
        names = [o for o in variant.options if OPTIONS[o].kind != "int"]
        for values in product(*(_values(n) for n in names)):
            kw = dict(zip(names, values, strict=True))
            if kw.get("forced") and kw.get("half_forced"):
                continue
            out.append(RuleSet(variant.name, **kw))
    return out


ALL_RULE_SETS: list[RuleSet] = rule_set_combos()
DEFAULT_RULE_SETS: list[RuleSet] = [RuleSet(v) for v in VARIANTS]


def int_option_range(rules: RuleSet, name: str) -> tuple[int, int]:
    """The valid range of an integer option for ``rules``."""
    if name == "bonus_threshold":
        return 0, rules.upper_max
    if name == "bonus_points":
        return 0, 1000
    raise AssertionError(f"no range known for the new integer option {name!r}: add it here")


# -- driving a state ------------------------------------------------------------------


def new_state(spec: str | RuleSet, players: int = 1, starter: int | None = 0) -> State:
    """A fresh state with ``players`` seats named p0, p1 ... (no roll-off by default)."""
    game = Game(spec, [f"p{i}" for i in range(players)])
    return game.new_initial_state(starter)


def roll(state: State, dice: Sequence[Die], keep: Sequence[int] = ()) -> None:
    """Roll (keeping the positions in ``keep``) and set the thrown dice to ``dice``."""
    state.apply(Roll(tuple(keep)))
    state.apply_roll(list(dice))


def turn(state: State, dice: Sequence[Die], action: Action) -> None:
    """One turn: a single roll of every die to ``dice``, then ``action``."""
    roll(state, dice)
    state.apply(action)


def snapshot(state: State) -> str:
    """The state as record JSON: compared besides ``==`` so that a change outside
    what ``State.__eq__`` looks at is caught as well."""
    return json.dumps(to_record(state), sort_keys=True)


def assert_refused(
    state: State, fn: Callable[[], object], error: type[YatzyError], match: str | None = None
) -> YatzyError:
    """``fn`` raises ``error`` (matching ``match``) and leaves ``state`` as it was."""
    before = state.clone()
    before_json = snapshot(state)
    with pytest.raises(error, match=match) as info:
        fn()
    assert state == before, f"{info.value!r} changed the state"
    assert snapshot(state) == before_json, f"{info.value!r} changed the record"
    return info.value
