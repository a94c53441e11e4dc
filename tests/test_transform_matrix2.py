"""The second transformation table (tests/transform_cases2.py) against JAX 0.10.2's results
(tools/record_jax_transforms2.py, tests/data/jax_transforms2.json), in three settings:
JAX's x64 answers under transpile's default NumPy dtype rules and under its JAX rules with
x64, and JAX's default 32-bit answers under its JAX rules without x64. Every case's tree,
dtypes, shapes and values are compared, or the builtin kind of the error JAX raises."""
from __future__ import annotations

import builtins
import json
import warnings
from pathlib import Path

import numpy as np
import pytest

import transpile as tp
from transpile.tree_util import tree_leaves

from transform_cases2 import LOOSE_F32, cases, tree_shape

RECORDED = json.loads((Path(__file__).parent / "data" / "jax_transforms2.json").read_text())
CASES = cases(tp)
# setting -> (recorded mode, transpile config)
SETTINGS = {
    "numpy-x64": ("x64", {"transpile_dtype_rules": "numpy"}),
    "jax-x64": ("x64", {"transpile_dtype_rules": "jax", "jax_enable_x64": True}),
    "jax-x32": ("x32", {"transpile_dtype_rules": "jax", "jax_enable_x64": False}),
}


# Under NumPy's rules transpile.random's default integer dtype is JAX's default-config
# int32 (docs/api.md), whose draws differ from JAX's x64 int64 ones: compared in JAX mode.
RANDOM_DEFAULT_INT = {"vmap_randint_batched_max"}


def test_every_case_was_recorded_with_jax_0_10_in_both_modes():
    assert RECORDED["jax_version"].startswith("0.10")
    for mode in ("x64", "x32"):
        assert sorted(CASES) == sorted(RECORDED["modes"][mode])
    assert len(CASES) >= 150


def _tolerance(name, dtype):
    if dtype == np.float64 or dtype == np.complex128:
        return 1e-9, 1e-12
    if any(word in name for word in LOOSE_F32):
        return 2e-5, 2e-6
    return 4e-6, 1e-6


def _check_leaf(name, k, leaf, rec, check_dtype):
    leaf = np.asarray(leaf)
    where = f"{name} leaf {k}"
    if rec["dtype"] == "float0":
        assert leaf.dtype == np.dtype(tp.float0), f"{where}: {leaf.dtype}, JAX gives float0"
        assert list(leaf.shape) == rec["shape"], where
        return
    if check_dtype:
        assert str(leaf.dtype) == rec["dtype"], f"{where}: dtype {leaf.dtype}, JAX {rec['dtype']}"
    assert list(leaf.shape) == rec["shape"], f"{where}: shape {leaf.shape}, JAX {rec['shape']}"
    dtype = np.dtype(rec["dtype"])
    if dtype.kind == "c":
        want = np.array([complex(float(re), float(im)) for re, im in rec["values"]], dtype)
    else:
        want = np.array(rec["values"], dtype=np.float64 if dtype.kind == "f" else dtype)
    want = want.astype(dtype).reshape(rec["shape"])
    if dtype.kind in "fc":
        rtol, atol = _tolerance(name, leaf.dtype)
        np.testing.assert_allclose(leaf, want, rtol=rtol, atol=atol, equal_nan=True,
                                   err_msg=where)
    else:
        np.testing.assert_array_equal(leaf, want, err_msg=where)


def check_case(name, setting):
    if setting == "numpy-x64" and name in RANDOM_DEFAULT_INT:
        return
    mode, config = SETTINGS[setting]
    rec = RECORDED["modes"][mode][name]
    with tp.config.settings(**config), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if "error" in rec:
            with pytest.raises(getattr(builtins, rec["error"])):
                CASES[name]()
            return
        out = CASES[name]()
    assert tree_shape(out) == rec["tree"], f"{name}: result structure differs from JAX's"
    leaves = tree_leaves(out)
    assert len(leaves) == len(rec["leaves"]), name
    # NumPy's rules keep NumPy's dtypes, which JAX's x64 mode shares but for weak types
    check_dtype = setting != "numpy-x64"
    for k, (leaf, leaf_rec) in enumerate(zip(leaves, rec["leaves"])):
        _check_leaf(name, k, leaf, leaf_rec, check_dtype)


@pytest.mark.parametrize("setting", sorted(SETTINGS))
@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_jax(name, setting):
    check_case(name, setting)
