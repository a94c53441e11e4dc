"""gcd and lcm against NumPy over every integer dtype's whole range, extremes included,
eager and compiled.

Euclid's algorithm ran on |x| in the signed dtype, where |int16 min| is still -32768 and
every remainder stays negative: gcd(-32768, 8) was -8 (NumPy: 8). JAX 0.10.2's own gcd
does not finish on that input.
"""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp

DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


def _pairs(dt):
    info = np.iinfo(dt)
    rng = np.random.default_rng(3)
    a = rng.integers(info.min, info.max, 64, dtype=dt, endpoint=True)
    b = rng.integers(info.min, info.max, 64, dtype=dt, endpoint=True)
    edges = [(info.min, 8), (info.min, info.min), (0, 0), (info.max, info.min), (0, 12),
             (info.max, info.max), (12, 18)]
    a[:len(edges)], b[:len(edges)] = zip(*edges)
    return a, b


@pytest.mark.parametrize("dt", DTYPES, ids=lambda d: np.dtype(d).name)
def test_gcd_matches_numpy(dt):
    a, b = _pairs(dt)
    want = np.gcd(a, b)
    np.testing.assert_array_equal(np.asarray(tnp.gcd(a, b)), want)
    compiled = np.asarray(tp.jit(tnp.gcd)(a, b))
    np.testing.assert_array_equal(compiled, want)
    assert compiled.dtype == want.dtype


@pytest.mark.parametrize("dt", [np.int16, np.uint32], ids=lambda d: np.dtype(d).name)
def test_lcm_matches_numpy_where_it_fits(dt):
    a, b = (x % 1000 for x in _pairs(dt))
    np.testing.assert_array_equal(np.asarray(tp.jit(tnp.lcm)(a, b)), np.lcm(a, b))


def test_a_function_of_python_scalars_promotes_as_in_the_ufuncs():
    """NumPy mode: tnp.abs(-6) is a strong int64 (np.abs(-6) is), so gcd with uint8 is
    int64, and fmod of tnp.sqrt(-3) with float32 is float64, under jit as eagerly (fuzz seed
    530100: fmod gave float32 under jit)."""
    u, x = np.array([4, 6], np.uint8), np.ones(3, np.float32)
    assert tp.jit(lambda u: tnp.gcd(tnp.abs(-6), u))(u).dtype == np.gcd(np.abs(-6), u).dtype
    assert tp.jit(lambda u: tnp.gcd(u, 4))(u).dtype == np.uint8
    with np.errstate(invalid="ignore"):
        want = np.fmod(np.sqrt(np.float64(-3)), x).dtype
        assert tp.jit(lambda x: tnp.fmod(tnp.sqrt(-3), x))(x).dtype == want == np.float64
    assert tp.jit(lambda x: tnp.fmod(x, 2.5))(x).dtype == np.float32
