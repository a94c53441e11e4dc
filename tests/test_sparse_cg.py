"""transpile.scipy.sparse.linalg.cg (JAX's jax.scipy.sparse.linalg.cg): solves SPD systems
given as matrices or functions, on pytrees, with a preconditioner, under jit/vmap/jvp, with
JAX's stopping rule and result `(x, None)`; JAX 0.10.2 agrees on the recorded realprog
(tests/realprog/cfd_pressure_projection.py)."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile.scipy.sparse.linalg import cg

RNG = np.random.default_rng(7)
_G = RNG.standard_normal((6, 6))
A = _G @ _G.T + 6 * np.eye(6)
B = RNG.standard_normal(6)


def test_solves_matrix_and_function_forms_eagerly_and_under_jit():
    x, info = cg(A, B, tol=1e-10)
    assert info is None
    np.testing.assert_allclose(A @ x, B, atol=1e-8)
    jitted, _ = tp.jit(lambda a, b: cg(lambda v: a @ v, b, tol=1e-10))(A, B)
    np.testing.assert_allclose(jitted, np.linalg.solve(A, B), atol=1e-8)


def test_pytrees_preconditioner_and_initial_guess():
    matvec = lambda t: {"u": A @ t["u"], "w": 3.0 * t["w"]}          # noqa: E731
    jacobi = lambda t: {"u": t["u"] / np.diag(A), "w": t["w"] / 3.0}  # noqa: E731
    x, _ = cg(matvec, {"u": B, "w": np.ones(2)}, x0={"u": B, "w": np.zeros(2)}, M=jacobi,
              tol=1e-10)
    np.testing.assert_allclose(A @ x["u"], B, atol=1e-8)
    np.testing.assert_allclose(x["w"], np.full(2, 1 / 3), atol=1e-10)


def test_maxiter_and_tolerance_stop_the_loop():
    one_step, _ = cg(A, B, maxiter=1)
    assert np.linalg.norm(A @ one_step - B) > 1e-3            # stopped early
    loose, _ = cg(A, B, tol=0.5)
    assert np.linalg.norm(A @ loose - B) <= 0.5 * np.linalg.norm(B)


def test_vmap_and_forward_derivatives_go_through():
    xs = tp.vmap(lambda b: cg(A, b, tol=1e-10)[0])(np.stack([B, -2 * B]))
    np.testing.assert_allclose(xs[1], -2 * xs[0], atol=1e-8)
    _, tangent = tp.jvp(lambda b: cg(A, b, tol=1e-12)[0], (B,), (np.ones(6),))
    np.testing.assert_allclose(tangent, np.linalg.solve(A, np.ones(6)), atol=1e-8)


def test_float32_under_jax_rules_stays_float32():
    with tp.config.settings(transpile_dtype_rules="jax"):
        x, _ = tp.jit(lambda a, b: cg(a, b))(A.astype(np.float32), B.astype(np.float32))
    assert x.dtype == np.float32
    np.testing.assert_allclose(x, np.linalg.solve(A, B), rtol=1e-3, atol=1e-4)


def test_bad_operands_name_the_argument():
    with pytest.raises(ValueError, match="'A' must be a 2-D matrix"):
        cg(np.ones(3), np.ones(3))
    with pytest.raises(ValueError, match="'x0' must have the structure"):
        cg(A, B, x0=tnp.zeros(5))
