"""evosax's OpenES on a Rosenbrock benchmark: antithetic Gaussian perturbations, a centred
rank fitness transformation, an Adam step on the estimated gradient and a decaying sigma, the
population evaluated with vmap and forty generations run with lax.scan under jit."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

POPSIZE, DIM = 16, 6


def rosenbrock(x):
    return jnp.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1.0 - x[:-1]) ** 2)


def centered_rank(fitness):
    ranks = jnp.argsort(jnp.argsort(fitness))
    return ranks / (fitness.shape[0] - 1) - 0.5


def ask(key, state):
    half = jax.random.normal(key, (POPSIZE // 2, DIM))
    z = jnp.concatenate([half, -1.0 * half])
    return state["mean"] + state["sigma"] * z, z


def tell(state, z, fitness, lrate=0.05, b1=0.9, b2=0.999, eps=1e-8):
    shaped = centered_rank(fitness)
    grad = 1.0 / (POPSIZE * state["sigma"]) * jnp.dot(z.T, shaped)
    t = state["t"] + 1
    m = b1 * state["m"] + (1 - b1) * grad
    v = b2 * state["v"] + (1 - b2) * grad ** 2
    m_hat = m / (1 - b1 ** t)
    v_hat = v / (1 - b2 ** t)
    mean = state["mean"] - lrate * m_hat / (jnp.sqrt(v_hat) + eps)
    sigma = jnp.maximum(state["sigma"] * 0.999, 0.01)
    return {"mean": mean, "sigma": sigma, "m": m, "v": v, "t": t}


def generation(state, key):
    x, z = ask(key, state)
    fitness = jax.vmap(rosenbrock)(x)
    state = tell(state, z, fitness)
    return state, (fitness.min(), fitness.mean())


@jax.jit
def program(seed, init_mean):
    state = {"mean": init_mean, "sigma": jnp.float32(0.1), "m": jnp.zeros(DIM),
             "v": jnp.zeros(DIM), "t": 0}
    keys = jax.random.split(jax.random.PRNGKey(seed), 40)
    final, (best, average) = lax.scan(generation, state, keys)
    return final["mean"], final["sigma"], final["t"], best, average


def inputs():
    rng = np.random.default_rng(14)
    return np.int32(1), rng.uniform(-1, 1, DIM).astype(np.float32)
