"""A second, adversarial table of transformation programs (after tests/transform_cases.py),
run by JAX 0.10.2 (tools/record_jax_transforms2.py records tests/data/jax_transforms2.json)
and by transpile (tests/test_transform_matrix2.py), each in JAX's two dtype modes: 64-bit
(x64) and JAX's default 32-bit one (x32), which transpile runs under its JAX dtype rules.

The corners: vmap axis specs of every spelling (negative, None, dict/tuple/list prefixes,
axis_size alone), vmap of control flow, random keys, scatters, sorts and linear algebra;
the grad family over pytrees and argnums, custom rules with nondiff arguments and residual
pytrees, checkpoint policies, derivatives at kinks and singular points (JAX's inf/nan),
compositions, and the errors JAX raises (compared by the builtin class they derive from).

Each case is a function of no arguments written once against a JAX-like module `jx`.
"""
from __future__ import annotations

import dataclasses
from functools import partial
from typing import NamedTuple

import numpy as np


class Pair(NamedTuple):
    a: object
    b: object


@dataclasses.dataclass
class Affine:
    w: object
    b: object


class Scaled:
    """A class registered by hand with register_pytree_node (children, aux data)."""

    def __init__(self, value, factor):
        self.value, self.factor = value, factor


_REGISTERED = set()


def _register(jx):
    """Affine and Scaled as pytree nodes of `jx`, once per module."""
    if id(jx) in _REGISTERED:
        return
    jx.tree_util.register_dataclass(Affine, data_fields=["w", "b"], meta_fields=[])
    jx.tree_util.register_pytree_node(
        Scaled, lambda s: ((s.value,), s.factor), lambda factor, ch: Scaled(ch[0], factor))
    _REGISTERED.add(id(jx))


def _data():
    r = np.random.default_rng(2018)
    spd = r.standard_normal((3, 3))
    spds = r.standard_normal((4, 3, 3))
    spds = np.einsum("bij,bkj->bik", spds, spds)
    return {
        "x3": np.array([0.3, -1.2, 2.5]),
        "pos3": np.array([0.4, 1.3, 2.2]),
        "x23": r.standard_normal((2, 3)),
        "x34": r.standard_normal((3, 4)),
        "x234": r.standard_normal((2, 3, 4)),
        "v4": r.standard_normal(4),
        "m43": r.standard_normal((4, 3)),
        "spd": spd @ spd.T + 3.0 * np.eye(3),
        "spds": spds + 3.0 * np.eye(3),
        "sqs": r.standard_normal((4, 3, 3)) + 3.0 * np.eye(3),
        "tall": r.standard_normal((4, 3)),
        "talls": r.standard_normal((2, 4, 3)),
    }


def vmap_axes_cases(jx):
    jnp, d = jx.numpy, _data()
    x3, x34, x234, v4, m43 = d["x3"], d["x34"], d["x234"], d["v4"], d["m43"]
    c = {}
    c["vmap_in_axes_minus2"] = lambda: jx.vmap(lambda m: m.sum(0) * 2.0, in_axes=-2)(x234)
    c["vmap_in_axes_minus1_out_minus1"] = lambda: jx.vmap(
        lambda m: jnp.cumsum(m, axis=0), in_axes=-1, out_axes=-1)(x234)
    c["vmap_in_axes_minus3_out_1"] = lambda: jx.vmap(
        lambda m: m.T, in_axes=-3, out_axes=1)(x234)
    c["vmap_top_level_list_in_axes"] = lambda: jx.vmap(
        lambda a, b: a * b, in_axes=[1, None])(x34, x3)
    c["vmap_tuple_prefix_in_tuple_arg"] = lambda: jx.vmap(
        lambda ab: ab[0] @ ab[1], in_axes=((0, None),))((x234, v4))
    c["vmap_nested_dict_prefix"] = lambda: jx.vmap(
        lambda p: p["layer"]["w"] * p["scale"] + p["layer"]["b"],
        in_axes=({"layer": {"w": 1, "b": None}, "scale": 0},))(
        {"layer": {"w": x34, "b": v4[:3]}, "scale": v4})
    c["vmap_dict_prefix_whole_subtree"] = lambda: jx.vmap(
        lambda p: p["a"][0] + p["a"][1] * p["b"],
        in_axes=({"a": 0, "b": None},))({"a": [x34, x34 * 2.0], "b": 3.0})
    c["vmap_list_prefix_mixed"] = lambda: jx.vmap(
        lambda xs: xs[0] * xs[1] - xs[2], in_axes=([0, None, 1],))([x3, 2.0, x34.T])
    c["vmap_namedtuple_axes_per_field"] = lambda: jx.vmap(
        lambda p: p.a @ p.b, in_axes=(Pair(0, 1),))(Pair(x234[0], m43))
    c["vmap_axis_size_all_none"] = lambda: jx.vmap(
        lambda a, b: a * b + 1.0, in_axes=(None, None), axis_size=3)(x3, 2.0)
    c["vmap_axis_size_all_none_out_1"] = lambda: jx.vmap(
        lambda a: jnp.sin(a), in_axes=None, out_axes=1, axis_size=2)(x34)
    c["vmap_axis_size_agrees"] = lambda: jx.vmap(lambda a: a * 2.0, axis_size=3)(x3)
    c["vmap_out_axes_tuple_mixed"] = lambda: jx.vmap(
        lambda x: (x.sum(), x * 2.0, jnp.outer(x, x)), out_axes=(0, 1, -1))(x34)
    c["vmap_out_axes_list_output"] = lambda: jx.vmap(
        lambda x: [x + 0.5, x[::-1]], out_axes=[0, 1])(x34)
    c["vmap_out_axes_prefix_of_dict"] = lambda: jx.vmap(
        lambda x: {"p": (x - 1.0, x * 3.0), "q": x.max()}, out_axes={"p": 1, "q": 0})(x34)
    c["vmap_out_axes_none_for_unbatched_in"] = lambda: jx.vmap(
        lambda x, y: (x * 2.0, jnp.sin(y)), in_axes=(0, None), out_axes=(0, None))(x3, v4)
    c["vmap_nested_in_axes_1_then_2"] = lambda: jx.vmap(
        jx.vmap(lambda v: v.sum() * v, in_axes=1), in_axes=2)(x234)
    c["vmap_nested_out_axes_swap"] = lambda: jx.vmap(
        jx.vmap(lambda a: a * 2.0, in_axes=0, out_axes=0), in_axes=1, out_axes=0)(x34)
    c["vmap_triple_nested"] = lambda: jx.vmap(jx.vmap(jx.vmap(
        lambda a, b: a * b, in_axes=(None, 0)), in_axes=(0, None)), in_axes=(None, 0))(x234[0, 0], x234)
    c["vmap_nested_inner_none"] = lambda: jx.vmap(jx.vmap(
        lambda a, b: jnp.dot(a, b), in_axes=(None, 1)), in_axes=(0, None))(x34, m43)
    c["vmap_of_jit_pytree"] = lambda: jx.vmap(jx.jit(
        lambda p: {"s": p["x"] * p["y"], "t": p["x"].sum()}), in_axes=({"x": 0, "y": None},))(
        {"x": x34, "y": v4})
    c["jit_of_vmap_negative_axes"] = lambda: jx.jit(jx.vmap(
        lambda a, b: a - b.mean(), in_axes=(-1, 0), out_axes=-1))(x34, x234[:, 0].T)
    c["jit_of_vmap_of_jit"] = lambda: jx.jit(jx.vmap(jx.jit(lambda v: jnp.sort(v) ** 2)))(x34)
    c["vmap_scalar_result_int"] = lambda: jx.vmap(lambda v: jnp.argmax(v) + 1)(x34)
    c["vmap_kwargs_always_axis0"] = lambda: jx.vmap(
        lambda a, *, b: a + b, in_axes=(1,))(x34.T, b=x34)
    c["vmap_python_scalar_unmapped"] = lambda: jx.vmap(lambda v, s: v * s, (0, None))(x3, 4)
    c["vmap_dot_general_batch_dims"] = lambda: jx.vmap(lambda a, b: jx.lax.dot_general(
        a, b, (((1,), (0,)), ((), ()))), in_axes=(0, 2))(x234, x234.transpose(2, 1, 0))
    c["vmap_einsum_both_axes"] = lambda: jx.vmap(
        lambda a, b: jnp.einsum("ij,j->i", a, b), in_axes=(2, 0))(x234, x34.T)
    c["vmap_matmul_vector_shared"] = lambda: jx.vmap(lambda a: v4 @ a, in_axes=1)(x234.T)
    c["vmap_reshape_swapaxes"] = lambda: jx.vmap(
        lambda a: jnp.swapaxes(a.reshape(2, 2, 3), 0, 2), in_axes=1)(x234.reshape(12, 2))
    c["vmap_concat_stack_shared"] = lambda: jx.vmap(
        lambda a, b: jnp.stack([a, b, a * b], axis=-1), (0, None))(x34, v4)
    c["vmap_pad_roll"] = lambda: jx.vmap(
        lambda a: jnp.roll(jnp.pad(a, (1, 2)), 2))(x34)
    c["vmap_float32_in_float64_shared"] = lambda: jx.vmap(
        lambda a, b: a * b, (0, None))(x34.astype(np.float32), v4)
    return c


