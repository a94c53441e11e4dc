"""jax.lax's operations by their JAX names and semantics: C-style integer division, rounding
half away from zero, dtype-keeping reductions, pad with interior and negative padding,
dot_general, associative_scan and map; eager, compiled and interpreted all agree."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
from transpile import lax

RNG = np.random.default_rng(3)


def _all_ways(fn, *args):
    outs = [fn(*args)]
    for backend in ("cpu", "interpret"):
        f = tp.jit(fn, backend=backend)
        f(*args)
        outs.append(f(*args))
    return outs


def _same(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, want.dtype)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64])
def test_div_rem_truncate_toward_zero_as_c(dtype):
    x = RNG.integers(-100, 100, 64).astype(dtype)
    y = RNG.integers(-9, 10, 64).astype(dtype)
    y[:3] = 0
    info = np.iinfo(dtype)
    with np.errstate(all="ignore"):
        want_div = np.where(y == 0, -1, np.trunc(x / np.where(y == 0, 1, y))).astype(dtype)
        want_rem = np.where(y == 0, x, np.fmod(x, np.where(y == 0, 1, y))).astype(dtype)
    for got in _all_ways(lambda x, y: lax.div(x, y), x, y):
        _same(got, want_div)
    for got in _all_ways(lambda x, y: lax.rem(x, y), x, y):
        _same(got, want_rem)
    assert info.min < 0


def test_float_rem_is_fmod_with_the_sign_of_x():
    x = np.array([5.5, -5.5, 5.5, -5.5, -0.0, np.inf, 3.0], np.float64)
    y = np.array([2.0, 2.0, -2.0, -2.0, 3.0, 2.0, 0.0])
    with np.errstate(all="ignore"):
        want = np.fmod(x, y)
        for got in _all_ways(lax.rem, x, y):
            np.testing.assert_array_equal(got, want)
            assert np.signbit(got[4])


def test_round_methods():
    x = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.49999999999999994, -0.0, np.nan])
    away = np.array([-3, -2, -1, 1, 2, 3, 0, -0.0, np.nan])
    for got in _all_ways(lax.round, x):
        np.testing.assert_array_equal(got, away)
    for got in _all_ways(lambda x: lax.round(x, lax.RoundingMethod.TO_NEAREST_EVEN), x):
        np.testing.assert_array_equal(got, np.rint(x))


def test_reductions_and_cumulative_keep_the_dtype():
    x = np.full((4, 50), 7, np.int8)
    for got in _all_ways(lambda x: lax.reduce_sum(x, (1,)), x):
        _same(got, np.sum(x, axis=1, dtype=np.int8))
    for got in _all_ways(lambda x: lax.cumsum(x, axis=1, reverse=True), x):
        _same(got, np.cumsum(x[:, ::-1], axis=1, dtype=np.int8)[:, ::-1])
    f = RNG.standard_normal((5, 6))
    for got in _all_ways(lambda f: lax.cummax(f, axis=0), f):
        _same(got, np.maximum.accumulate(f, axis=0))
    for got in _all_ways(lambda f: (lax.reduce_max(f, (0, 1)), lax.argmax(f, 1, np.int32)), f):
        _same(got[0], f.max())
        _same(got[1], f.argmax(1).astype(np.int32))


@pytest.mark.parametrize("config", [[(1, 2, 0)], [(0, 0, 2)], [(-2, 1, 1)], [(3, -4, 3)]])
def test_pad_low_high_interior(config):
    x = np.arange(1, 7, dtype=np.float32)
    lo, hi, interior = config[0]
    spread = np.zeros(len(x) + (len(x) - 1) * interior, np.float32) - 1
    spread[::interior + 1] = x
    padded = np.concatenate([np.full(max(lo, 0), -1, np.float32), spread,
                             np.full(max(hi, 0), -1, np.float32)])
    want = padded[max(-lo, 0):len(padded) - max(-hi, 0)]
    for got in _all_ways(lambda x: lax.pad(x, -1.0, config), x):
        _same(got, want)


def test_dot_general_batch_and_contracting_dims():
    a = RNG.standard_normal((2, 3, 4))
    b = RNG.standard_normal((4, 2, 5))
    dims = (((2,), (0,)), ((0,), (1,)))
    want = np.einsum("bik,kbj->bij", a, b)
    for got in _all_ways(lambda a, b: lax.dot_general(a, b, dims), a, b):
        np.testing.assert_allclose(got, want, rtol=1e-12)


def test_structural_ops():
    x = RNG.integers(0, 9, (2, 3)).astype(np.int32)
    checks = [
        (lambda x: lax.broadcast_in_dim(x, (4, 2, 3), (1, 2)), np.broadcast_to(x, (4, 2, 3))),
        (lambda x: lax.reshape(x, (3, 2), dimensions=(1, 0)), x.T.reshape(3, 2)),
        (lambda x: lax.slice(x, (0, 1), (2, 3)), x[0:2, 1:3]),
        (lambda x: lax.concatenate([x, x], 1), np.concatenate([x, x], 1)),
        (lambda x: lax.transpose(x, (1, 0)), x.T),
        (lambda x: lax.clamp(2, x, 5), np.clip(x, 2, 5)),
        (lambda x: lax.select_n(x % 3, x, x * 10, x * 100),
         np.choose(x % 3, [x, x * 10, x * 100])),
        (lambda x: lax.convert_element_type(x, np.float32), x.astype(np.float32)),
        (lambda x: lax.integer_pow(x, 3), x ** 3),
        (lambda x: x + lax.broadcasted_iota(np.int32, (2, 3), 1), x + np.arange(3, dtype=np.int32)),
        (lambda x: lax.stop_gradient(x), x),
    ]
    for fn, want in checks:
        for got in _all_ways(fn, x):
            _same(got, want)


def test_associative_scan_and_map():
    x = RNG.integers(-5, 5, 37).astype(np.int64)
    for got in _all_ways(lambda x: lax.associative_scan(lax.add, x), x):
        _same(got, np.cumsum(x))
    for got in _all_ways(lambda x: lax.associative_scan(lax.max, x, reverse=True), x):
        _same(got, np.maximum.accumulate(x[::-1])[::-1])
    pair = lambda a, b: (a[0] + b[0], a[1] * b[1])        # noqa: E731  a pytree of carries
    for got in _all_ways(lambda x: lax.associative_scan(pair, (x, x % 3 + 1)), x):
        _same(got[0], np.cumsum(x))
        _same(got[1], np.cumprod(x % 3 + 1))
    m = RNG.standard_normal((4, 3))
    for got in _all_ways(lambda m: lax.map(lambda row: row.sum() * 2, m), m):
        np.testing.assert_allclose(got, m.sum(1) * 2)


def test_dynamic_in_dim_helpers():
    x = np.arange(20.).reshape(4, 5)
    f = tp.jit(lambda x, i: (lax.dynamic_slice_in_dim(x, i, 2, axis=1),
                             lax.dynamic_update_index_in_dim(x, x[0] * 0 - 1, i, 0)))
    a, b = f(x, 2)
    _same(a, x[:, 2:4])
    want = x.copy()
    want[2] = -1
    _same(b, want)
