"""`where=`/`initial=` on reductions, linspace with traced endpoints, mgrid/ogrid and
interp against NumPy: values and dtypes, compiled (called twice), interpreted, eager."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp

RNG = np.random.default_rng(13)


def _all_ways(fn, *args):
    out = []
    for backend in ("cpu", "interpret"):
        f = tp.jit(fn, backend=backend)
        f(*args)
        out.append(f(*args))
    out.append(fn(*args))
    return out


def _check(got, want):
    for g, w in zip(got, want):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, w.dtype, g.shape, w.shape)
        np.testing.assert_allclose(g, w, rtol=1e-6, equal_nan=True)


def _reductions(lib, x, m):
    return (lib.sum(x, where=m), lib.sum(x, axis=1, where=m, keepdims=True, initial=2),
            lib.mean(x, axis=1, where=m), lib.mean(x, where=m[0]),
            lib.max(x, axis=0, where=m, initial=0), lib.min(x, initial=1),
            lib.min(x, axis=1, where=m, initial=50), lib.all(x > -2, where=m),
            lib.any(x > 2, axis=1, where=m), lib.prod(x, axis=0, where=m),
            lib.max(x[:0], axis=0, initial=7), x.sum(axis=0, where=m))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.uint8])
def test_where_and_initial_on_reductions(dtype):
    x = RNG.integers(0, 5, (3, 4)).astype(dtype)
    m = RNG.integers(0, 2, (3, 4)).astype(bool)
    m[2] = False                                  # an empty row: mean gives NaN
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)      # NumPy: mean of an empty row
        want = _reductions(np, x, m)
    with np.errstate(invalid="ignore"):
        for got in _all_ways(lambda x, m: _reductions(tnp, x, m), x, m):
            _check(got, want)
    with pytest.raises(ValueError, match="initial"):
        tp.jit(lambda x, m: tnp.max(x, where=m))(x, m)


def test_masked_mean_counts_the_mask_without_a_constant_of_ones():
    """mean(where=) once captured np.ones(x.shape) as a constant: an array as large as x,
    read from memory on every call (NPBench's azimint_naive: 3.2 MB a ring)."""
    x = RNG.random(1000)
    m = x > 0.3
    f = tp.jit(lambda x, m: tnp.mean(x, where=m))
    program = f.lower(x, m)._prepared.program
    assert not [b for b in program.inputs if b.role == "const" and b.size > 1]
    np.testing.assert_allclose(f(x, m), np.mean(x, where=m), rtol=1e-13)
    np.testing.assert_allclose(f(x, m & False), np.nan, equal_nan=True)


def _spaces(lib, a, b):
    return (lib.linspace(a, b, 7), lib.linspace(a, b, 5, endpoint=False),
            lib.linspace(a, b, 1), lib.linspace(a, b, 0), lib.linspace(a, a, 3),
            lib.linspace(a, b, 6, dtype=np.int64), lib.linspace(a, b, 4, retstep=True)[1])


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
def test_linspace_with_traced_endpoints(dtype):
    a, b = np.asarray(1, dtype), np.asarray(9, dtype)
    want = _spaces(np, a, b)
    for got in _all_ways(lambda a, b: _spaces(tnp, a, b), a, b):
        _check(got, want)
    starts = np.array([0.0, 1.0, 2.5])
    for got in _all_ways(lambda s, b: tnp.linspace(s, b, 4, axis=1), starts, b):
        _check([got], [np.linspace(starts, b, 4, axis=1)])
    with pytest.raises(TypeError, match="num"):
        tp.jit(lambda a, n: tnp.linspace(a, 1.0, n))(1.0, 3)


def test_mgrid_ogrid_match_numpy():
    _check(tnp.mgrid[0:3, 1:5:2], np.mgrid[0:3, 1:5:2])
    _check(tnp.mgrid[0:1:5j], np.mgrid[0:1:5j])
    _check(tnp.ogrid[0:3, 0:4], np.ogrid[0:3, 0:4])
    for got in _all_ways(lambda x: x + tnp.mgrid[0:2, 0:3][0], np.ones((2, 3))):
        _check([got], [np.ones((2, 3)) + np.mgrid[0:2, 0:3][0]])


XP = np.array([0.0, 1.0, 2.5, 4.0])
FP = np.array([1.0, -1.0, 3.0, 0.0])


@pytest.mark.parametrize("kwargs", [{}, {"left": -9.0, "right": 9.0}, {"period": 3.0}])
def test_interp_matches_numpy(kwargs):
    x = np.array([-1.0, 0.0, 0.5, 1.0, 2.0, 2.5, 3.9, 4.0, 5.0, np.nan, 7.5])
    want = np.interp(x, XP, FP, **kwargs)
    for got in _all_ways(lambda x: tnp.interp(x, XP, FP, **kwargs), x):
        _check([got], [want])
    x32 = x.astype(np.float32)
    for got in _all_ways(lambda x: tnp.interp(x, XP, FP, **kwargs), x32):
        _check([got], [np.interp(x32, XP, FP, **kwargs)])
    _check([tnp.interp(2.0, XP, FP)], [np.interp(2.0, XP, FP)])
    with pytest.raises(ValueError, match=r"\(4,\) and \(3,\)"):
        tnp.interp(x, XP, FP[:3])