def vmap_control_cases(jx):
    jnp, lax, d = jx.numpy, jx.lax, _data()
    x3, pos3, x34, v4 = d["x3"], d["pos3"], d["x34"], d["v4"]
    c = {}
    c["vmap_cond_batched_pred_unbatched_operand"] = lambda: jx.vmap(
        lambda p: lax.cond(p > 0, lambda v: v * 2.0, lambda v: v - 1.0, v4))(x3)
    c["vmap_cond_unbatched_pred_batched_operand"] = lambda: jx.vmap(
        lambda v: lax.cond(v4[0] > 0, jnp.sin, jnp.cos, v))(x34)
    c["vmap_cond_pytree_out"] = lambda: jx.vmap(lambda v: lax.cond(
        v.sum() > 0, lambda u: {"a": u * 2.0, "n": jnp.int32(1)},
        lambda u: {"a": -u, "n": jnp.int32(2)}, v))(x34)
    c["vmap_cond_int_operand"] = lambda: jx.vmap(lambda p, k: lax.cond(
        p, lambda i: i * 3, lambda i: i - 7, k))(np.array([True, False, True]),
                                                 np.array([4, 5, 6], np.int32))
    c["vmap_cond_closure_batched"] = lambda: jx.vmap(lambda v, p: lax.cond(
        p > 0, lambda: v * p, lambda: v + p))(x34, x3)
    c["vmap_cond_nan_other_branch"] = lambda: jx.vmap(lambda v: lax.cond(
        v > 0, jnp.log, lambda u: u * 0.0, v))(x3)
    c["vmap_switch_negative_and_large_index"] = lambda: jx.vmap(lambda i, v: lax.switch(
        i, [lambda u: u * 10.0, lambda u: u + 100.0, jnp.exp], v))(
        np.array([-3, 0, 1, 2, 9]), np.linspace(-1.0, 1.0, 5))
    c["vmap_switch_batched_index_unbatched_operand"] = lambda: jx.vmap(
        lambda i: lax.switch(i, [jnp.sin, jnp.cos], x3))(np.array([1, 0]))
    c["vmap_switch_multi_operand"] = lambda: jx.vmap(lambda i, a, b: lax.switch(
        i, [lambda u, w: u * w, lambda u, w: u - w, lambda u, w: u / w], a, b))(
        np.array([2, 1, 0]), x3, pos3)
    c["vmap_while_batched_carry_pytree"] = lambda: jx.vmap(lambda x: lax.while_loop(
        lambda s: s["v"] < 10.0, lambda s: {"v": s["v"] * 2.0 + 0.5, "n": s["n"] + 1},
        {"v": x, "n": 0}))(pos3)
    c["vmap_while_batched_bound_closed"] = lambda: jx.vmap(lambda lim: lax.while_loop(
        lambda s: s[1] < lim, lambda s: (s[0] + s[1], s[1] + 1.0), (0.0, 0.0)))(
        np.array([0.0, 2.5, 5.0]))
    c["vmap_while_int_counter_batched"] = lambda: jx.vmap(lambda n: lax.while_loop(
        lambda s: s[0] * s[0] < n, lambda s: (s[0] + 1, s[1] * 2), (0, 1)))(
        np.array([0, 5, 30, 1], np.int32))
    c["vmap_fori_batched_lower"] = lambda: jx.vmap(lambda lo: lax.fori_loop(
        lo, 4, lambda i, a: a + i * 2.0, 0.5))(np.array([0, 2, 4, 6]))
    c["vmap_fori_static_batched_body"] = lambda: jx.vmap(lambda v: lax.fori_loop(
        0, 3, lambda i, a: a * v + v[i], v))(x34)
    c["vmap_fori_tuple_carry"] = lambda: jx.vmap(lambda v: lax.fori_loop(
        1, 4, lambda i, s: (s[0] + v ** i, s[1] * i), (jnp.zeros_like(v), 1)))(x3)
    c["vmap_scan_in_axes_1"] = lambda: jx.vmap(lambda xs: lax.scan(
        lambda cr, x: (cr * 0.5 + x, cr - x), 0.0, xs), in_axes=1)(x34)
    c["vmap_scan_batched_init_unbatched_xs"] = lambda: jx.vmap(lambda c0: lax.scan(
        lambda cr, x: (jnp.sin(cr) + x, cr), c0, v4))(x3)
    c["vmap_scan_reverse_pytree"] = lambda: jx.vmap(lambda xs: lax.scan(
        lambda cr, x: ({"s": cr["s"] + x, "m": jnp.maximum(cr["m"], x)}, cr["s"]),
        {"s": 0.0, "m": -jnp.inf}, xs, reverse=True))(x34)
    c["vmap_scan_length_no_xs"] = lambda: jx.vmap(lambda c0: lax.scan(
        lambda cr, _: (cr * 1.5, cr), c0, None, length=3))(x3)
    c["vmap_scan_xs_pytree_out_axes"] = lambda: jx.vmap(lambda a, b: lax.scan(
        lambda cr, xy: (cr + xy[0] * xy[1], xy[0] - xy[1]), 0.0, (a, b)),
        in_axes=(0, None), out_axes=(0, 1))(x34, v4)
    c["vmap_nested_scan"] = lambda: jx.vmap(lambda m: lax.scan(lambda cr, row: (
        cr + lax.scan(lambda c2, e: (c2 * e, c2), 1.0, row)[0], cr), 0.0, m))(d["x234"])
    c["vmap_map_over_rows"] = lambda: jx.vmap(lambda m: lax.map(jnp.sum, m), in_axes=2)(
        d["x234"])
    c["vmap_select_n"] = lambda: jx.vmap(lambda i, a, b: lax.select_n(i, a, b))(
        np.array([0, 1, 1]), x3, pos3)
    return c


def vmap_collective_cases(jx):
    """lax.psum / pmean / axis_index over a named vmap axis (JAX's batch-norm pattern)."""
    jnp, lax, d = jx.numpy, jx.lax, _data()
    x3, x34 = d["x3"], d["x34"]
    c = {}
    c["vmap_pmean_centre"] = lambda: jx.vmap(lambda x: x - lax.pmean(x, "i"), axis_name="i")(x34)
    c["vmap_psum_normalise_jit"] = lambda: jx.jit(jx.vmap(
        lambda x: x / lax.psum(jnp.abs(x), "b"), axis_name="b"))(x3)
    c["vmap_axis_index_nested"] = lambda: jx.vmap(jx.vmap(
        lambda x: x * lax.axis_index("i") + lax.axis_index("j") + lax.psum(x, "j"),
        axis_name="i"), axis_name="j")(x34)
    c["vmap_psum_of_python_one"] = lambda: jx.vmap(
        lambda x: x * lax.psum(1, "i"), axis_name="i")(x3)
    c["vmap_psum_tuple_of_names"] = lambda: jx.vmap(jx.vmap(
        lambda x: lax.psum(x, ("i", "j")), axis_name="i"), axis_name="j")(x34)
    c["grad_through_vmap_pmean"] = lambda: jx.grad(lambda w: jnp.sum(jx.vmap(
        lambda x: (w * x - lax.pmean(w * x, "i")) ** 2, axis_name="i")(x3)))(1.5)
    c["vmap_grad_psum"] = lambda: jx.vmap(jx.grad(
        lambda x: lax.psum(x ** 2, "i")), axis_name="i")(x3)
    c["err_psum_unbound_axis"] = lambda: jx.vmap(lambda x: lax.psum(x, "z"), axis_name="i")(x3)
    return c


def vmap_random_cases(jx):
    jnp, d = jx.numpy, _data()
    key = jx.random.PRNGKey(2018)
    keys4 = jx.random.split(key, 4)
    c = {}
    c["vmap_split_of_keys"] = lambda: jx.vmap(jx.random.split)(keys4)
    c["vmap_split_num3"] = lambda: jx.vmap(lambda k: jx.random.split(k, 3))(keys4[:2])
    c["vmap_normal_2d"] = lambda: jx.vmap(
        lambda k: jx.random.normal(k, (2, 3), jnp.float32))(keys4[:2])
    c["vmap_normal_in_axes_1_keys"] = lambda: jx.vmap(
        lambda k: jx.random.normal(k, (), jnp.float32), in_axes=1)(keys4.T)
    c["vmap_uniform_batched_bounds"] = lambda: jx.vmap(lambda k, lo: jx.random.uniform(
        k, (2,), jnp.float32, minval=lo, maxval=lo + 1.0))(keys4[:3], np.float32([0, 5, -5]))
    c["vmap_exponential_gumbel"] = lambda: jx.vmap(lambda k: (
        jx.random.exponential(k, (2,), jnp.float32),
        jx.random.gumbel(k, (2,), jnp.float32)))(keys4[:3])
    c["vmap_laplace_logistic"] = lambda: jx.vmap(lambda k: (
        jx.random.laplace(k, (2,), jnp.float32),
        jx.random.logistic(k, (2,), jnp.float32)))(keys4[:2])
    c["vmap_truncated_normal"] = lambda: jx.vmap(lambda k: jx.random.truncated_normal(
        k, -1.0, 1.0, (3,), jnp.float32))(keys4[:2])
    c["vmap_permutation"] = lambda: jx.vmap(lambda k: jx.random.permutation(k, 6))(keys4[:3])
    c["vmap_choice_no_replace"] = lambda: jx.vmap(lambda k: jx.random.choice(
        k, 5, (3,), replace=False))(keys4[:2])
    c["vmap_randint_batched_max"] = lambda: jx.vmap(lambda k, hi: jx.random.randint(
        k, (3,), 0, hi))(keys4[:3], np.array([2, 10, 1000], np.int32))
    c["vmap_fold_in_then_split"] = lambda: jx.vmap(lambda i: jx.random.normal(
        jx.random.split(jx.random.fold_in(key, i))[0], (), jnp.float32))(np.arange(3))
    c["vmap_rademacher"] = lambda: jx.vmap(lambda k: jx.random.rademacher(
        k, (4,), jnp.int32))(keys4[:2])
    c["vmap_normal_scaled_by_batched"] = lambda: jx.vmap(
        lambda k, s: s * jx.random.normal(k, (2,), jnp.float32))(
        keys4[:3], np.float32([1.0, 2.0, -1.0]))
    c["vmap_random_bits"] = lambda: jx.vmap(lambda k: jx.random.bits(k, (3,), jnp.uint32))(
        keys4[:2])
    c["grad_through_reparam_normal"] = lambda: jx.grad(lambda mu, sig: jnp.sum(
        mu + sig * jx.random.normal(key, (3,), jnp.float32)), argnums=(0, 1))(
        np.float32(0.5), np.float32(2.0))
    return c


