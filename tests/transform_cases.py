"""A table of transformation programs run both by JAX (tools/record_jax_transforms.py
records their results in tests/data/jax_transforms.json) and by transpile
(tests/test_transform_matrix.py): vmap with its axis specs, the grad family, custom rules,
control flow, composition, and the errors JAX raises.

Each case is a function of no arguments that builds its inputs and applies the
transformations; it is written once against a JAX-like module `jx` (jax or transpile), so
both sides run the same code. Its result is compared leaf by leaf (dtype, shape, values); a
case that raises is compared by the exception's type.
"""
from __future__ import annotations

import dataclasses
from typing import NamedTuple

import numpy as np


class Params(NamedTuple):
    w: object
    b: object


@dataclasses.dataclass
class Layer:
    scale: object
    shift: object


_REGISTERED = set()


def _register_layer(jx):
    """Layer as a pytree node of `jx` (once per module: registering twice is an error)."""
    if id(jx) not in _REGISTERED:
        jx.tree_util.register_dataclass(Layer, data_fields=["scale", "shift"], meta_fields=[])
        _REGISTERED.add(id(jx))


def _data():
    r = np.random.default_rng(18)
    spd = r.standard_normal((3, 3))
    return {
        "x3": np.array([0.3, -1.2, 2.5]),
        "pos3": np.array([0.4, 1.3, 2.2]),
        "x34": r.standard_normal((3, 4)),
        "x345": r.standard_normal((3, 4, 5)),
        "v4": r.standard_normal(4),
        "m43": r.standard_normal((4, 3)),
        "spd": spd @ spd.T + 3.0 * np.eye(3),
        "sq": r.standard_normal((3, 3)) + 2.0 * np.eye(3),
        "tall": r.standard_normal((4, 3)),
    }


def _custom_rules(jx):
    """A custom_jvp and a custom_vjp whose rules are deliberately not the true derivative
    (2x and 3x on the x part), so a result shows which rule ran."""
    jnp = jx.numpy

    @jx.custom_jvp
    def f(x, y):
        return jnp.sin(x) * y

    @f.defjvp
    def f_jvp(primals, tangents):
        x, y = primals
        tx, ty = tangents
        return f(x, y), 2.0 * jnp.cos(x) * y * tx + jnp.sin(x) * ty

    @jx.custom_vjp
    def g(x, y):
        return jnp.sin(x) * y

    def g_fwd(x, y):
        return g(x, y), (jnp.cos(x), jnp.sin(x), y)

    def g_bwd(res, ct):
        c, s, y = res
        return 3.0 * c * y * ct, s * ct
    g.defvjp(g_fwd, g_bwd)

    @jx.custom_jvp
    def h(x):
        return jnp.log1p(jnp.exp(x))
    h.defjvps(lambda t, ans, x: t * 4.0 * jx.nn.sigmoid(x))

    @jx.custom_vjp
    def clip_grad(x, bound):          # identity forward, gradient clipped backward
        return x

    def clip_fwd(x, bound):
        return x, bound

    def clip_bwd(bound, ct):
        return jnp.clip(ct, -bound, bound), None
    clip_grad.defvjp(clip_fwd, clip_bwd)

    from functools import partial

    @partial(jx.custom_jvp, nondiff_argnums=(0,))
    def power(n, x):
        return x ** n

    @power.defjvp
    def power_jvp(n, primals, tangents):
        x, = primals
        t, = tangents
        return power(n, x), 10.0 * n * x ** (n - 1) * t
    return f, g, h, clip_grad, power


