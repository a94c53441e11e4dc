"""Every transpile.numpy op on every dtype it accepts: compiled C against NumPy.

Each test compiles one function that applies the op to a dict of arrays (one per
dtype), so a whole dtype sweep costs one compile. Inputs are edge values (0, -0.0,
extremes, NaN, ±inf) and random values; binary ops see every pair via broadcasting
a column against a row, which also exercises broadcasting of mismatched ranks.
"""
import warnings

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from conftest import ALL_DTYPES, FLOATS, SIGNED, UNSIGNED, assert_same, edge_values

# Transcendental functions: NumPy's own SIMD kernels and libm may differ by a few ulp.
TRANSCENDENTAL = {"exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
                  "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arctan2", "power"}
MAX_ULP = 4

UNARY = ["negative", "absolute", "sign", "exp", "exp2", "expm1", "log", "log2", "log10",
         "log1p", "sqrt", "square", "reciprocal", "sin", "cos", "tan", "arcsin", "arccos",
         "arctan", "sinh", "cosh", "tanh", "floor", "ceil", "round", "trunc", "isnan", "isinf",
         "isfinite", "invert", "logical_not", "positive", "rint"]
BINARY = ["add", "subtract", "multiply", "divide", "floor_divide", "remainder", "power",
          "maximum", "minimum", "arctan2", "equal", "not_equal", "less", "less_equal",
          "greater", "greater_equal", "logical_and", "logical_or", "logical_xor",
          "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift"]


def numpy_result(fn, *args):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args)


def numpy_accepts(fn, *args) -> bool:
    """Does NumPy accept these operand dtypes, with a dtype transpile supports?"""
    try:
        out = numpy_result(fn, *[a[:1] for a in args])
    except (TypeError, ValueError):
        return False
    # float16 too: NumPy computes sin(int8) or sqrt(bool) in it, and so does transpile
    return np.asarray(out).dtype in ALL_DTYPES or np.asarray(out).dtype == np.float16


def check_dict(results, expected, name):
    for key, exp in expected.items():
        tol = MAX_ULP if name in TRANSCENDENTAL else 0
        assert_same(results[key], exp, max_ulp=tol, what=f"{name}[{key}]")


@pytest.mark.parametrize("name", UNARY)
def test_unary_ops_match_numpy_on_every_dtype(name):
    tfn, nfn = getattr(tnp, name), getattr(np, name)
    inputs = {str(dt): edge_values(dt) for dt in ALL_DTYPES}
    accepted = {k: v for k, v in inputs.items() if numpy_accepts(nfn, v)}
    rejected = {k: v for k, v in inputs.items() if k not in accepted}
    results = tp.jit(lambda d: {k: tfn(v) for k, v in d.items()})(accepted)
    check_dict(results, {k: numpy_result(nfn, v) for k, v in accepted.items()}, name)
    for key, value in rejected.items():        # NumPy refuses: so do we
        with pytest.raises(TypeError):
            tp.jit(tfn)(value)


def _binary_pairs():
    same = [(dt, dt) for dt in ALL_DTYPES]
    mixed = [(np.int8, np.float32), (np.uint8, np.int8), (np.int64, np.uint64),
             (np.int32, np.float64), (np.bool_, np.int16), (np.uint64, np.float32),
             (np.uint16, np.int32), (np.float32, np.float64), (np.uint32, np.int64)]
    return same + [(np.dtype(a), np.dtype(b)) for a, b in mixed]


def _binary_inputs(name, a_dt, b_dt):
    x, y = edge_values(a_dt, seed=1), edge_values(b_dt, seed=2)
    if name == "power" and a_dt.kind in "iub" and b_dt.kind in "iub":
        y = np.abs(y.astype(np.int64) % 9).astype(b_dt)   # NumPy rejects negative int powers
    return x[:, None], y[None, :]


