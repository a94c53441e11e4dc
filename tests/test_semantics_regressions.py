"""Regressions of issue 7's wrong-answer classes in generated code and runtime: reduction
races, round, float->int casts, the interpreter's select, zero max/min signs, clip."""
import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from semantics_check import THRESHOLD, check


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
    for kernel in source.split("static __attribute__((noinline)) void ")[1:]:
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


def test_boolean_orderings_compile_without_warnings():
    # gcc's -Wbool-compare fired on `b >= false` and on argmax's `false > best` (fuzzer class
    # N2); a compiler warning fails the test through pytest's filterwarnings setting.
    x = np.array([[True, False, True], [False, False, True]])
    f = tp.jit(lambda x: (x >= False, x < True, x > x[0], tnp.argmax(x * False, axis=1),
                          tnp.argmin(tnp.zeros(3, bool), keepdims=True)))
    want = (x >= False, x < True, x > x[0], np.argmax(x * False, axis=1),
            np.argmin(np.zeros(3, bool), keepdims=True))
    for _ in range(2):
        for got, expected in zip(f(x), want):
            np.testing.assert_array_equal(got, expected)
            assert got.dtype == expected.dtype


@pytest.mark.parametrize("backend", ["cpu", "interpret"])
def test_clip_of_a_python_scalar_is_a_strong_array_as_numpy(backend):
    # np.clip converts a Python `a` with asarray: int64/float64, not x's dtype (fuzzer).
    x = np.arange(-3, 4, dtype=np.int32)
    cases = [(lambda x: tnp.clip(-4, -4, x), lambda x: np.clip(-4, -4, x)),
             (lambda x: tnp.clip(2.5, 0, x), lambda x: np.clip(2.5, 0, x)),
             (lambda x: tnp.clip(True, x, 2), lambda x: np.clip(True, x, 2))]
    for fn, ref in cases:
        f = tp.jit(fn, backend=backend)
        for _ in range(2):
            got, want = f(x), ref(x)
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(got, want)
    g = tp.jit(lambda s, x: tnp.clip(s, -4, x), backend=backend)
    assert g(3, x).dtype == np.clip(3, -4, x).dtype
    np.testing.assert_array_equal(g(3, x), np.clip(3, -4, x))


# -- float products multiply in NumPy's order (fuzzer seed 5690) -------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", [THRESHOLD // 10 - 10, THRESHOLD // 10 + 10])
def test_float_products_take_their_terms_in_order(dtype, n):
    """Partial products that pass through subnormals or overflow make a reassociated
    product arbitrarily far from NumPy's (which multiplies in order), not a few ulp."""
    info = np.finfo(dtype)
    terms = np.array([info.smallest_subnormal, 3.0, info.max / 2, 0.7, 1 / info.max, info.max,
                      1.3, 0.1, 7.0, info.tiny], dtype=dtype)
    rng = np.random.default_rng(n)
    with np.errstate(all="ignore"):
        x = (rng.choice(terms, size=(n, 10)) * rng.uniform(0.5, 1.5, (n, 10))).astype(dtype)
        check(lambda x: {"rows": tnp.prod(x, axis=-1), "columns": tnp.prod(x[:, :7], axis=0),
                         "all": tnp.prod(x[:, ::-1]), "first": tnp.prod(x[:64, :6])},
              lambda x: {"rows": np.prod(x, axis=-1), "columns": np.prod(x[:, :7], axis=0),
                         "all": np.prod(x[:, ::-1]), "first": np.prod(x[:64, :6])}, x)


def test_interpreter_integer_power_sees_the_exponent_as_the_loop_does():
    """The reference checks the exponent's sign after the cast to the loop's dtype, as the
    compiled loop does (fuzzer seed 5896: the interpreter raised NumPy's ValueError)."""
    x = np.array([-128, 6, -10, 20, 1, -1], np.int8)

    def f(x):
        e = tnp.bitwise_and(-5, 32767)
        return x ** e, tnp.isinf(x ** e)
    cpu, interpret = tp.jit(f)(x), tp.jit(f, backend="interpret")(x)
    for a, b in zip(cpu, interpret):
        assert a.dtype == b.dtype and np.array_equal(a, b)


