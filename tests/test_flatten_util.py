"""transpile.flatten_util.ravel_pytree (JAX's jax.flatten_util): flat vector, dtype rules,
the rebuild under jit/vmap/grad, and the errors a wrong vector gets. Expected dtypes are
JAX 0.10.2's (x64 off)."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile.flatten_util import ravel_pytree

TREE = {"w": np.arange(6, dtype=np.float32).reshape(2, 3), "b": (np.float32([7, 8]), 9.0)}


def test_ravels_in_tree_order_and_rebuilds():
    with tp.config.settings(transpile_dtype_rules="jax"):
        flat, unravel = ravel_pytree(TREE)
        rebuilt = unravel(flat * 2)
    assert flat.dtype == np.float32
    np.testing.assert_array_equal(flat, [7, 8, 9, 0, 1, 2, 3, 4, 5])    # keys sorted: b, w
    np.testing.assert_array_equal(rebuilt["w"], TREE["w"] * 2)
    assert rebuilt["b"][1].shape == () and float(rebuilt["b"][1]) == 18.0


def test_rebuild_works_under_jit_vmap_and_grad():
    flat, unravel = ravel_pytree(TREE)

    def loss(vector):
        tree = unravel(vector)
        return tnp.sum(tree["w"] ** 2) + tree["b"][1]

    grad = tp.jit(tp.grad(loss))(flat)
    np.testing.assert_allclose(grad, [0, 0, 1, 0, 2, 4, 6, 8, 10])
    batched = tp.vmap(lambda v: unravel(v)["b"][0])(tnp.stack([flat, -flat]))
    np.testing.assert_array_equal(batched, [[7, 8], [-7, -8]])
    np.testing.assert_array_equal(tp.jit(lambda t: ravel_pytree(t)[0])(TREE), flat)


def test_mixed_dtypes_promote_and_convert_back():
    with tp.config.settings(transpile_dtype_rules="jax"):
        flat, unravel = ravel_pytree([np.int32(3), np.ones(2, np.float32)])
        assert flat.dtype == np.float32
        first, second = unravel(flat + 0.25)
        assert first.dtype == np.int32 and int(first) == 3
        with pytest.raises(TypeError, match="expects the raveled dtype float32"):
            unravel(flat.astype(np.int32))


def test_empty_tree_and_wrong_length():
    flat, unravel = ravel_pytree({})
    assert flat.shape == (0,) and flat.dtype == np.float32 and unravel(flat) == {}
    _, unravel = ravel_pytree(TREE)
    with pytest.raises(ValueError, match="expected a 1-D array of 9 elements"):
        unravel(tnp.zeros(8))