def vmap_index_cases(jx):
    jnp, lax, d = jx.numpy, jx.lax, _data()
    x3, x34, v4 = d["x3"], d["x34"], d["v4"]
    i3 = np.array([0, 3, 1])
    c = {}
    c["vmap_at_add_batched_index_unbatched_operand"] = lambda: jx.vmap(
        lambda i: jnp.asarray(v4).at[i].add(10.0))(i3)
    c["vmap_at_set_batched_values"] = lambda: jx.vmap(
        lambda val: jnp.asarray(v4).at[1].set(val))(x3)
    c["vmap_at_mul_both_batched"] = lambda: jx.vmap(
        lambda x, i, val: x.at[i].mul(val))(x34, i3, x3)
    c["vmap_at_min_max_batched"] = lambda: jx.vmap(lambda x, i: (
        x.at[i].min(0.0), x.at[i].max(0.0)))(x34, i3)
    c["vmap_at_add_duplicate_batched_indices"] = lambda: jx.vmap(
        lambda x, ii: x.at[ii].add(1.0))(x34, np.array([[0, 0], [1, 3], [2, 2]]))
    c["vmap_at_set_negative_index"] = lambda: jx.vmap(lambda x, i: x.at[i].set(9.0))(
        x34, np.array([-1, -4, 2]))
    c["vmap_at_set_out_of_bounds_dropped"] = lambda: jx.vmap(
        lambda x, i: x.at[i].set(9.0))(x34, np.array([4, 7, 0]))
    c["vmap_at_get_fill"] = lambda: jx.vmap(lambda x, i: x.at[i].get(
        mode="fill", fill_value=-1.0))(x34, np.array([4, 1, 9]))
    c["vmap_gather_out_of_bounds_clamps"] = lambda: jx.vmap(lambda x, i: x[i])(
        x34, np.array([7, -9, 2]))
    c["vmap_at_set_2d_index"] = lambda: jx.vmap(lambda m, i, j: m.at[i, j].set(0.0))(
        d["x234"], np.array([0, 2]), np.array([3, 1]))
    c["vmap_at_slice_set_batched"] = lambda: jx.vmap(
        lambda x, u: x.at[1:3].set(u))(x34, x34[:, :2] * 10.0)
    c["vmap_at_add_in_axes_1"] = lambda: jx.vmap(
        lambda x, i: x.at[i].add(1.0), in_axes=(1, 0))(x34, np.array([2, 0, 1, 1]))
    c["vmap_dynamic_update_slice_batched_index"] = lambda: jx.vmap(
        lambda x, i: lax.dynamic_update_slice(x, jnp.array([7.0, 8.0]), (i,)))(
        x34, np.array([0, 2, 3]))
    c["vmap_dynamic_index_in_dim"] = lambda: jx.vmap(
        lambda m, i: lax.dynamic_index_in_dim(m, i, axis=1, keepdims=False))(
        d["x234"], np.array([3, 0]))
    c["vmap_sort_in_axes_1_descending"] = lambda: jx.vmap(
        lambda v: jnp.sort(v, descending=True), in_axes=1)(x34)
    c["vmap_argsort_stable_ties"] = lambda: jx.vmap(lambda v: jnp.argsort(v, stable=True))(
        np.array([[1.0, 0.0, 1.0, 0.0], [2.0, 2.0, 2.0, 1.0]]))
    c["vmap_cumsum_reverse_cumprod"] = lambda: jx.vmap(lambda v: (
        lax.cumsum(v, reverse=True), jnp.cumprod(v)), in_axes=1)(x34)
    c["vmap_cummax_cumlogsumexp"] = lambda: jx.vmap(lambda v: (
        lax.cummax(v), lax.cumlogsumexp(v)))(x34)
    c["vmap_take_along_axis_batched"] = lambda: jx.vmap(lambda v, i: jnp.take_along_axis(
        v, i, axis=0))(x34, np.array([[3, 0], [1, 1], [2, 0]]))
    c["vmap_where_three_arg_mixed"] = lambda: jx.vmap(lambda m, a: jnp.where(m, a, v4),
                                                      (0, 1))(x34 > 0, x34.T)
    return c


def vmap_linalg_cases(jx):
    jnp, d = jx.numpy, _data()
    spds, sqs, talls = d["spds"], d["sqs"], d["talls"]
    c = {}
    c["vmap_solve_both_batched"] = lambda: jx.vmap(jnp.linalg.solve)(sqs, sqs[:, 0])
    c["vmap_solve_matrix_rhs_in_axes"] = lambda: jx.vmap(jnp.linalg.solve, (None, 2))(
        d["spd"], d["x234"][:, :, :3].transpose(1, 2, 0)[:, :3])
    c["vmap_inv_in_axes_2"] = lambda: jx.vmap(jnp.linalg.inv, in_axes=2)(
        sqs.transpose(1, 2, 0))
    c["vmap_cholesky"] = lambda: jx.vmap(jnp.linalg.cholesky)(spds)
    c["vmap_eigh_values_abs_vectors"] = lambda: jx.vmap(lambda a: (
        jnp.linalg.eigh(a)[0], jnp.abs(jnp.linalg.eigh(a)[1])))(spds)
    c["vmap_svd_values"] = lambda: jx.vmap(lambda a: jnp.linalg.svd(a, compute_uv=False))(
        talls)
    c["vmap_svd_reconstruct"] = lambda: jx.vmap(lambda a: (lambda u, s, vt: (u * s) @ vt)(
        *jnp.linalg.svd(a, full_matrices=False)))(talls)
    c["vmap_det_slogdet"] = lambda: jx.vmap(lambda a: (jnp.linalg.det(a),
                                                       jnp.linalg.slogdet(a)[1]))(sqs)
    c["vmap_qr_r_abs"] = lambda: jx.vmap(lambda a: jnp.abs(jnp.linalg.qr(a)[1]))(talls)
    c["vmap_triangular_solve"] = lambda: jx.vmap(lambda a, b: jx.scipy.linalg.solve_triangular(
        a, b, lower=True))(jx.vmap(jnp.linalg.cholesky)(spds), sqs[:, 0])
    c["vmap_cho_solve"] = lambda: jx.vmap(lambda a, b: jx.scipy.linalg.cho_solve(
        (jnp.linalg.cholesky(a), True), b), (0, None))(spds, d["x3"])
    c["vmap_matrix_power_norm"] = lambda: jx.vmap(lambda a: (
        jnp.linalg.matrix_power(a, 3), jnp.linalg.norm(a)))(sqs)
    c["grad_vmap_solve_sum"] = lambda: jx.grad(lambda a: jnp.sum(jx.vmap(
        jnp.linalg.solve, (None, 0))(a, sqs[:, 0])))(d["spd"])
    c["vmap_grad_logdet"] = lambda: jx.vmap(jx.grad(lambda a: jnp.linalg.slogdet(a)[1]))(sqs)
    c["vmap_grad_eigvalsh_max"] = lambda: jx.vmap(jx.grad(
        lambda a: jnp.linalg.eigvalsh(a)[-1]))(spds)
    return c


