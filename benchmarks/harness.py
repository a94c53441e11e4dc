"""Pieces every side-by-side benchmark shares: checking a candidate's answer before timing it."""
from __future__ import annotations

import numpy as np


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