def vmap_cases(jx):
    jnp, lax, d = jx.numpy, jx.lax, _data()
    x34, x345, v4, m43 = d["x34"], d["x345"], d["v4"], d["m43"]
    key = jx.random.PRNGKey(7)
    c = {}
    c["vmap_axis0"] = lambda: jx.vmap(lambda x: jnp.sin(x) * 2.0 + 1.0)(x34)
    c["vmap_negative_in_axis"] = lambda: jx.vmap(lambda x: x * jnp.arange(3.0), -1)(x34)
    c["vmap_none_and_int"] = lambda: jx.vmap(lambda a, v: a @ v, (None, 0))(m43.T, x34)
    c["vmap_in_axes_dict"] = lambda: jx.vmap(
        lambda p: p["a"] * p["b"], in_axes=({"a": 0, "b": None},))({"a": x34, "b": v4})
    c["vmap_in_axes_list_arg"] = lambda: jx.vmap(
        lambda xs: xs[0] - xs[1], in_axes=([0, 1],))([x34, x34.T])
    c["vmap_namedtuple_arg"] = lambda: jx.vmap(
        lambda p: p.w * 2.0 + p.b, in_axes=(Params(0, None),))(Params(x34, v4))
    c["vmap_out_axes_1"] = lambda: jx.vmap(lambda x: jnp.outer(x, x[:2]), out_axes=1)(x34)
    c["vmap_out_axes_negative"] = lambda: jx.vmap(lambda x: x[:, None] * 2.0,
                                                  out_axes=-1)(x34)
    c["vmap_out_axes_none"] = lambda: jx.vmap(lambda x, y: (x + y, y * 2.0), in_axes=(0, None),
                                              out_axes=(0, None))(x34, v4)
    c["vmap_out_axes_dict"] = lambda: jx.vmap(
        lambda x: {"s": x.sum(), "v": x * 3.0}, out_axes={"s": 0, "v": 1})(x34)
    c["vmap_axis_size"] = lambda: jx.vmap(lambda v: v * 2.0, in_axes=None, axis_size=3)(v4)
    c["vmap_kwargs_mapped"] = lambda: jx.vmap(lambda x, scale: x * scale)(x34, scale=x34[:, 0])
    c["vmap_nested"] = lambda: jx.vmap(jx.vmap(lambda x: jnp.sum(x ** 2)))(x345)
    c["vmap_nested_outer_product"] = lambda: jx.vmap(
        jx.vmap(lambda a, b: a * b, (None, 0)), (0, None))(v4, d["x3"])
    c["vmap_of_jit"] = lambda: jx.vmap(jx.jit(lambda x: jnp.tanh(x) @ x))(x34)
    c["jit_of_vmap"] = lambda: jx.jit(jx.vmap(lambda x, y: jnp.dot(x, y), (0, None)))(x34, v4)
    c["vmap_cond"] = lambda: jx.vmap(
        lambda x: lax.cond(x > 0, jnp.sin, lambda v: v ** 2, x))(d["x3"])
    c["vmap_switch"] = lambda: jx.vmap(lambda i, x: lax.switch(
        i, [lambda v: v + 1.0, lambda v: v * 3.0, jnp.cos], x))(np.array([2, 0, 1, 5]), v4)
    c["vmap_while_batched_predicate"] = lambda: jx.vmap(lambda n: lax.while_loop(
        lambda s: s[0] < n, lambda s: (s[0] + 1, s[1] * 1.5), (0, 1.0)))(np.array([0, 3, 1]))
    c["vmap_fori_loop"] = lambda: jx.vmap(lambda x: lax.fori_loop(
        0, 4, lambda i, c: c * x + i, x))(v4)
    c["vmap_scan"] = lambda: jx.vmap(lambda xs: lax.scan(
        lambda c, x: (c + x, c * x), 0.0, xs))(x34)
    c["vmap_random_normal_keys"] = lambda: jx.vmap(
        lambda k: jx.random.normal(k, (2,), jnp.float32))(jx.random.split(key, 4))
    c["vmap_random_uniform_keys"] = lambda: jx.vmap(lambda k: jx.random.uniform(
        k, (3,), jnp.float32, minval=-1.0, maxval=2.0))(jx.random.split(key, 3))
    c["vmap_size_mismatch"] = lambda: jx.vmap(lambda a, b: a + b)(x34, v4)
    c["vmap_in_axes_length_mismatch"] = lambda: jx.vmap(lambda a, b: a + b, (0,))(x34, x34)
    c["vmap_out_axes_none_but_batched"] = lambda: jx.vmap(lambda x: x, out_axes=None)(x34)
    c["vmap_in_axis_out_of_range"] = lambda: jx.vmap(lambda x: x, in_axes=2)(x34)
    c["vmap_int32_dtype"] = lambda: jx.vmap(lambda a: a * 3 + 1)(
        np.arange(12, dtype=np.int32).reshape(3, 4))
    c["vmap_float32_dtype"] = lambda: jx.vmap(lambda x: jnp.exp(x) * 2)(
        x34.astype(np.float32))
    c["vmap_argmax_sort"] = lambda: jx.vmap(lambda x: (jnp.argmax(x), jnp.sort(x)))(x34)
    c["vmap_at_set_batched_index"] = lambda: jx.vmap(lambda x, i: x.at[i].set(-1.0))(
        x34, np.array([0, 3, 2]))
    c["vmap_dynamic_slice"] = lambda: jx.vmap(lambda x, i: lax.dynamic_slice(x, (i,), (2,)))(
        x34, np.array([0, 1, 2]))
    c["vmap_cumsum_axis"] = lambda: jx.vmap(lambda x: jnp.cumsum(x), in_axes=1)(x34)
    c["vmap_linalg_solve"] = lambda: jx.vmap(jnp.linalg.solve, (None, 0))(d["spd"], x34.T[:, :3])
    return c


def grad_cases(jx):
    jnp, lax, d = jx.numpy, jx.lax, _data()
    x3, pos3, x34, v4 = d["x3"], d["pos3"], d["x34"], d["v4"]

    def loss(p, x):
        return jnp.sum(jnp.tanh(x @ p["w"] + p["b"]) ** 2)
    params = {"w": d["m43"], "b": np.array([0.1, -0.2, 0.3])}
    c = {}
    c["grad_sin"] = lambda: jx.grad(lambda x: jnp.sum(jnp.sin(x) * x))(x3)
    c["grad_scalar_float"] = lambda: jx.grad(lambda x: x ** 3 + 2.0 * x)(1.5)
    c["grad_argnums_1"] = lambda: jx.grad(lambda a, b: jnp.sum(a * b ** 2), argnums=1)(x3, pos3)
    c["grad_argnums_tuple"] = lambda: jx.grad(lambda a, b: jnp.sum(a * jnp.exp(b)),
                                              argnums=(0, 1))(x3, pos3)
    c["grad_has_aux"] = lambda: jx.grad(lambda x: (jnp.sum(x ** 2), {"n": x.size, "m": x * 2}),
                                        has_aux=True)(x3)
    c["value_and_grad_has_aux"] = lambda: jx.value_and_grad(
        lambda x: (jnp.sum(jnp.cos(x)), x[0]), has_aux=True)(x3)
    c["grad_allow_int"] = lambda: jx.grad(lambda x, n: jnp.sum(x) * n, argnums=(0, 1),
                                          allow_int=True)(x3, 3)
    c["grad_int_input_error"] = lambda: jx.grad(lambda n: n * 2)(3)
    c["grad_int_array_error"] = lambda: jx.grad(lambda n: jnp.sum(n * 2.0))(np.arange(3))
    c["grad_nonscalar_output_error"] = lambda: jx.grad(lambda x: x * 2.0)(x3)
    c["grad_dict_params"] = lambda: jx.grad(loss)(params, x34)
    c["grad_list_params"] = lambda: jx.grad(
        lambda ps: jnp.sum(ps[0] * jnp.sin(ps[1])))([x3, pos3])
    c["grad_namedtuple_params"] = lambda: jx.grad(
        lambda p: jnp.sum((x34 @ p.w + p.b) ** 2))(Params(d["m43"], np.ones(3)))

    def dataclass_grad():
        _register_layer(jx)
        return jx.grad(lambda l_: jnp.sum(jnp.tanh(l_.scale * x3 + l_.shift)))(
            Layer(np.array(1.5), pos3))
    c["grad_registered_dataclass"] = dataclass_grad
    c["grad_of_grad"] = lambda: jx.grad(jx.grad(lambda x: jnp.sin(x) * x ** 2))(0.7)
    c["third_derivative"] = lambda: jx.grad(jx.grad(jx.grad(lambda x: jnp.exp(x) * x)))(0.3)
    c["jacfwd"] = lambda: jx.jacfwd(lambda x: jnp.sin(x) * x[::-1])(x3)
    c["jacrev"] = lambda: jx.jacrev(lambda x: jnp.outer(x, x).sum(0))(x3)
    c["jacrev_argnums_tuple"] = lambda: jx.jacrev(lambda a, b: a * b, argnums=(0, 1))(x3, pos3)
    c["jacrev_of_jacfwd"] = lambda: jx.jacrev(jx.jacfwd(lambda x: jnp.sum(jnp.sin(x) ** 3)))(x3)
    c["hessian"] = lambda: jx.hessian(lambda x: jnp.sum(x ** 3) * jnp.prod(x))(pos3)
    c["hessian_dict"] = lambda: jx.hessian(lambda p: jnp.sum(p["a"] ** 2 * p["b"]))(
        {"a": x3, "b": pos3})

    def linearized():
        y, f_jvp = jx.linearize(lambda x: jnp.sin(x) * jnp.exp(x), x3)
        return y, f_jvp(pos3), f_jvp(x3)
    c["linearize"] = linearized
    c["jvp"] = lambda: jx.jvp(lambda x, y: (jnp.sin(x) * y, x + y), (x3, pos3), (pos3, x3))

    def vjp_pair():
        out, pullback = jx.vjp(lambda x, y: (jnp.tanh(x * y), jnp.sum(x)), x3, pos3)
        return out, pullback((pos3, 2.0))
    c["vjp_tuple_output"] = vjp_pair
    c["grad_float32_keeps_float32"] = lambda: jx.value_and_grad(
        lambda x: jnp.sum(x ** 2 * 0.5))(x3.astype(np.float32))
    c["grad_through_int_cast"] = lambda: jx.grad(
        lambda x: jnp.sum(x * x.astype(np.int32)))(np.array([1.7, -2.3, 3.1]))
    c["grad_where"] = lambda: jx.grad(lambda x: jnp.sum(jnp.where(x > 0, jnp.log(x), x)))(x3)
    c["stop_gradient"] = lambda: jx.grad(
        lambda x: jnp.sum(x * lax.stop_gradient(x) ** 2))(x3)
    c["checkpoint_policy"] = lambda: jx.grad(jx.checkpoint(
        lambda x: jnp.sum(jnp.sin(jnp.sin(x)) * x),
        policy=jx.checkpoint_policies.nothing_saveable))(x3)
    c["checkpoint_dots_policy"] = lambda: jx.grad(lambda w: jnp.sum(jx.checkpoint(
        lambda w_: jnp.tanh(x34 @ w_), policy=jx.checkpoint_policies.dots_saveable)(w)))(
        d["m43"])
    c["remat_in_scan"] = lambda: jx.grad(lambda x: lax.scan(
        jx.remat(lambda c, y: (jnp.sin(c * y), c)), x, jnp.arange(1.0, 4.0))[0])(0.4)
    c["jit_of_grad"] = lambda: jx.jit(jx.grad(loss))(params, x34)
    c["grad_of_jit"] = lambda: jx.grad(jx.jit(lambda x: jnp.sum(jnp.cos(x) ** 2)))(x3)
    return c


