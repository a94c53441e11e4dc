"""Index helpers (indices, triu/tril/diag indices, unravel_index, fill_diagonal, isin) against
NumPy, eagerly and under jit; unravel_index against JAX's documented rule for out-of-range
indices (NumPy raises there). tools-free: JAX's values for these equal NumPy's in range."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp


def _same(got, want):
    if isinstance(want, tuple):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g, w)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("call", [
    lambda m: m.triu_indices(4, 1), lambda m: m.tril_indices(3, -1, 5),
    lambda m: m.diag_indices(3, 3), lambda m: m.indices((2, 3)),
    lambda m: m.indices((2, 3), sparse=True),
    lambda m: m.triu_indices_from(np.zeros((3, 4))),
    lambda m: m.tril_indices_from(np.zeros((4, 2)), 1),
    lambda m: m.diag_indices_from(np.zeros((3, 3)))])
def test_static_index_tables_equal_numpy(call):
    _same(call(tnp), call(np))


def test_index_tables_refuse_traced_sizes():
    with pytest.raises(TypeError, match="'n' is traced"):
        tp.jit(lambda n: tnp.triu_indices(n))(np.int32(3))


def _jax_unravel(i, shape):
    size = int(np.prod(shape))
    if -size <= i < size:
        return np.unravel_index(i % size, shape)
    return tuple(s - 1 for s in shape) if i >= size else tuple(0 for _ in shape)


@pytest.mark.parametrize("jitted", [False, True])
def test_unravel_index_wraps_negatives_and_clips_like_jax(jitted):
    flat = np.array([0, 5, 11, 12, 40, -1, -12, -13, -50], np.int32)
    run = tp.jit(lambda i: tnp.unravel_index(i, (3, 4))) if jitted else \
        (lambda i: tnp.unravel_index(i, (3, 4)))
    want = tuple(np.array(c) for c in zip(*[_jax_unravel(int(i), (3, 4)) for i in flat]))
    _same(run(flat), want)


@pytest.mark.parametrize("val", [5.0, np.array([1.0, 2.0], np.float32)])
@pytest.mark.parametrize("shape", [(3, 4), (4, 2), (3, 3, 3)])
def test_fill_diagonal_returns_numpys_result(val, shape):
    a = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    want = a.copy()
    np.fill_diagonal(want, val)
    got = tp.jit(lambda a, v: tnp.fill_diagonal(a, v, inplace=False))(a, np.asarray(val))
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(tnp.fill_diagonal(a, val, inplace=False), want)


def test_fill_diagonal_in_place_is_refused():
    with pytest.raises(ValueError, match="inplace=False"):
        tnp.fill_diagonal(np.zeros((2, 2)), 1.0)


@pytest.mark.parametrize("invert", [False, True])
def test_isin_equals_numpy(invert):
    element = np.array([[1, 2], [3, 9]])
    for tests in (np.array([9, 1, 7]), np.array([[2], [3]]), np.array([], np.int64)):
        want = np.isin(element, tests, invert=invert)
        np.testing.assert_array_equal(tnp.isin(element, tests, invert=invert), want)
        np.testing.assert_array_equal(
            tp.jit(lambda e, t: tnp.isin(e, t, invert=invert))(element, tests), want)
