"""Pieces every side-by-side benchmark shares: fair thread settings for NumPy's BLAS, and
checking a candidate's answer before timing it. Import this before NumPy."""
from __future__ import annotations

import os

# After each call OpenBLAS's worker threads spin for 2^28 cycles (~0.1 s) waiting for more work.
# In interleaved samples that spinning thread holds the second core while the next library
# runs: transpile's two-thread 512^2 GEMM measured 0.44x NumPy interleaved and 1.0x with this.
# 2^4 cycles makes OpenBLAS's threads sleep at once, as transpile's do (OMP_WAIT_POLICY
# passive); NumPy's own timings were unchanged by it (1.28 ms before, 1.30 ms after).
# It must be set before NumPy loads OpenBLAS, which reads it once.
os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", "4")

import numpy as np  # noqa: E402  (after the variable above)


def check(result, expected, rtol: float) -> None:
    np.testing.assert_allclose(np.asarray(result, dtype=np.float64),
                               np.asarray(expected, dtype=np.float64), rtol=rtol, atol=rtol)


def prepare(make_call, expected, case):
    """A warmed-up, checked zero-argument call, or a short string saying why there is none."""
    try:
        call = make_call()
        check(call(), expected, case["rtol"])       # the first call also compiles
    except Exception as err:                        # one failing column must not stop the run
        return f"error: {type(err).__name__}: {str(err)[:60]}"
    return call