def control_flow_cases(jx):
    jnp, lax, d = jx.numpy, jx.lax, _data()
    x3 = d["x3"]
    c = {}
    c["grad_cond"] = lambda: jx.grad(lambda x: lax.cond(
        x > 0, lambda v: jnp.sin(v) * 2.0, lambda v: v ** 3, x))(-0.8)
    c["grad_switch"] = lambda: jx.grad(lambda x: jnp.sum(lax.switch(
        1, [jnp.exp, lambda v: v * jnp.cos(v), jnp.tanh], x)))(x3)
    c["grad_fori_static"] = lambda: jx.grad(lambda x: lax.fori_loop(
        0, 5, lambda i, c: jnp.sin(c) * x + i, x))(0.6)
    c["grad_scan"] = lambda: jx.grad(lambda x: jnp.sum(lax.scan(
        lambda c, y: (c * y + 1.0, c ** 2), 0.5, x)[1]))(x3)
    c["jvp_while"] = lambda: jx.jvp(lambda x: lax.while_loop(
        lambda c: c < 10.0, lambda c: c * 1.7, x), (1.1,), (1.0,))
    c["grad_while_error"] = lambda: jx.grad(lambda x: lax.while_loop(
        lambda c: c < 10.0, lambda c: c * 1.7, x))(1.1)
    c["grad_fori_traced_bound_error"] = lambda: jx.grad(lambda x, n: lax.fori_loop(
        0, n, lambda i, c: c * x, 1.0))(1.3, jnp.asarray(3))
    c["jacfwd_while"] = lambda: jx.jacfwd(lambda x: lax.while_loop(
        lambda c: c[0] < 5.0, lambda c: c * 1.5, x))(np.array([1.0, 2.0]))
    c["vmap_grad_cond"] = lambda: jx.vmap(jx.grad(lambda x: lax.cond(
        x > 0, jnp.sin, jnp.cos, x)))(x3)
    return c


