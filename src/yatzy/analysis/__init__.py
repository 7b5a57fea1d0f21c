"""Analysis of finished games for the front ends: a player's history in words and
statistics per rule set (:mod:`yatzy.analysis.history`).

It sits above the store (the games), the protocols (rules in words) and the game
(sheets from records), and below both front ends, the command line and the web app,
which show the same figures.  Analysis of a game's decisions against the strategies
lives beside them (:mod:`yatzy.strategy.analyze`, :mod:`yatzy.strategy.win_analysis`).
"""

from __future__ import annotations

import os

AHEAD_ENV = "YATZY_ANALYSE_AHEAD"
"""``0`` switches the analysis made while games are played off, on the web server and
in the terminal (the analyses are then made at the end; the web's live chances count
every person as playing their best)."""


def ahead_enabled() -> bool:
    """Whether :data:`AHEAD_ENV` leaves the analysis ahead on (the default)."""
    return os.environ.get(AHEAD_ENV, "").strip() != "0"
