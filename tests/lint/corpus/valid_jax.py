"""Realistic, working JAX code: the linter must report nothing here (default settings)."""
# ruff: noqa
from __future__ import annotations

import dataclasses
import functools
from functools import partial
from typing import NamedTuple, Optional

import jax
import jax.numpy as jnp
import optax
from flax import nnx
from jax import lax

LEARNING_RATE = 1e-3
optimizer = optax.adam(LEARNING_RATE)


class Params(NamedTuple):
    w: jax.Array
    b: jax.Array


@dataclasses.dataclass(frozen=True)
class Config:
    hidden: int = 32
    use_bias: bool = True
    activation: str = "relu"


def mlp(params: list[Params], x):
    for layer in params[:-1]:
        x = jax.nn.relu(x @ layer.w + layer.b)
    last = params[-1]
    return x @ last.w + last.b


def mse(params, x, y):
    err = mlp(params, x) - y
    return jnp.mean(err**2)


@jax.jit
def train_step(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(mse)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    params = optax.apply_updates(params, updates)
    return params, opt_state, loss


@partial(jax.jit, static_argnames=("config",))
def forward(params, x, config: Config):
    h = x @ params["w1"]
    if config.use_bias:
        h = h + params["b1"]
    if config.activation == "relu":
        h = jax.nn.relu(h)
    else:
        h = jnp.tanh(h)
    return h @ params["w2"]


@jax.jit
def sgd(params, grads):
    return jax.tree_util.tree_map(lambda p, g: p - LEARNING_RATE * g, params, grads)


@jax.jit
def laplacian(u):
    n, m = u.shape
    if n < 3 or m < 3:
        return u
    inner = u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * u[1:-1, 1:-1]
    return u.at[1:-1, 1:-1].set(inner)


@partial(jax.jit, static_argnums=(2,))
def heat(u, alpha, steps):
    def body(_, v):
        return v + alpha * laplacian(v)

    return lax.fori_loop(0, steps, body, u)


@jax.jit
def newton_sqrt(target):
    def cond(state):
        x, err = state
        return err > 1e-6

    def body(state):
        x, _ = state
        step = (x * x - target) / (2 * x)
        return x - step, jnp.max(jnp.abs(step))

    x, _ = lax.while_loop(cond, body, (target, jnp.inf))
    return x


@jax.jit
def rnn(weights, xs, h0):
    def cell(h, x):
        h = jnp.tanh(weights["hh"] @ h + weights["xh"] @ x)
        return h, h

    return lax.scan(cell, h0, xs)


@jax.jit
def softmax(logits):
    z = logits - jnp.max(logits, axis=-1, keepdims=True)
    e = jnp.exp(z)
    return e / jnp.sum(e, axis=-1, keepdims=True)


@jax.jit
def masked_mean(x, mask):
    total = jnp.sum(jnp.where(mask, x, 0.0))
    count = jnp.maximum(jnp.sum(mask), 1)
    return total / count


@jax.jit
def positive_sum(x):
    return jnp.where(x > 0, x, 0).sum()


@jax.jit
def top_hits(x):
    idx, = jnp.nonzero(x > 0, size=8, fill_value=-1)
    return idx, jnp.unique(x, size=x.size, fill_value=0)


@jax.jit
def clip_grads(grads, max_norm):
    leaves = jax.tree_util.tree_leaves(grads)
    norm = jnp.sqrt(sum(jnp.sum(g * g) for g in leaves))
    scale = jnp.minimum(1.0, max_norm / (norm + 1e-6))
    return jax.tree_util.tree_map(lambda g: g * scale, grads)


@jax.jit
def piecewise(x):
    return lax.cond(x.sum() > 0, lambda v: v * 2, lambda v: -v, x)


@jax.jit
def select_branch(i, x):
    return lax.switch(i, [lambda v: v, lambda v: v * 2, lambda v: v**2], x)


@jax.jit
def pairwise(points):
    diff = points[:, None, :] - points[None, :, :]
    return jnp.sqrt(jnp.sum(diff**2, axis=-1))


@jax.jit
def batch_norm(x, eps=1e-5):
    mean = x.mean(axis=0)
    var = x.var(axis=0)
    return (x - mean) / jnp.sqrt(var + eps)


@jax.jit
def apply_layers(layers, x):
    if not layers:
        return x
    for w in layers:
        x = jnp.tanh(x @ w)
    return x


@jax.jit
def sum_dict(d):
    total = 0.0
    for key in sorted(d):
        total = total + jnp.sum(d[key])
    return total


class TrainState(NamedTuple):
    params: dict
    step: jax.Array
    dynamic_scale: Optional[object] = None


@jax.jit
def maybe_scale(state: TrainState, grads):
    if state.dynamic_scale:
        grads = jax.tree_util.tree_map(lambda g: g * 0.5, grads)
    return state._replace(step=state.step + 1), grads


@jax.jit
def tagged(v, x):
    assert v.tag == "hello"
    return x * 2


@jax.jit
def shape_dispatch(x):
    if x.ndim == 1:
        x = x[None, :]
    rows = len(x)
    for i in range(x.shape[0]):
        x = x.at[i].multiply(rows)
    return x


@jax.jit
def dtype_dispatch(x):
    if x.dtype == jnp.float32:
        return x.astype(jnp.float64)
    return x


@jax.jit
def counter_ref(x):
    ref = jax.new_ref(jnp.zeros(()))
    ref[...] = ref[...] + x.sum()
    return ref[...]


class Model(nnx.Module):
    def __init__(self, width):
        self.width = width


@nnx.jit
def nnx_step(model, state):
    nnx.update(model, state)
    return model


@jax.jit
def lax_ops(x, y):
    s = lax.add(x, y)
    return lax.mul(s, s)


@jax.jit
def cumulative(xs):
    def step(carry, x):
        carry = carry + x
        return carry, carry

    _, out = lax.scan(step, 0.0, xs)
    return out


@partial(jax.jit, static_argnames=["n"])
def power_iteration(a, v, n):
    for _ in range(n):
        v = a @ v
        v = v / jnp.linalg.norm(v)
    return v


def make_loss(weight):
    @jax.jit
    def loss(pred, target):
        return weight * jnp.mean((pred - target) ** 2)

    return loss


@jax.jit
def kwargs_forward(x, **options):
    if "scale" in options:
        x = x * options["scale"]
    return x


@jax.jit
def tuple_unpack(pair):
    a, b = pair
    return a @ b.T
