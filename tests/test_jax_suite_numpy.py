"""jax.numpy behaviours JAX's lax_numpy_test.py checks (tests/jax_suite_numpy_cases.py),
against JAX's recorded answers (tools/record_jax_suite_numpy.py), eagerly and under jit, with
JAX's dtype rules and x64 as that file runs; and the jax.Array buffer methods of eager arrays."""
import builtins
import copy
import io
import json
import os

import numpy as np
import pytest

import jax_suite_numpy_cases as cases
import transpile as tp
import transpile.numpy as tnp
from recorded_leaves import assert_leaves_like

with open(os.path.join(os.path.dirname(__file__), "data", "jax_suite_numpy.json")) as _f:
    RECORDED = json.load(_f)

JAX_RULES = dict(transpile_dtype_rules="jax", jax_enable_x64=True)
# Cases that call jit or eval_shape themselves, or take non-array host objects: eager only.
EAGER_ONLY = {"searchsorted_dtype_past_int32", "searchsorted_dtype_at_int32_max",
              "masked_array_jit_argument"}


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_matches_jax(name):
    case = cases.CASES[name]
    want = RECORDED["values"][name]
    with tp.config.settings(**JAX_RULES):
        assert_leaves_like(case(tp, tnp), want, name)
        if name not in EAGER_ONLY:
            assert_leaves_like(tp.jit(lambda: case(tp, tnp))(), want, name + " (jit)")


@pytest.mark.parametrize("name", sorted(cases.ERRORS))
def test_refused_as_jax_refuses(name):
    error = getattr(builtins, RECORDED["errors"][name])
    with tp.config.settings(**JAX_RULES):
        with pytest.raises(error):
            cases.ERRORS[name](tp, tnp)
        if name not in EAGER_ONLY:
            with pytest.raises(error):
                tp.jit(lambda: cases.ERRORS[name](tp, tnp))()


@pytest.mark.parametrize("rules", [dict(transpile_dtype_rules="numpy"), JAX_RULES],
                         ids=["numpy", "jax"])
def test_buffer_pointers_and_deletion_follow_views(rules):
    with tp.config.settings(**rules):
        x = tnp.ones(10, dtype=np.int8)
        view, compiled = tnp.asarray(x), tp.jit(tnp.asarray)(x)
        copied, deep = tnp.array(x), copy.deepcopy(x)
        # copy.copy/deepcopy of a traced array copy it inside the trace
        deep_compiled, shallow_compiled = tp.jit(copy.deepcopy)(x), tp.jit(copy.copy)(x)
        np.testing.assert_array_equal(deep_compiled, x)
        assert view.unsafe_buffer_pointer() == x.unsafe_buffer_pointer()
        for other in (compiled, copied, deep, deep_compiled, shallow_compiled):
            assert other.unsafe_buffer_pointer() != x.unsafe_buffer_pointer()
        assert not x.is_deleted()
        x.delete()
        assert x.is_deleted() and view.is_deleted() and x[2:].is_deleted()
        assert not any(a.is_deleted() for a in (compiled, copied, deep))


def test_astype_without_copy_shares_deletion():
    with tp.config.settings(**JAX_RULES):
        x = tnp.arange(5, dtype="int32")
        x.astype("int32", copy=False).delete()
        assert x.is_deleted()
        y = tnp.arange(5, dtype="int32")
        y.astype("float32", copy=False).delete()
        assert not y.is_deleted()


def test_numpys_functions_that_sort_copies_in_place_still_work_under_jax_rules():
    x = np.array([[3, 1, 2, 1], [0, 5, 5, -1]])
    with tp.config.settings(**JAX_RULES):
        a = tnp.asarray(x.copy())
        np.testing.assert_array_equal(np.sort(a, axis=1), np.sort(x, axis=1))
        np.testing.assert_array_equal(np.unique(a), np.unique(x))
        np.testing.assert_array_equal(a.sort(axis=0), np.sort(x, axis=0))


def test_sort_method_stays_numpys_under_numpys_rules():
    x = np.array([3, 1, 2])
    with tp.config.settings(transpile_dtype_rules="numpy"):
        a = tnp.asarray(x.copy())
        assert a.sort() is None                     # NumPy's in-place sort
        np.testing.assert_array_equal(a, [1, 2, 3])


def test_bfloat16_saved_by_numpy_loads_as_bfloat16():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    x = np.array([1.5, -2.0, 3.25], ml_dtypes.bfloat16)
    buffer = io.BytesIO()
    tnp.save(buffer, x)
    buffer.seek(0)
    got = tnp.load(buffer)
    assert got.dtype == x.dtype
    np.testing.assert_array_equal(got.astype(np.float32), x.astype(np.float32))


