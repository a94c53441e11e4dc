"""Weak types that functions keep or drop, under JAX's dtype rules: shared by the recorder
(tools/record_jax_weak_types.py, run with JAX) and the check (tests/test_jax_weak_types.py,
run with transpile). Each case is `call(mod, jit)`, where `mod` is jax.numpy or
transpile.numpy and `jit` the matching jit; it returns one array whose dtype and weak type
are compared. A weak value that a function wrongly makes strong shows up in the products with
float32/int8 arrays: the result widens to float64/int64 where JAX keeps float32/int8."""
from __future__ import annotations

import numpy as np


def _f32(mod):
    return mod.ones(3, mod.float32)


def _pad_modes():
    return {f"pad_{mode}": (lambda mod, jit, mode=mode: mod.pad(mod.array(1.0)[None], 1,
                                                                 mode=mode))
            for mode in ("constant", "edge", "mean", "median", "linear_ramp", "reflect",
                         "maximum", "wrap")}


CASES = {
    # jnp.array / asarray of a Python number is weak; of a bool, a NumPy scalar or a list, not.
    "array_py_float": lambda mod, jit: mod.array(1.0),
    "asarray_py_int": lambda mod, jit: mod.asarray(2),
    "array_py_complex": lambda mod, jit: mod.array(1j),
    "array_py_bool": lambda mod, jit: mod.array(True),
    "array_np_float32": lambda mod, jit: mod.array(np.float32(1)),
    "array_list_of_py_floats": lambda mod, jit: mod.array([1.0, 2.0]),
    "array_py_float_with_dtype": lambda mod, jit: mod.array(1.0, dtype=mod.float32),
    "array_of_weak_array": lambda mod, jit: mod.array(mod.array(1.0)),
    "array_py_float_times_f32": lambda mod, jit: mod.array(1.0) * _f32(mod),
    "asarray_py_int_times_int8": lambda mod, jit: mod.asarray(2) * mod.ones(3, mod.int8),
    "positive_py_int": lambda mod, jit: mod.positive(7),
    # Under jit, functions of a weak (Python-number) argument keep it weak.
    "jit_array_of_arg": lambda mod, jit: jit(lambda x: mod.array(x))(1.0),
    "jit_array_of_arg_times_f32": lambda mod, jit: jit(lambda x: mod.array(x) * _f32(mod))(1.0),
    "jit_asarray_of_arg_times_f32": lambda mod, jit: jit(
        lambda x: mod.asarray(x) * _f32(mod))(1.0),
    "jit_sin_of_arg_times_f32": lambda mod, jit: jit(lambda x: mod.sin(x) * _f32(mod))(1.0),
    "jit_where_of_args_times_f32": lambda mod, jit: jit(
        lambda x: mod.where(x > 0, x, 0.0) * _f32(mod))(1.0),
    "jit_reshape_of_arg_times_f32": lambda mod, jit: jit(
        lambda x: mod.reshape(x, (1,)) * _f32(mod))(1.0),
    "jit_sum_of_arg_times_f32": lambda mod, jit: jit(lambda x: mod.sum(x) * _f32(mod))(1.0),
    "jit_maximum_of_args_times_int8": lambda mod, jit: jit(
        lambda x: mod.maximum(x, 0) * mod.ones(3, mod.int8))(2),
    "jit_clip_of_arg_times_f32": lambda mod, jit: jit(
        lambda x: mod.clip(x, 0.0, 2.0) * _f32(mod))(1.0),
    # A list's weak elements promote weakly, but the array made of them is strong.
    "jit_array_list_weak_and_int16": lambda mod, jit: jit(
        lambda x: mod.array([x, 0]))(np.int16(1)),
    "jit_array_list_of_weak": lambda mod, jit: jit(lambda x: mod.array([x, 0.0]))(1.0),
    "jit_array_list_of_weak_times_f32": lambda mod, jit: jit(
        lambda x: mod.array([x, 0.0, 1.0]) * _f32(mod))(1.0),
    # pad keeps its operand's weak type in every mode, under jit too.
    **_pad_modes(),
    "jit_pad_mean_of_arg": lambda mod, jit: jit(lambda x: mod.pad(x[None], 1, mode="mean"))(1.0),
}


def encode(dtype, weak: bool) -> str:
    return np.dtype(dtype).name + ("*" if weak else "")
