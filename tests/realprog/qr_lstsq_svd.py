"""Least squares and low-rank approximation: lstsq, qr-based solve, svd values, pinv,
matrix_rank, solve_triangular; float32 as a JAX user has by default."""
import jax
import jax.numpy as jnp
from jax.scipy.linalg import solve_triangular
import numpy as np


@jax.jit
def program(A, b):
    x1, res, rank, sv = jnp.linalg.lstsq(A, b)
    Q, R = jnp.linalg.qr(A)
    x2 = solve_triangular(R, Q.T @ b, lower=False)
    s = jnp.linalg.svd(A, compute_uv=False)
    p = jnp.linalg.pinv(A)
    return x1, x2, s, p @ b, jnp.linalg.matrix_rank(A), jnp.linalg.cond(A), jnp.abs(Q.T @ Q - jnp.eye(4)).max() < 1e-5


def inputs():
    rng = np.random.default_rng(14)
    return rng.normal(size=(12, 4)).astype(np.float32), rng.normal(size=(12,)).astype(np.float32)
