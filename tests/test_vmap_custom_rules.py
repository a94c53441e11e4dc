"""custom_jvp/custom_vjp functions inside vmap inside a differentiation
(transpile/batching/rules_autodiff_markers.py): the user's rule is batched and runs once for
the whole batch, eagerly and under jit, including rules that close over values of an
enclosing jit. (JAX-recorded cases of the same are in tests/transform_cases.py.)"""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp


def scaled_by_custom_jvp(s, xs):
    @tp.custom_jvp
    def k(x):
        return x * s

    k.defjvp(lambda p, t: (k(p[0]), t[0] * s * 2.0))     # twice the true derivative
    return tp.grad(lambda x_: tnp.sum(tp.vmap(k)(x_)))(xs)


def scaled_by_custom_vjp(s, xs):
    @tp.custom_vjp
    def k(x):
        return x * s

    k.defvjp(lambda x: (k(x), None), lambda _, ct: (ct * s * 3.0,))   # three times
    return tp.grad(lambda x_: tnp.sum(tp.vmap(k)(x_)))(xs)


@pytest.mark.parametrize("program, factor", [(scaled_by_custom_jvp, 2.0),
                                             (scaled_by_custom_vjp, 3.0)])
@pytest.mark.parametrize("compiled", [False, True])
def test_the_rule_runs_batched_and_may_close_over_jit_values(program, factor, compiled):
    xs = np.arange(3.0)
    run = tp.jit(program) if compiled else program
    np.testing.assert_allclose(run(2.0, xs), np.full(3, 2.0 * factor))


def test_several_outputs_and_in_axes_1():
    @tp.custom_jvp
    def sin_cos(x):
        return tnp.sin(x), tnp.cos(x)

    @sin_cos.defjvp
    def _(primals, tangents):
        x, t = primals[0], tangents[0]
        return sin_cos(x), (tnp.cos(x) * t, -tnp.sin(x) * t)
    m = np.arange(6.0).reshape(2, 3)

    def loss(m_):
        return tnp.sum(tp.vmap(lambda c: sin_cos(c)[0] * sin_cos(c)[1], in_axes=1)(m_))
    np.testing.assert_allclose(tp.grad(loss)(m), np.cos(2 * m), rtol=1e-12)
    np.testing.assert_allclose(tp.jit(tp.grad(loss))(m), np.cos(2 * m), rtol=1e-12)


def test_unbatched_argument_cotangent_sums_over_the_batch():
    @tp.custom_vjp
    def scale(x, w):
        return x * w
    scale.defvjp(lambda x, w: (scale(x, w), (x, w)), lambda r, ct: (ct * r[1], ct * r[0]))
    xs = np.array([1.0, 2.0, 4.0])
    gw = tp.grad(lambda w: tnp.sum(tp.vmap(scale, (0, None))(xs, w)))(0.5)
    assert float(gw) == pytest.approx(7.0)
