"""A third table of transformation programs, for what #18 left over after the second
(tests/transform_cases2.py): the derivative of det at singular matrices (JAX's adjugate),
`jax.scipy.linalg.expm` and its gradient, `lax.pmax`/`lax.pmin` over a named vmap axis,
and `pure_callback` called eagerly. JAX 0.10.2's answers are recorded by
tools/record_jax_transforms3.py in tests/data/jax_transforms3.json and compared by
tests/test_transform_matrix3.py, in the same three settings as the second table.

Each case is a function of no arguments written once against a JAX-like module `jx`.
"""
from __future__ import annotations

import numpy as np


def _data():
    r = np.random.default_rng(1818)
    return {
        # rank 2: the third column is the sum of the first two (LU's last pivot is zero)
        "rank2": np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]]),
        "rank1": np.outer([1.0, 2.0, 3.0], [1.0, -1.0, 2.0]),
        "sing2": np.array([[1.0, 2.0], [2.0, 4.0]]),
        "regular": r.standard_normal((3, 3)),
        "small": np.array([[0.1, 0.5], [-0.3, 0.2]]),
        "m4": r.standard_normal((4, 4)),
        "x3": np.array([1.0, 3.0, 2.0]),
        "x34": r.standard_normal((3, 4)),
    }


def det_cases(jx):
    jnp, d = jx.numpy, _data()
    det = jnp.linalg.det
    c = {}
    c["det_grad_rank_n_minus_1"] = lambda: jx.grad(det)(d["rank2"])
    c["det_grad_singular_2x2"] = lambda: jx.grad(det)(d["sing2"])
    c["det_grad_rank1_is_zero"] = lambda: jx.grad(det)(d["rank1"])
    c["det_grad_zero_matrix"] = lambda: jx.grad(det)(np.zeros((3, 3)))
    c["det_jit_grad_singular"] = lambda: jx.jit(jx.grad(det))(d["rank2"])
    c["det_vmap_grad_singular_and_regular"] = lambda: jx.vmap(jx.grad(det))(
        np.stack([d["rank2"], d["regular"], np.eye(3)]))
    c["det_jvp_singular"] = lambda: jx.jvp(det, (d["rank2"],), (np.ones((3, 3)),))
    c["det_grad_regular"] = lambda: jx.grad(det)(d["regular"])
    c["det_hessian_regular"] = lambda: jx.hessian(det)(d["regular"][:2, :2])
    c["det_value_and_grad_of_product_singular"] = lambda: jx.value_and_grad(
        lambda a: det(a @ a.T))(d["rank2"])
    return c


def expm_cases(jx):
    jnp, d = jx.numpy, _data()
    expm = jx.scipy.linalg.expm
    c = {}
    c["expm_small_norm"] = lambda: expm(d["small"])
    # 1-norms that pick each Pade degree, and then halvings
    for scale in (0.002, 0.05, 0.2, 0.5, 1.0, 4.0, 30.0):
        c[f"expm_scaled_{scale}"] = lambda scale=scale: expm(scale * d["m4"])
    c["expm_batched"] = lambda: expm(np.stack([d["small"], -2.0 * d["small"]]))
    c["expm_upper_triangular"] = lambda: expm(jnp.triu(d["m4"]), upper_triangular=True)
    c["expm_int_input"] = lambda: expm(np.array([[0, 1], [-1, 0]]))
    c["expm_too_many_squarings_nan"] = lambda: expm(np.array([[1e6, 0.0], [0.0, 1.0]]))
    c["expm_max_squarings_small"] = lambda: expm(30.0 * d["m4"], max_squarings=2)
    c["expm_grad_sum"] = lambda: jx.grad(lambda a: expm(a).sum())(d["small"])
    c["expm_grad_trace_scaled"] = lambda: jx.grad(lambda a: jnp.trace(expm(a)))(3.0 * d["m4"])
    c["expm_jit_grad"] = lambda: jx.jit(jx.grad(
        lambda a: jnp.sum(expm(a) ** 2)))(0.5 * d["m4"])
    c["expm_jvp"] = lambda: jx.jvp(expm, (d["small"],), (np.ones((2, 2)),))
    c["expm_vmap_grad"] = lambda: jx.vmap(jx.grad(lambda a: expm(a)[0, 1]))(
        np.stack([d["small"], 0.1 * d["m4"][:2, :2]]))
    c["err_expm_not_square"] = lambda: expm(np.ones((2, 3)))
    return c


