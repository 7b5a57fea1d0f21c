"""Shared test helpers and the hypothesis profiles.

Profiles: ``ci`` (the default; bounded so the property tests take about a minute on
two cores), ``dev`` (a quick smoke run) and ``thorough`` (many more examples, for a
night run).  Pick one with ``HYPOTHESIS_PROFILE=thorough pytest ...``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator, Sequence
from itertools import product
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from yatzy.errors import YatzyError
from yatzy.game import Action, Die, Game, Roll, State, to_record
from yatzy.rules import OPTIONS, VARIANTS, RuleSet

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
