#!/usr/bin/env python3
"""Make the solver tables that ship with the package (``src/yatzy/solver/shipped/``).

A fresh install would otherwise compile numba's solve kernel and solve before its
first exact move, hint or analysis (about 11 s on an idle 2-core machine, a minute
under load: issue 24).  The start page's whole-game tables that compress to a few
megabytes ship instead (:data:`yatzy.solver.cache.SHIPPED_SPECS`);
:mod:`yatzy.solver.cache` unpacks one into the user's cache the first time it is
asked for.

Each table is solved afresh (never taken from a cache), saved as ``.npy``, compressed
with lzma at its strongest preset, and described by a ``.json`` holding its key.  The
key's fingerprint holds the solve kernels' sources, so after a change to them the
shipped tables are no longer used and ``tests/solver/test_shipped_tables.py`` fails
until this script is run again.

Run: ``.venv/bin/python scripts/ship_tables.py [--check]`` (``--check``: only say
whether every shipped table is current; exit 1 when one is not).
"""

from __future__ import annotations

import argparse
import io
import json
import lzma
import sys
from typing import Any

import numpy as np

from yatzy.rules import RuleSet
from yatzy.solver import DType, Solver, cache, whole_table_key

DTYPE: DType = "float32"  # the front ends' tables


def key_of(spec: str) -> dict[str, Any]:
    """The cache key of the whole-game table of ``spec`` as the solver makes it now."""
    return whole_table_key(RuleSet.parse(spec), DTYPE)


def current(spec: str) -> bool:
    """Whether the shipped table of ``spec`` is there under its current key (whatever
    :data:`yatzy.solver.cache.SHIPPED_ENV` says)."""
    return cache.shipped(key_of(spec), honour_env=False) is not None


def ship(spec: str) -> int:
    """Solve ``spec`` afresh and write its shipped files; the compressed size."""
    solver = Solver(spec, dtype=DTYPE, use_cache=False)
    key = key_of(spec)
    packed_path, meta_path = cache.shipped_paths(key)
    raw = io.BytesIO()
    np.save(raw, np.ascontiguousarray(solver.table), allow_pickle=False)
    packed = lzma.compress(raw.getvalue(), preset=9 | lzma.PRESET_EXTREME)
    cache.SHIPPED_DIR.mkdir(exist_ok=True)
    packed_path.write_bytes(packed)
    meta = {"key": key, "shape": list(solver.table.shape), "expected": solver.expected_score}
    meta_path.write_text(json.dumps(meta, indent=1) + "\n")
    return len(packed)


def main() -> int:
    """Write (or ``--check``) every shipped table; remove the files of older keys."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check; exit 1 if stale")
    args = parser.parse_args()
    if args.check:
        stale = [s for s in cache.SHIPPED_SPECS if not current(s)]
        for spec in stale:
            print(f"stale or missing: {spec} (run scripts/ship_tables.py)")
        return 1 if stale else 0
    wanted = set()
    for spec in cache.SHIPPED_SPECS:
        size = ship(spec)
        wanted |= {p.name for p in cache.shipped_paths(key_of(spec))}
        print(f"{spec}: {size / 1e6:.2f} MB")
    for old in cache.SHIPPED_DIR.iterdir():
        if old.name not in wanted:
            old.unlink()
            print(f"removed {old.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
