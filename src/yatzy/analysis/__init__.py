"""Analysis of finished games for the front ends: a player's history in words and
statistics per rule set (:mod:`yatzy.analysis.history`).

It sits above the store (the games), the protocols (rules in words) and the game
(sheets from records), and below both front ends, the command line and the web app,
which show the same figures.  Analysis of a game's decisions against the strategies
lives beside them (:mod:`yatzy.strategy.analyze`, :mod:`yatzy.strategy.win_analysis`).
"""