def test_gradient_coordinates_as_numpy_under_numpys_rules():
    f = np.random.default_rng(3).standard_normal((6, 4))
    x = np.array([0.0, 0.1, 0.5, 0.6, 2.0, 2.5])
    fn = lambda a, c: tnp.gradient(a, c, axis=0)      # noqa: E731
    for got in (fn(f, x), tp.jit(fn)(f, x)):
        np.testing.assert_allclose(got, np.gradient(f, x, axis=0), rtol=1e-12)


@pytest.mark.parametrize("bins", [[np.array([0, 1, 3, 5]), np.array([0, 2, 3, 4, 6])],
                                  np.array([0, 2, 4, 6]), 3, [2, 4]])
def test_histogram2d_reads_bins_as_numpy(bins):
    x, y = cases._POINTS
    expected = np.histogram2d(x, y, bins=bins)
    got = tnp.histogram2d(x, y, bins=bins)
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g, e)


VIEW_PAIRS = [(np.int8, np.int32), (np.float64, np.uint16), (np.complex64, np.float32),
              (np.complex128, np.int16), (np.bool_, np.uint16), (np.float16, np.uint8),
              (np.uint32, np.float64), (np.uint8, np.bool_), (np.int32, np.float32)]


@pytest.mark.parametrize("rules", [dict(transpile_dtype_rules="numpy"), JAX_RULES],
                         ids=["numpy", "jax"])
@pytest.mark.parametrize("src,dst", VIEW_PAIRS, ids=lambda d: np.dtype(d).name)
def test_traced_view_reads_the_bytes_as_numpy(rules, src, dst):
    # Across widths the last axis rescales (NumPy's rule); bytes compared exactly, NaN
    # patterns included.
    raw = np.random.default_rng(5).integers(0, 256, 2 * 64, dtype=np.uint8)
    x = (raw % 2).astype(bool).reshape(2, 64) if src is np.bool_ else raw.view(src).reshape(2, -1)
    if dst is np.bool_:          # NumPy defines bool only for bytes 0 and 1
        x = (x % 2).astype(src)
    want = x.view(dst)
    with tp.config.settings(**rules):
        got = np.asarray(tp.jit(lambda v: v.view(dst))(x))
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))


def test_traced_view_refusals():
    with pytest.raises(ValueError, match="does not divide"):
        tp.jit(lambda v: v.view(np.int32))(np.zeros(3, np.int16))
    with pytest.raises(ValueError, match="0-d"):
        tp.jit(lambda v: v.view(np.int16))(np.zeros((), np.int32))
    with pytest.raises(NotImplementedError, match="complex"):
        tp.jit(lambda v: v.view(np.complex64))(np.zeros(4, np.float32))


def test_unique_multiply_differentiates_in_the_updates():
    # out[i] = x[i] * v[j] at idx[j] = i: d sum(out * w) / dv[j] = x[idx[j]] * w[idx[j]],
    # d / dx[i] = v[j] * w[i] there and w[i] elsewhere.
    x, v = np.arange(1.0, 7.0), np.array([2.0, -3.0, 0.5])
    idx, w = np.array([4, 0, -1]), np.linspace(1.0, 2.0, 6)
    loss = lambda x, v: (x.at[idx].multiply(v, unique_indices=True) * w).sum()   # noqa: E731
    want_v = x[idx] * w[idx]
    want_x = w.copy()
    want_x[idx] *= v
    for fn in (tp.grad(loss, argnums=(0, 1)), tp.jit(tp.grad(loss, argnums=(0, 1)))):
        gx, gv = fn(x, v)
        np.testing.assert_allclose(gx, want_x, rtol=1e-12)
        np.testing.assert_allclose(gv, want_v, rtol=1e-12)
    np.testing.assert_allclose(tnp.asarray(x).at[idx].multiply(v, unique_indices=True),
                               tnp.asarray(x).at[idx].multiply(v))


@pytest.mark.parametrize("src,dst", [(np.complex64, np.float64), (np.int8, np.bool_),
                                     (np.complex128, np.complex128), (np.float32, np.uint32)],
                         ids=lambda d: np.dtype(d).name)
def test_traced_view_of_a_scalar_keeps_its_width(src, dst):
    x = np.array(1, src) if src is not np.complex64 else np.array(1.5 - 2j, src)
    got = np.asarray(tp.jit(lambda v: v.view(dst))(x))
    want = x.view(dst)
    assert got.shape == () and got.dtype == want.dtype
    np.testing.assert_array_equal(got.reshape(1).view(np.uint8), want.reshape(1).view(np.uint8))


@pytest.mark.parametrize("rules", [dict(transpile_dtype_rules="numpy"), JAX_RULES],
                         ids=["numpy", "jax"])
