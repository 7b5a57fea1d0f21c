"""numba for the kernels: started once, in one thread, and cached by source digest.

Every kernel module imports ``njit`` (and ``prange``) from here, which does two
things before the first kernel is decorated:

- **numba's start in one thread.**  numba finishes starting lazily: the first kernel
  compiled or loaded from its disk cache imports every typing and lowering registry
  numba has (``BaseContext.refresh``).  When that first happens in two threads at
  once — a server's bot, its hints and its win chances each load their kernels in
  threads of their own — Python's import locks hand one of them a half-initialised
  numba module (``cannot import name 'rtsys' from partially initialized module
  'numba.core.runtime'``, then ``module 'numba' has no attribute 'core'`` for the
  rest of the process).  Importing this module does that start, under numba's own
  compiler lock: the first thread to get here finishes the start while the others
  wait on this module's import, and no two threads ever import numba's registries
  at the same time.  It costs what the first kernel would have paid anyway (about
  0.17 s).
- **One cache for the package.**  :class:`PackageCacheLocator` puts the cache of
  every kernel defined in :mod:`yatzy.kernels` into :func:`yatzy.kernels.cache.cache_dir`,
  stamped with the digest of all the package's sources, so changing a shared helper
  recompiles its callers in every other module (numba's default stamp is the
  function's own file).  Functions outside the package keep numba's own locators.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numba
from numba import njit, prange
from numba.core import caching
from numba.core.caching import _CacheLocator
from numba.core.compiler_lock import global_compiler_lock
from numba.core.registry import cpu_target

from yatzy.kernels.cache import PACKAGE_DIR, cache_dir, source_digest

__all__ = ["PackageCacheLocator", "njit", "numba", "prange"]

with global_compiler_lock:
    cpu_target.target_context.refresh()


class PackageCacheLocator(_CacheLocator):
    """numba's cache locator for the functions defined in this package's files.

    The cache path is the digest directory of :func:`yatzy.kernels.cache.cache_dir`
    and the source stamp is :func:`yatzy.kernels.cache.source_digest`, so every
    kernel's cached code belongs to one version of the whole package.
    """

    def __init__(self, py_func: Any, py_file: str) -> None:
        # numba's cache reads ``_py_file`` beside the locator's methods: its warning
        # that a kernel cannot be cached names the file (NUMBA_OPT=0 compiles such
        # kernels: an AttributeError there once ended the compile).
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._path = str(cache_dir())

    def get_cache_path(self) -> str:
        """The directory of this version's cached kernels."""
        return self._path

    def get_source_stamp(self) -> str:
        """The digest of the package's sources (numba reloads when it differs)."""
        return source_digest()

    def get_disambiguator(self) -> str:
        """Tells apart functions of one name in a file (as numba's own locators do)."""
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> PackageCacheLocator | None:
        """A locator for a function of this package; ``None`` for any other (numba
        then asks its own locators), or when the cache directory cannot be written
        (the kernel is then cached where numba would have put it)."""
        if Path(py_file).resolve().parent != PACKAGE_DIR:
            return None
        self = cls(py_func, py_file)
        try:
            self.ensure_cache_path()  # type: ignore[no-untyped-call]
        except OSError:
            return None
        return self


# numba asks its locator classes in order; ours goes first (numba < 0.61 names the
# class ``_CacheImpl``).
_impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl")  # noqa: B009
if PackageCacheLocator not in _impl._locator_classes:
    _impl._locator_classes.insert(0, PackageCacheLocator)
