"""The exact optimal solver for one player's sheet (solitaire).

:class:`Solver` maximises the expected final score (Total: boxes, upper bonus,
Yatzy bonuses) by backward induction over the states between turns — the open
boxes, the upper-section sum capped at the bonus threshold and, with the Yatzy
bonus rules, whether the Yatzy box holds 50 — with the keep/reroll recursion of a
turn inside.  The forced and half-forced orders need nothing more: the open boxes
determine what the order allows (half-forced: the section chosen first is the one
filled, or being filled, first).

Tables are solved by numba kernels (:mod:`yatzy.kernels.solve`) and cached on
disk per rules spec (:mod:`yatzy.solver.cache`).  :func:`yatzy.solver.reference`
holds a slow pure-Python solver built on the game state, which the tests compare
with this one.

With ``saved_rolls=next`` the state between turns also holds the rolls carried
into the turn (0-2), in place of the Yatzy box's 50 (Maxi has no Yatzy bonus).

With ``saved_rolls=all`` (rolls that accumulate) ``Solver(...)`` returns a
:class:`yatzy.solver.saved.SavedSolver`, whose state holds the saved rolls (at most
2 per filled box) in a compact table.

Supported: ``yatzy`` and ``yahtzee`` with every option, ``maxi`` with every option.
"""

from __future__ import annotations

from yatzy.solver._model import Layout, Model
from yatzy.solver.base import (
    Choice,
    DType,
    Ranking,
    Solver,
    check_supported,
    scored_without_bonus,
    table_cached,
    whole_table_key,
)

# Imported for its registration: Solver(...) returns a SavedSolver for the rule sets
# it handles (saved rolls that accumulate).
from yatzy.solver.saved import SavedSolver

__all__ = [
    "Choice",
    "DType",
    "Layout",
    "Model",
    "Ranking",
    "SavedSolver",
    "Solver",
    "check_supported",
    "scored_without_bonus",
    "table_cached",
    "whole_table_key",
]