@pytest.mark.parametrize("name", BINARY)
def test_binary_ops_match_numpy_on_dtype_pairs(name):
    tfn, nfn = getattr(tnp, name), getattr(np, name)
    inputs, expected, rejected = {}, {}, []
    for a_dt, b_dt in _binary_pairs():
        x, y = _binary_inputs(name, a_dt, b_dt)
        key = f"{a_dt}_{b_dt}"
        if numpy_accepts(nfn, x[:, 0], y[0]):
            inputs[key] = (x, y)
            expected[key] = numpy_result(nfn, x, y)
        else:
            rejected.append((x, y))
    results = tp.jit(lambda d: {k: tfn(a, b) for k, (a, b) in d.items()})(inputs)
    check_dict(results, expected, name)
    for x, y in rejected:
        with pytest.raises(TypeError):
            tp.jit(tfn)(x, y)


@pytest.mark.parametrize("scalar", [3, -2, 2.5, True, 0])
def test_binary_ops_with_python_scalars_are_weakly_typed(scalar):
    """NEP 50: `int8_array + 3` stays int8, `int8_array * 2.5` becomes float64."""
    names = ["add", "subtract", "multiply", "divide", "floor_divide", "remainder", "maximum",
             "minimum", "less", "equal", "power"]
    inputs, expected = {}, {}
    for dt in ALL_DTYPES:
        x = edge_values(dt)
        for name in names:
            nfn = getattr(np, name)
            if name == "power" and (not isinstance(scalar, float) and scalar < 0):
                continue
            try:
                exp = numpy_result(nfn, x, scalar)
            except (TypeError, OverflowError, ValueError):
                continue
            if np.asarray(exp).dtype not in ALL_DTYPES:
                continue
            inputs[f"{dt}_{name}"] = x
            expected[f"{dt}_{name}"] = (name, exp)

    def f(d):
        return {k: getattr(tnp, expected[k][0])(v, scalar) for k, v in d.items()}
    results = tp.jit(f)(inputs)
    for key, (name, exp) in expected.items():
        assert_same(results[key], exp, max_ulp=MAX_ULP if name == "power" else 0, what=key)


def test_python_int_out_of_range_for_dtype_raises_like_numpy():
    x = np.arange(4, dtype=np.int8)
    with pytest.raises(OverflowError, match="300"):
        tp.jit(lambda a: a + 300)(x)


@pytest.mark.parametrize("dtype", SIGNED + UNSIGNED)
def test_integer_overflow_wraps_like_numpy(dtype):
    info = np.iinfo(dtype)
    x = np.array([info.max, info.min, info.max - 1], dtype=dtype)
    f = tp.jit(lambda a: (a + a, a * a, a - tnp.ones_like(a) * 3, -a, tnp.abs(a)))
    with np.errstate(all="ignore"):
        expected = (x + x, x * x, x - np.ones_like(x) * 3, -x if dtype.kind == "i" else
                    np.negative(x), np.abs(x))
    for got, exp in zip(f(x), expected):
        assert_same(got, exp, what=str(dtype))


