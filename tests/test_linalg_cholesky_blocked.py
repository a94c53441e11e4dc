"""The host's blocked Cholesky (runtime/include/tp_cholesky.h) against numpy.linalg.cholesky,
at sizes on both sides of its block size, of the strips and row blocks it cuts the trailing
update into, and of the size from which a matrix gets threads of its own; float32 and
float64, batched, and JAX's all-NaN result for an input that is not positive definite
wherever the failing pivot falls (first block or a later one)."""
from __future__ import annotations

import os
import re

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile.runtime import INCLUDE_DIR

RNG = np.random.default_rng(23)


def _header_constant(name: str) -> int:
    """A size the header defines (#define NAME value), so the sizes below follow it."""
    with open(os.path.join(INCLUDE_DIR, "tp_cholesky.h")) as f:
        found = re.search(rf"#define {name} (\d+)", f.read())
    assert found, f"tp_cholesky.h no longer defines {name}"
    return int(found.group(1))


BLOCK = _header_constant("TP_CHOLESKY_BLOCK")
THREADS_FROM = _header_constant("TP_CHOLESKY_PARALLEL_MIN")
# 1 and 2; around one block and two (the last step's block is partial); odd sizes whose
# trailing updates end in partial micro-tiles (MR = 12 or 6 rows; chunks of 48 or 96 rows);
# and from the size at which a matrix is shared between threads.
SIZES = sorted({1, 2, 7, BLOCK - 1, BLOCK, BLOCK + 1, 2 * BLOCK + 3, 157, THREADS_FROM - 1,
                THREADS_FROM + 1, 2 * THREADS_FROM + 5})


def _spd(shape, dtype):
    """A well-conditioned symmetric positive-definite batch, with a nonsymmetric upper
    triangle: Cholesky reads the lower one only."""
    n = shape[-1]
    x = RNG.standard_normal(shape)
    a = x @ np.swapaxes(x, -1, -2) / n + np.eye(n)
    return (a + np.triu(RNG.standard_normal(shape), 1)).astype(dtype)


def _want(a):
    lower = np.tril(a)
    return np.linalg.cholesky(lower + np.swapaxes(np.tril(lower, -1), -1, -2))


def _check(got, a):
    want = _want(a)
    eps = np.finfo(a.dtype).eps
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=200 * eps, atol=200 * eps)
    assert np.all(np.triu(got, 1) == 0)            # exactly zero above the diagonal


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_blocked_cholesky_at_every_boundary(dtype):
    mats = [_spd((n, n), dtype) for n in SIZES]
    f = tp.jit(lambda *a: [tnp.linalg.cholesky(x) for x in a])
    for got, a in zip(f(*mats), mats):
        _check(got, a)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_blocked_cholesky_batched(dtype):
    """A batch of one matrix per thread or more (each on one thread), and one of two
    matrices large enough for threads of their own."""
    small = _spd((3, 2, BLOCK + 5, BLOCK + 5), dtype)
    large = _spd((2, THREADS_FROM + 3, THREADS_FROM + 3), dtype)
    got_small, got_large = tp.jit(lambda s, l: (tnp.linalg.cholesky(s),
                                                tnp.linalg.cholesky(l)))(small, large)
    _check(got_small, small)
    _check(got_large, large)


def _with_bad_pivot(n, k, dtype):
    """An SPD matrix whose k-th pivot is negative (a diagonal entry far too small)."""
    a = _spd((n, n), np.float64)
    a[k, k] = -1.0
    return a.astype(dtype)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_not_positive_definite_is_all_nan_wherever_it_fails(dtype):
    n = 2 * BLOCK + 3
    fails = {"first block": _with_bad_pivot(n, 3, dtype),
             "later block": _with_bad_pivot(n, BLOCK + 7, dtype),
             "last pivot": _with_bad_pivot(n, n - 1, dtype),
             "threads": _with_bad_pivot(THREADS_FROM + 1, THREADS_FROM - 2, dtype)}
    nan_below = _spd((n, n), dtype)
    nan_below[BLOCK + 9, 4] = np.nan                  # a NaN in a later block's rows
    fails["nan"] = nan_below
    good = _spd((n, n), dtype)
    batch = np.stack([good, fails["later block"], good])
    f = tp.jit(lambda *a: [tnp.linalg.cholesky(x) for x in a])
    for (name, a), got in zip(fails.items(), f(*fails.values())):
        assert np.all(np.isnan(got)), name
    got = tp.jit(tnp.linalg.cholesky)(batch)
    _check(got[0], good)
    assert np.all(np.isnan(got[1]))                   # one matrix's failure is its own
    _check(got[2], good)
