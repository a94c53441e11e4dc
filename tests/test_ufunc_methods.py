"""Ufunc methods (outer, reduce, accumulate, at) on the binary tnp functions against
NumPy's, with values and dtypes, compiled (called twice), interpreted and eager; the
functions themselves still call, pickle and serve as Tracer operators."""
from __future__ import annotations

import pickle

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp

RNG = np.random.default_rng(3)
UFUNCS = ["add", "multiply", "maximum", "minimum", "logical_and", "logical_or", "logical_xor",
          "bitwise_and", "bitwise_or", "bitwise_xor"]


def _all_ways(fn, *args):
    out = []
    for backend in ("cpu", "interpret"):
        f = tp.jit(fn, backend=backend)
        f(*args)
        out.append(f(*args))
    out.append(fn(*args))
    return out


def _data(dtype, shape):
    if dtype == np.bool_:
        return RNG.integers(0, 2, shape).astype(bool)
    return RNG.integers(-4, 5, shape).astype(dtype)


def _check(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, want.dtype)
    np.testing.assert_allclose(got, want, rtol=1e-6)


def _methods(lib, names, x):
    out = []
    for name in names:
        f = getattr(lib, name)
        out += [f.reduce(x), f.reduce(x, axis=1, keepdims=True), f.reduce(x, None),
                f.accumulate(x), f.accumulate(x, axis=1), f.outer(x[0], x[:2, 1])]
    return out


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.uint16, np.float32, np.bool_])
def test_reduce_accumulate_outer(dtype):
    x = _data(dtype, (3, 5))
    # Bitwise ufuncs take integers and booleans only, as in NumPy.
    names = [n for n in UFUNCS if not (n.startswith("bitwise") and dtype == np.float32)]
    want = _methods(np, names, x)
    for got in _all_ways(lambda x: _methods(tnp, names, x), x):
        for g, w in zip(got, want):
            _check(g, w)


@pytest.mark.parametrize("name", ["add", "multiply", "bitwise_or", "logical_and", "maximum"])
def test_reduce_initial_where_and_empty(name):
    x = _data(np.int32, (4, 3))
    mask = RNG.integers(0, 2, (4, 3)).astype(bool)
    ours, theirs = getattr(tnp, name), getattr(np, name)
    empty = np.zeros((0, 3), np.int32)
    initial = 1 if name != "logical_and" else True

    def fn(x, mask, empty):
        return (ours.reduce(x, axis=0, initial=initial), ours.reduce(x, axis=0, where=mask,
                                                                     initial=initial),
                ours.reduce(empty, axis=0, initial=initial))
    want = (theirs.reduce(x, axis=0, initial=initial),
            theirs.reduce(x, axis=0, where=mask, initial=initial),
            theirs.reduce(empty, axis=0, initial=initial))
    for got in _all_ways(fn, x, mask, empty):
        for g, w in zip(got, want):
            _check(g, w)


def test_at_is_a_scatter():
    x = np.arange(6.0)
    i = np.array([0, 0, 4])
    for name in ("add", "multiply", "maximum", "minimum"):
        want = x.copy()
        getattr(np, name).at(want, i, 3.0)
        for got in _all_ways(lambda x, i: getattr(tnp, name).at(x, i, 3.0, inplace=False), x, i):
            _check(got, want)
    with pytest.raises(ValueError, match="inplace=False"):
        tnp.add.at(x, i, 1.0)


def test_non_associative_ufuncs_refuse_reduce():
    with pytest.raises(NotImplementedError, match="associative"):
        tnp.subtract.reduce(np.ones(3))


def test_the_functions_are_unchanged():
    x = np.arange(4.0)
    assert pickle.loads(pickle.dumps(tnp.add)) is tnp.add
    assert tnp.add.__name__ == "add" and tnp.add.nin == 2 and tnp.add.identity == 0
    for got in _all_ways(lambda x: (tnp.add(x, 1), x + x, 2 - x, x < 2, tnp.logical_or(x, 0)),
                         x):
        _check(got[0], x + 1)
        _check(got[1], x + x)
        _check(got[2], 2 - x)
        _check(got[3], x < 2)
        _check(got[4], np.logical_or(x, 0))
