"""Pieces every side-by-side benchmark shares: checking a candidate's answer before timing it,
and keeping one library's idle threads from skewing the next library's sample."""
from __future__ import annotations

import time

import numpy as np

# After a call OpenBLAS's worker threads spin for 2^28 cycles (~0.1 s) waiting for more work
# (XLA's do too). Timed right after, the next library runs while that thread holds the second
# core: interleaved, transpile's two-thread 512^2 GEMM measured 0.44x NumPy; alone, 1.0x.
# Making OpenBLAS's threads sleep at once (OPENBLAS_THREAD_TIMEOUT=4) cured that but slowed
# NumPy's small products 20x (an MLP of 256x784 sgemms: 0.7 -> 16 ms), and an idle pause
# instead let the CPU drop its clock. So before each sample a side runs its own call, untimed,
# until the other side's threads have gone to sleep, as they would in a program of its own.
SETTLE_SECONDS = 0.15


def settle(call) -> None:
    """Run `call` untimed for SETTLE_SECONDS (at least once) before timing it."""
    end = time.perf_counter() + SETTLE_SECONDS
    call()
    while time.perf_counter() < end:
        call()


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
