"""The library's front door: ``from yatzy import ...`` gives the core and the errors
at once and the heavy names (bots, advice) on first use, without numpy or numba for
the core; the package docstring's game runs as written."""

from __future__ import annotations

import doctest
import subprocess
import sys

import pytest

import yatzy
from yatzy.errors import YatzyError

# A process where numpy and numba cannot be imported (an entry of None in sys.modules
# makes ``import numpy`` raise ImportError): the core must import and play in it.
_WITHOUT_NUMPY = """
import random, sys
sys.modules["numpy"] = None
sys.modules["numba"] = None
from yatzy import Game, Roll, RuleSet, Score, Scratch, State, YatzyError
rng = random.Random(7)
state = Game(RuleSet.parse("yatzy"), ["Ann", "Bo"]).new_initial_state()
assert isinstance(state, State)
while not state.is_terminal():
    if state.is_chance_node():
        state.roll(rng)
    else:
        state.apply(rng.choice(state.legal_actions()))
assert all(isinstance(t, int) for t in state.totals()) and state.winners()
try:
    state.apply(Score("chance"))
except YatzyError as exc:
    print("refused:", exc)
print(sorted(m for m in ("numpy", "numba") if sys.modules.get(m) is not None))
"""


def test_the_core_imports_and_plays_without_numpy_or_numba() -> None:
    out = subprocess.run(
        [sys.executable, "-c", _WITHOUT_NUMPY], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert lines[0].startswith("refused: the game is over")
    assert lines[-1] == "[]"


def test_import_yatzy_loads_only_the_errors_until_a_name_is_used() -> None:
    code = (
        "import sys, yatzy\n"
        "loaded = lambda: sorted(m for m in sys.modules if m.startswith('yatzy.'))\n"
        "print(loaded())\n"
        "yatzy.Game\n"
        "print('yatzy.game' in loaded(), 'yatzy.rules' in loaded())\n"
        "heavy = ('numpy', 'numba', 'yatzy.bots', 'yatzy.strategy', 'yatzy.solver')\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["['yatzy.errors']", "True True", "[]"]


def test_the_front_door_names() -> None:
    from yatzy import Game, Roll, RuleSet, Score, Scratch, advise, make_bot
    from yatzy.bots import make_bot as bots_make_bot
    from yatzy.game import Game as GameClass
    from yatzy.strategy.advisor import Advice
    from yatzy.strategy.advisor import advise as advisor_advise

    assert make_bot is bots_make_bot and advise is advisor_advise
    assert yatzy.Advice is Advice and Game is GameClass
    assert {Roll, Score, Scratch, RuleSet} <= {getattr(yatzy, n) for n in yatzy.__all__}
    assert set(yatzy.__all__) <= set(dir(yatzy))
    assert all(hasattr(yatzy, name) for name in yatzy.__all__)
    namespace: dict[str, object] = {}
    exec("from yatzy import *", namespace)
    assert set(yatzy.__all__) <= set(namespace)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="'no_such_name'"):
        _ = yatzy.no_such_name
    with pytest.raises(ImportError):
        exec("from yatzy import no_such_name", {})


def test_every_error_is_exported() -> None:
    import yatzy.errors

    errors = {
        name
        for name, value in vars(yatzy.errors).items()
        if isinstance(value, type) and issubclass(value, YatzyError)
    }
    assert errors <= set(yatzy.__all__)


def test_advise_takes_a_target() -> None:
    """``advise(state, target=...)`` ranks by the chance of the target (advise_target):
    its checks answer before any table is built."""
    from yatzy import Game, advise

    state = Game("yatzy", ["Ann"]).new_initial_state()
    with pytest.raises(YatzyError, match="target True is not a whole number"):
        advise(state, target=True)
    state.apply(yatzy.Roll())
    with pytest.raises(YatzyError, match="dice are rolling"):
        advise(state, target=200)


def test_the_package_docstring_runs() -> None:
    result = doctest.testmod(yatzy, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 10
    assert result.failed == 0
