"""Float max/min reductions under OpenMP's built-in max/min clause (codegen/c_reductions.py
NAN_SEEN): the clause may drop a NaN or pick either zero, so a row with a NaN gives its first
NaN and a zero result takes NumPy's sign, whichever way the lanes and threads combined."""
import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp

SHAPES = [(7, 129), (3, 40, 33), (200_000,)]      # rows, two reduced axes, one long threaded row


def _with_specials(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape).astype(dtype)
    flat = x.reshape(-1)
    flat[rng.random(flat.size) < 0.002] = np.nan
    flat[-1] = np.nan                                   # the last element of the last row
    return x


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("name", ["max", "min"])
def test_nan_rows_give_nan_and_others_the_extreme(name, shape, dtype):
    x = _with_specials(shape, dtype, seed=len(shape))
    f = tp.jit(lambda a: getattr(tnp, name)(a, axis=-1))
    np.testing.assert_array_equal(f(x), getattr(np, name)(x, axis=-1))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", ["max", "min"])
def test_the_nan_returned_is_the_rows_first(name, dtype):
    # Two NaNs of different bits in one row: the in-order fold keeps the first one, and so
    # must the clause's result after its serial pass.
    bits = np.uint32 if dtype == np.float32 else np.uint64
    first = np.array([np.nan], dtype).view(bits) | bits(1)     # a payload of its own
    second = -np.array([np.nan], dtype)
    x = np.linspace(-2, 2, 4 * 256, dtype=dtype).reshape(4, 256)
    x[1, 100], x[1, 7] = second[0], first.view(dtype)[0]
    out = np.asarray(tp.jit(lambda a: getattr(tnp, name)(a, axis=1))(x))
    assert out[1:2].view(bits)[0] == first[0]
    np.testing.assert_array_equal(out[[0, 2, 3]], getattr(np, name)(x, axis=1)[[0, 2, 3]])


@pytest.mark.parametrize("name", ["max", "min"])
def test_zero_results_keep_numpys_sign(name):
    x = np.zeros((5, 300), np.float32)
    x[::2, 1::3] = -0.0
    x[1] = -0.0
    x[3, -1] = 0.0
    out = np.asarray(tp.jit(lambda a: getattr(tnp, name)(a, axis=1))(x))
    np.testing.assert_array_equal(np.signbit(out), np.signbit(getattr(np, name)(x, axis=1)))


def test_source_uses_the_builtin_clause():
    x = np.ones((4, 64), np.float32)
    source = tp.jit(lambda a: tnp.max(a, axis=1)).lower(x).source
    assert "omp declare reduction" not in source
    assert "reduction(max:acc)" in source and "reduction(|:any_nan)" in source


def test_an_argument_named_like_the_nan_flag_does_not_shadow_it():
    def f(any_nan, acc):
        return tnp.max(any_nan, axis=1) + acc
    x = _with_specials((6, 50), np.float32, seed=3)
    np.testing.assert_array_equal(tp.jit(f)(x, np.float32(1)), np.max(x, axis=1) + 1)
