"""Differentiating lax control flow (transpile/autodiff/control_flow.py): cond/switch,
scan, fori_loop with static and traced bounds, while_loop, eagerly and under jit, against
central finite differences in float64; reverse mode of while_loop raises JAX's error."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile import lax


def numeric_grad(f, x, eps=1e-6):
    x = np.asarray(x, dtype=np.float64)
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[i] += eps
        down[i] -= eps
        g[i] = (float(f(tnp.asarray(up))) - float(f(tnp.asarray(down)))) / (2 * eps)
    return g


def cond_program(x):
    y = lax.cond(x[0] > 0, lambda v: tnp.sin(v) * x[1], lambda v: v ** 3, x)
    return tnp.sum(y)


def switch_program(x):
    index = (x[2] > 0).astype(np.int32) + (x[2] > 1).astype(np.int32)
    branches = [lambda v: tnp.exp(v), lambda v: v * x[0], lambda v: tnp.tanh(v) ** 2]
    return tnp.sum(lax.switch(index, branches, x))


def scan_program(x):
    def step(carry, xi):
        h, total = carry
        h = tnp.tanh(h * xi + x[0])
        return (h, total + h * h), h * 2.0
    (h, total), ys = lax.scan(step, (0.5, 0.0), x)
    return h + total + tnp.sum(ys * ys)


def reverse_scan_program(x):
    def step(c, xi):
        return c * xi + 1.0, tnp.sin(c)
    c, ys = lax.scan(step, x[0], x[1:], reverse=True)
    return c + tnp.sum(ys)


def rnn_program(x):
    w = tnp.reshape(x[:4], (2, 2))
    inputs = tnp.reshape(x[4:], (2, 2))

    def step(h, xt):
        h = tnp.tanh(w @ h + xt)
        return h, h
    h, hs = lax.scan(step, tnp.zeros(2), inputs)
    return tnp.sum(h) + tnp.sum(hs ** 2)


def fori_static_program(x):
    return lax.fori_loop(0, 4, lambda i, c: c * x[1] + tnp.sin(c) * i, x[0])


def fori_array_carry(x):
    def body(i, c):
        return c.at[i].set(c[i - 1] * x[i] + 1.0)
    return tnp.sum(lax.fori_loop(1, 3, body, x) ** 2)


def cond_in_scan(x):
    def step(c, xi):
        c = lax.cond(xi > 0, lambda a: a * xi, lambda a: a + xi, c)
        return c, c
    c, ys = lax.scan(step, x[0], x)
    return c + tnp.sum(ys)


def scan_in_cond(x):
    def inner(v):
        return lax.scan(lambda c, xi: (c * xi, c), 1.0, v)[0]
    return lax.cond(x[1] > 0, inner, lambda v: tnp.sum(v), x)


PROGRAMS = {
    "cond": cond_program, "switch": switch_program, "scan": scan_program,
    "reverse_scan": reverse_scan_program, "rnn": rnn_program, "fori_static": fori_static_program,
    "fori_array_carry": fori_array_carry, "cond_in_scan": cond_in_scan,
    "scan_in_cond": scan_in_cond,
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_reverse_and_forward_mode_match_finite_differences(name, sign):
    fun = PROGRAMS[name]
    x = sign * np.array([0.3, 0.7, 1.2, -0.4, 0.9, 0.2, -0.6, 0.5])
    if name in ("switch",):
        x = np.array([0.3, 0.7, sign * 0.6 + 0.5])
    expected = numeric_grad(fun, x)
    np.testing.assert_allclose(tp.grad(fun)(x), expected, rtol=1e-6, atol=1e-8)
    v = np.cos(np.arange(x.size))
    _, tangent = tp.jvp(fun, (x,), (v,))
    assert float(tangent) == pytest.approx(float(expected @ v), rel=1e-6, abs=1e-8)


@pytest.mark.parametrize("name", ["cond", "scan", "rnn", "fori_static"])
def test_jit_of_grad_through_control_flow_equals_eager(name):
    fun = PROGRAMS[name]
    x = np.array([0.3, 0.7, 1.2, -0.4, 0.9, 0.2, -0.6, 0.5])
    np.testing.assert_allclose(tp.jit(tp.grad(fun))(x), tp.grad(fun)(x), rtol=1e-12, atol=1e-14)


def while_program(x):
    def body(c):
        i, v = c
        return i + 1, v * x[0] + tnp.sin(v)
    return lax.while_loop(lambda c: c[0] < 4, body, (0, x[1]))[1]


def fori_traced_program(x, n):
    return lax.fori_loop(0, n, lambda i, c: c * x[0] + 1.0, x[1])


def test_forward_mode_of_while_and_traced_fori():
    x = np.array([0.8, 0.3])
    v = np.array([1.0, -0.5])
    expected = numeric_grad(while_program, x) @ v
    assert float(tp.jvp(while_program, (x,), (v,))[1]) == pytest.approx(expected, rel=1e-6)
    jitted = tp.jit(lambda x: tp.jvp(while_program, (x,), (v,))[1])
    assert float(jitted(x)) == pytest.approx(expected, rel=1e-6)
    f = lambda x: fori_traced_program(x, 3)   # noqa: E731
    expected = numeric_grad(f, x) @ v
    traced = tp.jit(lambda x, n: tp.jvp(lambda y: fori_traced_program(y, n), (x,), (v,))[1])
    assert float(traced(x, 3)) == pytest.approx(expected, rel=1e-6)


def test_reverse_mode_of_while_raises_jax_error():
    with pytest.raises(ValueError, match="Reverse-mode differentiation does not work for "
                                         "lax.while_loop"):
        tp.jit(tp.grad(while_program))(np.array([0.8, 0.3]))
    with pytest.raises(ValueError, match="fori_loop with static start/stop"):
        tp.jit(lambda x, n: tp.grad(lambda y: fori_traced_program(y, n))(x))(
            np.array([0.8, 0.3]), 3)


def test_hessian_through_scan():
    x = np.array([0.3, 0.7, 1.2])
    fun = lambda x: lax.scan(lambda c, xi: (c * tnp.sin(xi) + xi ** 2, None), 1.0, x)[0]  # noqa
    h = tp.hessian(fun)(x)
    g = tp.grad(fun)
    numeric = np.stack([numeric_grad(lambda y: g(y)[i], x) for i in range(3)])
    np.testing.assert_allclose(h, numeric, rtol=1e-5, atol=1e-7)


def test_backward_pass_of_scan_is_a_loop_in_the_ir():
    ir = str(tp.make_ir(tp.grad(rnn_program))(np.linspace(0.1, 0.8, 8)))
    # the forward loop storing residuals and the reverse loop (the tangent loop itself is
    # only transposed, never emitted)
    assert ir.count("scan[") == 2 and ir.count("reverse=True") == 1


def test_jacfwd_of_a_while_loop_uses_forward_mode():
    x = np.array([0.8, 0.3])
    vector = lambda x: tnp.stack([while_program(x), x[0] * x[1]])   # noqa: E731
    expected = np.stack([numeric_grad(lambda y: vector(y)[i], x) for i in range(2)])
    np.testing.assert_allclose(tp.jacfwd(vector)(x), expected, rtol=1e-6)
    np.testing.assert_allclose(tp.jit(tp.jacfwd(vector))(x), expected, rtol=1e-6)


def test_second_derivatives_through_cond_and_fori():
    f = lambda x: lax.cond(x > 0, lambda v: tnp.sin(v) * v, lambda v: v ** 3, x)   # noqa
    for x, expected in ((0.7, 2 * np.cos(0.7) - 0.7 * np.sin(0.7)), (-0.7, -4.2)):
        assert float(tp.grad(tp.grad(f))(x)) == pytest.approx(expected, rel=1e-12)
        assert float(tp.jit(tp.grad(tp.grad(f)))(x)) == pytest.approx(expected, rel=1e-12)
    h = lambda x: lax.fori_loop(0, 3, lambda i, c: tnp.sin(c) * x, x)   # noqa: E731
    g = tp.grad(h)
    numeric = (float(g(0.5 + 1e-6)) - float(g(0.5 - 1e-6))) / 2e-6
    assert float(tp.grad(tp.grad(h))(0.5)) == pytest.approx(numeric, rel=1e-6)
    assert float(tp.jit(tp.grad(tp.grad(h)))(0.5)) == pytest.approx(numeric, rel=1e-6)


@pytest.mark.parametrize("name", ["cond", "switch", "scan", "reverse_scan", "rnn",
                                  "fori_static", "cond_in_scan", "scan_in_cond"])
def test_forward_mode_under_jit_is_one_loop_of_values_and_tangents(name):
    fun = PROGRAMS[name]
    x = np.array([0.3, 0.7, 1.2, -0.4, 0.9, 0.2, -0.6, 0.5])
    if name == "switch":
        x = np.array([0.3, 0.7, 1.1])
    v = np.cos(np.arange(x.size))
    expected = numeric_grad(fun, x) @ v
    jitted = tp.jit(lambda x, v: tp.jvp(fun, (x,), (v,))[1])
    assert float(jitted(x, v)) == pytest.approx(expected, rel=1e-6, abs=1e-8)
    ir = str(tp.make_ir(lambda x, v: tp.jvp(fun, (x,), (v,))[1])(x, v))
    assert ir.count("scan[") <= 1          # no second (tangent) loop, nothing stored per step


def test_forward_mode_of_a_while_loop_inside_a_scan():
    def fun(x):
        def step(c, xi):
            c = lax.while_loop(lambda s: s[0] < 2, lambda s: (s[0] + 1, s[1] * xi), (0, c))[1]
            return c, c
        return tnp.sum(lax.scan(step, x[0], x)[1])
    x = np.array([0.9, 1.1, 0.8])
    v = np.array([1.0, 0.5, -0.5])
    expected = numeric_grad(fun, x) @ v
    assert float(tp.jit(lambda x: tp.jvp(fun, (x,), (v,))[1])(x)) == pytest.approx(expected,
                                                                                    rel=1e-6)


def test_batched_jacobians_through_loops():
    """More than 16 basis vectors: the linear program is batched by vmap, loops included."""
    x = np.linspace(0.1, 1.0, 20)
    fun = lambda x: tnp.sum(lax.scan(lambda c, xi: (c * tnp.sin(xi) + xi ** 2, c), 1.0, x)[1])  # noqa
    g = tp.grad(fun)
    numeric = np.stack([numeric_grad(lambda y: g(y)[i], x) for i in range(0, 20, 5)])
    h = tp.hessian(fun)(x)
    np.testing.assert_allclose(h[::5], numeric, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(tp.jit(tp.hessian(fun))(x), h, rtol=1e-12, atol=1e-12)
    w = lambda x: lax.while_loop(lambda c: c[0] < 3,   # noqa: E731
                                 lambda c: (c[0] + 1, c[1] * tnp.sin(x)), (0, x))[1]
    expected = np.diag(numeric_grad(lambda y: tnp.sum(w(y)), x))
    np.testing.assert_allclose(tp.jacfwd(w)(x), expected, rtol=1e-6, atol=1e-8)


def test_eager_forward_mode_of_fori_keeps_a_float32_carry_float32():
    # Python-int bounds make a weakly typed index; replaying the body eagerly with a strong
    # int64 index promoted `c * x + i` to float64 (fuzz seed 200172), and cos of the
    # float64 carry then differed from the float32 function's.
    def f(x):
        c = lax.fori_loop(1, 5, lambda i, c: (c * x + i).astype(c.dtype), x)
        return c, tnp.cos(c)
    x = np.array([272.89368], np.float32)
    expected = f(x)
    (c, cos_c), (tc, _) = tp.jvp(f, (x,), (np.ones(1, np.float32),))
    assert c.dtype == cos_c.dtype == tc.dtype == np.float32
    np.testing.assert_array_equal(c, expected[0])
    np.testing.assert_array_equal(cos_c, expected[1])
    exact = 5 * x.astype(np.float64) ** 4 + 3 * x.astype(np.float64) ** 2 + 4 * x + 3
    np.testing.assert_allclose(tc, exact, rtol=1e-5)
