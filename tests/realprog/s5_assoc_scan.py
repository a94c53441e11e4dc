"""A diagonal linear recurrence (S5/LRU style) by lax.associative_scan, checked against a scan."""
import jax
import jax.numpy as jnp
from jax import lax
import numpy as np


def binary_op(a, b):
    a_i, bu_i = a
    a_j, bu_j = b
    return a_j * a_i, a_j * bu_i + bu_j


@jax.jit
def program(lam_re, lam_im, u, b):
    lam = jnp.exp(lam_re + 1j * lam_im)
    bu = u[:, None] * b[None, :]
    lams = jnp.broadcast_to(lam, bu.shape)
    _, xs = lax.associative_scan(binary_op, (lams, bu.astype(jnp.complex64)))
    def step(x, bu_t):
        x = lam * x + bu_t
        return x, x
    _, xs_seq = lax.scan(step, jnp.zeros_like(lam), bu.astype(jnp.complex64))
    y = jnp.real(xs).sum(-1)
    rev = lax.associative_scan(jnp.add, u, reverse=True)
    cm = lax.cummax(u)
    return y, jnp.abs(xs - xs_seq).max() < 1e-3, rev, cm, jnp.cumprod(1 + 0.01 * u)


def inputs():
    rng = np.random.default_rng(3)
    return (-np.linspace(0.05, 0.5, 6).astype(np.float32), np.linspace(0, 1, 6).astype(np.float32),
            rng.normal(size=40).astype(np.float32), rng.normal(size=6).astype(np.float32))
