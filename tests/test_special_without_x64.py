"""jax.scipy.special's iterative functions under JAX's rules with 64-bit mode off, where
float64 does not exist: they compute in float32 (as JAX does), stay within float32's
accuracy of the float64 answer, and warn about nothing (the user asked for no float64).

They used to request float64 internally, which emitted JAX's "Explicitly requested dtype
float64" warning on every call, and their loop limits (1e-300, float64's eps and tiny) became
0 or unreachable in float32.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import transpile as tp
import transpile.scipy.special as tss
import transpile.random as trandom

A = np.array([0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 100.0], np.float32)
P = np.array([1e-30, 1e-10, 0.01, 0.3, 0.5, 0.7, 0.99, 1 - 1e-7], np.float32)
Z = np.array([-30, -10, -1, 0, 0.5, 2, 10, 40], np.float32)

CASES = {
    "gammainc": (A, A * np.float32(0.9)),
    "gammaincc": (A, A * np.float32(1.1)),
    "betainc": (A, A[::-1].copy(), P),
    "ndtri": (P,),
    "i0e": (Z,),
    "i1e": (Z,),
}


def _float64_answer(name, args):
    with tp.config.settings(transpile_dtype_rules="jax", jax_enable_x64=True):
        return np.asarray(getattr(tss, name)(*[a.astype(np.float64) for a in args]))


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "jit"])
def test_float32_only_special_functions(name, compiled):
    args = CASES[name]
    want = _float64_answer(name, args).astype(np.float32)
    fn = getattr(tss, name)
    with tp.config.settings(transpile_dtype_rules="jax", jax_enable_x64=False):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = np.asarray((tp.jit(fn) if compiled else fn)(*args))
    assert got.dtype == np.float32
    # JAX's own float32 gammainc/betainc are about 1e-5 from the float64 answer.
    np.testing.assert_allclose(got, want, rtol=5e-5, atol=1e-30, err_msg=name)


def test_gamma_sample_gradient_without_x64_is_finite():
    """The implicit gradient of gamma samples divides by the sample, floored at the working
    dtype's tiny (float64's tiny is 0 in float32)."""
    key = trandom.PRNGKey(0)
    with tp.config.settings(transpile_dtype_rules="jax", jax_enable_x64=False):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            grads = [tp.grad(lambda a: trandom.gamma(key, a, (16,)).sum())(np.float32(alpha))
                     for alpha in (0.01, 0.5, 3.0)]
    assert all(np.isfinite(g) for g in grads), grads
