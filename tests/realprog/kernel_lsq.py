"""JAX's examples/kernel_lsq.py: a Gram matrix from a kernel by nested vmap, a regularised
least-squares objective minimised with grad and optimizers.momentum under jit, and a jitted
vmap of the kernel predictor; with an RBF kernel as well as the linear one."""
from functools import partial

import jax.numpy as jnp
import numpy as np
from jax import grad, jit, lax, vmap
from jax.example_libraries import optimizers


def gram(kernel, xs):
    return vmap(lambda x: vmap(lambda y: kernel(x, y))(xs))(xs)


def minimize(f, x, num_steps=200, step_size=1e-3, mass=0.9):
    opt_init, opt_update, get_params = optimizers.momentum(step_size, mass)

    @jit
    def run(opt_state):
        return lax.fori_loop(0, num_steps,
                             lambda i, s: opt_update(i, grad(f)(get_params(s)), s), opt_state)

    return get_params(run(opt_init(x)))


def train(kernel, xs, ys, regularization=0.01):
    gram_mat = jit(partial(gram, kernel))(xs)

    def objective(v):
        risk = 0.5 * jnp.sum((jnp.dot(gram_mat, v) - ys) ** 2.0)
        return risk + regularization * jnp.sum(v ** 2.0)

    v = minimize(objective, jnp.zeros(xs.shape[0]))

    def predict(x):
        return jnp.sum(v * vmap(lambda x_: kernel(x, x_))(xs))

    return jit(vmap(predict)), v


def linear(x, y):
    return jnp.dot(x, y)


def rbf(x, y):
    return jnp.exp(-jnp.sum((x - y) ** 2) / 2.0)


def program(xs, truth):
    ys = jnp.dot(xs, truth)
    results = []
    for kernel in (linear, rbf):
        predict, v = train(kernel, xs, ys)
        results += [v, jnp.sum((predict(xs) - ys) ** 2.0)]
    return results


def inputs():
    rng = np.random.default_rng(18)
    return (rng.standard_normal((24, 5)).astype(np.float32),
            rng.standard_normal(5).astype(np.float32))
