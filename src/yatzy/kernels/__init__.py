"""The numba kernels of the solver and the strategy, in one package.

Every kernel writes into arrays its caller allocates; the Python drivers that
allocate them, pick the rule set's tables and run the kernels in threads live in
:mod:`yatzy.solver` and :mod:`yatzy.strategy`.  This package imports only numpy,
numba, the standard library and :mod:`yatzy.rules`' constants, and its
``__init__`` imports nothing, so :mod:`yatzy.kernels.codes` and
:mod:`yatzy.kernels.native` load without numba.

Modules, by concern:

- :mod:`~yatzy.kernels.jit`: numba started in one thread, and the package's cache
  keyed by a digest of its sources (:mod:`~yatzy.kernels.cache`);
- :mod:`~yatzy.kernels.codes`: the integer codes shared with the solver's model;
- :mod:`~yatzy.kernels.common`: the helpers shared by the others (keep means and
  maxima, the boxes a final roll may fill, the best box, a re-roll);
- :mod:`~yatzy.kernels.final` and :mod:`~yatzy.kernels.solve`: the exact solver's
  final values and its solve; :mod:`~yatzy.kernels.saved` (``saved_rolls=all``) and
  :mod:`~yatzy.kernels.target` (the target tables);
- :mod:`~yatzy.kernels.native` and :mod:`~yatzy.kernels.native_entry`: the solve
  kernel as native code that loads without numba;
- :mod:`~yatzy.kernels.simulate` and :mod:`~yatzy.kernels.saved_simulate`: optimal
  games played from a table;
- :mod:`~yatzy.kernels.win`, :mod:`~yatzy.kernels.win_double` and
  :mod:`~yatzy.kernels.winbot`: the live win chances and the bot that plays to win.
"""