@pytest.mark.parametrize("dtype", SIGNED + UNSIGNED + FLOATS)
def test_floor_divide_and_remainder_by_zero_and_negative(dtype):
    a = np.array([7, -7, 7, -7, 0, 5, -128 if dtype.kind == "i" else 9], dtype=dtype) \
        if dtype.kind != "u" else np.array([7, 0, 5, 255, 1, 9, 3], dtype=dtype)
    b = np.array([2, 2, -2, -2, 0, 0, -1], dtype=dtype) if dtype.kind != "u" else \
        np.array([2, 0, 0, 7, 1, 3, 0], dtype=dtype)
    got = tp.jit(lambda x, y: (x // y, x % y, tnp.floor_divide(x, y), tnp.remainder(x, y)))(a, b)
    expected = numpy_result(lambda: (a // b, a % b, a // b, a % b))
    for g, e in zip(got, expected):
        assert_same(g, e, what=f"{dtype} divmod")


@pytest.mark.parametrize("dtype", SIGNED)
def test_integer_power_with_negative_exponent_follows_jax(dtype):
    base = np.array([2, 1, -1, -1, 0, 3], dtype=dtype)
    exp = np.array([-1, -5, -2, -3, 2, 3], dtype=dtype)
    got = tp.jit(tnp.power)(base, exp)
    assert_same(got, np.array([0, 1, 1, -1, 0, 27], dtype=dtype))


@pytest.mark.parametrize("src", ALL_DTYPES)
def test_astype_to_every_dtype(src):
    x = edge_values(src)
    if src.kind == "f":     # out-of-range float->int casts are platform-defined; see below
        x = x[np.isfinite(x) & (np.abs(x) < 100)]
    targets = {str(dt): dt for dt in ALL_DTYPES}
    got = tp.jit(lambda a: {k: a.astype(dt) for k, dt in targets.items()})(x)
    for k, dt in targets.items():
        if src.kind == "f" and dt.kind == "u":
            ok = x >= 0
            assert_same(got[k][ok], numpy_result(lambda: x[ok].astype(dt)), what=f"{src}->{k}")
        else:
            assert_same(got[k], numpy_result(lambda: x.astype(dt)), what=f"{src}->{k}")


@pytest.mark.skipif(__import__("platform").machine() not in ("x86_64", "AMD64"),
                    reason="NumPy's NaN/inf/out-of-range float->int results are the x86 "
                           "hardware's; the generated C reproduces those")
@pytest.mark.parametrize("src", FLOATS)
def test_out_of_range_float_to_int_casts_match_numpy_on_x86(src):
    x = np.array([np.nan, np.inf, -np.inf, 1e20, -1e20, 3e9, -3e9, 300.7, -300.7, 70000.5],
                 dtype=src)
    targets = {str(dt): dt for dt in SIGNED + UNSIGNED}
    got = tp.jit(lambda a: {k: a.astype(dt) for k, dt in targets.items()})(x)
    for k, dt in targets.items():
        assert_same(got[k], numpy_result(lambda: x.astype(dt)), what=f"{src}->{k}")


def test_shape_mismatch_names_both_shapes():
    with pytest.raises(ValueError, match=r"\(3,\).*\(4,\)"):
        tp.jit(lambda a, b: a + b)(np.ones(3), np.ones(4))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_where_and_clip(dtype):
    x = edge_values(dtype)
    cond = np.arange(x.size) % 3 == 0
    f = tp.jit(lambda c, a: (tnp.where(c, a, a[::-1]), tnp.where(a, 1, 0.5)))
    got = f(cond, x)
    assert_same(got[0], np.where(cond, x, x[::-1]))
    assert_same(got[1], np.where(x, 1, 0.5))
    if dtype != np.bool_:
        lo, hi = (x[3], x[4]) if dtype.kind != "f" else (-1.5, 2.0)
        lo, hi = min(lo, hi), max(lo, hi)
        assert_same(tp.jit(lambda a: tnp.clip(a, lo, hi))(x), numpy_result(np.clip, x, lo, hi))


def test_maximum_minimum_propagate_nan_and_order_signed_zeros_like_numpy():
    a = np.array([np.nan, 1.0, -0.0, 0.0, np.nan, -np.inf], dtype=np.float32)
    b = np.array([1.0, np.nan, 0.0, -0.0, np.nan, np.inf], dtype=np.float32)
    got = tp.jit(lambda x, y: (tnp.maximum(x, y), tnp.minimum(x, y)))(a, b)
    assert_same(got[0], np.maximum(a, b))
    assert_same(got[1], np.minimum(a, b))


def test_empty_arrays():
    x = np.zeros((0, 3), dtype=np.float32)
    got = tp.jit(lambda a: (a * 2, tnp.sum(a, axis=0), tnp.sum(a), tnp.exp(a).T))(x)
    assert_same(got[0], x * 2)
    assert_same(got[1], np.sum(x, axis=0))
    assert_same(got[2], np.sum(x))
    assert_same(got[3], np.exp(x).T)
    with pytest.raises(ValueError, match="zero-size"):
        tp.jit(tnp.max)(x)