def grad_api_cases(jx):
    jnp, d = jx.numpy, _data()
    x3, pos3, x34 = d["x3"], d["pos3"], d["x34"]
    c = {}
    c["grad_argnums_reversed_tuple"] = lambda: jx.grad(
        lambda a, b, c_: jnp.sum(a * b ** 2 + c_), argnums=(2, 0))(x3, pos3, 1.5)
    c["grad_argnums_single_tuple"] = lambda: jx.grad(
        lambda a, b: jnp.sum(a * b), argnums=(1,))(x3, pos3)
    c["grad_argnums_negative"] = lambda: jx.grad(
        lambda a, b: jnp.sum(jnp.sin(a) * b), argnums=-1)(x3, pos3)
    c["grad_has_aux_dict_with_ints"] = lambda: jx.grad(lambda x: (
        jnp.sum(x ** 2), {"argmax": jnp.argmax(x), "y": x * 2.0}), has_aux=True)(x3)
    c["value_and_grad_argnums_tuple_has_aux"] = lambda: jx.value_and_grad(
        lambda a, b: (jnp.sum(a * b), [a - b]), argnums=(0, 1), has_aux=True)(x3, pos3)
    c["value_and_grad_scalar_int_static_arg"] = lambda: jx.value_and_grad(
        lambda x, n: x ** n)(2.0, 3)
    c["grad_python_float_input_dtype"] = lambda: jx.grad(lambda x: x * x * 3.0)(2.0)
    c["grad_float32_scalar_array"] = lambda: jx.grad(lambda x: jnp.sin(x) * x)(
        np.float32(0.7))
    c["grad_allow_int_python_int"] = lambda: jx.grad(lambda x, n: x * n, argnums=(0, 1),
                                                     allow_int=True)(2.5, 4)
    c["grad_allow_int_bool"] = lambda: jx.grad(lambda x, b: jnp.where(b, x, 2.0 * x),
                                               argnums=(0, 1), allow_int=True)(
        1.5, np.array(True))
    c["grad_allow_int_int_only_used_as_index"] = lambda: jx.grad(
        lambda i, x: x[i] * 3.0, allow_int=True)(np.int32(2), x3)
    c["grad_output_float32_from_int_mix"] = lambda: jx.grad(
        lambda x: jnp.sum(x * np.arange(3, dtype=np.int32)))(x3.astype(np.float32))
    c["grad_of_function_returning_0d_array"] = lambda: jx.grad(
        lambda x: jnp.sum(x).reshape(()))(x34)
    c["err_grad_of_shape_1_output"] = lambda: jx.grad(lambda x: jnp.sum(x, keepdims=True))(x3)
    c["grad_unused_argument"] = lambda: jx.grad(lambda a, b: jnp.sum(a ** 2),
                                                argnums=(0, 1))(x3, pos3)
    c["grad_constant_function"] = lambda: jx.grad(lambda x: 3.0)(1.0)
    c["grad_identity_scalar"] = lambda: jx.grad(lambda x: x)(np.float32(2.0))
    c["value_and_grad_float32_values"] = lambda: jx.value_and_grad(
        lambda w, x: jnp.mean(jnp.tanh(x @ w) ** 2))(d["m43"][:, 0].astype(np.float32),
                                                      x34.astype(np.float32))
    c["grad_through_astype_float16"] = lambda: jx.grad(lambda x: jnp.sum(
        x.astype(jnp.float16) * 2.0).astype(x.dtype))(x3)
    return c


def pytree_cases(jx):
    jnp, d = jx.numpy, _data()
    x3, pos3, x34, m43 = d["x3"], d["pos3"], d["x34"], d["m43"]
    c = {}

    def affine_grad():
        _register(jx)
        return jx.grad(lambda p: jnp.sum(jnp.tanh(x34 @ p.w[:, 0] + p.b)))(
            Affine(m43, np.array(0.5)))
    c["grad_register_dataclass"] = affine_grad

    def scaled_grad():
        _register(jx)
        return jx.grad(lambda s: jnp.sum(s.value ** 2) * s.factor)(Scaled(x3, 3.0))
    c["grad_register_pytree_node_aux"] = lambda: scaled_grad().value

    def scaled_vmap():
        _register(jx)
        return jx.vmap(lambda s: s.value * s.factor)(Scaled(x34, 2.0))
    c["vmap_register_pytree_node"] = scaled_vmap

    def affine_vmap_prefix():
        _register(jx)
        return jx.vmap(lambda p, x: x @ p.w + p.b, in_axes=(Affine(None, 0), 0))(
            Affine(m43, x3), x34)
    c["vmap_dataclass_prefix"] = affine_vmap_prefix
    c["grad_nested_dict_of_lists"] = lambda: jx.grad(lambda p: jnp.sum(
        p["enc"][0] * p["enc"][1]["w"]) + p["dec"] ** 2)(
        {"enc": [x3, {"w": pos3}], "dec": 1.5})
    c["grad_dict_with_none_leaf"] = lambda: jx.grad(lambda p: jnp.sum(p["a"] ** 2))(
        {"a": x3, "skip": None})
    c["grad_tuple_of_namedtuples"] = lambda: jx.grad(lambda ps: sum(
        jnp.sum(p.a * p.b) for p in ps))((Pair(x3, pos3), Pair(pos3, x3 * 2.0)))
    c["grad_list_mlp_params"] = lambda: jx.grad(lambda params, x: jnp.sum(
        jnp.tanh(jnp.tanh(x @ params[0][0] + params[0][1]) @ params[1][0] + params[1][1])))(
        [(m43, x3), (m43[:3, :2], pos3[:2])], x34)
    c["value_and_grad_pytree_output_aux_tuple"] = lambda: jx.value_and_grad(
        lambda p: (p.a @ p.b, (p.a, jnp.zeros(2))), has_aux=True)(Pair(x3, pos3))
    c["jacrev_pytree_in_pytree_out"] = lambda: jx.jacrev(
        lambda p: {"s": jnp.sum(p["x"] * p["y"]), "v": p["x"] * 2.0})({"x": x3, "y": pos3})
    c["jacfwd_pytree_in_pytree_out"] = lambda: jx.jacfwd(
        lambda p: (p[0] * p[1], jnp.sum(p[0])))([x3, pos3])
    c["hessian_namedtuple"] = lambda: jx.hessian(lambda p: jnp.sum(p.a ** 2 * p.b))(
        Pair(x3, pos3))
    c["vjp_dict_output_cotangent"] = lambda: jx.vjp(
        lambda x: {"sq": x ** 2, "sum": jnp.sum(x)}, x3)[1]({"sq": pos3, "sum": 2.0})
    c["jvp_namedtuple"] = lambda: jx.jvp(lambda p: Pair(p.a * p.b, p.a + p.b),
                                         (Pair(x3, pos3),), (Pair(pos3, x3),))
    c["grad_tree_map_update"] = lambda: jx.tree_util.tree_map(
        lambda p, g: p - 0.1 * g, {"a": x3, "b": pos3},
        jx.grad(lambda p: jnp.sum(p["a"] * jnp.exp(p["b"])))({"a": x3, "b": pos3}))
    return c


def fwd_rev_cases(jx):
    jnp, lax, d = jx.numpy, jx.lax, _data()
    x3, pos3, x34 = d["x3"], d["pos3"], d["x34"]
    c = {}
    c["jvp_python_scalars"] = lambda: jx.jvp(lambda x: x ** 3, (2.0,), (1.0,))
    c["jvp_int_primal_float0"] = lambda: jx.jvp(
        lambda x, n: x * n, (x3, np.int32(4)), (pos3, np.zeros((), jx.float0)))
    c["jvp_output_int"] = lambda: jx.jvp(lambda x: (x * 2.0, jnp.argmax(x)), (x3,), (pos3,))
    c["jvp_matrix_function"] = lambda: jx.jvp(
        lambda a: jnp.linalg.inv(a) @ a.T, (d["spd"],), (d["x34"][:, :3],))
    c["vjp_scalar_output"] = lambda: jx.vjp(lambda x: jnp.sum(jnp.exp(x)), x3)[1](3.0)
    c["vjp_multiple_inputs"] = lambda: jx.vjp(
        lambda a, b: a[:, None] * b[None, :], x3, pos3)[1](np.ones((3, 3)))
    c["vjp_float32_cotangent"] = lambda: jx.vjp(
        jnp.tanh, x3.astype(np.float32))[1](pos3.astype(np.float32))
    c["vjp_called_twice"] = lambda: (lambda pb: (pb(x3), pb(pos3)))(
        jx.vjp(lambda x: jnp.sin(x) * x, x3)[1])
    c["linearize_called_on_batch_via_vmap"] = lambda: (lambda lin: jx.vmap(lin[1])(x34.T[:, :3]))(
        jx.linearize(lambda x: jnp.cumsum(jnp.sin(x)), x3))
    c["linearize_output_and_tangent_float32"] = lambda: (lambda lin: (lin[0], lin[1](
        pos3.astype(np.float32))))(jx.linearize(jnp.exp, x3.astype(np.float32)))
    c["jvp_of_scan"] = lambda: jx.jvp(lambda x: lax.scan(
        lambda cr, e: (cr * e + jnp.sin(cr), cr), 0.5, x), (x3,), (pos3,))
    c["jvp_of_cond_batched_tangent"] = lambda: jx.jvp(lambda x: lax.cond(
        x[0] > 0, lambda v: v ** 2, lambda v: jnp.exp(v), x), (x3,), (pos3,))
    c["vjp_of_fori_static"] = lambda: jx.vjp(lambda x: lax.fori_loop(
        0, 3, lambda i, a: a * x + i, x), x3)[1](pos3)
    c["jvp_of_while_fori_traced"] = lambda: jx.jvp(lambda x, n: lax.fori_loop(
        0, n, lambda i, a: a * x, 1.0), (1.3, 4), (1.0, np.zeros((), jx.float0)))
    return c