def rule_cases(jx):
    jnp, lax, d = jx.numpy, jx.lax, _data()
    x3, pos3, x34 = d["x3"], d["pos3"], d["x34"]
    sp = jx.scipy.special
    c = {}
    c["max_ties"] = lambda: jx.grad(jnp.max)(np.array([1.0, 3.0, 3.0, 2.0]))
    c["min_ties_axis"] = lambda: jx.grad(lambda x: jnp.sum(jnp.min(x, axis=1)))(
        np.array([[1.0, 1.0, 2.0], [0.0, 5.0, 0.0]]))
    c["maximum_tie"] = lambda: jx.grad(lambda x: jnp.sum(jnp.maximum(x, 1.0)))(
        np.array([1.0, 0.5, 2.0]))
    c["minimum_tie_both"] = lambda: jx.grad(lambda x, y: jnp.sum(jnp.minimum(x, y)),
                                            argnums=(0, 1))(x3, np.array([0.3, 0.0, 2.5]))
    c["sort"] = lambda: jx.grad(lambda x: jnp.sum(jnp.sort(x) * jnp.arange(3.0)))(x3)
    c["argsort_take"] = lambda: jx.grad(lambda x: jnp.sum(
        x[jnp.argsort(x)] * jnp.arange(1.0, 4.0)))(x3)
    c["gather_duplicates"] = lambda: jx.grad(lambda x: jnp.sum(
        x[np.array([2, 0, 2, 1])] ** 2))(x3)
    c["take_along_axis"] = lambda: jx.grad(lambda x: jnp.sum(jnp.take_along_axis(
        x, np.array([[0, 2], [1, 1], [3, 0]]), axis=1) ** 2))(x34)
    c["at_set"] = lambda: jx.grad(lambda x: jnp.sum(x.at[1].set(x[0] * 5.0) ** 2))(x3)
    c["at_add_duplicates"] = lambda: jx.grad(lambda x: jnp.sum(
        jnp.zeros(4).at[np.array([0, 2, 0])].add(x) ** 2))(x3)
    c["at_mul"] = lambda: jx.grad(lambda x: jnp.sum(x.at[2].mul(x[1]) ** 2))(x3)
    c["at_min_max"] = lambda: jx.grad(lambda x: jnp.sum(
        x.at[0].max(0.5) + x.at[2].min(x[1])))(x3)
    c["dynamic_slice"] = lambda: jx.grad(lambda x: jnp.sum(
        lax.dynamic_slice(x, (1, 1), (2, 2)) ** 2))(x34)
    c["dynamic_update_slice"] = lambda: jx.grad(lambda x: jnp.sum(lax.dynamic_update_slice(
        x, x[:1, :2] * 3.0, (2, 1)) ** 2))(x34)
    c["cumsum_cumprod"] = lambda: jx.grad(lambda x: jnp.sum(jnp.cumsum(x) ** 2) + jnp.sum(
        jnp.cumprod(x)))(x3)
    c["cummax"] = lambda: jx.grad(lambda x: jnp.sum(lax.cummax(x, axis=0) * jnp.arange(
        1.0, 5.0)))(np.array([1.0, 3.0, 2.0, 4.0]))
    c["logsumexp"] = lambda: jx.grad(lambda x: sp.logsumexp(x * 2.0))(x3)
    c["special_fns"] = lambda: jx.grad(lambda x: jnp.sum(
        sp.erf(x) + sp.gammaln(x) + sp.digamma(x) + sp.xlogy(x, x + 1.0)))(pos3)
    c["nn_fns"] = lambda: jx.grad(lambda x: jnp.sum(
        jx.nn.softplus(x) * jx.nn.sigmoid(x) + jx.nn.relu(x)))(x3)
    c["erf_inv_logistic"] = lambda: jx.grad(lambda x: jnp.sum(
        lax.erf_inv(x * 0.3) + lax.logistic(x)))(x3)
    c["linalg_solve"] = lambda: jx.grad(lambda a, b: jnp.sum(jnp.linalg.solve(a, b) ** 2),
                                        argnums=(0, 1))(d["sq"], x3)
    c["linalg_inv_det"] = lambda: jx.grad(lambda a: jnp.sum(jnp.linalg.inv(a)) +
                                          jnp.linalg.det(a))(d["sq"])
    c["linalg_slogdet"] = lambda: jx.grad(lambda a: jnp.linalg.slogdet(a)[1])(d["sq"])
    c["linalg_cholesky"] = lambda: jx.grad(lambda a: jnp.sum(
        jnp.linalg.cholesky(a) * jnp.arange(9.0).reshape(3, 3)))(d["spd"])
    c["linalg_qr"] = lambda: jx.grad(lambda a: jnp.sum(jnp.linalg.qr(a)[1] ** 2) + jnp.sum(
        jnp.linalg.qr(a)[0][:, 0]))(d["tall"])
    c["linalg_eigh"] = lambda: jx.grad(lambda a: jnp.sum(
        jnp.linalg.eigh(a)[0] * jnp.arange(1.0, 4.0)))(d["spd"])
    c["linalg_svdvals"] = lambda: jx.grad(lambda a: jnp.sum(
        jnp.linalg.svd(a, compute_uv=False) ** 3))(d["tall"])
    c["norm"] = lambda: jx.grad(lambda x: jnp.linalg.norm(x))(x34)
    return c


def custom_cases(jx):
    jnp, d = jx.numpy, _data()
    f, g, h, clip_grad, power = _custom_rules(jx)
    xs, y = np.linspace(0.1, 1.0, 4), 1.5
    c = {}
    c["custom_jvp_grad"] = lambda: jx.grad(f, argnums=(0, 1))(0.4, y)
    c["custom_vjp_grad"] = lambda: jx.grad(g, argnums=(0, 1))(0.4, y)
    c["custom_jvp_defjvps"] = lambda: jx.grad(lambda x: jnp.sum(h(x)))(d["x3"])
    c["custom_vjp_clip_gradient"] = lambda: jx.grad(
        lambda x: jnp.sum(clip_grad(x, 0.5) * 3.0))(d["x3"])
    c["custom_jvp_nondiff_argnums"] = lambda: jx.grad(lambda x: power(3, x))(1.2)
    c["custom_vjp_jvp_error"] = lambda: jx.jvp(lambda x: g(x, y), (0.4,), (1.0,))
    c["custom_jvp_vmap"] = lambda: jx.vmap(f, (0, None))(xs, y)
    for name, fn in (("custom_jvp", f), ("custom_vjp", g)):
        c[f"{name}_vmap_of_grad"] = lambda fn=fn: jx.vmap(jx.grad(fn), (0, None))(xs, y)
        c[f"{name}_grad_of_vmap"] = lambda fn=fn: jx.grad(
            lambda x_, y_: jnp.sum(jx.vmap(fn, (0, None))(x_, y_)), argnums=(0, 1))(xs, y)
        c[f"{name}_jit_grad_of_vmap"] = lambda fn=fn: jx.jit(jx.grad(
            lambda x_: jnp.sum(jx.vmap(fn, (None, 0))(y, x_) ** 2)))(xs)
        c[f"{name}_vmap_grad_vmap"] = lambda fn=fn: jx.vmap(jx.grad(
            lambda x_: jnp.sum(jx.vmap(fn, (0, None))(x_, y))))(np.stack([xs, 2.0 * xs]))
    c["custom_jvp_jacfwd_of_vmap"] = lambda: jx.jacfwd(
        lambda x_: jx.vmap(f, (0, None))(x_, y))(xs)
    c["custom_jvp_hessian_of_vmap"] = lambda: jx.hessian(
        lambda x_: jnp.sum(jx.vmap(f, (0, None))(x_, y)))(xs)
    c["custom_jvp_nondiff_in_vmap_grad"] = lambda: jx.grad(
        lambda x_: jnp.sum(jx.vmap(lambda v: power(2, v))(x_)))(xs)
    c["custom_vjp_clip_in_vmap_grad"] = lambda: jx.grad(
        lambda x_: jnp.sum(jx.vmap(lambda v: clip_grad(v, 0.5) * 3.0)(x_)))(xs)
    c["checkpoint_in_vmap_grad"] = lambda: jx.grad(lambda x_: jnp.sum(jx.vmap(
        jx.checkpoint(lambda v: jnp.sin(v) ** 2))(x_)))(xs)
    return c


