"""jnp.convolve / jnp.correlate take JAX's keyword-only `precision=` and
`preferred_element_type=` (dm_pix's SSIM passes precision=Precision.HIGHEST), and under JAX's
dtype rules give JAX 0.10.2's dtypes: integer and boolean operands convolve as float32, an
int32 with a float32 is float32 (NumPy: int64 and float64)."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile import lax

I32 = np.array([1, 2, 0, 3, 5], np.int32)
K32 = np.array([2, -1, 1], np.int32)


@pytest.mark.parametrize("fn", [tnp.convolve, tnp.correlate])
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_precision_keyword_is_accepted_eagerly_and_under_jit(fn, mode):
    a, v = I32.astype(np.float32), K32.astype(np.float32)
    want = getattr(np, fn.__name__)(a, v, mode=mode)
    got = fn(a, v, mode=mode, precision=lax.Precision.HIGHEST)
    jitted = tp.jit(lambda a, v: fn(a, v, mode=mode, precision="highest"))(a, v)
    np.testing.assert_allclose(got, want)
    np.testing.assert_allclose(jitted, want)


@pytest.mark.parametrize("fn", [tnp.convolve, tnp.correlate])
@pytest.mark.parametrize("a, v, kwargs, jax_dtype", [
    (I32, K32, {}, np.float32),
    (I32, K32.astype(np.float32), {}, np.float32),
    (I32 > 1, K32 > 0, {}, np.float32),
    (I32, K32, {"preferred_element_type": np.int32}, np.int32),
])
def test_jax_rules_give_jax_result_dtypes(fn, a, v, kwargs, jax_dtype):
    with tp.config.settings(transpile_dtype_rules="jax"):
        got = tp.jit(lambda a, v: fn(a, v, **kwargs))(a, v)
    assert got.dtype == jax_dtype
    want = getattr(np, fn.__name__)(a.astype(np.float64), v.astype(np.float64))
    np.testing.assert_allclose(got, want)


def test_numpy_rules_keep_integer_convolution():
    got = tnp.convolve(I32, K32)
    np.testing.assert_array_equal(got, np.convolve(I32, K32))
    assert got.dtype.kind == "i"
