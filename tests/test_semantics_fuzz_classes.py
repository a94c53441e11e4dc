"""Regressions of the classes the differential fuzzer (tests/fuzz) found beyond issue 7's list:
functions of Python scalars only, out-of-range Python-int literals, `.at` and reads on empty
axes, and unsigned start indices of dynamic_slice."""
import re

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile import lax
from semantics_check import BACKENDS, THRESHOLD, check


# -- functions of Python scalars only return NumPy's strong dtype -----------------------------

def scalar_function_programs(m, i8, u8, f32, k, s):
    """Each function sees Python scalars only (`k` an int, `s` a float: literals or jit
    arguments); its result then meets a narrow array, which shows whether it stayed weak."""
    v = m.where(3, 3, 0)
    return {
        "clip_by_where": m.clip(i8, v, None), "where_then_add": v + u8,
        "ufunc_call": m.add(3, k) + i8, "ufunc_float": m.multiply(s, 2) + f32,
        "maximum": m.maximum(k, 0) * u8, "minimum_mixed": m.minimum(s, k) + f32,
        "arctan2": m.arctan2(1, k) + f32, "hypot": m.hypot(k, 4) + f32,
        "bitwise_and": m.bitwise_and(7, k) + u8, "floor_divide": m.floor_divide(7, k) - i8,
        "mod": m.mod(s, 2) + f32, "power": m.power(k, 2) + u8,
        "clip_of_scalars": m.clip(k, 0, 5) + i8, "select": m.select([True], [k], 0) + u8,
        "where_float": m.where(True, s, 1) * f32, "left_shift": m.left_shift(k, 1) + u8,
        "nextafter": m.nextafter(s, 2.0) + f32, "copysign": m.copysign(s, -1.0) + f32,
        "fmax": m.fmax(k, 1) + i8, "logaddexp": m.logaddexp(s, 1.0) + f32,
    }


@pytest.mark.parametrize("n", [3, THRESHOLD + 1])
def test_functions_of_python_scalars_only_are_strong(n):
    rng = np.random.default_rng(n)
    arrays = (rng.integers(-100, 100, n, np.int8), rng.integers(0, 255, n, np.uint8),
              (rng.standard_normal(n) * 4).astype(np.float32))
    for k, s in ((3, 1.5), (2, -0.0))[:1 if n > THRESHOLD else 2]:
        check(lambda *a: scalar_function_programs(tnp, *a, k, s),
              lambda *a: scalar_function_programs(np, *a, k, s), *arrays)
        check(lambda *a: scalar_function_programs(tnp, *a),
              lambda *a: scalar_function_programs(np, *a), *arrays, k, s)


def test_operators_on_python_scalars_stay_weak():
    u8 = np.array([200, 3], np.uint8)

    def f(m, u8, k):
        return {"operator": (k + 3) + u8, "ufunc_method_outer": m.add.outer(u8, k),
                "function": m.add(k, 3) + u8}
    check(lambda *a: f(tnp, *a), lambda *a: f(np, *a), u8, 3)
    text = str(tp.make_ir(lambda u8, k: (k + 3) + u8)(u8, 3))
    assert "u8[2] = add" in text and "i64[2]" not in text


@pytest.mark.parametrize("n", [4, THRESHOLD + 2])
def test_non_ufunc_functions_make_python_scalars_strong(n):
    """dot, inner, outer, tensordot, kron and einsum convert operands with np.asarray: a
    Python scalar is a strong int64/float64 there (`np.dot(uint8, 3)` is int64)."""
    rng = np.random.default_rng(1)
    u8, f32 = rng.integers(0, 255, n, np.uint8), rng.standard_normal(n).astype(np.float32)

    def f(m, u8, f32, k, s):
        return {"dot": m.dot(u8, k), "dot_first": m.dot(k, u8), "dot_float": m.dot(f32, s),
                "inner": m.inner(u8, k), "outer": m.outer(f32, s), "kron": m.kron(u8, k),
                "tensordot": m.tensordot(f32, k, 0), "einsum": m.einsum("i,->i", u8, k),
                "dot_by_sqrt": m.dot(f32, m.sqrt(2.0))}
    for k, s in ((3, 2.5), (300, -0.5))[:1 if n > THRESHOLD else 2]:
        check(lambda *a: f(tnp, *a, k, s), lambda *a: f(np, *a, k, s), u8, f32)
        check(lambda *a: f(tnp, *a), lambda *a: f(np, *a), u8, f32, k, s)


# -- an out-of-range Python-int literal meeting an integer array raises, as in NumPy -----------

