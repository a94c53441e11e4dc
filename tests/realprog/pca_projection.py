"""PCA in the style of JAX data-analysis notebooks: centre the data, jnp.linalg.svd with
full_matrices=False, project onto the top components, explained-variance ratios, and a
reconstruction error; projections depend on the singular vectors' signs."""
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def program(data):
    centred = data - data.mean(axis=0)
    u, s, vt = jnp.linalg.svd(centred, full_matrices=False)
    components = vt[:2]
    projected = centred @ components.T
    explained = s ** 2 / jnp.sum(s ** 2)
    reconstruction = projected @ components + data.mean(axis=0)
    return projected, explained, jnp.mean((reconstruction - data) ** 2)


def inputs():
    rng = np.random.default_rng(21)
    latent = rng.standard_normal((30, 2))
    mixing = rng.standard_normal((2, 5))
    return ((latent @ mixing + 0.05 * rng.standard_normal((30, 5))).astype(np.float32),)
