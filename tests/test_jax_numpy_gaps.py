"""jax.numpy arguments and spellings that JAX's own lax_numpy_test.py found missing or
different in transpile, each checked against NumPy or against JAX's answers recorded by
tools/record_jax_numpy_gaps.py (tests/data/jax_numpy_gaps.json), eagerly and under jit."""
from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile.config import config

RECORDED = json.loads((Path(__file__).parent / "data" / "jax_numpy_gaps.json").read_text())


@pytest.fixture
def jax_rules():
    with config.settings(transpile_dtype_rules="jax", jax_enable_x64=True):
        yield


def recorded(entry):
    values = entry["values"]
    if entry["dtype"].startswith("complex"):
        values = [complex(re, im) for re, im in values]
    return np.asarray(values, dtype=entry["dtype"]).reshape(entry["shape"])


def assert_like(got, entry, rtol=1e-6):
    want = recorded(entry)
    got = np.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got.astype(np.complex128), want.astype(np.complex128),
                               rtol=rtol, atol=rtol)


# --- convolve / correlate ------------------------------------------------------------------------

CONV = RECORDED["convolutions"]


@pytest.mark.parametrize("key", sorted(CONV))
def test_convolutions_give_jax_dtypes_and_values(jax_rules, key):
    name, dt, mode = key.split(",")
    a, v = np.array([1, -2, 3, 0, 2]).astype(dt), np.array([2, 1, -1]).astype(dt)
    kwargs = {"preferred_element_type": dt} if mode == "preferred" else {"mode": mode}
    fn = getattr(tnp, name)
    rtol = 1e-2 if dt == "float16" else 1e-6
    assert_like(fn(a, v, precision=None, **kwargs), CONV[key], rtol)
    assert_like(tp.jit(lambda a, v: fn(a, v, **kwargs))(a, v), CONV[key], rtol)


def test_convolve_keeps_numpy_dtypes_under_numpy_rules():
    a = np.array([1, 2, 3], np.int32)
    assert tnp.convolve(a, a).dtype == np.convolve(a, a).dtype
    np.testing.assert_array_equal(tnp.correlate(a, a, "full"), np.correlate(a, a, "full"))


# --- complex logaddexp -----------------------------------------------------------------------------

def _same_angle(got, want, rtol):
    # The wrapped imaginary part sits on ±pi for some inputs; either side is the same value.
    np.testing.assert_allclose(got.real, want.real, rtol=rtol, atol=rtol)
    np.testing.assert_allclose(np.exp(1j * got.imag), np.exp(1j * want.imag), atol=10 * rtol)


@pytest.mark.parametrize("key", sorted(RECORDED["complex_logaddexp"]))
def test_complex_logaddexp_matches_jax(jax_rules, key):
    name, dt = key.split(",")
    x = np.array([0.5 + 1j, -2.0 + 0.25j, 3.0 - 2.0j, 1e3 + 1j, -1e3 - 3j], dt)
    y = np.array([-1.0 + 2.5j, 0.5 - 0.5j, 3.0 + 2.0j, -1e3 + 2j, 1e3 + 3j], dt)
    want = recorded(RECORDED["complex_logaddexp"][key])
    rtol = 1e-5 if dt == "complex64" else 1e-12
    for got in (getattr(tnp, name)(x, y), tp.jit(getattr(tnp, name))(x, y)):
        assert got.dtype == want.dtype
        _same_angle(np.asarray(got), want, rtol)


def test_complex_logaddexp_is_numpys_formula_where_numpy_has_none(jax_rules):
    rng = np.random.default_rng(3)
    x = rng.normal(size=20) + 1j * rng.normal(size=20)
    y = rng.normal(size=20) + 1j * rng.normal(size=20)
    _same_angle(np.asarray(tnp.logaddexp(x, y)), np.log(np.exp(x) + np.exp(y)), 1e-12)


# --- interp ------------------------------------------------------------------------------------------

INTERP_KWARGS = {"left": dict(left="extrapolate"), "right": dict(right="extrapolate"),
                 "both": dict(left="extrapolate", right="extrapolate"),
                 "mixed": dict(left=0.0, right="extrapolate")}


