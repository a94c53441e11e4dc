"""JAX's example training loops (tests/jax_example_programs.py: mnist_classifier_fromscratch,
kernel_lsq, differentially_private_sgd) run with the import swapped for transpile's, against
JAX 0.10.2's losses and parameters after each step (tools/record_jax_examples.py): in 64-bit
mode under NumPy's and JAX's dtype rules, and in JAX's default 32-bit mode."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import transpile as tp
import transpile.example_libraries.optimizers  # noqa: F401  (imported by name there)
import transpile.example_libraries.stax  # noqa: F401

from jax_example_programs import PROGRAMS

RECORDED = json.loads((Path(__file__).parent / "data" / "jax_examples.json").read_text())
SETTINGS = {
    "numpy-x64": ("x64", {"transpile_dtype_rules": "numpy"}),
    "jax-x64": ("x64", {"transpile_dtype_rules": "jax", "jax_enable_x64": True}),
    "jax-x32": ("x32", {"transpile_dtype_rules": "jax", "jax_enable_x64": False}),
}


# Under NumPy's rules initializers default to float32 (JAX's default configuration,
# docs/api.md) while the data stay float64, which lax.conv refuses (equal dtypes, as JAX):
# this program runs under JAX's rules only.
NEEDS_JAX_RULES = {"dp_sgd"}


def test_every_program_was_recorded_with_jax_0_10():
    assert RECORDED["jax_version"].startswith("0.10")
    for mode in ("x64", "x32"):
        assert sorted(RECORDED["modes"][mode]) == sorted(PROGRAMS)


@pytest.mark.slow
@pytest.mark.parametrize("setting", sorted(SETTINGS))
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_example_matches_jax(name, setting):
    mode, config = SETTINGS[setting]
    if setting == "numpy-x64" and name in NEEDS_JAX_RULES:
        pytest.skip("float32 stax weights and float64 data under NumPy's rules (see above)")
    with tp.config.settings(**config):
        results = PROGRAMS[name](tp)
    recorded = RECORDED["modes"][mode][name]
    assert sorted(results) == sorted(recorded)
    for key, rec in recorded.items():
        got = np.asarray(results[key])
        if setting != "numpy-x64":
            assert str(got.dtype) == rec["dtype"], f"{name} {key}: {got.dtype}, JAX {rec['dtype']}"
        want = np.asarray(rec["values"], dtype=rec["dtype"]).reshape(rec["shape"])
        # a few steps of training: rounding differences grow a little each step
        tol = 1e-9 if got.dtype == np.float64 and mode == "x64" else 2e-4
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol, err_msg=f"{name} {key}")
