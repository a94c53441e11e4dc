"""Lloyd's k-means with one_hot assignments and segment_sum centroid updates (fori_loop)."""
import jax
import jax.numpy as jnp
from jax import lax
import numpy as np


def assign(points, centroids):
    d2 = jnp.sum((points[:, None, :] - centroids[None, :, :]) ** 2, axis=-1)
    return jnp.argmin(d2, axis=1), jnp.min(d2, axis=1)


@jax.jit
def program(points, init):
    k = init.shape[0]
    def body(i, c):
        labels, _ = assign(points, c)
        sums = jax.ops.segment_sum(points, labels, num_segments=k)
        counts = jax.ops.segment_sum(jnp.ones_like(labels), labels, num_segments=k)
        return jnp.where(counts[:, None] > 0, sums / jnp.maximum(counts, 1)[:, None], c)
    centroids = lax.fori_loop(0, 10, body, init)
    labels, d2 = assign(points, centroids)
    onehot = jax.nn.one_hot(labels, k)
    return centroids, labels, d2.sum(), onehot.sum(0), jnp.bincount(labels, length=k)


def inputs():
    rng = np.random.default_rng(0)
    pts = np.concatenate([rng.normal(c, 0.3, (40, 2)) for c in ([0, 0], [3, 3], [0, 4])])
    return pts.astype(np.float32), pts[[0, 50, 100]].astype(np.float32)
