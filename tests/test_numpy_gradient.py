"""tnp.gradient against NumPy's: values and dtypes, eagerly and under jit, and its errors."""
import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp

RNG = np.random.default_rng(7)
CASES = [
    (RNG.random((5, 7)), (), {}),
    (RNG.random((5, 7)), (0.5,), {"axis": 1}),
    (RNG.random((5, 7)).astype(np.float32), (), {"axis": -1}),
    (np.arange(12).reshape(3, 4) ** 2, (2.0, 3.0), {}),
    (RNG.random((4, 9))[:, ::2], (), {}),          # a strided view
    (RNG.random(2), (), {}),                       # the smallest axis allowed
    (RNG.random((3, 4, 5)), (), {"axis": (0, 2)}),
]


def _as_tuple(r):
    return r if isinstance(r, tuple) else (r,)


@pytest.mark.parametrize("a, spacing, kw", CASES)
def test_gradient_matches_numpy(a, spacing, kw):
    expected = _as_tuple(np.gradient(a, *spacing, **kw))
    eager = _as_tuple(tnp.gradient(a, *spacing, **kw))
    compiled = _as_tuple(tp.jit(lambda x: tnp.gradient(x, *spacing, **kw))(a))
    assert len(expected) == len(eager) == len(compiled)
    for e, u, c in zip(expected, eager, compiled):
        assert e.dtype == u.dtype == c.dtype
        np.testing.assert_allclose(u, e, rtol=1e-6 if e.dtype == np.float32 else 1e-14)
        np.testing.assert_allclose(c, e, rtol=1e-6 if e.dtype == np.float32 else 1e-14)


def test_gradient_errors_say_what_is_unsupported():
    with pytest.raises(ValueError, match="at least 2"):
        tnp.gradient(np.ones((1, 3)))
    with pytest.raises(NotImplementedError, match="edge_order"):
        tnp.gradient(np.ones(4), edge_order=2)
    np.testing.assert_allclose(tnp.gradient(np.arange(4.0) ** 2, np.arange(4.0) * 2),
                               np.gradient(np.arange(4.0) ** 2, np.arange(4.0) * 2))
    with pytest.raises(ValueError, match="one per sample"):
        tnp.gradient(np.ones(4), np.arange(3.0))
    with pytest.raises(ValueError, match="scalar or the 1-d coordinates"):
        tnp.gradient(np.ones(4), np.ones((2, 2)))
    with pytest.raises(TypeError, match="spacings"):
        tnp.gradient(np.ones((3, 3)), 1.0, 2.0, 3.0)
