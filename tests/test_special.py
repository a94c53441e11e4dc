"""lax.erf, erfc, erf_inv, lgamma, bitcast_convert_type and the transpile.scipy.special
aliases: values against Python's math (and mpmath for erf_inv when it is installed), edge
values, dtype rules; compiled (twice), eager and interpreted agree."""
from __future__ import annotations

import math

import numpy as np
import pytest

import transpile as tp
import transpile.scipy.special as sp
from transpile import lax

EDGES = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 2.5, -3.75, 10.0, -10.0, 30.0, 1e-300, 1e-8,
         float("inf"), float("-inf"), float("nan")]


def _rng():
    return np.random.default_rng(11)      # per test: the same values in any test order


def _inputs(dtype):
    return np.concatenate([np.array(EDGES), _rng().normal(0, 3, 40)]).astype(dtype)


def _all_ways(fn, *args):
    outs = [np.asarray(fn(*args))]
    for backend in ("cpu", "interpret"):
        f = tp.jit(fn, backend=backend)
        f(*args)
        outs.append(np.asarray(f(*args)))
    return outs


def _check_ulps(got, want, dtype, limit):
    got, want = np.asarray(got), np.asarray(want, np.float64)
    assert got.dtype == dtype and got.shape == want.shape
    same_special = (np.isnan(got) & np.isnan(want)) | (got == want)
    both = ~same_special
    assert np.all(np.isfinite(want[both])), (got[both], want[both])
    ulps = np.abs(got[both] - want[both]) / np.spacing(np.abs(want[both]).astype(dtype))
    assert ulps.size == 0 or ulps.max() <= limit, (ulps.max(), got[both], want[both])
    # Signs of zero match too (erf(-0.0) is -0.0).
    zeros = want == 0
    np.testing.assert_array_equal(np.signbit(got[zeros]), np.signbit(want[zeros]))


def _lgamma(x):
    try:
        return math.lgamma(x)
    except ValueError:
        return math.inf


REFERENCE = {lax.erf: math.erf, lax.erfc: math.erfc, lax.lgamma: _lgamma}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("fn", [lax.erf, lax.erfc, lax.lgamma], ids=lambda f: f.__name__)
def test_against_math(fn, dtype):
    x = _inputs(dtype)
    want = np.array([REFERENCE[fn](float(v)) for v in x])
    for got in _all_ways(fn, x):
        if fn is lax.lgamma:
            # CPython's own lgamma is off by up to ~1e-13 (test_lgamma_accuracy checks ours
            # against mpmath); near lgamma's zeros at 1 and 2 compare absolute errors.
            np.testing.assert_allclose(got, want, rtol=1e-12 if dtype == np.float64 else 2e-6,
                                       atol=1e-6)
        else:
            _check_ulps(got, want, np.dtype(dtype), 2)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_lgamma_accuracy(dtype):
    mpmath = pytest.importorskip("mpmath", reason="mpmath gives lgamma's exact values")
    mpmath.mp.dps = 40
    x = _rng().normal(0, 6, 200).astype(dtype)
    want = np.array([float(mpmath.log(abs(mpmath.gamma(float(v))))) for v in x])
    keep = np.abs(want) > 1e-2       # relative error is unbounded at lgamma's zeros
    for got in _all_ways(lax.lgamma, x):
        _check_ulps(got[keep], want[keep], np.dtype(dtype), 4)


def test_lgamma_edges():
    x = np.array([0.0, -0.0, -1.0, -2.0, 1.0, 2.0, -0.5, np.inf, -np.inf, np.nan])
    want = [np.inf, np.inf, np.inf, np.inf, 0.0, 0.0, math.log(2 * math.sqrt(math.pi)),
            np.inf, np.inf, np.nan]
    for got in _all_ways(lax.lgamma, x):
        np.testing.assert_allclose(got, want, rtol=1e-15)


