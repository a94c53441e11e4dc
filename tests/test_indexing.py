"""Integer-array indexing, take and take_along_axis: NumPy's results for in-range indices,
JAX's clamping (getitem) and fill/clip/wrap modes (take) for out-of-range ones, on the C
backend (called twice, small and large) and the interpreter."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp

RNG = np.random.default_rng(11)
X = np.arange(2 * 3 * 4, dtype=np.float32).reshape(2, 3, 4)
I = np.array([[0, 1], [1, -1]])

KEYS = [(I,), (slice(None), I), (0, slice(None), I), (I, I[:, :1]), (slice(None), I, I),
        (I, slice(None), I), (Ellipsis, [1, 0]), (np.array([True, False]),),
        (1, I, slice(1, 3)), (slice(None, None, -1), [2, 0])]


def _compiled(fn, *args):
    out = []
    for backend in ("cpu", "interpret"):
        f = tp.jit(fn, backend=backend)
        f(*args)
        out.append(f(*args))
    return out


@pytest.mark.parametrize("key", KEYS, ids=range(len(KEYS)))
def test_array_indices_match_numpy(key):
    want = X[key]
    for got in _compiled(lambda x: x[key], X):
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("index_dtype", [np.int8, np.uint8, np.int32, np.int64, np.uint64])
def test_traced_index_arrays_of_every_integer_dtype(index_dtype):
    x = RNG.standard_normal(300)
    i = RNG.integers(0, 127, 50).astype(index_dtype)
    for got in _compiled(lambda x, i: x[i] * 2, x, i):
        np.testing.assert_array_equal(got, x[i.astype(np.int64)] * 2)


def test_out_of_range_indices_clamp_as_in_jax():
    x = np.arange(5.0)
    i = np.array([7, -9, 2, -1, 4])
    for got in _compiled(lambda x, i: x[i], x, i):
        np.testing.assert_array_equal(got, [4.0, 0.0, 2.0, 4.0, 4.0])


@pytest.mark.parametrize("n", [1000, 1 << 20])     # both sides of the parallel threshold
def test_gather_on_a_strided_view_large_and_small(n):
    x = RNG.standard_normal(2 * n)[::-2]
    i = RNG.integers(-n, n, n)
    for got in _compiled(lambda x, i: x[i] + 1, x, i):
        np.testing.assert_array_equal(got, x[i] + 1)


@pytest.mark.parametrize("mode", [None, "fill", "clip", "wrap"])
def test_take_modes(mode):
    x = np.arange(12, dtype=np.int32).reshape(3, 4)
    i = np.array([0, 5, -2, -9, 3])
    n = 4
    if mode in (None, "fill"):
        want = np.where((i >= -n) & (i < n), np.take(x, np.clip(np.where(i < 0, i + n, i), 0, 3),
                                                   axis=1), np.iinfo(np.int32).min)
    elif mode == "clip":        # negative indices clamp to 0, as in NumPy and JAX
        want = np.take(x, i, axis=1, mode="clip")
    else:
        want = np.take(x, i, axis=1, mode="wrap")
    for got in _compiled(lambda x, i: tnp.take(x, i, axis=1, mode=mode), x, i):
        np.testing.assert_array_equal(got, want)
    f = np.linspace(0, 1, 5)
    for got in _compiled(lambda f: tnp.take(f, np.array([1, 9])), f):
        np.testing.assert_array_equal(got, [0.25, np.nan])


@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_take_along_axis_with_argsort_indices(axis):
    a = RNG.standard_normal((4, 6))
    idx = np.argsort(a, axis=axis)
    want = np.take_along_axis(a, idx, axis)
    for got in _compiled(lambda a, i: tnp.take_along_axis(a, i, axis), a, idx):
        np.testing.assert_array_equal(got, want)
    first = idx[:1] if axis == 0 else idx[:, :1] if axis is not None else idx[:1]
    for got in _compiled(lambda a, i: tnp.take_along_axis(a, i, axis), a, first):
        np.testing.assert_array_equal(got, np.take_along_axis(a, first, axis))


def test_index_errors_name_the_problem():
    f = tp.jit(lambda x, m: x[m])
    with pytest.raises(IndexError, match="boolean mask"):
        f(np.arange(3.0), np.array([True, False, True]))
    with pytest.raises(IndexError, match="integer"):
        tp.jit(lambda x, i: x[i])(np.arange(3.0), np.array([0.5, 1.0]))
    with pytest.raises(IndexError, match="too many indices"):
        tp.jit(lambda x: x[[0], [0]])(np.arange(3.0))
