"""Strategy: advice, bots' brains, simulation and game analysis.

Pure-Python parts (the within-turn search, the greedy strategy, the simulation
driver) import no numeric library; the exact parts build on :mod:`yatzy.solver`
and import it lazily.
"""
