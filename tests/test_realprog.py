"""Real-program corpus: JAX-style programs run unchanged with their `jax` imports answered by
transpile, compared with JAX 0.10.2's recorded outputs (tests/data/jax_realprog.json, written
by tools/record_jax_realprog.py with 64-bit mode off, as JAX's default).

Values are compared at float32 tolerance. Result dtypes are not asserted: transpile follows
NumPy's promotion rules, under which some results are float64 where JAX's are float32 (a JAX
dtype mode is separate work); `python tests/test_realprog.py` prints each program's outcome and
its dtype differences.
"""
from __future__ import annotations

import json
import os
import sys

import numpy as np
import pytest

import transpile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from realprog.jax_shim import load_program  # noqa: E402

with open(os.path.join(HERE, "data", "jax_realprog.json")) as _fh:
    RECORDED = json.load(_fh)["programs"]

# float32 programs, some iterating dozens of steps: JAX (XLA) and transpile (C, possibly in
# float64 under NumPy's rules) round differently, so agreement is to float32 accuracy.
RTOL, ATOL = 2e-4, 2e-5


def run_with_transpile(name):
    module = load_program(os.path.join(HERE, "realprog", name + ".py"), with_transpile=True)
    out = module.program(*module.inputs())
    return [np.asarray(leaf) for leaf in transpile.tree_util.tree_leaves(out)]


def compare(name, leaves):
    """Assert values match JAX's; return the (leaf index, JAX dtype, transpile dtype) list."""
    expected = RECORDED[name]
    assert len(leaves) == len(expected), f"{name}: {len(leaves)} outputs, JAX has {len(expected)}"
    dtype_differences = []
    for i, (got, want) in enumerate(zip(leaves, expected)):
        want_values = np.asarray(want["values"], dtype=want["dtype"])
        assert got.shape == want_values.shape, f"{name} output {i}: shape {got.shape}, " \
            f"JAX {want_values.shape}"
        if want_values.dtype.kind in "biu":
            np.testing.assert_array_equal(got, want_values, err_msg=f"{name} output {i}")
        else:
            np.testing.assert_allclose(got, want_values, rtol=RTOL, atol=ATOL,
                                       err_msg=f"{name} output {i}")
        if got.dtype != want_values.dtype:
            dtype_differences.append((i, str(want_values.dtype), str(got.dtype)))
    return dtype_differences


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_program_matches_jax(name):
    compare(name, run_with_transpile(name))


def test_shim_leaves_no_jax_alias_behind():
    run_with_transpile("pendulum")
    assert "jax" not in sys.modules or sys.modules["jax"] is not transpile


if __name__ == "__main__":
    # A table for reports: outcome and dtype differences per program.
    for program_name in sorted(RECORDED):
        try:
            differences = compare(program_name, run_with_transpile(program_name))
            print(f"PASS {program_name}" + (f"  dtypes (out, jax, transpile): {differences}"
                                           if differences else ""))
        except Exception as exc:  # noqa: BLE001 - the table reports every failure's kind
            print(f"FAIL {program_name}: {type(exc).__name__}: {str(exc).splitlines()[0][:200]}")