@pytest.mark.parametrize("case", sorted(INTERP_KWARGS))
def test_interp_extrapolates_as_jax(jax_rules, case):
    x = np.array([0.5, 1.5, 3.5, 3.9, 6.0, -1.0])
    xp, fp = np.array([1.0, 2.0, 3.0, 5.0]), np.array([10.0, 20.0, 30.0, 20.0])
    kw = INTERP_KWARGS[case]
    assert_like(tnp.interp(x, xp, fp, **kw), RECORDED["interp"][case])
    assert_like(tp.jit(lambda x: tnp.interp(x, xp, fp, **kw))(x), RECORDED["interp"][case])


@pytest.mark.parametrize("call, message", [
    (lambda: tnp.interp(0.0, np.arange(2.0), np.arange(3.0)),
     "xp and fp must be one-dimensional arrays of equal size"),
    (lambda: tnp.interp(0.0, np.arange(3.0), np.arange(3.0), left="interpolate"),
     "the only valid string value of `left` is 'extrapolate', but got: 'interpolate'"),
    (lambda: tnp.interp(1j, 1j * np.arange(3.0), np.arange(3.0)),
     "jnp.interp: complex x values not supported."),
])
def test_interp_errors_are_jaxs(call, message):
    """JAX's words first (its tests match them); transpile may add the values it got."""
    with pytest.raises(ValueError) as info:
        call()
    assert str(info.value).startswith(message)


# --- index tricks -------------------------------------------------------------------------------------

@pytest.mark.parametrize("dt", ["int8", "int16", "int32", "uint8", "uint16"])
def test_ravel_multi_index_keeps_the_index_dtype_under_jax_rules(jax_rules, dt):
    i = np.array([0, 1], dt)
    entry = RECORDED["index_tricks"][f"ravel_multi_index,{dt}"]
    assert_like(tnp.ravel_multi_index((i, i), (2, 3), mode="ignore"), entry)
    compiled = tp.jit(lambda i: tnp.ravel_multi_index((i, i), (2, 3), mode="ignore"))(i)
    assert_like(compiled, entry)


@pytest.mark.parametrize("shape", [(12,), (3, 4), (2, 1, 6)])
def test_unravel_index_with_traced_dims_matches_jax(jax_rules, shape):
    idx = np.array([-13, -12, -5, -1, 0, 5, 11, 12, 30])
    want = RECORDED["index_tricks"]["unravel_index," + "x".join(map(str, shape))]
    for got in (tnp.unravel_index(idx, shape), tp.jit(tnp.unravel_index)(idx, shape)):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert_like(g, w)


# --- traced positions: repeat, insert, delete, place ----------------------------------------------------

@pytest.mark.parametrize("length", [0, 3, 9, 15])
def test_repeat_to_total_length_with_traced_repeats(jax_rules, length):
    m, reps = np.array([1, 2, 3, 4, 5, 6]), np.array([1, 3, 0, 1, 1, 2])
    entry = RECORDED["repeat"][f"repeat,{length}"]
    assert_like(tnp.repeat(m, reps, 0, total_repeat_length=length), entry)
    compiled = tp.jit(lambda m, r: tnp.repeat(m, r, 0, total_repeat_length=length))(m, reps)
    assert_like(compiled, entry)


@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_insert_at_a_traced_index_matches_numpy(axis):
    x = np.arange(12.0).reshape(3, 4)
    n = x.size if axis is None else x.shape[axis]
    insert = tp.jit(lambda x, i: tnp.insert(x, i, -1.0, axis=axis))
    for i in range(-n - 1, n + 2):       # beyond the ends: clipped (JAX), NumPy would refuse
        expected = np.insert(x, min(max(i if i >= 0 else i + n, 0), n), -1.0, axis=axis)
        np.testing.assert_array_equal(insert(x, np.int32(i)), expected)


