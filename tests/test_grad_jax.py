"""transpile's gradients, JVPs and Hessians equal JAX 0.10's (recorded by
tools/record_jax_grad.py in tests/data/jax_grad.json), eagerly, for the functions of
tests/grad_cases.py."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile import lax

from grad_cases import cases

DATA = json.loads((Path(__file__).parent / "data" / "jax_grad.json").read_text())["cases"]
CASES = cases(tnp, lax)


def test_every_case_was_recorded():
    assert sorted(CASES) == sorted(DATA)


@pytest.mark.parametrize("name", sorted(DATA))
def test_value_and_grad_match_jax(name):
    fun, _ = CASES[name]
    rec = DATA[name]
    x = np.asarray(rec["x"], dtype=np.float64)
    value, g = tp.value_and_grad(fun)(x)
    np.testing.assert_allclose(value, rec["value"], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(g, np.asarray(rec["grad"]), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", sorted(DATA))
def test_jvp_matches_jax(name):
    fun, _ = CASES[name]
    rec = DATA[name]
    x = np.asarray(rec["x"], dtype=np.float64)
    direction = np.asarray(rec["direction"], dtype=np.float64)
    _, tangent = tp.jvp(fun, (x,), (direction,))
    np.testing.assert_allclose(tangent, rec["jvp"], rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", sorted(n for n in DATA if DATA[n]["hessian"] is not None))
def test_hessian_matches_jax(name):
    fun, _ = CASES[name]
    rec = DATA[name]
    x = np.asarray(rec["x"], dtype=np.float64)
    np.testing.assert_allclose(tp.hessian(fun)(x), np.asarray(rec["hessian"]), rtol=1e-9,
                               atol=1e-10)
