"""evosax-style benchmark functions evaluated on a population, with a simple ES step."""
import jax
import jax.numpy as jnp
import numpy as np


def rastrigin(x, a=10.0):
    return a * x.shape[-1] + jnp.sum(x ** 2 - a * jnp.cos(2 * jnp.pi * x), axis=-1)


def ackley(x, a=20.0, b=0.2, c=2 * jnp.pi):
    d = x.shape[-1]
    s1 = jnp.sqrt(jnp.sum(x ** 2, axis=-1) / d)
    s2 = jnp.sum(jnp.cos(c * x), axis=-1) / d
    return -a * jnp.exp(-b * s1) - jnp.exp(s2) + a + jnp.exp(1.0)


def griewank(x):
    i = jnp.arange(1, x.shape[-1] + 1)
    return 1 + jnp.sum(x ** 2, axis=-1) / 4000 - jnp.prod(jnp.cos(x / jnp.sqrt(i)), axis=-1)


def schwefel(x):
    return 418.9829 * x.shape[-1] - jnp.sum(x * jnp.sin(jnp.sqrt(jnp.abs(x))), axis=-1)


def rosenbrock(x):
    return jnp.sum(100.0 * (x[..., 1:] - x[..., :-1] ** 2) ** 2 + (1 - x[..., :-1]) ** 2, axis=-1)


@jax.jit
def program(seed, mean):
    key = jax.random.PRNGKey(seed)
    noise = jax.random.normal(key, (64, mean.shape[0]))
    pop = mean + 0.5 * noise
    scores = {f.__name__: f(pop) for f in (rastrigin, ackley, griewank, schwefel, rosenbrock)}
    fit = scores["rastrigin"]
    ranks = jnp.argsort(jnp.argsort(fit))
    weights = (ranks.astype(jnp.float32) / (pop.shape[0] - 1) - 0.5)
    grad = -(weights[:, None] * noise).mean(0) / 0.5
    new_mean = mean + 0.1 * grad
    best = pop[jnp.argmin(fit)]
    return scores, new_mean, best, jax.vmap(ackley)(pop[:4])


def inputs():
    return np.int32(3), np.linspace(-2, 2, 10).astype(np.float32)
