"""Escape-time Mandelbrot on a small grid in the style of JAX demos: complex arithmetic from
a meshgrid, a lax.while_loop that iterates until every point escaped or the budget ran out,
counts kept with jnp.where."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

MAX_ITER = 60


@jax.jit
def program(xs, ys):
    x, y = jnp.meshgrid(xs, ys)
    c = x + 1j * y

    def cond(state):
        i, z, counts = state
        return (i < MAX_ITER) & jnp.any(jnp.abs(z) <= 2.0)

    def body(state):
        i, z, counts = state
        inside = jnp.abs(z) <= 2.0
        z = jnp.where(inside, z * z + c, z)
        return i + 1, z, counts + inside.astype(jnp.int32)

    _, z, counts = lax.while_loop(cond, body, (0, jnp.zeros_like(c), jnp.zeros(c.shape,
                                                                               jnp.int32)))
    return counts, jnp.mean(counts), jnp.abs(z).max()


def inputs():
    return (np.linspace(-2.0, 0.6, 28, dtype=np.float32),
            np.linspace(-1.2, 1.2, 20, dtype=np.float32))
