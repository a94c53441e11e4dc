"""Logical ops under JAX's rules promote a weak operand to its partner's dtype before testing
it against zero, also when the weak value is traced (a Python scalar handed to jit): 1e-50
with a float32 array is 0.0 there, so False (fuzz seed 970067, x64: it was True). The
expected rows are JAX 0.10.2's results (x64 on), recorded by hand from
`jax.jit(jnp.logical_and)(1e-50, np.array([0.0, 1.0], np.float32))` and the like. (A float64
subnormal such as 1e-320 is False in JAX only because XLA's CPU backend flushes subnormals
to zero; transpile keeps them, as NumPy does.)"""
import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile.config import config

JAX = {   # (weak scalar, partner) -> JAX's result, for and / or / xor
    "logical_and": [[False, False], [False, False], [False, False], [False, True]],
    "logical_or": [[True, True], [False, True], [False, True], [True, True]],
    "logical_xor": [[True, True], [False, True], [False, True], [True, False]],
}
PAIRS = [(256, np.ones(2, np.int8)), (1e-50, np.array([0.0, 1.0], np.float32)),
         (1e-10, np.array([0.0, 1.0], np.float16)), (3, np.array([0, 1], np.uint8))]


@pytest.mark.parametrize("name", sorted(JAX))
def test_a_weak_traced_operand_takes_its_partners_dtype_first(name):
    with config.settings(transpile_dtype_rules="jax", jax_enable_x64=True):
        fn = getattr(tnp, name)
        for (scalar, array), want in zip(PAIRS, JAX[name]):
            assert tp.jit(fn)(scalar, array).tolist() == want, (scalar, array.dtype)
            assert np.asarray(fn(scalar, array)).tolist() == want, (scalar, array.dtype)