def _erf_inv_reference(y):
    mpmath = pytest.importorskip("mpmath", reason="mpmath gives erf_inv's exact values")
    mpmath.mp.dps = 40
    return np.array([float(mpmath.erfinv(mpmath.mpf(float(v)))) for v in y])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_erf_inv_accuracy(dtype):
    tiny = np.finfo(dtype).tiny
    y = np.concatenate([_rng().uniform(-1, 1, 2000), 1 - 2.0 ** -np.arange(1, 53, 3),
                        -(1 - 2.0 ** -np.arange(2, 53, 5)), [0.5, -0.5, 1e-6, tiny]])
    y = y.astype(dtype)
    y = y[np.abs(y) < 1]
    want = _erf_inv_reference(y)
    for got in _all_ways(lax.erf_inv, y):
        _check_ulps(got, want, np.dtype(dtype), 2)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_erf_inv_edges_and_round_trip(dtype):
    x = np.array([1.0, -1.0, 0.0, -0.0, 1.5, -2.0, np.inf, np.nan], dtype)
    for got in _all_ways(lax.erf_inv, x):
        np.testing.assert_array_equal(got, np.array([np.inf, -np.inf, 0, 0, np.nan, np.nan,
                                                     np.nan, np.nan], dtype))
        assert np.signbit(got[3]) and not np.signbit(got[2])
    y = np.linspace(-0.999, 0.999, 101)
    back = np.array([math.erf(v) for v in tp.jit(lax.erf_inv)(y)])
    np.testing.assert_allclose(back, y, rtol=0, atol=4e-16)


def test_float_operands_only_and_dtypes():
    for fn in (lax.erf, lax.erfc, lax.erf_inv, lax.lgamma):
        with pytest.raises(TypeError, match="floating-point"):
            fn(np.arange(3))
        with pytest.raises(TypeError, match="floating-point"):
            tp.jit(fn)(np.arange(3))
        assert fn(np.float32(0.5)).dtype == np.float32
        assert tp.jit(fn)(0.5).dtype == np.float64
        assert fn(np.zeros((0, 2))).shape == (0, 2)


def test_scipy_special_aliases_promote_integers():
    x = np.arange(1, 5)
    np.testing.assert_allclose(sp.gammaln(x), [0.0, 0.0, math.log(2), math.log(6)],
                               atol=1e-15)
    assert sp.erf(x).dtype == np.float64 and sp.erf(np.float32(1)).dtype == np.float32
    np.testing.assert_allclose(tp.jit(sp.erfinv)(np.array([0.0, 0.5])),
                               [0.0, 0.4769362762044699], rtol=1e-15)
    np.testing.assert_allclose(sp.erfc(True), math.erfc(1.0))


def test_inside_an_interchanged_loop():
    def f(x):
        return lax.fori_loop(0, 3, lambda i, c: lax.erf(c) + lax.lgamma(c + 2.0), x)
    x = np.linspace(0.1, 2.0, 8)
    want = x
    for _ in range(3):
        want = np.array([math.erf(v) + math.lgamma(v + 2.0) for v in want])
    for got in _all_ways(f, x):
        np.testing.assert_allclose(got, want, rtol=1e-14)


BITCASTS = [(np.float32, np.uint32), (np.float32, np.int32), (np.uint32, np.float32),
            (np.int32, np.float32), (np.float64, np.uint64), (np.float64, np.int64),
            (np.uint64, np.float64), (np.int64, np.float64), (np.uint32, np.int32),
            (np.int64, np.uint64), (np.uint8, np.int8), (np.int16, np.uint16)]


