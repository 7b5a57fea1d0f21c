"""yatzy: Nordic Yatzy and its variants, played well.

The core (:mod:`yatzy.rules`, :mod:`yatzy.game`) is pure Python and imports no
numeric library; the solver and the adapters build on it.
"""

from __future__ import annotations

from yatzy.errors import (
    BoxFilledError,
    DiceError,
    GameOverError,
    IllegalActionError,
    ImpossibleScoreError,
    KeepError,
    NoRollsLeftError,
    NotYourTurnError,
    OrderError,
    RecordError,
    SpecError,
    UnknownBoxError,
    YatzyError,
)

__version__ = "0.1.0"

__all__ = [
    "BoxFilledError",
    "DiceError",
    "GameOverError",
    "IllegalActionError",
    "ImpossibleScoreError",
    "KeepError",
    "NoRollsLeftError",
    "NotYourTurnError",
    "OrderError",
    "RecordError",
    "SpecError",
    "UnknownBoxError",
    "YatzyError",
    "__version__",
]
