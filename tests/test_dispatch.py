"""The dispatch fast path (api._add_fast_path, cpu.Executable.plain_runner): calls with only
plain arrays skip the general key and conversions, and must behave exactly like the general
path for everything else (non-contiguous, byte-swapped, subclasses, scalars, pytrees)."""
import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp


def _add(a, b):
    return a + b


def test_repeated_calls_are_hits_with_fresh_outputs():
    f = tp.jit(_add)
    x, y = np.arange(8.0), np.ones(8)
    results = [f(x, y) for _ in range(4)]       # miss, general hit, then fast-path hits
    for r in results:
        np.testing.assert_array_equal(r, x + y)
    assert len({id(r) for r in results}) == 4   # every call returns a new array
    results[-1][0] = 100.0
    assert results[-2][0] == 1.0
    info = f.cache_info()
    assert (info.misses, info.hits) == (1, 3)


@pytest.mark.filterwarnings("ignore:the matrix subclass:PendingDeprecationWarning")
def test_arguments_the_fast_path_refuses_take_the_general_path():
    f = tp.jit(_add)
    x = np.arange(8.0)
    f(x, x), f(x, x)                             # the fast path now knows f64[8] x 2
    wide = np.arange(16.0)
    np.testing.assert_array_equal(f(wide[::2], x), wide[::2] + x)      # not contiguous
    swapped = x.astype(">f8")
    np.testing.assert_array_equal(f(swapped, x), x + x)                # byte-swapped
    np.testing.assert_array_equal(f(x, 2.0), x + 2.0)                  # a Python number
    np.testing.assert_array_equal(f(x, np.float64(2.0)), x + 2.0)      # a NumPy scalar
    with pytest.raises(TypeError, match="matrix"):                     # as the general path
        f(np.matrix(x), x)
    np.testing.assert_array_equal(f(x.astype(np.float32), x), x + x)   # another dtype


def test_pytree_outputs_and_constants():
    w = np.linspace(0.0, 1.0, 5)

    def g(a, b):
        return {"sum": a + b + w, "pair": (a * 2.0, tnp.sum(b))}
    f = tp.jit(g)
    a, b = np.arange(5.0), np.full(5, 3.0)
    for _ in range(3):
        out = f(a, b)
        np.testing.assert_array_equal(out["sum"], a + b + w)
        np.testing.assert_array_equal(out["pair"][0], a * 2.0)
        assert out["pair"][1] == 15.0 and out["pair"][1].shape == ()


def test_clear_cache_and_static_and_keyword_arguments():
    f = tp.jit(lambda a, n: a * n, static_argnums=1)
    x = np.arange(3.0)
    for n in (2, 2, 3, 3):
        np.testing.assert_array_equal(f(x, n), x * n)
    g = tp.jit(_add)
    for _ in range(2):
        np.testing.assert_array_equal(g(x, b=x), x + x)
    g(x, x), g(x, x)
    g.clear_cache()
    np.testing.assert_array_equal(g(x, x), x + x)
    assert g.cache_info().entries == 1


def test_python_numbers_on_the_fast_path():
    f = tp.jit(lambda a, n, flag: tnp.where(flag, a * n, a))
    x = np.arange(4.0)
    for _ in range(3):
        np.testing.assert_array_equal(f(x, 3, True), x * 3)
        np.testing.assert_array_equal(f(x, 2, False), x)
        np.testing.assert_array_equal(f(x, 2.5, True), x * 2.5)     # float: another entry
    with pytest.raises((OverflowError, ValueError)):                 # as the general path
        f(x, 2**70, True)
    g = tp.jit(lambda a: a * 2.0 + 1.0)
    for v in (1.5, 1.5, 1.5, -2.0):
        r = g(v)
        assert r == v * 2.0 + 1.0 and r.shape == () and r.dtype == np.float64


def test_tuple_outputs_on_the_fast_path():
    f = tp.jit(lambda a, b: (a + b, a * b))
    x, y = np.arange(3.0), np.full(3, 2.0)
    for _ in range(3):
        out = f(x, y)
        assert type(out) is tuple and len(out) == 2
        np.testing.assert_array_equal(out[0], x + y)
        np.testing.assert_array_equal(out[1], x * y)
