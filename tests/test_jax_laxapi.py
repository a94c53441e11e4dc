"""lax.gather/scatter with dimension numbers, lax.fft and the enums, eig and the polynomial
roots, the added special functions, against JAX's recorded values
(tests/jax_laxapi_cases.py, tools/record_jax_laxapi.py): under JAX's dtype rules with x64
on, eagerly and under jit (one C build per group of cases)."""
from __future__ import annotations

import re

import numpy as np
import pytest

import transpile as tp
import transpile.lax as tlax
import transpile.numpy as tnp
import transpile.scipy.special as tspecial
from jax_laxapi_cases import GROUPS
from recorded_cases import RecordedCases
from recorded_leaves import decode_leaf
from transpile.config import config


def _located(message: str) -> str:
    """A message with each `name at /some/dir/file.py:12` reduced to `file.py` (the line
    moves whenever the cases file is edited; the recorder stores it so reduced)."""
    return re.sub(r" at \S*?([^/\s]+\.py):(\d+)", r" at \1", message)


JAX_CASES = RecordedCases("jax_laxapi.json", GROUPS, (tnp, tlax, tspecial, tp))
# The shared tests (recorded_cases.py): eager and jit results against JAX's, and refusals,
# eagerly and under jit, with their messages' locations reduced as the recorder reduced them.
globals().update(JAX_CASES.tests(errors_under_jit=True, error_message=_located))


@pytest.mark.parametrize("name", ["zeta", "polygamma", "erfcx", "spence", "bessel_jn"])
def test_special_functions_without_x64_compute_in_float32(name):
    """Under JAX's rules without x64 float64 does not exist: the functions that compute in
    float64 compute in float32 instead (no warning, no overflowing constant) and stay
    within float32's accuracy of the float64 values JAX gave (zeta(1.001, 20) loses 5e-5 to
    1.001's own rounding in float32)."""
    import warnings
    with config.settings(transpile_dtype_rules="jax", jax_enable_x64=False):
        make, args, _ = group_case(name)
        with np.errstate(over="ignore"):           # the float32 inputs themselves (1e300)
            narrow = [a.astype(np.float32 if a.dtype.kind == "f" else np.int32) for a in args]
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = np.asarray(tp.jit(make)(*narrow))
    want = decode_leaf(JAX_CASES.recorded[name][0])
    assert got.dtype == np.float32
    finite = np.isfinite(want) & (np.abs(want) < 1e30) & (np.abs(want) > 1e-30)
    np.testing.assert_allclose(got[finite], want[finite], rtol=1e-4, atol=1e-6)


def group_case(name):
    for group in GROUPS:
        cases = group(tnp, tlax, tspecial, tp)
        if name in cases:
            return cases[name]
    raise KeyError(name)
