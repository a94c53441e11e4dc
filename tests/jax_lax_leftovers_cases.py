"""Programs shared by tools/record_jax_lax_leftovers.py (which runs them with JAX 0.10, x64 on,
and stores the results in tests/data/jax_lax_leftovers.json) and
tests/test_jax_lax_leftovers.py (which runs them with transpile under JAX's dtype rules and
compares): what JAX's own lax_control_flow_test.py and lax_test.py reached that transpile did
differently -- linearize through a checkpoint whose body closes over a constant, gradients of
a vmapped cond whose untaken branch has an infinite derivative, a zero-length scan under
disable_jit, loop carries the body passes through unchanged under vmap with out_axes=None,
associative_scan's order of combination, select_n with indices out of range, axis_index and
axis_size inside loops over unbatched carries, linear_transpose.

Each group is a function of (jnp, lax, api) -- api being `jax` or `transpile` -- returning
name -> (make, args, jittable), as in tests/jax_laxgaps_cases.py.
"""
from __future__ import annotations

from functools import partial

import numpy as np

D = np.array([0.3, -1.1])                        # a constant the bodies close over
C4 = np.array([0.5, -0.25, 1.5, 2.0])
AS = np.linspace(-1.0, 1.0, 15).reshape(5, 3)
X2 = np.array([2.14, 2.14])


def _c(make, *args, jit=True):
    return make, args, jit


def _checkpoint_linearize(jnp, lax, api):
    def step(c, a):
        b = jnp.cos(jnp.sum(jnp.sin(a)) + jnp.sum(jnp.cos(c)) + jnp.sum(D))
        return jnp.sin(c * b), b

    def scan_lin(c, as_):
        f = api.checkpoint(partial(lax.scan, step))
        _, f_lin = api.linearize(f, c, as_)
        return f_lin(c, as_)

    def switch_lin(x):
        def g(x):
            index = lax.convert_element_type(x[0] < 2, np.int32)
            body = api.checkpoint(lambda i, v: lax.switch(
                i, [lambda v: jnp.cos(jnp.sin(v)) * D, lambda v: v * 2.0], v))
            return body(index, x).sum()
        y, g_lin = api.linearize(g, x)
        return y, g_lin(x)

    def while_lin(x):
        loop = api.checkpoint(partial(lax.while_loop, lambda v: v[0] < 8.0,
                                      lambda v: v * v + D))
        y, lin = api.linearize(loop, x)
        return y, lin(x)
    return {
        "checkpoint_scan_closure_linearize": _c(scan_lin, C4, AS, jit=False),
        "checkpoint_switch_closure_linearize": _c(switch_lin, X2, jit=False),
        "checkpoint_while_closure_linearize": _c(while_lin, np.array([1.5, 0.5]), jit=False),
    }


def _vmapped_cond_grads(jnp, lax, api):
    eps = 1e-3

    def safe_sqrt(x):
        return lax.cond(x < eps, lambda _: eps, lambda _: jnp.sqrt(x), ())

    def safe_log_operand(x):
        return lax.cond(x > 0, jnp.log, lambda v: v * 0.0, x)

    def three_way(i, x):
        return lax.switch(i, [jnp.sqrt, lambda v: v * 3.0, lambda v: 1.0 / v], x)
    def unbatched_weight(w, xs):
        def member(x):
            return lax.cond(x > 0, lambda w: w * x, lambda w: jnp.sqrt(w - 2.0), w)
        return api.vmap(member)(xs).sum()
    return {
        "grad_vmap_cond_unbatched_operand": _c(api.grad(unbatched_weight), 2.0,
                                               np.array([1.0, 3.0, 0.5])),
        "grad_vmap_cond_sqrt_closure": _c(
            api.grad(lambda x: api.vmap(safe_sqrt)(x).sum()), np.array([0.0, 4.0, 0.0, 9.0])),
        "grad_vmap_cond_log_operand": _c(
            api.grad(lambda x: api.vmap(safe_log_operand)(x).sum()),
            np.array([0.0, 2.0, -1.0])),
        "grad_vmap_switch_three_way": _c(
            api.grad(lambda x: api.vmap(three_way)(np.array([0, 1, 2, 1]), x).sum()),
            np.array([0.0, 0.0, 2.0, 5.0])),
        "vmap_cond_sqrt_values": _c(api.vmap(safe_sqrt), np.array([0.0, 4.0])),
    }


