"""numba's start, once per process and in one thread (private).

numba finishes starting lazily: the first kernel compiled or loaded from its disk
cache imports every typing and lowering registry numba has
(``BaseContext.refresh``).  When that first happens in two threads at once — a
server's bot, its hints and its win chances each load their kernels in threads of
their own — Python's import locks hand one of them a half-initialised numba module
(``cannot import name 'rtsys' from partially initialized module
'numba.core.runtime'``, then ``module 'numba' has no attribute 'core'`` for the
rest of the process).

Importing this module does that start, under numba's own compiler lock, so every
kernel module imports it before its first numba import: the first thread to get
here finishes the start while the others wait on this module's import, and no two
threads ever import numba's registries at the same time.  It costs what the first
kernel would have paid anyway (about 0.17 s).
"""

from __future__ import annotations

import numba
from numba.core.compiler_lock import global_compiler_lock
from numba.core.registry import cpu_target

__all__ = ["numba"]

with global_compiler_lock:
    cpu_target.target_context.refresh()
