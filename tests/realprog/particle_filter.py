"""Bootstrap particle filter: systematic resampling with cumsum + searchsorted, in lax.scan."""
import jax
import jax.numpy as jnp
from jax import lax
import numpy as np

N = 128


def resample(key, particles, log_w):
    w = jax.nn.softmax(log_w)
    cdf = jnp.cumsum(w)
    u = (jax.random.uniform(key) + jnp.arange(N)) / N
    idx = jnp.searchsorted(cdf, u)
    idx = jnp.clip(idx, 0, N - 1)
    return particles[idx], jnp.full((N,), -jnp.log(N))


@jax.jit
def program(observations, seed):
    key = jax.random.PRNGKey(seed)
    key, k0 = jax.random.split(key)
    particles = jax.random.normal(k0, (N,))
    def step(carry, obs):
        particles, log_w, key = carry
        key, k_move, k_res = jax.random.split(key, 3)
        particles = 0.9 * particles + 0.5 * jax.random.normal(k_move, (N,))
        log_w = log_w - 0.5 * ((obs - particles) / 0.3) ** 2
        ess = 1.0 / jnp.sum(jax.nn.softmax(log_w) ** 2)
        particles, log_w = lax.cond(ess < N / 2, lambda: resample(k_res, particles, log_w),
                                    lambda: (particles, log_w))
        mean = jnp.sum(jax.nn.softmax(log_w) * particles)
        return (particles, log_w, key), (mean, ess)
    init = (particles, jnp.zeros(N), key)
    _, (means, ess) = lax.scan(step, init, observations)
    return means, ess


def inputs():
    t = np.arange(30)
    return np.sin(t / 4).astype(np.float32), np.int32(11)