def composition_cases(jx):
    jnp, d = jx.numpy, _data()
    x34, v4 = d["x34"], d["v4"]

    def loss(w, x, t):
        return (jnp.tanh(x @ w) - t) ** 2
    c = {}
    c["per_example_grads"] = lambda: jx.vmap(jx.grad(loss), (None, 0, 0))(
        v4, x34, np.array([0.1, -0.3, 0.7]))
    c["jit_per_example_grads"] = lambda: jx.jit(jx.vmap(jx.grad(loss), (None, 0, 0)))(
        v4, x34, np.array([0.1, -0.3, 0.7]))
    c["grad_of_vmap_mean"] = lambda: jx.grad(lambda w: jnp.mean(
        jx.vmap(loss, (None, 0, 0))(w, x34, np.array([0.1, -0.3, 0.7]))))(v4)
    c["vmap_of_hessian"] = lambda: jx.vmap(jx.hessian(lambda x: jnp.sum(jnp.sin(x) ** 2)))(x34)
    c["vmap_of_jacrev"] = lambda: jx.vmap(jx.jacrev(lambda x: jnp.cumsum(x ** 2)))(x34)
    c["jacfwd_of_vmap"] = lambda: jx.jacfwd(lambda v: jx.vmap(jnp.dot, (0, None))(x34, v))(v4)
    c["vmap_of_jvp"] = lambda: jx.vmap(lambda x, t: jx.jvp(jnp.sin, (x,), (t,)))(x34, x34 * 2)
    c["vmap_of_value_and_grad"] = lambda: jx.vmap(jx.value_and_grad(
        lambda x: jnp.sum(jnp.exp(-x ** 2))), in_axes=1)(x34)
    return c


