"""nanvar/nanstd (and var/std with where=) keep a float32 or float16 input's dtype, as NumPy
does: the masked mean divided by an integer count made them float64 (issue #19 listed float32
nanvar; found again by h/stats' sem)."""
import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp

X = np.array([[1, 2, np.nan, 4], [3, np.nan, 1, 1.5], [0.5, 2, 2, 8]])


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64])
@pytest.mark.parametrize("kwargs", [{}, {"axis": 1}, {"axis": 0, "ddof": 1}, {"keepdims": True}])
@pytest.mark.parametrize("name", ["nanvar", "nanstd"])
def test_nan_variance_keeps_the_inputs_dtype(name, kwargs, dtype):
    x = (X + 1j * X[::-1]).astype(dtype) if dtype == np.complex64 else X.astype(dtype)
    want = getattr(np, name)(x, **kwargs)
    eager = getattr(tnp, name)(x, **kwargs)
    jitted = tp.jit(lambda v: getattr(tnp, name)(v, **kwargs))(x)
    for got in (eager, jitted):
        assert np.asarray(got).dtype == want.dtype
        tol = 2e-3 if dtype == np.float16 else 1e-6
        np.testing.assert_allclose(np.asarray(got), want, rtol=tol, equal_nan=True)


def test_var_with_where_keeps_float32():
    x = X.astype(np.float32)
    mask = ~np.isnan(x)
    got = tp.jit(lambda v, m: tnp.var(v, axis=1, where=m))(x, mask)
    want = np.var(x, axis=1, where=mask)
    assert got.dtype == want.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=1e-6)
