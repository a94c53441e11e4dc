"""Behaviours JAX's own test files (tools/jax_testsuite.py) found missing or wrong, each
checked here against NumPy, eagerly and compiled, under NumPy's and JAX's dtype rules."""
import builtins
import json
import operator
import os
from typing import NamedTuple

import numpy as np
import pytest

import jaxsuite_cases
import transpile as tp
import transpile.numpy as tnp

try:
    import ml_dtypes
    HALF_DTYPES = [np.float16, ml_dtypes.bfloat16]
except ImportError:      # optional: transpile never needs it; bfloat16 cases are left out
    HALF_DTYPES = [np.float16]

RULES = [dict(transpile_dtype_rules="numpy"),
         dict(transpile_dtype_rules="jax", jax_enable_x64=True)]
INF, NAN = np.inf, np.nan


def _eager_and_compiled(fn, *args):
    return [np.asarray(fn(*args)), np.asarray(tp.jit(fn)(*args))]


@pytest.mark.parametrize("rules", RULES, ids=["numpy", "jax"])
@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint16, np.int64])
def test_signbit_of_integers_and_booleans(rules, dtype):
    # NumPy computes these in float16/float64; C's signbit takes only floats (a compile
    # error before).
    x = np.array([1, 0, 1, 1, 0, 1] if dtype in (np.bool_, np.uint16) else [3, 0, -1, -128, 5, -2],
                 dtype).reshape(2, 3)
    with tp.config.settings(**rules):
        for got in _eager_and_compiled(tnp.signbit, x):
            np.testing.assert_array_equal(got, np.signbit(x))


@pytest.mark.parametrize("rules", RULES, ids=["numpy", "jax"])
@pytest.mark.parametrize("dtype", HALF_DTYPES)
def test_signbit_of_16_bit_floats(rules, dtype):
    # The top bit of the 16-bit pattern (gcc 12 crashed vectorising the float32 version for
    # 2-d operands).
    x = np.array([[-1.5, 0.0, -0.0, INF], [-INF, NAN, -NAN, 2.0]] * 2, dtype)
    with tp.config.settings(**rules):
        for got in _eager_and_compiled(tnp.signbit, x):
            np.testing.assert_array_equal(got, np.signbit(x.astype(np.float32)))


COMPLEX_EDGES = np.array([0j, 3 + 4j, -0.5 + 1.5j, 2.5 - 0.5j, complex(INF, 0), complex(INF, INF),
                          complex(NAN, 1), complex(-INF, 2), complex(2, -INF), complex(NAN, INF),
                          complex(1e-320, 0), complex(1e300, 1e300)])


@pytest.mark.parametrize("rules", RULES, ids=["numpy", "jax"])
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("name", ["sign", "rint"])
def test_complex_sign_and_rint_as_numpy(rules, dtype, name):
    with np.errstate(over="ignore"):        # 1e300 overflows complex64, as intended
        z = COMPLEX_EDGES.astype(dtype)
    expected = getattr(np, name)(z)
    with tp.config.settings(**rules), np.errstate(all="ignore"):
        for got in _eager_and_compiled(getattr(tnp, name), z):
            assert got.dtype == expected.dtype
            np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("name", ["fmax", "fmin"])
def test_complex_fmax_fmin_ignore_nan_as_numpy(name):
    a = np.array([complex(NAN, 0), 1 + 1j, 2 + 0j, complex(NAN, NAN), 1 - 1j, complex(0, NAN)])
    b = np.array([1 + 0j, complex(0, NAN), 2 + 1j, 1j, 1 + 1j, complex(NAN, 0)])
    for got in _eager_and_compiled(getattr(tnp, name), a, b):
        np.testing.assert_array_equal(got, getattr(np, name)(a, b))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int16])
def test_fix_rounds_towards_zero(dtype):
    x = np.array([-2.5, -0.5, 0.0, 0.5, 1.7, -7.0], dtype) if dtype != np.int16 else \
        np.array([-3, 0, 4], dtype)
    for got in _eager_and_compiled(tnp.fix, x):
        np.testing.assert_array_equal(got, np.fix(x))
    with pytest.raises(NotImplementedError, match="out"):
        tnp.fix(x, out=np.empty_like(x))


