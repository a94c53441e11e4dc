"""lax.stop_gradient inside a loop or branch body under jit(grad(...)): reverse mode traces
the primal body while the differentiation is on the stack, so the body keeps the marker, and
the compiled program must treat it as the identity (it raised "no lowering for primitive
'stop_gradient'"; gymnax-style meta-RL samples actions from stop_gradient(logits) in a scan).
Values against the eager gradient and hand-derived ones."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile import lax

XS = np.arange(3.0)


def scan_loss(w):
    def body(c, x):
        y = lax.stop_gradient(w * x)
        return c + y * w, y
    return lax.scan(body, 0.0, XS)[0]           # sum_x (w x) w, with w x held: d/dw = sum w x


def fori_loss(w):
    return lax.fori_loop(0, 3, lambda i, c: c + lax.stop_gradient(w * c), w)   # d/dw = 1


def nested_loss(w):
    def outer(c, x):
        inner = lax.fori_loop(0, 2, lambda i, d: d * lax.stop_gradient(tnp.cos(d)) + x, c)
        return lax.cond(x > 0.5, lambda: inner * w, lambda: inner), None
    return lax.scan(outer, w, XS)[0]


@pytest.mark.parametrize("loss, want", [(scan_loss, 2.0 * XS.sum()), (fori_loss, 1.0),
                                        (nested_loss, None)])
def test_jit_grad_through_bodies_with_stop_gradient(loss, want):
    eager = tp.grad(loss)(2.0)
    compiled = tp.jit(tp.grad(loss))(2.0)
    np.testing.assert_allclose(compiled, eager, rtol=1e-12)
    if want is not None:
        np.testing.assert_allclose(compiled, want, rtol=1e-12)
    batched = tp.jit(tp.vmap(tp.grad(loss)))(np.array([2.0, 3.0]))
    np.testing.assert_allclose(batched[0], eager, rtol=1e-12)


def test_grad_of_grad_still_stops():
    f = lambda w: lax.scan(lambda c, x: (c + lax.stop_gradient(w ** 2) * w * x, None),  # noqa
                           0.0, XS)[0]
    # f = w^2 (held) * w * sum(x): f' = 3 w^2 s would be without the stop; with it, w^2 s
    np.testing.assert_allclose(tp.jit(tp.grad(f))(2.0), 4.0 * XS.sum())
    np.testing.assert_allclose(tp.jit(tp.grad(tp.grad(f)))(2.0), 0.0)
