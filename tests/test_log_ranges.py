"""logspace and geomspace against NumPy: static arguments exactly, traced endpoints (under jit)
to rounding, NumPy's exact endpoints for geomspace, negative ranges, endpoint=False, axis."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp


@pytest.mark.parametrize("kwargs", [{}, {"endpoint": False}, {"base": 2.0}, {"num": 1}])
def test_logspace(kwargs):
    want = np.logspace(0.5, 2.0, **{"num": 6, **kwargs})
    np.testing.assert_array_equal(tnp.logspace(0.5, 2.0, **{"num": 6, **kwargs}), want)
    got = tp.jit(lambda a, b: tnp.logspace(a, b, **{"num": 6, **kwargs}))(np.float64(0.5),
                                                                          np.float64(2.0))
    np.testing.assert_allclose(got, want, rtol=1e-13)


@pytest.mark.parametrize("start, stop", [(1.0, 1000.0), (-2.0, -64.0), (5.0, 0.5)])
@pytest.mark.parametrize("endpoint", [True, False])
def test_geomspace(start, stop, endpoint):
    want = np.geomspace(start, stop, 5, endpoint=endpoint)
    np.testing.assert_array_equal(tnp.geomspace(start, stop, 5, endpoint=endpoint), want)
    got = np.asarray(tp.jit(lambda a, b: tnp.geomspace(a, b, 5, endpoint=endpoint))(
        np.float64(start), np.float64(stop)))
    np.testing.assert_allclose(got, want, rtol=1e-13)
    assert got[0] == start and (not endpoint or got[-1] == stop)


def test_traced_logspace_along_axis():
    start, stop = np.array([0.0, 1.0]), np.array([1.0, 3.0])
    got = tp.jit(lambda a, b: tnp.logspace(a, b, 3, axis=1))(start, stop)
    np.testing.assert_allclose(got, np.logspace(start, stop, 3, axis=1), rtol=1e-13)
