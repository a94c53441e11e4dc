"""Hazards in today's JAX styles: transformations inside jit, flax/equinox modules reached
through `apply` and calls, pytree metadata, jax.nn/jax.random shape arguments, trace-time
side effects. Each marked line fails (or misbehaves) under jax.jit."""

import logging
from functools import partial

import equinox as eqx
import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
from flax import struct

log = logging.getLogger(__name__)
HISTORY = {}


def squared_loss(w, x, y, clip):
    residual = x @ w - y
    if clip > 0:  # expect: TP101
        residual = jnp.clip(residual, -clip, clip)
    return jnp.mean(residual**2)


grad_step = jax.jit(jax.grad(squared_loss))


@jax.jit
def loss_and_grad(w, x, y):
    return jax.value_and_grad(squared_loss)(w, x, y, 1.0)


@jax.jit
def relu_rows(xs, threshold):
    return jax.vmap(lambda row: row if row.sum() > threshold else 0 * row)(xs)  # expect: TP101


@jax.jit
def prune(params):
    return jax.tree_util.tree_map(lambda leaf: leaf if jnp.abs(leaf).max() > 1e-3 else 0 * leaf, params)  # expect: TP101


def forward(params, x, training):
    h = x @ params["w"]
    if training:
        h = h * 0.5
    if h.mean() > 0:  # expect: TP101
        h = -h
    return h


evaluate = jax.jit(partial(forward, training=False))


class Dense(nn.Module):
    features: int

    @nn.compact
    def __call__(self, x):
        y = nn.Dense(self.features)(x)
        while jnp.linalg.norm(y) > 1.0:  # expect: TP101
            y = y / 2
        return y


dense = Dense(4)


@jax.jit
def apply_dense(variables, x):
    return dense.apply(variables, x)


class Gate(eqx.Module):
    weight: jax.Array
    enabled: bool

    def __call__(self, x):
        if self.enabled:  # a Python bool: filter_jit keeps it static
            x = self.weight * x
        if jnp.any(self.weight < 0):  # expect: TP101
            x = -x
        return x


@eqx.filter_jit
def run_gate(gate: Gate, x):
    return gate(x)


@jax.jit
def run_gate_plain(gate: Gate, x):
    return gate.weight * x if gate.enabled else x  # expect: TP101


@struct.dataclass
class Settings:
    scale: float
    mode: str = struct.field(pytree_node=False)


@jax.jit
def configured(settings: Settings, x):
    if settings.mode == "double":
        x = 2 * x
    if settings.scale > 1:  # expect: TP101
        x = x / settings.scale
    return x


@jax.jit
def encode(labels, num_classes, key, width, x, start):
    onehot = jax.nn.one_hot(labels, num_classes)  # expect: TP103
    noise = jax.random.normal(key, (width,))  # expect: TP103
    window = jax.lax.dynamic_slice(x, (start,), (width,))  # expect: TP103
    half = int(jnp.ceil(x.shape[0] / 2))  # expect: TP102
    return onehot, noise, window, half


@jax.jit
def cumulative(x, steps):
    return jax.lax.scan(lambda c, _: (c * 2, c), x, None, length=steps)  # expect: TP103


@jax.jit
def zero_positive(x):
    return x.at[x > 0].set(0.0)  # expect: TP105


@jax.jit
def noisy(x):
    logging.info("input %s", x)  # expect: TP201
    log.debug("scaled %s", 2 * x)  # expect: TP201
    return x + np.random.normal(size=x.shape)  # expect: TP202


@jax.jit
def remember(x):
    HISTORY["last"] = x  # expect: TP202
    label = f"{x.sum():.3f}"  # expect: TP102
    return x, label


class Recorder:
    def __init__(self):
        self.values = []

    @partial(jax.jit, static_argnums=0)
    def record(self, x):
        self.values.append(x)  # expect: TP202
        return self.scaled(x)

    def scaled(self, x):
        if x.sum() > 0:  # expect: TP101
            return x
        return -x


@jax.jit
def recompute(x):
    return jax.checkpoint(lambda v: v if v.sum() > 0 else -v)(x)  # expect: TP101


@jax.jit
def classify(x, kind):
    match kind:
        case "abs":  # expect: TP101
            return jnp.abs(x)
        case _:
            return x


def train(batches, w):
    for x, y in batches:
        w = w - jax.jit(lambda w_, x_, y_: jax.grad(squared_loss)(w_, x_, y_, 0.0))(w, x, y)  # expect: TP401
    return w
