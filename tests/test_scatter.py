"""Scatters (`x.at[array index].set/add/multiply/min/max`), put_along_axis, bincount and
histogram: NumPy's layout of the indexed elements, JAX's update semantics (duplicates all
accumulate, the last `set` wins, out-of-range updates are dropped), on the C backend
(called twice) and the interpreter."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile import lax

RNG = np.random.default_rng(5)
I = np.array([[0, 1], [1, -1]])
KEYS = [(I,), (slice(None), I), (0, slice(None), I), (I, I[:, :1]), (slice(None), I, I),
        (I, slice(None), I), (Ellipsis, [1, 0]), (np.array([True, False]),),
        (1, I, slice(1, 3)), (slice(None, None, -1), [2, 0]), (slice(None, None, 2),),
        (slice(1, None, 2), slice(None), 3)]
UFUNC = {"add": np.add, "multiply": np.multiply, "min": np.minimum, "max": np.maximum}


def _compiled(fn, *args):
    out = []
    for backend in ("cpu", "interpret"):
        f = tp.jit(fn, backend=backend)
        f(*args)
        out.append(f(*args))
    return out


def _reference(x, key, values, how):
    """Serial updates in row-major order of x[key] (valid when every index is in range)."""
    out = x.copy()
    positions = np.arange(x.size).reshape(x.shape)[key]
    values = np.broadcast_to(np.asarray(values).astype(x.dtype), positions.shape)
    flat = out.reshape(-1)
    for p, v in zip(positions.reshape(-1), values.reshape(-1)):
        flat[p] = v if how == "set" else UFUNC[how](flat[p], v)
    return out


HOWS = ["set", "add", "multiply", "min", "max"]


@pytest.mark.parametrize("key", KEYS, ids=range(len(KEYS)))
def test_array_index_updates_match_a_serial_reference(key):
    x = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    shape = np.arange(x.size).reshape(x.shape)[key].shape
    v = RNG.standard_normal(shape).astype(np.float32)
    want = [_reference(x, key, v, how) for how in HOWS]
    for got in _compiled(lambda x, v: [getattr(x.at[key], how)(v) for how in HOWS], x, v):
        for g, w in zip(got, want):
            assert g.dtype == w.dtype and g.shape == w.shape
            np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("dtype", [np.int32, np.uint8, np.bool_, np.float64, np.int64])
def test_duplicates_accumulate_and_last_set_wins(dtype):
    x = RNG.integers(0, 200, 10).astype(dtype)
    i = np.array([3, 3, 0, 3, 9, 0, -1])
    v = RNG.integers(0, 200, 7).astype(dtype)
    want = [_reference(x, (i,), v, how) for how in HOWS]
    for got in _compiled(lambda x, i, v: [getattr(x.at[i], how)(v) for how in HOWS], x, i, v):
        for g, w in zip(got, want):
            assert g.dtype == w.dtype
            np.testing.assert_array_equal(g, w)


def test_out_of_range_updates_are_dropped_and_inputs_kept():
    x = np.arange(6.0)
    i = np.array([6, -7, 2, -1, 100])
    for got in _compiled(lambda x, i: x.at[i].add(10.0), x, i):
        np.testing.assert_array_equal(got, [0, 1, 12, 3, 4, 15])
    for got in _compiled(lambda x, i: x.at[i].set(-1.0, mode="clip"), x, i):
        np.testing.assert_array_equal(got, [-1, 1, -1, 3, 4, -1])
    np.testing.assert_array_equal(x, np.arange(6.0))       # the argument is never mutated


def test_static_slice_updates_everywhere():
    a = RNG.standard_normal((6, 5))
    want = a.copy()
    want[1:-1, 1:-1] = 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])
    stencil = (lambda a: a.at[1:-1, 1:-1].set(0.25 * (a[:-2, 1:-1] + a[2:, 1:-1]
                                                      + a[1:-1, :-2] + a[1:-1, 2:])))
    for got in _compiled(stencil, a):
        np.testing.assert_allclose(got, want, rtol=1e-15)
    want = a.copy()
    want[::2, 1::3] += 1.0
    for got in _compiled(lambda a: a.at[::2, 1::3].add(1.0), a):
        np.testing.assert_array_equal(got, want)


def test_scatter_in_a_loop_and_fused_operands():
    x = np.zeros(8)
    i = np.array([1, 5, 1])

    def body(k, acc):
        return acc.at[i * 0 + k % 8].add(tnp.sqrt(k + 1.0))
    want = np.zeros(8)
    for k in range(20):
        want[k % 8] += 3 * np.sqrt(k + 1.0)     # three (duplicate) indices per step
    for got in _compiled(lambda x: lax.fori_loop(0, 20, body, x), x):
        np.testing.assert_allclose(got, want, rtol=1e-14)


def test_values_shape_error_names_both_shapes():
    x = np.zeros((3, 4))
    with pytest.raises(ValueError, match=r"\(3,\).*\(2, 4\)"):
        tp.jit(lambda x: x.at[np.array([0, 1])].set(np.ones(3)))(x)


def test_empty_index_and_empty_array():
    x = np.arange(4.0)
    for got in _compiled(lambda x: x.at[np.zeros(0, np.int64)].add(1.0), x):
        np.testing.assert_array_equal(got, x)
    e = np.zeros((0, 3))
    for got in _compiled(lambda e: e.at[:, np.array([0, 2])].set(1.0), e):
        assert got.shape == (0, 3)


@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_put_along_axis_matches_numpy(axis):
    a = RNG.standard_normal((3, 4))
    if axis is None:
        idx = np.array([5, 0, 11])
        v = RNG.standard_normal(idx.shape)
        want = a.copy()
        want.reshape(-1)[idx] = v
    else:
        idx = np.take(np.argsort(a, axis=axis), [0, 1], axis=axis)
        v = RNG.standard_normal(idx.shape)
        want = a.copy()
        np.put_along_axis(want, idx, v, axis=axis)
    for got in _compiled(lambda a, i, v: tnp.put_along_axis(a, i, v, axis, inplace=False),
                         a, idx, v):
        np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(tnp.put_along_axis(a, idx, v, axis, inplace=False), want)
    with pytest.raises(ValueError, match="inplace=False"):
        tnp.put_along_axis(a, idx, v, axis)


def test_bincount_matches_numpy():
    x = RNG.integers(0, 7, 50)
    w = RNG.standard_normal(50)
    for got in _compiled(lambda x: tnp.bincount(x, length=9), x):
        want = np.bincount(x, minlength=9)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
    for got in _compiled(lambda x, w: tnp.bincount(x, w, length=7), x, w):
        np.testing.assert_allclose(got, np.bincount(x, w, minlength=7), rtol=1e-13)
    np.testing.assert_array_equal(tnp.bincount(x, minlength=3), np.bincount(x, minlength=3))
    np.testing.assert_array_equal(tnp.bincount(np.zeros(0, np.int64), length=2), [0, 0])
    with pytest.raises(TypeError, match="length="):
        tp.jit(lambda x: tnp.bincount(x))(x)


@pytest.mark.parametrize("bins,range_", [(5, None), (4, (0.0, 1.0)), ([-1.0, 0.0, 0.5, 2.0], None),
                                         (100, None), (64, (-1.0, 1.0))])  # equal bins by arithmetic
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32])
def test_histogram_matches_numpy(bins, range_, dtype):
    a = (RNG.standard_normal(200) * 2).astype(dtype)
    want_counts, want_edges = np.histogram(a, bins=bins, range=range_)
    for counts, edges in _compiled(lambda a: tnp.histogram(a, bins=bins, range=range_), a):
        assert counts.dtype == want_counts.dtype and edges.dtype == want_edges.dtype
        np.testing.assert_allclose(edges, want_edges, rtol=1e-6)
        np.testing.assert_array_equal(counts, want_counts)
    want_density = np.histogram(a, bins=bins, range=range_, density=True)[0]
    got = tnp.histogram(a, bins=bins, range=range_, density=True)[0]
    np.testing.assert_allclose(got, want_density, rtol=1e-6)


@pytest.mark.parametrize("right", [False, True])
def test_digitize_and_bin_edges(right):
    x = np.array([-1.0, 0.0, 0.5, 1.0, 2.5, 3.0, 9.0, np.nan])
    up, down = np.array([0.0, 1.0, 2.5, 3.0]), np.array([3.0, 2.5, 1.0, 0.0])
    for bins in (up, down):
        want = np.digitize(x, bins, right=right)
        for got in _compiled(lambda x, b: (tnp.digitize(x, b, right=right),
                                           tnp.digitize(x, bins, right=right)), x, bins):
            for g in got:
                assert g.dtype == want.dtype
                np.testing.assert_array_equal(g, want)
    a = RNG.standard_normal(30)
    for got in _compiled(lambda a: tnp.histogram_bin_edges(a, 6), a):
        np.testing.assert_allclose(got, np.histogram_bin_edges(a, 6), rtol=1e-12)
