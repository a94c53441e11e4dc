"""lax.gather/scatter with dimension numbers, lax.fft and the enums, eig and the polynomial
roots, the added special functions, against JAX's recorded values
(tests/jax_laxapi_cases.py, tools/record_jax_laxapi.py): under JAX's dtype rules with x64
on, eagerly and under jit (one C build per group of cases)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

import transpile as tp
import transpile.lax as tlax
import transpile.numpy as tnp
import transpile.scipy.special as tspecial
from jax_laxapi_cases import GROUPS
from transpile.config import config
from recorded_leaves import assert_leaves_like, decode_leaf

RECORDED = json.loads((Path(__file__).parent / "data" / "jax_laxapi.json").read_text())["cases"]


@pytest.fixture(autouse=True, scope="module")
def jax_rules_with_x64():
    with config.settings(transpile_dtype_rules="jax", jax_enable_x64=True):
        yield


def assert_like_jax(result, name):
    assert_leaves_like(result, RECORDED[name], name)


def _cases(group):
    with config.settings(transpile_dtype_rules="jax", jax_enable_x64=True):
        return group(tnp, tlax, tspecial, tp)


CASES = {name: case for group in GROUPS for name, case in _cases(group).items()}


def test_every_case_was_recorded():
    assert sorted(CASES) == sorted(RECORDED)


VALUE_CASES = sorted(n for n in CASES if "error" not in RECORDED.get(n, {}))
ERROR_CASES = sorted(n for n in CASES if "error" in RECORDED.get(n, {}))


def _located(message: str) -> str:
    """A message with each `name at /some/dir/file.py:12` reduced to `file.py` (the line
    moves whenever the cases file is edited; the recorder stores it so reduced)."""
    return re.sub(r" at \S*?([^/\s]+\.py):(\d+)", r" at \1", message)


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("name", ERROR_CASES)
def test_error_matches_jax(name, jit):
    """JAX's exception type and message (which transpile may follow with a hint)."""
    make, args, _ = CASES[name]
    with pytest.raises(Exception) as raised:
        (tp.jit(make) if jit else make)(*args)
    assert RECORDED[name]["error"] in {t.__name__ for t in type(raised.value).__mro__}
    assert _located(str(raised.value)).startswith(RECORDED[name]["message"])


@pytest.mark.parametrize("name", VALUE_CASES)
def test_eager_matches_jax(name):
    make, args, _ = CASES[name]
    assert_like_jax(make(*args), name)


@pytest.fixture(scope="module")
def jitted():
    """Each group's jittable cases as one jitted program."""
    results = {}
    for group in GROUPS:
        table = {n: c for n, c in _cases(group).items() if c[2]}

        def run_all(arguments, table=table):
            return {n: table[n][0](*arguments[n]) for n in table}
        results.update(tp.jit(run_all)({n: c[1] for n, c in table.items()}))
    return results


@pytest.mark.parametrize("name", sorted(n for n, c in CASES.items() if c[2]))
def test_jit_matches_jax(name, jitted):
    assert_like_jax(jitted[name], name)


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
    want = decode_leaf(RECORDED[name][0])
    assert got.dtype == np.float32
    finite = np.isfinite(want) & (np.abs(want) < 1e30) & (np.abs(want) > 1e-30)
    np.testing.assert_allclose(got[finite], want[finite], rtol=1e-4, atol=1e-6)


def group_case(name):
    for group in GROUPS:
        cases = group(tnp, tlax, tspecial, tp)
        if name in cases:
            return cases[name]
    raise KeyError(name)