class _TakesOver:
    """An operand with its own (reflected) operators, which arrays must let answer."""
    def __add__(self, other): return "left"
    def __radd__(self, other): return "right"
    def __lt__(self, other): return "lt"
    def __gt__(self, other): return "gt"


class _Pair(NamedTuple):
    value: object

    def __mul__(self, other):
        return _Pair(self.value * other)

    def __rmul__(self, other):
        return _Pair(other * self.value)


class _Declines:
    def __add__(self, other): return NotImplemented
    def __radd__(self, other): return NotImplemented


@pytest.mark.parametrize("rules", RULES, ids=["numpy", "jax"])
def test_operators_defer_to_objects_they_do_not_compute_with(rules):
    with tp.config.settings(**rules):
        x = tnp.ones(3)
        traced = []

        def record(a):
            traced.append((a + _TakesOver(), _TakesOver() + a, a < _TakesOver(),
                           a == _Declines()))
            return a

        tp.jit(record)(x)
        assert traced == [("right", "left", "gt", False)]   # == falls back to identity
        if rules["transpile_dtype_rules"] == "jax":     # eager arrays are NumPy's otherwise
            assert (x + _TakesOver(), x < _TakesOver()) == ("right", "gt")
        # A namedtuple is an object of its own, not a tuple of operands:
        out = tp.jit(operator.mul)(x, _Pair(x))
        assert isinstance(out, _Pair)
        np.testing.assert_array_equal(out.value, np.ones(3))
        with pytest.raises(TypeError):
            tp.jit(lambda a: a + _Declines())(x)
        # Lists stay operands, as in NumPy:
        np.testing.assert_array_equal(tp.jit(lambda a: a + [1.0, 2.0, 3.0])(x), [2, 3, 4])


# -- where JAX departs from NumPy: JAX's recorded answers (tools/record_jax_suite.py) -----------

with open(os.path.join(os.path.dirname(__file__), "data", "jax_suite.json")) as _f:
    JAX_SUITE = json.load(_f)


def _decoded(entry):
    if "tuple" in entry:
        return tuple(_decoded(e) for e in entry["tuple"])
    values = np.array(entry["values"], dtype=np.float64 if entry["dtype"].startswith("complex")
                      else entry["dtype"])
    if entry["dtype"].startswith("complex"):
        values = (values[..., 0] + 1j * values[..., 1]).astype(entry["dtype"])
    return values.reshape(entry["shape"])


def _assert_like(got, expected):
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected)
        for g, e in zip(got, expected):
            _assert_like(g, e)
        return
    got = np.asarray(got)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    np.testing.assert_allclose(got, expected, rtol=1e-6, equal_nan=True)


@pytest.mark.parametrize("name", sorted(jaxsuite_cases.CASES))
def test_departures_from_numpy_match_jax(name):
    case = jaxsuite_cases.CASES[name]
    expected = _decoded(JAX_SUITE["values"][name])
    with tp.config.settings(transpile_dtype_rules="jax", jax_enable_x64=True):
        _assert_like(case(tnp), expected)
        _assert_like(tp.jit(lambda: case(tnp))(), expected)


@pytest.mark.parametrize("name", sorted(jaxsuite_cases.ERRORS))
def test_calls_jax_refuses_are_refused(name):
    error = getattr(builtins, JAX_SUITE["errors"][name])
    with tp.config.settings(transpile_dtype_rules="jax", jax_enable_x64=True):
        with pytest.raises(error):
            jaxsuite_cases.ERRORS[name](tnp)
        with pytest.raises(error):
            tp.jit(lambda: jaxsuite_cases.ERRORS[name](tnp))()


def test_list_indices_stay_numpys_under_numpys_rules():
    x = np.arange(6).reshape(3, 2)
    with tp.config.settings(transpile_dtype_rules="numpy"):
        np.testing.assert_array_equal(tnp.asarray(x)[[0, 2]], x[[0, 2]])
        np.testing.assert_array_equal(tp.jit(lambda v: v[[0, 2]])(x), x[[0, 2]])