def test_diff_of_order_zero_is_the_array_itself(rules):
    # NumPy and JAX ignore prepend/append when n=0.
    x = np.arange(6, dtype=np.int8).reshape(3, 2)
    with tp.config.settings(**rules):
        for fn in (tnp.diff, tp.jit(tnp.diff, static_argnames=("n", "axis"))):
            got = fn(x, n=0, axis=0, prepend=0, append=np.ones((1, 2), np.int8))
            np.testing.assert_array_equal(got, x)


def test_diff_prepends_a_weak_python_number_under_jax_rules():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    x = np.array([1.0, 2.5, 4.0], ml_dtypes.bfloat16)
    with tp.config.settings(**JAX_RULES):
        got = tnp.diff(x, prepend=1)
    assert got.dtype == x.dtype
    np.testing.assert_array_equal(got.astype(np.float32), [0.0, 1.5, 1.5])


def test_load_keeps_object_arrays_as_numpys():
    buffer = io.BytesIO()
    np.save(buffer, np.array([{"a": 1}, None], dtype=object), allow_pickle=True)
    buffer.seek(0)
    got = tnp.load(buffer, allow_pickle=True)
    assert got.dtype == object and got[0] == {"a": 1}


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_sort_and_argsort_compile_in_numpys_order(dtype):
    # Lexicographic, NaNs last in NumPy's classes R+Rj, R+nanj, nan+Rj, nan+nanj; stable.
    n = np.nan
    z = np.array([[3 + 1j, complex(n, 2), complex(1, n), 1 + 0j, complex(n, n), 1 - 1j,
                   3 + 1j, 5j, complex(n, 1), complex(2, n)],
                  [2 + 2j, 2 - 2j, -1 + 0j, complex(0, n), 2 + 2j, 0j, -0j, 7 + 0j, 1j, 1j]],
                 dtype)
    for fn, want in ((tnp.sort, np.sort(z)), (tnp.argsort, np.argsort(z, kind="stable")),
                     (lambda v: tnp.sort(v, axis=0), np.sort(z, axis=0))):
        for got in _eager_and_compiled(fn, z):
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(got, want)
    for got in _eager_and_compiled(tnp.sort_complex, z[1]):
        np.testing.assert_array_equal(got, np.sort_complex(z[1]))


def _eager_and_compiled(fn, *args):
    return [np.asarray(fn(*args)), np.asarray(tp.jit(fn)(*args))]


def test_linspace_step_between_no_points_is_one_nan():
    # NumPy's: a scalar NaN, also for array endpoints, eagerly and compiled.
    start, stop = np.zeros((2, 2)), np.ones((2, 2))
    fn = lambda a, b: tnp.linspace(a, b, 0, retstep=True)[1]     # noqa: E731
    for got in _eager_and_compiled(fn, start, stop):
        assert got.shape == () and np.isnan(got)


@pytest.mark.parametrize("rules", [dict(transpile_dtype_rules="numpy"), JAX_RULES],
                         ids=["numpy", "jax"])
@pytest.mark.parametrize("shapes,axis,dtype", [
    (((3, 4), (1, 4)), 1, np.int8),              # the dtype is kept (NumPy's gufunc, JAX)
    (((4, 4, 1), (4,)), 0, np.float32),          # each operand's axis moves last first
    (((2, 3), (2, 3)), -1, np.complex128)])      # x1 is conjugated
def test_vecdot_as_numpy(rules, shapes, axis, dtype):
    rng = np.random.default_rng(8)
    x, y = ((rng.standard_normal(s) * 3).astype(dtype) for s in shapes)
    if dtype is np.complex128:
        x = x + 1j * rng.standard_normal(shapes[0])
    want = np.vecdot(x, y, axis=axis)
    with tp.config.settings(**rules):
        for got in _eager_and_compiled(lambda a, b: tnp.vecdot(a, b, axis=axis), x, y):
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_allclose(got, want, rtol=1e-6)


def test_piecewise_traces_each_function_once_per_signature():
    # As JAX's (piecewise jitted with its functions static): five eager calls, one trace.
    calls = []

    def doubled(v):
        calls.append(1)
        return v * 2

    x = np.linspace(-2.0, 2.0, 9)
    for _ in range(5):
        got = tnp.piecewise(x, [x < 0, x > 1], [doubled, np.square, 7.0])
    assert len(calls) == 1
    np.testing.assert_array_equal(got, np.piecewise(x, [x < 0, x > 1],
                                                    [lambda v: v * 2, np.square, 7.0]))
    tnp.piecewise(x[:4], [x[:4] < 0], [doubled, 0.0])          # a new shape: traced again
    assert len(calls) == 2
