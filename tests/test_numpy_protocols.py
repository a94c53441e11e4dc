"""NumPy's own functions and ufuncs on traced values (transpile/numpy/_protocols.py): under
jit they run the transpile.numpy function of the same name, with NumPy's values and dtypes;
what transpile.numpy lacks, and `out=`, raise TypeErrors that name the function and the fix.
Outside jit nothing changes: NumPy computes, EagerArrays stay EagerArrays."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile.eager_array import EagerArray

X = np.arange(1.0, 7.0).reshape(2, 3)
Y = np.linspace(-1.0, 2.0, 6).reshape(2, 3)
HOST = np.array([[0.5, -1.0, 2.0], [1.0, 3.0, -2.0]])       # a NumPy constant the code closes over

# Each takes two (2, 3) float64 arrays and calls NumPy by name, as existing NumPy code does.
NUMPY_CODE = {
    "sum_keepdims": lambda x, y: np.sum(x, axis=-1, keepdims=True),
    "sum_out_none": lambda x, y: np.sum(x, axis=0, out=None),
    "mean": lambda x, y: np.mean(x, axis=1),
    "sin": lambda x, y: np.sin(x),
    "exp_of_sum": lambda x, y: np.exp(x + y),
    "where": lambda x, y: np.where(x > 2, x, y),
    "maximum": lambda x, y: np.maximum(x, y),
    "concatenate_with_numpy": lambda x, y: np.concatenate([x, HOST], axis=0),
    "stack": lambda x, y: np.stack([x, y]),
    "dot": lambda x, y: np.dot(x, y.T),
    "matmul_operator_numpy_left": lambda x, y: HOST.T @ x,
    "numpy_left_operand": lambda x, y: HOST - x,
    "numpy_left_comparison": lambda x, y: HOST < x,
    "numpy_scalar_left": lambda x, y: np.float64(2.0) * x,
    "linalg_norm": lambda x, y: np.linalg.norm(x, axis=1),
    "zeros_like": lambda x, y: np.zeros_like(x) + y,
    "clip": lambda x, y: np.clip(x, 2.0, 4.0),
    "round": lambda x, y: np.round(y, 1),
    "cumsum": lambda x, y: np.cumsum(x, axis=1),
    "transpose_reshape": lambda x, y: np.reshape(np.transpose(x), (6,)),
    "add_reduce": lambda x, y: np.add.reduce(x, axis=0),
    "maximum_reduce_keepdims": lambda x, y: np.maximum.reduce(y, axis=1, keepdims=True),
    "multiply_accumulate": lambda x, y: np.multiply.accumulate(x, axis=1),
    "subtract_outer": lambda x, y: np.subtract.outer(x[0], y[1]),
    "ufunc_dtype": lambda x, y: np.add(x, y, dtype=np.float32),
    "shape_and_ndim": lambda x, y: x * (np.ndim(x) + np.shape(y)[1] + np.size(x)),
    "result_type": lambda x, y: x.astype(np.result_type(x, np.float32)),
}


@pytest.mark.parametrize("name", sorted(NUMPY_CODE))
def test_numpy_functions_on_traced_values_give_numpys_answer(name):
    fun = NUMPY_CODE[name]
    want = fun(X, Y)                            # NumPy itself, on concrete arrays
    got = tp.jit(fun)(X, Y)
    assert got.dtype == np.asarray(want).dtype and got.shape == np.shape(want)
    np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-15)


def test_numpy_calls_are_recorded_not_constant_folded():
    ir = tp.make_ir(lambda x: np.sum(np.sin(x), axis=-1, keepdims=True))(X)
    assert [e.prim.name for e in ir.eqns][0] == "sin"
    assert not ir.constvars                     # computed from the argument, not baked in


def test_numpy_code_on_a_weak_python_scalar_argument_is_strong_as_numpy():
    """np.sin of a Python float is a float64 in NumPy (strong), not a weak value."""
    f = tp.jit(lambda s: np.sin(s) + np.float32(1))
    assert f(0.5).dtype == (np.sin(0.5) + np.float32(1)).dtype


@pytest.mark.parametrize("call, names", [
    (lambda x: np.add(x, 1.0, out=np.empty((2, 3))), ["numpy.add", "out="]),
    (lambda x: np.sum(x, axis=0, out=np.empty(3)), ["numpy.sum", "out="]),
    (lambda x: np.add.at(x, [0], 1.0), ["numpy.add.at", "a.at[indices]"]),
    (lambda x: np.add.reduceat(x, [0, 1], axis=1), ["numpy.add.reduceat", "not supported"]),
    (lambda x: np.sin(x, where=x > 1), ["numpy.sin", "where=", "tnp.where"]),
    (lambda x: np.add(x, x, casting="unsafe"), ["numpy.add", "casting="]),
    (lambda x: np.concatenate([x, x], casting="unsafe"),
     ["numpy.concatenate", "transpile.numpy.concatenate(", "casting"]),
])
def test_what_cannot_be_traced_says_what_to_write(call, names):
    with pytest.raises(TypeError) as info:
        tp.jit(call)(X)
    for name in names:
        assert name in str(info.value)


def test_a_ufunc_method_transpile_refuses_keeps_its_reason():
    """tnp.hypot.reduce exists and refuses a non-associative fold: that reason reaches the
    NumPy caller unchanged."""
    with pytest.raises(NotImplementedError, match="hypot.reduce"):
        tp.jit(lambda x: np.hypot.reduce(x))(X)


def test_in_place_operator_on_a_numpy_array_says_to_rebind():
    def accumulate(x):
        acc = np.zeros((2, 3))
        acc += x
        return acc
    with pytest.raises(TypeError, match=r"a = a \+ x"):
        tp.jit(accumulate)(X)


def test_the_same_code_runs_eagerly_on_numpy_and_keeps_eager_arrays():
    e = tnp.asarray(X)
    assert type(np.sin(e)) is EagerArray               # NumPy keeps the subclass, as before
    assert np.sum(e) == np.sum(X) and type(np.sum(X)) is np.float64
    for name in ("sum_keepdims", "add_reduce", "dot", "where"):
        fun = NUMPY_CODE[name]
        with tp.disable_jit():
            eager = tp.jit(fun)(X, Y)
        np.testing.assert_array_equal(eager, fun(X, Y))


def test_another_librarys_array_type_is_left_to_answer():
    class Other:
        def __array_function__(self, func, types, args, kwargs):
            return "other"

    seen = []

    @tp.jit
    def f(x):
        seen.append(np.concatenate([x, Other()]))
        return x
    f(X)
    assert seen == ["other"]


def test_numpy_asking_a_tracer_for_its_value_names_the_users_line():
    """np.take's dispatch looks at the array only, so NumPy converts the traced index: the
    error names this file's line, not NumPy's, and says to use transpile.numpy."""
    table = tnp.array([1.0, 10.0])
    with pytest.raises(tp.ConcretizationError) as info:
        tp.jit(lambda i: np.take(table, i))(1)
    message = str(info.value)
    assert "test_numpy_protocols.py" in message and "fromnumeric" not in message
    assert "tnp.asarray" in message


def test_numpy_functions_that_tnp_gained_run_on_tracers():
    """np.frexp and np.fabs dispatch to tnp's (issue #19 added them); np.put, in place by
    NumPy's definition, says how to get the updated array."""
    x = np.array([[0.75, -3.0, 10.0]])
    mantissa, exponent = tp.jit(lambda v: np.frexp(v))(x)
    want = np.frexp(x)
    np.testing.assert_array_equal(mantissa, want[0])
    np.testing.assert_array_equal(exponent, want[1])
    np.testing.assert_array_equal(tp.jit(lambda v: np.fabs(v))(x), np.fabs(x))
    with pytest.raises(ValueError, match="inplace=False"):
        tp.jit(lambda v: np.put(v, [0], [1.0]))(x)
