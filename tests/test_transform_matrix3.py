"""The third transformation table (tests/transform_cases3.py: det's derivative at singular
matrices, scipy.linalg.expm, lax.pmax/pmin, pure_callback) against JAX 0.10.2's results
(tools/record_jax_transforms3.py, tests/data/jax_transforms3.json), in the second table's
three settings (tests/test_transform_matrix2.py), plus what transpile decides differently:
pure_callback inside jit raises instead of calling back at run time."""
from __future__ import annotations

import builtins
import json
import warnings
from pathlib import Path

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile.tree_util import tree_leaves

from test_transform_matrix2 import SETTINGS
from transform_cases2 import tree_shape
from transform_cases3 import LOOSE_F32, cases

RECORDED = json.loads((Path(__file__).parent / "data" / "jax_transforms3.json").read_text())
CASES = cases(tp)


def test_every_case_was_recorded_with_jax_0_10_in_both_modes():
    assert RECORDED["jax_version"].startswith("0.10")
    for mode in ("x64", "x32"):
        assert sorted(CASES) == sorted(RECORDED["modes"][mode])


def _check_leaf(name, k, leaf, rec, check_dtype):
    leaf = np.asarray(leaf)
    where = f"{name} leaf {k}"
    if check_dtype:
        assert str(leaf.dtype) == rec["dtype"], f"{where}: dtype {leaf.dtype}, JAX {rec['dtype']}"
    assert list(leaf.shape) == rec["shape"], f"{where}: shape {leaf.shape}, JAX {rec['shape']}"
    dtype = np.dtype(rec["dtype"])
    want = np.array([float(v) for v in rec["values"]] if dtype.kind == "f" else rec["values"],
                    dtype=np.float64 if dtype.kind == "f" else dtype).reshape(rec["shape"])
    if dtype.kind != "f":
        np.testing.assert_array_equal(leaf, want, err_msg=where)
        return
    if leaf.dtype == np.float64:
        rtol, atol = 1e-9, 1e-12
    else:
        rtol, atol = (2e-5, 2e-6) if any(w in name for w in LOOSE_F32) else (4e-6, 1e-6)
    np.testing.assert_allclose(leaf, want, rtol=rtol, atol=atol, equal_nan=True, err_msg=where)


@pytest.mark.parametrize("setting", sorted(SETTINGS))
@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_jax(name, setting):
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
    for k, (leaf, leaf_rec) in enumerate(zip(leaves, rec["leaves"])):
        _check_leaf(name, k, leaf, leaf_rec, check_dtype=setting != "numpy-x64")


def test_pure_callback_inside_jit_raises_naming_the_callback():
    def host_sin(x):
        return np.sin(x)
    spec = tp.ShapeDtypeStruct((3,), np.float64)
    with pytest.raises(NotImplementedError, match="pure_callback\\(.*host_sin\\).*outside"):
        tp.jit(lambda x: tp.pure_callback(host_sin, spec, x))(np.ones(3))
    with pytest.raises(NotImplementedError, match="host_sin"):
        tp.grad(lambda x: tp.pure_callback(host_sin, tp.ShapeDtypeStruct((), np.float64),
                                           x))(1.0)


def test_pure_callback_runs_under_disable_jit():
    spec = tp.ShapeDtypeStruct((3,), np.float64)
    with tp.disable_jit():
        out = tp.jit(lambda x: tp.pure_callback(np.sin, spec, x) * 2)(np.arange(3.0))
    np.testing.assert_array_equal(out, 2 * np.sin(np.arange(3.0)))


def test_pure_callback_wrong_dtype_names_both_dtypes():
    spec = tp.ShapeDtypeStruct((3,), np.float64)
    with pytest.raises(RuntimeError, match="float32.*float64"):
        tp.pure_callback(lambda x: x.astype(np.float32), spec, np.ones(3))


def test_det_gradient_at_singular_matrices_is_the_adjugate():
    # rank n - 1: the adjugate is the outer product of the null vectors, scaled; a finite
    # difference along the rows agrees (det is a polynomial: central differences are exact
    # up to rounding for the degree-1 dependence on each entry)
    a = np.array([[2.0, -1.0, 1.0], [1.0, 3.0, 4.0], [3.0, 2.0, 5.0]])    # row 3 = row 1 + 2
    assert tnp.linalg.det(a) == 0
    g = np.asarray(tp.grad(tnp.linalg.det)(a))
    eps = 1e-6
    fd = np.zeros_like(a)
    for i in range(3):
        for j in range(3):
            e = np.zeros_like(a)
            e[i, j] = eps
            fd[i, j] = (np.linalg.det(a + e) - np.linalg.det(a - e)) / (2 * eps)
    np.testing.assert_allclose(g, fd, atol=1e-7)
    assert np.abs(g).max() > 1


def test_expm_matches_scipy_semantics_on_commuting_sums():
    a = np.diag([0.5, -1.0, 2.0])
    b = np.diag([1.0, 0.25, -0.5])
    expm = tp.scipy.linalg.expm
    np.testing.assert_allclose(expm(a + b), expm(a) @ expm(b), rtol=1e-13)
    np.testing.assert_allclose(expm(a), np.diag(np.exp(np.diag(a))), rtol=1e-14)
