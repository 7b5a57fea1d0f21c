"""Tests of the numba kernel package (yatzy.kernels)."""
