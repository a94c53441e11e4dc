"""evosax's SNES evolving a small MLP in the style of its ParameterReshaper: the network's
parameter pytree raveled once with jax.flatten_util.ravel_pytree, the population of flat
vectors unravelled with jax.vmap(unravel), each member evaluated on a regression task by a
vmapped forward pass, SNES's rank-based utilities (log/argsort) updating mean and per-
dimension sigma, and the generations run in a jitted lax.scan."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.flatten_util import ravel_pytree

POPSIZE = 12


def init_mlp(key, sizes=(2, 8, 1)):
    params = []
    for k, (m, n) in zip(jax.random.split(key, len(sizes) - 1), zip(sizes[:-1], sizes[1:])):
        params.append({"w": jax.random.normal(k, (m, n)) / jnp.sqrt(m), "b": jnp.zeros(n)})
    return params


def forward(params, x):
    for layer in params[:-1]:
        x = jnp.tanh(x @ layer["w"] + layer["b"])
    return x @ params[-1]["w"] + params[-1]["b"]


def snes_weights(popsize):
    ranks = jnp.arange(1, popsize + 1)
    raw = jnp.maximum(0.0, jnp.log(popsize / 2 + 1) - jnp.log(ranks))
    return raw / raw.sum() - 1.0 / popsize


def make_step(unravel, xs, ys):
    weights = snes_weights(POPSIZE)

    def fitness(flat):
        pred = forward(unravel(flat), xs)[:, 0]
        return jnp.mean((pred - ys) ** 2)

    def generation(state, key):
        mean, sigma = state
        z = jax.random.normal(key, (POPSIZE, mean.shape[0]))
        population = mean + sigma * z
        fit = jax.vmap(fitness)(population)
        order = fit.argsort()
        w = weights[jnp.argsort(order)]           # the best member gets the largest utility
        mean = mean + 1.0 * sigma * jnp.dot(w, z)
        lr_sigma = (3 + jnp.log(mean.shape[0])) / (5 * jnp.sqrt(mean.shape[0]))
        sigma = sigma * jnp.exp(lr_sigma / 2 * jnp.dot(w, z ** 2 - 1))
        return (mean, sigma), (fit.min(), jnp.mean(sigma))

    return generation


@jax.jit
def program(xs, ys):
    key_init, key_run = jax.random.split(jax.random.PRNGKey(3))
    flat, unravel = ravel_pytree(init_mlp(key_init))
    members = jax.vmap(unravel)(jnp.stack([flat, 2 * flat]))
    generation = make_step(unravel, xs, ys)
    state = (flat, jnp.full_like(flat, 0.1))
    (mean, sigma), (best, mean_sigma) = lax.scan(generation, state,
                                                 jax.random.split(key_run, 30))
    return unravel(mean), sigma, best, mean_sigma, members[1]["b"]


def inputs():
    rng = np.random.default_rng(23)
    xs = rng.uniform(-1, 1, (32, 2)).astype(np.float32)
    ys = np.sin(2 * xs[:, 0]) * xs[:, 1]
    return xs, ys.astype(np.float32)
