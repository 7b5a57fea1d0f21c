"""The solve kernel as a C function of one argument, for native loading.

:func:`native_entry` wraps :func:`yatzy.kernels.solve.solve_masks` in a numba
``cfunc`` whose one argument lists every array's address and shape, then the
integers; :mod:`yatzy.kernels.native` keeps its machine code for later processes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from yatzy.kernels import jit  # noqa: F401  (numba started in one thread: see jit)

# isort: split
from numba import cfunc, types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.numpy_support import carray

from yatzy.kernels.solve import solve_masks


def _pointer_of(typingctx: Any, address: Any) -> Any:
    """An int64 address as a void pointer (for :func:`numba.carray`)."""
    sig = types.voidptr(types.int64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.inttoptr(args[0], cgutils.voidptr_t)

    return sig, codegen


_pointer: Any = intrinsic(_pointer_of)


def native_entry(dtype: str) -> Any:
    """:func:`solve_masks` as a C function ``void(int64 *words)`` (a numba ``cfunc``,
    compiled now; see :mod:`yatzy.kernels.native`).

    ``words`` describe the arguments in the order of ``native.ARRAYS`` and
    ``native.SCALARS``: each array's address and shape (C-contiguous, with the
    element types listed there; the table and scratch rows in ``dtype``), then the
    integers.
    """
    f = np.float32 if dtype == "float32" else np.float64
    i32 = np.int32
    i64 = np.int64

    @cfunc(types.void(types.CPointer(types.int64)))  # type: ignore[no-untyped-call]
    def entry(words: Any) -> None:
        w = carray(words, (_WORDS,))
        masks = carray(_pointer(w[0]), (w[1],), i64)
        V = carray(_pointer(w[2]), (w[3], w[4], w[5]), f)
        idx_of_mask = carray(_pointer(w[6]), (w[7],), i32)
        allowed = carray(_pointer(w[8]), (w[9],), i64)
        score = carray(_pointer(w[10]), (w[11], w[12]), i32)
        box_face = carray(_pointer(w[13]), (w[14],), i32)
        joker_pts = carray(_pointer(w[15]), (w[16],), i32)
        hi = carray(_pointer(w[17]), (w[18],), i32)
        lo = carray(_pointer(w[19]), (w[20],), i32)
        add = carray(_pointer(w[21]), (w[22], w[23]), i32)
        sub = carray(_pointer(w[24]), (w[25], w[26]), i32)
        nsub = carray(_pointer(w[27]), (w[28],), i32)
        roll_prob = carray(_pointer(w[29]), (w[30],), np.float64)
        yatzy_face = carray(_pointer(w[31]), (w[32],), i32)
        scratch_a = carray(_pointer(w[33]), (w[34], w[35]), f)
        scratch_b = carray(_pointer(w[36]), (w[37], w[38]), f)
        scratch_c = carray(_pointer(w[39]), (w[40], w[41]), f)
        scratch_out = carray(_pointer(w[42]), (w[43], w[44]), np.float64)
        solve_masks(
            masks,
            V,
            idx_of_mask,
            allowed,
            score,
            box_face,
            joker_pts,
            w[45],  # ybox
            w[46],  # joker_mode
            w[47],  # lower_bits
            w[48],  # threshold
            hi,
            lo,
            w[49],  # levels
            w[50],  # saved
            w[51],  # lr_chance
            add,
            sub,
            nsub,
            roll_prob,
            yatzy_face,
            scratch_a,
            scratch_b,
            scratch_c,
            scratch_out,
        )

    return entry


_WORDS = 52  # native.WORDS (that module must not import numba, nor this one it)