def _zero_length_scan(jnp, lax, api):
    def under_disable_jit(xs):
        with api.disable_jit():
            return lax.scan(lambda c, x: (c + x, x), 0.0, xs)

    def fori_under_disable_jit(x):
        with api.disable_jit():
            return lax.fori_loop(0, 0, lambda i, c: c + i, x)
    return {
        "scan_empty_disable_jit_raises": _c(under_disable_jit, np.zeros(0), jit=False),
        "scan_empty_with_jit": _c(lambda xs: lax.scan(lambda c, x: (c + x, x), 0.0, xs),
                                  np.zeros(0)),
        "fori_empty_disable_jit": _c(fori_under_disable_jit, 1.5, jit=False),
    }


def _read_only_carries(jnp, lax, api):
    def while_keeps_w(w, x, c_max):
        def body(val):
            c, x, w = val
            return c + 1, x @ w, w
        _, x, w = lax.while_loop(lambda val: val[0] < c_max, body, (0, x, w))
        return w, x

    def scan_in_cond(x, y):
        def g(_, y):
            y, _ = lax.scan(lambda y, _: (y, None), y, None, length=1)
            return y
        return lax.cond(x < 0, g, g, x, y)

    def fori_keeps_w(w, x, n):
        return lax.fori_loop(0, n, lambda i, c: (c[0] * 0.5 + c[1], c[1]), (x, w))
    def static_fori(x):       # float bounds from the argument; the body passes c through
        return lax.fori_loop(x, x + 2.0, lambda i, c: c, x)
    return {
        "grad_fori_traced_float_bounds": _c(api.grad(static_fori), 1.0),
        "linearize_fori_traced_float_bounds": _c(
            lambda x: api.linearize(static_fori, x)[1](2.0), 1.0, jit=False),
        "vmap_while_read_only_carry": _c(
            api.vmap(while_keeps_w, in_axes=(None, 0, 0), out_axes=(None, 0)),
            np.full((2, 2), 0.5), np.arange(8.0).reshape(4, 2), np.arange(4)),
        "vmap_scan_read_only_carry_in_cond": _c(
            api.vmap(scan_in_cond, (0, None), None), np.array([-1.0, 0.0, 2.0]), 3.0),
        "vmap_fori_read_only_carry": _c(
            api.vmap(fori_keeps_w, in_axes=(None, 0, 0), out_axes=(0, None)),
            np.array([1.0, 2.0]), np.ones((3, 2)), np.array([1, 2, 3])),
    }


def _associative_scans(jnp, lax, api):
    def combine(a, b):
        m1, v1 = a
        m2, v2 = b
        return m1 + m2, api.scipy.linalg.solve(m1, v2) + api.scipy.linalg.solve(m2, v1)
    ms = np.repeat((np.eye(2) * 2.0 + 0.5).reshape(1, 2, 2), 6, axis=0)
    vs = np.arange(12.0).reshape(6, 2)
    # float32 sums of mixed magnitudes: their rounding shows the order of combination
    mixed = (np.cos(np.arange(13.0)) * 10.0 ** (np.arange(13) % 5 - 2)).astype(np.float32)
    # the solves run eagerly only: compiling the batched solve costs tens of seconds, and
    # the order of combination under jit is the f32 sum's and axis1's to show
    return {
        "associative_scan_vmapped_solve": _c(
            lambda m, v: lax.associative_scan(api.vmap(combine), (m, v)), ms, vs, jit=False),
        "associative_scan_reverse_solve": _c(
            lambda m, v: lax.associative_scan(api.vmap(combine), (m, v), reverse=True),
            ms[:5], vs[:5], jit=False),
        "associative_scan_f32_sum_order": _c(
            lambda x: lax.associative_scan(lax.add, x), mixed),
        "associative_scan_axis1": _c(
            lambda x: lax.associative_scan(lambda a, b: a * 0.5 + b, x, axis=1),
            np.arange(21.0).reshape(3, 7)),
    }


