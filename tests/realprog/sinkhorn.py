"""Entropic optimal transport (Sinkhorn in log space) with logsumexp, vmapped over a batch."""
import jax
import jax.numpy as jnp
from jax.scipy.special import logsumexp
import numpy as np


def sinkhorn(a, b, C, eps=0.05, iters=100):
    f = jnp.zeros_like(a)
    g = jnp.zeros_like(b)
    def body(_, fg):
        f, g = fg
        f = eps * jnp.log(a) - eps * logsumexp((g[None, :] - C) / eps, axis=1)
        g = eps * jnp.log(b) - eps * logsumexp((f[:, None] - C) / eps, axis=0)
        return f, g
    f, g = jax.lax.fori_loop(0, iters, body, (f, g))
    P = jnp.exp((f[:, None] + g[None, :] - C) / eps)
    return jnp.sum(P * C), P


@jax.jit
def program(x, y):
    a = jnp.ones(x.shape[1]) / x.shape[1]
    b = jnp.ones(y.shape[1]) / y.shape[1]
    C = jnp.sum((x[:, :, None, :] - y[:, None, :, :]) ** 2, axis=-1)
    cost, P = jax.vmap(lambda c: sinkhorn(a, b, c))(C)
    return cost, P.sum(axis=(1,)), jnp.argmax(P, axis=-1)


def inputs():
    rng = np.random.default_rng(1)
    return (rng.normal(size=(4, 20, 2)).astype(np.float32),
            (rng.normal(size=(4, 25, 2)) + 0.5).astype(np.float32))
