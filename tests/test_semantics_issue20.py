"""Regressions of issue 20's wrong-answer classes: 64-bit constants rendered in 32-bit C
types, boolean reductions with an arithmetic accumulator, and transcendental functions inside
lax regions (cond, scan, fori_loop, while_loop) computed as at top level."""
import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile import lax
from transpile.codegen.c_ops import render_literal
from semantics_check import BACKENDS, THRESHOLD, check

INT_DTYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]


# -- a 64-bit constant is a 64-bit C value -------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.int64, np.uint64])
@pytest.mark.parametrize("value", [0, 1, 5, 2**31 - 1, 2**31, 2**32 - 1, -1, -(2**31)])
def test_64_bit_literals_have_a_64_bit_c_type(dtype, value):
    text = render_literal(value, np.dtype(dtype))
    assert "INT64" in text, text          # INT64_C(...), UINT64_C(...) or INT64_MIN


def constant_chains(m, x):
    """Ops applied to constants (ones, full, a where of two literals): once fused, the op's
    C operand is the literal itself (`~1u` was 4294967294 for uint64)."""
    dt = x.dtype
    ones = m.ones(x.shape, dt)
    inv = m.bitwise_not(m.ones_like(x))
    return {"invert_ones_max": inv.max(), "invert_ones_slice": inv[1:],
            "invert_full": m.invert(m.full(x.shape, 5, dt))[::-1],
            "invert_zeros": ~m.zeros_like(x),
            "negative_ones": m.negative(ones).min(),
            "invert_where": ~m.where(x > 1, m.asarray(1, dt), m.asarray(2, dt)),
            "xor_ones": (m.bitwise_xor(ones, m.full(x.shape, 3, dt)) + x)[1:],
            "shift_ones": m.left_shift(ones, m.full(x.shape, 40 % (8 * x.itemsize), dt)),
            "not_then_sum": m.sum(m.invert(ones), dtype=dt)}


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_ops_on_integer_constants_fused(dtype):
    x = np.arange(12, dtype=dtype).reshape(3, 4)
    check(lambda x: constant_chains(tnp, x), lambda x: constant_chains(np, x), x)


def test_unsigned_64_bit_invert_of_ones_issue_reproducer():
    y = tp.jit(lambda x: tnp.bitwise_not(tnp.ones_like(x)).max())(np.zeros(5, np.uint64))
    assert int(y) == 2**64 - 2


# -- boolean sums and products are any and all --------------------------------------------------

def bool_reductions(m, x):
    s = m.ones_like(x).sum(axis=(0, 1), dtype=bool)
    return {"sum_expand": m.expand_dims(s, 0), "sum_mean": m.mean(s),
            "sum_all": x.sum(dtype=bool), "sum_axis0": m.sum(x, axis=0, dtype=bool),
            "sum_axis1": x.sum(axis=1, dtype=bool, keepdims=True),
            "prod_all": x.prod(dtype=bool), "prod_axis1": m.prod(x, axis=1, dtype=bool),
            "ones_prod": m.ones_like(x).prod(dtype=bool),
            "zeros_sum": m.zeros_like(x).sum(dtype=bool),
            "max_all": x.max(), "min_axis0": x.min(axis=0),
            "sum_of_ints_as_bool": m.sum(x.astype(np.int32) * 256, dtype=bool)}


