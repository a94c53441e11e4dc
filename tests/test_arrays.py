"""Reductions, shape manipulation, indexing, linear algebra and creation: C against NumPy."""
import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from conftest import ALL_DTYPES, FLOATS, assert_same

AXES = [None, 0, 1, 2, -1, (0, 2), (1, 2), (0, 1, 2)]


def random_array(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -50), min(info.max, 50), size=shape, dtype=dtype,
                            endpoint=True)
    return (rng.standard_normal(shape) * 3).astype(dtype)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_reductions_over_every_axis_choice(dtype):
    x = random_array((3, 4, 5), dtype)
    names = ["sum", "prod", "max", "min", "all", "any", "mean"]
    valid = [n for n in names if not (n == "mean" and dtype == np.bool_)]

    def f(a):
        return {f"{n}_{axis}_{keep}": getattr(tnp, n)(a, axis=axis, keepdims=keep)
                for n in valid for axis in AXES for keep in (False, True)}
    got = tp.jit(f)(x)
    for n in valid:
        for axis in AXES:
            for keep in (False, True):
                expected = getattr(np, n)(x, axis=axis, keepdims=keep)
                tol = {"rtol": 1e-5 if dtype == np.float32 else 1e-12} \
                    if dtype.kind == "f" or n == "mean" else {}
                assert_same(got[f"{n}_{axis}_{keep}"], expected, what=f"{n} {axis} {keep}",
                            **tol)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_argmax_argmin(dtype):
    x = random_array((4, 6), dtype, seed=3)
    f = tp.jit(lambda a: (tnp.argmax(a), tnp.argmin(a), tnp.argmax(a, axis=0),
                          tnp.argmin(a, axis=1), a.argmax(axis=1, keepdims=True)))
    expected = (np.argmax(x), np.argmin(x), np.argmax(x, axis=0), np.argmin(x, axis=1),
                np.argmax(x, axis=1, keepdims=True))
    for g, e in zip(f(x), expected):
        assert_same(g, e)


@pytest.mark.parametrize("dtype", FLOATS)
def test_nan_propagates_through_max_min_and_argmax(dtype):
    x = np.array([[1.0, np.nan, 3.0, np.nan], [2.0, -np.inf, 5.0, 0.0]], dtype=dtype)
    f = tp.jit(lambda a: (tnp.max(a), tnp.min(a, axis=1), tnp.argmax(a, axis=1),
                          tnp.argmin(a), tnp.sum(a, axis=0)))
    expected = (np.max(x), np.min(x, axis=1), np.argmax(x, axis=1), np.argmin(x),
                np.sum(x, axis=0))
    for g, e in zip(f(x), expected):
        assert_same(g, e)


def test_large_float32_sum_is_accurate():
    x = np.random.default_rng(1).random(1_000_003).astype(np.float32)
    got = tp.jit(lambda a: tnp.sum(a * a))(x)
    exact = np.sum(x.astype(np.float64) ** 2)
    assert got.dtype == np.float32
    assert abs(float(got) - exact) / exact < 1e-6


def test_integer_sums_promote_and_wrap_like_numpy():
    x = np.full(1000, 100, dtype=np.int8)
    u = np.full(10, 2**63, dtype=np.uint64)
    got = tp.jit(lambda a, b: (tnp.sum(a), tnp.prod(a[:3]), tnp.sum(b), tnp.mean(a),
                               tnp.sum(a, dtype=tnp.int8)))(x, u)
    with np.errstate(all="ignore"):
        expected = (np.sum(x), np.prod(x[:3]), np.sum(u), np.mean(x), np.sum(x, dtype=np.int8))
    for g, e in zip(got, expected):
        assert_same(g, e)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_shape_ops_and_static_indexing(dtype):
    x = random_array((3, 4, 5), dtype, seed=5)

    def f(a):
        return [a.reshape(12, 5), a.reshape(-1), tnp.transpose(a), a.transpose(2, 0, 1), a.T,
                a[1], a[-1, ::2], a[:, 1:3, ::-2], a[..., 0], a[None, 1, :, None], a[::-1, 3],
                a[2:0:-1, -3:], tnp.squeeze(a[:, :1, :], axis=1), tnp.expand_dims(a, 1),
                tnp.broadcast_to(a[:, :1, :], (2, 3, 4, 5)), tnp.concatenate([a, a[:1]], axis=0),
                tnp.concatenate([a, a], axis=-1), tnp.stack([a, a], axis=1), tnp.ravel(a),
                tnp.flip(a, 1), tnp.moveaxis(a, 0, -1), a[1:1]]
    got = tp.jit(f)(x)
    expected = [x.reshape(12, 5), x.reshape(-1), np.transpose(x), x.transpose(2, 0, 1), x.T,
                x[1], x[-1, ::2], x[:, 1:3, ::-2], x[..., 0], x[None, 1, :, None], x[::-1, 3],
                x[2:0:-1, -3:], np.squeeze(x[:, :1, :], axis=1), np.expand_dims(x, 1),
                np.broadcast_to(x[:, :1, :], (2, 3, 4, 5)), np.concatenate([x, x[:1]], axis=0),
                np.concatenate([x, x], axis=-1), np.stack([x, x], axis=1), np.ravel(x),
                np.flip(x, 1), np.moveaxis(x, 0, -1), x[1:1]]
    for i, (g, e) in enumerate(zip(got, expected)):
        assert_same(g, e, what=f"shape op {i}")


