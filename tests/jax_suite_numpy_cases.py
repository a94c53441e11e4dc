"""jax.numpy behaviours that JAX's lax_numpy_test.py checks and transpile lacked, shared by
the recorder (tools/record_jax_suite_numpy.py, run with JAX and x64 on, as that file runs)
and the checks (tests/test_jax_suite_numpy.py, run with transpile under JAX's rules and x64).
`CASES[name](jax, jnp)` spells a case for a (jax, jax.numpy) pair: JAX's, or
(transpile, transpile.numpy). `ERRORS` are calls JAX refuses (the recorder keeps the
exception's type name)."""
from __future__ import annotations

import numpy as np

_RNG = np.random.default_rng(19)
_INTS = np.array([[3, -1, 4, 0], [1, -5, 9, 2], [7, 7, -2, 5]], np.int32)
_SAMPLES = _RNG.standard_normal((5, 7))
_X = np.array([0.0, 0.4, 1.5, 1.7, 3.0])                       # uneven sample coordinates
_Y = np.cumsum(_RNG.random(7) + 0.2)
_HALF_A = (_RNG.standard_normal(12) * 3).astype(np.float16)
_HALF_B = (_RNG.standard_normal(6) * 3).astype(np.float16)
_POINTS = _RNG.integers(0, 6, (2, 12)).astype(np.int32)


class _Spec:
    """Anything with a shape and a dtype (jax.ShapeDtypeStruct's duck type)."""

    def __init__(self, shape, dtype):
        self.shape, self.dtype = shape, np.dtype(dtype)


def _pad_with_tens(vector, pad_width, iaxis, kwargs):
    vector = vector.at[:pad_width[0]].set(kwargs.get("padder", 10))
    return vector.at[vector.shape[0] - pad_width[1]:].set(kwargs.get("padder", 10))


def _jax_array_like(jnp):
    class ArrayLike:
        def __jax_array__(self):
            return jnp.array(3.0)
    return ArrayLike()


def _sinc_derivative(jax, jnp, order):
    f = jnp.sinc
    for _ in range(order):
        f = jax.grad(f)
    return f(0.0)