CLIP_REFUSED = [(np.uint32, 4294967295, -1), (np.uint8, 300, -5), (np.uint8, 3, -1),
                (np.int8, 0, -200), (np.uint8, 1000, None), (np.uint8, None, -1)]


@pytest.mark.parametrize("dtype, lo, hi", CLIP_REFUSED)
@pytest.mark.parametrize("backend", BACKENDS)
def test_clip_refuses_bounds_beyond_the_far_end(dtype, lo, hi, backend):
    x = np.array([8, 1], dtype)
    with pytest.raises(OverflowError) as numpy_error:
        np.clip(x, lo, hi)
    same = re.escape(str(numpy_error.value))          # NumPy's words first, then the fix
    with pytest.raises(OverflowError, match=same + r" .*astype\(np\.int64\)"):
        tp.jit(lambda x: tnp.clip(x, lo, hi), backend=backend)(x)
    with pytest.raises(OverflowError, match=same):
        tnp.clip(x, lo, hi)          # eagerly, too


def test_out_of_range_literal_error_names_value_dtype_line_and_fix():
    x = np.zeros(3, np.uint8)
    with pytest.raises(OverflowError) as info:
        tp.jit(lambda x: x + 1000)(x)
    text = str(info.value)
    for part in ("1000", "uint8", "0..255", "test_semantics_fuzz_classes.py", "x.astype(np.int64)"):
        assert part in text