def more_cases(jx):
    """Further corners: more axis specs, random under vmap, pytrees through every API."""
    jnp, lax, d = jx.numpy, jx.lax, _data()
    x3, pos3, x34, x345, v4 = d["x3"], d["pos3"], d["x34"], d["x345"], d["v4"]
    key = jx.random.PRNGKey(11)
    f, g, h, clip_grad, power = _custom_rules(jx)
    c = {}
    c["vmap_constant_output"] = lambda: jx.vmap(lambda x: (jnp.float32(2.0), x.sum()))(x34)
    c["vmap_no_args_axis_size"] = lambda: jx.vmap(lambda: jnp.arange(3.0), axis_size=2)()
    c["vmap_in_axes_1_out_axes_1"] = lambda: jx.vmap(lambda x: jnp.cumsum(x) * 2.0,
                                                     in_axes=1, out_axes=1)(x34)
    c["vmap_nested_out_axes"] = lambda: jx.vmap(jx.vmap(lambda a: a * 2.0, out_axes=1),
                                                in_axes=2, out_axes=0)(x345)
    c["vmap_bool_int8"] = lambda: jx.vmap(lambda b, i: jnp.where(b, i, i * 2))(
        x34 > 0, (x34 * 10).astype(np.int8))
    c["vmap_random_split_inside"] = lambda: jx.vmap(lambda k: jx.random.normal(
        jx.random.split(k)[1], (2,), jnp.float32))(jx.random.split(key, 3))
    typed = jx.random.split(jx.random.key(0), 3)         # new-style typed key arrays
    c["vmap_typed_keys_normal"] = lambda: jx.vmap(
        lambda k: jx.random.normal(k, (2,), jnp.float32))(typed)
    c["vmap_typed_keys_fold_in"] = lambda: jx.vmap(lambda k: jx.random.uniform(
        jx.random.fold_in(k, 1), (), jnp.float32))(typed)
    c["grad_of_vmap_over_typed_keys"] = lambda: jx.grad(lambda v: jnp.sum(jx.vmap(
        lambda k, w: w * jx.random.normal(k, (), jnp.float64))(typed, v)))(np.ones(3))
    c["vmap_random_fold_in"] = lambda: jx.vmap(lambda i: jx.random.uniform(
        jx.random.fold_in(key, i), (), jnp.float32))(np.arange(4))
    c["vmap_random_randint"] = lambda: jx.vmap(lambda k: jx.random.randint(
        k, (3,), 0, 10, jnp.int32))(jx.random.split(key, 2))
    c["vmap_random_bernoulli"] = lambda: jx.vmap(lambda k, p: jx.random.bernoulli(
        k, p, (4,)))(jx.random.split(key, 3), np.array([0.1, 0.5, 0.9]))
    c["vmap_while_unbatched_predicate"] = lambda: jx.vmap(lambda x: lax.while_loop(
        lambda s: s[0] < 3, lambda s: (s[0] + 1, s[1] * 2.0 + 1.0), (0, x))[1])(v4)
    c["vmap_scan_unbatched_xs"] = lambda: jx.vmap(lambda c0: lax.scan(
        lambda c_, x_: (c_ * x_, c_ + x_), c0, x3), out_axes=(0, 1))(v4)
    c["vmap_lax_map"] = lambda: jx.vmap(lambda r: lax.map(lambda e: e ** 2 + 1.0, r))(x34)
    c["vmap_cond_operands_tuple"] = lambda: jx.vmap(lambda p, a, b: lax.cond(
        p, lambda u, v: u - v, lambda u, v: u * v, a, b))(
        np.array([True, False, True]), x3, pos3)
    c["vmap_of_jit_static"] = lambda: jx.vmap(
        jx.jit(lambda x, n: x ** n, static_argnums=1), (0, None))(x3, 3)
    c["grad_argnums_tuple_has_aux"] = lambda: jx.grad(
        lambda a, b: (jnp.sum(a * b), a + b), argnums=(0, 1), has_aux=True)(x3, pos3)
    c["grad_mixed_float32_python_scalar"] = lambda: jx.grad(
        lambda x: jnp.sum(x * 2.5 + 1))(x3.astype(np.float32))
    c["grad_scalar_python_int_static"] = lambda: jx.grad(
        lambda x, n: jnp.sum(x ** n), argnums=0)(x3, 3)
    c["grad_allow_int_int_array"] = lambda: jx.grad(
        lambda x, i: jnp.sum(x[i]), argnums=(0, 1), allow_int=True)(x3, np.array([0, 2]))
    c["jacfwd_has_aux"] = lambda: jx.jacfwd(lambda x: (jnp.sin(x), jnp.sum(x)),
                                            has_aux=True)(x3)
    c["jacrev_dict_output"] = lambda: jx.jacrev(lambda x: {"a": x ** 2, "b": jnp.sum(x)})(x3)
    c["jacobian_alias_scalar"] = lambda: jx.jacobian(lambda x: jnp.sum(jnp.exp(x)))(x3)
    c["hessian_argnums_tuple"] = lambda: jx.hessian(lambda a, b: jnp.sum(a ** 2 * b ** 3),
                                                    argnums=(0, 1))(x3, pos3)
    c["jvp_dict_primals"] = lambda: jx.jvp(lambda p: p["a"] * jnp.cos(p["b"]),
                                           ({"a": x3, "b": pos3},), ({"a": pos3, "b": x3},))

    def vjp_has_aux():
        out, pullback, aux = jx.vjp(lambda x: (jnp.sin(x), x.sum()), x3, has_aux=True)
        return out, pullback(pos3), aux
    c["vjp_has_aux"] = vjp_has_aux
    c["linearize_pytree"] = lambda: jx.linearize(
        lambda p: jnp.sum(p[0] * p[1]), (x3, pos3))[1]((pos3, x3))
    c["grad_eigh_vectors"] = lambda: jx.grad(lambda a: jnp.sum(
        jnp.abs(jnp.linalg.eigh(a)[1][:, -1])))(d["spd"])
    c["grad_svd_full"] = lambda: jx.grad(lambda a: jnp.sum(jnp.linalg.svd(
        a, full_matrices=False)[1]) + jnp.sum(jnp.abs(jnp.linalg.svd(
            a, full_matrices=False)[0][:, 0])))(d["tall"])
    c["grad_sort_2d_axis0"] = lambda: jx.grad(lambda x: jnp.sum(
        jnp.sort(x, axis=0) * jnp.arange(12.0).reshape(3, 4)))(x34)
    c["grad_median"] = lambda: jx.grad(lambda x: jnp.median(x))(v4)
    c["grad_scan_reverse"] = lambda: jx.grad(lambda x: jnp.sum(lax.scan(
        lambda c_, y: (c_ * jnp.sin(y), c_), 1.0, x, reverse=True)[1]))(x3)
    c["grad_scan_length_no_xs"] = lambda: jx.grad(lambda x: lax.scan(
        lambda c_, _: (c_ * x + 1.0, None), 0.5, None, length=4)[0])(0.9)
    c["grad_cond_pytree"] = lambda: jx.grad(lambda p: lax.cond(
        p["a"][0] > 0, lambda q: jnp.sum(q["a"] * q["b"]), lambda q: jnp.sum(q["b"]), p))(
        {"a": x3, "b": pos3})
    c["grad_sqrt_at_zero"] = lambda: jx.grad(lambda x: jnp.sum(jnp.sqrt(x)))(
        np.array([0.0, 4.0]))
    c["grad_norm_at_zero"] = lambda: jx.grad(jnp.linalg.norm)(np.zeros(3))
    c["grad_where_nan_safe"] = lambda: jx.grad(lambda x: jnp.sum(jnp.where(
        x > 0, jnp.log(jnp.where(x > 0, x, 1.0)), 0.0)))(x3)
    c["grad_x_pow_int_0_at_0"] = lambda: jx.grad(lambda x: x ** 0 + x ** 2)(0.0)
    c["grad_x_pow_traced_float_0_at_0"] = lambda: jx.grad(lambda x, y: x ** y + y,
                                                          argnums=(0, 1))(0.0, 0.0)
    c["grad_polynomial_at_0"] = lambda: jx.grad(lambda x: sum(
        c_ * x ** i for i, c_ in enumerate([1.0, -2.0, 3.0])))(0.0)
    c["grad_reduce_max_lax"] = lambda: jx.grad(lambda x: jnp.sum(lax.reduce_max(x, (1,))))(
        np.array([[1.0, 4.0, 4.0], [2.0, 2.0, 2.0]]))
    c["grad_argmax_index"] = lambda: jx.grad(lambda x: x[jnp.argmax(x)] * 2.0)(x3)
    c["grad_maximum_nan"] = lambda: jx.grad(lambda x: jnp.sum(jnp.maximum(x, np.nan)))(x3)
    c["jvp_stop_gradient"] = lambda: jx.jvp(lambda x: x * lax.stop_gradient(x), (x3,), (pos3,))
    c["checkpoint_static_argnums"] = lambda: jx.grad(lambda x: jx.checkpoint(
        lambda y, n: jnp.sum(y ** n), static_argnums=(1,))(x, 3))(x3)
    c["checkpoint_decorator_vmap"] = lambda: jx.vmap(jx.grad(jx.checkpoint(
        lambda x: jnp.sin(x) * jnp.cos(x))))(x3)
    c["custom_jvp_pytree_in_vmap"] = lambda: jx.grad(lambda p: jnp.sum(jx.vmap(
        lambda a: f(a, p["y"]))(p["x"])))({"x": x3, "y": 2.0})
    c["custom_vjp_in_scan_grad"] = lambda: jx.grad(lambda x: lax.scan(
        lambda c_, y: (g(c_, y), None), x, pos3)[0])(0.3)
    c["custom_jvp_jacrev_vmap"] = lambda: jx.jacrev(
        lambda x_: jx.vmap(h)(x_))(x3)
    c["custom_vjp_vmap_of_jacrev"] = lambda: jx.vmap(jx.jacrev(
        lambda x_: g(x_, 2.0)))(x3)
    c["custom_jvp_jit_vmap_hessian"] = lambda: jx.jit(jx.vmap(jx.hessian(
        lambda x_: power(3, x_))))(x3)
    return c


