"""sort/argsort (stable, NaN last), searchsorted, the size= forms of nonzero/argwhere/
flatnonzero/unique, and quantiles, against NumPy, compiled (twice) and interpreted."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp

RNG = np.random.default_rng(5)


def _ways(fn, *args):
    out = [fn(*args)]
    for backend in ("cpu", "interpret"):
        f = tp.jit(fn, backend=backend)
        f(*args)
        out.append(f(*args))
    return out


def _same(got, want, exact=True):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, want.dtype)
    if exact:
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got, want, rtol=1e-12, equal_nan=True)


def _data(shape, dtype):
    if np.dtype(dtype) == np.bool_:
        return RNG.random(shape) > 0.5
    if np.issubdtype(dtype, np.integer):
        return RNG.integers(0, 20, shape).astype(dtype)   # many ties: stability shows
    x = np.round(RNG.standard_normal(shape), 1).astype(dtype)
    flat = x.reshape(-1)
    flat[::7] = np.nan
    flat[3::11] = -0.0
    return x


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint16, np.int64, np.float32,
                                   np.float64])
@pytest.mark.parametrize("axis", [-1, 0, None])
def test_sort_and_stable_argsort(dtype, axis):
    x = _data((9, 13), dtype)
    for got in _ways(lambda x: tnp.argsort(x, axis=axis), x):
        _same(got, np.argsort(x, axis=axis, kind="stable"))
    for got in _ways(lambda x: tnp.sort(x, axis=axis), x):
        # NumPy's unstable sort may order -0.0 and 0.0 either way: compare values, and
        # check the stable order exactly through the indices above.
        _same(got, np.sort(x, axis=axis), exact=False)
        assert np.array_equal(np.signbit(got), np.signbit(
            np.take_along_axis(x, np.argsort(x, axis=axis, kind="stable"), axis)
            if axis is not None else x.ravel()[np.argsort(x, axis=None, kind="stable")]))


def test_descending_keeps_ties_in_input_order():
    x = np.array([3, 1, 3, 2, 1, 3], np.int32)
    want = np.array([0, 2, 5, 3, 1, 4])
    for got in _ways(lambda x: tnp.argsort(x, descending=True), x):
        _same(got, want)
    for got in _ways(lambda x: tnp.sort(x, descending=True), x):
        _same(got, x[want])


@pytest.mark.parametrize("n", [1, 5000, 1 << 17])      # serial and parallel, many rows
def test_sort_many_rows_large_and_small(n):
    x = RNG.standard_normal((8, n))
    for got in _ways(lambda x: tnp.sort(x * 2, axis=1), x):
        _same(got, np.sort(x * 2, axis=1))


@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_with_nans_and_ties(side):
    a = np.array([-1.0, 0.0, 0.0, 2.5, 2.5, np.nan, np.nan])
    v = np.array([[0.0, 2.5], [np.nan, -5.0], [9.0, 1.0]])
    for got in _ways(lambda a, v: tnp.searchsorted(a, v, side=side), a, v):
        _same(got, np.searchsorted(a, v, side=side))


def test_nonzero_family_with_size():
    x = np.array([[0, 3, 0], [4, 0, 5]], np.int16)
    for size in (2, 3, 5):
        want = tuple(np.concatenate([c, np.zeros(size, np.int64)])[:size]
                     for c in np.nonzero(x))
        for got in _ways(lambda x: tnp.nonzero(x, size=size), x):
            for g, w in zip(got, want):
                _same(g, w)
    for got in _ways(lambda x: tnp.argwhere(x, size=4, fill_value=-1), x):
        _same(got, np.array([[0, 1], [1, 0], [1, 2], [-1, -1]]))
    for got in _ways(lambda x: tnp.flatnonzero(x, size=2), x):
        _same(got, np.flatnonzero(x)[:2])
    with pytest.raises(TypeError, match="size="):
        tp.jit(tnp.nonzero)(x)


def test_unique_with_size_and_nans():
    x = np.array([3.0, np.nan, 1.0, 3.0, np.nan, -0.0, 0.0])
    for got in _ways(lambda x: tnp.unique(x, size=6), x):
        _same(got, np.array([-0.0, 1.0, 3.0, np.nan, -0.0, -0.0]))
    for got in _ways(lambda x: tnp.unique(x, size=2, fill_value=7.0), x):
        _same(got, np.array([-0.0, 1.0]))
    i = np.array([5, 1, 5, 2], np.uint8)
    for got in _ways(lambda i: tnp.unique(i, size=4, fill_value=0), i):
        _same(got, np.array([1, 2, 5, 0], np.uint8))


@pytest.mark.parametrize("method", ["linear", "lower", "higher", "nearest", "midpoint"])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_quantile_methods(method, axis):
    x = RNG.standard_normal((6, 9))
    q = np.array([0.0, 0.1, 0.5, 0.75, 1.0])
    for got in _ways(lambda x: tnp.quantile(x, q, axis=axis, method=method), x):
        _same(got, np.quantile(x, q, axis=axis, method=method), exact=False)


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64])
def test_median_and_percentile(dtype):
    x = RNG.integers(-50, 50, (5, 8)).astype(dtype)
    for axis in (None, 0, 1):
        for got in _ways(lambda x: tnp.median(x, axis=axis), x):
            _same(got, np.median(x, axis=axis), exact=False)
        for got in _ways(lambda x: tnp.percentile(x, 30, axis=axis, keepdims=True), x):
            _same(got, np.percentile(x, 30, axis=axis, keepdims=True), exact=False)
    if np.issubdtype(dtype, np.floating):
        x[2, 3] = np.nan
        for got in _ways(lambda x: tnp.median(x, axis=1), x):
            _same(got, np.median(x, axis=1), exact=False)


def test_many_sorts_in_one_program_match_the_interpreter():
    # A regression: gcc -O3 once mis-ordered memory accesses across kernels inlined into
    # the entry function; kernels are now out of line. This program showed it.
    x = RNG.standard_normal((4, 7))
    x[1, 2], x[2, 3] = np.nan, -0.0

    def many(x):
        return (tnp.argsort(x, axis=0), tnp.median(x, axis=1),
                tnp.quantile(x, np.array([0.1, 0.9]), axis=0), tnp.nonzero(x > 0.5, size=5),
                tnp.unique(tnp.round(x), size=6), tnp.searchsorted(tnp.sort(x[0]), x[1]))
    compiled, interpreted = tp.jit(many)(x), tp.jit(many, backend="interpret")(x)
    for c, i in zip(tp.tree.leaves(compiled), tp.tree.leaves(interpreted)):
        np.testing.assert_array_equal(c, i)


@pytest.mark.parametrize("method", ["linear", "lower", "higher", "nearest", "midpoint"])
def test_nanquantile_methods_skip_nan_per_row(method):
    x = RNG.standard_normal((5, 11))
    x[0, [1, 4, 7]] = np.nan
    x[3, :] = np.nan                                  # all NaN: NaN (NumPy warns)
    x[4, :10] = np.nan                                # one value left
    q = np.array([[0.0, 0.3], [0.5, 1.0]])
    with np.errstate(all="ignore"), pytest.warns(RuntimeWarning):
        want = np.nanquantile(x, q, axis=1, method=method)
    for got in _ways(lambda x: tnp.nanquantile(x, q, axis=1, method=method), x):
        _same(got, want)


@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.float64])
def test_nanmedian_and_nanpercentile(dtype):
    x = RNG.integers(-50, 50, (4, 7)).astype(dtype)
    if np.issubdtype(dtype, np.floating):
        x[1, 2] = x[2, 5] = x[2, 0] = np.nan
    for axis, keepdims in ((None, False), (0, True), (1, False), ((0, 1), True)):
        for got in _ways(lambda x: tnp.nanmedian(x, axis=axis, keepdims=keepdims), x):
            _same(got, np.nanmedian(x, axis=axis, keepdims=keepdims))
        for got in _ways(lambda x: tnp.nanpercentile(x, 65, axis=axis, keepdims=keepdims), x):
            _same(got, np.nanpercentile(x, 65, axis=axis, keepdims=keepdims))


def test_quantile_long_rows_and_edges():
    # Rows long enough for several merge passes, odd and even lengths, many ties.
    x = RNG.integers(0, 30, (3, 1001)).astype(np.float64)
    for got in _ways(lambda x: (tnp.median(x, axis=1), tnp.median(x[:, 1:], axis=1),
                                tnp.quantile(x, 0.37, axis=1, method="nearest")), x):
        _same(got[0], np.median(x, axis=1), exact=False)
        _same(got[1], np.median(x[:, 1:], axis=1), exact=False)
        _same(got[2], np.quantile(x, 0.37, axis=1, method="nearest"), exact=False)
    for got in _ways(lambda x: tnp.median(x), np.float32(2.5)):         # 0-d
        _same(got, np.float32(2.5))
    for got in _ways(lambda x: tnp.nanmedian(x, axis=1), np.zeros((2, 0), np.float32)):
        _same(got, np.full(2, np.nan, np.float32), exact=False)
    with pytest.raises(ValueError, match="method"):
        tnp.nanquantile(x, 0.5, method="hazen")


@pytest.mark.parametrize("dtype", [np.int16, np.float32])
def test_quantile_rounds_and_types_as_numpy_bit_for_bit(dtype):
    # NumPy forms the virtual index and 1 - t in q's precision before rounding to the
    # result's dtype; picking methods keep the data's dtype; a float32 q array narrows.
    x = RNG.standard_normal((3, 10)) * 40
    x = x.astype(dtype)
    qs = (65.0, np.array([3.0, 50, 97.5]), np.array([3.0, 50, 97.5], np.float32))
    methods = ("linear", "lower", "higher", "nearest", "midpoint")

    def fn(x):
        return [tnp.percentile(x, q, axis=1, method=m) for q in qs for m in methods] + \
            [tnp.median(x, axis=1), tnp.nanpercentile(x, 35.0, axis=0)]
    want = [np.percentile(x, q, axis=1, method=m) for q in qs for m in methods] + \
        [np.median(x, axis=1), np.nanpercentile(x, 35.0, axis=0)]
    for got in _ways(fn, x):
        for g, w in zip(got, want):
            _same(g, w)
