"""ShapeDtypeStruct as JAX's: a pytree leaf, immutable and hashable, with `weak_type`; and
an argument of `jit(f).lower(...)` and `make_jaxpr(f)(...)` standing for an array (JAX's
ahead-of-time pattern), as it already was of eval_shape."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp


def test_is_a_pytree_leaf():
    spec = tp.ShapeDtypeStruct((2, 3), np.float32)
    tree = {"x": spec, "y": (spec, None)}
    assert tp.tree_util.tree_leaves(tree) == [spec, spec]
    doubled = tp.tree_util.tree_map(lambda s: tp.ShapeDtypeStruct(s.shape * 2, s.dtype), tree)
    assert doubled["x"].shape == (2, 3, 2, 3)


def test_is_immutable_and_compares_by_value():
    spec = tp.ShapeDtypeStruct([4], "float32")
    assert spec == tp.ShapeDtypeStruct((4,), np.float32)
    assert spec != tp.ShapeDtypeStruct((4,), np.float32, weak_type=True)
    assert len({spec, tp.ShapeDtypeStruct((4,), np.float32)}) == 1
    with pytest.raises(AttributeError, match="immutable"):
        spec.shape = (5,)


def test_lower_with_shape_dtype_structs_compiles_for_arrays():
    spec = tp.ShapeDtypeStruct((5,), np.float32)
    compiled = tp.jit(lambda a, b: tnp.dot(a, b) + 1).lower(spec, spec).compile()
    a, b = np.arange(5, dtype=np.float32), np.full(5, 2, np.float32)
    np.testing.assert_allclose(compiled(a, b), np.dot(a, b) + 1)


def test_lower_takes_structs_inside_pytrees_and_beside_arrays():
    spec = {"w": tp.ShapeDtypeStruct((3, 2), np.float64)}
    x = np.ones(3)
    compiled = tp.jit(lambda p, x: x @ p["w"]).lower(spec, x).compile()
    w = np.arange(6.0).reshape(3, 2)
    np.testing.assert_allclose(compiled({"w": w}, x), x @ w)


def test_make_jaxpr_of_structs():
    spec = tp.ShapeDtypeStruct((4,), np.int32)
    jaxpr = tp.make_jaxpr(lambda v: v * 2)(spec)
    assert [str(v.aval.dtype) for v in jaxpr.jaxpr.invars] == ["int32"]
    _, shapes = tp.make_jaxpr(lambda v: v.sum(), return_shape=True)(spec)
    assert shapes.shape == ()


def test_weak_struct_promotes_as_a_python_scalar_under_jax_rules():
    """JAX 0.10.2: eval_shape(x * float16 array) of a weak float32 struct is float16; of a
    strong one float32."""
    half = np.ones(2, np.float16)
    with tp.config.settings(transpile_dtype_rules="jax"):
        weak = tp.eval_shape(lambda x: x * half,
                             tp.ShapeDtypeStruct((), np.float32, weak_type=True))
        strong = tp.eval_shape(lambda x: x * half, tp.ShapeDtypeStruct((), np.float32))
        scaled = tp.eval_shape(lambda x: x * 2.0,
                               tp.ShapeDtypeStruct((), np.float32, weak_type=True))
    assert (weak.dtype, strong.dtype) == (np.float16, np.float32)
    assert scaled.weak_type and scaled.dtype == np.float32
