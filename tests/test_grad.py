"""Reverse and forward mode (transpile/autodiff/): gradients against central finite
differences in float64, <vjp(u), v> = <u, jvp(v)> on random programs, the API's pytrees,
argnums, aux data, nesting and errors, and every primitive's rule or declared gap."""
from __future__ import annotations

import dataclasses
from typing import NamedTuple

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile import lax
from transpile import primitives as P
from transpile.autodiff.jvp_rules import jvp_rules
from transpile.autodiff.transpose_rules import transpose_rules


def numeric_grad(f, x, eps=1e-6):
    """Central differences of scalar f at float64 x."""
    x = np.asarray(x, dtype=np.float64)
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[i] += eps
        down[i] -= eps
        g[i] = (float(f(tnp.asarray(up))) - float(f(tnp.asarray(down)))) / (2 * eps)
    return g


UNARY = {  # name: (function, domain low, domain high)
    "sin": (tnp.sin, -3, 3), "cos": (tnp.cos, -3, 3), "tan": (tnp.tan, -1.2, 1.2),
    "exp": (tnp.exp, -2, 2), "exp2": (tnp.exp2, -2, 2), "expm1": (tnp.expm1, -2, 2),
    "log": (tnp.log, 0.2, 3), "log2": (tnp.log2, 0.2, 3), "log10": (tnp.log10, 0.2, 3),
    "log1p": (tnp.log1p, -0.5, 3), "sqrt": (tnp.sqrt, 0.2, 3), "cbrt": (tnp.cbrt, 0.2, 3),
    "arcsin": (tnp.arcsin, -0.9, 0.9), "arccos": (tnp.arccos, -0.9, 0.9),
    "arctan": (tnp.arctan, -3, 3), "sinh": (tnp.sinh, -2, 2), "cosh": (tnp.cosh, -2, 2),
    "tanh": (tnp.tanh, -2, 2), "arcsinh": (tnp.arcsinh, -2, 2),
    "arccosh": (tnp.arccosh, 1.2, 3), "arctanh": (tnp.arctanh, -0.9, 0.9),
    "reciprocal": (tnp.reciprocal, 0.3, 3), "abs": (tnp.abs, 0.1, 2),
    "negative": (tnp.negative, -2, 2), "square": (tnp.square, -2, 2),
    "erf": (lax.erf, -2, 2), "erfc": (lax.erfc, -2, 2), "erf_inv": (lax.erf_inv, -0.9, 0.9),
    "lgamma": (lax.lgamma, 0.5, 4), "logistic": (lax.logistic, -3, 3),
    "digamma": (lax.digamma, 0.2, 6), "digamma_negative": (lax.digamma, -2.8, -2.2),
}