@pytest.mark.parametrize("axis", [None, 0, 1])
def test_delete_traced_unique_indices_matches_numpy(axis):
    x = np.arange(20.0).reshape(4, 5)
    n = x.size if axis is None else x.shape[axis]
    rng = np.random.default_rng(0)
    for k in range(0, 4):
        idx = rng.choice(n, k, replace=False) - (n if k % 2 else 0)    # some negative
        got = tp.jit(lambda x, i: tnp.delete(x, i, axis=axis, assume_unique_indices=True))(
            x, idx)
        np.testing.assert_array_equal(got, np.delete(x, idx, axis=axis))


def test_place_with_a_traced_mask_matches_numpy():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(3, 4))
    for vals in (np.array([7.0]), np.array([1.0, 2.0, 3.0]), np.arange(20.0)):
        mask = rng.random((3, 4)) < 0.5
        expected = x.copy()
        np.place(expected, mask, vals)
        got = tp.jit(lambda x, m, v: tnp.place(x, m, v, inplace=False))(x, mask, vals)
        np.testing.assert_array_equal(got, expected)


# --- smaller spellings ----------------------------------------------------------------------------------

def test_roll_takes_an_array_of_shifts():
    a = np.arange(60).reshape(3, 4, 5)
    for shifts, axis in [((3,), (0,)), ((1, 2), (0, -1)), ((4, 2, 5, 5, 2, 4), None)]:
        s = np.array(shifts)
        np.testing.assert_array_equal(tnp.roll(a, s, axis=axis), np.roll(a, s, axis=axis))
        rolled = tp.jit(lambda a, s: tnp.roll(a, s, axis=axis))(a, s)
        np.testing.assert_array_equal(rolled, np.roll(a, s, axis=axis))


@pytest.mark.parametrize("k", [-4, 0, 3, 2**33, -2**100, 2**100])
def test_eye_and_tri_offsets_beyond_the_matrix(k):
    np.testing.assert_array_equal(tp.jit(lambda: tnp.eye(4, 3, k))(), np.eye(4, 3, k))
    # NumPy's own tri overflows past int64; the matrix is all ones or all zeros there.
    np.testing.assert_array_equal(tp.jit(lambda: tnp.tri(4, 3, k))(),
                                  np.tri(4, 3, max(-5, min(4, k))))
    if abs(k) < 2**62:
        np.testing.assert_array_equal(tp.jit(lambda k: tnp.tri(4, 3, k))(k), np.tri(4, 3, k))


@pytest.mark.parametrize("dt", [np.float32, np.complex128])
def test_traced_geomspace_and_linspace_match_numpy(dt):
    start = (np.array(2.0) * (1 + 1j if dt == np.complex128 else 1)).astype(dt)
    stop = np.array([[3.0, 8.0], [1.5, 2.0]], dt)
    for axis in (0, -2, 2):
        for fn in ("geomspace", "linspace"):
            want = getattr(np, fn)(start, stop, 5, axis=axis)
            got = tp.jit(lambda a, b: getattr(tnp, fn)(a, b, 5, axis=axis))(start, stop)
            assert got.shape == want.shape
            np.testing.assert_allclose(got, want, rtol=1e-5)


def test_clip_without_bounds_and_complex_clip():
    x = np.arange(4.0)
    np.testing.assert_array_equal(tnp.clip(x), np.clip(x))
    np.testing.assert_array_equal(tp.jit(lambda x: tnp.clip(x))(x), x)
    with config.settings(transpile_dtype_rules="jax"):
        with pytest.raises(ValueError, match="Complex values have no ordering"):
            tnp.clip(np.ones(2, complex))
        with pytest.raises(ValueError, match="Complex values have no ordering"):
            tnp.clip(x, max=np.array([1 + 2j]))


@pytest.mark.parametrize("name", ["hstack", "vstack", "dstack", "column_stack"])
def test_joining_one_array_iterates_it(name):
    a = np.arange(6.0).reshape(3, 2)
    np.testing.assert_array_equal(getattr(tnp, name)(a), getattr(np, name)(a))
    np.testing.assert_array_equal(tp.jit(getattr(tnp, name))(a), getattr(np, name)(a))


