"""tanh is tp_tanh.h's tp_tanh_f32 / tp_tanh_f64 (branch-free so that loops vectorise), not
libm's scalar tanhf / tanh. float32 (computed in double, rounded once) must be within one
ulp of the correctly rounded tanh everywhere, small and subnormal arguments, the switch
points of its range reduction, the saturation to +-1, signed zeros, infinities and NaN
included; and within one ulp of NumPy's float32 tanh. (tools/check_tanh_accuracy.py runs
the same comparison on 1e7 values, and against glibc.)

The reference is tanh in x86's 80-bit long double rounded to float32: its error is far below
a float's half ulp, so it is the correctly rounded result except at ties too close to see."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp

from conftest import assert_same, ulp_distance

LONG_DOUBLE_IS_EXTENDED = np.finfo(np.longdouble).nmant >= 63
TINY = np.finfo(np.float32).smallest_subnormal

SPECIAL = [0.0, -0.0, TINY, -TINY, 1e-38, -1e-38, 1e-20, 0.5, -0.5, 1.0, 9.01, 9.02, -9.02,
           19.99, 20.0, 20.01, 88.0, np.finfo(np.float32).max, -np.finfo(np.float32).max,
           np.inf, -np.inf, np.nan]


def _sweep():
    rng = np.random.default_rng(18)
    bits = rng.integers(0, 2 ** 32, 200_000, dtype=np.uint64).astype(np.uint32).view(np.float32)
    return np.concatenate([np.concatenate([
        np.array(SPECIAL),
        rng.uniform(-10.0, 10.0, 200_000),                     # where tanh is not +-1
        np.exp(rng.uniform(np.log(1e-40), 0.0, 100_000)),      # small arguments
        # 2|x| near multiples of ln 2 / 2, where the reduction's k switches
        (np.arange(-60, 61) * np.log(2) / 4)[:, None] * np.array([1 - 1e-6, 1, 1 + 1e-6]),
    ], axis=None).astype(np.float32), bits])   # the bit patterns: every magnitude, NaNs


@pytest.fixture(scope="module")
def computed():
    x = _sweep()
    assert "tp_tanh_f32(" in tp.jit(tnp.tanh).lower(x).source
    return x, tp.jit(tnp.tanh)(x)


@pytest.mark.skipif(not LONG_DOUBLE_IS_EXTENDED, reason="needs an 80-bit long double reference")
def test_within_one_ulp_of_the_correctly_rounded_tanh(computed):
    x, got = computed
    with np.errstate(invalid="ignore"):
        nearest = np.tanh(x.astype(np.longdouble)).astype(np.float32)
    assert got.dtype == np.float32
    assert ulp_distance(got, nearest).max() <= 1
    # in practice every sampled value is the correctly rounded one (0 of 1e7 were not)
    assert (ulp_distance(got, nearest) != 0).mean() < 1e-4


def test_within_one_ulp_of_numpy_and_exact_at_special_values(computed):
    x, got = computed
    assert_same(got, np.tanh(x), max_ulp=1, what="tanh f32")
    special = np.array([0.0, -0.0, np.inf, -np.inf, 20.0, -30.0, np.nan], np.float32)
    result = tp.jit(tnp.tanh)(special)
    np.testing.assert_array_equal(result, np.tanh(special))
    assert list(np.signbit(result[:2])) == [False, True]


# -- float64: a series below 1/4, 1 - 2 / (exp(2|x|) + 1) in double-double above ----------

SPECIAL_64 = [0.0, -0.0, 5e-324, -5e-324, 1e-300, 1e-8, 0.25, np.nextafter(0.25, 0), -0.25,
              0.5, 0.5493061443340549, 1.0, 19.06, 22.0, 23.0, 710.0, np.finfo(np.float64).max,
              np.inf, -np.inf, np.nan]


@pytest.fixture(scope="module")
def computed64():
    rng = np.random.default_rng(19)
    bits = rng.integers(0, 2 ** 63, 100_000, dtype=np.int64).view(np.float64)
    x = np.concatenate([np.array(SPECIAL_64), bits, -bits[:50_000],
                        rng.uniform(-20.0, 20.0, 200_000),
                        rng.uniform(0.2, 0.6, 100_000),          # both formulas, the 1/2 binade
                        np.exp(rng.uniform(np.log(1e-300), 0.0, 100_000))])
    assert "tp_tanh_f64(" in tp.jit(tnp.tanh).lower(x).source
    return x, tp.jit(tnp.tanh)(x)


@pytest.mark.skipif(not LONG_DOUBLE_IS_EXTENDED, reason="needs an 80-bit long double reference")
def test_float64_within_one_ulp_of_the_correctly_rounded_tanh(computed64):
    x, got = computed64
    finite = ~np.isnan(x)
    exact = np.tanh(x[finite].astype(np.longdouble))
    spacing = np.spacing(np.abs(exact.astype(np.float64))).astype(np.longdouble)
    error = np.abs(got[finite].astype(np.longdouble) - exact) / spacing
    worst = int(np.argmax(error))
    assert error[worst] < 1.0, f"tanh({x[finite][worst]!r}) = {got[finite][worst]!r}: " \
                               f"{float(error[worst]):.3f} ulp from {exact[worst]!r}"


def test_float64_within_one_ulp_of_numpy_and_exact_at_special_values(computed64):
    x, got = computed64
    assert_same(got, np.tanh(x), max_ulp=2, what="tanh f64")    # glibc's own error: 2 ulp
    special = np.array([0.0, -0.0, np.inf, -np.inf, 22.0, -710.0, 5e-324, np.nan])
    result = tp.jit(tnp.tanh)(special)
    np.testing.assert_array_equal(result, np.tanh(special))
    assert list(np.signbit(result[:2])) == [False, True]