def collective_cases(jx):
    jnp, lax, d = jx.numpy, jx.lax, _data()
    x3, x34 = d["x3"], d["x34"]
    c = {}
    c["vmap_pmax_centre"] = lambda: jx.vmap(lambda x: x - lax.pmax(x, "i"), axis_name="i")(x3)
    c["vmap_pmin_rows"] = lambda: jx.vmap(lambda x: lax.pmin(x, "i"), axis_name="i")(x34)
    c["vmap_pmin_int"] = lambda: jx.vmap(lambda x: lax.pmin(x, "i"), axis_name="i")(
        np.array([4, -3, 2]))
    c["jit_vmap_pmax_softmax"] = lambda: jx.jit(jx.vmap(
        lambda x: jnp.exp(x - lax.pmax(x, "b")) / lax.psum(jnp.exp(x - lax.pmax(x, "b")), "b"),
        axis_name="b"))(x3)
    c["vmap_pmax_tuple_of_names"] = lambda: jx.vmap(jx.vmap(
        lambda x: lax.pmax(x, ("i", "j")), axis_name="i"), axis_name="j")(x34)
    c["vmap_pmax_inner_name_only"] = lambda: jx.vmap(jx.vmap(
        lambda x: lax.pmax(x, "i") - lax.pmin(x, "j"), axis_name="i"), axis_name="j")(x34)
    c["vmap_pmax_pytree"] = lambda: jx.vmap(lambda x: lax.pmax(
        {"a": x, "b": (2.0 * x,)}, "i"), axis_name="i")(x3)
    c["err_pmax_unbound_axis"] = lambda: jx.vmap(lambda x: lax.pmax(x, "z"), axis_name="i")(x3)
    c["err_vmap_grad_pmax"] = lambda: jx.vmap(jx.grad(
        lambda x: lax.pmax(x ** 2, "i")), axis_name="i")(x3)
    return c


def callback_cases(jx):
    jnp, d = jx.numpy, _data()
    c = {}

    def eager_sin(x):
        x = jnp.asarray(x)
        return jx.pure_callback(np.sin, jx.ShapeDtypeStruct(x.shape, x.dtype), x)
    c["pure_callback_eager"] = lambda: eager_sin(d["x3"])

    def two_results(x):
        x = jnp.asarray(x)
        spec = (jx.ShapeDtypeStruct(x.shape, x.dtype), {"total": jx.ShapeDtypeStruct((), x.dtype)})
        return jx.pure_callback(lambda v, scale: (v * scale, {"total": (v * scale).sum()}),
                                spec, x, scale=np.asarray(2.0, x.dtype))
    c["pure_callback_pytree_and_kwargs"] = lambda: two_results(d["x34"])

    def wrong_shape(x):
        x = jnp.asarray(x)
        return jx.pure_callback(lambda v: np.concatenate([np.asarray(v), np.asarray(v)]),
                                jx.ShapeDtypeStruct(x.shape, x.dtype), x)
    c["err_pure_callback_wrong_shape"] = lambda: wrong_shape(d["x3"])
    return c


GROUPS = (det_cases, expm_cases, collective_cases, callback_cases)

# float32 answers of these go through more rounding steps (factorisations, long products)
LOOSE_F32 = ("det", "expm")


def cases(jx) -> dict:
    out = {}
    for group in GROUPS:
        out.update(group(jx))
    return out
