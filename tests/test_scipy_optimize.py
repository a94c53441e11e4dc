"""transpile.scipy.optimize.minimize(method="BFGS") (JAX's jax.scipy.optimize.minimize):
convergence, JAX's result fields and status codes, eagerly / under jit / under vmap, and the
errors its arguments get. JAX 0.10.2's solutions are compared in the realprog corpus
(tests/realprog/bfgs_logistic_x64.py)."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile.scipy.optimize import minimize


def rosenbrock(x):
    return tnp.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)


def shifted_bowl(x, centre, scale):
    return tnp.sum(scale * (x - centre) ** 2)


@pytest.mark.parametrize("jit", [False, True])
def test_rosenbrock_converges(jit):
    solve = lambda x0: minimize(rosenbrock, x0, method="BFGS")   # noqa: E731
    result = (tp.jit(solve) if jit else solve)(np.array([-1.2, 1.0, 0.5]))
    assert bool(result.success) and int(result.status) == 0
    np.testing.assert_allclose(result.x, np.ones(3), atol=1e-5)
    assert float(result.fun) < 1e-10 and np.abs(result.jac).max() < 1e-5
    assert result.hess_inv.shape == (3, 3) and int(result.nit) > 0
    assert int(result.nfev) >= int(result.nit) and int(result.njev) == int(result.nfev)


def test_args_vmap_and_the_iteration_limit():
    centre, scale = np.array([1.0, -2.0]), np.array([1.0, 10.0])
    starts = np.array([[0.0, 0.0], [3.0, 3.0], [-5.0, 1.0]])
    results = tp.vmap(lambda x0: minimize(shifted_bowl, x0, args=(centre, scale),
                                          method="bfgs"))(starts)
    np.testing.assert_allclose(results.x, np.broadcast_to(centre, (3, 2)), atol=1e-5)
    assert np.all(results.success)
    capped = minimize(rosenbrock, np.array([-1.2, 1.0]), method="BFGS", options={"maxiter": 2})
    assert int(capped.nit) == 2 and int(capped.status) == 1 and not bool(capped.success)


def test_float32_stays_float32_under_jax_rules():
    with tp.config.settings(transpile_dtype_rules="jax"):
        result = minimize(shifted_bowl, np.zeros(2, np.float32),
                          args=(np.float32([1, 2]), np.float32([1, 3])), method="BFGS")
    assert result.x.dtype == np.float32 and bool(result.success)
    np.testing.assert_allclose(result.x, [1, 2], atol=1e-5)


def test_bad_arguments_say_what_to_do():
    with pytest.raises(ValueError, match="method='BFGS'"):
        minimize(rosenbrock, np.zeros(2), method="Nelder-Mead")
    with pytest.raises(ValueError, match="'x0' must be a 1-D array"):
        minimize(rosenbrock, np.zeros((2, 2)), method="BFGS")
    with pytest.raises(TypeError, match="'args' must be a tuple"):
        minimize(shifted_bowl, np.zeros(2), args=[1.0, 1.0], method="BFGS")
    with pytest.raises(TypeError, match="unknown options"):
        minimize(rosenbrock, np.zeros(2), method="BFGS", options={"xtol": 1e-3})