@pytest.mark.parametrize("subscripts,shapes", [
    ("cij,cjk->cik", [(3, 4, 5), (3, 1, 6)]),      # a contracted axis of length 1
    ("cij,cjk->cik", [(1, 4, 5), (3, 1, 6)]),      # and a batch axis
    ("ij,ij->i", [(3, 1), (3, 4)])])
def test_einsum_broadcasts_length_one_axes_as_numpy(subscripts, shapes):
    rng = np.random.default_rng(0)
    ops = [rng.standard_normal(s) for s in shapes]
    for got in _eager_and_compiled(lambda *a: tnp.einsum(subscripts, *a), *ops):
        np.testing.assert_allclose(got, np.einsum(subscripts, *ops), rtol=1e-12)


def test_einsum_refuses_a_path_contracting_three_operands_at_once():
    a, b, c = np.ones((2, 3)), np.ones((2, 4)), np.ones((2, 5))
    with pytest.raises(NotImplementedError, match="3 or more operands"):
        tnp.einsum("ij,ik,il->jkl", a, b, c, optimize=[(0, 1, 2)])
    path = tnp.einsum_path("ij,ik,il->jkl", a, b, c)[0]
    np.testing.assert_array_equal(tnp.einsum("ij,ik,il->jkl", a, b, c, optimize=path),
                                  np.einsum("ij,ik,il->jkl", a, b, c))


@pytest.mark.parametrize("name", ["nansum", "nanmean", "nanvar", "nanstd", "nanprod"])
def test_nan_reductions_of_complex_values_as_numpy(name):
    z = np.array([[1 + 2j, NAN + 1j, 3 - 1j], [2 + NAN * 1j, 0.5j, -1 + 0j]])
    for got in _eager_and_compiled(lambda v: getattr(tnp, name)(v, axis=1), z):
        np.testing.assert_allclose(got, getattr(np, name)(z, axis=1), rtol=1e-12)


def test_mean_in_an_integer_dtype_as_numpy():
    x = np.array([[3, -1, 4], [1, -5, 9]], np.int8)
    for got in _eager_and_compiled(lambda v: tnp.mean(v, axis=1, dtype=np.int8), x):
        np.testing.assert_array_equal(got, np.mean(x, axis=1, dtype=np.int8))
        assert got.dtype == np.int8


_X = np.arange(60.0).reshape(3, 4, 5)


@pytest.mark.parametrize("index", [
    (np.array([[0, 2, -1, 1]]), np.array([-1, 0, -2, 2])),    # index arrays broadcast
    (slice(None), np.array([0, 1]), Ellipsis, np.array([0, 1])),   # apart across an ellipsis
    (np.array([0, 2]), None, np.array([-1, 2])),                # None between array indices
    (Ellipsis, np.array([0, 2]), None, None, np.array([-1, 2])),
    (None, 1), (1, None, slice(1, 3)),
    (0, slice(None, 2), True), (0, slice(None, 2), False),      # scalar booleans
    (Ellipsis, True), (True, slice(None), True, np.array(True)),
    (slice(None, 2), np.array([0, 2]), True),
    (np.array([0, 2, -1, 0]), Ellipsis, np.array([[0], [2], [-1], [0]]), None)], ids=repr)
def test_reads_and_updates_with_none_scalar_booleans_and_broadcast_arrays_as_numpy(index):
    expected_read = _X[index]
    values = np.arange(expected_read.size, dtype=float).reshape(expected_read.shape) + 100
    expected = _X.copy()
    expected[index] = values
    np.testing.assert_array_equal(tnp.asarray(_X)[index], expected_read)
    np.testing.assert_array_equal(tp.jit(lambda a: a[index])(_X), expected_read)
    for got in _eager_and_compiled(lambda a, v: tnp.asarray(a).at[index].set(v), _X, values):
        np.testing.assert_array_equal(got, expected)


