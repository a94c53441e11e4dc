"""Realistic, working transpile code: the linter must report nothing here (default settings)."""
# ruff: noqa
from __future__ import annotations

import dataclasses
from functools import partial

import transpile as tp
import transpile.numpy as tnp
from transpile import lax

STEPS = 10


@tp.jit
def selu(x, alpha=1.67, scale=1.05):
    return scale * tnp.where(x > 0, x, alpha * (tnp.exp(x) - 1))


@tp.jit
def sum_of_squares(x):
    return tnp.sum(x * x)


@tp.jit
def row_softmax(x):
    z = x - tnp.max(x, axis=1, keepdims=True)
    e = tnp.exp(z)
    return e / tnp.sum(e, axis=1, keepdims=True)


@tp.jit
def jacobi_step(u):
    inner = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
    return u.at[1:-1, 1:-1].set(inner)


@partial(tp.jit, static_argnames=["sweeps"])
def jacobi(u, sweeps):
    for _ in range(sweeps):
        u = jacobi_step(u)
    return u


@tp.jit
def jacobi_loop(u):
    return lax.fori_loop(0, STEPS, lambda i, v: jacobi_step(v), u)


def newton_body(state):
    x, target, k = state
    return x - (x * x - target) / (2 * x), target, k + 1


def newton_cond(state):
    x, target, k = state
    return tnp.logical_and(tnp.abs(x * x - target) > 1e-6, k < 50)


@tp.jit
def newton(target):
    x, _, _ = lax.while_loop(newton_cond, newton_body, (target, target, 0))
    return x


@tp.jit
def mandelbrot(c):
    def body(i, z):
        return tnp.where(tnp.abs(z) < 2, z * z + c, z)

    return lax.fori_loop(0, 50, body, c)


@tp.jit
def relu_or_neg(x):
    return lax.cond(tnp.sum(x) > 0, lambda v: tnp.maximum(v, 0), lambda v: -v, x)


@tp.jit
def running_sum(xs):
    def step(carry, x):
        return carry + x, carry + x

    return lax.scan(step, tnp.zeros(xs.shape[1:]), xs)


def init_params(widths):
    """Plain set-up code (never jitted)."""
    params = []
    for a, b in zip(widths[:-1], widths[1:]):
        params.append({"w": tnp.ones((a, b)) / a, "b": tnp.zeros((b,))})
    return params


def dense(layer, x):
    return tnp.tanh(x @ layer["w"] + layer["b"])


@tp.jit
def predict(params, x):
    for layer in params:
        x = dense(layer, x)
    return x


@tp.jit
def sgd_update(params, grads, lr):
    return [{k: p[k] - lr * g[k] for k in p} for p, g in zip(params, grads)]


@dataclasses.dataclass(frozen=True)
class Options:
    order: int = 2
    normalise: bool = True


@partial(tp.jit, static_argnums=1)
def polynomial(x, options: Options):
    out = tnp.zeros_like(x)
    for power in range(options.order + 1):
        out = out + x**power
    if options.normalise:
        out = out / (options.order + 1)
    return out


class Smoother:
    def __init__(self, width):
        self.width = width

    @partial(tp.jit, static_argnums=0)
    def __call__(self, x):
        if self.width > 1:
            return (x[:-1] + x[1:]) / 2
        return x


@tp.jit
def normalise_rows(x):
    norms = tnp.sqrt(tnp.sum(x * x, axis=1, keepdims=True))
    return x / tnp.maximum(norms, 1e-12)


@tp.jit
def clip_values(x, lo, hi):
    return tnp.clip(x, lo, hi)


@tp.jit
def cross_entropy(logits, labels):
    z = logits - tnp.max(logits, axis=-1, keepdims=True)
    logp = z - tnp.log(tnp.sum(tnp.exp(z), axis=-1, keepdims=True))
    return -tnp.mean(tnp.sum(labels * logp, axis=-1))


@tp.jit
def shape_checks(x, y=None):
    if y is None:
        y = tnp.ones_like(x)
    if x.shape != y.shape:
        y = tnp.broadcast_to(y, x.shape)
    assert x.ndim <= 3, "at most three dimensions"
    return x * y


@tp.jit
def stack_pair(a, b):
    n = a.shape[0]
    out = tnp.concatenate([a, b])
    return out.reshape(2, n)


@tp.jit
def weighted(*arrays):
    total = arrays[0]
    for a in arrays[1:]:
        total = total + a
    return total / len(arrays)


@tp.jit
def matvec_chain(a, v):
    for _ in range(3):
        v = a @ v
    return v / tnp.sqrt(v @ v)


@tp.jit
def counts(x):
    positive = tnp.sum(tnp.where(x > 0, 1, 0))
    return positive, tnp.sum(tnp.where(tnp.isnan(x), 1, 0))


@tp.jit
def dynamic_row(x, i):
    return lax.dynamic_slice(x, (i, 0), (1, x.shape[1]))


@tp.jit
def piecewise_linear(x):
    low = tnp.where(x < 0, 0.0, x)
    return tnp.where(low > 1, 1.0, low)


def loss_fn(params, x, y):
    pred = predict(params, x)
    return tnp.mean((pred - y) ** 2)


evaluate = tp.jit(loss_fn)
smooth3 = tp.jit(partial(polynomial, options=Options(order=3)))