def test_argsort_dtype_digitize_method_searchsorted_method():
    x = np.array([3.0, 1.0, 2.0])
    assert tnp.argsort(x, dtype=np.int16).dtype == np.int16
    np.testing.assert_array_equal(tp.jit(lambda x: tnp.argsort(x, dtype="uint32"))(x),
                                  np.argsort(x))
    bins = np.array([0.0, 1.5, 2.5])
    np.testing.assert_array_equal(tnp.digitize(x, bins, method="scan"), np.digitize(x, bins))
    a = np.sort(np.random.default_rng(2).random(15))
    assert tnp.asarray(a).searchsorted(0.5, method="compare_all") == np.searchsorted(a, 0.5)
    with pytest.raises(ValueError, match="method must be one of"):
        tnp.digitize(x, bins, method="bisect")


def test_round_builtin_on_arrays():
    x = tnp.asarray(np.array([1.234, 2.5]))
    np.testing.assert_array_equal(round(x, 1), np.round(np.array([1.234, 2.5]), 1))
    np.testing.assert_array_equal(tp.jit(lambda x: round(x, 2))(x), [1.23, 2.5])


def test_size_over_axis_tuples_and_lists_with_a_warning():
    a = np.zeros((2, 3, 4))
    assert tnp.size(a, (0, 2)) == 8 and tnp.size(a, ()) == 1 and tnp.size(a, -1) == 4
    with pytest.raises(ValueError, match="repeated axis"):
        tnp.size(a, (0, -3))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert (tnp.ndim([1, 2, 3]), tnp.shape([[1], [2]]), tnp.size([1, 2])) == (1, (2, 1), 2)
    assert all(issubclass(w.category, DeprecationWarning) for w in caught) and len(caught) == 3


def test_arrays_report_their_device():
    x = tnp.arange(3)
    assert x.devices() == {tp.devices("cpu")[0]} and x.device == tp.devices("cpu")[0]


def test_jax_error_names_catch_concretization():
    @tp.jit
    def f(x, n):
        for _ in range(n):
            x = x * x
        return x
    with pytest.raises(tp.errors.TracerIntegerConversionError):
        f(3.0, 3)
    assert tp.errors.ConcretizationTypeError is tp.ConcretizationError


def test_corrcoef_of_complex_clips_each_part_and_takes_a_float_dtype(jax_rules):
    rng = np.random.default_rng(4)
    x = rng.normal(size=(4, 10)) + 1j * rng.normal(size=(4, 10))
    for got in (tnp.corrcoef(x), tp.jit(tnp.corrcoef)(x)):
        np.testing.assert_allclose(got, np.corrcoef(x), rtol=1e-12)
    assert tnp.corrcoef(np.arange(5), np.arange(5), dtype=np.float32).dtype == np.float32
    with pytest.raises(ValueError, match="dtype must be a subclass of float or complex"):
        tnp.corrcoef(np.arange(5), np.arange(5), dtype=int)


def test_bincount_of_booleans_and_concatenate_of_scalars():
    flags = np.array([True, False, True, True])
    np.testing.assert_array_equal(tnp.bincount(flags), np.bincount(flags))
    scalars = [np.int32(0), np.int32(1)]
    np.testing.assert_array_equal(tnp.concatenate(scalars, axis=None),
                                  np.concatenate(scalars, axis=None))


def test_ldexp_reaches_the_ends_of_bfloat16():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    info = ml_dtypes.finfo(ml_dtypes.bfloat16)
    x = np.array([info.tiny, info.max], dtype=ml_dtypes.bfloat16)
    span = int(np.log2(float(info.max)) - np.log2(float(info.tiny))) - 1
    exps = np.array([span, -span])
    # Powers of two: exact in float32, so float32's ldexp rounded back is the answer.
    want = np.ldexp(x.astype(np.float32), exps).astype(ml_dtypes.bfloat16)
    np.testing.assert_array_equal(np.asarray(tnp.ldexp(x, exps)).astype(np.float32),
                                  want.astype(np.float32))


def test_bincount_of_negative_values_only_has_bin_zero():
    # JAX counts negative values in bin 0; NumPy (which refuses them) agrees once they are clipped
    x = np.array([-3, -1, -7], dtype=np.int16)
    np.testing.assert_array_equal(tnp.bincount(x), np.bincount(np.clip(x, 0, None)))
    weights = np.array([1.0, 2.0, 0.5])
    np.testing.assert_array_equal(tnp.bincount(x, weights),
                                  np.bincount(np.clip(x, 0, None), weights))


