"""Integer codes shared by the model and the kernels (kept apart so that looking a
value up in a cached table needs no numba import)."""

from __future__ import annotations

from yatzy.rules import YATZY_BONUS_POINTS

JOKER_NONE = 0
JOKER_FORCED = 1
JOKER_FREE = 2
YATZY_BONUS = YATZY_BONUS_POINTS
