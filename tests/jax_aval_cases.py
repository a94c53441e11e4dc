"""Values whose abstract value (shape, dtype, weak type) and `isinstance(v, Array)` answer are
compared with JAX's: shared by tools/record_jax_avals.py (which runs them with JAX 0.10 and
stores tests/data/jax_avals.json) and tests/test_eager_avals.py (which runs them with
transpile under JAX's dtype rules, eagerly and under jit).

`cases(jnp, lax)` maps a name to a function of no arguments giving one value. Weak types
arise from Python scalars: an operation on them is weak (JAX's weak float, int or complex),
one involving a sized dtype is not, and booleans never are.
"""
from __future__ import annotations

import numpy as np


def cases(jnp, lax):
    weak_two = lambda: lax.abs(2.0)        # noqa: E731  (a weak float made by an operation)
    return {
        # lax's unary operations keep a Python scalar's weak type (JAX's testUnaryWeakTypes)
        "abs_of_float": lambda: lax.abs(1.0),
        "abs_of_int": lambda: lax.abs(1),
        "exp_of_float": lambda: lax.exp(1.0),
        "round_of_float": lambda: lax.round(1.5),
        "is_finite_of_float": lambda: lax.is_finite(1.0),
        "clz_of_int": lambda: lax.clz(1),
        "population_count_of_int": lambda: lax.population_count(3),
        "conj_of_float": lambda: lax.conj(1.0),
        "bessel_i0e_of_float": lambda: lax.bessel_i0e(1.0),
        "real_of_complex": lambda: lax.real(1.0 + 2.0j),
        "abs_of_float32": lambda: lax.abs(np.float32(1)),
        "clz_of_int32": lambda: lax.clz(np.int32(1)),
        # binary operations: weak only when every operand is
        "add_of_floats": lambda: lax.add(1.0, 2.0),
        "mul_of_ints": lambda: lax.mul(2, 3),
        "lt_of_floats": lambda: lax.lt(1.0, 2.0),
        "add_of_float32_scalars": lambda: lax.add(np.float32(1), np.float32(2)),
        # sized values are strong; lax.full with a dtype too
        "full_with_dtype": lambda: lax.full((), 1.0, np.float32),
        "ones_float32": lambda: jnp.ones(3, jnp.float32),
        "convert_element_type": lambda: lax.convert_element_type(1.0, np.float32),
        # jax.numpy on Python scalars: weak results, and weak values promote as scalars do
        "sin_of_float": lambda: jnp.sin(1.0),
        "sqrt_of_int": lambda: jnp.sqrt(2),
        "weak_times_float16": lambda: weak_two() * jnp.ones(2, jnp.float16),
        "weak_plus_int": lambda: weak_two() + 1,
        "weak_times_int32": lambda: lax.abs(2) * jnp.ones(2, jnp.int32),
        "add_weak_to_float32": lambda: jnp.add(weak_two(), jnp.float32(1)),
        # a reduction and an element of an array are 0-d arrays
        "sum_of_ones": lambda: jnp.sum(jnp.ones(3)),
        "element_of_arange": lambda: jnp.arange(3)[1],
    }


# Objects that are not JAX arrays (`isinstance(v, jax.Array)` is False), whatever their type.
NOT_ARRAYS = {
    "python_float": 1.0,
    "python_int": 1,
    "python_bool": True,
    "list": [1.0, 2.0],
    "numpy_float32_scalar": np.float32(1),
    "numpy_int64_scalar": np.int64(1),
}
