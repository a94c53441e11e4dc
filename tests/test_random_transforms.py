"""The transform samplers (exponential, laplace, logistic, cauchy, rademacher, lognormal,
multivariate_normal): eager draws equal jitted ones (to float32 rounding), supports and shapes
are right, bad arguments are refused. JAX's own numbers for them are checked by the es_sampling program of
tests/test_realprog.py (bit-identical draws for the same key)."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp

KEY = tp.random.PRNGKey(42)
SAMPLERS = {
    "exponential": lambda k: tp.random.exponential(k, (500,)),
    "laplace": lambda k: tp.random.laplace(k, (500,)),
    "logistic": lambda k: tp.random.logistic(k, (500,)),
    "cauchy": lambda k: tp.random.cauchy(k, (500,)),
    "rademacher": lambda k: tp.random.rademacher(k, (500,)),
    "lognormal": lambda k: tp.random.lognormal(k, 0.5, (500,)),
    "multivariate_normal": lambda k: tp.random.multivariate_normal(
        k, np.zeros(2, np.float32), np.array([[2.0, 0.5], [0.5, 1.0]], np.float32), (500,)),
}


@pytest.mark.parametrize("name", sorted(SAMPLERS))
def test_eager_equals_jit(name):
    # The same uniform bits both ways; float32 log/exp/tan in C and in NumPy may round a
    # result differently by an ulp.
    eager = np.asarray(SAMPLERS[name](KEY))
    np.testing.assert_allclose(eager, np.asarray(tp.jit(SAMPLERS[name])(KEY)), rtol=1e-6,
                               atol=1e-7)


def test_supports_and_moments():
    assert np.all(np.asarray(SAMPLERS["exponential"](KEY)) >= 0)
    assert set(np.unique(np.asarray(SAMPLERS["rademacher"](KEY))).tolist()) == {-1, 1}
    assert np.asarray(SAMPLERS["rademacher"](KEY)).dtype == np.int32
    assert np.all(np.asarray(SAMPLERS["lognormal"](KEY)) > 0)
    draws = np.asarray(SAMPLERS["multivariate_normal"](KEY), np.float64)
    np.testing.assert_allclose(np.cov(draws.T), [[2.0, 0.5], [0.5, 1.0]], atol=0.35)


def test_multivariate_normal_checks_its_arguments():
    with pytest.raises(ValueError, match="method"):
        tp.random.multivariate_normal(KEY, np.zeros(2), np.eye(2), method="lu")
    with pytest.raises(ValueError, match=r"cov \(\.\.\., n, n\)"):
        tp.random.multivariate_normal(KEY, np.zeros(2), np.eye(3))
