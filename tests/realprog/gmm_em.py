"""Expectation-maximisation for a Gaussian mixture in the style of JAX tutorials: per-point
log-likelihoods under each component by jax.scipy.stats.multivariate_normal.logpdf vmapped
over components, responsibilities by jax.nn.softmax / logsumexp, weighted means and
covariances by einsum, twenty EM steps in a jitted lax.fori_loop, and the log-likelihood
trace."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.scipy.special import logsumexp
from jax.scipy.stats import multivariate_normal

K = 3


def log_likelihoods(params, xs):
    per_component = jax.vmap(lambda mean, cov: multivariate_normal.logpdf(xs, mean, cov))(
        params["means"], params["covs"])
    return per_component.T + jnp.log(params["weights"])


def em_step(params, xs):
    ll = log_likelihoods(params, xs)
    resp = jax.nn.softmax(ll, axis=1)
    counts = resp.sum(axis=0)
    means = (resp.T @ xs) / counts[:, None]
    centred = xs[None, :, :] - means[:, None, :]
    covs = jnp.einsum("nk,kni,knj->kij", resp, centred, centred) / counts[:, None, None]
    covs = covs + 1e-3 * jnp.eye(xs.shape[1])
    return {"weights": counts / xs.shape[0], "means": means, "covs": covs}, \
        jnp.sum(logsumexp(ll, axis=1))


@jax.jit
def program(xs, init_means):
    params = {"weights": jnp.full(K, 1.0 / K), "means": init_means,
              "covs": jnp.tile(jnp.eye(2), (K, 1, 1))}

    def body(i, carry):
        params, trace = carry
        params, ll = em_step(params, xs)
        return params, trace.at[i].set(ll)

    params, trace = lax.fori_loop(0, 20, body, (params, jnp.zeros(20)))
    order = jnp.argsort(params["means"][:, 0])
    return jax.tree_util.tree_map(lambda a: a[order], params), trace


def inputs():
    rng = np.random.default_rng(29)
    centres = np.array([[-3.0, 0.0], [0.0, 3.0], [3.0, -1.0]])
    xs = np.concatenate([c + rng.standard_normal((40, 2)) * s
                         for c, s in zip(centres, (0.5, 0.8, 0.6))]).astype(np.float32)
    return xs, rng.standard_normal((K, 2)).astype(np.float32) * 2