BINARY = {
    "add": tnp.add, "subtract": tnp.subtract, "multiply": tnp.multiply,
    "divide": tnp.divide, "power": tnp.power, "maximum": tnp.maximum, "minimum": tnp.minimum,
    "arctan2": tnp.arctan2, "hypot": tnp.hypot, "logaddexp": tnp.logaddexp,
    "logaddexp2": tnp.logaddexp2, "remainder": tnp.remainder, "fmax": tnp.fmax,
    "fmin": tnp.fmin, "copysign": tnp.copysign,
}


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_gradient_matches_finite_differences(name):
    fun, lo, hi = UNARY[name]
    x = np.random.default_rng(1).uniform(lo, hi, 5)
    loss = lambda v: tnp.sum(fun(v) * np.arange(1.0, 6.0))   # noqa: E731
    np.testing.assert_allclose(tp.grad(loss)(x), numeric_grad(loss, x), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_gradient_matches_finite_differences(name):
    fun = BINARY[name]
    rng = np.random.default_rng(2)
    x, y = rng.uniform(0.5, 2.0, 4), rng.uniform(0.5, 2.0, 4) * np.array([1, -1, 1, 1])
    if name in ("power",):
        y = np.abs(y)
    loss = lambda a, b: tnp.sum(fun(a, b) * np.arange(1.0, 5.0))   # noqa: E731
    gx, gy = tp.grad(loss, argnums=(0, 1))(x, y)
    np.testing.assert_allclose(gx, numeric_grad(lambda a: loss(a, y), x), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(gy, numeric_grad(lambda b: loss(x, b), y), rtol=1e-6, atol=1e-7)


STRUCTURAL = {
    "sum_axis": lambda x: tnp.sum(tnp.sum(x, axis=0) ** 2),
    "prod_axis": lambda x: tnp.sum(tnp.prod(x, axis=1)),
    "max_axis": lambda x: tnp.sum(tnp.max(x, axis=0) * np.array([1.0, 2.0, 3.0])),
    "min_all": lambda x: tnp.min(x * x),
    "mean": lambda x: tnp.mean(tnp.sin(x)),
    "std": lambda x: tnp.std(x),
    "matmul": lambda x: tnp.sum(tnp.tanh(x @ x.T)),
    "batched_matmul": lambda x: tnp.sum(tnp.matmul(tnp.stack([x, 2 * x]), x.T) ** 2),
    "einsum_like_dot": lambda x: tnp.sum(tnp.dot(x.T, x) ** 2),
    "transpose_reshape": lambda x: tnp.sum(x.T.reshape(6) * np.arange(6.0)),
    "strided_slice": lambda x: tnp.sum(x[::-1, ::2] ** 3),
    "rev": lambda x: tnp.sum(tnp.flip(x, axis=1) * np.arange(6.0).reshape(2, 3)),
    "concatenate": lambda x: tnp.sum(tnp.concatenate([x, x ** 2], axis=1) ** 2),
    "stack": lambda x: tnp.sum(tnp.stack([x, tnp.sin(x)]) ** 2),
    "pad": lambda x: tnp.sum(tnp.pad(x, ((1, 0), (2, 1))) ** 2 * 0.5),
    "broadcast_to": lambda x: tnp.sum(tnp.broadcast_to(x[:, :1], (2, 4)) ** 2),
    "where": lambda x: tnp.sum(tnp.where(x > 0.5, x ** 2, -x)),
    "sort": lambda x: tnp.sum(tnp.sort(x.reshape(6)) * np.arange(6.0)),
    "sort_rows": lambda x: tnp.sum(tnp.sort(x, axis=-1) * np.arange(3.0)),
    "cumsum": lambda x: tnp.sum(tnp.cumsum(x, axis=1) ** 2),
    "cumprod": lambda x: tnp.sum(tnp.cumprod(x.reshape(6))),
    "cummax": lambda x: tnp.sum(lax.cummax(x.reshape(6)) * np.arange(6.0)),
    "take": lambda x: tnp.sum(tnp.take(x, np.array([2, 0, 2]), axis=1) ** 2),
    "fancy_index": lambda x: tnp.sum(x[np.array([1, 1, 0]), np.array([0, 2, 2])] ** 2),
    "take_along_axis": lambda x: tnp.sum(tnp.take_along_axis(
        x, np.array([[2, 0], [1, 1]]), axis=1) ** 2),
    "at_set": lambda x: tnp.sum(x.at[0, 1].set(x[1, 2] * 3.0) ** 2),
    "at_set_duplicates": lambda x: tnp.sum(x.reshape(6).at[np.array([1, 1, 3])].set(
        x[0] * np.array([1.0, 2.0, 3.0])) ** 2),
    "at_add": lambda x: tnp.sum(x.at[np.array([0, 0]), np.array([1, 1])].add(x[1, :2]) ** 2),
    "at_multiply": lambda x: tnp.sum(x.at[1].multiply(2.5) ** 2),
    "at_min": lambda x: tnp.sum(x.reshape(6).at[np.array([0, 4])].min(x[0, :2] * 0.5) ** 2),
    "dynamic_slice": lambda x: tnp.sum(lax.dynamic_slice(x, (1, 1), (1, 2)) ** 2),
    "dynamic_update_slice": lambda x: tnp.sum(lax.dynamic_update_slice(
        x, x[:1, :2] ** 2, (1, 1)) ** 2),
    "traced_index": lambda x: tnp.sum(x[:, tnp.argmax(x[0])] ** 2),
    "softmax": lambda x: tnp.sum(tnp.exp(x) / tnp.sum(tnp.exp(x), axis=1, keepdims=True)
                                 * np.arange(6.0).reshape(2, 3)),
    "norm": lambda x: tnp.linalg.norm(x),
    "var_ddof": lambda x: tnp.var(x, axis=0, ddof=1).sum(),
    "outer": lambda x: tnp.sum(tnp.outer(x[0], x[1]) ** 2),
    "trace_diag": lambda x: tnp.trace(x[:, :2] @ x[:, 1:]) + tnp.sum(tnp.diag(x[:, :2])),
    "int_intermediate": lambda x: tnp.sum(x * tnp.floor(x * 3).astype(np.int32)),
}


@pytest.mark.parametrize("name", sorted(STRUCTURAL))
def test_structural_gradient_matches_finite_differences(name):
    fun = STRUCTURAL[name]
    x = np.random.default_rng(3).uniform(0.1, 1.0, (2, 3))
    np.testing.assert_allclose(tp.grad(fun)(x), numeric_grad(fun, x), rtol=1e-5, atol=1e-6)


_W = np.arange(9.0).reshape(3, 3) / 9
LINALG = {
    "det": lambda a: tnp.linalg.det(a),
    "slogdet": lambda a: tnp.linalg.slogdet(a)[1],
    "inv": lambda a: tnp.sum(tnp.linalg.inv(a) * _W),
    "cholesky": lambda a: tnp.sum(tnp.linalg.cholesky((a + a.T) / 2) * _W),
    "eigvalsh": lambda a: tnp.sum(tnp.linalg.eigvalsh(a) * np.array([1.0, 2.0, 3.0])),
    "eigh_vectors": lambda a: tnp.sum(tnp.abs(tnp.linalg.eigh(a)[1]) * _W),
    "svdvals": lambda a: tnp.sum(tnp.linalg.svd(a, compute_uv=False) * np.array([1.0, 2.0, 3.0])),
    "svd_square": lambda a: tnp.sum(tnp.abs(tnp.linalg.svd(a)[0]) * _W)
    + tnp.sum(tnp.abs(tnp.linalg.svd(a)[2]) * _W.T),
    "svd_tall": lambda a: tnp.sum(tnp.abs(tnp.linalg.svd(a[:, :2], full_matrices=False)[0])
                                  * _W[:, :2]),
    "svd_wide": lambda a: tnp.sum(tnp.abs(tnp.linalg.svd(a[:2], full_matrices=False)[2])
                                  * _W[:2]),
    "pinv": lambda a: tnp.sum(tnp.linalg.pinv(a) * _W),
    "qr": lambda a: tnp.sum(tnp.linalg.qr(a)[0] * _W) + tnp.sum(tnp.linalg.qr(a)[1] * _W.T),
    "qr_tall": lambda a: tnp.sum(tnp.linalg.qr(a[:, :2])[0] * _W[:, :2])
    + tnp.sum(tnp.linalg.qr(a[:, :2])[1] ** 2),
    "norm_2": lambda a: tnp.linalg.norm(a, 2),
}


@pytest.mark.parametrize("name", sorted(LINALG))
def test_linalg_gradients(name):
    a0 = np.array([[4.0, 1.3, 0.5], [1.0, 3.0, 0.3], [0.7, 0.2, 2.0]])
    fun = LINALG[name]
    np.testing.assert_allclose(tp.grad(fun)(a0), numeric_grad(fun, a0), rtol=1e-6, atol=1e-8)


def test_linalg_solve_gradient():
    a0 = np.array([[3.0, 1.0], [0.5, 2.0]])
    b0 = np.array([[1.0, -1.0], [2.0, 0.5]])
    loss = lambda a, b: tnp.sum(tnp.linalg.solve(a, b) ** 2)   # noqa: E731
    ga, gb = tp.grad(loss, (0, 1))(a0, b0)
    np.testing.assert_allclose(ga, numeric_grad(lambda a: loss(a, b0), a0), rtol=1e-6)
    np.testing.assert_allclose(gb, numeric_grad(lambda b: loss(a0, b), b0), rtol=1e-6)


# -- <vjp(u), v> = <u, jvp(v)> on random programs -----------------------------------------

_STEPS = [
    lambda x: tnp.sin(x), lambda x: x * x, lambda x: tnp.exp(-x * x), lambda x: x[::-1],
    lambda x: tnp.tanh(x) + x, lambda x: tnp.cumsum(x), lambda x: x / (1.0 + x * x),
    lambda x: tnp.maximum(x, 0.1), lambda x: tnp.sort(x), lambda x: x * tnp.sum(x),
    lambda x: tnp.concatenate([x[1:], x[:1]]), lambda x: tnp.where(x > 0, x, 0.5 * x),
    lambda x: x.at[2].add(x[0]), lambda x: tnp.outer(x, x) @ x * 0.1,
]


@pytest.mark.parametrize("seed", range(12))
def test_vjp_is_the_transpose_of_jvp_on_random_programs(seed):
    rng = np.random.default_rng(seed)
    steps = [_STEPS[i] for i in rng.integers(0, len(_STEPS), 6)]

    def program(x):
        for step in steps:
            x = step(x)
        return x
    x, v, u = rng.normal(size=5), rng.normal(size=5), rng.normal(size=5)
    _, jv = tp.jvp(program, (x,), (v,))
    _, pullback = tp.vjp(program, x)
    (uj,) = pullback(u)
    assert np.dot(u, jv) == pytest.approx(np.dot(uj, v), rel=1e-10, abs=1e-10)
    _, f_jvp = tp.linearize(program, x)
    np.testing.assert_allclose(f_jvp(v), jv, rtol=1e-12, atol=1e-12)


# -- the API ----------------------------------------------------------------------------------

class Params(NamedTuple):
    w: np.ndarray
    b: np.ndarray


@dataclasses.dataclass
class DataParams:
    w: np.ndarray
    b: float


tp.tree_util.register_dataclass(DataParams, data_fields=["w", "b"], meta_fields=[])


def test_pytrees_of_parameters():
    w, b = np.array([1.0, -2.0]), np.array(0.5)
    x = np.array([0.3, 0.7])

    def loss(p, x):
        return tnp.sum(tnp.tanh(p["w"] * x + p["b"][0]) ** 2)
    g = tp.grad(loss)({"w": w, "b": [b]}, x)
    assert set(g) == {"w", "b"} and isinstance(g["b"], list)
    ref = numeric_grad(lambda w_: loss({"w": w_, "b": [b]}, x), w)
    np.testing.assert_allclose(g["w"], ref, rtol=1e-6)
    gn = tp.grad(lambda p: tnp.sum(p.w * p.b))(Params(w, b))
    assert isinstance(gn, Params)
    np.testing.assert_allclose(gn.w, [0.5, 0.5])
    np.testing.assert_allclose(gn.b, -1.0)
    gd = tp.grad(lambda p: tnp.sum(p.w ** 2) * p.b)(DataParams(w, 2.0))
    assert isinstance(gd, DataParams)
    np.testing.assert_allclose(gd.w, 4 * w)
    np.testing.assert_allclose(gd.b, 5.0)


def test_argnums_and_has_aux():
    f = lambda x, y, z: (x * y + z ** 2, {"aux": x + 1})   # noqa: E731
    (value, aux), g = tp.value_and_grad(f, argnums=(0, 2), has_aux=True)(2.0, 3.0, 4.0)
    assert value == 22.0 and aux["aux"] == 3.0
    assert isinstance(g, tuple) and g == (3.0, 8.0)
    g2, aux2 = tp.grad(f, argnums=1, has_aux=True)(2.0, 3.0, 4.0)
    assert g2 == 2.0 and aux2["aux"] == 3.0
    assert tp.grad(lambda x, y: x * y, argnums=-1)(2.0, 5.0) == 2.0


def test_results_are_numpy_arrays():
    g = tp.grad(lambda x: x ** 2)(3.0)
    assert isinstance(g, np.ndarray) and g.shape == () and g == 6.0
    gj = tp.jit(tp.grad(lambda x: x ** 2))(3.0)
    assert isinstance(gj, np.ndarray) and gj == 6.0


def test_higher_order_and_jacobians():
    f = lambda x: tnp.sum(tnp.sin(x) * x ** 2)   # noqa: E731
    x = np.array([0.3, 1.1, -0.4])
    d2 = tp.grad(lambda x: tp.grad(lambda y: tnp.sin(y) * y)(x))(1.2)
    assert d2 == pytest.approx(2 * np.cos(1.2) - 1.2 * np.sin(1.2))
    h = tp.hessian(f)(x)
    expected = np.diag(2 * np.sin(x) + 4 * x * np.cos(x) - x ** 2 * np.sin(x))
    np.testing.assert_allclose(h, expected, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(tp.jacrev(tp.jacfwd(f))(x), expected, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(tp.jacfwd(tp.jacrev(f))(x), expected, rtol=1e-12, atol=1e-12)
    g = lambda x: tnp.stack([x[0] * x[1], tnp.sin(x[2])])   # noqa: E731
    jf, jr = tp.jacfwd(g)(x), tp.jacrev(g)(x)
    assert jf.shape == jr.shape == (2, 3)
    np.testing.assert_allclose(jf, jr)
    np.testing.assert_allclose(jf, [[x[1], x[0], 0], [0, 0, np.cos(x[2])]])


def test_large_jacobians_are_batched_not_unrolled():
    x = np.linspace(0.1, 2.0, 40)
    f = lambda x: tnp.sin(x) * tnp.sum(x)   # noqa: E731
    expected = np.diag(np.cos(x) * np.sum(x)) + np.sin(x)[:, None]
    np.testing.assert_allclose(tp.jacfwd(f)(x), expected, rtol=1e-12)
    np.testing.assert_allclose(tp.jacrev(f)(x), expected, rtol=1e-12)
    for jac in (tp.jacrev, tp.jacfwd):       # one batched linear program (vmap), no loop
        ir = tp.make_ir(jac(f))(x)
        assert len(ir.eqns) < 30 and "scan" not in str(ir) and str(ir).count("cos") == 1
    np.testing.assert_allclose(tp.jit(tp.jacrev(f))(x), expected, rtol=1e-12)
    h = tp.hessian(lambda x: tnp.sum(tnp.sin(x)) * tnp.sum(x ** 2))(x)
    numeric = np.stack([numeric_grad(lambda y: tp.grad(
        lambda z: tnp.sum(tnp.sin(z)) * tnp.sum(z ** 2))(y)[i], x) for i in range(3)])
    np.testing.assert_allclose(h[:3], numeric, rtol=1e-6, atol=1e-6)


def test_integer_and_boolean_intermediates_carry_zero_tangents():
    def f(x):
        n = (x > 0).astype(np.int32).sum()
        return tnp.sum(x * n) + tnp.sum(tnp.argsort(x) * x)
    x = np.array([0.5, -1.0, 2.0])
    np.testing.assert_allclose(tp.grad(f)(x), [2.0 + 1, 2.0 + 0, 2.0 + 2])


def test_allow_int_gives_float0_cotangents():
    g = tp.grad(lambda x, n: x * n, argnums=(0, 1), allow_int=True)(2.0, 3)
    assert g[0] == 3.0 and g[1].dtype == tp.float0
    _, pullback = tp.vjp(lambda x, n: x * n, 2.0, 3)
    assert pullback(1.0)[1].dtype == tp.float0


def test_stop_gradient():
    f = lambda x: lax.stop_gradient(x) * x ** 2   # noqa: E731
    assert tp.grad(f)(3.0) == 2 * 3.0 * 3.0
    assert tp.grad(tp.grad(f))(3.0) == 2 * 3.0
    tree = lax.stop_gradient({"a": 1.0, "b": np.ones(2)})
    assert tree["a"] == 1.0 and tree["b"].shape == (2,)


def test_custom_jvp_and_custom_vjp():
    @tp.custom_jvp
    def safe_log1pexp(x):
        return tnp.log1p(tnp.exp(x))

    @safe_log1pexp.defjvp
    def _(primals, tangents):
        (x,), (t,) = primals, tangents
        return safe_log1pexp(x), t * (1.0 - 1.0 / (1.0 + tnp.exp(x)))
    assert tp.grad(safe_log1pexp)(800.0) == 1.0        # the rule's, not exp overflowing
    assert tp.jit(tp.grad(safe_log1pexp))(0.0) == 0.5

    @tp.custom_jvp
    def f(x, y):
        return x * y
    f.defjvps(lambda g, ans, x, y: g * y * 10, None)
    assert tp.grad(f, (0, 1))(2.0, 3.0) == (30.0, 0.0)

    @tp.custom_vjp
    def clip_gradient(x):
        return x

    def fwd(x):
        return x, None

    def bwd(_, g):
        return (tnp.clip(g, -1.0, 1.0),)
    clip_gradient.defvjp(fwd, bwd)
    assert tp.grad(lambda x: clip_gradient(x) * 5.0)(2.0) == 1.0
    assert tp.jit(tp.grad(lambda x: clip_gradient(x) * 5.0))(2.0) == 1.0
    assert clip_gradient(3.0) == 3.0
    with pytest.raises(TypeError, match="forward-mode"):
        tp.jvp(clip_gradient, (1.0,), (1.0,))


def test_checkpoint_recomputes_in_the_backward_pass():
    f = tp.checkpoint(lambda x: tnp.sin(tnp.sin(x)) * x, policy=lambda *a: True)
    x = np.array([0.3, 1.2])
    expected = np.cos(np.sin(x)) * np.cos(x) * x + np.sin(np.sin(x))
    np.testing.assert_allclose(tp.grad(lambda x: tnp.sum(f(x)))(x), expected, rtol=1e-12)
    np.testing.assert_allclose(tp.jvp(f, (x,), (np.ones(2),))[1], expected, rtol=1e-12)
    np.testing.assert_allclose(tp.jit(tp.grad(lambda x: tnp.sum(f(x))))(x), expected,
                               rtol=1e-12)
    h = tp.hessian(lambda x: tnp.sum(f(x)))(x)
    plain = tp.hessian(lambda x: tnp.sum(tnp.sin(tnp.sin(x)) * x))(x)
    np.testing.assert_allclose(h, plain, rtol=1e-12, atol=1e-14)
    # the backward pass computes sin(sin(x)) again: three sines in all, not two
    ir = str(tp.make_ir(tp.grad(lambda x: tnp.sum(f(x))))(x))
    assert ir.count(" sin ") == 4
    assert tp.remat is tp.checkpoint


def test_linearize_of_a_checkpoint_applies_forwards():
    """linearize's linear function through a checkpoint: the body's JVP, eagerly, under jit
    and inside a cond branch, as JAX's checkpoint allows (lax_control_flow_test.py's
    testCondLinearize*_new_checkpoint; it raised "can't apply forward-mode autodiff")."""
    f = tp.checkpoint(lambda x: tnp.sin(tnp.sin(x)) * x)
    x, t = np.array([0.3, 1.2]), np.array([1.0, -2.0])
    slope = np.cos(np.sin(x)) * np.cos(x) * x + np.sin(np.sin(x))
    y, f_lin = tp.linearize(f, x)
    np.testing.assert_allclose(y, np.sin(np.sin(x)) * x, rtol=1e-15)
    np.testing.assert_allclose(f_lin(t), slope * t, rtol=1e-12)
    np.testing.assert_allclose(tp.jit(f_lin)(t), slope * t, rtol=1e-12)

    def g(x):
        return lax.cond(x[0] < 2, lambda v: v * 2.0, f, x).sum()
    _, g_lin = tp.linearize(g, x + 2.0)
    np.testing.assert_allclose(g_lin(t), np.sum(
        (np.cos(np.sin(x + 2)) * np.cos(x + 2) * (x + 2) + np.sin(np.sin(x + 2))) * t),
        rtol=1e-12)
    # a custom_vjp without a forward rule still refuses, as in JAX
    h = tp.custom_vjp(lambda x: x * 2.0)
    h.defvjp(lambda x: (x * 2.0, None), lambda _, ct: (ct * 2.0,))
    with pytest.raises(TypeError, match="forward-mode"):
        tp.linearize(h, 1.0)[1](1.0)


def test_jvp_and_vjp_pytrees():
    f = lambda p: {"s": p["a"] * p["b"], "t": (tnp.sin(p["a"]),)}   # noqa: E731
    p = {"a": np.array([1.0, 2.0]), "b": np.array([3.0, 4.0])}
    t = {"a": np.array([1.0, 0.0]), "b": np.array([0.0, 1.0])}
    out, tout = tp.jvp(f, (p,), (t,))
    np.testing.assert_allclose(tout["s"], [3.0, 2.0])
    np.testing.assert_allclose(tout["t"][0], [np.cos(1.0), 0.0])
    _, pullback = tp.vjp(f, p)
    (ct,) = pullback({"s": np.ones(2), "t": (np.zeros(2),)})
    np.testing.assert_allclose(ct["a"], [3.0, 4.0])
    np.testing.assert_allclose(ct["b"], [1.0, 2.0])


# -- with jit ---------------------------------------------------------------------------------

def test_jit_of_grad_is_one_program_equal_to_eager():
    def loss(w, x):
        h = tnp.tanh(x @ w["w1"] + w["b1"])
        return tnp.mean((h @ w["w2"]) ** 2)
    rng = np.random.default_rng(0)
    w = {"w1": rng.normal(size=(4, 5)), "b1": rng.normal(size=5), "w2": rng.normal(size=(5, 2))}
    x = rng.normal(size=(3, 4))
    eager = tp.value_and_grad(loss)(w, x)
    fun = tp.jit(tp.value_and_grad(loss))
    compiled = fun(w, x)
    np.testing.assert_allclose(compiled[0], eager[0], rtol=1e-12)
    for k in w:
        np.testing.assert_allclose(compiled[1][k], eager[1][k], rtol=1e-12, atol=1e-14)
    source = fun.lower(w, x).source
    assert "test_grad.py" in source and source.count("tanh") >= 1
    ir = str(tp.make_ir(tp.grad(loss))(w, x))
    assert "tanh" in ir and "dot_general" in ir


def test_grad_inside_jit_closing_over_traced_values():
    @tp.jit
    def f(x, y):
        return tp.grad(lambda a: tnp.sum(tnp.sin(a * y)))(x)
    x, y = np.array([0.1, 0.2]), np.array([2.0, 3.0])
    np.testing.assert_allclose(f(x, y), y * np.cos(x * y), rtol=1e-12)


# -- errors -----------------------------------------------------------------------------------

def test_errors_match_jax():
    with pytest.raises(TypeError, match="Gradient only defined for scalar-output functions"):
        tp.grad(lambda x: x * 2)(np.ones(3))
    with pytest.raises(TypeError, match="requires real- or complex-valued inputs"):
        tp.grad(lambda x: x * 2.0)(3)
    with pytest.raises(TypeError, match="requires real-valued outputs"):
        tp.grad(lambda x: (x > 0).astype(np.int32).sum())(np.ones(2))
    with pytest.raises(TypeError, match="argnums"):
        tp.grad(lambda x: x, argnums=2)(1.0)
    with pytest.raises(TypeError, match="two-element tuple"):
        tp.grad(lambda x: x, has_aux=True)(1.0)
    with pytest.raises(ValueError, match="shape"):
        tp.jvp(lambda x: x, (np.ones(2),), (np.ones(3),))
    with pytest.raises(TypeError, match="dtype"):
        tp.jvp(lambda x: x, (np.ones(2),), (np.ones(2, np.float32),))
    with pytest.raises(TypeError, match="tuples or lists"):
        tp.jvp(lambda x: x, 1.0, 1.0)
    with pytest.raises(NotImplementedError, match="scatter"):
        tp.grad(lambda x: tnp.sum(tnp.ones(3).at[np.array([0, 0])].multiply(x)))(1.5)


# -- every primitive has a rule or a declared gap ----------------------------------------------

LINEAR_IN_TANGENTS = {"neg", "add", "sub", "mul", "div", "convert_element_type", "select",
                      "broadcast_in_dim", "reshape", "transpose", "rev", "reduce_sum", "slice",
                      "concatenate", "dot_general", "dynamic_slice", "dynamic_update_slice",
                      "gather", "scatter", "linalg_solve", "custom_vjp_lin"}


def test_every_primitive_has_a_jvp_rule_or_a_declared_error():
    missing = []
    for name in P.all_primitives():
        rule = jvp_rules.get(name)
        if rule is None:
            with pytest.raises(NotImplementedError, match=f"'{name}'"):
                from transpile.autodiff.jvp_rules import jvp_rule
                jvp_rule(name)
            missing.append(name)
    assert not missing, missing
    declared = {name for name, rule in jvp_rules.items() if hasattr(rule, "declared_missing")}
    # The declared gaps (listed so that closing one shows here). pmax/pmin: JAX 0.10 has no
    # derivative for them either.
    assert declared <= {"custom_vjp_lin", "pmax", "pmin"}, declared
    for name in declared:
        with pytest.raises(NotImplementedError, match=f"'{name}'"):
            jvp_rules[name]([], [])


def test_linear_primitives_have_transpose_rules():
    assert LINEAR_IN_TANGENTS <= set(transpose_rules)



def test_complex_inputs_follow_jax_conventions():
    """JAX's: cotangents are transposes (no conjugation), so grad of a real function of z
    is df/dx - i df/dy; holomorphic=True gives f'(z)."""
    z = np.array([3 + 4j, 1 - 2j])
    np.testing.assert_allclose(tp.grad(lambda z: tnp.sum(tnp.abs(z) ** 2))(z), 2 * np.conj(z))
    np.testing.assert_allclose(tp.grad(lambda z: tnp.sum(tnp.real(z * (2 + 1j))))(z),
                               [2 + 1j, 2 + 1j])
    np.testing.assert_allclose(tp.grad(lambda z: tnp.sum(tnp.imag(z) ** 2))(z),
                               -2j * z.imag)
    np.testing.assert_allclose(tp.grad(lambda z: tnp.sum(z ** 2), holomorphic=True)(z), 2 * z)
    _, t = tp.jvp(tnp.abs, (z,), (np.array([1 + 1j, 2j]),))
    np.testing.assert_allclose(t, np.real(np.array([1 + 1j, 2j]) * np.conj(z) / np.abs(z)))
    x = 0.3
    assert tp.grad(lambda x: tnp.real(tnp.exp(1j * x) * (2 - 1j)))(x) == pytest.approx(
        np.real(1j * np.exp(1j * x) * (2 - 1j)))
    with pytest.raises(TypeError, match="holomorphic=True"):
        tp.grad(lambda z: tnp.sum(z ** 2))(z)


def test_debug_print_runs_in_the_forward_pass(capsys):
    def f(x):
        tp.debug.print("x is {}", x)
        return tnp.sum(x ** 2)
    g = tp.jit(tp.grad(f))(np.array([1.0, 2.0]))
    np.testing.assert_allclose(g, [2.0, 4.0])
    assert capsys.readouterr().out.count("x is [1. 2.]") == 1
    assert tp.jacobian is tp.jacrev


@pytest.mark.parametrize("name", ["at_set_duplicates", "at_add", "at_min", "take", "fancy_index",
                                  "sort_rows", "cumsum", "pad", "strided_slice",
                                  "dynamic_update_slice", "prod_axis", "max_axis", "cumprod"])
def test_compiled_gradient_equals_eager(name):
    fun = STRUCTURAL[name]
    x = np.random.default_rng(3).uniform(0.1, 1.0, (2, 3))
    np.testing.assert_allclose(tp.jit(tp.grad(fun))(x), tp.grad(fun)(x), rtol=1e-12,
                               atol=1e-14)


def test_custom_rules_may_close_over_values_of_an_enclosing_jit():
    @tp.jit
    def f(x, w):
        @tp.custom_jvp
        def g(x):
            return tnp.sin(x) * w

        @g.defjvp
        def _(primals, tangents):
            return g(primals[0]), tangents[0] * tnp.cos(primals[0]) * w
        return tp.grad(lambda x: tnp.sum(g(x)))(x)
    w = np.array([2.0, 3.0])
    np.testing.assert_allclose(f(np.ones(2), w), np.cos(1.0) * w, rtol=1e-12)


def test_custom_rules_with_nondiff_argnums():
    from functools import partial

    @partial(tp.custom_jvp, nondiff_argnums=(0,))
    def apply(fn, x):
        return fn(x)

    @apply.defjvp
    def _(fn, primals, tangents):
        (x,), (t,) = primals, tangents
        return fn(x), 7.0 * t
    assert tp.grad(lambda x: apply(tnp.sin, x))(0.3) == 7.0

    @partial(tp.custom_vjp, nondiff_argnums=(1,))
    def scale(x, k):
        return x * k

    def fwd(x, k):
        return x * k, x

    def bwd(k, x, g):
        return (g * k * 100.0,)
    scale.defvjp(fwd, bwd)
    assert tp.grad(lambda x: scale(x, 3.0))(2.0) == 300.0
    assert tp.jit(tp.grad(lambda x: scale(x, 3.0)))(2.0) == 300.0


def test_python_control_flow_on_a_differentiated_value_names_it():
    def loss(w, x):
        if w > 0:
            return w * x
        return x
    # eagerly the value is known, as in JAX's eager grad: each call takes its own branch
    assert tp.grad(loss)(1.0, 2.0) == 2.0
    assert tp.grad(loss)(-1.0, 2.0) == 0.0
    assert tp.grad(tp.grad(loss, argnums=1))(1.0, 2.0) == 1.0
    # under jit (or vmap) it is not, and the error names the argument
    with pytest.raises(tp.ConcretizationError, match="'w'"):
        tp.jit(tp.grad(loss))(1.0, 2.0)
    # a value not differentiated stays concrete (Python may branch on it), as in JAX
    assert tp.grad(lambda x, n: x ** n if n > 1 else x, argnums=0)(3.0, 2) == 6.0


def test_grad_and_vmap_compose():
    def loss(w, x):
        return tnp.sum(tnp.tanh(x @ w) ** 2)
    rng = np.random.default_rng(0)
    w, xs = rng.normal(size=(3, 2)), rng.normal(size=(5, 4, 3))
    looped = np.stack([tp.grad(loss)(w, x) for x in xs])
    per_example = tp.vmap(tp.grad(loss), in_axes=(None, 0))
    np.testing.assert_allclose(per_example(w, xs), looped, rtol=1e-12)
    np.testing.assert_allclose(tp.jit(per_example)(w, xs), looped, rtol=1e-12)
    total = tp.grad(lambda w: tnp.sum(tp.vmap(lambda x: loss(w, x))(xs)))
    np.testing.assert_allclose(total(w), looped.sum(0), rtol=1e-12)
    np.testing.assert_allclose(tp.jit(total)(w), looped.sum(0), rtol=1e-12)
    tangents = tp.vmap(lambda v: tp.jvp(lambda w: loss(w, xs[0]), (w,), (v,))[1])(
        np.stack([np.eye(6)[i].reshape(3, 2) for i in range(6)]))
    np.testing.assert_allclose(tangents, looped[0].reshape(6), rtol=1e-12)
    # stop_gradient inside vmap inside grad: d/dw sum_x sum(sg(w) * loss(w, x)) = sum(w) * g
    stop = tp.grad(lambda w: tnp.sum(tp.vmap(lambda x: tnp.sum(lax.stop_gradient(w))
                                              * loss(w, x))(xs)))
    np.testing.assert_allclose(stop(w), np.sum(w) * looped.sum(0), rtol=1e-12)
