"""lax's control flow reports mismatched structures and types in JAX 0.10's words (the texts
JAX's lax_control_flow_test.py matches): where two pytrees part (JAX's equality_errors: a
leaf against a tuple, lengths, numbers of children, node metadata), which of dtype and shape
differ, a while_loop condition that is not one boolean scalar, and fori_loop bounds of two
different sized dtypes. Each runs eagerly and under jit."""
from __future__ import annotations

import re

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile import lax
from transpile.config import config

I32 = np.int32(0)

CASES = [
    (lambda x: lax.cond(True, lambda _: dict(a=2.), lambda _: dict(a=(3., 3.)), x),
     r"(?s)cond branch outputs must have the same pytree structure, but they differ:.*"
     r"true_fun output at path \['a'\] is a pytree leaf but false_fun output at path "
     r"\['a'\] is a <class 'tuple'>, so their Python types differ\."),
    (lambda x: lax.switch(1, [lambda _: dict(a=2.), lambda _: dict(a=(3., 3.))], x),
     r"(?s)switch branch outputs must have the same pytree structure, but they differ.*"
     r"branch 0 output at path \['a'\] is a pytree leaf but branch1 output at path \['a'\] "
     r"is a <class 'tuple'>, so their Python types differ\."),
    (lambda x: lax.scan(lambda c, _: ((0, 0, 0), None), (1, (2, 3)), None, length=2),
     re.escape("function carry input and carry output must have the same pytree structure, "
               "but they differ:\n\nThe input carry c is a tuple of length 2 but the "
               "corresponding component of the carry output is a tuple of length 3, so the "
               "lengths do not match.")),
    (lambda x: lax.scan(lambda c, _: ([c[0], c[1]], None), (I32, I32), None, length=1),
     re.escape("The input carry c is a <class 'tuple'> but the corresponding component of "
               "the carry output is a <class 'list'>, so their Python types differ.")),
    (lambda x: lax.scan(lambda c, _: ({"a": c["a"], "b": c["a"]}, None), {"a": I32}, None,
                        length=1),
     re.escape("The input carry c is a <class 'dict'> with 1 child but the corresponding "
               "component of the carry output is a <class 'dict'> with 2 children, so the "
               "numbers of children do not match, with the symmetric difference of key sets: "
               "{'b'}.")),
    (lambda x: lax.scan(lambda c, _: (({"a": c[0]["a"], "b": c[0]["a"]},) * 2, None),
                        ({"a": I32},) * 2, None, length=1),
     re.escape("differ:\n\n  * the input carry component c[0] is a <class 'dict'> with 1 child "
               "but the corresponding component of the carry output is a <class 'dict'> with "
               "2 children")),
    (lambda x: lax.fori_loop(0, 1, lambda i, c: {"T": c["t"]}, {"t": x}),
     r"(?s)with pytree metadata \('t',\).*with pytree metadata \('T',\), so the pytree node "
     r"metadata does not match"),
    (lambda x: lax.scan(lambda c, _: ((c[0].astype("float32"),
                                       c[1].astype("float32").reshape(1, 1), c[2]), None),
                        (I32,) * 3, None, length=1),
     re.escape("  * the input carry component c[0] has type int32[] but the corresponding "
               "output carry component has type float32[], so the dtypes do not match;\n"
               "  * the input carry component c[1] has type int32[] but the corresponding "
               "output carry component has type float32[1,1], so the dtypes do not match, "
               "and the shapes do not match.")),
    (lambda x: lax.while_loop(lambda c: (1., 1.), lambda c: c, x),
     re.escape("cond_fun must return a boolean scalar, but got pytree (*, *).")),
    (lambda x: lax.while_loop(lambda c: np.float32(1.), lambda c: c, np.float32(0.)),
     re.escape("cond_fun must return a boolean scalar, but got output type(s) "
               "[ShapedArray(float32[])].")),
    (lambda x: lax.while_loop(lambda c: True, lambda c: (True, True),
                              (np.bool_(True), np.float32(0.))),
     r"The input carry component c\[1\] has type float32\[\] but the corresponding output "
     r"carry component has type bool\[\], so the dtypes do not match\."),
    (lambda x: lax.fori_loop(np.int16(0), tnp.int32(10), lambda i, c: c, x),
     "lower and upper arguments to fori_loop must have equal types, got int16 and int32"),
    (lambda x: lax.associative_scan(42, x), "lax.associative_scan: fn argument should be "
                                            "callable"),
]


@pytest.fixture(autouse=True)
def jax_rules():
    with config.settings(transpile_dtype_rules="jax", jax_enable_x64=True):
        yield


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("call, message", CASES, ids=range(len(CASES)))
def test_mismatches_are_reported_in_jax_words(call, message, jit):
    run = tp.jit(call) if jit else call
    with pytest.raises(TypeError, match=message):
        run(1.0)


def test_one_python_int_bound_takes_the_other_bounds_type():
    assert lax.fori_loop(np.int16(0), 3, lambda i, c: c + 1, 0.0) == 3
    assert lax.fori_loop(0, np.int16(3), lambda i, c: c + 1, 0.0) == 3


def test_eager_control_flow_results_are_arrays_under_jax_rules():
    """As JAX's: lax.cond returning its operand, a Python float, gives a weak 0-d array."""
    y = lax.cond(True, lambda x: x, lambda x: x, 1.0)
    assert isinstance(y, tp.Array) and y.aval.weak_type and y == 1.0
    with config.settings(transpile_dtype_rules="numpy"):
        assert lax.cond(True, lambda x: x, lambda x: x, 1.0) == 1.0


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
def test_float_bounds_of_one_dtype_count_up_from_lower_as_in_jax(jit):
    """i takes lower, lower + 1, ... while below upper (0.5 + 1.5 + 2.5); an empty range
    runs no step; bounds of two dtypes are refused."""
    def total(lo, hi):
        return lax.fori_loop(lo, hi, lambda i, c: c + i, 0.0)
    run = tp.jit(total) if jit else total
    assert run(0.5, 3.0) == 4.5
    assert run(np.float32(0.5), np.float32(3.0)) == 4.5
    assert run(3.0, 1.0) == 0.0
    with pytest.raises(TypeError, match="lower and upper arguments to fori_loop must have "
                                        "equal types, got int64 and float64"):
        run(0, 3.0)
