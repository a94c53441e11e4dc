"""float64 exp is transpile.h's tp_exp (a branch-free function loops vectorise), not libm's:
it must stay within one ulp of the correctly rounded exp over the whole range, subnormal
results, overflow, zeros, infinities and NaN included, and within one ulp of NumPy.

The reference is exp in x86's 80-bit long double (64-bit significand): its error is far below
a double's half ulp, so |got - reference| < 1 double ulp means `got` is one of the two doubles
around the true value, i.e. at most one ulp from the correctly rounded result."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp

from conftest import assert_same, ulp_distance

LONG_DOUBLE_IS_EXTENDED = np.finfo(np.longdouble).nmant >= 63

LN_MAX = 709.782712893383973096      # largest x whose exp is finite
SUBNORMAL_START = -708.3964185322641  # exp(x) < 2^-1022 below this

SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1e-300, -1e-300, 5e-324, -5e-324, 1e-17, -1e-17,
           np.log(2) / 2, -np.log(2) / 2, LN_MAX, np.nextafter(LN_MAX, np.inf), 710.0, 1000.0,
           -745.1332191019411, -745.1332191019412, -745.0, -746.0, -746.5, -1000.0,
           SUBNORMAL_START, np.nextafter(SUBNORMAL_START, 0), np.inf, -np.inf, np.nan]


def _sweep():
    rng = np.random.default_rng(8)
    return np.concatenate([
        np.array(SPECIAL),
        rng.uniform(-746.0, 710.0, 400_000),             # the whole finite range
        rng.uniform(-745.2, SUBNORMAL_START, 100_000),   # subnormal results
        rng.uniform(-1.0, 1.0, 100_000),                 # near 1
        rng.uniform(-1e-6, 1e-6, 20_000),
        rng.uniform(LN_MAX - 0.1, LN_MAX + 0.1, 20_000),  # the overflow edge
        # near multiples of ln 2 / 2, where the reduction switches k
        (np.arange(-2100, 2100) * np.log(2) / 2)[:, None] + np.array([-1e-12, 0, 1e-12]),
    ], axis=None)


@pytest.fixture(scope="module")
def computed():
    x = _sweep()
    got = tp.jit(tnp.exp)(x)
    assert "tp_exp(" in tp.jit(tnp.exp).lower(x).source
    return x, got


@pytest.mark.skipif(not LONG_DOUBLE_IS_EXTENDED, reason="needs an 80-bit long double reference")
def test_within_one_ulp_of_the_correctly_rounded_exp(computed):
    x, got = computed
    with np.errstate(over="ignore", under="ignore"):
        exact = np.exp(x.astype(np.longdouble))
        nearest = exact.astype(np.float64)
    finite = np.isfinite(nearest)
    spacing = np.spacing(np.abs(nearest[finite])).astype(np.longdouble)
    error = np.abs(got[finite].astype(np.longdouble) - exact[finite]) / spacing
    worst = int(np.argmax(error))
    assert error[worst] < 1.0, f"exp({x[finite][worst]!r}) = {got[finite][worst]!r}, " \
                               f"{float(error[worst]):.3f} ulp from {exact[finite][worst]!r}"
    assert ulp_distance(got, nearest).max() <= 1
    np.testing.assert_array_equal(got[~finite], nearest[~finite])   # overflow to inf; NaN


EXACT = [0.0, -0.0, np.inf, -np.inf, 710.0, 1000.0, -746.0, -746.5, -1000.0, np.nan]


def test_within_one_ulp_of_numpy_and_exact_at_special_values(computed):
    x, got = computed
    with np.errstate(over="ignore"):
        assert_same(got, np.exp(x), max_ulp=1, what="exp f64")
        exact = tp.jit(tnp.exp)(np.array(EXACT))
        assert_same(exact, np.exp(np.array(EXACT)), what="exp at 0, inf, overflow, underflow")