CASES = {
    # Positions are int32 while the sorted array's length fits in int32 (x64 on).
    "searchsorted_positions_int32": lambda jax, jnp: jnp.searchsorted(
        jnp.arange(5.0), jnp.array([2.5, 0.0, 9.0])),
    "searchsorted_dtype_past_int32": lambda jax, jnp: jnp.zeros((), jax.eval_shape(
        jnp.searchsorted, _Spec((2**31,), np.float32), _Spec((), np.float32)).dtype),
    "searchsorted_dtype_at_int32_max": lambda jax, jnp: jnp.zeros((), jax.eval_shape(
        jnp.searchsorted, _Spec((2**31 - 1,), np.float32), _Spec((), np.float32)).dtype),
    # An empty `v` writes nothing.
    "put_empty_values": lambda jax, jnp: jnp.put(jnp.arange(4.0), np.array(2),
                                                 np.zeros((0, 4)), mode="wrap", inplace=False),
    # *_like of anything with a shape and a dtype.
    "zeros_like_of_shape_dtype": lambda jax, jnp: jnp.zeros_like(_Spec((1, 2, 3), np.int32)),
    "full_like_of_shape_dtype": lambda jax, jnp: jnp.full_like(_Spec((2, 2), np.float32), 2),
    # __jax_array__ objects are operands.
    "jax_array_protocol_operand": lambda jax, jnp: _jax_array_like(jnp) * jnp.arange(4.0),
    # Array.sort returns a sorted copy (NumPy's sorts in place and returns None).
    "sort_method_axis0": lambda jax, jnp: jnp.asarray(_INTS).sort(axis=0),
    "sort_method_unstable": lambda jax, jnp: jnp.asarray(_INTS).sort(stable=False),
    "transpose_method_none": lambda jax, jnp: jnp.asarray(_INTS).transpose(None),
    # Sample coordinates per axis: the non-uniform formula.
    "gradient_coordinates": lambda jax, jnp: jnp.gradient(_SAMPLES, _X, _Y),
    "gradient_coordinates_one_axis": lambda jax, jnp: jnp.gradient(_SAMPLES, _Y, axis=1),
    "gradient_coordinates_and_scalar": lambda jax, jnp: jnp.gradient(_SAMPLES, 0.5, _Y),
    # sinc's derivatives at 0 are its Maclaurin series' (sinc''(0) = -pi**2/3).
    "sinc_first_derivative_at_0": lambda jax, jnp: _sinc_derivative(jax, jnp, 1),
    "sinc_second_derivative_at_0": lambda jax, jnp: _sinc_derivative(jax, jnp, 2),
    "sinc_fourth_derivative_at_0": lambda jax, jnp: _sinc_derivative(jax, jnp, 4),
    "sinc_gradient_elsewhere": lambda jax, jnp: jax.grad(lambda x: jnp.sinc(x).sum())(
        jnp.array([0.0, 0.25, 1.0, 2.5])),
    # 16-bit convolutions are summed in float32 and rounded once.
    "convolve_float16": lambda jax, jnp: jnp.convolve(_HALF_A, _HALF_B),
    "correlate_float16_same": lambda jax, jnp: jnp.correlate(_HALF_A, _HALF_B, mode="same"),
    # A NaN in either part makes a complex value NaN.
    "array_equal_complex_nans": lambda jax, jnp: jnp.array_equal(
        np.array([complex(np.nan, 1)]), np.array([complex(1, np.nan)]), equal_nan=True),
    "histogram2d_edge_lists": lambda jax, jnp: jnp.histogram2d(
        _POINTS[0], _POINTS[1], bins=[np.array([0, 1, 3, 5]), np.array([0, 2, 3, 4, 6])]),
    "pad_with_function_2d": lambda jax, jnp: jnp.pad(np.arange(6).reshape(2, 3), 2,
                                                     _pad_with_tens),
    "pad_with_function_3d_kwargs": lambda jax, jnp: jnp.pad(
        np.arange(24).reshape(2, 3, 4), 1, _pad_with_tens, padder=100),
    # The fill for out-of-range positions is the dtype's extreme, uint64's too.
    "take_along_axis_uint64_fill": lambda jax, jnp: jnp.take_along_axis(
        jnp.array([[1, 2], [3, 4]], jnp.uint64), jnp.array([[0, 5], [1, -9]]), axis=1,
        mode="fill"),
    "sort_complex_nans_last": lambda jax, jnp: jnp.sort(jnp.array(
        [3 + 1j, complex(np.nan, 2), complex(1, np.nan), 1 - 1j, complex(np.nan, np.nan), 0j])),
    "repeat_scalar_along_axis_0": lambda jax, jnp: jnp.repeat(np.int64(3), 2, axis=0),
    "linspace_no_points_step": lambda jax, jnp: jnp.linspace(
        np.zeros((2, 2)), np.ones((2, 2)), 0, retstep=True)[0],
    "diff_order_zero": lambda jax, jnp: jnp.diff(_INTS, n=0, prepend=0),
    # Decimals past the dtype's range leave the values as they are (NumPy: NaN).
    "round_decimals_past_float32": lambda jax, jnp: jnp.round(
        np.array([1.23456789, -2.5e-3, 123456.7], np.float32), 1000),
    "round_decimals_past_float64": lambda jax, jnp: jnp.round(np.array([1.25, -7.5e-3]), 400),
    "trim_zeros_python_number": lambda jax, jnp: jnp.trim_zeros(3.0, "f"),
    "zeros_with_0d_shape_array": lambda jax, jnp: jnp.zeros(np.array(4, np.int32), np.int64),
    # The choices and the default join in one dtype (float16 here, not float64).
    "select_joins_all_choices": lambda jax, jnp: jnp.select(
        [np.array([True, False, True, False]), np.array([False, True, True, False])],
        [np.ones(4, np.float16), np.full((2, 1, 4), 3, np.int8)], np.full(4, 7, np.uint64)),
    "iscomplexobj_none": lambda jax, jnp: jnp.iscomplexobj(None),
    "array_python_int_at_int64_max": lambda jax, jnp: jnp.array(2**63 - 1),
    "array_python_int_as_uint64": lambda jax, jnp: jnp.array(2**63, dtype="uint64"),
}

ERRORS = {
    "array_python_int_past_int64": lambda jax, jnp: jnp.array(2**63),
    "take_along_axis_float_indices": lambda jax, jnp: jnp.take_along_axis(
        jnp.arange(5), jnp.array([3.0], jnp.float32), axis=0),
    "expand_dims_repeated_axis": lambda jax, jnp: jnp.expand_dims(jnp.ones((2, 3)), [1, 1]),
    "expand_dims_repeated_negative_axis": lambda jax, jnp: jnp.expand_dims(jnp.ones((2, 3)),
                                                                           [3, -1]),
    "pad_keyword_of_another_mode": lambda jax, jnp: jnp.pad(jnp.arange(3), 1, "edge",
                                                            constant_values=0),
    "pad_unknown_mode": lambda jax, jnp: jnp.pad(jnp.arange(3), 1, "foo"),
    "pad_mode_none": lambda jax, jnp: jnp.pad(jnp.arange(3), 1, None),
    "masked_array_jit_argument": lambda jax, jnp: jax.jit(jnp.asarray)(
        np.ma.array([1, 2], mask=[True, False])),
}
