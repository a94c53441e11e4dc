"""Regression tests for issue 7's wrong-answer classes: each compiled function is called twice,
under the C backend and the interpreter, and compared with NumPy in values, dtypes and the
sign of zero. Sizes straddle the C renderer's serial/parallel threshold."""
import warnings

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from conftest import assert_same
from transpile.codegen.c_render import CRenderer

THRESHOLD = CRenderer.parallel_min_elements
BACKENDS = ("cpu", "interpret")


def numpy_value(np_fn, *args):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np_fn(*args)


def check(fn, np_fn, *args, backends=BACKENDS):
    """fn (jitted, two calls per backend) matches np_fn exactly, output by output."""
    expected = numpy_value(np_fn, *args)
    for backend in backends:
        jitted = tp.jit(fn, backend=backend)
        for call in range(2):
            got = jitted(*args)
            if isinstance(expected, dict):
                assert set(got) == set(expected)
                for key in expected:
                    assert_same(got[key], expected[key], what=f"{backend} call {call} {key}")
            else:
                assert_same(got, expected, what=f"{backend} call {call}")


# -- 1: a parallel loop over reduced elements needs a reduction clause ------------------------

@pytest.mark.parametrize("n", [THRESHOLD // 15 - 1, THRESHOLD // 15 + 1, 3 * THRESHOLD // 15])
def test_full_reductions_over_non_contiguous_views(n):
    x = np.arange(n * 5 * 3, dtype=np.float64).reshape(n, 5, 3) % 7
    y = (np.arange(n * 15) % 5 - 2).reshape(n, 15).astype(np.int32)

    def f(np_, x, y):
        return {"transposed_sum": x.T.sum(), "mean": (y[:, 1:] > 0).mean(),
                "reversed_sum": x[::-1].sum(), "prod": (x[:, 1:, :] > -1).prod(),
                "max": y[:, ::2].max(), "min": x[::-1, 1:].min(), "any": (y[:, 1:] > 1).any(),
                "all": (y[:, 1:] > -3).all(), "int_sum": y[:, 2:].sum()}
    check(lambda x, y: f(tnp, x, y), lambda x, y: f(np, x, y), x, y)


def shared_accumulator_races(source: str) -> list[str]:
    """Parallel pragmas opened after a kernel's accumulator without a reduction clause."""
    races = []
    for kernel in source.split("static void kernel_")[1:]:
        seen_acc = False
        for line in kernel.splitlines():
            seen_acc = seen_acc or " acc = " in line
            if seen_acc and "#pragma omp parallel" in line and "reduction(" not in line:
                races.append(line.strip())
    return races


def test_every_parallel_loop_over_an_accumulator_reduces():
    x = np.ones((THRESHOLD // 15 + 1, 5, 3))
    for fn in (lambda x: x.T.sum(), lambda x: (x[:, 1:] > 0).mean(), lambda x: x[::-1].max(),
               lambda x: x.transpose(1, 0, 2).min(axis=(1, 2)), lambda x: (x > 0).T.all()):
        assert shared_accumulator_races(tp.jit(fn).lower(x).source) == []


# -- 2: round on integers with negative decimals ----------------------------------------------

@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int32, np.uint32, np.int64, np.uint64])
@pytest.mark.parametrize("n", [7, THRESHOLD + 3])
def test_round_integers_with_negative_decimals(dtype, n):
    info = np.iinfo(dtype)
    edges = np.array([15, 25, 5, min(204, info.max), info.max, info.max - 5, info.min,
                      info.min + 5], dtype)
    if info.min < 0:
        edges = np.concatenate([edges, np.array([-15, -25, -5, -35], dtype)])
    # Out-of-range float->int casts are not compared (README: deliberate differences).
    edges = edges[[all(info.min <= np.rint(float(v) / 10 ** k) * 10 ** k <= info.max
                       for k in (1, 2, 3)) for v in edges]]
    x = np.resize(edges, n)

    def f(m, x):
        return {f"d{d}": m.round(x, d) for d in (-1, -2, -3, 0, 2)} | {"method": x.round(-1)}
    check(lambda x: f(tnp, x), lambda x: f(np, x), x)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_round_floats_scale_as_numpy(dtype):
    x = np.array([1234.5678, -0.4, 0.5, 1.5, 2.5, -25.0, 35.0, 1e20, -0.0, 0.125], dtype)

    def f(m, x):
        return {f"d{d}": m.round(x, d) for d in (-1, -2, -3, 0, 1, 2, 3, 12, 25)}
    check(lambda x: f(tnp, x), lambda x: f(np, x), x)


def test_round_of_booleans_is_refused_as_numpy_refuses_it():
    with pytest.raises(TypeError):
        tp.jit(lambda b: tnp.round(b, -1))(np.array([True]))


# -- 3 and E5: traced indices are normalised with their own axis's size, in int64 -------------

AT_OPS = {"set": lambda old, v: v, "add": np.add, "multiply": np.multiply, "min": np.minimum,
          "max": np.maximum}


def numpy_at(x, index, op, value):
    """x.at[index].op(value) in NumPy terms: out-of-range updates are dropped (as in JAX)."""
    out = x.copy()
    try:
        old = out[index]
    except IndexError:
        return out
    out[index] = AT_OPS[op](old, value)
    return out


@pytest.mark.parametrize("shape", [(2, 5), (3, 300), (2, THRESHOLD // 2 + 1)])
@pytest.mark.parametrize("index_type", [int, np.int8, np.uint8, np.int16, np.uint64])
def test_traced_at_and_getitem_indices_on_every_axis(shape, index_type):
    x = np.arange(np.prod(shape), dtype=np.float64).reshape(shape) - 7.0
    n = shape[1]
    candidates = [0, 1, n - 1, n, n + 3, -1, -2, -n, -n - 1, 200, 299, -127, 255]
    info = np.iinfo(index_type) if index_type is not int else np.iinfo(np.int64)
    for j in [j for j in candidates if info.min <= j <= info.max]:
        j = index_type(j)

        def f(x, j):
            return {op: getattr(x.at[0, j], op)(100.0) for op in AT_OPS} | \
                   {"row": x.at[-1, j].add(1.0), "get": x[1, j]}

        def ref(x, j):
            jj = int(j)
            got = x[1, min(max(jj if jj >= 0 else jj + n, 0), n - 1)]   # reads clamp, as JAX
            return {op: numpy_at(x, (0, jj), op, 100.0) for op in AT_OPS} | \
                   {"row": numpy_at(x, (-1, jj), "add", 1.0), "get": got}
        check(f, ref, x, j)


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


# -- 6: 0-d literal outputs keep their dtype and are fresh arrays per call --------------------

def zero_d_constants(m, a):
    return {"zeros": m.zeros((), np.uint16), "ones_like": m.ones_like(a, dtype=np.uint64),
            "full": m.full((), 1.5, np.float32), "full_i8": m.full((), -3, np.int8),
            "zeros_like": m.zeros_like(a), "neg_zero": m.full((), -0.0, np.float32),
            "bool": m.ones((), bool), "big": m.full((), 2**64 - 1, np.uint64)}


@pytest.mark.parametrize("a", [np.float64(3.0), np.array(2, np.int32), np.array(True)])
def test_zero_d_literal_outputs_keep_their_dtype(a):
    check(lambda a: zero_d_constants(tnp, a), lambda a: zero_d_constants(np, a), a)


@pytest.mark.parametrize("backend", BACKENDS)
def test_zero_d_literal_outputs_are_fresh_per_call(backend):
    f = tp.jit(lambda: tnp.full((), 7, np.int16), backend=backend)
    first = f()
    first[...] = 1
    second = f()
    assert second.dtype == np.int16 and second == 7 and second is not first


# -- 7 and E4: clip follows NumPy 2 ------------------------------------------------------------

SPECIAL_FLOATS = [-0.0, 0.0, np.nan, 1.0, -1.0, 2.5, np.inf, -np.inf]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", [64, THRESHOLD + 7])
def test_clip_signed_zeros_and_nans_with_scalar_and_array_bounds(dtype, n):
    rng = np.random.default_rng(n)
    x, lo, hi = (rng.choice(np.array(SPECIAL_FLOATS, dtype), n) for _ in range(3))

    def f(m, x, lo, hi):
        return {"arrays": m.clip(x, lo, hi), "lo_array": m.clip(x, lo, 0.0),
                "hi_array": m.clip(x, -0.0, hi), "zero_zero": m.clip(x, 0.0, 0.0),
                "negzero": m.clip(x, -0.0, -0.0), "nan_bound": m.clip(x, np.nan, 1.0),
                "np_scalars": m.clip(x, dtype(-0.0), dtype(0.0)), "min_only": m.clip(x, 0.0, None),
                "max_only": m.clip(x, None, -0.0), "method": x.clip(-1.0, 0.0),
                "crossed": m.clip(x, 2.0, 1.0)}
    check(lambda *a: f(tnp, *a), lambda *a: f(np, *a), x, lo, hi)


def test_clip_of_zero_d_values():
    for x in (-0.0, 0.0):
        def f(m, x):
            return {"both": m.clip(x, 0.0, 0.0), "arr": m.clip(x, np.zeros(3), np.zeros(3))}
        check(lambda x: f(tnp, x), lambda x: f(np, x), np.float64(x))


@pytest.mark.parametrize("n", [5, THRESHOLD + 1])
def test_clip_promotes_all_three_operands_together(n):
    rng = np.random.default_rng(0)
    b, i8, u8 = rng.random(n) > 0.5, rng.integers(-128, 127, n, np.int8), \
        rng.integers(0, 255, n, np.uint8)
    i32, f32 = rng.integers(-300, 300, n, np.int32), (rng.standard_normal(n) * 3).astype(np.float32)

    def f(m, b, i8, u8, i32, f32):
        return {"bool_int_i32": m.clip(b, 256, i32), "i8_float_f32": m.clip(i8, 0.5, f32),
                "u8_out_of_range": m.clip(u8, -5, 300), "u8_low_only": m.clip(u8, -5, 100),
                "u8_high_only": m.clip(u8, 3, 1000), "i8_i32": m.clip(i8, i32, 100),
                "u8_f32": m.clip(u8, f32, 7), "i8_none": m.clip(i8, None, 2**70)}
    check(lambda *a: f(tnp, *a), lambda *a: f(np, *a), b, i8, u8, i32, f32)


def test_clip_with_python_int_arguments_out_of_range():
    u8 = np.array([0, 1, 100, 200, 255], np.uint8)
    for lo, hi in ((-5, 300), (-5, 100), (3, 1000), (0, 255), (-(2**40), 2**40)):
        check(lambda x, lo, hi: {"both": tnp.clip(x, lo, hi), "lo": tnp.clip(x, lo),
                                 "hi": tnp.clip(x, None, hi)},
              lambda x, lo, hi: {"both": np.clip(x, lo, hi), "lo": np.clip(x, lo, None),
                                 "hi": np.clip(x, None, hi)}, u8, lo, hi)


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


# -- 9: float -> int -> float keeps the sign of an integer zero ---------------------------------

@pytest.mark.parametrize("src", [np.float32, np.float64])
@pytest.mark.parametrize("n", [1, 5, 7, 9, THRESHOLD + 1])
def test_float_to_int_to_float_is_never_negative_zero(src, n):
    # Mostly values in (-1, 0), so that the scalar remainder of every vector loop sees some.
    x = np.resize(np.array([-0.5, -0.9, -0.25, -1e-30, 0.5, -1.5, 2.7, -0.0, -0.7], src)[::-1], n)

    def f(m, x):
        out = {}
        for dt in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint32):
            i = x.astype(dt)
            out[f"recip_{np.dtype(dt).name}"] = 1.0 / i
            out[f"back_{np.dtype(dt).name}"] = 1.0 / i.astype(src)
        out["atan2"] = m.arctan2(-0.0, x.astype(np.int64))
        out["atan2_i32"] = m.arctan2(-0.0, x.astype(np.int32).astype(np.float32))
        return out
    check(lambda x: f(tnp, x), lambda x: f(np, x), x)


# -- 10: the interpreter's select computes in the result dtype ---------------------------------

def test_interpreter_where_keeps_uint64_precision():
    c = np.array([True, False, True, False])
    u64 = np.array([2**64 - 3, 5, 2**63 + 1, 0], np.uint64)
    i64 = np.array([-(2**63), 2**63 - 1, -1, 3], np.int64)

    def f(m, c, u, i):
        return {"neg2": m.where(c, u, -2), "neg1": m.where(c, -1, u), "mixed": m.where(c, i, 7),
                "both": m.where(c, u, u - np.uint64(1))}
    check(lambda *a: f(tnp, *a), lambda *a: f(np, *a), c, u64, i64, backends=("interpret",))


# -- 11: a zero max/min has the sign of the last zero, along every axis ------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(3, 2), (40, 7, 3), (THRESHOLD // 8 + 1, 8), (9, THRESHOLD // 8)])
def test_zero_max_min_sign_along_every_axis(dtype, shape):
    rng = np.random.default_rng(len(shape))
    x = np.where(rng.random(shape) < 0.5, -0.0, 0.0).astype(dtype)
    mixed = np.where(rng.random(shape) < 0.3, dtype(-1), x)   # zeros are still the maximum

    def f(x, mixed):
        out = {"max": x.max(), "min": x.min()}
        for axis in range(x.ndim):
            out[f"max{axis}"] = x.max(axis=axis)
            out[f"min{axis}"] = x.min(axis=axis)
            if axis < x.ndim - 1:        # NumPy's order along the last axis is its SIMD one
                out[f"mixed_max{axis}"] = mixed.max(axis=axis)
                out[f"mixed_min{axis}"] = (-mixed).min(axis=axis)
        out["transposed"] = x.T.max(axis=0)
        return out
    check(f, f, x, mixed)


def test_zero_max_of_the_issue_example():
    z = np.array([[-0., 0.], [0., -0.], [-0., -0.]], np.float32)
    check(lambda z: {"max": z.max(axis=0), "min": (-z).min(axis=0)},
          lambda z: {"max": z.max(axis=0), "min": (-z).min(axis=0)}, z)


# -- E1: fori_loop with traced bounds and array carries ----------------------------------------

FORI_BODIES = {
    "elementwise": lambda i, c, x: c * 0.5 + i,
    "capture": lambda i, c, x: c + x,
    "reduction": lambda i, c, x: c - c.mean(),
    "roll": lambda i, c, x: tnp.concatenate([c[1:], c[:1]]),
    "at": lambda i, c, x: c.at[i].add(1.0),
}


def numpy_fori(lo, hi, body, x):
    c = x.copy()
    for i in range(int(lo), int(hi)):
        c = body(i, c, x)
    return c


NUMPY_BODIES = {
    "elementwise": lambda i, c, x: c * 0.5 + i,
    "capture": lambda i, c, x: c + x,
    "reduction": lambda i, c, x: c - c.mean(),
    "roll": lambda i, c, x: np.concatenate([c[1:], c[:1]]),
    "at": lambda i, c, x: numpy_at(c, i, "add", 1.0),
}


@pytest.mark.parametrize("n", [6, THRESHOLD + 2])
@pytest.mark.parametrize("bound_type", [np.int32, np.int64, np.uint8])
def test_fori_loop_with_traced_bounds_and_array_carries(n, bound_type):
    from transpile import lax
    x = (np.arange(n, dtype=np.float64) % 11) - 3.0
    for name, body in FORI_BODIES.items():
        for lo, hi in ((1, 4), (3, 3), (2, 0)):
            check(lambda lo, hi, x: lax.fori_loop(lo, hi, lambda i, c: body(i, c, x), x),
                  lambda lo, hi, x: numpy_fori(lo, hi, NUMPY_BODIES[name], x),
                  bound_type(lo), bound_type(hi), x)


# -- E5, E6: arange and linspace are traced under jit -------------------------------------------

SEQUENCES = {
    "arange_int": lambda m: m.arange(7), "arange_float": lambda m: m.arange(300.0),
    "arange_step": lambda m: m.arange(1, 2, 0.1), "arange_neg": lambda m: m.arange(5, -7, -3),
    "arange_f32": lambda m: m.arange(-1.5, 20, 0.7, dtype=np.float32),
    "arange_u8": lambda m: m.arange(3, 250, 7, dtype=np.uint8),
    "arange_big": lambda m: m.arange(THRESHOLD + 5, dtype=np.float64),
    "linspace": lambda m: m.linspace(0, 1, 5), "linspace_open": lambda m: m.linspace(-2, 3, 7,
                                                                                     endpoint=False),
    "linspace_int": lambda m: m.linspace(-3, 10, 9, dtype=np.int32),
    "linspace_f32": lambda m: m.linspace(0.1, 0.7, 13, dtype=np.float32),
    "linspace_one": lambda m: m.linspace(2, 3, 1), "linspace_big": lambda m: m.linspace(
        -1, 1, THRESHOLD + 3),
}


@pytest.mark.parametrize("name", sorted(SEQUENCES))
def test_arange_and_linspace_are_traced_under_jit(name):
    make = SEQUENCES[name]
    n = make(np).size
    for index_type in (int, np.uint8):
        for i in (0, n - 1, min(5, n - 1), -1):
            if index_type is np.uint8 and not 0 <= i < 256:
                continue
            i = index_type(i)

            def f(m, i):
                a = make(m)
                if m is np:
                    updated = a.copy()
                    updated[i] = 7
                    return {"value": a, "get": a[i], "at": updated}
                return {"value": a, "get": a[i], "at": a.at[i].set(7)}
            check(lambda i: f(tnp, i), lambda i: f(np, i), i)


def test_sequences_are_computed_from_an_iota_not_stored():
    for name, make in SEQUENCES.items():
        if make(np).size > 1:
            text = str(tp.make_ir(lambda: make(tnp))())
            assert "iota" in text and text.startswith("{ lambda ; ."), name