def test_reshape_of_computed_values_and_views_of_views():
    x = np.arange(24, dtype=np.float64).reshape(4, 6)
    f = tp.jit(lambda a: ((a * 2).T.reshape(3, 8) + 1, (a + 1)[::2].reshape(-1)[3:],
                          tnp.exp(a).reshape(2, 12).sum(axis=1)))
    expected = ((x * 2).T.reshape(3, 8) + 1, (x + 1)[::2].reshape(-1)[3:],
                np.exp(x).reshape(2, 12).sum(axis=1))
    for g, e in zip(f(x), expected):
        assert_same(g, e, rtol=1e-12)


def test_bad_indices_raise_clear_errors():
    x = np.ones((3, 4))
    with pytest.raises(IndexError, match="out of bounds"):
        tp.jit(lambda a: a[5])(x)
    with pytest.raises(IndexError, match="too many indices"):
        tp.jit(lambda a: a[0, 0, 0])(x)
    with pytest.raises(IndexError, match="boolean mask"):     # data-dependent shape
        tp.jit(lambda a: a[a > 0])(x)
    # Integer-array indexing is supported now (gather): no longer an error.
    np.testing.assert_array_equal(tp.jit(lambda a: a[np.array([0, 1])])(x), x[[0, 1]])
    with pytest.raises(TypeError, match="integer scalars"):
        tp.jit(lambda a, i: a[i])(x, 1.5)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int8", "uint8", "bool"])
def test_dot_and_matmul(dtype):
    a2, b2 = random_array((5, 7), dtype, 1), random_array((7, 3), dtype, 2)
    v, w = random_array((7,), dtype, 3), random_array((7,), dtype, 4)
    a3, b3 = random_array((2, 5, 7), dtype, 5), random_array((2, 7, 3), dtype, 6)
    f = tp.jit(lambda a2, b2, v, w, a3, b3: (
        tnp.dot(v, w), tnp.dot(a2, v), tnp.dot(a2, b2), a2 @ b2, a3 @ b3, a3 @ b2,
        tnp.matmul(v, b2), tnp.dot(a3, b2), v @ w))
    with np.errstate(all="ignore"):
        expected = (np.dot(v, w), np.dot(a2, v), np.dot(a2, b2), a2 @ b2, a3 @ b3, a3 @ b2,
                    np.matmul(v, b2), np.dot(a3, b2), v @ w)
    tol = {"rtol": 1e-5 if dtype == "float32" else 1e-12} if "float" in dtype else {}
    for i, (g, e) in enumerate(zip(f(a2, b2, v, w, a3, b3), expected)):
        assert_same(g, e, what=f"product {i}", **tol)


def test_matmul_shape_mismatch_names_shapes():
    with pytest.raises(ValueError, match=r"\(3, 4\).*\(5, 2\)"):
        tp.jit(lambda a, b: a @ b)(np.ones((3, 4)), np.ones((5, 2)))


def test_creation_functions_under_jit():
    def f(x):
        return (tnp.zeros((2, 3)), tnp.ones(4, dtype=tnp.int8), tnp.full((2,), 7.5),
                tnp.zeros_like(x), tnp.ones_like(x, dtype=tnp.float32), tnp.full_like(x, 3),
                tnp.arange(5), tnp.arange(1.0, 2.0, 0.25, dtype=tnp.float32),
                tnp.linspace(0, 1, 5), tnp.eye(3), tnp.eye(3, 4, k=1, dtype=tnp.int32),
                tnp.array([x[0], x[1], 2.0]), tnp.asarray([[1, 2], [3, 4]], dtype=tnp.uint8))
    x = np.array([1.5, -2.0, 3.0])
    expected = (np.zeros((2, 3)), np.ones(4, dtype=np.int8), np.full((2,), 7.5),
                np.zeros_like(x), np.ones_like(x, dtype=np.float32), np.full_like(x, 3),
                np.arange(5), np.arange(1.0, 2.0, 0.25, dtype=np.float32),
                np.linspace(0, 1, 5), np.eye(3), np.eye(3, 4, k=1, dtype=np.int32),
                np.array([x[0], x[1], 2.0]), np.asarray([[1, 2], [3, 4]], dtype=np.uint8))
    for i, (g, e) in enumerate(zip(tp.jit(f)(x), expected)):
        assert_same(g, e, what=f"creation {i}")
    with pytest.raises(tp.ConcretizationError, match="'n'"):
        tp.jit(lambda n: tnp.zeros(n))(3)


def test_eager_mode_matches_numpy_without_jit():
    x = random_array((3, 4), "float32")
    assert_same(tnp.sum(tnp.exp(x) * 2, axis=1), np.sum(np.exp(x) * 2, axis=1), max_ulp=4)
    assert_same(tnp.where(x > 0, x, 0.0), np.where(x > 0, x, 0.0))
    assert_same(tnp.dot(x, x.T), np.dot(x, x.T), rtol=1e-6)
