"""Under JAX's dtype rules, lax's binary operations refuse operands of different dtypes and of
kinds they do not take, in JAX 0.10's words (transpile/lax_dtype_checks.py); under NumPy's
rules they keep promoting. And the shape, split, reduce, conv, take_along_axis and
expand_dims argument errors that JAX's lax_test.py and lax_numpy_test.py match by their text."""
from __future__ import annotations

import re

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile import lax
from transpile.config import config

MISMATCHED = ["add", "mul", "div", "rem", "lt", "gt", "ge", "le", "eq", "ne", "max", "min"]


@pytest.fixture
def jax_rules():
    with config.settings(transpile_dtype_rules="jax", jax_enable_x64=True):
        yield


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("name", MISMATCHED)
def test_mixed_dtypes_are_refused(name, jit, jax_rules):
    op = getattr(lax, name)
    run = tp.jit(op) if jit else op
    with pytest.raises(TypeError, match=f"lax.{name} requires arguments to have the same "
                                        "dtypes, got int64, float64"):
        run(0, 0.0)
    with pytest.raises(TypeError, match="got float32, float64"):
        run(np.ones(2, np.float32), np.ones(2))


@pytest.mark.parametrize("name, accepted", [("rem", "integer, floating"),
                                            ("lt", "integer, floating, bool"),
                                            ("ge", "integer, floating, bool")])
def test_complex_operands_are_refused_where_jax_refuses_them(name, accepted, jax_rules):
    with pytest.raises(TypeError, match=re.escape(
            f"{name} does not accept dtype complex128 at position 0. Accepted dtypes at "
            f"position 0 are subtypes of {accepted}.")):
        getattr(lax, name)(2 + 3j, 4 + 5j)


def test_same_dtypes_still_compute(jax_rules):
    x = np.arange(4, dtype=np.float32)
    assert lax.add(x, x).dtype == np.float32 and lax.add(1.0, 2.0) == 3.0
    assert lax.mul(np.int8(3), np.int8(2)) == 6
    assert lax.mul(x, np.int32(2) * np.ones(4, np.int32), out_dtype=np.float32)[1] == 2.0
    assert list(lax.reduce_window(x, 1.0, lax.mul, (2,), (1,), "VALID")) == [0.0, 2.0, 6.0]
    assert lax.reduce(np.arange(3.0), 0, lax.add, (0,)) == 3.0   # a weak initial value


def test_numpy_rules_keep_promoting():
    with config.settings(transpile_dtype_rules="numpy"):
        assert lax.add(np.ones(2, np.float32), 1).dtype == np.float32
        assert lax.add(np.ones(2, np.float32), np.ones(2)).dtype == np.float64


@pytest.mark.parametrize("call, error, message", [
    (lambda: lax.reshape(np.ones(3), (np.array([3, 1]),)), TypeError,
     "Shapes must be 1D sequences of concrete values of integer type"),
    (lambda: lax.reshape(np.ones(3), (1.5, 2.0)), TypeError,
     "Shapes must be 1D sequences of concrete values of integer type"),
    (lambda: tnp.zeros(1.0), TypeError,
     "Shapes must be 1D sequences of concrete values of integer type"),
    (lambda: tp.jit(tnp.zeros)(2), TypeError,
     "Shapes must be 1D sequences of concrete values of integer type.*\nIf using `jit`, try "
     "using `static_argnums` or applying `jit` to smaller subfunctions."),
    (lambda: tp.jit(tnp.tri)(3, M=3, k=0), TypeError,
     "Shapes must be 1D sequences of concrete values of integer type"),
    (lambda: tnp.ones((-1, 1)), TypeError, "negative dimensions"),
    (lambda: tnp.ones((-1, 1)), ValueError, "negative dimensions"),
    (lambda: lax.split(np.arange(5), [6]), ValueError, "Sum of sizes 6 must be equal to "
                                                       "dimension 0 of the operand shape"),
    (lambda: lax.reduce({"x": np.ones(5)}, {"y": 0.0}, lambda a, b: a, [0]), ValueError,
     "Operands must have the same tree structure as init_values"),
    (lambda: lax.reduce({"x": np.ones(5)}, {"x": np.ones(5)}, lambda a, b: a, [0]), ValueError,
     "reduce found non-scalar initial value"),
    (lambda: lax.reduce(np.arange(3), 0, lax.add, (0, 0)), ValueError,
     "duplicate value in 'axes' of reduction"),
    (lambda: lax.conv(tnp.zeros((1, 1, 3, 3)), np.zeros((1, 1, 1, 1)), [1], "SAME"), ValueError,
     "conv_general_dilated window and window_strides must have the same number of "
     "dimensions"),
    (lambda: tp.jit(lambda i: tnp.split(tnp.zeros((12, 2)), i))(2.0), TypeError,
     "Abstract tracer value encountered where concrete value is expected."),
    (lambda: tnp.take_along_axis(tnp.arange(5), np.array([3.0], np.float32), axis=0),
     TypeError, "take_along_axis indices must be of integer type, got float32"),
    (lambda: tnp.take_along_axis(tnp.arange(5), np.array([3.0]), axis=0), IndexError,
     "integer type"),
    (lambda: tnp.expand_dims(tnp.ones((2, 3)), [3, -1]), ValueError, "repeated axis"),
    (lambda: tp.eval_shape(lambda x: lax.top_k(x, 100),
                           tp.ShapeDtypeStruct((2 ** 31 + 1,), np.float32)), ValueError,
     "top_k returns int32 indices, which will overflow"),
])
def test_argument_errors_begin_with_jax_words(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_array_of_a_python_int_beyond_the_default_int_overflows_as_in_jax():
    with config.settings(transpile_dtype_rules="jax", jax_enable_x64=False):
        with pytest.raises(OverflowError, match="Python int 2147483648 too large to convert "
                                                "to int32"):
            tnp.array(2 ** 31)
        assert tnp.array(2 ** 31 - 1) == 2 ** 31 - 1 and tnp.array(-2 ** 31) == -2 ** 31
    with config.settings(transpile_dtype_rules="numpy"):
        assert tnp.array(2 ** 63).dtype == np.uint64        # NumPy's own answer


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
def test_bitcast_to_the_same_dtype_is_the_value_strongly_typed(jit):
    """(Compiled, it emitted a call to a tp_bitcast_f32_f32 helper that does not exist.)"""
    with config.settings(transpile_dtype_rules="jax", jax_enable_x64=True):
        op = lambda x: lax.bitcast_convert_type(x, np.float64)     # noqa: E731
        run = tp.jit(op) if jit else op
        out = run(lax.abs(2.0))
        assert out == 2.0 and out.dtype == np.float64 and out.weak_type is False
