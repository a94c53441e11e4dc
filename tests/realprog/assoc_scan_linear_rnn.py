"""A linear recurrence h_t = a_t * h_{t-1} + b_t by lax.associative_scan (LRU/S4-style),
checked against lax.scan; cumulative ops and reverse scans."""
import jax
import jax.numpy as jnp
import numpy as np


def combine(x, y):
    a1, b1 = x
    a2, b2 = y
    return a1 * a2, a2 * b1 + b2


@jax.jit
def program(a, b):
    _, h = jax.lax.associative_scan(combine, (a, b), axis=0)
    def step(hp, ab):
        h = ab[0] * hp + ab[1]
        return h, h
    _, h2 = jax.lax.scan(step, jnp.zeros(a.shape[1:]), (a, b))
    _, hr = jax.lax.associative_scan(combine, (a, b), axis=0, reverse=True)
    return h, h2, hr, jnp.cumsum(b, axis=0)[-1], jax.lax.cummax(b, axis=0, reverse=True)[0], jnp.cumprod(a[:5], axis=0)


def inputs():
    rng = np.random.default_rng(11)
    return (rng.uniform(0.5, 1.0, (33, 4)).astype(np.float32), rng.normal(size=(33, 4)).astype(np.float32))
