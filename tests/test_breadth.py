"""The jax.numpy surface beyond the core: statistics, cumulative ops, manipulation, matrices
and more math, each checked against NumPy eagerly, under jit (C) and under the interpreter,
for values, dtypes and shapes, over several dtypes and shapes including empty ones."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp

RNG = np.random.default_rng(7)
FLOATS = (np.float32, np.float64)
INTS = (np.int8, np.int32, np.int64, np.uint8, np.uint32)


def _data(shape, dtype, edge=False):
    if np.dtype(dtype) == np.bool_:
        return RNG.random(shape) > 0.5
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        lo, hi = max(info.min, -50), min(info.max, 50)
        return RNG.integers(lo, hi, shape, endpoint=True).astype(dtype)
    x = RNG.standard_normal(shape).astype(dtype) * 3
    if edge and x.size >= 4:
        flat = x.reshape(-1)
        flat[:4] = [np.nan, np.inf, -np.inf, -0.0]
    return x


def _tolerance(dtype):
    return {np.dtype(np.float32): 2e-5, np.dtype(np.float64): 1e-12}.get(np.dtype(dtype), 0)


def _check(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    tol = _tolerance(want.dtype)
    if tol:
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol * 10, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, want)


def _check_all_ways(tfn, nfn, *args):
    """Eager tnp, jit on the C backend (twice), and the interpreter all match NumPy."""
    want = nfn(*args)
    leaves = want if isinstance(want, (list, tuple)) else [want]
    for backend in (None, "cpu", "interpret"):
        if backend is None:
            got = tfn(*args)
        else:
            f = tp.jit(tfn, backend=backend)
            f(*args)
            got = f(*args)
        got = got if isinstance(got, (list, tuple)) else [got]
        assert len(got) == len(leaves)
        for g, w in zip(got, leaves):
            _check(g, w)


# --- statistics -------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS + INTS)
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
@pytest.mark.parametrize("ddof", [0, 1])
def test_var_std(dtype, axis, ddof):
    x = _data((5, 7), dtype)
    _check_all_ways(lambda x: tnp.var(x, axis=axis, ddof=ddof),
                    lambda x: np.var(x, axis=axis, ddof=ddof), x)
    _check_all_ways(lambda x: tnp.std(x, axis=axis, ddof=ddof, keepdims=True),
                    lambda x: np.std(x, axis=axis, ddof=ddof, keepdims=True), x)


def test_var_with_too_large_ddof_is_inf_or_nan_as_numpy():
    x = _data((3,), np.float64)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)    # NumPy's "degrees of freedom <= 0"
        _check_all_ways(lambda x: tnp.var(x, ddof=5), lambda x: np.var(x, ddof=5), x)


@pytest.mark.parametrize("dtype", FLOATS + (np.int32,))
def test_average_with_weights(dtype):
    x, w = _data((4, 6), dtype), _data((6,), np.float32)
    w = np.abs(w) + 1
    _check_all_ways(lambda x, w: tnp.average(x, axis=1, weights=w),
                    lambda x, w: np.average(x, axis=1, weights=w), x, w)
    _check_all_ways(lambda x: tnp.average(x), lambda x: np.average(x), x)


@pytest.mark.parametrize("fn", ["nansum", "nanmean", "nanmax", "nanmin", "nanvar", "nanstd",
                                "nanprod", "nanargmax", "nanargmin"])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_nan_reductions(fn, axis):
    x = _data((6, 5), np.float64, edge=True)
    x[2, :] = np.nan                         # an all-NaN row
    x = np.where(np.isinf(x), 1.5, x)        # keep infinities out of var (inf - inf)
    if fn.startswith("nanarg") and axis == 1:
        x[2, 0] = 0.5                        # NumPy raises on an all-NaN slice for nanarg*
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)    # NumPy's all-NaN slice warnings
        _check_all_ways(lambda x: getattr(tnp, fn)(x, axis=axis),
                        lambda x: getattr(np, fn)(x, axis=axis), x)


@pytest.mark.parametrize("dtype", (np.bool_, np.int16, np.float32))
def test_count_nonzero_and_ptp(dtype):
    x = _data((4, 5), dtype)
    _check_all_ways(lambda x: tnp.count_nonzero(x, axis=0), lambda x: np.count_nonzero(x, axis=0), x)
    if dtype != np.bool_:
        _check_all_ways(lambda x: tnp.ptp(x, axis=1), lambda x: np.ptp(x, axis=1), x)


@pytest.mark.parametrize("rowvar", [True, False])
def test_cov_and_corrcoef(rowvar):
    x = _data((3, 8), np.float64)
    _check_all_ways(lambda x: tnp.cov(x, rowvar=rowvar), lambda x: np.cov(x, rowvar=rowvar), x)
    _check_all_ways(lambda x: tnp.corrcoef(x), lambda x: np.corrcoef(x), x)
    y = _data((8,), np.int32)
    _check_all_ways(lambda y: tnp.cov(y), lambda y: np.cov(y), y)


# --- cumulative -------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", (np.bool_,) + INTS + FLOATS)
@pytest.mark.parametrize("shape,axis", [((17,), None), ((4, 9), 0), ((4, 9), 1), ((3, 0), 1),
                                        ((2, 3, 33), -1)])
def test_cumsum_cumprod(dtype, shape, axis):
    x = _data(shape, dtype)
    if np.issubdtype(dtype, np.floating):
        x = x / 3            # keep cumulative products finite and comparable
    _check_all_ways(lambda x: tnp.cumsum(x, axis=axis), lambda x: np.cumsum(x, axis=axis), x)
    _check_all_ways(lambda x: tnp.cumprod(x, axis=axis), lambda x: np.cumprod(x, axis=axis), x)


def test_cumsum_method_and_integer_wrapping():
    x = np.full(300, 100, np.int8)
    _check_all_ways(lambda x: x.cumsum(dtype=np.int8), lambda x: x.cumsum(dtype=np.int8), x)
    _check_all_ways(lambda x: tnp.cumsum(x), lambda x: np.cumsum(x), x)


def test_cummax_matches_a_running_maximum():
    x = _data((50,), np.float64, edge=True)
    _check_all_ways(lambda x: tnp.cummax(x), lambda x: np.maximum.accumulate(x), x)
    _check_all_ways(lambda x: tnp.cummin(x), lambda x: np.minimum.accumulate(x), x)


@pytest.mark.parametrize("dtype", (np.bool_, np.uint8, np.int64, np.float32))
@pytest.mark.parametrize("n", [1, 2])
def test_diff(dtype, n):
    x = _data((4, 6), dtype)
    _check_all_ways(lambda x: tnp.diff(x, n=n), lambda x: np.diff(x, n=n), x)
    _check_all_ways(lambda x: tnp.diff(x, axis=0, prepend=0),
                    lambda x: np.diff(x, axis=0, prepend=0), x)


# --- manipulation -----------------------------------------------------------------------------

def test_stacking_family():
    a, b = _data((3,), np.int32), _data((3,), np.int32)
    m, n = _data((2, 3), np.float32), _data((2, 3), np.float32)
    for name in ("hstack", "vstack", "dstack", "column_stack"):
        _check_all_ways(lambda a, b: getattr(tnp, name)([a, b]),
                        lambda a, b: getattr(np, name)([a, b]), a, b)
        _check_all_ways(lambda a, b: getattr(tnp, name)((a, b)),
                        lambda a, b: getattr(np, name)((a, b)), m, n)


def test_append():
    m, row = _data((2, 3), np.float32), _data((1, 3), np.float32)
    scalar = _data((), np.float32)
    _check_all_ways(tnp.append, np.append, m, scalar)
    _check_all_ways(lambda m, r: tnp.append(m, r, axis=0), lambda m, r: np.append(m, r, axis=0),
                    m, row)
    _check_all_ways(tnp.append, np.append, _data((4,), np.int32), _data((2, 2), np.int8))


def test_atleast():
    for fn in ("atleast_1d", "atleast_2d", "atleast_3d"):
        for shape in [(), (3,), (2, 3), (2, 3, 4)]:
            x = _data(shape, np.float64)
            _check_all_ways(getattr(tnp, fn), getattr(np, fn), x)


@pytest.mark.parametrize("sections", [3, [1, 4], [2, -1, 10]])
def test_split_family(sections):
    x = _data((6, 4), np.int64)
    _check_all_ways(lambda x: tnp.array_split(x, sections), lambda x: np.array_split(x, sections), x)
    _check_all_ways(lambda x: tnp.array_split(x, 5, axis=0), lambda x: np.array_split(x, 5, axis=0), x)
    _check_all_ways(lambda x: tnp.split(x, 2, axis=1), lambda x: np.split(x, 2, axis=1), x)
    with pytest.raises(ValueError, match="equal division"):
        tp.jit(lambda x: tnp.split(x, 4))(x)


@pytest.mark.parametrize("reps", [2, (2, 1), (1, 3), (2, 1, 2)])
def test_tile(reps):
    x = _data((2, 3), np.uint8)
    _check_all_ways(lambda x: tnp.tile(x, reps), lambda x: np.tile(x, reps), x)


@pytest.mark.parametrize("repeats,axis", [(2, None), (3, 0), (2, 1), ([1, 0, 2], 1), (0, 0)])
def test_repeat(repeats, axis):
    x = _data((2, 3), np.float32)
    _check_all_ways(lambda x: tnp.repeat(x, repeats, axis=axis),
                    lambda x: np.repeat(x, repeats, axis=axis), x)


@pytest.mark.parametrize("shift,axis", [(2, None), (-1, 0), (7, 1), ((1, 2), (0, 1)), (0, 1)])
def test_roll_static(shift, axis):
    x = _data((3, 5), np.int16)
    _check_all_ways(lambda x: tnp.roll(x, shift, axis), lambda x: np.roll(x, shift, axis), x)


def test_roll_with_a_traced_shift():
    x = _data((3, 5), np.float64)
    f = tp.jit(lambda x, s: tnp.roll(x, s, axis=1))
    for s in (-7, -1, 0, 3, 12):
        _check(f(x, s), np.roll(x, s, axis=1))


def test_swap_flip_broadcast_copy():
    x = _data((2, 3, 4), np.float64)
    _check_all_ways(lambda x: tnp.swapaxes(x, 0, 2), lambda x: np.swapaxes(x, 0, 2), x)
    _check_all_ways(tnp.flipud, np.flipud, x)
    _check_all_ways(tnp.fliplr, np.fliplr, x)
    _check_all_ways(tnp.copy, np.copy, x)
    y = _data((3, 1), np.int8)
    _check_all_ways(lambda x, y: tnp.broadcast_arrays(x, y), lambda x, y: np.broadcast_arrays(x, y), x, y)
    with pytest.raises(ValueError, match=r"\(2, 3, 4\).*\(2, 1\)"):
        tnp.broadcast_arrays(x, np.zeros((2, 1)))


@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric", "wrap"])
@pytest.mark.parametrize("width", [1, (2, 3), ((1, 0), (4, 9))])
def test_pad(mode, width):
    x = _data((3, 4), np.float32)
    _check_all_ways(lambda x: tnp.pad(x, width, mode=mode), lambda x: np.pad(x, width, mode=mode), x)


def test_pad_constant_values_and_dtype():
    x = _data((2, 3), np.uint8)
    _check_all_ways(lambda x: tnp.pad(x, 2, constant_values=7),
                    lambda x: np.pad(x, 2, constant_values=7), x)
    _check_all_ways(lambda x: tnp.pad(x, ((1, 2), (0, 1)), constant_values=((1, 2), (3, 4))),
                    lambda x: np.pad(x, ((1, 2), (0, 1)), constant_values=((1, 2), (3, 4))), x)


def test_select():
    x = _data((10,), np.float32)
    _check_all_ways(lambda x: tnp.select([x < -1, x > 1], [x * 2, x - 1], default=5),
                    lambda x: np.select([x < -1, x > 1], [x * 2, x - 1], default=5), x)


# --- matrices ---------------------------------------------------------------------------------

@pytest.mark.parametrize("k", [-2, 0, 1, 5])
def test_triangles_and_diagonals(k):
    x = _data((4, 6), np.int32)
    _check_all_ways(lambda x: tnp.tril(x, k), lambda x: np.tril(x, k), x)
    _check_all_ways(lambda x: tnp.triu(x, k), lambda x: np.triu(x, k), x)
    _check_all_ways(lambda x: tnp.diagonal(x, k), lambda x: np.diagonal(x, k), x)
    _check_all_ways(lambda x: tnp.trace(x, k), lambda x: np.trace(x, k), x)
    _check_all_ways(lambda: tnp.tri(3, 5, k, dtype=np.float32), lambda: np.tri(3, 5, k, dtype=np.float32))
    v = _data((3,), np.float64)
    _check_all_ways(lambda v: tnp.diag(v, k), lambda v: np.diag(v, k), v)
    _check_all_ways(lambda x: tnp.diag(x, k), lambda x: np.diag(x, k), x)
    _check_all_ways(lambda x: tnp.diagflat(x[:2, :2], k), lambda x: np.diagflat(x[:2, :2], k), x)


def test_diagonal_of_other_axes():
    x = _data((3, 4, 5), np.float64)
    _check_all_ways(lambda x: tnp.diagonal(x, 1, 2, 0), lambda x: np.diagonal(x, 1, 2, 0), x)
    _check_all_ways(lambda x: x.trace(axis1=1, axis2=2), lambda x: x.trace(axis1=1, axis2=2), x)


@pytest.mark.parametrize("dtype", (np.int32, np.float32, np.float64))
def test_products(dtype):
    a, b = _data((3, 4), dtype), _data((4, 5), dtype)
    c = _data((2, 4), dtype)
    _check_all_ways(tnp.outer, np.outer, a, b)
    _check_all_ways(tnp.inner, np.inner, a, c)
    _check_all_ways(tnp.kron, np.kron, a, c)
    _check_all_ways(lambda a, b: tnp.tensordot(a, b, 1), lambda a, b: np.tensordot(a, b, 1), a, b)
    t = _data((2, 3, 4), dtype)
    _check_all_ways(lambda t, a: tnp.tensordot(t, a, axes=([1, 2], [0, 1])),
                    lambda t, a: np.tensordot(t, a, axes=([1, 2], [0, 1])), t, a)


@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sparse", [False, True])
def test_meshgrid(indexing, sparse):
    x, y, z = _data((3,), np.float32), _data((4,), np.float32), _data((2,), np.float32)
    _check_all_ways(lambda x, y, z: tnp.meshgrid(x, y, z, indexing=indexing, sparse=sparse),
                    lambda x, y, z: np.meshgrid(x, y, z, indexing=indexing, sparse=sparse), x, y, z)


# --- math ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
def test_unary_math(dtype):
    x = _data((40,), dtype, edge=True)
    with np.errstate(all="ignore"):
        for fn in ("arcsinh", "arctanh", "cbrt", "signbit", "deg2rad", "rad2deg", "sinc",
                   "nan_to_num"):
            _check_all_ways(getattr(tnp, fn), getattr(np, fn), x)
        _check_all_ways(tnp.arccosh, np.arccosh, np.abs(x) + 1)
        _check_all_ways(tnp.arctanh, np.arctanh, x / 10)


@pytest.mark.parametrize("dtype", FLOATS)
def test_binary_math(dtype):
    x, y = _data((40,), dtype, edge=True), _data((40,), dtype)
    y[5:9] = [np.nan, 0.0, -0.0, np.inf]
    with np.errstate(all="ignore"):
        for fn in ("hypot", "copysign", "fmax", "fmin", "logaddexp", "logaddexp2",
                   "nextafter", "heaviside"):
            _check_all_ways(getattr(tnp, fn), getattr(np, fn), x, y)
            _check_all_ways(getattr(tnp, fn), getattr(np, fn), x, x)


def test_fmax_on_integers_and_mixed_types():
    a, b = _data((20,), np.int16), _data((20,), np.uint8)
    _check_all_ways(tnp.fmax, np.fmax, a, b)
    _check_all_ways(tnp.fmin, np.fmin, a, b)


def test_isclose_family():
    x = _data((30,), np.float64, edge=True)
    y = x + 1e-9
    y[10] = np.nan
    for equal_nan in (False, True):
        _check_all_ways(lambda x, y: tnp.isclose(x, y, equal_nan=equal_nan),
                        lambda x, y: np.isclose(x, y, equal_nan=equal_nan), x, y)
    _check_all_ways(lambda x: tnp.allclose(x[4:], x[4:] * (1 + 1e-7)),
                    lambda x: np.bool_(np.allclose(x[4:], x[4:] * (1 + 1e-7))), x)
    _check_all_ways(lambda x: tnp.array_equal(x, x, equal_nan=True),
                    lambda x: np.bool_(np.array_equal(x, x, equal_nan=True)), x)
    i = _data((5,), np.int32)
    _check_all_ways(lambda i: tnp.isclose(i, i + 1, atol=1), lambda i: np.isclose(i, i + 1, atol=1), i)


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("n,m", [(10, 3), (3, 10), (5, 5), (1, 4)])
def test_convolve_correlate(mode, n, m):
    a, v = _data((n,), np.float64), _data((m,), np.float64)
    _check_all_ways(lambda a, v: tnp.convolve(a, v, mode), lambda a, v: np.convolve(a, v, mode), a, v)
    _check_all_ways(lambda a, v: tnp.correlate(a, v, mode), lambda a, v: np.correlate(a, v, mode), a, v)
    i, j = _data((n,), np.int32), _data((m,), np.int8)
    _check_all_ways(lambda a, v: tnp.convolve(a, v, mode), lambda a, v: np.convolve(a, v, mode), i, j)


def test_tracer_methods_are_numpys():
    x = _data((3, 4), np.float64)
    f = tp.jit(lambda x: (x.var(), x.std(ddof=1), x.trace(), x.diagonal(), x.cumsum(axis=1),
                          x.mT, x.swapaxes(0, 1), x.repeat(2), x.copy(), x.ptp()))
    want = (x.var(), x.std(ddof=1), x.trace(), x.diagonal(), x.cumsum(axis=1), x.mT,
            x.swapaxes(0, 1), x.repeat(2), x.copy(), np.ptp(x))
    for g, w in zip(f(x), want):
        _check(g, w)
    g = tp.jit(lambda x: x * 0 + x.nbytes + x.itemsize)
    _check(g(x), x * 0 + x.nbytes + x.itemsize)
