"""evosax's SimpleGA with its FitnessShaper: elites kept by argsort, parents drawn with
jax.random.choice(replace=False) and choice with p=, uniform crossover by a bernoulli mask,
Gaussian mutation with a decaying sigma, z-scored fitness with an L2 weight-decay term
(vmapped norms), on the Rastrigin benchmark; 30 generations in a jitted lax.scan."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

POP, ELITE, DIM = 16, 4, 5


def rastrigin(x, a=10.0):
    return a * x.shape[0] + jnp.sum(x ** 2 - a * jnp.cos(2 * jnp.pi * x))


def shape_fitness(x, fitness, decay=0.01):
    l2 = jax.vmap(lambda member: jnp.mean(member ** 2))(x)
    fitness = fitness + decay * l2
    return (fitness - fitness.mean()) / (fitness.std() + 1e-10)


def generation(state, key):
    elites, elite_fit, sigma = state
    k_parents, k_pick, k_cross, k_mut = jax.random.split(key, 4)
    first = jax.random.choice(k_parents, ELITE, (POP,), replace=True)
    weights = jax.nn.softmax(-elite_fit)
    second = jax.random.choice(k_pick, ELITE, (POP,), p=weights)
    mask = jax.random.bernoulli(k_cross, 0.5, (POP, DIM))
    children = jnp.where(mask, elites[first], elites[second])
    children = children + sigma * jax.random.normal(k_mut, (POP, DIM))
    raw = jax.vmap(rastrigin)(children)
    shaped = shape_fitness(children, raw)
    pool = jnp.concatenate([elites, children])
    pool_fit = jnp.concatenate([elite_fit, shaped * 0 + raw])
    order = jnp.argsort(pool_fit)[:ELITE]
    return (pool[order], pool_fit[order], sigma * 0.97), (raw.min(), shaped.max())


@jax.jit
def program(seed, init):
    key_init, key_run = jax.random.split(jax.random.PRNGKey(seed))
    distinct = jax.random.choice(key_init, POP, (ELITE,), replace=False)
    elites = init[distinct]
    state = (elites, jax.vmap(rastrigin)(elites), jnp.float32(0.5))
    (elites, fit, sigma), (best, top_shaped) = lax.scan(generation, state,
                                                        jax.random.split(key_run, 30))
    return distinct, elites, fit, sigma, best, top_shaped


def inputs():
    rng = np.random.default_rng(36)
    return np.int32(4), rng.uniform(-3, 3, (POP, DIM)).astype(np.float32)
