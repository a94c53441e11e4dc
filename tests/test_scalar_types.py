"""tnp.float32, tnp.int32, ...: callable like JAX's scalar types (an array of that dtype,
0-d for a scalar, traced under jit) and still usable wherever a dtype is."""
from __future__ import annotations

import pickle

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp

NAMES = ["bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
         "float32", "float64"]


@pytest.mark.parametrize("name", NAMES)
def test_scalar_type_is_a_dtype(name):
    st, dt = getattr(tnp, name), np.dtype(name)
    assert np.dtype(st) == dt and st.dtype == dt
    assert st == dt and dt == st and st == getattr(np, name) and hash(st) == hash(dt)
    assert st != "not a dtype" and (st != np.complex128)
    assert np.zeros(2, st).dtype == dt and np.arange(3).astype(st).dtype == dt
    assert tnp.zeros(2, dtype=st).dtype == dt and tnp.asarray([1, 0]).astype(st).dtype == dt
    assert isinstance(dt.type(1), st) and not isinstance(1.5, st)
    assert pickle.loads(pickle.dumps(st)) is st
    assert repr(st) == f"<class 'transpile.numpy.{name}'>"


def test_scalar_type_calls_build_arrays_eagerly_jitted_and_interpreted():
    def fn(x):
        return (tnp.int32(0), tnp.float32(x), tnp.uint8(x * 100), tnp.bool_(x),
                x.astype(tnp.int16), tnp.zeros(2, tnp.float32), tnp.float32(2.5) * x[0])
    x = np.array([0.0, 1.5, 2.75])
    want = (np.asarray(0, np.int32), x.astype(np.float32),
            (x * 100).astype(np.uint8), x.astype(bool), x.astype(np.int16),
            np.zeros(2, np.float32), np.asarray(np.float32(2.5) * x[0]))
    results = [fn(x)] + [tp.jit(fn, backend=b)(x) for b in ("cpu", "interpret")]
    for got in results:
        for g, w in zip(got, want):
            g = np.asarray(g)
            assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, w.dtype)
            np.testing.assert_array_equal(g, w)


def test_scalar_type_as_a_static_argument_and_in_jax_style_code():
    f = tp.jit(lambda x, dt: x.astype(dt) + dt(1), static_argnums=1)
    out = f(np.array([1.7, -2.2]), tnp.int8)
    assert out.dtype == np.int8 and out.tolist() == [2, -1]
    assert tnp.float32(np.float64(1e40)) == np.float32(np.inf)
    assert tnp.int8(tnp.int32(300)) == 44            # wraps, as a NumPy/JAX cast
