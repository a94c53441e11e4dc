"""The "ask" step of evolution strategies in evosax's style: a CMA-ES-like population from
jax.random.multivariate_normal around the mean, antithetic Rademacher perturbations (as in
ARS/PGPE), and the heavy-tailed noise options (Cauchy, Laplace, logistic, exponential,
lognormal step sizes) drawn from split keys."""
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def program(mean, cov, seed):
    keys = jax.random.split(jax.random.PRNGKey(seed), 8)
    population = jax.random.multivariate_normal(keys[0], mean, cov, shape=(6,))
    second_draw = jax.random.multivariate_normal(keys[7], mean, cov, shape=(2,))
    signs = jax.random.rademacher(keys[1], (3, mean.shape[0]))
    antithetic = jnp.concatenate([mean + 0.1 * signs, mean - 0.1 * signs])
    noise = {"cauchy": jax.random.cauchy(keys[2], (4,)),
             "laplace": jax.random.laplace(keys[3], (4,)),
             "logistic": jax.random.logistic(keys[4], (4,)),
             "exponential": jax.random.exponential(keys[5], (4,)),
             "sigma": 0.3 * jax.random.lognormal(keys[6], 0.2, (4,))}
    return population, second_draw, antithetic, signs, noise


def inputs():
    rng = np.random.default_rng(20)
    m = rng.standard_normal((3, 3))
    return (rng.standard_normal(3).astype(np.float32),
            (m @ m.T + np.eye(3)).astype(np.float32), np.int32(9))
