"""Evolution-strategy benchmark functions in evosax's style, each evaluated on a population
with jax.vmap and jitted together; also one centred-rank fitness shaping step."""
import jax
import jax.numpy as jnp
import numpy as np


def rosenbrock(x):
    return jnp.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)


def rastrigin(x, a=10.0):
    return a * x.shape[0] + jnp.sum(x ** 2 - a * jnp.cos(2 * jnp.pi * x))


def ackley(x, a=20.0, b=0.2, c=2 * jnp.pi):
    d = x.shape[0]
    return (-a * jnp.exp(-b * jnp.sqrt(jnp.sum(x ** 2) / d))
            - jnp.exp(jnp.sum(jnp.cos(c * x)) / d) + a + jnp.e)


def griewank(x):
    i = jnp.arange(1, x.shape[0] + 1)
    return 1 + jnp.sum(x ** 2) / 4000 - jnp.prod(jnp.cos(x / jnp.sqrt(i)))


def centered_rank(fitness):
    ranks = jnp.argsort(jnp.argsort(fitness))
    return ranks / (fitness.shape[0] - 1) - 0.5


@jax.jit
def program(population):
    scores = {name: jax.vmap(f)(population) for name, f in
              (("rosenbrock", rosenbrock), ("rastrigin", rastrigin),
               ("ackley", ackley), ("griewank", griewank))}
    scores["shaped"] = centered_rank(scores["rastrigin"])
    scores["best"] = jnp.argmin(scores["rosenbrock"])
    return scores


def inputs():
    rng = np.random.default_rng(4)
    return (rng.normal(size=(32, 6)).astype(np.float32),)