@pytest.mark.parametrize("shape", [(3, 4), (16, 16), (1, 256), (2, 255), (5, 7),
                                   (2, THRESHOLD // 2 + 8)])
@pytest.mark.parametrize("fill", ["ones", "alternate", "zeros"])
def test_boolean_sums_and_products(shape, fill):
    x = {"ones": np.ones(shape, bool), "zeros": np.zeros(shape, bool),
         "alternate": (np.arange(np.prod(shape)).reshape(shape) % 3 == 0)}[fill]
    check(lambda x: bool_reductions(tnp, x), lambda x: bool_reductions(np, x), x)


# -- transcendentals inside lax regions are computed as at top level ----------------------------

def _ulp_distance(a, b):
    a, b = np.asarray(a), np.asarray(b)
    it = np.int32 if a.dtype == np.float32 else np.int64
    ia, ib = (v.view(it).astype(np.int64) for v in (a, b))
    ia = np.where(ia < 0, np.iinfo(it).min - ia, ia)
    ib = np.where(ib < 0, np.iinfo(it).min - ib, ib)
    return np.abs(ia - ib)


REGION_PROGRAMS = {
    # name: (the ops, written for NumPy or transpile.numpy; the same ops inside a region)
    "cond_pow_f32": (lambda m, c, x, n: m.power(x, np.float32(1.7)),
                     lambda c, x, n: lax.cond(n[0] > 0, lambda v: tnp.power(v, np.float32(1.7)),
                                              lambda v: v, x)),
    "scan_reverse_arctan2_log2_i16": (
        lambda m, c, x, n: m.arctan2(c, m.log2(n)),
        lambda c, x, n: lax.scan(lambda k, cn: (k, tnp.arctan2(cn[0], tnp.log2(cn[1]))), 0,
                                 (c, n), reverse=True)[1]),
    "fori_exp_sin": (lambda m, c, x, n: m.sin(m.exp(x)),
                     lambda c, x, n: lax.fori_loop(0, 1, lambda i, v: tnp.sin(tnp.exp(v)), x)),
    "while_tanh_log1p_u16": (
        lambda m, c, x, n: m.tanh(m.log1p(n.astype(np.uint16))),
        lambda c, x, n: lax.while_loop(
            lambda s: s[0] < 1, lambda s: (s[0] + 1, tnp.tanh(tnp.log1p(n.astype(np.uint16)))),
            (0, tnp.zeros(n.shape, np.float32)))[1]),
}


@pytest.mark.parametrize("name", sorted(REGION_PROGRAMS))
def test_transcendentals_in_regions_are_computed_as_at_top_level(name):
    """Issue 20 saw pow (float32, in a cond) and arctan2 of log2(int16) (float64, in a
    reversed scan) differ from NumPy. Measured: both are computed in NumPy's loop dtypes
    (log2 of int16 in float32), and bit for bit as the same ops outside any region; what
    differs is libm's last bit against NumPy's SIMD loops (SVML on AVX-512 machines), which
    README's semantics section documents. This test holds the part transpile controls: a
    region changes neither the precision nor the bits, and NumPy is a few float32 ulp away."""
    rng = np.random.default_rng(20)
    c = rng.random(3000)
    x = (rng.random(3000) * 10).astype(np.float32)
    n = rng.integers(1, 32767, 3000).astype(np.int16)
    ops, region_fn = REGION_PROGRAMS[name]
    for backend in BACKENDS:
        top = tp.jit(lambda c, x, n: ops(tnp, c, x, n), backend=backend)(c, x, n)
        inside = tp.jit(region_fn, backend=backend)(c, x, n)
        assert inside.dtype == top.dtype
        assert np.array_equal(inside.view(np.uint8), top.view(np.uint8)), backend
    with np.errstate(all="ignore"):
        expected = ops(np, c, x, n)
    assert expected.dtype == top.dtype
    # Counted in float32 ulp: the float32 intermediates carry the difference.
    assert np.max(_ulp_distance(top.astype(np.float32), expected.astype(np.float32))) <= 4


def test_log2_of_int16_is_float32_before_promotion():
    """The compiled log2 of an int16 feeding a float64 op is float32 (NumPy's loop), not a
    float64 log2: the float64 log2's result differs from it almost everywhere."""
    n = np.arange(1, 30000, 7, dtype=np.int16)
    c = np.full(n.shape, 0.75)
    got = tp.jit(lambda c, n: lax.scan(lambda k, cn: (k, tnp.arctan2(cn[0], tnp.log2(cn[1]))),
                                       0, (c, n), reverse=True)[1])(c, n)
    as_f32 = np.arctan2(c, np.log2(n.astype(np.float64)).astype(np.float32))
    as_f64 = np.arctan2(c, np.log2(n.astype(np.float64)))
    assert np.mean(got == as_f32) > 0.99
    assert np.mean(got == as_f64) < 0.05


FLOAT_RESULT_OPS = ["exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "sin",
                    "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "cbrt",
                    "reciprocal_float", "divide", "true_divide", "arctan2", "power", "hypot"]


def float_results(m, x):
    """Every op that turns integers into floats (NumPy's loop: float32 for 16-bit, float64
    for wider), each combined with a float64 value afterwards as issue 20's arctan2 was."""
    out = {}
    for name in FLOAT_RESULT_OPS:
        if name == "reciprocal_float":
            v = m.reciprocal(x.astype(np.float32) + 1)
        elif name in ("divide", "true_divide", "arctan2", "power", "hypot"):
            v = getattr(m, name)(x, x + 1)
        else:
            v = getattr(m, name)(x)
        out[name] = (v, m.arctan2(np.float64(0.75), v))
    return out


@pytest.mark.parametrize("dtype", [np.int16, np.uint32, np.int64])
def test_int_to_float_ops_in_regions_match_top_level(dtype):
    """The same ops inside a reversed scan and a cond give the top level's dtypes and bits."""
    x = np.arange(1, 40, dtype=dtype)
    in_scan = lambda x: lax.scan(lambda k, v: (k, float_results(tnp, v)), 0, x,  # noqa: E731
                                 reverse=True)[1]
    in_cond = lambda x: lax.cond(x[0] > 0, lambda v: float_results(tnp, v),  # noqa: E731
                                 lambda v: float_results(tnp, v + 1), x)
    top = tp.jit(lambda x: float_results(tnp, x))(x)
    with np.errstate(all="ignore"):
        expected = float_results(np, x)
    for region in (in_scan, in_cond):
        got = tp.jit(region)(x)
        for name in FLOAT_RESULT_OPS:
            for k in range(2):
                a, b = np.asarray(got[name][k]), np.asarray(top[name][k])
                assert a.dtype == b.dtype == expected[name][k].dtype, name
                assert np.array_equal(a, b, equal_nan=True), name


# -- found by the long run (seeds 300000-309999) ---------------------------------------------

def test_fori_loop_bounds_without_a_common_integer_type_are_refused():
    """int32 and uint64 bounds promote to float64: refused while tracing, naming both types
    and the fix, as JAX refuses unequal bound types (seed 308573)."""
    f = tp.jit(lambda lo, hi: lax.fori_loop(lo, hi, lambda i, c: c + 1, 0.0))
    with pytest.raises(TypeError, match=r"int32 and uint64.*astype"):
        f(np.int32(0), np.uint64(3))
    assert f(np.int32(0), np.int32(3)) == 3.0
