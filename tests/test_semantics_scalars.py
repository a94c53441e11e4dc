"""Regressions of issue 7: Python scalars as operands, jit arguments and literals
(weak and virtually strong types, exact comparisons, conversions at the edges)."""
import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from semantics_check import THRESHOLD, check


# -- 4: functions of Python scalars return strong values; operators keep them weak -----------

def weak_scalar_programs(m, x32, u8, u16, c, s, k):
    """`s` is a Python float and `k` a Python int (jit arguments, or literals in the body)."""
    v = m.where(c, 2, 3)
    return {
        "div_by_sqrt": x32 / m.sqrt(2.0), "max_of_not": m.maximum(m.bitwise_not(1), u16),
        "sub_where": u8 - v, "exp_arg": m.exp(s) + x32, "exp_arg_int": m.exp(k) * x32,
        "operator_stays_weak": x32 * (s * 2.0 + 1.0), "int_operator_weak": u8 + (k * 2 - k),
        "chain": (m.sqrt(s) * 2.0) * x32, "compare": m.negative(k) < u16,
        "abs_of_literal": u8 + m.absolute(-3), "where_weak_arg": m.where(c, s, 1.0) * x32,
        "square": m.square(k) + u8, "sum_of_scalar": m.sum(s) + x32,
        "method": u16 * m.add(k, 1).astype(np.int64).round(),
    }


@pytest.mark.parametrize("n", [3, THRESHOLD + 1])
def test_function_results_are_strong_operator_results_weak(n):
    rng = np.random.default_rng(n)
    args = (rng.standard_normal(n).astype(np.float32), rng.integers(0, 255, n, np.uint8),
            rng.integers(0, 65535, n, np.uint16), rng.random(n) > 0.5)
    for s, k in ((1.5, 3), (-0.0, 2)):
        check(lambda *a: weak_scalar_programs(tnp, *a, s, k),
              lambda *a: weak_scalar_programs(np, *a, s, k), *args)
        check(lambda *a: weak_scalar_programs(tnp, *a),
              lambda *a: weak_scalar_programs(np, *a), *args, s, k)


def test_functions_returning_their_python_scalar_and_refused_weak_loops():
    i8, u16 = np.array([0, 1, 3, -5], np.int8), np.array([0, 1, 3, 5], np.uint16)

    def f(m, i8, u16):
        return {"positive": m.add(u16, m.positive(7)),   # logaddexp: its dtype, not its ulps
                "logaddexp": m.logaddexp(i8, m.negative(3)) * 0.0,
                "fmax": m.fmax(u16, m.absolute(-3)), "hypot": m.hypot(i8, m.sqrt(2.0))}
    check(lambda *a: f(tnp, *a), lambda *a: f(np, *a), i8, u16)


def test_virtually_strong_values_leave_the_printed_ir_unchanged():
    text = str(tp.make_ir(lambda x: tnp.log(x) / tnp.log(2.0))(3.0))
    assert "convert_element_type" not in text
    text = str(tp.make_ir(lambda x: x / tnp.sqrt(2.0))(np.ones(2, np.float32)))
    assert "convert_element_type" in text and "f64[2]" in text


# -- 5: Python-int jit arguments compare exactly with integer arrays --------------------------

@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.uint16, np.int32, np.uint32, np.uint64,
                                   np.int64, np.float32])
@pytest.mark.parametrize("n", [5, THRESHOLD + 5])
def test_python_int_arguments_compare_exactly(dtype, n):
    info = np.iinfo(dtype) if np.dtype(dtype).kind in "iu" else np.iinfo(np.int32)
    x = np.resize(np.array([info.min, info.max, 0, 1, info.max - 1], dtype), n)

    def f(x, s):
        return {"lt": x < s, "le": x <= s, "eq": x == s, "ne": x != s, "gt": s > x,
                "ge": x >= s, "fn": np.less(x, s) if isinstance(x, np.ndarray) else
                tnp.less(x, s)}
    for s in (1000, -1, 255, 256, -129, 2**32, -2**63, 2**63 - 1, 0):
        check(f, f, x, s)


# -- 8, E2, E3: literals convert to their partner's dtype as NumPy converts them --------------

INT_DTYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]
EDGE_INTS = [-1, -2, 255, 256, -129, 2**31 - 1, 2**31, -2**31 - 1, 2**32, 2**63 - 1, 2**63,
             2**64 - 1, -2**63]


@pytest.mark.parametrize("dtype", INT_DTYPES + [np.float32, np.float64])
@pytest.mark.parametrize("n", [4, THRESHOLD + 3])
def test_where_literals_at_the_edges_of_every_dtype(dtype, n):
    x = np.resize(np.array([0, 1, 7, 100], dtype), n)
    c = np.resize(np.array([True, False, False, True]), n)

    def f(m, c, x):
        return {f"v{i}": m.where(c, x, v) for i, v in enumerate(EDGE_INTS)} | \
               {f"r{i}": m.where(c, v, x) for i, v in enumerate(EDGE_INTS)}
    check(lambda c, x: f(tnp, c, x), lambda c, x: f(np, c, x), c, x)


@pytest.mark.parametrize("n", [4, THRESHOLD + 3])
def test_python_floats_beyond_float32_with_float32_operands(n):
    x = np.resize(np.array([1.0, -1.0, 0.0, 3e38], np.float32), n)

    def f(x):
        return {"mul": x * 3.5e38, "lt": x < 1e300, "gt": x > -1e300, "add": x + 1e39,
                "sub": -1e39 - x, "eq": x == 1e300, "max": np.maximum(x, 1e300)
                if isinstance(x, np.ndarray) else tnp.maximum(x, 1e300),
                "tiny": x * 1e-50, "where": (tnp if not isinstance(x, np.ndarray) else np)
                .where(x > 0, x, -1e40)}
    check(f, f, x)


@pytest.mark.parametrize("n", [4, THRESHOLD + 3])
def test_python_ints_beyond_int64(n):
    f64 = np.resize(np.array([1.0, -2.5, 0.0, 1e19]), n)
    f32 = f64.astype(np.float32)
    u64 = np.resize(np.array([0, 1, 2**63, 2**64 - 1], np.uint64), n)

    def f(m, f64, f32, u64):
        return {"f64": f64 + 2**64, "f32": f32 * 2**70, "u64": u64 + (2**64 - 1),
                "u64_sub": u64 - 2**63, "cmp": u64 < 2**64 - 1, "fcmp": f64 > 2**64,
                "big_float": 2**100 - f64, "where": m.where(u64 > 1, u64, 2**64 - 1)}
    check(lambda *a: f(tnp, *a), lambda *a: f(np, *a), f64, f32, u64)


def test_python_ints_numpy_refuses_raise_overflow_error():
    for fn in (lambda x: x + 2**64, lambda x: x - 2**63, lambda x: x * -(2**64)):
        with pytest.raises(OverflowError):
            fn(np.ones(2, np.int64))
        with pytest.raises(OverflowError):
            tp.jit(fn)(np.ones(2, np.int64))
    with pytest.raises(OverflowError):
        tp.jit(lambda x: x + 2**1100)(np.ones(2))
