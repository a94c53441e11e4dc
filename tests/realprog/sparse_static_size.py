"""Static-size data-dependent ops as JAX code writes them: nonzero/where/unique/argwhere
with size= and fill_value=, searchsorted, take_along_axis, top_k, histogram, bincount."""
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def program(x, labels):
    idx, = jnp.nonzero(x > 0.5, size=8, fill_value=-1)
    rows, cols = jnp.where(x.reshape(4, 5) > 0.2, size=6)
    u, counts = jnp.unique(labels, size=6, fill_value=0, return_counts=True)
    aw = jnp.argwhere(labels == 2, size=3, fill_value=99)
    edges = jnp.linspace(0, 1, 6)
    pos = jnp.searchsorted(edges, x, side="right")
    hist, _ = jnp.histogram(x, bins=5, range=(0.0, 1.0))
    vals, top = jax.lax.top_k(x, 4)
    order = jnp.argsort(x.reshape(4, 5), axis=1)
    taken = jnp.take_along_axis(x.reshape(4, 5), order, axis=1)
    return idx, rows, cols, u, counts, aw, pos, hist, vals, top, taken, jnp.bincount(labels, length=7)


def inputs():
    rng = np.random.default_rng(12)
    return rng.uniform(size=20).astype(np.float32), rng.integers(0, 5, 15).astype(np.int32)
