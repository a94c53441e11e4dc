"""tnp's dtype introspection against jax.numpy's recorded answers (x64 on; tests/data/
jax_names.json, written by tools/record_jax_names.py). Promotion is NumPy's in transpile: the
pairs where JAX's lattice differs (a 32/64-bit integer with float32 or complex64, where JAX
keeps the float's width) must give NumPy's answer, and no other pair may differ."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from jax_names_data import DATA

API = DATA["dtype_api"]
NAMES = API["names"]


def _pairs(table):
    return [(k.split(",")[0], k.split(",")[1], v) for k, v in API[table].items()]


def _jax_keeps_float_width(a, b) -> bool:
    kinds = {np.dtype(a).kind, np.dtype(b).kind}
    small_float = {"float32", "complex64"} & {a, b}
    wide_int = {"int32", "int64", "uint32", "uint64"} & {a, b}
    return bool(small_float and wide_int) and kinds & {"i", "u"}


@pytest.mark.parametrize("a, b, expected", _pairs("promote_types"))
def test_promote_types(a, b, expected):
    got = tnp.promote_types(getattr(tnp, a if a != "bool" else "bool_"), b)
    if _jax_keeps_float_width(a, b):
        assert got == np.promote_types(a, b) and got != expected
    else:
        assert got == np.dtype(expected)


@pytest.mark.parametrize("a, b, expected", _pairs("promote_types"))
def test_promote_types_is_jax_lattice_under_jax_rules(a, b, expected):
    # The answer transpile's own operations give in JAX mode: JAX's, pair for pair.
    with tp.config.settings(transpile_dtype_rules="jax", jax_enable_x64=True):
        assert tnp.promote_types(getattr(tnp, a if a != "bool" else "bool_"), b) == \
            np.dtype(expected)


def test_promote_types_joins_the_two_half_floats_under_jax_rules():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    with tp.config.settings(transpile_dtype_rules="jax", jax_enable_x64=True):
        assert tnp.promote_types(ml_dtypes.bfloat16, np.float16) == np.float32
        assert tnp.promote_types(ml_dtypes.bfloat16, np.int32) == ml_dtypes.bfloat16
    with pytest.raises(TypeError):        # NumPy's rules: no common dtype
        tnp.promote_types(ml_dtypes.bfloat16, np.float16)


@pytest.mark.parametrize("a, b, expected", _pairs("can_cast"))
def test_can_cast(a, b, expected):
    assert tnp.can_cast(a, getattr(tnp, b if b != "bool" else "bool_")) is expected


@pytest.mark.parametrize("a, kind, expected", _pairs("issubdtype"))
def test_issubdtype(a, kind, expected):
    scalar = getattr(tnp, a if a != "bool" else "bool_")
    assert tnp.issubdtype(scalar, getattr(tnp, kind)) is expected
    assert tnp.issubdtype(np.dtype(a), getattr(tnp, kind)) is expected


@pytest.mark.parametrize("a, kind, expected", _pairs("isdtype"))
def test_isdtype(a, kind, expected):
    assert tnp.isdtype(tnp.dtype(a), kind) is expected
    assert tnp.isdtype(getattr(tnp, a if a != "bool" else "bool_"), kind) is expected


@pytest.mark.parametrize("name", ["float32", "float64"])
def test_finfo(name):
    info = tnp.finfo(getattr(tnp, name))
    for field, value in API["finfo"][name].items():
        assert float(getattr(info, field)) == value, field
    assert tnp.finfo(np.ones(2, name)).eps == info.eps
    assert tnp.finfo(tnp.complex64).eps == tnp.finfo(tnp.float32).eps


@pytest.mark.parametrize("name", NAMES[1:9])
def test_iinfo(name):
    info = tnp.iinfo(getattr(tnp, name))
    assert {"min": int(info.min), "max": int(info.max), "bits": info.bits} == API["iinfo"][name]


def test_dtype_names():
    for name, expected in API["dtype"].items():
        assert str(tnp.dtype(name)) == expected
        assert tnp.dtype(getattr(tnp, name if name != "bool" else "bool_")) == np.dtype(expected)


def test_result_type():
    expected = API["result_type"]
    assert tnp.result_type(tnp.int8, tnp.uint8) == expected["int8,uint8"]
    assert tnp.result_type(tnp.float32, tnp.float32) == expected["float32,float32"]
    assert tnp.result_type(tnp.int16, 1.0) == expected["int16,python_float"]
    assert tnp.result_type(tnp.float32, 3) == expected["float32,python_int"]
    assert tnp.result_type(tnp.uint8, 3) == expected["uint8,python_int"]
    assert tnp.result_type(1, 2.0) == expected["python_int,python_float"]
    assert tnp.result_type(np.ones(2, np.float32), 1j) == expected["float32_array,python_complex"]
    assert tnp.result_type(tnp.bool_, tnp.int8) == expected["bool,int8"]


def test_traced_values_answer_too():
    """Under jit the functions see tracers: their dtype (and weak type) decide."""
    def f(x, y):
        assert tnp.issubdtype(x.dtype, tnp.floating) and tnp.result_type(x, 2) == np.float32
        assert tnp.result_type(x, y) == np.float64 and tnp.finfo(x).bits == 32
        assert tnp.iinfo(y).max == 2**31 - 1
        return x * tnp.finfo(x).eps
    out = tp.jit(f)(np.ones(2, np.float32), np.int32(1))
    assert out.dtype == np.float32 and out[0] == np.finfo(np.float32).eps


def test_aliases_and_abstract_types():
    assert tnp.floating is np.floating and tnp.inexact is np.inexact
    assert tnp.int_ == np.int64 and tnp.float_ == np.float64 and tnp.complex_ == np.complex128
    assert tnp.single == np.float32 and tnp.double == np.float64 and tnp.uint == np.uint64
    assert tnp.csingle == np.complex64 and tnp.cdouble == np.complex128
    assert tnp.float32(2).dtype == np.float32


@pytest.mark.parametrize("call, match", [
    (lambda: tnp.finfo(tnp.int32), "iinfo"),
    (lambda: tnp.iinfo(tnp.float32), "finfo"),
    (lambda: tnp.result_type(), "at least one"),
    (lambda: tnp.promote_types("int8", object()), "neither a dtype"),
])
def test_errors_name_the_fix(call, match):
    with pytest.raises((TypeError, ValueError), match=match):
        call()


def test_dtype_of_a_tracer():
    assert tp.jit(lambda x: x * tp.numpy.finfo(tp.numpy.dtype(x)).eps)(np.ones(1, np.float32)) \
        == np.finfo(np.float32).eps
