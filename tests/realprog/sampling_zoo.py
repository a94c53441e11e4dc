"""Random sampling as RL/evolution code uses it: categorical over logits, choice without
replacement with p=, permutation, bernoulli masks, truncated_normal, gumbel, dirichlet draws
turned into statistics (shapes and dtypes; moments compared loosely by the runner)."""
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def program(logits, key):
    ks = jax.random.split(key, 8)
    a = jax.random.categorical(ks[0], logits, axis=-1)
    b = jax.random.choice(ks[1], 10, (5,), replace=False, p=jax.nn.softmax(logits[0]))
    c = jax.random.permutation(ks[2], jnp.arange(12))
    d = jax.random.bernoulli(ks[3], 0.3, (1000,)).mean()
    e = jax.random.truncated_normal(ks[4], -1.0, 2.0, (2000,)).mean()
    f = jax.random.gumbel(ks[5], (3,))
    g = jax.random.uniform(ks[6], (4,), minval=-2.0, maxval=3.0)
    h = jax.random.randint(ks[7], (6,), -5, 5)
    return a, b, jnp.sort(c), d, e, f, g, h, jax.random.key_data(jax.random.key(3)).shape


def inputs():
    rng = np.random.default_rng(10)
    return rng.normal(size=(6, 10)).astype(np.float32), np.array([0, 123], dtype=np.uint32)
