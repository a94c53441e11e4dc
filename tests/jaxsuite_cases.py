"""Behaviours JAX's own test files check where JAX departs from NumPy, shared by the
recorder (tools/record_jax_suite.py, run with JAX and x64 on, as those files run) and the
checks (tests/test_jaxsuite_findings.py, run with transpile under JAX's rules and x64).
`CASES[name](jnp)` spells a case for `jnp`, which is jax.numpy or transpile.numpy."""
from __future__ import annotations

import numpy as np

_INTS = np.array([[3, -1, 4], [1, -5, 9]], np.int8)
_COMPLEX = np.array([1 + 2j, np.nan + 1j, 3 - 1j, 2 + np.nan * 1j])
_FLOATS = np.arange(24.0).reshape(2, 3, 4) / 7
_HALVES = (np.random.default_rng(7).standard_normal((10, 5)) * 3).astype(np.float16)
_OUT_OF_BOUNDS = np.array([-10, -6, -5, -4, 0, 3, 4, 5, 6, 100])

CASES = {
    # var/std with an explicit dtype return it (NumPy returns the real variance).
    "var_uint8_as_complex128": lambda jnp: jnp.var(np.arange(5, dtype=np.uint8),
                                                   dtype=np.complex128),
    "nanvar_complex128_as_complex64": lambda jnp: jnp.nanvar(_COMPLEX, dtype=np.complex64),
    # A non-positive number of degrees of freedom gives NaN (NumPy: inf for a nonzero sum).
    "var_ddof_past_size": lambda jnp: jnp.var(jnp.arange(2), ddof=3),
    "std_ddof_equal_size": lambda jnp: jnp.std(jnp.arange(2.0), ddof=2),
    # The mean in an explicit integer dtype.
    "mean_int8_in_int8": lambda jnp: jnp.mean(_INTS, axis=1, dtype=np.int8),
    # Weighted averages of integers: JAX's inexact type (float32 up to 32 bits).
    "average_int32_weights": lambda jnp: jnp.average(_INTS.astype(np.int32), axis=1,
                                                     weights=np.array([1, 2, 3], np.int32)),
    "average_uint8_weights_returned": lambda jnp: jnp.average(
        _INTS.astype(np.uint8), axis=0, weights=np.array([2, 1], np.uint8), returned=True),
    # Weights along several axes, in the order the axes are given.
    "average_nd_weights": lambda jnp: jnp.average(_FLOATS, axis=(2, 0),
                                                  weights=np.arange(8.0).reshape(4, 2) + 1),
    # NaN-ignoring reductions of complex values (a NaN in either part is NaN).
    "nanmean_complex": lambda jnp: jnp.nanmean(_COMPLEX),
    "nansum_complex": lambda jnp: jnp.nansum(_COMPLEX),
    "nanstd_complex": lambda jnp: jnp.nanstd(_COMPLEX),
    "cov_in_float32": lambda jnp: jnp.cov(_FLOATS[0], dtype=np.float32),
    # A 16-bit variance is computed in float32 and rounded once.
    "var_float16": lambda jnp: jnp.var(_HALVES, ddof=1),
    "nanstd_float16_axis": lambda jnp: jnp.nanstd(_HALVES, axis=0),
    # Out-of-bounds reads with x.at[i].get(mode=...): clamped, or filled.
    "at_get_clip": lambda jnp: jnp.arange(1, 6).at[_OUT_OF_BOUNDS].get(mode="clip"),
    "at_get_fill_float": lambda jnp: jnp.arange(1.0, 6.0).at[_OUT_OF_BOUNDS].get(mode="fill"),
    "at_get_fill_int32": lambda jnp: jnp.arange(1, 6, dtype=np.int32).at[_OUT_OF_BOUNDS].get(
        mode="fill"),
    "at_get_fill_uint32": lambda jnp: jnp.arange(1, 6, dtype=np.uint32).at[_OUT_OF_BOUNDS].get(
        mode="drop"),
    "at_get_fill_value_2d": lambda jnp: jnp.asarray(_FLOATS[0]).at[1, -5].get(mode="fill",
                                                                              fill_value=7),
    "at_get_clip_2d_rows": lambda jnp: jnp.asarray(_FLOATS[0]).at[np.array([-9, 1, 5])].get(
        mode="clip"),
}

# Calls that JAX refuses (the recorder keeps which exception it raises).
ERRORS = {
    # A list index: NumPy reads it as an array, JAX asks for arr[array(seq)] or arr[tuple(seq)].
    "list_index": lambda jnp: jnp.arange(6).reshape(3, 2)[[0, 1]],
    "list_index_with_slice": lambda jnp: jnp.arange(6).reshape(3, 2)[[0, slice(None)]],
    "list_index_at_set": lambda jnp: jnp.arange(6).reshape(3, 2).at[[0]].set(0),
    # Float, complex and string entries: NumPy's IndexError, JAX's TypeError.
    "float_index": lambda jnp: jnp.zeros(2)[0.0],
    "float_in_index_tuple": lambda jnp: jnp.zeros((2, 2))[jnp.arange(2), 1.0],
    "complex_in_index_tuple": lambda jnp: jnp.zeros((2, 2))[jnp.arange(2), 1 + 1j],
    "float_index_at_add": lambda jnp: jnp.zeros(2).at[0.0].add(1.0),
    "string_index": lambda jnp: jnp.zeros((2, 3))[:, "abc"],
    "cumulative_sum_of_scalar": lambda jnp: jnp.cumulative_sum(np.float32(3)),
    "cumulative_sum_2d_without_axis": lambda jnp: jnp.cumulative_sum(np.ones((2, 3))),
    "cumulative_prod_2d_without_axis": lambda jnp: jnp.cumulative_prod(np.ones((2, 3))),
    "var_ddof_and_correction": lambda jnp: jnp.var(np.ones(3), ddof=1, correction=1),
    "var_complex_with_real_dtype": lambda jnp: jnp.var(_COMPLEX, dtype=np.float64),
    "sum_over_a_repeated_axis": lambda jnp: jnp.sum(jnp.ones((2, 3)), axis=(0, 0)),
    "cov_in_an_integer_dtype": lambda jnp: jnp.cov(np.arange(5.0), dtype=int),
    "sum_initial_not_scalar": lambda jnp: jnp.sum(jnp.ones((2, 3)), axis=-1,
                                                  initial=jnp.zeros((1, 2))),
    "nanmax_initial_not_scalar": lambda jnp: jnp.nanmax(jnp.ones(3), initial=jnp.zeros(2)),
    "max_where_int": lambda jnp: jnp.max(jnp.zeros(4), where=jnp.ones(4, dtype=int),
                                         initial=0.0),
    "nanstd_where_int": lambda jnp: jnp.nanstd(jnp.zeros(4), where=jnp.ones(4, dtype=int)),
    "any_where_int": lambda jnp: jnp.any(jnp.zeros(4, bool), where=jnp.ones(4, dtype=int)),
}