def _named_axes(jnp, lax, api):
    def wait_for_index(x):
        return lax.while_loop(lambda v: v < lax.axis_index("i"), lambda v: v + 2, x)

    def scan_adds_index(x):
        return lax.scan(lambda c, _: (c + lax.axis_index("i"), None), x, None, length=3)[0]

    def size_through_scan():
        return lax.scan(lambda c, _: (c + lax.axis_size("i"), None), 0, None, length=2)[0]

    def nested_sizes(x):
        return api.vmap(lambda y: y * lax.axis_size(("i", "j")), axis_name="j")(x)
    ints = np.zeros(4, np.int32)
    return {
        "vmap_while_axis_index_unbatched_carry": _c(
            api.vmap(lambda _, x: wait_for_index(x), axis_name="i", in_axes=(0, None)),
            ints, np.int32(0)),
        "vmap_jit_while_axis_index": _c(
            api.vmap(lambda _, x: api.jit(wait_for_index)(x), axis_name="i",
                     in_axes=(0, None)), ints, np.int32(1)),
        "vmap_cond_on_axis_index": _c(
            api.vmap(lambda _, x: lax.cond(lax.axis_index("i") > 1, lambda v: v + 1.0,
                                           lambda v: v * 3.0, x),
                     axis_name="i", in_axes=(0, None)), ints, 2.0),
        "vmap_scan_axis_index_unbatched_carry": _c(
            api.vmap(lambda _, x: scan_adds_index(x), axis_name="i", in_axes=(0, None)),
            np.zeros(3, np.int32), np.int32(0)),
        "vmap_axis_size_in_scan": _c(
            lambda: api.vmap(size_through_scan, axis_name="i", axis_size=3, out_axes=None)()),
        "vmap_axis_size_of_two_names": _c(
            api.vmap(nested_sizes, axis_name="i"), np.ones((3, 2))),
    }


def _linear_transposes(jnp, lax, api):
    f32 = api.ShapeDtypeStruct(shape=(), dtype=np.dtype(np.float32))

    def of_linearized(x, ct):
        _, lin = api.linearize(lambda v: jnp.sin(v) * D, x)
        return api.linear_transpose(lin, x)(ct)

    def in_vmapped_cond(xs):
        def member(x):
            _, lin = api.linearize(jnp.sin, x)
            return lax.cond(x[0] > 0.0, lambda v: api.linear_transpose(lin, v)(v)[0],
                            lambda v: v, x)
        return api.vmap(member)(xs)
    return {
        "linear_transpose_structs": _c(
            lambda ct: api.linear_transpose(lambda x, y: 0.5 * x - 0.5 * y, f32, f32)(ct),
            np.float32(1.0)),
        "linear_transpose_pytree_output": _c(
            lambda a, b: api.linear_transpose(
                lambda x: {"a": x[:2] * 3.0, "b": jnp.sum(x)}, np.zeros(3))({"a": a, "b": b}),
            np.array([1.0, -2.0]), 2.0),
        "linear_transpose_ignored_float32_input": _c(
            lambda ct: api.linear_transpose(lambda x, y: x * 2.0, np.zeros(2),
                                            np.zeros(3, np.float32))(ct), np.ones(2)),
        "linear_transpose_of_linearized": _c(of_linearized, C4[:2], np.array([1.0, 3.0]),
                                             jit=False),
        "linear_transpose_in_vmapped_cond": _c(in_vmapped_cond, np.array([[0.5, 1.0],
                                                                          [-1.0, 2.0]]),
                                               jit=False),
        "linear_transpose_int_output_raises": _c(
            lambda: api.linear_transpose(lambda x: x.astype(np.int32), 1.0), jit=False),
    }


def _select_n_out_of_range(jnp, lax, api):
    which = np.array([[-3, -1, 0], [1, 2, 7]], np.int32)
    cases = [np.full((2, 3), k * 1.5 - 2.0, np.float32) for k in range(6)]
    return {
        "select_n_two_cases_out_of_range": _c(lax.select_n, which, *cases[:2]),
        "select_n_three_cases_out_of_range": _c(lax.select_n, which, *cases[:3]),
        "select_n_six_int_cases_out_of_range": _c(
            lax.select_n, which, *[c.astype(np.int32) for c in cases]),
        "select_n_scalar_which_below": _c(lax.select_n, np.int32(-2), *cases[:3]),
    }


GROUPS = (_select_n_out_of_range, _linear_transposes, _checkpoint_linearize, _vmapped_cond_grads,
          _zero_length_scan, _read_only_carries, _associative_scans, _named_axes)