@pytest.mark.parametrize("method", ["set", "add", "multiply", "min", "max"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_at_refuses_a_literal_its_array_cannot_hold(method, backend):
    x = np.zeros(4, np.uint8)
    with pytest.raises(OverflowError):          # NumPy's x[1] = 300 (and x[1] += 300)
        np_x = x.copy()
        np_x[1] = 300
    for value in (300, -1):
        with pytest.raises(OverflowError, match=f"Python integer {value} out of bounds"):
            tp.jit(lambda x: getattr(x.at[1], method)(value), backend=backend)(x)
    # In range, and float values into an int array (NumPy casts them), still work.
    check(lambda x: x.at[1].set(255), lambda x: np.where(np.arange(4) == 1, 255, x)
          .astype(np.uint8), x, backends=(backend,))


# -- .at on an empty axis drops the update; a traced read there raises ------------------------

@pytest.mark.parametrize("method", ["set", "add", "multiply", "min", "max"])
def test_at_with_a_traced_index_on_an_empty_axis_is_dropped(method):
    for shape in ((0,), (3, 0), (0, 4)):
        x = np.zeros(shape, np.float32)

        def f(x, i):
            key = (i,) if shape[0] == 0 else (slice(None), i)
            return getattr(x.at[key], method)(2.0)
        check(f, lambda x, i: x.copy(), x, np.int64(0))
        check(f, lambda x, i: x.copy(), x, np.int8(-3))


def test_traced_read_on_an_empty_axis_raises_index_error():
    for backend in BACKENDS:
        with pytest.raises(IndexError, match="size 0"):
            tp.jit(lambda x, i: x[i], backend=backend)(np.zeros((0, 3)), 0)


# -- dynamic_slice clamps unsigned starts in their own type -----------------------------------

@pytest.mark.parametrize("n", [9, 2 * THRESHOLD])
@pytest.mark.parametrize("start", [0, 3, 7, 2**63 - 1, 2**63, 2**63 + 1, 2**64 - 1])
def test_dynamic_slice_with_huge_uint64_starts_clamps_to_the_end(n, start):
    x = np.arange(n, dtype=np.float64) - 2.0
    size = 4
    at = min(start, n - size)

    def f(x, i):
        return {"slice": lax.dynamic_slice(x, (i,), (size,)),
                "update": lax.dynamic_update_slice(x, tnp.full(size, -1.0), (i,))}

    def ref(x, i):
        updated = x.copy()
        updated[at:at + size] = -1.0
        return {"slice": x[at:at + size].copy(), "update": updated}
    check(f, ref, x, np.uint64(start))


# -- binary logical ufuncs refuse Python ints beyond int64, as NumPy ------------------------------

@pytest.mark.parametrize("name", ["logical_and", "logical_or", "logical_xor"])
@pytest.mark.parametrize("value", [2**63, 2**64 - 1, -(2**63) - 1, 2**70])
def test_logical_ufuncs_refuse_python_ints_beyond_int64(name, value):
    for x in (np.zeros(3, np.int8), np.ones(2, np.uint64), np.array([True, False])):
        with pytest.raises(OverflowError):
            getattr(np, name)(x, value)
        for backend in BACKENDS:
            with pytest.raises(OverflowError, match=str(value)):
                tp.jit(lambda x: getattr(tnp, name)(value, x), backend=backend)(x)
    # Within int64 (even beyond the array's dtype) they are truth values, as in NumPy.
    check(lambda x: getattr(tnp, name)(x, 300), lambda x: getattr(np, name)(x, 300),
          np.array([0, 1, -3], np.int8))


# -- fori_loop with uint64 bounds from 2**63 up ---------------------------------------------------

@pytest.mark.parametrize("n", [5, THRESHOLD + 1])
@pytest.mark.parametrize("lo, hi", [(2, 4), (2**64 - 3, 2**64 - 1), (2**63 - 2, 2**63 + 1),
                                    (5, 1), (2**64 - 1, 0), (0, 0)])
def test_fori_loop_with_uint64_bounds(n, lo, hi):
    """The compiled loop counts in int64: uint64 bounds count trips, the index stays uint64
    (elementwise bodies are interchanged, .at bodies are not: both are covered)."""
    x = np.linspace(-1.0, 1.0, n)

    def f(x, lo, hi):
        return {"elementwise": lax.fori_loop(lo, hi, lambda j, c: c + (j % 7).astype(
                    np.float64), x),
                "at": lax.fori_loop(lo, hi, lambda j, c: c.at[j % 5].add(1.0), x),
                "index": lax.fori_loop(lo, hi, lambda j, c: j, np.uint64(0))}

    def ref(x, lo, hi):
        trips = range(int(lo), int(hi))
        elementwise, at = x.copy(), x.copy()
        for j in trips:
            elementwise = elementwise + float(j % 7)
            at[j % 5] += 1.0
        return {"elementwise": elementwise, "at": at,
                "index": np.uint64(trips[-1] if trips else 0)}
    check(f, ref, x, np.uint64(lo), np.uint64(hi))


# -- a function's result stays strong inside lax regions (bounds, carries, operands) -------------

def test_function_results_stay_strong_as_loop_bounds_carries_and_operands():
    big = np.array([2**63 + 1, 3, 2**64 - 5], np.uint64)
    u8 = np.uint8(200)

    def f(m, big, u8):
        lo = m.sign(0)                      # a strong int64 0, as in NumPy: not a weak index
        if m is np:
            index_sum, carry, branch = big, m.sign(1), m.sign(1) + u8
            for i in range(int(lo), 2):
                index_sum = ((index_sum - big) + np.int64(i)).astype(np.uint64)
                carry = carry + u8
        else:
            index_sum = lax.fori_loop(lo, 2, lambda i, c: ((c - big) + i).astype(np.uint64),
                                      big)
            carry = lax.fori_loop(0, 2, lambda i, c: c + u8, m.sign(1))
            branch = lax.cond(True, lambda v: v + u8, lambda v: v - u8, m.sign(1))
        v = m.where(True, 2, 3)             # captured by the body: strong there too
        captured = (np.zeros(3, np.int64) + (v - big.astype(np.uint8))) if m is np else \
            lax.fori_loop(0, 1, lambda i, acc: acc + (v - big.astype(np.uint8)),
                          tnp.zeros(3, np.int64))
        return {"index_sum": index_sum, "carry": carry, "branch": branch,
                "captured": captured}
    check(lambda *a: f(tnp, *a), lambda *a: f(np, *a), big, u8)


# -- the sign of a zero product in dot, inner, tensordot and einsum is NumPy's -------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_zero_products_of_dot_and_einsum_have_numpys_sign(dtype):
    """NumPy adds a scalar times an array of 2+ elements into a zeroed result (BLAS axpy:
    +0.0), multiplies two one-element operands (the product's sign), and einsum adds
    products of two or more operands into a zeroed output (+0.0)."""
    neg = {shape: -np.zeros(shape, dtype) for shape in [(1,), (3,), (1, 1), (2, 3)]}
    one = {shape: np.ones(shape, dtype) for shape in [(1,), (3,), (1, 1), (1, 3)]}

    def f(m, z1, z3, z11, z23, o1, o3, o11, o13):
        return {"dot_scalar": m.dot(z3, 2.0), "dot_scalar_first": m.dot(dtype(2), z23),
                "dot_one_element": m.dot(z1, 2.0), "dot_1_1": m.dot(z1, o1),
                "dot_11_11": m.dot(z11, o11), "dot_11_13": m.dot(z11, o13),
                "dot_3_3": m.dot(z3, o3), "inner_scalar": m.inner(z23, 1.0),
                "inner_1_1": m.inner(z1, o1), "tensordot_0": m.tensordot(z3, 2.0, 0),
                "tensordot_0_one": m.tensordot(z1, 2.0, 0), "outer": m.outer(z3, 2.0),
                "kron": m.kron(z3, 2.0), "einsum_product": m.einsum("i,i->i", z3, o3),
                "einsum_scalar": m.einsum("ij,->ij", z23, 1.0),
                "einsum_outer": m.einsum("i,j->ij", z1, o3), "einsum_view": m.einsum("ij->ji", z23),
                "einsum_three": m.einsum("i,i,i->i", z3, o3, -o3),
                # BLAS skips alpha == 0: zero times inf is +0.0 there, NaN elsewhere (seed 5001)
                "zero_alpha_inf": m.dot(z3 * 0.0, o3 / z3), "one_by_one_inf": m.dot(z1, o1 / z1),
                "column_zero_alpha": m.dot((o3 / z3).reshape(3, 1), z11),
                "inner_zero_alpha": m.inner(0.0, o3 / z3)}
    check(lambda *a: f(tnp, *a), lambda *a: f(np, *a), neg[(1,)], neg[(3,)], neg[(1, 1)],
          neg[(2, 3)], one[(1,)], one[(3,)], one[(1, 1)], one[(1, 3)])


# -- a Python-int argument compared with a literal beyond int64 -----------------------------------

@pytest.mark.parametrize("k", [-1, 0, 7, 2**63 - 1])
def test_python_int_argument_against_a_literal_beyond_int64(k):
    """The literal is a uint64 for NumPy; the argument (weak) must not take that type and
    wrap: -1 == 2**64 - 1 is False (seed 4307)."""
    def f(m, k):
        return {"eq": m.equal(k, 2**64 - 1), "lt": m.less(2**63, k), "ne": m.not_equal(k, 2**63),
                "ge": m.greater_equal(k, 2**64 - 1)}
    check(lambda k: f(tnp, k), lambda k: f(np, k), k)


@pytest.mark.parametrize("n", [5, THRESHOLD + 1])
def test_uint64_clip_with_python_int_arguments(n):
    """int64 cannot hold uint64's top half: the exact clip runs in uint64 (seed 5358)."""
    u = np.resize(np.array([14, 3, 0, 9811699845771588788, 2**64 - 1], np.uint64), n)
    for k in (2, 0, -5, 2**62):
        check(lambda u, k: {"lo_array_hi": tnp.clip(u, k, u), "lo": tnp.clip(u, k),
                            "lo_literal_hi": tnp.clip(u, k, 2**63)},
              lambda u, k: {"lo_array_hi": np.clip(u, k, u), "lo": np.clip(u, k, None),
                            "lo_literal_hi": np.clip(u, k, 2**63)}, u, k)


@pytest.mark.parametrize("how", ["set", "add", "max", "min", "multiply"])
def test_at_update_with_a_python_int_beyond_int64_on_uint64(how):
    """2**64 - 1 fits uint64: it takes the array's dtype in the update, never becoming an
    int64 array of its own (fuzzer seed 7495: OverflowError while simplifying)."""
    x = np.arange(720, dtype=np.uint64).reshape(8, 9, 10)
    i = np.array(3, np.uint16)
    expected = x.copy()
    big = np.uint64(2**64 - 1)
    with np.errstate(over="ignore"):
        expected[3] = {"set": lambda a: np.full_like(a, big), "add": lambda a: a + big,
                       "max": lambda a: np.maximum(a, big), "min": lambda a: np.minimum(a, big),
                       "multiply": lambda a: a * big}[how](expected[3])
    for backend in ("cpu", "interpret"):
        f = tp.jit(lambda x, i: getattr(x.at[i], how)(2**64 - 1), backend=backend)
        for _ in range(2):
            got = f(x, i)
            assert got.dtype == np.uint64 and np.array_equal(got, expected)


@pytest.mark.parametrize("value", [2**63, 2**64, -2**63 - 1])
def test_booleans_compared_with_a_python_int_beyond_int64_raise_as_numpy(value):
    """NumPy compares integer arrays exactly with any Python int, but a boolean array's loop is
    int64, which cannot hold these (fuzzer seed 12555)."""
    x = np.zeros(5, bool)
    with pytest.raises(OverflowError):
        np.less(x, value)                       # NumPy's own answer
    for fn in (lambda x: x < value, lambda x: tnp.equal(x, value), lambda x: value >= x):
        for backend in ("cpu", "interpret"):
            with pytest.raises(OverflowError, match="out of bounds for int64"):
                tp.jit(fn, backend=backend)(x)
    assert np.array_equal(tp.jit(lambda x: x < 300)(x), x < 300)      # in range: compared