@pytest.mark.parametrize("src,dst", BITCASTS, ids=lambda t: np.dtype(t).name)
def test_bitcast_convert_type(src, dst):
    raw = _rng().integers(0, 256, size=16 * np.dtype(src).itemsize, dtype=np.uint8)
    x = raw.view(src)
    if np.dtype(src).kind == "f":
        x = np.concatenate([x, np.array([0.0, -0.0, np.inf, -np.inf, np.nan], src)])
    for got in _all_ways(lambda v: lax.bitcast_convert_type(v, dst), x):
        assert got.dtype == dst
        np.testing.assert_array_equal(got.view(np.uint8), x.view(np.uint8))
    assert tp.jit(lambda v: lax.bitcast_convert_type(v, dst))(x[0]).shape == ()


def test_bitcast_between_widths_joins_or_splits_the_last_axis():
    pair = np.array([1.5, -2.0], np.float32)
    np.testing.assert_array_equal(lax.bitcast_convert_type(pair, np.float64),
                                  pair.view(np.float64)[0])
    np.testing.assert_array_equal(
        tp.jit(lambda v: lax.bitcast_convert_type(v, np.int16))(pair),
        pair.view(np.int16).reshape(2, 2))
    with pytest.raises(ValueError, match="3 \\* 32 != 64"):
        tp.jit(lambda v: lax.bitcast_convert_type(v, np.int64))(np.zeros(3, np.int32))
    with pytest.raises(TypeError, match="width"):
        lax.bitcast_convert_type(np.zeros(2, np.complex64), np.float32)


# digamma at these points, from mpmath at 40 digits (rounded to float64).
DIGAMMA_MPMATH = [
    (-48.99987977613547, -8313.913750732609), (-3.7, -0.8450768588704194),
    (-0.5, 0.03648997397857652), (-1e-07, 9999999.42278417), (1e-05, -100000.57719921567),
    (0.25, -4.2274535333762655), (1.0, -0.5772156649015329),
    (1.4616321449683622, -9.241265521729427e-17), (2.5, 0.7031566406452432),
    (7.3, 1.9178203356379862), (9.99, 2.250700372831201), (10.0, 2.251752589066721),
    (123.456, 4.811829323828985), (1e+17, 39.14394658089878)]


def test_digamma_against_mpmath_and_scipy_edges():
    x = np.array([p for p, _ in DIGAMMA_MPMATH])
    want = np.array([v for _, v in DIGAMMA_MPMATH])
    for got in _all_ways(lax.digamma, x):
        # Relative to max(|psi|, 1): absolute near the root at 1.4616...
        err = np.abs(got - want) / np.maximum(np.abs(want), 1)
        assert got.dtype == np.float64 and err.max() < 4e-15, (err.max(), x[err.argmax()])
    x32 = x.astype(np.float32)
    want32 = sp.digamma(x32.astype(np.float64)).astype(np.float32)   # checked just above
    for got in _all_ways(lax.digamma, x32):
        assert got.dtype == np.float32
        assert np.all(np.abs(got - want32) <= np.spacing(np.abs(want32))), (got, want32)
    for dtype in (np.float32, np.float64):                 # SciPy's poles and infinities
        edges = np.array([0.0, -0.0, -1.0, -2.0, np.inf, -np.inf, np.nan], dtype)
        for got in _all_ways(sp.digamma, edges):
            np.testing.assert_array_equal(got, np.array([-np.inf, np.inf, np.nan, np.nan,
                                                         np.inf, np.nan, np.nan], dtype))


def test_digamma_recurrence_and_integer_promotion():
    x = np.linspace(-20.3, 30.7, 100)           # no integers (the poles)
    for diff in _all_ways(lambda a: sp.digamma(a + 1) - sp.psi(a), x):
        np.testing.assert_allclose(diff, 1 / x, rtol=1e-12, atol=1e-12)
    for got in _all_ways(sp.digamma, np.array([1, 2, 3], np.int32)):
        assert got.dtype == np.float64
        np.testing.assert_allclose(got, [-0.5772156649015329, 0.42278433509846713,
                                         0.9227843350984671], rtol=1e-15)
    with pytest.raises(TypeError):
        lax.digamma(np.array([1, 2]))               # lax: float operands only, as JAX