def test_eager_bfloat16_products_stay_bfloat16(jax_rules):
    ml_dtypes = pytest.importorskip("ml_dtypes")
    bf16 = ml_dtypes.bfloat16
    a = np.arange(6, dtype=bf16).reshape(2, 3)
    b = np.arange(12, dtype=bf16).reshape(3, 4)
    want = (a.astype(np.float32) @ b.astype(np.float32)).astype(bf16)
    for got in (tnp.matmul(a, b), tnp.tensordot(a, b, 1), tp.jit(tnp.matmul)(a, b)):
        assert got.dtype == bf16
        np.testing.assert_array_equal(np.asarray(got).astype(np.float32), want.astype(np.float32))


def test_tensordot_axes_errors_are_jax_type_errors(jax_rules):
    a, b = np.ones((3, 2, 2)), np.ones((2,))
    for axes, message in [(2, "Number of tensordot axes.*exceeds input ranks"),
                          (([0], [0, 1]), "tensordot requires axes lists to have equal length"),
                          (("bad", "axes"), "tensordot requires both axes lists to be either"),
                          ("badaxes", "tensordot axes argument must be an int")]:
        with pytest.raises(TypeError, match=message):
            tnp.tensordot(a, b, axes=axes)
    np.testing.assert_array_equal(tnp.tensordot(np.ones((2, 3)), np.ones((3, 2)), (1, 0)),
                                  np.tensordot(np.ones((2, 3)), np.ones((3, 2)), (1, 0)))


def test_broadcast_to_returns_an_array_and_raises_jax_errors(jax_rules):
    out = tnp.broadcast_to(10.0, ())
    assert not np.isscalar(out) and out.shape == () and float(out) == 10.0   # an array
    with pytest.raises(ValueError, match="Cannot broadcast to shape with fewer dimensions"):
        tnp.broadcast_to(np.ones((3, 4, 5)), (2, 3))
    with pytest.raises(ValueError, match="Incompatible shapes for broadcasting"):
        tnp.broadcast_to(np.ones((2, 3)), (3, 3))
    np.testing.assert_array_equal(tp.jit(lambda x: tnp.broadcast_to(x, (2, 3)))(np.arange(3.0)),
                                  np.broadcast_to(np.arange(3.0), (2, 3)))


def test_array_of_a_list_promotes_its_elements_as_jax(jax_rules):
    # Python numbers are weak: [0, float16(1)] is float16 (NumPy: float64), as JAX
    assert tnp.array([0, np.float16(1)]).dtype == np.float16
    assert tnp.array([np.int8(1), 2]).dtype == np.int8
    assert tnp.array([[1, 2], [3, 4]]).dtype == np.int64
    assert tnp.array([np.float32(1), 2.5]).dtype == np.float32
    with pytest.raises(ValueError, match="None is not a valid value for jnp.array"):
        tnp.array([0.0, None])
    with pytest.raises(OverflowError, match="Python int too large"):
        tnp.array([0, -2**63 - 1])


def test_jax_error_words_for_shape_typos_trace_axes_and_empty_take():
    for fn, name in [(tnp.zeros, "zeros"), (tnp.ones, "ones"), (tnp.empty, "empty")]:
        with pytest.raises(TypeError, match=rf"Did you accidentally write `jax\.numpy\.{name}"
                                            r"\(2, 3\)` when you meant"):
            fn(2, 3)
    assert tnp.zeros(2, bool).dtype == np.bool_
    with pytest.raises(ValueError, match="axis1 and axis2 can not be same"):
        tnp.trace(np.ones((2, 3, 2)), axis1=1, axis2=-2)
    with pytest.raises(IndexError, match="non-empty jnp.take"):
        tnp.take(np.ones((2, 0, 4), np.float32), np.array([0], np.int32), axis=1)
    np.testing.assert_array_equal(tnp.take(np.ones((2, 0, 4)), np.array([], np.int32), axis=1),
                                  np.ones((2, 0, 4)))
