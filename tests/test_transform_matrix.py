"""The transformation table of tests/transform_cases.py against JAX 0.10.2's results
(recorded by tools/record_jax_transforms.py in tests/data/jax_transforms.json): every case's
tree, dtypes, shapes and values, or the kind of error JAX raises."""
from __future__ import annotations

import builtins
import json
from pathlib import Path

import numpy as np
import pytest

import transpile as tp
from transpile.tree_util import tree_leaves

from transform_cases import cases, tree_shape

RECORDED = json.loads((Path(__file__).parent / "data" / "jax_transforms.json").read_text())
CASES = cases(tp)


def test_every_case_was_recorded_with_jax_0_10():
    assert RECORDED["jax_version"].startswith("0.10")
    assert sorted(CASES) == sorted(RECORDED["cases"])


def _check_leaf(name, k, leaf, rec):
    leaf = np.asarray(leaf)
    where = f"{name} leaf {k}"
    if rec["dtype"] == "float0":
        assert leaf.dtype == np.dtype(tp.float0), f"{where}: {leaf.dtype}, JAX gives float0"
        assert list(leaf.shape) == rec["shape"], where
        return
    assert str(leaf.dtype) == rec["dtype"], f"{where}: dtype {leaf.dtype}, JAX {rec['dtype']}"
    assert list(leaf.shape) == rec["shape"], f"{where}: shape {leaf.shape}, JAX {rec['shape']}"
    want = np.asarray(rec["values"], dtype=rec["dtype"]).reshape(rec["shape"])
    if leaf.dtype.kind in "fc":
        tol = 2e-6 if leaf.dtype == np.float32 else 1e-9        # libm vs XLA, in ulps
        np.testing.assert_allclose(leaf, want, rtol=tol, atol=tol, equal_nan=True,
                                   err_msg=where)
    else:
        np.testing.assert_array_equal(leaf, want, err_msg=where)


@pytest.mark.parametrize("name", sorted(RECORDED["cases"]))
def test_matches_jax(name):
    rec = RECORDED["cases"][name]
    if "error" in rec:
        expected = getattr(builtins, rec["error"])
        with pytest.raises(expected):
            CASES[name]()
        return
    out = CASES[name]()
    assert tree_shape(out) == rec["tree"], f"{name}: result structure differs from JAX's"
    leaves = tree_leaves(out)
    assert len(leaves) == len(rec["leaves"]), name
    for k, (leaf, leaf_rec) in enumerate(zip(leaves, rec["leaves"])):
        _check_leaf(name, k, leaf, leaf_rec)