def corner_cases(jx):
    """Rules and batching corners: loops with batched bounds, top_k, conv, FFT, softmax,
    special functions, float0 tangents, several levels of composition."""
    jnp, lax, d = jx.numpy, jx.lax, _data()
    x3, pos3, x34, v4 = d["x3"], d["pos3"], d["x34"], d["v4"]
    sp, nn = jx.scipy.special, jx.nn
    key = jx.random.PRNGKey(5)
    img = np.linspace(-1.0, 1.0, 2 * 1 * 5 * 5).reshape(2, 1, 5, 5)
    ker = np.linspace(0.5, -0.5, 2 * 1 * 3 * 3).reshape(2, 1, 3, 3)
    c = {}
    c["vmap_fori_batched_bound"] = lambda: jx.vmap(lambda n: lax.fori_loop(
        0, n, lambda i, a: a * 1.5 + i, 1.0))(np.array([0, 2, 5]))
    c["vmap_cond_unbatched_predicate"] = lambda: jx.vmap(lambda x: lax.cond(
        True, jnp.sin, jnp.cos, x))(x3)
    c["vmap_switch_unbatched_index"] = lambda: jx.vmap(lambda x: lax.switch(
        2, [jnp.sin, jnp.cos, jnp.tanh], x))(x3)
    c["vmap_scan_carry_becomes_batched"] = lambda: jx.vmap(lambda xs: lax.scan(
        lambda c_, x_: (c_ + x_, c_), 0.0, xs)[0], in_axes=1)(x34)
    c["vmap_dynamic_update_slice_batched_update"] = lambda: jx.vmap(
        lambda u: lax.dynamic_update_slice(jnp.zeros(5), u, (1,)))(x34[:, :2])
    c["vmap_take_batched_indices"] = lambda: jx.vmap(lambda i: jnp.take(v4, i))(
        np.array([[0, 3], [2, 2], [1, 0]]))
    c["vmap_var_keepdims"] = lambda: jx.vmap(lambda x: jnp.var(x, ddof=1, keepdims=True))(x34)
    # JAX's searchsorted answers int32 even with x64 on (NumPy: int64): cast, to check vmap
    c["vmap_searchsorted"] = lambda: jx.vmap(lambda a, v: jnp.searchsorted(a, v).astype(
        jnp.int32))(
        np.sort(x34, axis=1), x3)
    c["vmap_top_k"] = lambda: jx.vmap(lambda x: lax.top_k(x, 2))(x34)
    c["vmap_one_hot"] = lambda: jx.vmap(lambda i: nn.one_hot(i, 4))(np.array([0, 3, 1]))
    c["vmap_conv"] = lambda: jx.vmap(lambda im: lax.conv_general_dilated(
        im[None], ker, (1, 1), "SAME")[0])(img)
    c["vmap_categorical"] = lambda: jx.vmap(lambda k: jx.random.categorical(
        k, jnp.log(jnp.array([0.2, 0.3, 0.5]))))(jx.random.split(key, 4))
    c["grad_top_k"] = lambda: jx.grad(lambda x: jnp.sum(lax.top_k(x, 2)[0] * jnp.array(
        [2.0, 1.0])))(v4)
    c["grad_conv"] = lambda: jx.grad(lambda k: jnp.sum(lax.conv_general_dilated(
        img, k, (1, 1), "VALID") ** 2))(ker)
    c["grad_fft_abs"] = lambda: jx.grad(lambda x: jnp.sum(jnp.abs(jnp.fft.fft(x)) ** 2))(v4)
    c["grad_softmax"] = lambda: jx.grad(lambda x: jnp.sum(nn.softmax(x) * jnp.arange(3.0)))(x3)
    c["grad_log_softmax_gelu_silu"] = lambda: jx.grad(lambda x: jnp.sum(
        nn.log_softmax(x)[0] + nn.gelu(x) + nn.silu(x)))(x3)
    c["grad_special_more"] = lambda: jx.grad(lambda x: jnp.sum(
        sp.expit(x) + sp.ndtr(x) + sp.log_ndtr(x) + sp.i0e(x) + sp.i1e(x) + sp.erfc(x)))(x3)
    c["grad_logit_ndtri"] = lambda: jx.grad(lambda p: jnp.sum(sp.logit(p) + sp.ndtri(p)))(
        np.array([0.2, 0.5, 0.9]))
    c["grad_clip_bounds"] = lambda: jx.grad(lambda x: jnp.sum(jnp.clip(x, -1.2, 2.5)))(x3)
    c["grad_round_floor"] = lambda: jx.grad(lambda x: jnp.sum(jnp.round(x) + jnp.floor(x) * x))(
        x3)
    c["grad_prod_two_zeros"] = lambda: jx.grad(jnp.prod)(np.array([0.0, 2.0, 0.0]))
    c["grad_max_where_initial"] = lambda: jx.grad(lambda x: jnp.max(
        x, where=x < 2.0, initial=-5.0))(x3)
    c["grad_logaddexp_neg_inf"] = lambda: jx.grad(lambda x: jnp.logaddexp(x, -np.inf))(0.5)
    c["grad_norm_axis"] = lambda: jx.grad(lambda x: jnp.sum(jnp.linalg.norm(x, axis=1)))(x34)
    c["grad_sort_multi_operand"] = lambda: jx.grad(lambda x: jnp.sum(lax.sort(
        (x, x * 2.0), num_keys=1)[1] * jnp.arange(3.0)))(x3)
    c["grad_matrix_power_lstsq"] = lambda: jx.grad(lambda a: jnp.sum(
        jnp.linalg.matrix_power(a, 3)) + jnp.sum(jnp.linalg.pinv(a)))(d["sq"])
    c["grad_cummin_cumprod_reverse"] = lambda: jx.grad(lambda x: jnp.sum(
        lax.cummin(x, reverse=True) * jnp.arange(4.0)) + jnp.sum(lax.cumprod(x, reverse=True)))(
        np.array([3.0, 1.0, 2.0, 0.5]))
    c["grad_associative_scan"] = lambda: jx.grad(lambda x: jnp.sum(lax.associative_scan(
        jnp.multiply, x)))(pos3)
    c["grad_interp_diff"] = lambda: jx.grad(lambda y: jnp.sum(jnp.interp(
        np.array([0.5, 1.5]), np.arange(3.0), y)) + jnp.sum(jnp.diff(y) ** 2))(x3)
    c["grad_convolve"] = lambda: jx.grad(lambda x: jnp.sum(jnp.convolve(x, pos3) ** 2))(x3)
    c["grad_dot_preferred_f32"] = lambda: jx.grad(lambda a: jnp.sum(lax.dot(
        a, a, preferred_element_type=jnp.float32)))(x3.astype(np.float32))

    def jvp_float0():
        zero = np.zeros((), dtype=jx.float0)
        return jx.jvp(lambda x, n: x * n, (x3, 3), (pos3, zero))
    c["jvp_float0_tangent"] = jvp_float0

    def vjp_int_output():
        out, pullback = jx.vjp(lambda x: (jnp.sum(x), jnp.argmax(x)), x3)
        return pullback((2.0, np.zeros((), dtype=jx.float0)))
    c["vjp_int_output_float0"] = vjp_int_output
    c["grad_float32_out_of_float64"] = lambda: jx.grad(
        lambda x: jnp.sum(x.astype(np.float32) ** 2))(x3)
    c["jit_linearize"] = lambda: jx.jit(lambda x, t: jx.linearize(jnp.sin, x)[1](t))(x3, pos3)
    c["jit_vmap_grad_jit"] = lambda: jx.jit(jx.vmap(jx.grad(jx.jit(
        lambda x: jnp.sin(x) * x))))(x3)
    c["vmap_kwargs_positional_in_axes"] = lambda: jx.vmap(
        lambda x, y=None: x * y, in_axes=(1,))(x34, y=x34.T.copy())
    c["vmap_nested_grad_inside"] = lambda: jx.vmap(jx.vmap(jx.grad(
        lambda a, b: jnp.sin(a * b)), (0, None)), (None, 0))(x3, pos3)
    c["vmap_value_and_grad_has_aux"] = lambda: jx.vmap(jx.value_and_grad(
        lambda x: (jnp.sum(x ** 2), jnp.max(x)), has_aux=True))(x34)
    c["grad_of_vmap_in_axes_1"] = lambda: jx.grad(lambda w: jnp.sum(jx.vmap(
        lambda col: jnp.dot(col, w), in_axes=1)(x34.T)))(v4)
    return c


