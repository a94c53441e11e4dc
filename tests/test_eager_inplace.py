"""`a += x` on an eager array: JAX arrays are immutable, so `+=` rebinds the name to a new
array. Eager arrays do so under JAX's dtype rules and whenever `x` is traced (a NumPy buffer
cannot hold a traced value: gymnax's `reward = jnp.array(0); reward += hit` under jit);
under NumPy's rules with NumPy operands they keep NumPy's in-place update."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp


@pytest.mark.parametrize("rules", ["numpy", "jax"])
def test_accumulating_a_traced_value_into_an_eager_array_under_jit(rules):
    def count_positive(x):
        total, hits = 0, tnp.array(0)
        for i in range(3):
            hits += x[i] > 0
            hits *= 1
            total += x[i] < 0
        return hits, total

    with tp.config.settings(transpile_dtype_rules=rules):
        hits, total = tp.jit(count_positive)(np.array([1.0, -2.0, 3.0], np.float32))
    assert int(hits) == 2 and int(total) == 1
    if rules == "jax":
        assert hits.dtype == np.int32


def test_jax_rules_rebind_and_promote_as_jax():
    with tp.config.settings(transpile_dtype_rules="jax"):
        a = tnp.arange(3)
        alias = a
        a += 1
        a /= 2           # int32 / int -> float32 in JAX; NumPy in place would refuse the cast
        a **= 2
    np.testing.assert_array_equal(alias, [0, 1, 2])          # the old array is unchanged
    np.testing.assert_allclose(a, [0.25, 1.0, 2.25])
    assert a.dtype == np.float32


def test_numpy_rules_keep_numpy_in_place_updates():
    with tp.config.settings(transpile_dtype_rules="numpy"):
        a = tnp.arange(3)
        alias = a
        a += 1
        with pytest.raises(TypeError):       # NumPy's casting rule for in-place int /= int
            a /= 2
    assert alias is a
    np.testing.assert_array_equal(alias, [1, 2, 3])
