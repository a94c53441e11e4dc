"""lax.sort (one or several operands, num_keys) and lax.top_k, eagerly, compiled and
interpreted, against NumPy and against outputs recorded from JAX 0.10.2 (JAX's order is the
spec: sort ties -0.0 with 0.0 and puts every NaN last; top_k compares in IEEE total order)."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
from transpile import lax

RNG = np.random.default_rng(11)
DTYPES = [np.bool_, np.int8, np.uint16, np.int32, np.int64, np.float32, np.float64]


def _ways(fn, *args):
    """fn's results eagerly, compiled and interpreted."""
    return [fn(*args)] + [tp.jit(fn, backend=b)(*args) for b in ("cpu", "interpret")]


def _data(shape, dtype):
    if np.dtype(dtype) == np.bool_:
        return RNG.random(shape) > 0.5
    if np.issubdtype(dtype, np.integer):
        return RNG.integers(0, 9, shape).astype(dtype)          # many ties
    x = np.round(RNG.standard_normal(shape), 1).astype(dtype)
    x.reshape(-1)[::5] = np.nan
    return x


def _same(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape,
                                                                  want.dtype, want.shape)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", DTYPES)
def test_sort_one_operand_matches_numpy(dtype):
    x = _data((3, 9), dtype)
    for dim in (-1, 0):
        for got in _ways(lambda a: lax.sort(a, dimension=dim), x):
            _same(got, np.sort(x, axis=dim, kind="stable"))


def test_sort_several_operands_by_first_key_is_stable():
    keys, vals = np.array([2, 1, 2, 1], np.int32), np.array([4., 3., 2., 1.], np.float32)
    for got in _ways(lambda k, v: lax.sort((k, v)), keys, vals):
        assert isinstance(got, tuple) and len(got) == 2
        _same(got[0], np.array([1, 1, 2, 2], np.int32))
        _same(got[1], np.array([3., 1., 4., 2.], np.float32))     # recorded from JAX


def test_sort_num_keys_two_is_lexicographic():
    k1 = _data((4, 12), np.int8)
    k2 = _data((4, 12), np.float64)
    v = np.arange(48, dtype=np.int64).reshape(4, 12)
    for got in _ways(lambda a, b, c: lax.sort([a, b, c], num_keys=2), k1, k2, v):
        order = np.lexsort((k2, k1), axis=-1)            # k1 first, then k2 (NaN last)
        for g, src in zip(got, (k1, k2, v)):
            _same(g, np.take_along_axis(src, order, -1))


def test_sort_keeps_nan_and_signed_zero_order_as_jax():
    x = np.array([0.0, -0.0, np.nan, -np.nan, 1., -np.inf, 1., 0.0], np.float32)
    for got in _ways(lax.sort, x):
        _same(got, np.array([-np.inf, 0, -0.0, 0, 1, 1, np.nan, np.nan], np.float32))
        assert np.signbit(got).tolist() == [True, False, True, False, False, False, False, True]


def test_sort_errors_name_the_problem():
    with pytest.raises(ValueError, match=r"\(3,\).*\(4,\)"):
        lax.sort((np.zeros(3), np.zeros(4)))
    with pytest.raises(ValueError, match="num_keys=3"):
        lax.sort((np.zeros(3), np.zeros(3)), num_keys=3)
    with pytest.raises(ValueError, match="num_keys=2"):
        lax.sort(np.zeros(3), num_keys=2)


def test_sort_empty():
    for got in _ways(lambda a, b: lax.sort((a, b)), np.zeros((2, 0)), np.zeros((2, 0), np.int8)):
        _same(got[0], np.zeros((2, 0)))
        _same(got[1], np.zeros((2, 0), np.int8))


@pytest.mark.parametrize("dtype", DTYPES)
def test_top_k_matches_a_stable_descending_order(dtype):
    x = _data((5, 10), dtype)
    for got in _ways(lambda a: lax.top_k(a, 4), x):
        v, i = got
        assert i.dtype == np.int32
        want = _stable_descending(x)[:, :4]
        _same(i, want.astype(np.int32))
        _same(v, np.take_along_axis(x, want, -1))


def _stable_descending(x):
    """Positions of x's rows in descending order, ties by position, NaN first."""
    out = []
    for row in x:
        key = [(0 if (row.dtype.kind == "f" and np.isnan(v)) else 1,
                -float(v) if not (row.dtype.kind == "f" and np.isnan(v)) else 0.0, j)
               for j, v in enumerate(row)]
        out.append([k[2] for k in sorted(key)])
    return np.array(out, np.int64)


def test_top_k_total_order_as_recorded_from_jax():
    x = np.array([0.0, -0.0, np.nan, -np.nan, 1., -np.inf, 1., 0.0], np.float32)
    for v, i in _ways(lambda a: lax.top_k(a, 5), x):
        _same(i, np.array([2, 4, 6, 0, 7], np.int32))
        _same(v, np.array([np.nan, 1, 1, 0, 0], np.float32))
    for v, i in _ways(lambda a: lax.top_k(a, 3), np.array([-0.0, 0.0, -0.0])):
        _same(i, np.array([1, 0, 2], np.int32))
        assert np.signbit(v).tolist() == [False, True, True]
    for v, i in _ways(lambda a: lax.top_k(a, 3), np.array([-np.nan, -np.inf, 1.0])):
        _same(i, np.array([2, 1, 0], np.int32))


def test_top_k_axis_empty_and_errors():
    x = np.array([[1, 3], [2, 5]])
    for v, i in _ways(lambda a: lax.top_k(a, 1, axis=0), x):
        _same(v, np.array([[2, 5]]))
        _same(i, np.array([[1, 1]], np.int32))
    for v, i in _ways(lambda a: lax.top_k(a, 0), np.ones((2, 0), np.float32)):
        _same(v, np.ones((2, 0), np.float32))
        _same(i, np.ones((2, 0), np.int32))
    with pytest.raises(ValueError, match=r"k=4.*\(2, 3\)"):
        lax.top_k(np.zeros((2, 3)), 4)
    with pytest.raises(ValueError, match=r"shape \(\)"):
        lax.top_k(np.float32(1), 1)
