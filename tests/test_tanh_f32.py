"""float32 tanh is tp_tanh.h's tp_tanh_f32 (computed in double, rounded once, branch-free so
that loops vectorise), not libm's scalar tanhf: it must be within one ulp of the correctly
rounded tanh everywhere, small and subnormal arguments, the switch points of its range
reduction, the saturation to +-1, signed zeros, infinities and NaN included; and within one ulp
of NumPy's float32 tanh. (tools/check_tanh_accuracy.py runs the same comparison on 1e7
values and against glibc.)

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
