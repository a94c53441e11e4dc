"""Logistic regression fitted with Newton's method in the style of JAX's autodiff cookbook:
jax.hessian and jax.grad of a log-likelihood, jnp.linalg.solve, a Python loop of jitted steps,
plus the sigmoid from jax.nn."""
import jax
import jax.numpy as jnp
import numpy as np


def negative_log_likelihood(w, x, y):
    logits = x @ w
    return jnp.sum(jnp.logaddexp(0.0, logits) - y * logits) + 0.5 * jnp.sum(w ** 2)


@jax.jit
def newton_step(w, x, y):
    g = jax.grad(negative_log_likelihood)(w, x, y)
    h = jax.hessian(negative_log_likelihood)(w, x, y)
    return w - jnp.linalg.solve(h, g)


def program(x, y):
    w = jnp.zeros(x.shape[1], dtype=x.dtype)
    for _ in range(4):
        w = newton_step(w, x, y)
    probabilities = jax.nn.sigmoid(x @ w)
    return w, negative_log_likelihood(w, x, y), probabilities


def inputs():
    rng = np.random.default_rng(12)
    x = rng.standard_normal((40, 3)).astype(np.float32)
    y = (x @ np.array([1.0, -2.0, 0.5]) + 0.3 * rng.standard_normal(40) > 0).astype(np.float32)
    return x, y