def jacobian_cases(jx):
    jnp, d = jx.numpy, _data()
    x3, pos3, x23 = d["x3"], d["pos3"], d["x23"]
    c = {}
    c["jacfwd_matrix_to_matrix"] = lambda: jx.jacfwd(lambda a: a @ a.T)(x23)
    c["jacrev_matrix_to_vector"] = lambda: jx.jacrev(lambda a: jnp.sum(a ** 3, axis=0))(x23)
    c["jacrev_scalar_to_vector"] = lambda: jx.jacrev(lambda t: jnp.array([t, t ** 2, jnp.sin(t)]))(
        0.5)
    c["jacfwd_argnums_tuple"] = lambda: jx.jacfwd(lambda a, b: a * b[0] + b[1],
                                                  argnums=(0, 1))(x3, pos3[:2])
    c["jacrev_has_aux"] = lambda: jx.jacrev(lambda x: (jnp.cumprod(x), x.max()),
                                            has_aux=True)(pos3)
    c["jacfwd_float32"] = lambda: jx.jacfwd(lambda x: jnp.tanh(x) * 2.0)(x3.astype(np.float32))
    c["jacrev_more_than_16_outputs"] = lambda: jx.jacrev(lambda x: jnp.outer(x, x).ravel())(
        np.linspace(-1.0, 1.0, 5))
    c["jacfwd_more_than_16_inputs"] = lambda: jx.jacfwd(lambda x: jnp.sum(x.reshape(
        4, 5) ** 2, axis=1))(np.linspace(-1.0, 1.0, 20))
    c["hessian_of_vector_function"] = lambda: jx.hessian(lambda x: x ** 3)(pos3)
    c["hessian_float32"] = lambda: jx.hessian(lambda x: jnp.sum(jnp.exp(x) * x))(
        x3.astype(np.float32))
    c["hessian_matrix_input"] = lambda: jx.hessian(lambda a: jnp.sum(jnp.sin(a @ a.T)))(x23)
    c["jacfwd_of_jacrev"] = lambda: jx.jacfwd(jx.jacrev(lambda x: jnp.prod(x)))(pos3)
    c["jacrev_of_grad"] = lambda: jx.jacrev(jx.grad(lambda x: jnp.sum(jnp.log1p(x ** 2))))(x3)
    c["jacrev_of_jacrev_pytree"] = lambda: jx.jacrev(jx.jacrev(
        lambda p: p["a"] * jnp.sum(p["b"])))({"a": 0.5, "b": pos3[:2]})
    c["err_jacrev_int_output"] = lambda: jx.jacrev(jnp.argmax)(x3)
    return c


def _custom(jx):
    jnp = jx.numpy

    @partial(jx.custom_jvp, nondiff_argnums=(0,))
    def apply_fn(fn, x):
        return fn(x)

    @apply_fn.defjvp
    def apply_fn_jvp(fn, primals, tangents):
        x, = primals
        t, = tangents
        return fn(x), 5.0 * t                 # deliberately not fn'(x): shows the rule ran

    @jx.custom_jvp
    def two_args(x, y):
        return x * y

    two_args.defjvps(lambda tx, ans, x, y: 2.0 * tx * y, None)

    @jx.custom_jvp
    def tree_in(p):
        return jnp.sum(p["a"] * p["b"])

    @tree_in.defjvp
    def tree_in_jvp(primals, tangents):
        p, = primals
        t, = tangents
        return tree_in(p), jnp.sum(t["a"] * p["b"]) * 3.0 + jnp.sum(p["a"] * t["b"])

    @partial(jx.custom_vjp, nondiff_argnums=(1,))
    def scale_by(x, fn):
        return fn(x)

    def scale_fwd(x, fn):
        return fn(x), {"x": x, "fx": fn(x)}

    def scale_bwd(fn, res, ct):
        return (ct * res["fx"] * 0.5 + res["x"],)
    scale_by.defvjp(scale_fwd, scale_bwd)

    @jx.custom_vjp
    def dict_fn(p):
        return p["u"] * p["v"]

    def dict_fwd(p):
        return dict_fn(p), (p["u"], p["v"])

    def dict_bwd(res, ct):
        u, v = res
        return ({"u": ct * v * 10.0, "v": ct * u},)
    dict_fn.defvjp(dict_fwd, dict_bwd)

    @jx.custom_vjp
    def none_ct(x, y):
        return x + y

    none_ct.defvjp(lambda x, y: (x + y, None), lambda res, ct: (ct * 2.0, None))

    @jx.custom_jvp
    def safe_log(x):
        return jnp.log(x)

    @safe_log.defjvp
    def safe_log_jvp(primals, tangents):
        x, = primals
        t, = tangents
        return safe_log(x), jnp.where(x > 0, t / jnp.where(x > 0, x, 1.0), 0.0)
    return {"apply_fn": apply_fn, "two_args": two_args, "tree_in": tree_in,
            "scale_by": scale_by, "dict_fn": dict_fn, "none_ct": none_ct,
            "safe_log": safe_log}


def custom_cases(jx):
    jnp, lax, d = jx.numpy, jx.lax, _data()
    x3, pos3, x34 = d["x3"], d["pos3"], d["x34"]
    f = _custom(jx)
    c = {}
    c["custom_jvp_nondiff_callable"] = lambda: jx.grad(
        lambda x: jnp.sum(f["apply_fn"](jnp.sin, x)))(x3)
    c["custom_jvp_nondiff_callable_vmap"] = lambda: jx.vmap(jx.grad(
        lambda x: f["apply_fn"](jnp.exp, x)))(x3)
    c["custom_jvp_defjvps_none"] = lambda: jx.grad(lambda a, b: jnp.sum(f["two_args"](a, b)),
                                                   argnums=(0, 1))(x3, pos3)
    c["custom_jvp_pytree_input"] = lambda: jx.grad(f["tree_in"])({"a": x3, "b": pos3})
    c["custom_jvp_jvp_directly"] = lambda: jx.jvp(f["two_args"], (x3, pos3), (
        jnp.asarray(pos3), jnp.asarray(x3)))
    c["custom_jvp_under_jit_grad"] = lambda: jx.jit(jx.grad(
        lambda x: jnp.sum(f["safe_log"](x))))(np.array([0.0, 1.0, 2.0]))
    c["custom_jvp_forward_value_only"] = lambda: f["safe_log"](pos3)
    c["custom_jvp_second_order"] = lambda: jx.grad(jx.grad(
        lambda x: f["two_args"](x, x)))(1.5)
    c["custom_jvp_vmap_forward_and_jvp"] = lambda: jx.vmap(lambda a, t: jx.jvp(
        lambda v: f["apply_fn"](jnp.tanh, v), (a,), (t,)))(x3, pos3)
    c["custom_vjp_nondiff_callable"] = lambda: jx.grad(
        lambda x: jnp.sum(f["scale_by"](x, jnp.cos)))(x3)
    c["custom_vjp_dict_input_residual_tuple"] = lambda: jx.grad(
        lambda p: jnp.sum(f["dict_fn"](p)))({"u": x3, "v": pos3})
    c["custom_vjp_none_cotangent"] = lambda: jx.grad(
        lambda a, b: jnp.sum(f["none_ct"](a, b)), argnums=(0, 1))(x3, pos3)
    c["custom_vjp_vmap_forward"] = lambda: jx.vmap(f["dict_fn"])({"u": x34, "v": x34 * 2.0})
    c["custom_vjp_jit_of_grad_of_vmap"] = lambda: jx.jit(jx.grad(lambda u: jnp.sum(jx.vmap(
        lambda a: f["dict_fn"]({"u": a, "v": pos3}))(u))))(x34[:, :3])
    c["custom_vjp_vjp_directly"] = lambda: jx.vjp(
        lambda x: f["scale_by"](x, jnp.sin), x3)[1](pos3)
    c["custom_vjp_in_cond_grad"] = lambda: jx.grad(lambda x: lax.cond(
        x > 0, lambda v: f["none_ct"](v, 1.0) * 3.0, lambda v: v, x))(0.7)
    c["custom_jvp_in_scan_grad"] = lambda: jx.grad(lambda x: lax.scan(
        lambda cr, e: (f["two_args"](cr, e), cr), x, pos3)[0])(0.9)
    c["custom_vjp_jvp_error"] = lambda: jx.jvp(lambda x: f["none_ct"](x, 1.0), (1.0,), (1.0,))
    c["custom_vjp_jacrev"] = lambda: jx.jacrev(lambda x: f["scale_by"](x, jnp.exp))(x3)
    c["custom_gradient"] = lambda: (jx.grad(_custom_gradient(jx))(2.0), jx.vmap(jx.grad(
        lambda w: _custom_gradient(jx)(w * 3.0)))(x3), jx.jit(jx.value_and_grad(
            _custom_gradient(jx)))(0.5))
    c["closure_convert_custom_vjp"] = lambda: (jx.grad(_closure_loss(jx), argnums=(0, 1))(
        1.5, 0.3), jx.jit(jx.grad(_closure_loss(jx), argnums=(0, 1)))(0.5, -0.7))
    return c


def _custom_gradient(jx):
    """jax.custom_gradient: the value and a rule closing over it (10x: shows it ran)."""
    jnp = jx.numpy

    @jx.custom_gradient
    def f(x):
        return jnp.sin(x) * x, lambda g: (g * 10.0 * jnp.cos(x),)
    return f


