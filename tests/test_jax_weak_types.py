"""Weak types through transpile.numpy functions under JAX's dtype rules, against JAX's own
(tests/data/jax_weak_types.json, recorded by tools/record_jax_weak_types.py for the cases in
tests/jax_weak_cases.py, 64-bit mode off and on): jnp.array of a Python number is weak, a
function of a weak jit argument stays weak (so `jnp.sin(x) * float32_array` is float32), a
list of weak elements promotes weakly into a strong array, and pad keeps the weak type."""
from __future__ import annotations

import json
import os
import sys

import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile.core import aval_of

sys.path.insert(0, os.path.dirname(__file__))
import jax_weak_cases as table  # noqa: E402

with open(os.path.join(os.path.dirname(__file__), "data", "jax_weak_types.json")) as _fh:
    RECORDED = json.load(_fh)["modes"]


def test_recorded_cases_are_these_cases():
    for mode in ("x32", "x64"):
        assert sorted(RECORDED[mode]) == sorted(table.CASES), \
            "tests/jax_weak_cases.py changed: rerun tools/record_jax_weak_types.py"


@pytest.mark.parametrize("mode", ["x32", "x64"])
@pytest.mark.parametrize("name", sorted(table.CASES))
def test_dtype_and_weak_type_are_jaxs(name, mode):
    with tp.config.settings(transpile_dtype_rules="jax", jax_enable_x64=mode == "x64"):
        result = table.CASES[name](tnp, tp.jit)
        got = table.encode(aval_of(result).dtype, aval_of(result).weak_type)
    assert got == RECORDED[mode][name]


def test_numpy_rules_keep_function_results_strong():
    """Under NumPy's rules a function's result is strong (np.sin(1.0) is a float64), so the
    product with a float32 array is float64, eager and traced."""
    f32 = tnp.ones(3, tnp.float32)
    with tp.config.settings(transpile_dtype_rules="numpy"):
        assert (tnp.array(1.0) * f32).dtype == tnp.float64
        assert tp.jit(lambda x: tnp.sin(x) * f32)(1.0).dtype == tnp.float64
