"""A small Elman RNN trained a few steps in the style of JAX tutorials: parameters in a dict,
lax.scan over time, value_and_grad of a sequence loss, functools.partial(jax.jit,
static_argnames=...) on the update, results waited on with block_until_ready."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax


def rnn_forward(params, xs):
    def cell(h, x):
        h = jnp.tanh(x @ params["wx"] + h @ params["wh"] + params["b"])
        return h, h @ params["wo"]

    h0 = jnp.zeros(params["wh"].shape[0], xs.dtype)
    _, ys = lax.scan(cell, h0, xs)
    return ys


def loss(params, xs, targets):
    return jnp.mean((rnn_forward(params, xs)[:, 0] - targets) ** 2)


@functools.partial(jax.jit, static_argnames=("learning_rate",))
def update(params, xs, targets, learning_rate=0.05):
    value, grads = jax.value_and_grad(loss)(params, xs, targets)
    params = jax.tree_util.tree_map(lambda p, g: p - learning_rate * g, params, grads)
    return params, value


def program(params, xs, targets):
    losses = []
    for _ in range(4):
        params, value = update(params, xs, targets)
        losses.append(value.block_until_ready())
    return jnp.stack(losses), params["wo"]


def inputs():
    rng = np.random.default_rng(14)
    hidden, features, steps = 6, 3, 12
    params = {"wx": 0.5 * rng.standard_normal((features, hidden)).astype(np.float32),
              "wh": 0.3 * rng.standard_normal((hidden, hidden)).astype(np.float32),
              "b": np.zeros(hidden, np.float32),
              "wo": 0.5 * rng.standard_normal((hidden, 1)).astype(np.float32)}
    xs = rng.standard_normal((steps, features)).astype(np.float32)
    targets = np.sin(np.arange(steps, dtype=np.float32))
    return params, xs, targets
