"""Shared vmap test programs: each a function, its batched arguments, in_axes and out_axes.

Used by tests/test_vmap.py (against a Python loop) and tools/record_jax_vmap.py (against
JAX). `ops` is a module with jnp's names (transpile.numpy or jax.numpy), `lax` likewise.
"""
import numpy as np


def _rng(seed=0):
    return np.random.default_rng(seed)


def cases(tnp, lax):
    """name -> (function, args, in_axes, out_axes)."""
    r = _rng()
    x34 = r.standard_normal((3, 4))
    x345 = r.standard_normal((3, 4, 5))
    v4 = r.standard_normal(4)
    ints = r.integers(-20, 20, (5, 6))
    spd = np.einsum("bij,bkj->bik", r.standard_normal((3, 4, 4)), r.standard_normal((3, 4, 4)))
    spd = spd @ spd.transpose(0, 2, 1) + 4 * np.eye(4)
    c = {}
    c["elementwise_shared_operand"] = (lambda x, y: tnp.sin(x) * y + 1.0, (x34, v4), (0, None), 0)
    c["elementwise_axes_1_0"] = (lambda x, y: tnp.exp(x) - y, (x34, r.standard_normal((4, 3))),
                                 (1, 0), 1)
    c["scalar_member_times_vector"] = (lambda a, v: a * v, (np.arange(3.0), v4), (0, None), 0)
    c["where_compare"] = (lambda x, y: tnp.where(x > 0, x, 2 * y), (x34, x34[::-1]), 0, 0)
    c["integer_ops"] = (lambda a: (a // 3) % 4 + tnp.abs(a), (ints,), 0, 0)
    c["cast_to_int32"] = (lambda x: (x * 10).astype(np.int32), (x34,), 0, 0)
    c["cast_to_float32"] = (lambda x: tnp.tanh(x.astype(np.float32)), (x34,), 1, 0)
    c["reshape_transpose"] = (lambda x: x.reshape(2, 6).T, (r.standard_normal((12, 5)),), 1, 0)
    c["broadcast_to"] = (lambda x: tnp.broadcast_to(x, (3, 4)) * 2.0, (x34,), 0, 0)
    c["slices"] = (lambda x: x[1:4:2] + x[::-1][:2], (x34,), 0, 0)
    c["expand_squeeze"] = (lambda x: tnp.squeeze(tnp.expand_dims(x, 0), 0)[None, :, None],
                           (x34,), 0, 0)
    c["concatenate_shared"] = (lambda x, y: tnp.concatenate([x, y, x]), (x34, v4), (0, None), 0)
    c["stack_out_axis_1"] = (lambda x, y: tnp.stack([x, y], axis=1), (x34, x34 * 2), 0, 1)
    c["sum_axis0_max_last"] = (lambda x: x.sum(axis=0) + x.max(axis=-1).sum(),
                               (x345,), 1, 0)
    c["mean_prod_all"] = (lambda x: (x.mean(), x.prod(axis=1), (x > 0).all(), (x > 1).any(1)),
                          (x345,), 2, 0)
    c["argmax_argmin"] = (lambda x: (tnp.argmax(x, axis=0), tnp.argmin(x)), (x345,), 0, 0)
    c["cumsum_cumprod"] = (lambda x: (tnp.cumsum(x, axis=0), tnp.cumprod(x, axis=1)),
                           (x345,), 2, 0)
    c["sort_argsort"] = (lambda x: (tnp.sort(x), tnp.argsort(x, axis=0)), (x345,), 1, 0)
    c["matvec_shared_matrix"] = (lambda a, v: a @ v, (x34, r.standard_normal((5, 4))),
                                 (None, 0), 0)
    c["vecmat_shared_matrix"] = (lambda v, a: v @ a, (r.standard_normal((5, 3)), x34),
                                 (0, None), 0)
    c["matmul_both_batched"] = (lambda a, b: a @ b, (x345, r.standard_normal((3, 5, 2))), 0, 0)
    c["matmul_shared_rhs"] = (lambda a, b: a @ b, (x345, r.standard_normal((5, 2))),
                              (0, None), 0)
    c["matmul_shared_lhs"] = (lambda a, b: a @ b, (x34, r.standard_normal((6, 4, 2))),
                              (None, 0), 1)
    c["einsum_outer"] = (lambda a, b: tnp.einsum("i,j->ij", a, b), (x34, x34.T), (0, 1), 0)
    c["solve_det_inv"] = (lambda a, b: (tnp.linalg.solve(a, b), tnp.linalg.det(a),
                                        tnp.linalg.inv(a)),
                          (spd, r.standard_normal((3, 4))), 0, 0)
    c["cholesky_slogdet"] = (lambda a: (tnp.linalg.cholesky(a), tnp.linalg.slogdet(a)[1]),
                             (spd,), 0, 0)
    c["eigvalsh_svdvals"] = (lambda a: (tnp.linalg.eigvalsh(a),
                                        tnp.linalg.svd(a, compute_uv=False)), (spd,), 0, 0)
    c["gather_batched_index"] = (lambda x, i: x[i], (x34, np.array([0, 3, -1])), 0, 0)
    c["gather_shared_index"] = (lambda x, i: x[:, i], (x345, np.array([4, 0, 2])), (0, None), 0)
    c["gather_shared_operand"] = (lambda x, i: x[i], (v4, np.array([[1, 2], [3, 0], [0, 0]])),
                                  (None, 0), 0)
    c["gather_both_axis1"] = (lambda x, i: x[:, i], (x345, np.array([[1, 2], [4, 0], [3, 3]])),
                              0, 0)
    c["dynamic_slice_batched_start"] = (lambda x, i: lax.dynamic_slice(x, (i, 1), (2, 3)),
                                        (x345, np.array([0, 3, 7])), 0, 0)
    c["dynamic_slice_shared_start"] = (lambda x, i: lax.dynamic_slice(x, (i, 1), (2, 3)),
                                       (x345, 1), (0, None), 0)
    c["dynamic_update_slice_batched"] = (
        lambda x, u, i: lax.dynamic_update_slice(x, u, (i, 2)),
        (x345, r.standard_normal((3, 2, 2)), np.array([5, 1, 0])), 0, 0)
    c["at_set_add"] = (lambda x, i, v: (x.at[i].set(v), x.at[i].add(v), x.at[i].max(v)),
                       (x34, np.array([0, 3, 9]), np.array([5.0, -6.0, 7.0])), 0, 0)
    c["at_add_duplicates_shared_x"] = (lambda x, i: x.at[i].add(1.0),
                                       (v4, np.array([[0, 0], [1, 3], [2, 2]])), (None, 0), 0)
    c["iota_arange"] = (lambda x: tnp.arange(4) * x + tnp.zeros_like(x), (x34,), 0, 0)
    c["cond_shared_pred"] = (lambda x, p: lax.cond(p, lambda t: t * 2, lambda t: t - 1, x),
                             (x34, True), (0, None), 0)
    c["cond_batched_pred"] = (lambda x: lax.cond(x.sum() > 0, lambda t: tnp.sin(t),
                                                 lambda t: t * 3, x), (x34,), 0, 0)
    c["switch_batched_index"] = (
        lambda i, x: lax.switch(i, [lambda t: t + 1, lambda t: t * 2, lambda t: -t], x),
        (np.array([0, 1, 2, 5, -1], np.int32), r.standard_normal((5, 2))), 0, 0)
    c["while_batched_pred"] = (
        lambda n: lax.while_loop(lambda s: s[0] > 1,
                                 lambda s: (tnp.where(s[0] % 2 == 0, s[0] // 2, 3 * s[0] + 1),
                                            s[1] + 1), (n, 0)),
        (np.array([1, 6, 7, 27, 2]),), 0, 0)
    c["while_shared_pred"] = (
        lambda x: lax.while_loop(lambda s: s[0] < 5, lambda s: (s[0] + 1, s[1] * 1.5 + 1),
                                 (0, x)), (x34,), 0, 0)
    c["fori_batched_carry"] = (lambda x: lax.fori_loop(0, 4, lambda i, c: c * 2 + i, x),
                               (x34,), 0, 0)
    c["fori_batched_bound"] = (lambda n, x: lax.fori_loop(0, n, lambda i, c: c + i * x, x),
                               (np.array([0, 3, 1, 5]), np.arange(4.0)), 0, 0)
    c["scan_batched_xs"] = (lambda xs: lax.scan(lambda c, x: (c + x, c * x), 0.0, xs),
                            (x34,), 1, 0)
    c["scan_batched_init_reverse"] = (
        lambda c0, xs: lax.scan(lambda c, x: (c * 0.5 + x, c), c0, xs, reverse=True),
        (v4, np.arange(5.0)), (0, None), 0)
    c["nested_cond_in_scan"] = (
        lambda xs: lax.scan(lambda c, x: (lax.cond(x > 0, lambda a: a + x, lambda a: a * 0.5,
                                                   c), c), 1.0, xs)[0],
        (x34,), 0, 0)
    c["pytree_in_axes"] = (lambda p, x: tnp.tanh(x @ p["w"] + p["b"]),
                           ({"w": r.standard_normal((4, 2)), "b": r.standard_normal((6, 2))},
                            x34), ({"w": None, "b": 0}, None), 0)
    c["out_axes_tuple_none"] = (lambda x, y: (x * 2, y + 1), (x34, v4), (0, None), (-1, None))
    c["python_number_output"] = (lambda x: (x, 2.5), (v4,), 0, 0)
    c["negative_in_axis"] = (lambda x: x.sum(), (x345,), -1, 0)
    c.update(edge_cases(tnp, lax))
    return c


def edge_cases(tnp, lax):
    """Batch axes in unusual places, and values that become batched only inside a loop."""
    r = _rng(1)
    x345 = r.standard_normal((3, 4, 5))
    x34 = r.standard_normal((3, 4))
    spd = np.eye(4) * 3 + 0.1 * np.ones((4, 4))
    c = {}
    c["slice_rev_batch_in_middle"] = (lambda x: x[1:3, ::-1][:, 1:] * 2, (x345,), 1, 1)
    c["reduce_keeps_batch_in_middle"] = (lambda x: x.sum(axis=0) - x.min(axis=1).sum(),
                                         (x345,), 1, 0)
    c["gather_operand_batched_after_axis"] = (lambda x, i: x[i], (x345, np.array([2, 0, 2])),
                                              (2, None), 0)
    c["gather_index_batched_axis_1"] = (lambda x, i: x[:, i], (x34, np.array([[0, 3], [1, 1]])),
                                        (None, 1), 0)
    c["dynamic_slice_shared_operand"] = (lambda x, i: lax.dynamic_slice(x, (i,), (2,)),
                                         (np.arange(6.0), np.array([0, 5, 3, 1])), (None, 0), 0)
    c["dynamic_update_shared_operand"] = (
        lambda x, u, i: lax.dynamic_update_slice(x, u, (i,)),
        (np.arange(6.0), r.standard_normal((4, 2)), np.array([0, 5, 3, 1])), (None, 0, 0), 0)
    c["dynamic_update_shared_start"] = (
        lambda x, u: lax.dynamic_update_slice(x, u, (1, 2)),
        (x345, r.standard_normal((2, 2))), (0, None), 0)
    c["at_set_shared_index"] = (lambda x, v: x.at[1].set(v).at[-1].multiply(3.0),
                                (x34, np.arange(3.0)), (0, 0), 0)
    c["at_min_batched_values_only"] = (lambda x, v: x.at[np.array([0, 2, 0])].min(v),
                                       (np.zeros(4), r.standard_normal((5, 3))), (None, 0), 0)
    c["solve_shared_matrix"] = (lambda a, b: tnp.linalg.solve(a, b), (spd, x34[:, :4]),
                                (None, 0), 0)
    c["cond_one_branch_batched"] = (
        lambda x, p: lax.cond(p, lambda t: t * 0.0 + 1.0, lambda t: t, x),
        (x34, np.array([True, False, True])), (0, 0), 0)
    c["cond_shared_pred_shared_result"] = (
        lambda x, y, p: lax.cond(p, lambda a, b: (a + 1, b), lambda a, b: (a - 1, b * 2), x, y),
        (x34, 2.0, False), (0, None, None), 0)
    c["while_carry_batched_by_body"] = (
        lambda x: lax.while_loop(lambda s: s[0] < 3, lambda s: (s[0] + 1, s[1] + x.sum(), s[2]),
                                 (0, 0.0, 1.0)), (x34,), 0, 0)
    c["cond_inside_while_batched_pred"] = (
        lambda x: lax.while_loop(
            lambda s: s[1] < 20,
            lambda s: (lax.cond(s[0] > 10, lambda v: v - 7.0, lambda v: v * 2.0 + 1.0, s[0]),
                       s[1] + tnp.where(s[0] > 5, 3, 1)), (x, 0)),
        (np.array([0.5, 3.0, 11.0, -2.0]),), 0, 0)
    c["scan_carry_batched_by_xs"] = (
        lambda xs: lax.scan(lambda cs, x: ((cs[0] + x, cs[1] + 1), cs[0] * 2), (0.0, 0), xs),
        (x34,), 0, 0)
    c["scan_shared_xs_batched_capture"] = (
        lambda a, xs: lax.scan(lambda cc, x: (cc * a + x, cc), 0.0, xs),
        (np.array([0.5, 1.0, -1.0]), np.arange(4.0)), (0, None), 0)
    c["fori_batched_lower"] = (lambda lo, x: lax.fori_loop(lo, 4, lambda i, cc: cc * 2 + i, x),
                               (np.array([0, 2, 4, 6]), np.ones(4)), (0, 0), 0)
    c["nested_vmap_inside"] = (lambda x: x.sum() * x, (x345,), 1, 2)
    c["bool_and_int_outputs"] = (lambda x: (x > 0, (x > 0).sum(), tnp.argmax(x)), (x34,), 1, 0)
    c["float32_weak_scalars"] = (lambda x, s: x * s + 1, (x34.astype(np.float32), 2.5),
                                 (0, None), 0)
    return c
