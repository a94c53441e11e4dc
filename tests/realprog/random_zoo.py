"""jax.random's everyday samplers on split keys, with fold_in and shapes from a config dict."""
import jax
import jax.numpy as jnp
import numpy as np

CFG = {"n": 16, "k": 5}


@jax.jit
def program(seed, logits, alpha):
    key = jax.random.PRNGKey(seed)
    ks = jax.random.split(key, 10)
    out = {
        "perm": jax.random.permutation(ks[0], CFG["n"]),
        "perm_arr": jax.random.permutation(ks[1], jnp.arange(10) * 3),
        "choice": jax.random.choice(ks[2], CFG["n"], (CFG["k"],), replace=False),
        "choice_p": jax.random.choice(ks[3], 4, (6,), p=jax.nn.softmax(logits)),
        "bern": jax.random.bernoulli(ks[4], 0.3, (8,)),
        "cat": jax.random.categorical(ks[5], logits, shape=(7,)),
        "gumbel": jax.random.gumbel(ks[6], (3,)),
        "trunc": jax.random.truncated_normal(ks[7], -1.0, 2.0, (4,)),
        "dirichlet": jax.random.dirichlet(ks[8], alpha),
        "beta": jax.random.beta(jax.random.fold_in(ks[9], 3), 2.0, 3.0, (3,)),
        "laplace": jax.random.laplace(ks[9], (2,)),
        "bits": jax.random.bits(ks[0], (3,)),
        "randint": jax.random.randint(ks[1], (5,), -3, 9),
        "exp": jax.random.exponential(ks[2], (3,)),
        "shuffled": jax.random.permutation(ks[3], jnp.arange(12).reshape(3, 4), axis=1, independent=True),
    }
    return out


def inputs():
    return np.int32(42), np.array([0.1, -1.0, 2.0, 0.5], np.float32), np.array([1.0, 2.0, 0.5], np.float32)
