"""Float `%` and `//` bit-exact against NumPy, on the operands where a fast remainder breaks.

The runtime computes fmod as a - b*trunc(a/b) where that is exact and calls libm elsewhere:
the cases that matter are quotients just below an integer (the rounded quotient overshoots),
quotients near the exactness limits (2^29 for float32, 2^52 for float64), huge quotients
(libm), subnormals, signed zeros, infinities and NaN.
"""
import warnings

import numpy as np
import pytest

import transpile as tp
from conftest import FLOATS, assert_same, edge_values


def hard_operand_pairs(dtype, rng):
    """Pairs (a, b) of `dtype` covering every path of the remainder, as two flat arrays."""
    finfo = np.finfo(dtype)
    edges = edge_values(dtype)
    a_edge, b_edge = (g.ravel() for g in np.meshgrid(edges, edges))
    n = 4000
    # Magnitudes spread over the whole exponent range: quotients from tiny to 2^250 and more.
    exponents = rng.uniform(finfo.minexp, finfo.maxexp - 1, size=(2, n))
    signs = rng.choice([-1.0, 1.0], size=(2, n))
    a_wide, b_wide = (signs * rng.uniform(1, 2, size=(2, n)) * 2.0 ** exponents).astype(dtype)
    # Quotients near the fast path's limits and just below/above integers.
    b_near = rng.uniform(0.5, 3, size=n).astype(dtype) * rng.choice([-1, 1], size=n).astype(dtype)
    limit = 2.0 ** (29 if dtype == np.float32 else 52)
    k = np.concatenate([rng.integers(1, 1000, n // 2),
                        (limit * rng.choice([0.5, 1, 2], n - n // 2)).astype(np.int64)])
    a_near = (k * b_near.astype(np.float64)).astype(dtype)
    ulps = rng.integers(-3, 4, size=n)
    a_near = np.where(ulps == 0, a_near, a_near + ulps * np.spacing(a_near)).astype(dtype)
    a = np.concatenate([a_edge, a_wide, a_near, -a_near]).astype(dtype)
    b = np.concatenate([b_edge, b_wide, b_near, b_near]).astype(dtype)
    return a, b


@pytest.mark.parametrize("dtype", FLOATS)
def test_remainder_and_floor_divide_match_numpy_bit_for_bit(dtype):
    a, b = hard_operand_pairs(dtype, np.random.default_rng(23))
    got_rem, got_div = tp.jit(lambda x, y: (x % y, x // y))(a, b)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want_rem, want_div = a % b, a // b
    assert_same(got_rem, want_rem, what=f"{dtype} remainder")
    assert_same(got_div, want_div, what=f"{dtype} floor_divide")


@pytest.mark.parametrize("dtype", FLOATS)
def test_a_quotient_just_below_an_integer_keeps_the_remainder_in_range(dtype):
    # a / b rounds up to 3 although the true quotient is below it: a naive a - 3*b
    # would come out negative.
    b = np.array([0.1, -0.1, 0.7, -0.7], dtype=dtype)
    a = np.nextafter((3 * b.astype(np.float64)).astype(dtype), dtype.type(0))
    got = tp.jit(lambda x, y: x % y)(a, b)
    assert_same(got, a % b, what=f"{dtype} near-integer quotient")
    assert ((got >= 0) == (b > 0)).all()