def _closure_loss(jx):
    """JAX's closure_convert pattern: a custom_vjp function taking a closure's traced
    constants as arguments (here w, closed over by g)."""
    jnp = jx.numpy

    @partial(jx.custom_vjp, nondiff_argnums=(0,))
    def apply(f, x, *consts):
        return f(x, *consts)

    def fwd(f, x, *consts):
        return f(x, *consts), (x, consts)

    def bwd(f, res, ct):
        x, consts = res
        return jx.vjp(f, x, *consts)[1](ct)
    apply.defvjp(fwd, bwd)

    def loss(w, x):
        converted, consts = jx.closure_convert(lambda v: jnp.sin(v * w) * w, x)
        return apply(converted, x, *consts)
    return loss


def checkpoint_cases(jx):
    jnp, lax, d = jx.numpy, jx.lax, _data()
    x3, x34, m43 = d["x3"], d["x34"], d["m43"]
    pol = jx.checkpoint_policies
    c = {}
    c["checkpoint_everything_saveable"] = lambda: jx.grad(jx.checkpoint(
        lambda x: jnp.sum(jnp.exp(jnp.sin(x))), policy=pol.everything_saveable))(x3)
    c["checkpoint_dots_no_batch"] = lambda: jx.grad(lambda w: jnp.sum(jx.checkpoint(
        lambda w_: jnp.tanh(x34 @ w_) @ w_.T,
        policy=pol.dots_with_no_batch_dims_saveable)(w)))(m43)
    c["remat_prevent_cse_false"] = lambda: jx.grad(jx.remat(
        lambda x: jnp.sum(jnp.sin(x) ** 2), prevent_cse=False))(x3)
    c["checkpoint_nested"] = lambda: jx.grad(jx.checkpoint(lambda x: jnp.sum(jx.checkpoint(
        lambda y: jnp.cos(y) * y)(x) ** 2)))(x3)
    c["checkpoint_pytree_args"] = lambda: jx.grad(jx.checkpoint(
        lambda p: jnp.sum(p["w"] * jnp.tanh(p["b"]))))({"w": x3, "b": d["pos3"]})
    c["checkpoint_in_fori_static"] = lambda: jx.grad(lambda x: lax.fori_loop(
        0, 3, jx.checkpoint(lambda i, a: jnp.sin(a) + x), x))(0.4)
    c["checkpoint_value_only"] = lambda: jx.checkpoint(lambda x: jnp.sum(x ** 2))(x3)
    c["checkpoint_jvp"] = lambda: jx.jvp(jx.checkpoint(jnp.sin), (x3,), (d["pos3"],))
    return c


def grad_control_cases(jx):
    jnp, lax, d = jx.numpy, jx.lax, _data()
    x3, pos3, x34 = d["x3"], d["pos3"], d["x34"]
    c = {}
    c["grad_cond_closure_operand"] = lambda: jx.grad(lambda x, y: lax.cond(
        x > y, lambda: x * y ** 2, lambda: x - y), argnums=(0, 1))(1.3, 0.4)
    c["grad_cond_false_branch"] = lambda: jx.grad(lambda x: jnp.sum(lax.cond(
        x.sum() > 100.0, lambda v: v ** 3, lambda v: jnp.exp(v) * 2.0, x)))(x3)
    c["grad_cond_int_output_mix"] = lambda: jx.grad(lambda x: lax.cond(
        x > 0, lambda v: (v * 2.0, 1), lambda v: (v * 3.0, 2), x)[0])(0.5)
    c["grad_switch_index_clamped"] = lambda: jx.grad(lambda x: lax.switch(
        7, [jnp.sin, jnp.cos, lambda v: v ** 3], x))(0.8)
    c["grad_switch_traced_index"] = lambda: jx.grad(lambda x, i: lax.switch(
        i, [jnp.sin, jnp.cos, lambda v: v ** 3], x))(0.8, 1)
    c["grad_scan_pytree_carry"] = lambda: jx.grad(lambda p: lax.scan(
        lambda cr, e: ({"h": jnp.tanh(cr["h"] * p["w"] + e), "s": cr["s"] + cr["h"]}, None),
        {"h": 0.0, "s": 0.0}, pos3)[0]["s"])({"w": 0.7})
    c["grad_scan_xs_pytree"] = lambda: jx.grad(lambda xs: lax.scan(
        lambda cr, e: (cr + e["a"] * e["b"], None), 0.0, xs)[0])({"a": x3, "b": pos3})
    c["grad_scan_rnn_weights"] = lambda: jx.grad(lambda w: jnp.sum(lax.scan(
        lambda h, e: (jnp.tanh(w @ h + e), h), jnp.zeros(4), d["x234"][0])[1] ** 2))(
        np.eye(4) * 0.5 + 0.1)
    c["grad_nested_scan"] = lambda: jx.grad(lambda x: lax.scan(lambda cr, row: (
        cr + lax.scan(lambda c2, e: (c2 * jnp.sin(e) + x, None), 1.0, row)[0], None),
        0.0, x34)[0])(0.3)
    c["grad_fori_static_pytree"] = lambda: jx.grad(lambda x: lax.fori_loop(
        0, 4, lambda i, s: (s[0] * x, s[1] + s[0]), (1.0, 0.0))[1])(1.1)
    c["grad_fori_using_index"] = lambda: jx.grad(lambda v: lax.fori_loop(
        0, 3, lambda i, a: a + v[i] * a, 1.0))(x3)
    c["grad_fori_unroll"] = lambda: jx.grad(lambda x: lax.fori_loop(
        0, 6, lambda i, a: jnp.sin(a) * x, x, unroll=2))(0.9)
    c["grad_while_in_stop_gradient_ok"] = lambda: jx.grad(lambda x: x * lax.stop_gradient(
        lax.while_loop(lambda v: v < 5.0, lambda v: v * 2.0, x)))(0.7)
    c["grad_map"] = lambda: jx.grad(lambda x: jnp.sum(lax.map(lambda r: jnp.prod(r), x34)
                                                      * x))(1.0)
    c["grad_associative_scan_add"] = lambda: jx.grad(lambda x: jnp.sum(
        lax.associative_scan(jnp.add, x) ** 2))(x3)
    c["grad_vmap_cond_batched"] = lambda: jx.grad(lambda x: jnp.sum(jx.vmap(
        lambda v: lax.cond(v > 0, jnp.sin, lambda u: u ** 2, v))(x)))(x3)
    c["grad_vmap_while_fwd_jacfwd"] = lambda: jx.jacfwd(lambda x: jx.vmap(
        lambda v: lax.while_loop(lambda s: s < 4.0, lambda s: s * 1.5, v))(x))(pos3)
    return c


def python_control_cases(jx):
    """Eager differentiation sees values (JAX's JVP tracers carry them): Python `if` and
    `while` on them work outside jit and vmap, and raise inside them."""
    jnp, d = jx.numpy, _data()

    def piecewise(x):
        if x < 3:
            return 3. * x ** 2
        return -4 * x ** 3

    def doubling(x):
        while x < 10.0:
            x = x * 2.0 + jnp.sin(x)
        return x

    def by_sign(v):
        return jnp.sum(v ** 2) if jnp.sum(v) > 0 else jnp.sum(jnp.exp(v))
    c = {}
    c["python_if_grad_both_sides"] = lambda: (jx.grad(piecewise)(2.0), jx.grad(piecewise)(4.0))
    c["python_while_grad"] = lambda: jx.grad(doubling)(0.7)
    c["python_if_value_and_grad_array"] = lambda: (jx.value_and_grad(by_sign)(d["x3"]),
                                                   jx.value_and_grad(by_sign)(-d["pos3"]))
    c["python_if_hessian"] = lambda: jx.hessian(piecewise)(4.0)
    c["python_if_jvp"] = lambda: jx.jvp(piecewise, (2.0,), (1.0,))
    c["python_if_jacfwd_vector"] = lambda: jx.jacfwd(
        lambda v: v * 2.0 if v[0] > 0 else v ** 2)(d["x3"])
    c["python_int_of_value_grad"] = lambda: jx.grad(
        lambda x: x ** int(jnp.floor(x)))(2.5)
    c["python_item_and_index_grad"] = lambda: jx.grad(
        lambda x: x.item() * x + jnp.array([1.0, 2.0, 3.0])[int(x)] * x)(2.0)
    c["err_python_float_of_differentiated"] = lambda: jx.grad(lambda x: float(x) * x)(2.0)
    c["err_python_if_under_jit_grad"] = lambda: jx.jit(jx.grad(piecewise))(2.0)
    c["err_python_if_under_vmap_grad"] = lambda: jx.vmap(jx.grad(piecewise))(d["pos3"])
    return c


