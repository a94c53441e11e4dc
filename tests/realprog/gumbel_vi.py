"""Variational inference bits: reparameterised Gaussian ELBO with grad through random.normal,
Gumbel-softmax relaxation, KL divergences, log_sigmoid/softplus, and a vmapped per-sample
gradient norm (per_example clipping as in DP-SGD)."""
import jax
import jax.numpy as jnp
import numpy as np


def elbo(params, key, x):
    mu, log_sigma = params
    eps = jax.random.normal(key, (32, mu.shape[0]))
    z = mu + jnp.exp(log_sigma) * eps
    loglik = -0.5 * jnp.sum((x[None, :] - z) ** 2, -1)
    kl = 0.5 * jnp.sum(jnp.exp(2 * log_sigma) + mu ** 2 - 1 - 2 * log_sigma)
    return jnp.mean(loglik) - kl


@jax.jit
def program(x, logits, key):
    params = (jnp.zeros_like(x), jnp.zeros_like(x))
    k1, k2 = jax.random.split(key)
    val, grads = jax.value_and_grad(elbo)(params, k1, x)
    g = -jnp.log(-jnp.log(jax.random.uniform(k2, logits.shape, minval=1e-6, maxval=1.0)))
    y = jax.nn.softmax((logits + g) / 0.5, axis=-1)
    per_ex = jax.vmap(jax.grad(lambda w, xi: jax.nn.log_sigmoid(xi @ w) + jax.nn.softplus(-xi @ w)), in_axes=(None, 0))(x[:3], logits[:, :3])
    norms = jnp.linalg.norm(per_ex, axis=1)
    clipped = per_ex / jnp.maximum(1.0, norms / 0.5)[:, None]
    return val, grads, y.sum(-1), y.argmax(-1), clipped.mean(0)


def inputs():
    rng = np.random.default_rng(19)
    return rng.normal(size=5).astype(np.float32), rng.normal(size=(6, 4)).astype(np.float32), np.array([1, 2], np.uint32)