@pytest.mark.filterwarnings("ignore:All-NaN slice")     # NumPy's, on rows of only NaN
@pytest.mark.parametrize("name", ["quantile", "nanquantile", "percentile", "nanpercentile"])
@pytest.mark.parametrize("axis", [0, -1, None, (0, 2)])
@pytest.mark.parametrize("weighted", [True, False])
def test_inverted_cdf_quantiles_with_and_without_weights_as_numpy(name, axis, weighted):
    rng = np.random.default_rng(1)
    data = rng.standard_normal((4, 3, 5))
    if name.startswith("nan"):
        data[rng.random(data.shape) < 0.3] = NAN
    weights = rng.random(data.shape) + 0.1 if weighted else None
    q = np.array([0.1, 0.5, 0.9]) * (100 if "percentile" in name else 1)

    def quantiles(d, w):
        return getattr(tnp, name)(d, q, axis=axis, method="inverted_cdf", weights=w)
    expected = getattr(np, name)(data, q, axis=axis, method="inverted_cdf", weights=weights)
    for got in _eager_and_compiled(quantiles, data, weights):
        np.testing.assert_array_equal(got, expected)


@pytest.mark.skipif("ml_dtypes" not in globals(), reason="bfloat16 needs ml_dtypes")
def test_bfloat16_sorts_nan_last_eagerly_as_compiled():
    x = np.array([[1.5, NAN, -2.0], [NAN, 3.0, 0.5], [2.0, 1.0, NAN]], ml_dtypes.bfloat16)
    expected = np.sort(x.astype(np.float32), axis=0)
    for got in _eager_and_compiled(lambda v: tnp.sort(v, axis=0), x):
        np.testing.assert_array_equal(got.astype(np.float32), expected)
    np.testing.assert_array_equal(tnp.nanmedian(x, axis=0).astype(np.float32),
                                  np.nanmedian(x.astype(np.float32), axis=0))


@pytest.mark.parametrize("name", ["negative", "sqrt", "square"])
def test_at_apply_applies_once_per_occurrence_of_an_index_as_ufunc_at(name):
    x = np.arange(1.0, 11.0)
    index = np.array([1, 1, -3, 2, 1, 0, 9, -1, 4, 4])
    expected = x.copy()
    getattr(np, name).at(expected, index)
    for got in _eager_and_compiled(
            lambda a, i: tnp.asarray(a).at[i].apply(getattr(tnp, name)), x, index):
        np.testing.assert_allclose(got, expected, rtol=1e-15)
    np.testing.assert_array_equal(tnp.asarray(x).at[1:4].apply(tnp.negative),
                                  np.concatenate([x[:1], -x[1:4], x[4:]]))


def test_a_repeated_axis_is_named_as_jax_names_it():
    with pytest.raises(ValueError, match=r"duplicate value in 'axis': \(0, 0\)"):
        tnp.sum(np.arange(3), (0, 0))


def test_an_index_tuple_holding_lists_works_under_jit():
    # jit flattens the lists, so they hold traced integers.
    x = np.arange(60).reshape(3, 4, 5)
    index = ([[0], [-1]], np.array([[2, 3, 0, 3]]))
    np.testing.assert_array_equal(tp.jit(lambda a, i: a[i])(x, index), x[index])
    values = np.full(x[index].shape, 7)
    expected = x.copy()
    expected[index] = values
    np.testing.assert_array_equal(tp.jit(lambda a, i, v: a.at[i].set(v))(x, index, values),
                                  expected)


@pytest.mark.skipif("ml_dtypes" not in globals(), reason="bfloat16 needs ml_dtypes")
def test_eager_bfloat16_sums_accumulate_in_float32_as_compiled():
    x = (np.random.default_rng(0).standard_normal((2, 3, 4)) * 3).astype(ml_dtypes.bfloat16)
    expected = np.sum(x.astype(np.float32)).astype(ml_dtypes.bfloat16)
    for got in _eager_and_compiled(tnp.sum, x):
        assert got == expected
