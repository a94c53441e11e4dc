"""Hazards in flax.nnx code: modules called as `model(x)` under `nnx.jit` (and under
`jax.jit` through `nnx.split`/`nnx.merge`), `nnx.Param`/`nnx.Variable` attributes, helper
methods reached through `self`, nnx transformations. Plain attributes (`self.mode`) are static
graph data. Each marked line fails under jit: tools/confirm_lint_nnx_corpus.py runs every one
under JAX and flax."""

from functools import partial

import jax
import jax.numpy as jnp
import optax
from flax import nnx


class GatedMLP(nnx.Module):
    def __init__(self, din, dhidden, dout, dropout_rate, mode, *, rngs: nnx.Rngs):
        self.hidden = nnx.Linear(din, dhidden, rngs=rngs)
        self.out = nnx.Linear(dhidden, dout, rngs=rngs)
        self.gate = nnx.Param(-jnp.ones((dhidden,)))
        self.calls = nnx.Variable(jnp.zeros((), jnp.int32))
        self.dropout_rate = dropout_rate
        self.mode = mode
        self.activation = "gelu"

    def __call__(self, x):
        h = self.hidden(x)
        if self.activation == "gelu":
            h = nnx.gelu(h)
        if self.dropout_rate > 0.0:
            h = h * (1.0 - self.dropout_rate)
        if self.mode == "clip":
            if jnp.abs(h).max() > 10.0:  # expect: TP101
                h = h / 10.0
        elif self.mode == "gate":
            if self.gate[...].min() < 0:  # expect: TP101
                h = jnp.maximum(h, 0.0)
        elif self.mode == "normalize":
            h = self.normalize(h)
        self.calls[...] += 1
        return self.out(h)

    def normalize(self, h):
        scale = float(h.std())  # expect: TP102
        return h / scale


class Counter(nnx.Module):
    def __init__(self, limit):
        self.count = nnx.Variable(jnp.zeros((), jnp.int32))
        self.limit = limit

    def __call__(self, x):
        self.count[...] += 1
        if self.count[...] > self.limit:  # expect: TP101
            return x * 0
        return x


class Smoother(nnx.Module):
    def __init__(self, width, *, rngs: nnx.Rngs):
        self.kernel = nnx.Param(jnp.ones((width,)) / width)
        self.width = width

    def __call__(self, x):
        y = jnp.convolve(x, self.kernel[...], mode="same")
        while jnp.linalg.norm(y) > 1.0:  # expect: TP101
            y = y / 2
        return y


clipping = GatedMLP(4, 8, 2, 0.1, "clip", rngs=nnx.Rngs(0))
gating = GatedMLP(4, 8, 2, 0.0, "gate", rngs=nnx.Rngs(0))
normalizing = GatedMLP(4, 8, 2, 0.0, "normalize", rngs=nnx.Rngs(0))
counter = Counter(3)
smoother = Smoother(3, rngs=nnx.Rngs(1))


@nnx.jit
def predict(model: GatedMLP, x):
    return model(x)


@nnx.jit
def count_calls(counter, x):
    return counter(x)


@nnx.jit
def train_step(model, optimizer, x, y):
    def loss_fn(model):
        prediction = model(x)
        return optax.l2_loss(prediction, y).mean()

    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    if loss > 1e3:  # expect: TP101
        loss = jnp.inf
    return loss


graphdef, state = nnx.split(smoother)


@jax.jit
def smooth(state, x):
    model = nnx.merge(graphdef, state)
    return model(x)


@partial(nnx.jit, static_argnames=["width"])
def pad_to(x, width, fill):
    padded = jnp.concatenate([x, jnp.full((width,), fill)])
    return padded, jnp.zeros(int(fill))  # expect: TP102


@nnx.jit
def window(x, size):
    return jnp.zeros(size) + x.sum()  # expect: TP103


class Encoder(nnx.Module):
    def __init__(self, width, *, rngs: nnx.Rngs):
        self.linear = nnx.Linear(width, width, rngs=rngs)
        self.width = width

    def encode(self, x):
        h = self.linear(x)
        if self.width > 2 and h.sum() > 0:  # expect: TP101
            h = -h
        return h

    def __call__(self, x):
        return self.encode(x)


encoder = Encoder(4, rngs=nnx.Rngs(2))


@nnx.jit
def embed(encoder: Encoder, x):
    return encoder.encode(x)