def kink_cases(jx):
    jnp, lax, d = jx.numpy, jx.lax, _data()
    nn = jx.nn
    c = {}
    c["grad_max_all_ties"] = lambda: jx.grad(jnp.max)(np.array([2.0, 2.0, 2.0, 2.0]))
    c["grad_maximum_same_operand"] = lambda: jx.grad(lambda x: jnp.maximum(x, x))(1.5)
    c["grad_lax_max_tie"] = lambda: jx.grad(lambda x, y: lax.max(x, y), argnums=(0, 1))(
        2.0, 2.0)
    c["grad_amax_axis_tuple_ties"] = lambda: jx.grad(lambda x: jnp.sum(jnp.amax(
        x, axis=(0, 2))))(np.array([[[1.0, 3.0], [3.0, 0.0]], [[3.0, 2.0], [1.0, 3.0]]]))
    c["grad_min_ties_keepdims"] = lambda: jx.grad(lambda x: jnp.sum(jnp.min(
        x, axis=0, keepdims=True) * 2.0))(np.array([[1.0, 0.0], [1.0, 0.0], [2.0, 0.0]]))
    c["grad_abs_at_zero"] = lambda: jx.grad(jnp.abs)(0.0)
    c["grad_abs_vector_kink"] = lambda: jx.grad(lambda x: jnp.sum(jnp.abs(x) * 2.0))(
        np.array([-1.0, 0.0, 1.0, -0.0]))
    c["grad_relu_at_zero"] = lambda: jx.grad(lambda x: jnp.sum(nn.relu(x)))(
        np.array([-1.0, 0.0, 2.0]))
    c["grad_relu6_hard_tanh_kinks"] = lambda: jx.grad(lambda x: jnp.sum(
        nn.relu6(x) + nn.hard_tanh(x)))(np.array([0.0, 1.0, 6.0, -1.0]))
    c["grad_clip_at_bounds"] = lambda: jx.grad(lambda x: jnp.sum(jnp.clip(x, -1.0, 1.0)))(
        np.array([-1.0, 0.5, 1.0, 2.0]))
    c["grad_where_at_boundary"] = lambda: jx.grad(lambda x: jnp.sum(
        jnp.where(x >= 0.0, x ** 2, -x)))(np.array([0.0, -0.5, 0.5]))
    c["grad_sqrt_at_zero_scalar"] = lambda: jx.grad(jnp.sqrt)(0.0)
    c["grad_log_at_zero"] = lambda: jx.grad(jnp.log)(0.0)
    c["grad_xlogx_at_zero"] = lambda: jx.grad(lambda x: x * jnp.log(x))(0.0)
    c["grad_xlogy_at_zero"] = lambda: jx.grad(lambda x: jx.scipy.special.xlogy(x, x))(0.0)
    c["grad_sqrt_of_square_at_zero"] = lambda: jx.grad(lambda x: jnp.sqrt(x ** 2))(0.0)
    c["grad_norm_of_zero_vector_axis"] = lambda: jx.grad(lambda x: jnp.sum(
        jnp.linalg.norm(x, axis=0)))(np.zeros((2, 2)))
    c["grad_pow_zero_base_frac"] = lambda: jx.grad(lambda x: x ** 0.5)(0.0)
    c["grad_pow_negative_base_int_exp"] = lambda: jx.grad(lambda x: x ** 3.0)(-2.0)
    c["grad_power_traced_exp_negative_base"] = lambda: jx.grad(
        lambda x, y: jnp.power(x, y), argnums=(0, 1))(-2.0, 2.0)
    c["grad_arctan2_at_origin"] = lambda: jx.grad(lambda y, x: jnp.arctan2(y, x),
                                                  argnums=(0, 1))(0.0, 0.0)
    c["grad_division_by_zero"] = lambda: jx.grad(lambda x: 1.0 / x)(0.0)
    c["grad_round_floor_ceil_sign"] = lambda: jx.grad(lambda x: jnp.sum(
        jnp.round(x) + jnp.floor(x) + jnp.ceil(x) + jnp.sign(x) + jnp.trunc(x)))(d["x3"])
    c["grad_through_int_intermediate"] = lambda: jx.grad(lambda x: jnp.sum(
        x * (x > 0).astype(jnp.float32) + (x * 3.0).astype(jnp.int32) * 1.0))(d["x3"])
    c["grad_floor_divide_mod"] = lambda: jx.grad(lambda x: jnp.sum(x // 1.0 + x % 1.0))(
        d["pos3"])
    c["grad_integer_valued_via_argsort"] = lambda: jx.grad(lambda x: jnp.sum(
        jnp.argsort(x) * x))(d["x3"])
    c["grad_mean_of_empty_slice_free"] = lambda: jx.grad(lambda x: jnp.mean(x[1:]) * x[0])(
        d["x3"])
    c["grad_logsumexp_with_inf"] = lambda: jx.grad(lambda x: jx.scipy.special.logsumexp(x))(
        np.array([0.0, -np.inf, 1.0]))
    c["grad_softmax_with_neg_inf"] = lambda: jx.grad(lambda x: jnp.sum(nn.softmax(x) * jnp.arange(
        3.0)))(np.array([0.0, -np.inf, 1.0]))
    c["grad_exp_overflow"] = lambda: jx.grad(lambda x: jnp.exp(x))(800.0)
    c["grad_tanh_large"] = lambda: jx.grad(lambda x: jnp.sum(jnp.tanh(x)))(
        np.array([30.0, -30.0, 0.0]))
    c["grad_sinc_at_zero"] = lambda: jx.grad(jnp.sinc)(0.0)
    c["grad_logaddexp_equal_inf"] = lambda: jx.grad(lambda x, y: jnp.logaddexp(x, y),
                                                    argnums=(0, 1))(-np.inf, -np.inf)
    c["grad_hypot_at_origin"] = lambda: jx.grad(lambda x, y: jnp.hypot(x, y),
                                                argnums=(0, 1))(0.0, 0.0)
    c["grad_std_constant_input"] = lambda: jx.grad(jnp.std)(np.ones(3))
    c["grad_max_nan_tie"] = lambda: jx.grad(jnp.max)(np.array([1.0, np.nan, 1.0]))
    return c


def composition_cases(jx):
    jnp, lax, d = jx.numpy, jx.lax, _data()
    x3, pos3, x34, v4, m43 = d["x3"], d["pos3"], d["x34"], d["v4"], d["m43"]

    def mlp(p, x):
        return jnp.tanh(x @ p["w"] + p["b"]) @ p["v"]

    params = {"w": m43, "b": x3, "v": pos3}
    c = {}
    c["vmap_grad_pytree_params"] = lambda: jx.vmap(jx.grad(
        lambda p, x: mlp(p, x) ** 2), (None, 0))(params, x34)
    c["vmap_grad_in_axes_1_out_axes_1"] = lambda: jx.vmap(jx.grad(
        lambda p, x: mlp(p, x) ** 2), (None, 1), out_axes=1)(params, x34.T)
    c["grad_vmap_mean_loss"] = lambda: jx.grad(lambda p: jnp.mean(jx.vmap(
        lambda x: mlp(p, x) ** 2)(x34)))(params)
    c["jit_grad_vmap"] = lambda: jx.jit(jx.grad(lambda p, xs: jnp.sum(jx.vmap(
        mlp, (None, 0))(p, xs))))(params, x34)
    c["vmap_jacrev"] = lambda: jx.vmap(jx.jacrev(lambda x: jnp.tanh(x) * x[::-1]))(x34)
    c["vmap_jacfwd_in_axes_none"] = lambda: jx.vmap(jx.jacfwd(
        lambda a, x: a * jnp.sin(x)), (0, None))(x3, pos3)
    c["vmap_hessian_in_axes_1"] = lambda: jx.vmap(jx.hessian(
        lambda x: jnp.sum(x ** 2 * x[0])), in_axes=1)(x34)
    c["grad_of_grad_two_args"] = lambda: jx.grad(jx.grad(lambda x, y: x ** 2 * y ** 3,
                                                         argnums=1), argnums=0)(1.5, 0.5)
    c["grad_of_value_and_grad_value"] = lambda: jx.grad(lambda x: jx.value_and_grad(
        lambda y: jnp.sin(y) * y)(x)[1])(0.6)
    c["jvp_of_grad"] = lambda: jx.jvp(jx.grad(lambda x: jnp.sum(jnp.exp(x) * x)), (x3,), (pos3,))
    c["vjp_of_jvp"] = lambda: jx.vjp(lambda x: jx.jvp(jnp.sin, (x,), (pos3,))[1], x3)[1](x3)
    c["grad_of_jacfwd_trace"] = lambda: jx.grad(lambda x: jnp.trace(jx.jacfwd(
        lambda y: jnp.sin(y) * y)(x)))(x3)
    c["jacrev_of_vmap_in_axes_1"] = lambda: jx.jacrev(lambda w: jx.vmap(
        lambda col: jnp.tanh(col @ w), in_axes=1)(x34))(v4[:3])
    c["vmap_vmap_grad"] = lambda: jx.vmap(jx.vmap(jx.grad(lambda a: jnp.sin(a) * a)))(x34)
    c["vmap_of_linearize_tangent"] = lambda: jx.vmap(lambda x, t: jx.linearize(
        jnp.exp, x)[1](t))(x3, pos3)
    c["vmap_of_vjp"] = lambda: jx.vmap(lambda x, ct: jx.vjp(jnp.tanh, x)[1](ct))(x34, x34)
    c["grad_of_jit_with_static"] = lambda: jx.grad(jx.jit(
        lambda x, n: jnp.sum(x ** n), static_argnums=1))(x3, 3)
    c["jit_of_hessian_vmap"] = lambda: jx.jit(jx.vmap(jx.hessian(
        lambda x: jnp.sum(jnp.cos(x) * x ** 2))))(x34)
    c["per_example_grads_with_aux"] = lambda: jx.vmap(jx.grad(
        lambda w, x: (jnp.dot(w, x) ** 2, jnp.dot(w, x)), has_aux=True), (None, 0))(v4, x34)
    c["grad_of_scan_of_vmap"] = lambda: jx.grad(lambda w: lax.scan(
        lambda cr, row: (cr + jnp.sum(jx.vmap(lambda e: jnp.sin(e * w))(row)), None),
        0.0, x34)[0])(0.8)
    c["vmap_of_grad_of_scan"] = lambda: jx.vmap(jx.grad(lambda w: lax.scan(
        lambda cr, e: (cr * w + e, None), 0.0, v4)[0]))(x3)
    c["vmap_of_grad_of_fori"] = lambda: jx.vmap(jx.grad(lambda w: lax.fori_loop(
        0, 3, lambda i, a: a * w + 1.0, w)))(x3)
    c["vmap_of_grad_of_switch_batched"] = lambda: jx.vmap(jx.grad(lambda x, i: lax.switch(
        i, [jnp.sin, jnp.cos, jnp.tanh], x)), (0, 0))(x3, np.array([2, 0, 1]))
    c["hessian_of_vmap_sum"] = lambda: jx.hessian(lambda x: jnp.sum(jx.vmap(
        lambda v: v ** 3)(x)))(x3)
    c["jvp_of_vmap_of_cond"] = lambda: jx.jvp(lambda x: jx.vmap(lambda v: lax.cond(
        v > 0, jnp.sin, jnp.cos, v))(x), (x3,), (pos3,))
    return c


def error_cases(jx):
    jnp, lax, d = jx.numpy, jx.lax, _data()
    x3, x34, v4 = d["x3"], d["x34"], d["v4"]
    c = {}
    c["err_grad_vector_output"] = lambda: jx.grad(lambda x: jnp.sin(x))(x3)
    c["err_value_and_grad_vector_output"] = lambda: jx.value_and_grad(lambda x: x * 2.0)(x3)
    c["err_grad_int32_array_input"] = lambda: jx.grad(lambda x: jnp.sum(x) * 1.0)(
        np.arange(3, dtype=np.int32))
    c["err_grad_bool_input"] = lambda: jx.grad(lambda b: jnp.where(b, 1.0, 2.0))(np.array(True))
    c["err_grad_int_in_pytree"] = lambda: jx.grad(lambda p: p["x"] * 2.0)({"x": 1.0, "n": 3})
    c["err_grad_complex_output"] = lambda: jx.grad(lambda x: x * 1j)(1.0)
    c["err_grad_list_output"] = lambda: jx.grad(lambda x: [x, x])(1.0)
    c["err_grad_argnums_tuple_out_of_range"] = lambda: jx.grad(
        lambda a, b: a * b, argnums=(0, 3))(1.0, 2.0)
    c["err_has_aux_triple"] = lambda: jx.grad(lambda x: (x * 2.0, 1.0, 2.0), has_aux=True)(1.0)
    c["err_has_aux_scalar"] = lambda: jx.value_and_grad(lambda x: x * 2.0, has_aux=True)(1.0)
    c["err_grad_while_pytree"] = lambda: jx.grad(lambda x: lax.while_loop(
        lambda s: s[1] < 3, lambda s: (s[0] * 2.0, s[1] + 1), (x, 0))[0])(1.0)
    c["err_jacrev_while"] = lambda: jx.jacrev(lambda x: lax.while_loop(
        lambda v: v[0] < 3.0, lambda v: v * 2.0, x))(np.array([1.0, 2.0]))
    c["err_vjp_while"] = lambda: jx.vjp(lambda x: lax.while_loop(
        lambda v: v < 3.0, lambda v: v * 2.0, x), 1.0)[1](1.0)
    c["err_grad_fori_traced_upper_in_jit"] = lambda: jx.jit(jx.grad(lambda x, n: lax.fori_loop(
        0, n, lambda i, a: a * x, x)))(1.2, 3)
    c["err_vmap_size_mismatch_in_pytree"] = lambda: jx.vmap(lambda p: p["a"] + p["b"][0])(
        {"a": x3, "b": v4})
    c["err_vmap_size_mismatch_axis_1"] = lambda: jx.vmap(lambda a, b: a + b, (1, 0))(x34, x34)
    c["err_vmap_axis_size_disagrees"] = lambda: jx.vmap(lambda a: a, axis_size=5)(x3)
    c["err_vmap_in_axes_tuple_too_long"] = lambda: jx.vmap(lambda a: a, (0, 0))(x3)
    c["err_vmap_in_axes_dict_wrong_keys"] = lambda: jx.vmap(
        lambda p: p["a"], in_axes=({"z": 0},))({"a": x3})
    c["err_vmap_in_axes_negative_out_of_range"] = lambda: jx.vmap(lambda a: a, in_axes=-3)(x34)
    c["err_vmap_out_axes_structure"] = lambda: jx.vmap(lambda a: (a, a), out_axes=(0, 0, 0))(x3)
    c["err_vmap_out_axes_scalar_too_large"] = lambda: jx.vmap(lambda a: a.sum(), out_axes=1)(x34)
    c["err_vmap_python_int_mapped"] = lambda: jx.vmap(lambda a, n: a * n)(x3, 3)
    c["err_vmap_in_axes_string"] = lambda: jx.vmap(lambda a: a, in_axes="0")(x3)
    c["err_vmap_empty_args_no_axis_size"] = lambda: jx.vmap(lambda: 1.0)()
    c["err_jvp_int_tangent_for_float"] = lambda: jx.jvp(jnp.sin, (x3,), (np.arange(3),))
    c["err_vjp_cotangent_int"] = lambda: jx.vjp(jnp.sin, x3)[1](np.arange(3))
    c["err_vjp_cotangent_structure"] = lambda: jx.vjp(lambda x: (x, x), x3)[1](x3)
    c["err_custom_vjp_bwd_not_tuple"] = lambda: jx.grad(_bwd_not_tuple(jx))(1.0)
    c["err_custom_jvp_wrong_tangent_shape"] = lambda: jx.grad(lambda x: jnp.sum(
        _bad_jvp_shape(jx)(x)))(x3)
    c["err_switch_branch_outputs_differ"] = lambda: jx.vmap(lambda i: lax.switch(
        i, [lambda: jnp.zeros(2), lambda: jnp.zeros((2, 1))]))(np.array([0, 1]))
    c["err_scan_carry_shape_changes"] = lambda: lax.scan(
        lambda cr, e: (jnp.stack([cr, cr]), e), 0.0, x3)
    c["err_cond_pred_not_scalar"] = lambda: jx.jit(lambda x: lax.cond(
        x > 0, jnp.sin, jnp.cos, x))(x3)
    c["err_grad_not_callable"] = lambda: jx.grad(3.0)(1.0)
    c["err_jacfwd_argnums_out_of_range"] = lambda: jx.jacfwd(lambda a: a, argnums=(0, 1))(x3)
    c["err_hessian_argnums_out_of_range"] = lambda: jx.hessian(
        lambda a: jnp.sum(a ** 3), argnums=1)(x3)
    c["fori_loop_float_bounds"] = lambda: lax.fori_loop(0.0, 3.0, lambda i, a: a + 1.0, jnp.zeros(()))
    return c


def _bwd_not_tuple(jx):
    @jx.custom_vjp
    def f(x):
        return x * 2.0
    f.defvjp(lambda x: (x * 2.0, None), lambda res, ct: ct * 2.0)
    return f


def _bad_jvp_shape(jx):
    @jx.custom_jvp
    def f(x):
        return x * 2.0

    @f.defjvp
    def f_jvp(primals, tangents):
        return f(primals[0]), jx.numpy.zeros(2)
    return f


GROUPS = (vmap_axes_cases, vmap_control_cases, vmap_collective_cases, vmap_random_cases, vmap_index_cases,
          vmap_linalg_cases, grad_api_cases, pytree_cases, fwd_rev_cases, jacobian_cases,
          custom_cases, checkpoint_cases, grad_control_cases, python_control_cases, kink_cases,
          composition_cases, error_cases)

# float32 answers of these go through more rounding steps (factorisations, long loops)
LOOSE_F32 = ("linalg", "solve", "inv", "cholesky", "eigh", "eigvalsh", "svd", "det", "qr",
             "cho_", "matrix_power", "hessian", "jac", "scan", "fori", "rnn", "mlp", "truncated",
             "vmap_grad_")


def cases(jx) -> dict:
    out = {}
    for group in GROUPS:
        out.update(group(jx))
    return out


def tree_shape(x):
    """The container structure of a result, leaves as '*' (the same walk on both sides)."""
    if isinstance(x, dict):
        return {str(k): tree_shape(v) for k, v in sorted(x.items())}
    if isinstance(x, (tuple, list)):
        return [tree_shape(v) for v in x]
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return {type(x).__name__: [tree_shape(getattr(x, f.name)) for f in
                                   dataclasses.fields(x)]}
    if isinstance(x, Scaled):
        return {"Scaled": [tree_shape(x.value)], "factor": x.factor}
    return None if x is None else "*"