@pytest.mark.parametrize("lo, hi", [(0, 0), (3, 7), (2**63 - 2, 2**63 + 2), (2**64 - 5, 2**64 - 1)])
def test_fori_loop_with_uint64_bounds(lo, hi):
    """A uint64 index runs in a uint64_t loop variable (fuzzer seed 6480: int64_t against a
    uint64_t bound was a -Wsign-compare warning, and wrong past 2^63)."""
    from transpile import lax
    lo_, hi_ = np.array(lo, np.uint64), np.array(hi, np.uint64)
    expected_sum = np.uint64(sum(range(lo, hi)) % 2**64)
    carry = tp.jit(lambda a, b: lax.fori_loop(
        a, b, lambda i, c: c + tnp.maximum(i, c) % np.uint64(5), a))
    updated = tp.jit(lambda a, b: lax.fori_loop(
        a, b, lambda i, c: c.at[0].add(i), tnp.zeros(3, np.uint64)))
    expected = lo_
    with np.errstate(over="ignore"):
        for i in range(lo, hi):
            expected = expected + np.maximum(np.uint64(i), expected) % np.uint64(5)
    for _ in range(2):
        assert carry(lo_, hi_) == expected and carry(lo_, hi_).dtype == np.uint64
        assert updated(lo_, hi_)[0] == expected_sum


@pytest.mark.parametrize("x_shape", [(2, 1), (THRESHOLD + 1,)])
def test_clip_ties_follow_numpys_loop_for_one_element_bounds(x_shape):
    """NumPy keeps x on a tie when its loop sees scalar bounds and takes the bound when it sees
    arrays; a one-element array bound (fuzzer seed 8115: an argmax with keepdims) is a scalar
    to the loop when x has more elements. (When all three have one element, or an array bound
    is broadcast against x, NumPy's choice follows its iterator's strides: a documented
    difference, not compared.)"""
    for lo_shape in [(), (1,), (1, 1), x_shape]:
        for hi in (0.1, np.zeros(()), np.zeros((1, 1))):
            for zero in (-0.0,):     # a tie with +0.0 bounds: kept x is -0.0, a bound +0.0
                for lo_dtype in (np.int64, np.float64):
                    x, lo = np.full(x_shape, zero), np.zeros(lo_shape, lo_dtype)
                    h = hi if isinstance(hi, float) else np.copysign(hi, -zero)
                    try:
                        expected = np.clip(x, lo, h)
                    except ValueError:          # shapes that do not broadcast
                        continue
                    for backend in ("cpu", "interpret"):
                        got = tp.jit(tnp.clip, backend=backend)(x, lo, h)
                        assert got.dtype == expected.dtype and got.shape == expected.shape
                        assert np.array_equal(np.signbit(got), np.signbit(expected)), \
                            (x_shape, lo_shape, np.shape(h), zero, lo_dtype, backend)


def test_empty_intermediates_compile_without_warnings():
    """Empty temporaries read by later kernels (fuzzer seed 6984: gcc's -Wmaybe-uninitialized
    on a product of empty slices)."""
    import warnings
    x = np.arange(15, dtype=np.int8).reshape(3, 1, 5)

    def f(np_, x):
        v = np_.logical_or(x.reshape(15, 1, 1), x.reshape(15, 1, 1))[:, -1, 0:0:-2]
        return v.T @ v, np_.stack([v, v], axis=0), v.sum(), (v.T @ v).sum(), v.max(initial=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = tp.jit(lambda x: f(tnp, x))(x)
    for g, e in zip(got, f(np, x)):
        assert g.dtype == e.dtype and g.shape == e.shape and np.array_equal(g, e)


@pytest.mark.parametrize("fn", ["dot", "inner", "outer", "kron"])
def test_python_int_beyond_int64_and_uint64_in_a_product_raises_naming_it(fn):
    """NumPy's non-ufunc products make such an int an object array (fuzzer seed 25216:
    np.dot(np.float64, -2**63 - 1) is a float, np.dot(array, it) an object array); compiled
    code has no object dtype, so transpile raises, eagerly and under jit (README)."""
    big = -2**63 - 1
    with pytest.raises(OverflowError, match=str(big)):
        getattr(tnp, fn)(np.ones(3), big)
    with pytest.raises(OverflowError, match=str(big)):
        tp.jit(lambda x: getattr(tnp, fn)(x, big))(np.ones(3))
    # Within uint64 it is an array of that dtype, as NumPy's np.asarray makes it.
    got, want = getattr(tnp, fn)(np.ones(3), 2**64 - 1), getattr(np, fn)(np.ones(3), 2**64 - 1)
    assert got.dtype == want.dtype and np.array_equal(got, want)
