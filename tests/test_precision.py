"""lax.Precision and the products' precision= / preferred_element_type= against JAX's recorded
answers (tests/data/jax_names.json, written by tools/record_jax_names.py), eagerly and under
jit: preferred_element_type is the result dtype and, where the operands widen to it, the
accumulation type (int8 products summed in int32 without wrapping, float32 in float64)."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile import lax
from jax_names_data import DATA, assert_matches, call, case_id, decode

PRECISION = DATA["precision"]


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("case", PRECISION["cases"], ids=case_id)
def test_products_match_jax(case, jit):
    expected = decode(case["out"])
    got = call(case, jit=jit)
    assert_matches(got, expected, case_id(case))
    np.testing.assert_array_equal(np.asarray(got), expected)   # these are exact


def test_precision_members_and_spellings_match_jax():
    assert [m.name for m in lax.Precision] == PRECISION["members"]
    assert {m.name: m.value for m in lax.Precision} == PRECISION["values"]
    for spelling, name in PRECISION["names"].items():
        assert str(lax.Precision(spelling)) == name
    assert lax.Precision("HIGHEST") is lax.Precision.HIGHEST


def test_precision_does_not_change_cpu_results():
    a = np.random.default_rng(0).standard_normal((5, 7)).astype(np.float32)
    f = tp.jit(lambda x, y: tnp.dot(x, y, precision=lax.Precision.DEFAULT))
    g = tp.jit(lambda x, y: tnp.dot(x, y, precision=("highest", "bfloat16")))
    np.testing.assert_array_equal(f(a, a.T), tp.jit(tnp.dot)(a, a.T))
    np.testing.assert_array_equal(g(a, a.T), tp.jit(tnp.dot)(a, a.T))


def test_unknown_precision_names_the_argument():
    with pytest.raises(ValueError, match="precision='fast'"):
        tnp.matmul(np.ones((2, 2)), np.ones((2, 2)), precision="fast")


def test_narrower_preferred_type_converts_the_result():
    """float64 operands with preferred float32: computed in float64, then rounded (the
    operands do not widen to it)."""
    a = np.array([1.0 + 2.0 ** -40, 1.0])
    got = tnp.vdot(a, a, preferred_element_type=tnp.float32)
    assert got.dtype == np.float32 and got == np.float32(np.vdot(a, a))