def error_cases(jx):
    """Misuses JAX rejects, each with the builtin exception class JAX's error derives from."""
    jnp, lax, d = jx.numpy, jx.lax, _data()
    x3, x34 = d["x3"], d["x34"]
    f, g, h, clip_grad, power = _custom_rules(jx)
    c = {}
    c["err_grad_argnums_out_of_range"] = lambda: jx.grad(lambda a, b: a * b, argnums=2)(1.0, 2.0)
    c["err_grad_tuple_output"] = lambda: jx.grad(lambda x: (x, x))(1.0)
    c["err_grad_bool_output"] = lambda: jx.grad(lambda x: x > 0)(1.0)
    c["err_grad_has_aux_not_pair"] = lambda: jx.grad(lambda x: x * 2.0, has_aux=True)(1.0)
    c["err_vjp_wrong_cotangent_shape"] = lambda: jx.vjp(jnp.sin, x3)[1](np.ones(2))
    c["err_jvp_structure_mismatch"] = lambda: jx.jvp(lambda a, b: a * b, (1.0, 2.0), (1.0,))
    c["err_jvp_dtype_mismatch"] = lambda: jx.jvp(jnp.sin, (x3,), (x3.astype(np.float32),))
    c["err_jvp_shape_mismatch"] = lambda: jx.jvp(jnp.sin, (x3,), (x34,))
    c["err_jvp_not_tuple"] = lambda: jx.jvp(jnp.sin, x3, x3)
    c["err_vmap_scalar_argument"] = lambda: jx.vmap(lambda x: x * 2.0)(1.0)
    c["err_vmap_in_axes_float"] = lambda: jx.vmap(lambda x: x, in_axes=1.5)(x34)
    c["err_vmap_not_callable"] = lambda: jx.vmap(3)(x34)
    c["err_vmap_out_axes_too_large"] = lambda: jx.vmap(lambda x: x, out_axes=3)(x34)
    c["err_vmap_no_mapped_args_no_size"] = lambda: jx.vmap(lambda x: x * 2.0, in_axes=None)(x3)
    c["err_jacfwd_int_input"] = lambda: jx.jacfwd(lambda x: x * 2)(np.arange(3))
    c["err_jacrev_int_input"] = lambda: jx.jacrev(lambda x: x * 2)(np.arange(3))
    c["err_custom_vjp_bwd_wrong_length"] = lambda: jx.grad(_bad_bwd(jx))(1.0)
    # (traced: an eager transpile cond runs only the branch taken, unchecked; JAX checks)
    c["err_cond_branch_types_differ"] = lambda: jx.jit(lambda x: lax.cond(
        True, lambda v: v, lambda v: v[:2], x))(x3)
    c["err_vmap_cond_branch_types_differ"] = lambda: jx.vmap(lambda p: lax.cond(
        p, lambda: jnp.ones(2), lambda: jnp.ones(3)))(np.array([True, False]))
    c["err_while_loop_carry_type_changes"] = lambda: lax.while_loop(
        lambda v: v[0] < 3.0, lambda v: v[:2], x3)
    c["err_grad_of_custom_vjp_fwd_not_pair"] = lambda: jx.grad(_bad_fwd(jx))(1.0)
    c["err_grad_integer_argnums_allow_int_false"] = lambda: jx.grad(
        lambda x, n: x * n, argnums=(0, 1))(1.0, 2)
    return c


def _bad_bwd(jx):
    @jx.custom_vjp
    def f(x):
        return x * 2.0
    f.defvjp(lambda x: (x * 2.0, x), lambda res, ct: (ct, ct))
    return f


def _bad_fwd(jx):
    @jx.custom_vjp
    def f(x):
        return x * 2.0
    f.defvjp(lambda x: x * 2.0, lambda res, ct: (ct,))
    return f


def tree_shape(x):
    """The container structure of a result, leaves as '*' (the same walk on both sides)."""
    if isinstance(x, dict):
        return {str(k): tree_shape(v) for k, v in sorted(x.items())}
    if isinstance(x, (tuple, list)):
        return [tree_shape(v) for v in x]
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return {type(x).__name__: [tree_shape(getattr(x, f.name)) for f in
                                   dataclasses.fields(x)]}
    return None if x is None else "*"


def cases(jx) -> dict:
    out = {}
    for group in (vmap_cases, grad_cases, control_flow_cases, rule_cases, custom_cases,
                  composition_cases, more_cases, corner_cases, error_cases):
        out.update(group(jx))
    return out
