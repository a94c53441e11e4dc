"""A gradient compiled by the CUDA backend (emulated on the CPU, TRANSPILE_CUDA_EMULATE)
equals the eager one: an RNN's backward pass through a scan (a reverse loop of device
kernels) and an MLP's."""
from __future__ import annotations

import numpy as np

import transpile as tp
import transpile.numpy as tnp
from transpile import lax

from conftest import cuda_emulated

pytestmark = cuda_emulated


def rnn_loss(w, xs):
    h = lax.scan(lambda c, x: (tnp.tanh(c @ w + x), None), tnp.zeros(3), xs)[0]
    return tnp.sum(h ** 2)


def mlp_loss(params, x):
    (w1, b1), (w2, b2) = params
    return tnp.mean((tnp.tanh(x @ w1 + b1) @ w2 + b2) ** 2)


def test_gradients_on_the_cuda_backend_equal_eager():
    rng = np.random.default_rng(0)
    w, xs = rng.normal(size=(3, 3)), rng.normal(size=(4, 3))
    g = tp.jit(tp.grad(rnn_loss), backend="cuda")(w, xs)
    np.testing.assert_allclose(np.asarray(g), tp.grad(rnn_loss)(w, xs), rtol=1e-12,
                               atol=1e-14)
    params = [(rng.normal(size=(5, 8)), rng.normal(size=8)), (rng.normal(size=(8, 2)),
                                                               rng.normal(size=2))]
    x = rng.normal(size=(16, 5))
    compiled = tp.jit(tp.grad(mlp_loss), backend="cuda")(params, x)
    for got, want in zip(tp.tree_util.tree_leaves(compiled),
                         tp.tree_util.tree_leaves(tp.grad(mlp_loss)(params, x))):
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12, atol=1e-14)
