"""The ``yatzy`` command line: a thin adapter over the core."""
