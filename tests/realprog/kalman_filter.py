"""A linear Kalman filter over a constant-velocity track, in the style of JAX state-space
tutorials: predict/update written with @ and jnp.linalg.solve inside lax.scan, returning the
filtered means, covariance traces and the log-likelihood."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

DT = 0.1
F = jnp.array([[1.0, DT], [0.0, 1.0]])
H = jnp.array([[1.0, 0.0]])
Q = 0.01 * jnp.eye(2)
R = jnp.array([[0.25]])


def kalman_step(carry, y):
    mean, cov, loglik = carry
    mean = F @ mean
    cov = F @ cov @ F.T + Q
    s = H @ cov @ H.T + R
    gain = jnp.linalg.solve(s, H @ cov).T
    innovation = y - H @ mean
    mean = mean + gain @ innovation
    cov = (jnp.eye(2) - gain @ H) @ cov
    loglik = loglik - 0.5 * (innovation @ jnp.linalg.solve(s, innovation)
                             + jnp.log(jnp.linalg.det(s)) + jnp.log(2 * jnp.pi))
    return (mean, cov, loglik), (mean, jnp.trace(cov))


@jax.jit
def program(observations):
    init = (jnp.zeros(2), jnp.eye(2), jnp.zeros(()))
    (_, _, loglik), (means, traces) = lax.scan(kalman_step, init, observations)
    return means, traces, loglik


def inputs():
    rng = np.random.default_rng(19)
    t = np.arange(50) * DT
    return ((2.0 * t + 0.5 * rng.standard_normal(50)).astype(np.float32)[:, None],)
